"""Blast radius: affected nodes with owners, depth, paths, and the documented severity rule."""

from __future__ import annotations

import random

import pytest

from dw_assets.core.blast_radius import SeverityRule
from dw_assets.core.graph import ContextGraph
from tests.support.graph_builders import DBT, chain_graph, night2_graph


def reader_graph(n_readers: int, **attrs: str) -> ContextGraph:
    g = chain_graph(1)
    for i in range(n_readers):
        g.add_node(f"exposure:r{i}", "dashboard", "tableau", owner=f"owner{i}", attrs=attrs)
        g.add_edge("w.d0", f"exposure:r{i}", "reads", DBT)
    return g


def test_affected_nodes_owners_paths_and_orchestration() -> None:
    radius = night2_graph().blast_radius("app.orders")
    by_id = {a.id: a for a in radius.affected}
    assert set(by_id) == {"lake.orders_clean", "analytics.stg_orders", "analytics.fct_revenue",
                          "exposure:revenue_dashboard"}
    dash = by_id["exposure:revenue_dashboard"]
    assert (dash.owner, dash.depth, dash.severity) == ("priya.raman", 4, "high")
    assert dash.path == ("app.orders", "airflow:orders_daily.orders_clean", "lake.orders_clean",
                         "analytics.stg_orders", "analytics.fct_revenue", "exposure:revenue_dashboard")
    assert radius.orchestration == ["airflow:orders_daily.orders_clean", "job:dbt.stg_orders"]
    assert radius.affected[0].id == "exposure:revenue_dashboard"  # most severe first
    assert radius.owners()["priya.raman"] == ["exposure:revenue_dashboard", "analytics.stg_orders",
                                               "analytics.fct_revenue"]
    assert radius.severity == "high" and radius.reader_count == 1


@pytest.mark.parametrize(
    ("kind", "attrs", "expected"),
    [
        pytest.param("dashboard", {"criticality": "critical", "maturity": "low"}, "critical", id="criticality-wins"),
        pytest.param("dashboard", {"maturity": "high"}, "high", id="maturity"),
        pytest.param("dashboard", {"criticality": "whatever", "maturity": "low"}, "low", id="unknown-criticality"),
        pytest.param("reader", {}, "medium", id="reader-default"),
        pytest.param("metric", {}, "medium", id="metric-default"),
        pytest.param("model", {}, "low", id="model-default"),
    ],
)
def test_base_severity(kind: str, attrs: dict, expected: str) -> None:
    g = chain_graph(1)
    g.add_node("x:n", kind, "dbt", attrs=attrs)
    g.add_edge("w.d0", "x:n", "reads", DBT)
    assert g.blast_radius("w.d0").affected[0].severity == expected


@pytest.mark.parametrize(("depth", "expected"), [(1, "critical"), (4, "critical"), (5, "high"), (9, "medium"),
                                                 (13, "low"), (17, "low")])
def test_severity_decays_one_level_per_four_hops(depth: int, expected: str) -> None:
    g = chain_graph(depth)
    g.add_node("exposure:close", "reader", "note", attrs={"criticality": "critical"})
    g.add_edge(f"w.d{depth - 1}", "exposure:close", "reads", DBT)
    (close,) = [a for a in g.blast_radius("w.d0", max_depth=None).affected if a.id == "exposure:close"]
    assert (close.depth, close.severity) == (depth, expected)


def test_overall_is_max_bumped_when_many_readers() -> None:
    few = reader_graph(4, maturity="medium").blast_radius("w.d0")
    assert (few.severity, few.reader_count) == ("medium", 4)
    many = reader_graph(5, maturity="medium").blast_radius("w.d0")
    assert many.severity == "high" and "5 readers" in many.severity_reason
    capped = reader_graph(5, criticality="critical").blast_radius("w.d0")
    assert capped.severity == "critical"
    custom = reader_graph(2, maturity="low").blast_radius("w.d0", rule=SeverityRule(many_readers=2))
    assert custom.severity == "medium"


def test_nothing_downstream_is_low() -> None:
    radius = chain_graph(1).blast_radius("w.d0")
    assert (radius.severity, radius.affected) == ("low", [])


