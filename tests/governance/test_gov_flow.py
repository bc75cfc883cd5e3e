"""Night 1 through governance, on fakes: propose -> request -> approve -> sensor -> rerun job (which
verifies in its own run), with the incident moving along and one unbroken receipt chain at the end."""

from __future__ import annotations

from datetime import timedelta

import dagster as dg
from gov_fakes import night1_plan

from dw_assets.connectors.openlineage.emitter import VerificationEmitter
from dw_assets.core.checks_logic import CheckOutcome
from dw_assets.core.incidents import open_incident
from dw_assets.core.signals import Signal
from dw_assets.dagster_defs.rerun import (
    GovernanceRuntime,
    rerun_airflow_dag,
    verification,
    verification_partitions,
)
from dw_assets.governance.launches import approvals_tick
from dw_assets.incidents.store import IncidentStore


class Capture:
    def __init__(self):
        self.events = []

    def emit(self, event):
        self.events.append(event)


def passing_checks(dataset, check, partition):
    return CheckOutcome(check, dataset, True, "ERROR", f"{check} ok", {"observed": 105500, "partition": partition})


def test_night_one_from_proposal_to_resolved_incident(settings, gov, airflow, clock):
    signal = Signal(kind="check_failed", dataset_id="finance.bronze.gl_entries", observed_at=clock(),
                    source="check:volume_vs_history", summary="gl_entries 2026-09-30 at 58% of its usual volume",
                    details={"check": "volume_vs_history", "partition": "2026-09-30", "observed": 61234})
    incidents = IncidentStore(gov.store)
    incident = incidents.create(open_incident(signal, id="INC-20261001-00A1", owner="maria.chen", domain="finance",
                                              window=timedelta(hours=24), now=clock()))
    plan = night1_plan().model_copy(update={"incident_id": incident.id})
    gov.propose(plan)
    gov.request_approval(plan.id)
    assert incidents.get(incident.id).status == "awaiting_approval"
    approval = gov.approve(plan.id, "maria.chen", "both export parts are in landing/")

    [launch] = approvals_tick(gov).launches
    runtime = GovernanceRuntime(settings, governance=gov, client_for=lambda _n: airflow, sleep=clock.advance,
                                checks_runner=passing_checks, emitter=VerificationEmitter(settings, client=Capture()))
    result = rerun_airflow_dag.execute_in_process(
        run_config={"ops": {"authorize_plan": {"config": {"poll_interval_s": 5.0}}}},
        tags={"dw/plan_id": launch.plan_id, "dw/approval_id": launch.approval_id},
        resources={"dw_governance": runtime})
    assert result.success and airflow.writes == []  # Airflow 3: drafted, the owner triggered it
    # verified in the rerun's own run, as soon as Airflow reported the reruns done
    (mat,) = result.asset_materializations_for_node("verify_in_run")
    assert mat.asset_key == dg.AssetKey(["dw", "verification"]) and mat.partition == plan.id
    assert mat.metadata["passed"].value is True
    after_rerun = incidents.get(incident.id)
    assert after_rerun.status == "resolved"
    assert {link["dag_id"] for link in after_rerun.run_links} == {"gl_landing", "month_end_close"}

    tick = approvals_tick(gov)
    assert tick.verify == [] and tick.launches == []
    with dg.instance_for_test() as instance:  # the fallback verify run, launched anyway, verifies nothing twice
        instance.add_dynamic_partitions(verification_partitions.name, [plan.id])
        again = dg.materialize([verification], partition_key=plan.id, instance=instance,
                               resources={"dw_governance": runtime})
        assert again.success
        (recorded,) = again.asset_materializations_for_node("dw__verification")
    assert recorded.metadata["already_verified"].value is True and recorded.metadata["passed"].value is True

    assert incidents.get(incident.id).status == "resolved"
    assert gov.ledger.plan_row(plan.id)["status"] == "verified"
    assert gov.ledger.get_approval(approval.approval_id).used_by == result.run_id
    actions = [r.action for r in gov.receipts.list(subject=plan.id)]
    assert actions == ["plan_proposed", "approval_requested", "approval_approved", "dispatch_authorized",
                       "rerun_drafted", "run_observed", "run_observed", "rerun_completed", "verification"]
    report = gov.receipts.verify()
    assert report.ok and report.count == len(actions)
