"""What the Dagster UI shows of an incident and its plan: a report in Markdown and tables, every
Markdown entry short enough to render inline (the UI hides longer ones behind a button)."""

from __future__ import annotations

from datetime import UTC, datetime

import dagster as dg
from gov_fakes import night1_plan

from dw_assets.core.incident_report import INLINE_LIMIT
from dw_assets.core.signals import Signal
from dw_assets.dagster_defs.incident_assets import incident_materialization
from dw_assets.dagster_defs.plan_view import plan_view
from dw_assets.dagster_defs.rerun import GovernanceRuntime, plan_partitions
from dw_assets.incidents import IncidentStore, intake_signal
from sensors.approvals import build_definitions as rerun_definitions

CAUSE = {"kind": "split_export_early_release", "subject": "airflow:gl_landing.load", "confidence": 0.99,
         "title": "Export for 2026-09-30 arrived in 2 parts and the load ran before the last one landed",
         "explains": "posting_date stops at 2026-09-19",
         "evidence": [{"code": "multi_part_export", "text": f"part {i} landed " + "x" * 140, "source": "landing"}
                      for i in range(12)],
         "refuting": [], "would_refute": ["every part arrived before the load started"]}
PATH = [{"source": "airflow:gl_landing.load", "target": "finance.bronze.gl_entries", "system": "airflow",
         "provenance": "config,openlineage", "detail": ""},
        {"source": "analytics.fct_trial_balance", "target": "exposure:close_review_0900", "system": "dbt",
         "provenance": "dbt_manifest,note", "detail": "maria.chen: FIN-CLOSE runbook, section 3"}]
READERS = [{"node_id": "analytics.stg_gl_entries", "kind": "model", "depth": 1, "owner": "maria.chen",
            "label": "stg_gl_entries", "severity": "low"},
           {"node_id": "exposure:close_review_0900", "kind": "reader", "depth": 5, "owner": "finance-controller",
            "label": "09:00 close review", "severity": "high"}]
FIX = {"cause_kind": "split_export_early_release", "title": "Make gl_landing's sensor wait for the done-marker",
       "rationale": "The sensor releases on the first file.", "kind": "diff", "repo": "estate",
       "paths": ["dags/gl_landing.py"], "verified": True,
       "diff": "--- a/dags/gl_landing.py\n+++ b/dags/gl_landing.py\n@@ -1,2 +1,3 @@\n" + "+wait()\n" * 300}


def _incident(settings, gov, plan_id: str):
    signal = Signal(kind="check_failed", dataset_id="finance.bronze.gl_entries",
                    observed_at=datetime(2026, 10, 1, 4, 5, tzinfo=UTC), source="check:volume_vs_history",
                    summary="2026-09-30: 61,041 rows, 58% of the baseline", details={"partition": "2026-09-30"},
                    severity="high", dedupe_key="check:volume_vs_history:gl:2026-09-30")
    incident, _ = intake_signal(settings, gov.store, signal)
    store = IncidentStore(gov.store)
    store.update(incident.id, causes=[CAUSE], path=PATH, blast_radius=READERS, proposed_fixes=[FIX], plan_id=plan_id)
    store.transition(incident.id, "diagnosed", actor="data-workers", note="a note long enough " * 12)
    return incident.id


def test_incident_partition_reads_as_a_report(settings, gov, approved):
    plan_id, approval = approved
    incident_id = _incident(settings, gov, plan_id)
    meta = incident_materialization(settings, gov.store, incident_id).metadata

    markdown = {k: v.value for k, v in meta.items() if isinstance(v, dg.MarkdownMetadataValue)}
    assert {"cause 1", "fix 1", "plan", "how to approve", "draft step 1"} <= set(markdown)
    assert all(len(text) < 1000 for text in markdown.values()), {k: len(v) for k, v in markdown.items()}
    assert INLINE_LIMIT < 1000
    assert "Export for 2026-09-30 arrived in 2 parts" in markdown["cause 1"] and "99%" in markdown["cause 1"]
    assert "+wait()" in markdown["fix 1"] and "full diff in the plan" in markdown["fix 1"]

    path = meta["path"].value
    assert isinstance(meta["path"], dg.TableMetadataValue)
    assert [r.data["system"] for r in path.records] == ["airflow", "dbt"]
    assert path.records[1].data["provenance"] == "dbt_manifest,note"
    readers = meta["readers"].value.records
    assert readers[0].data["severity"] == "high" and readers[0].data["owner"] == "finance-controller"
    assert "finance-controller (1)" in meta["blast radius"].value

    approve = markdown["how to approve"]
    assert f"dw approve {plan_id} --as <your-name>" in approve
    assert "maria.chen, omar.haddad" in approve and approval.approval_id in approve
    assert "dw/approval_id=" in approve and f"dw/plan_id={plan_id}" in approve
    assert "gl_landing" in markdown["plan"] and "undo" in markdown["plan"]
    assert "/api/v2/dags/gl_landing/dagRuns" in markdown["draft step 1"]
    assert '"export_date": "2026-09-30"' in markdown["draft step 1"]

    history = meta["history"].value.records
    assert [r.data["to"] for r in history] == ["open", "diagnosed"]
    assert history[1].data["note"] == "a note long enough " * 12  # whole, not cut


