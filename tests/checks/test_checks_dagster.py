"""The asset checks as Dagster runs them: definitions load, a job evaluates them, failures open
an incident, and a direct invocation works without a run."""

from __future__ import annotations

import dagster as dg

import checks
from dw_assets.incidents import IncidentStore
from dw_assets.store import open_state

GL_KEY = dg.AssetKey(["finance", "bronze", "gl_entries"])


def _defs(settings) -> dg.Definitions:
    specs = [dg.AssetSpec(GL_KEY), dg.AssetSpec(["analytics", "fct_trial_balance"]), dg.AssetSpec(["lake", "orders_clean"])]
    job = dg.define_asset_job("gl_checks", selection=dg.AssetSelection.checks_for_assets(GL_KEY))
    return dg.Definitions.merge(checks.build_definitions(settings), dg.Definitions(assets=specs, jobs=[job]))


def test_every_configured_check_is_defined(estate):
    keys = {(tuple(k.asset_key.path), k.name) for k in _defs(estate.settings).resolve_asset_graph().asset_check_keys}
    assert keys == {
        (("finance", "bronze", "gl_entries"), "volume_vs_history"),
        (("finance", "bronze", "gl_entries"), "freshness_sla"),
        (("finance", "bronze", "gl_entries"), "rows_match_landed_files"),
        (("finance", "bronze", "gl_entries"), "schema_drift"),
        (("analytics", "fct_trial_balance"), "balance_debits_equal_credits"),
        (("lake", "orders_clean"), "volume_vs_history"),
        (("lake", "orders_clean"), "schema_drift"),
    }


def test_check_job_evaluates_and_opens_one_incident(estate):
    job = _defs(estate.settings).resolve_job_def("gl_checks")
    result = job.execute_in_process(instance=dg.DagsterInstance.ephemeral(), tags={"dw/partition": "2026-09-30"})
    assert result.success
    evaluations = {e.check_name: e for e in result.get_asset_check_evaluations()}
    volume = evaluations["volume_vs_history"]
    assert not volume.passed and volume.severity == dg.AssetCheckSeverity.ERROR
    assert abs(volume.metadata["ratio"].value - 0.58) < 0.01
    assert volume.metadata["history_points"].value == 6
    assert "OUTSIDE band" in volume.metadata["history_chart"].value
    assert evaluations["schema_drift"].passed
    incident_ids = {e.metadata["incident"].value for e in evaluations.values() if "incident" in e.metadata}
    assert len(incident_ids) == 1
    # the check page renders the description inline: summary, partition, incident link, the chart
    (incident_id,) = incident_ids
    assert "partition **2026-09-30**" in volume.description and "OUTSIDE band" in volume.description
    assert f"[{incident_id}](/assets/incident?view=partitions&partition={incident_id})" in volume.description
    stored = IncidentStore(open_state(estate.settings)).get(incident_id)
    assert stored.dataset_id == "finance.bronze.gl_entries" and stored.owner == "maria.chen"


def test_run_config_picks_the_partition(estate):
    job = _defs(estate.settings).resolve_job_def("gl_checks")
    config = {"ops": {"finance__bronze__gl_entries_volume_vs_history": {"config": {"partition": "2026-08-31"}}}}
    result = job.execute_in_process(instance=dg.DagsterInstance.ephemeral(), run_config=config,
                                    op_selection=["finance__bronze__gl_entries_volume_vs_history"])
    (evaluation,) = result.get_asset_check_evaluations()
    assert evaluation.passed and evaluation.metadata["partition"].value == "2026-08-31"


def test_run_tag_picks_the_partition(estate):
    job = _defs(estate.settings).resolve_job_def("gl_checks")
    result = job.execute_in_process(instance=dg.DagsterInstance.ephemeral(), tags={"dw/partition": "2026-07-31"},
                                    op_selection=["finance__bronze__gl_entries_volume_vs_history"])
    (evaluation,) = result.get_asset_check_evaluations()
    assert evaluation.metadata["partition"].value == "2026-07-31"


def test_direct_invocation_with_a_check_context(estate):
    balance = next(c for c in checks.build_definitions(estate.settings).asset_checks
                   if any(k.name.startswith("balance_") for k in c.check_keys))
    result = balance(dg.build_asset_check_context())
    assert not result.passed and "E3" in result.description
