"""Blast radius: affected nodes with owners, depth, paths, and the documented severity rule."""

from __future__ import annotations

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
