"""dbt artifacts into the graph: every resource type, owners, placeholders, run results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dw_assets.connectors.dbt import DbtArtifactError, load_artifact
from dw_assets.core.dbt_lineage import add_manifest, add_run_results
from dw_assets.core.graph import ContextGraph
from tests.support.graph_builders import make_manifest


@pytest.fixture
def graph_and_index():
    g = ContextGraph()
    return g, add_manifest(g, make_manifest())


def test_ids_kinds_systems_and_owners(graph_and_index) -> None:
    g, _ = graph_and_index
    expected = {
        "finance.bronze.gl_entries": ("source", "warehouse", "maria.chen"),
        "lake.orders_clean": ("source", "warehouse", None),
        "analytics.stg_gl": ("model", "dbt", "maria.chen"),  # group owner
        "analytics.fct_trial_balance": ("model", "dbt", "maria.chen"),  # alias, not name
        "analytics.stg_orders": ("model", "dbt", "priya.raman"),  # meta.owner
        "analytics.snapshots.tb_snap": ("model", "dbt", None),
        "analytics.fx": ("dataset", "dbt", None),
        "exposure:close_tb": ("dashboard", "tableau", "maria.chen"),
        "exposure:close_review": ("reader", "dbt", "controller@x"),
        "exposure:billing_app": ("application", "dbt", "ops"),
        "semantic_model:orders_sm": ("semantic_model", "dbt", "rev@x"),
        "metric:revenue": ("metric", "dbt", None),
        "dbt:model.shop.ghost": ("model", "dbt", None),
    }
    assert {n.id: (n.kind, n.system, n.owner) for n in g.nodes()} == expected


def test_edges_follow_depends_on_with_manifest_provenance(graph_and_index) -> None:
    g, _ = graph_and_index
    edges = {(e.src, e.dst): e for e in g.edges()}
    assert edges[("finance.bronze.gl_entries", "analytics.stg_gl")].relation == "feeds"
    assert edges[("analytics.fct_trial_balance", "exposure:close_tb")].relation == "reads"
    assert ("metric:revenue", "exposure:close_review") in edges
    assert ("dbt:model.shop.ghost", "exposure:billing_app") in edges
    prov = edges[("analytics.stg_gl", "analytics.fct_trial_balance")].provenance
    assert [(p.origin, p.ref) for p in prov] == [("dbt_manifest", "model.shop.fct_tb")]
    assert g.node("dbt:model.shop.ghost").attrs["missing_from_manifest"] is True


def test_exposure_attributes_aliases_and_tests(graph_and_index) -> None:
    g, _ = graph_and_index
    close = g.node("exposure:close_tb")
    assert (close.name, close.attrs["maturity"], close.attrs["criticality"]) == (
        "Close: Trial Balance", "high", "critical")
    assert g.resolve("Close: Trial Balance") == "exposure:close_tb"
    assert g.resolve("model.shop.fct_tb") == "analytics.fct_trial_balance"
    assert g.resolve("source.shop.finance.gl_entries") == "finance.bronze.gl_entries"
    assert g.node("analytics.fct_trial_balance").attrs["dbt_tests"] == ["not_null_fct_tb_entity"]
    assert g.trace("close_review", max_depth=None).node_ids()[-1] == "lake.orders_clean"


def test_run_results_mark_last_status(graph_and_index) -> None:
    g, index = graph_and_index
    results = {"metadata": {"invocation_id": "inv-2", "generated_at": "2026-10-01T00:50:00Z"}, "results": [
        {"unique_id": "model.shop.fct_tb", "status": "error", "message": "Conversion Error",
         "timing": [{"name": "execute", "completed_at": "2026-10-01T00:49:00Z"}]},
        {"unique_id": "test.shop.not_null_fct_tb_entity.abc", "status": "pass"},
        {"unique_id": "model.other.unknown", "status": "success"},
    ]}
    assert add_run_results(g, results, index) == 2
    last = g.node("analytics.fct_trial_balance").attrs["dbt_last_run"]
    assert (last["status"], last["completed_at"], last["invocation_id"]) == (
        "error", "2026-10-01T00:49:00Z", "inv-2")
    assert g.node("analytics.fct_trial_balance").attrs["dbt_test_results"] == {"not_null_fct_tb_entity": "pass"}


def test_artifact_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(DbtArtifactError, match="does not exist"):
        load_artifact(tmp_path / "manifest.json")
    (tmp_path / "bad.json").write_text("{nope")
    with pytest.raises(DbtArtifactError, match="bad.json is not valid JSON"):
        load_artifact(tmp_path / "bad.json")
    (tmp_path / "other.json").write_text(json.dumps({"nodes": {}}))
    with pytest.raises(DbtArtifactError, match="lacks metadata"):
        load_artifact(tmp_path / "other.json")


def test_real_dbt_ol_duckdb_manifest(shared_dir: Path) -> None:
    target = shared_dir / "openlineage-examples" / "dbt-duckdb" / "target"
    g = ContextGraph()
    index = add_manifest(g, load_artifact(target / "manifest.json"))
    assert add_run_results(g, load_artifact(target / "run_results.json"), index) >= 1
    customers = g.node("jaffle_shop.customers")  # database jaffle_shop, schema main elided
    assert (customers.kind, customers.owner) == ("model", "data-team")
    assert customers.attrs["dbt_last_run"]["status"] == "success"
    assert "unique_customers_customer_id" in customers.attrs["dbt_tests"]
    assert g.node("jaffle_shop.raw_orders").kind == "dataset"  # a seed
    # the example manifest omits the staging models it depends on: they become placeholders
    up = g.trace("customers", max_depth=1)
    assert {n.id for n in up.nodes[1:]} == {"dbt:model.jaffle_shop.stg_customers",
                                            "dbt:model.jaffle_shop.stg_orders", "dbt:model.jaffle_shop.stg_payments"}
    # OpenLineage's name for the same table lands on the same node
    from dw_assets.core.identity import canonical_dataset_id

    assert canonical_dataset_id("jaffle_shop.main.customers", "duckdb:///database/jaffle_shop.duckdb") in g
