"""The code location loads, and its shape is what users see in the Dagster UI: the estate's dbt
models (observed), external datasets and exposures with owners, Data Workers' own assets, every
configured check, the sensors and the gated jobs. Loading never runs `dbt parse` when a manifest
exists, never imports dbt-core (dbt runs as a program from its own venv), and on the shipped config
without a manifest (`dagster dev` before `make demo`) loads without the dbt models instead of parsing
inside the checkout."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pytest

from dw_assets.config import load_settings
from dw_assets.connectors import dbt as dbt_connector
from dw_assets.connectors.dbt import run_dbt
from dw_assets.context_graph import manifest_path
from dw_assets.dagster_defs import estate_assets
from dw_assets.definitions import build_all_definitions

pytestmark = pytest.mark.dbt  # the demo project's manifest: one `dbt parse` into a temporary folder


@pytest.fixture(scope="module")
def demo_target(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The demo project parsed once outside the checkout, where the config finds it (DBT_TARGET_PATH)."""
    target = tmp_path_factory.mktemp("dbt_target")
    project = repo_root / "dbt_project"
    result = run_dbt(["parse", "--no-partial-parse", "--target-path", str(target)], project,
                     env={"DW_HOME": str(tmp_path_factory.mktemp("dw_home"))}, read_only=True, timeout_s=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DBT_TARGET_PATH", str(target))
        yield target


@pytest.fixture(scope="module")
def defs(demo_target: Path) -> dg.Definitions:
    manifest = manifest_path(load_settings())
    assert manifest == demo_target / "manifest.json"
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


def test_the_location_loads_without_importing_dbt_core(defs):
    """dagster-dbt reads the manifest without dbt-core; importing dbt-core cost ~12 s of every load
    under load (mashumaro class compilation), in every run worker the daemon starts."""
    assert importlib.util.find_spec("dbt") is None, "dbt-core is installed in the Dagster venv"
    assert [m for m in sys.modules if m == "dbt" or m.startswith("dbt.")] == []  # after a full load (defs)
    assert len([s for s in defs.resolve_all_asset_specs() if "dw/dbt_unique_id" in s.metadata]) >= 5


def test_the_shipped_config_without_a_manifest_loads_without_dbt_models_and_never_parses(
        tmp_path, monkeypatch: pytest.MonkeyPatch):
    """`dagster dev -w workspace.yaml` before `make demo`: no dbt run inside the checkout, one clear message."""
    monkeypatch.setenv("DBT_TARGET_PATH", str(tmp_path / "target"))  # where a manifest would be: none there
    monkeypatch.delenv("DW_ESTATE_REPO", raising=False)

    def no_dbt(*args, **kwargs):
        raise AssertionError(f"dbt ran while loading the code location: {args}")

    monkeypatch.setattr(dbt_connector.subprocess, "run", no_dbt)
    settings = load_settings()
    part = estate_assets.build_definitions(settings)
    message = part.metadata["dw/estate_dbt_models"].value
    assert message.startswith("not loaded: no dbt manifest at ") and "never runs `dbt parse`" in message
    assert "DW_ESTATE_REPO" in message and "make demo" in message
    specs = {"/".join(s.key.path): s for s in part.resolve_all_asset_specs()}
    assert "finance/bronze/gl_entries" in specs and not any("dw/dbt_unique_id" in s.metadata for s in specs.values())
    loaded = build_all_definitions()  # the whole location: checks, sensors and jobs load all the same
    assert "dw_approvals" in {s.name for s in loaded.sensors or []}
    assert not (tmp_path / "target").exists()


def test_a_stale_manifest_in_the_checkout_is_read_as_it_is(demo_target, tmp_path, monkeypatch: pytest.MonkeyPatch):
    target = tmp_path / "target"
    target.mkdir()
    shutil.copy(demo_target / "manifest.json", target / "manifest.json")
    os.utime(target / "manifest.json", (1, 1))  # older than every file of the project
    monkeypatch.setenv("DBT_TARGET_PATH", str(target))

    def no_dbt(*args, **kwargs):
        raise AssertionError(f"dbt ran while loading the code location: {args}")

    monkeypatch.setattr(dbt_connector.subprocess, "run", no_dbt)
    part = estate_assets.build_definitions(load_settings())
    assert part.metadata["dw/estate_dbt_models"].value == "loaded"
    assert any("dw/dbt_unique_id" in s.metadata for s in part.resolve_all_asset_specs())


def test_dagster_cli_validates_the_workspace(tmp_path):
    """`dagster definitions validate` on the shipped config with no manifest: the location loads (no dbt
    models), says why, and no dbt ran (nothing written where its manifest would go)."""
    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "DAGSTER_HOME": str(tmp_path), "DW_HOME": str(tmp_path / "dw"),
           "DBT_TARGET_PATH": str(tmp_path / "target")}
    env.pop("DW_ESTATE_REPO", None)
    dagster = str(Path(sys.executable).parent / "dagster")
    proc = subprocess.run([dagster, "definitions", "validate", "-w", "workspace.yaml"], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "All code locations passed validation" in proc.stdout + proc.stderr
    assert "the estate's dbt models are not loaded" in proc.stdout + proc.stderr
    assert not (tmp_path / "target").exists()


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
