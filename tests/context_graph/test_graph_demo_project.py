"""The demo estate's real dbt project (`dbt parse`, once per module) joined with its notes and config:
the two nights' traces and the close blast radius."""

from __future__ import annotations

from pathlib import Path

import pytest

from dw_assets import context_graph
from dw_assets.config import load_settings
from dw_assets.connectors.dbt import run_dbt

pytestmark = pytest.mark.dbt


@pytest.fixture(scope="module")
def demo_manifest(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = repo_root / "dbt_project"
    if not (project / "dbt_project.yml").exists():
        pytest.fail(f"{project} has no dbt_project.yml: the demo dbt project is missing")
    home = tmp_path_factory.mktemp("dw_home")
    target = tmp_path_factory.mktemp("dbt_target")
    result = run_dbt(["parse", "--no-partial-parse", "--target-path", str(target)], project,
                     env={"DW_HOME": str(home)}, read_only=True, timeout_s=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return target / "manifest.json"


@pytest.fixture(scope="module")
def demo_graph(repo_root: Path, demo_manifest: Path):
    """manifest + config + notes only: the feeds (OpenLineage, Airflow) have their own tests."""
    settings = load_settings(repo_root / "estate" / "dw.yaml")
    settings = settings.model_copy(update={"dbt": settings.dbt.model_copy(update={"manifest": str(demo_manifest)})})
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(context_graph, "FEEDS", {})
        return context_graph.build_context_graph(settings)


def test_trial_balance_traces_up_to_the_bronze_gl(demo_graph) -> None:
    result = demo_graph.trace("fct_trial_balance", direction="upstream")
    depths = {n.id: n.depth for n in result.nodes}
    assert depths["analytics.int_gl_by_entity"] == 1
    assert depths["analytics.stg_gl_entries"] == 2
    assert depths["finance.bronze.gl_entries"] == 3
    hop = {(e.src, e.dst): e for e in result.edges}[("finance.bronze.gl_entries", "analytics.stg_gl_entries")]
    assert [p.origin for p in hop.provenance] == ["dbt_manifest"]


def test_revenue_traces_across_systems_with_provenance(demo_graph) -> None:
    result = demo_graph.trace("fct_revenue", direction="upstream", max_depth=6)
    ids = result.node_ids()
    assert "lake.orders_clean" in ids and "app.orders" in ids
    edges = {(e.src, e.dst): e for e in result.edges}
    assert {p.origin for p in edges[("lake.orders_clean", "analytics.stg_orders")].provenance} >= {"dbt_manifest"}
    jdbc = edges[("app.orders", "lake.orders_clean")]
    assert jdbc.via == ("airflow:orders_daily.orders_clean",)
    note = next(p for p in jdbc.provenance if p.origin == "note")
    assert note.author and note.source and note.recorded_at
    with_tasks = demo_graph.trace("fct_revenue", max_depth=6, include_orchestration=True).node_ids()
    assert "airflow:orders_daily.orders_clean" in with_tasks


def test_revenue_dashboard_edge_keeps_dbt_and_note_provenance(demo_graph) -> None:
    down = demo_graph.trace("fct_revenue", direction="downstream")
    edge = {(e.src, e.dst): e for e in down.edges}[("analytics.fct_revenue", "exposure:revenue_dashboard")]
    assert {p.origin for p in edge.provenance} == {"dbt_manifest", "note"}


def test_close_blast_radius_lists_models_workbooks_and_review_with_owners(demo_graph) -> None:
    radius = demo_graph.blast_radius("finance.bronze.gl_entries")
    owners = {a.id: a.owner for a in radius.affected}
    for model in ("analytics.stg_gl_entries", "analytics.int_gl_by_entity", "analytics.fct_trial_balance"):
        assert owners[model] == "maria.chen"
    assert owners["exposure:close_trial_balance"] == "maria.chen"
    assert owners["exposure:close_entity_variance"] == "maria.chen"
    assert owners["exposure:close_review_0900"] == "finance-controller"
    review = next(a for a in radius.affected if a.id == "exposure:close_review_0900")
    assert review.path[0] == "finance.bronze.gl_entries" and review.path[-2] == "analytics.fct_trial_balance"
    assert radius.severity == "critical"
    assert demo_graph.resolve("Close: Trial Balance") == "exposure:close_trial_balance"