def test_depth_limit_and_to_dict_keys() -> None:
    radius = night2_graph().blast_radius("app.orders", max_depth=2)
    assert [a.id for a in radius.affected] == ["lake.orders_clean", "analytics.stg_orders"]
    data = radius.to_dict()
    assert set(data) == {"root", "max_depth", "severity", "severity_reason", "reader_count", "affected",
                         "owners", "orchestration"}
    assert set(data["affected"][0]) == {"id", "kind", "system", "name", "owner", "depth", "severity", "path"}


def test_rule_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        SeverityRule(decay_every=0)


def _reference_paths(radius) -> dict[str, tuple[str, ...]]:
    """Paths the slow way: each node's path is its parent's plus its id, down the walk."""
    tree = radius.columns.tree
    ids = [tree._nodes[i].id for i in tree._walk.order.tolist()]
    at = [(ids[0],)]
    for k, parent in enumerate(tree._walk.parents.tolist()[1:], 1):
        at.append(at[parent] + (ids[k],))
    return dict(zip(ids, at))


@pytest.mark.parametrize("seed", range(6))
def test_columns_read_what_the_records_say(seed: int) -> None:
    """The columns (what whole-radius readers use) give the records' ids, kinds, owners, depths,
    severities, owner rollup and paths, on graphs with cycles, hidden tasks and unowned nodes."""
    rng = random.Random(seed)
    g = ContextGraph()
    n = rng.randint(20, 250)
    for i in range(n):
        g.add_node(f"n{i}", rng.choice(["model", "dataset", "task", "job", "dashboard", "reader", "metric"]), "dbt",
                   owner=rng.choice([None, "ana", "bo", "cy"]),
                   attrs={"maturity": rng.choice(["low", "high"])} if rng.random() < 0.2 else {})
    g.add_edges(sorted({(f"n{rng.randrange(n)}", f"n{rng.randrange(n)}") for _ in range(n * 3)}), "feeds", DBT)
    for root, max_depth in [(f"n{k}", rng.choice([None, 0, 1, 3, 10])) for k in range(8)]:
        radius = g.blast_radius(root, max_depth=max_depth)
        cols, records = radius.columns, list(radius.affected)
        assert cols is not None and len(cols) == len(records)
        assert cols.ids() == [a.id for a in records] and cols.kinds() == [a.kind for a in records]
        assert cols.owners() == [a.owner for a in records] and cols.depths() == [a.depth for a in records]
        assert cols.severities() == [a.severity for a in records]
        rollup: dict[str, list[str]] = {}
        for a in records:
            rollup.setdefault(a.owner or "(none)", []).append(a.id)
        assert list(radius.owners().items()) == list(rollup.items())  # same keys in the same order
        paths = _reference_paths(radius)
        assert [a.path for a in records] == cols.paths() == [paths[a.id] for a in records]
        assert [cols.path(k) for k in range(len(cols))] == cols.paths()
        assert cols.path_texts(" > ") == [" > ".join(paths[a.id]) for a in records]
        matrix = cols.path_matrix()
        assert [tuple(g.nodes_by_index[i].id for i in row if i >= 0) for row in matrix.tolist()] == cols.paths()
        through = {f"n{rng.randrange(n)}" for _ in range(3)} | {"not-a-node"}
        assert cols.passes_through(through).tolist() == [any(p in through for p in paths[a.id][1:]) for a in records]
        assert radius.to_dict()["affected"] == [a.to_dict() for a in records]
        assert radius.entries() == [a.entry() for a in records]


def test_owner_set_after_a_radius_is_seen_by_the_next() -> None:
    """The owner table the columns read is refreshed when the graph changes (domain owners are
    filled through add_node for this reason)."""
    g = chain_graph(3)
    g.blast_radius("w.d0").owners()
    g.add_node("w.d2", "model", "dbt", owner="late.owner")
    radius = g.blast_radius("w.d0")
    assert radius.owners().get("late.owner") == ["w.d2"]
    assert [a.owner for a in radius.affected if a.id == "w.d2"] == ["late.owner"]
