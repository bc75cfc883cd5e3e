"""Graph building and traversal: depth limits, directions, cycles, orchestration pass-through."""

from __future__ import annotations

import pytest

from dw_assets.core.graph import ContextGraph, GraphError, Provenance
from tests.support.graph_builders import DBT, OL, chain_graph, night2_graph


def test_add_node_merges_and_refines_generic_values() -> None:
    g = ContextGraph()
    g.add_node("lake.orders_clean", "dataset", "warehouse")
    g.add_node("lake.orders_clean", "source", "dbt", name="orders_clean", owner="priya.raman", attrs={"a": 1})
    g.add_node("lake.orders_clean", "model", "openlineage", owner="jonas.berg", attrs={"b": 2})
    node = g.node("lake.orders_clean")
    assert (node.kind, node.system, node.name, node.owner) == ("source", "dbt", "orders_clean", "jonas.berg")
    assert node.attrs == {"a": 1, "b": 2}
    assert len(g) == 1


def test_edge_seen_by_several_systems_keeps_every_provenance() -> None:
    g = chain_graph(2)
    note = Provenance("note", author="a", source="T-1")
    g.add_edge("w.d0", "w.d1", "feeds", note)
    g.add_edge("w.d0", "w.d1", "feeds", DBT)  # same record twice is kept once
    (edge,) = list(g.edges())
    assert [p.origin for p in edge.provenance] == ["dbt_manifest", "note"]
    assert g.edge_count == 1


@pytest.mark.parametrize(
    ("call", "message"),
    [
        pytest.param(lambda g: g.add_node("x", "table", "dbt"), "kind 'table'", id="bad-kind"),
        pytest.param(lambda g: g.add_edge("w.d0", "w.nope", "feeds", DBT), "'w.nope' is not in the graph",
                     id="missing-end"),
        pytest.param(lambda g: g.add_edge("w.d0", "w.d1", "copies", DBT), "relation 'copies'", id="bad-relation"),
        pytest.param(lambda g: Provenance("slack"), "origin 'slack'", id="bad-origin"),
    ],
)
def test_bad_input_is_named(call, message: str) -> None:
    with pytest.raises(GraphError, match=message):
        call(chain_graph(2))


def test_depth_limit_in_both_directions() -> None:
    g = chain_graph(10)
    down = g.trace("w.d4", direction="downstream", max_depth=2)
    assert [(n.id, n.depth) for n in down.nodes] == [("w.d4", 0), ("w.d5", 1), ("w.d6", 2)]
    up = g.trace("w.d4", direction="upstream", max_depth=3)
    assert [n.id for n in up.nodes] == ["w.d4", "w.d3", "w.d2", "w.d1"]
    both = g.trace("w.d4", direction="both", max_depth=1)
    assert {(n.id, n.direction) for n in both.nodes} == {("w.d4", "root"), ("w.d3", "upstream"),
                                                         ("w.d5", "downstream")}
    assert [(e.src, e.dst) for e in both.edges] == [("w.d3", "w.d4"), ("w.d4", "w.d5")]
    assert [n.id for n in g.trace("w.d4", max_depth=0).nodes] == ["w.d4"]
    assert len(g.trace("w.d0", direction="downstream", max_depth=None).nodes) == 10


def test_cycles_terminate_and_visit_each_node_once() -> None:
    g = chain_graph(5, cycle=True)
    result = g.trace("w.d2", direction="both", max_depth=None)
    ids = [n.id for n in result.nodes]
    assert sorted(ids) == [f"w.d{i}" for i in range(5)] and len(ids) == len(set(ids))
    assert g.blast_radius("w.d0", max_depth=None).affected[-1].depth == 4


def test_orchestration_is_passed_through_but_not_listed() -> None:
    g = night2_graph()
    up = g.trace("fct_revenue", direction="upstream", max_depth=6)
    assert [(n.id, n.depth) for n in up.nodes] == [
        ("analytics.fct_revenue", 0), ("analytics.stg_orders", 1), ("lake.orders_clean", 2), ("app.orders", 3)]
    edges = {(e.src, e.dst): e for e in up.edges}
    hop = edges[("app.orders", "lake.orders_clean")]
    assert hop.via == ("airflow:orders_daily.orders_clean",)
    assert [p.origin for p in hop.provenance] == ["note", "config"]
    both_systems = edges[("lake.orders_clean", "analytics.stg_orders")]
    assert both_systems.via == ("job:dbt.stg_orders",)
    assert {p.origin for p in both_systems.provenance} == {"dbt_manifest", "openlineage"}


def test_include_orchestration_lists_tasks_and_counts_them_as_hops() -> None:
    g = night2_graph()
    up = g.trace("lake.orders_clean", max_depth=2, include_orchestration=True)
    assert [(n.id, n.kind, n.depth) for n in up.nodes] == [
        ("lake.orders_clean", "dataset", 0), ("airflow:orders_daily.orders_clean", "task", 1),
        ("app.orders", "dataset", 2)]
    # the DAG "contains" the task: structure, not data flow, so it is never traversed
    assert all(e.relation != "contains" for e in up.edges)
    assert g.edges_of("airflow:orders_daily.orders_clean", structure=True)[0].src == "airflow:orders_daily"


def test_hidden_nodes_cost_no_depth() -> None:
    g = night2_graph()
    down = g.trace("app.orders", direction="downstream", max_depth=1)
    assert [n.id for n in down.nodes] == ["app.orders", "lake.orders_clean"]


def test_trace_to_dict_has_the_documented_keys() -> None:
    data = night2_graph().trace("stg_orders", direction="both").to_dict()
    assert set(data) == {"root", "direction", "max_depth", "include_orchestration", "nodes", "edges"}
    assert set(data["nodes"][0]) == {"id", "kind", "system", "name", "owner", "depth", "direction"}
    assert set(data["edges"][0]) == {"src", "dst", "relation", "via", "provenance"}
    assert set(data["edges"][0]["provenance"][0]) == {"origin", "author", "source", "recorded_at", "ref"}


def test_bad_trace_arguments() -> None:
    g = chain_graph(2)
    with pytest.raises(ValueError, match="direction"):
        g.trace("w.d0", direction="sideways")
    with pytest.raises(ValueError, match="max_depth"):
        g.trace("w.d0", max_depth=-1)


def test_traversal_cost_does_not_depend_on_the_rest_of_the_graph() -> None:
    g = chain_graph(3)
    for i in range(2000):
        g.add_node(f"other.t{i}", "dataset", "warehouse")
        if i:
            g.add_edge(f"other.t{i - 1}", f"other.t{i}", "feeds", OL)
    result = g.trace("w.d0", direction="downstream", max_depth=None)
    (walk,) = result.walks
    assert len(walk.depth) == 3  # per-query state holds only what was reached
