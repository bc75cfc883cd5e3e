"""The code location loads, and its shape is what users see in the Dagster UI: the estate's dbt
models (observed), external datasets and exposures with owners, Data Workers' own assets, every
configured check, the sensors and the gated jobs. Loading never runs `dbt parse` when a manifest exists."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import dagster as dg
import pytest

from dw_assets.config import load_settings
from dw_assets.context_graph import manifest_path
from dw_assets.definitions import build_all_definitions

pytestmark = pytest.mark.dbt  # needs the demo project's manifest (dbt parse once, if missing)


@pytest.fixture(scope="module")
def defs() -> dg.Definitions:
    build_all_definitions()  # first load may parse the project
    manifest = manifest_path(load_settings())
    before = manifest.stat().st_mtime_ns
    loaded = build_all_definitions()
    assert manifest.stat().st_mtime_ns == before, "loading the code location re-parsed the dbt project"
    return loaded


def _specs(defs: dg.Definitions) -> dict[str, dg.AssetSpec]:
    return {"/".join(s.key.path): s for s in defs.resolve_all_asset_specs()}


def test_estate_assets_with_deps_and_owners(defs):
    specs = _specs(defs)
    assert {"analytics/stg_gl_entries", "analytics/int_gl_by_entity", "analytics/fct_trial_balance",
            "analytics/stg_orders", "analytics/fct_revenue", "finance/bronze/gl_entries",
            "lake/orders_clean"} <= set(specs)
    assert dg.AssetKey(["finance", "bronze", "gl_entries"]) in {d.asset_key for d in specs["analytics/stg_gl_entries"].deps}
    exposures = {k for k in specs if k.startswith("exposures/")}
    assert exposures == {"exposures/close_trial_balance", "exposures/close_entity_variance",
                         "exposures/close_review_0900", "exposures/revenue_dashboard"}
    assert specs["exposures/close_trial_balance"].metadata["label"] == "Close: Trial Balance"
    assert any("maria" in o for o in specs["analytics/fct_trial_balance"].owners)
    # one identity per person: the config's handle is the email the dbt project gives it
    assert specs["finance/bronze/gl_entries"].owners == ["maria.chen@example.com"]
    assert specs["exposures/close_trial_balance"].owners == ["maria.chen@example.com"]
    assert specs["analytics/fct_trial_balance"].owners == ["maria.chen@example.com"]


def test_data_workers_own_assets_checks_sensors_and_jobs(defs):
    specs = _specs(defs)
    assert {"incident", "dw/verification", "dw/context_graph"} <= set(specs)
    graph = defs.resolve_asset_graph()
    checks = {(("/".join(k.asset_key.path)), k.name) for k in graph.asset_check_keys}
    assert {("finance/bronze/gl_entries", "volume_vs_history"), ("finance/bronze/gl_entries", "freshness_sla"),
            ("finance/bronze/gl_entries", "rows_match_landed_files"), ("finance/bronze/gl_entries", "schema_drift"),
            ("analytics/fct_trial_balance", "balance_debits_equal_credits"),
            ("analytics/fct_revenue", "net_revenue_vs_history")} <= checks
    sensors = {s.name for s in defs.sensors or []}
    assert {"airflow_runs_local", "openlineage_events", "incident_intake_sensor", "dw_incident_triage",
            "dw_approvals"} <= sensors
    jobs = {j.name for j in defs.resolve_all_job_defs()}
    assert {"rerun_airflow_dag", "verify_remediation"} <= jobs


def test_dagster_cli_validates_the_workspace(tmp_path):
    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path), "DW_HOME": str(tmp_path / "dw")}
    dagster = str(Path(sys.executable).parent / "dagster")
    proc = subprocess.run([dagster, "definitions", "validate", "-w", "workspace.yaml"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "All code locations passed validation" in proc.stdout + proc.stderr


def test_every_job_runs_in_one_process(defs):
    """Light jobs: no extra process per step under the daemon (latency on a busy machine)."""
    jobs = [defs.resolve_job_def(name) for name in ("rerun_airflow_dag",)] + [defs.resolve_implicit_global_asset_job_def()]
    assert all(job.executor_def.name == dg.in_process_executor.name for job in jobs)


def test_the_asset_graph_tells_the_story(defs):
    """Datasets and the context graph feed incidents, incidents feed verification."""
    specs = _specs(defs)
    incident_deps = {"/".join(d.asset_key.path) for d in specs["incident"].deps}
    assert {"finance/bronze/gl_entries", "lake/orders_clean", "dw/context_graph"} <= incident_deps
    assert {"/".join(d.asset_key.path) for d in specs["dw/verification"].deps} == {"incident"}
    assert "dw/approvals" in specs and not specs["dw/approvals"].deps