def test_plan_view_lists_the_launchable_approval_and_skips_drafts_on_trigger_instances(settings, gov, approved):
    plan_id, approval = approved
    view = plan_view(settings, gov.store, plan_id, now=gov.now())
    assert view.launchable_approval == approval.approval_id and view.status == "approved"
    assert [d[1] for d in view.drafts] == ["gl_landing"] and not view.draft_errors
    assert plan_view(settings, gov.store, "plan-0000000000000000") is None


def test_a_plan_partition_on_the_launchpad_launches_a_gated_run_without_typed_config(settings, gov, approved, airflow,
                                                                                    clock):
    plan_id, approval = approved
    runtime = GovernanceRuntime(settings, governance=gov, client_for=lambda _name: airflow, sleep=clock.advance)
    defs = rerun_definitions(settings, runtime=runtime)
    job = defs.resolve_job_def("rerun_airflow_dag")
    config = job.partitioned_config
    assert "plan_id" not in config.get_run_config_for_partition_key(plan_id)["ops"]["authorize_plan"]["config"]
    tags = config.get_tags_for_partition_key(plan_id)
    assert tags["dw/plan_id"] == plan_id and tags["dw/approval_id"] == approval.approval_id
    with dg.instance_for_test() as instance:
        instance.add_dynamic_partitions(plan_partitions.name, [plan_id])
        result = job.execute_in_process(partition_key=plan_id, instance=instance, raise_on_error=False)
        assert result.success, result.all_events
        assert gov.ledger.get_approval(approval.approval_id).used_by == result.run_id
        again = job.execute_in_process(partition_key=plan_id, instance=instance, raise_on_error=False)
    assert not again.success  # the approval is used: the Launchpad's tags carry none, the gate refuses
    assert "refused (no_approval)" in again.failure_data_for_node("authorize_plan").error.message


def test_the_approvals_sensor_lists_pending_plans_in_one_place_once_per_change(settings, gov, approved, clock):
    plan_id, approval = approved
    other = night1_plan(conf={"export_date": "2026-08-31"})
    gov.propose(other)
    gov.request_approval(other.id)
    gov.stop(by="omar.haddad")  # the approved plan stays undispatched (a tick would dispatch it) and pending
    runtime = GovernanceRuntime(settings, governance=gov)
    defs = rerun_definitions(settings, runtime=runtime)
    sensor = defs.resolve_sensor_def("dw_approvals")
    with dg.instance_for_test() as instance:
        first = sensor(dg.build_sensor_context(instance=instance, definitions=defs,
                                               resources={"dw_governance": runtime}))
        for request in first.dynamic_partitions_requests:
            instance.add_dynamic_partitions(request.partitions_def_name, list(request.partition_keys))
        second = sensor(dg.build_sensor_context(instance=instance, definitions=defs, cursor=first.cursor,
                                                resources={"dw_governance": runtime}))
        assert sorted(instance.get_dynamic_partitions(plan_partitions.name)) == sorted([plan_id, other.id])
    (event,) = first.asset_events
    assert event.asset_key == dg.AssetKey(["dw", "approvals"]) and event.metadata["pending"].value == 2
    rows = {r.data["plan"]: r.data for r in event.metadata["plans"].value.records}
    assert rows[other.id]["status"] == "approval_requested" and "(approve first)" in rows[other.id]["launch tags"]
    assert rows[plan_id]["launch tags"].endswith(f"dw/approval_id={approval.approval_id}")
    assert rows[other.id]["approve with"].startswith(f"dw approve {other.id} --as")
    assert "/api/v2/dags/gl_landing/dagRuns" in event.metadata[f"{rows[other.id]['#']}. draft step 1"].value
    assert not second.asset_events and not second.dynamic_partitions_requests  # nothing changed
