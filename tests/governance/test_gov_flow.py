"""Night 1 through governance, on fakes: propose -> request -> approve -> sensor -> rerun job (which
verifies in its own run), with the incident moving along and one unbroken receipt chain at the end."""

from __future__ import annotations

from datetime import timedelta

import dagster as dg
import pytest
from gov_fakes import night1_plan

from dw_assets.connectors.airflow.errors import AirflowUnavailableError
from dw_assets.connectors.airflow.models import DagRun
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
from dw_assets.governance.dispatch import PlanRun
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


class _TimedAirflow:
    """One run of `gl_landing` that ends `runs_for` seconds after it started; its DAG's last successful
    runs took `usual` seconds (None: the history cannot be read)."""

    def __init__(self, clock, *, runs_for: float, usual: float | None):
        self.clock, self.started, self.runs_for, self.usual = clock, clock(), runs_for, usual
        self.gets = 0

    def get_dag_run(self, dag_id: str, run_id: str) -> DagRun:
        self.gets += 1
        ended = (self.clock() - self.started).total_seconds() >= self.runs_for
        return DagRun(dag_id=dag_id, run_id=run_id, state="success" if ended else "running", logical_date=None,
                      run_after=self.started, start_date=self.started,
                      end_date=self.started + timedelta(seconds=self.runs_for) if ended else None)

    def iter_dag_runs(self, dag_id: str, **filters):
        assert filters == {"states": ["success"], "order_by": "-end_date"}
        if self.usual is None:
            raise AirflowUnavailableError("airflow instance 'local': GET /api/v2/dags/gl_landing/dagRuns timed out")
        start = self.started - timedelta(days=1)
        for took in (self.usual - 5, self.usual, self.usual, self.usual + 5, 900.0):
            yield DagRun(dag_id=dag_id, run_id=f"scheduled_{took}", state="success", logical_date=None,
                         run_after=start, start_date=start, end_date=start + timedelta(seconds=took))


@pytest.mark.parametrize("usual", [60.0, None])
def test_a_rerun_is_polled_often_only_near_its_dags_usual_duration(gov, clock, usual):
    airflow = _TimedAirflow(clock, runs_for=61.5, usual=usual)
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        clock.advance(seconds)

    run = PlanRun(gov=gov, client_for=lambda _name: airflow, plan_id="plan-x", approval_id=None, run_id="r-1",
                  poll_interval_s=10.0, sleep=sleep)
    done = run._wait_finished(airflow, "gl_landing", "manual__1")
    seen_after_end = (clock() - done.end_date).total_seconds()
    if usual is None:  # no history: the configured pace, the end seen within one interval
        assert set(sleeps) == {10.0} and seen_after_end <= 10.0
    else:  # every 10 s until 80% of the usual 60 s (less one interval), then every second
        assert sleeps[:4] == [10.0] * 4 and set(sleeps[4:]) == {1.0}, sleeps
        assert seen_after_end <= 1.0 and airflow.gets <= 30


def test_the_verification_is_warmed_while_the_run_waits_and_built_once(settings, monkeypatch):
    built: list[str] = []

    def counting_runner(_settings):
        built.append("runner")
        return passing_checks

    monkeypatch.setattr("dw_assets.dagster_defs.rerun.default_checks_runner", counting_runner)
    runtime = GovernanceRuntime(settings)
    warming = runtime.warm_verification()
    runner = runtime.checks_runner()  # the verification asking while (or after) the thread builds it
    warming.join(timeout=120)
    assert not warming.is_alive() and built == ["runner"] and runtime.checks_runner() is runner
