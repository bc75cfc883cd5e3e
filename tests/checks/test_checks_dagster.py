"""The asset checks as Dagster runs them: definitions load, a job evaluates them, failures open
an incident, and a direct invocation works without a run."""

from __future__ import annotations

import dagster as dg

import checks
from dw_assets.checks.partitions import latest_partition_key
from dw_assets.dagster_defs.estate_assets import with_partitions
from dw_assets.incidents import IncidentStore
from dw_assets.store import open_state

GL_KEY = dg.AssetKey(["finance", "bronze", "gl_entries"])


def _defs(settings) -> dg.Definitions:
    specs = with_partitions([dg.AssetSpec(GL_KEY), dg.AssetSpec(["analytics", "fct_trial_balance"]),
                             dg.AssetSpec(["lake", "orders_clean"])], settings)
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


def test_a_partitioned_run_evaluates_its_partition_and_says_so(estate):
    """The check page's Partition column: a run tagged with the dataset's partition records it on
    each per-partition evaluation; whole-table checks (freshness, schema drift) name none."""
    defs = _defs(estate.settings)
    graph = defs.resolve_asset_graph()
    daily = graph.get(GL_KEY).partitions_def
    assert daily is not None and daily.has_partition_key("2026-09-30") and daily.get_first_partition_key() == "2020-01-01"
    assert graph.get(dg.AssetKey(["analytics", "fct_trial_balance"])).partitions_def is None  # no partition column
    entry = next(e for e in estate.settings.checks if e.dataset == "finance.bronze.gl_entries")
    assert latest_partition_key(estate.settings, entry) == "2026-09-30"
    with dg.instance_for_test() as instance:
        result = defs.resolve_job_def("gl_checks").execute_in_process(
            instance=instance, tags={"dagster/partition": "2026-08-31"})
        by_name = {e.check_name: e for e in result.get_asset_check_evaluations()}
        assert by_name["volume_vs_history"].partition == "2026-08-31"
        assert by_name["volume_vs_history"].metadata["partition"].value == "2026-08-31"
        assert by_name["rows_match_landed_files"].partition == "2026-08-31"
        assert by_name["freshness_sla"].partition is None and by_name["schema_drift"].partition is None
        (record,) = instance.event_log_storage.get_asset_check_execution_history(
            dg.AssetCheckKey(GL_KEY, "volume_vs_history"), limit=1)
        assert record.partition == "2026-08-31"
