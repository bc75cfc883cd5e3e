"""The Dagster rerun job: refused before any Airflow request, approved runs trigger/draft and wait."""

from __future__ import annotations

from datetime import UTC, datetime

import dagster as dg
import pytest
from gov_fakes import Capture, CountingAirflow, make_settings, night1_plan, passing_checks

from dw_assets.config import AirflowConfig, AirflowInstanceConfig, AuthConfig
from dw_assets.connectors.openlineage.emitter import VerificationEmitter
from dw_assets.core.plans import PlanStep
from dw_assets.dagster_defs.rerun import (
    GovernanceRuntime,
    rerun_airflow_dag,
    rerun_run_config,
    rerun_tags,
)
from dw_assets.governance.ledger import GovernanceLedger
from dw_assets.governance.workflow import Governance
from dw_assets.store import Store
from sensors.approvals import build_definitions
from tests.support.airflow_fakes import FakeAirflow, serve


def execute(runtime, tags, **cfg):
    return rerun_airflow_dag.execute_in_process(
        run_config=rerun_run_config(poll_interval_s=cfg.get("poll", 5.0), wait_timeout_s=600.0),
        tags=tags, resources={"dw_governance": runtime}, raise_on_error=False)


def failure_message(result, op="authorize_plan") -> str:
    data = result.failure_data_for_node(op)
    assert data is not None, f"{op} did not fail"
    return data.error.message


@pytest.fixture
def runtime(settings, gov, airflow, clock):
    return GovernanceRuntime(settings, governance=gov, client_for=lambda _name: airflow, sleep=clock.advance,
                             checks_runner=passing_checks, emitter=VerificationEmitter(settings, client=Capture()))


def test_definitions_load(settings):
    defs = build_definitions(settings)
    assert defs.resolve_job_def("rerun_airflow_dag") and defs.resolve_job_def("verify_remediation")
    assert defs.resolve_sensor_def("dw_approvals")


def test_approved_run_drafts_waits_and_verifies_in_the_same_run(runtime, gov, airflow, approved):
    plan_id, approval = approved
    result = execute(runtime, rerun_tags(plan_id, approval.approval_id))
    assert result.success
    assert airflow.writes == [] and [r.dag_id for r in airflow.runs] == ["gl_landing", "month_end_close"]
    used = gov.ledger.get_approval(approval.approval_id)
    assert used.used_by == result.run_id
    steps = result.output_for_node("dispatch_plan_steps")["steps"]
    assert steps[0]["mode"] == "drafted" and steps[0]["downstream"][0]["dag_id"] == "month_end_close"
    # no second run to wait for: the plan is verified (receipt, ledger, partition) by this one
    assert result.output_for_node("verify_in_run") == {"plan_id": plan_id, "verified": True, "passed": True,
                                                        "outcome": "resolved"}
    assert gov.ledger.plan_row(plan_id)["status"] == "verified"
    actions = [r.action for r in gov.receipts.list(subject=plan_id)]
    assert actions[-2:] == ["rerun_completed", "verification"] and actions.count("verification") == 1
    (mat,) = result.asset_materializations_for_node("verify_in_run")
    assert mat.partition == plan_id and mat.metadata["outcome"].value == "resolved"
    assert result.dagster_run.run_id in mat.description


def _other_plan(gov) -> str:
    other = night1_plan(conf={"export_date": "2026-08-31"})
    gov.propose(other)
    return other.id


@pytest.mark.parametrize("tags,code", [
    (lambda g, p, a: {"dw/plan_id": p}, "no_approval"),
    (lambda g, p, a: {"dw/plan_id": p, "dw/approval_id": "apr-ffffffffffffffff"}, "unknown_approval"),
    (lambda g, p, a: {"dw/plan_id": "plan-0000000000000000", "dw/approval_id": a}, "unknown_plan"),
    (lambda g, p, a: {"dw/plan_id": _other_plan(g), "dw/approval_id": a}, "approval_for_other_plan"),
    (lambda g, p, a: {"dw/approval_id": a}, None),
], ids=["no-tag", "unknown-approval", "unknown-plan", "approval-of-another-plan", "no-plan-tag"])
def test_refused_runs_fail_before_any_airflow_call(runtime, gov, airflow, approved, tags, code):
    """The plan is the `dw/plan_id` tag alone; an approval launches only the plan it was signed for."""
    plan_id, approval = approved
    result = execute(runtime, tags(gov, plan_id, approval.approval_id))
    assert not result.success
    assert airflow.requests == [] and gov.ledger.get_approval(approval.approval_id).used_at is None
    if code is None:
        assert "no plan to run" in failure_message(result) and not gov.ledger.list_refusals()
        return
    assert f"refused ({code})" in failure_message(result)
    assert gov.ledger.list_refusals()[-1]["code"] == code


def _forged(gov, plan, approver):
    from datetime import timedelta

    from dw_assets.core.approvals import ApprovalRecord

    gov.propose(plan)
    now = gov.now()
    record = ApprovalRecord(approval_id="apr-forged00000000ab", plan_id=plan.id, approver=approver,
                            decision="approved", decided_at=now, expires_at=now + timedelta(hours=4))
    gov.ledger.add_decision(record)  # written around the rules by the key holder: the gate still refuses
    gov.record("approval_approved", subject=plan.id, actor=approver, body={
        "approval_id": record.approval_id, "approver": approver, "plan_hash": plan.id,
        "expires_at": record.expires_at.isoformat()})
    return plan.id, "apr-forged00000000ab"


def _row_only(gov, clock):
    """A database writer's approval: the row, with no signed decision behind it."""
    from datetime import timedelta

    from dw_assets.core.approvals import ApprovalRecord

    plan = night1_plan()
    gov.propose(plan)
    gov.ledger.add_decision(ApprovalRecord(approval_id="apr-insider0000001", plan_id=plan.id, approver="maria.chen",
                                           decision="approved", decided_at=gov.now(),
                                           expires_at=gov.now() + timedelta(hours=4)))
    return plan.id, "apr-insider0000001"


def _expired(gov, clock):
    plan = night1_plan()
    gov.propose(plan)
    gov.request_approval(plan.id)
    approval = gov.approve(plan.id, "maria.chen")
    clock.advance(5 * 3600)
    return plan.id, approval.approval_id


def _pinned(gov, clock):
    plan = night1_plan(instance="pinned")
    gov.propose(plan)
    gov.request_approval(plan.id)
    return plan.id, gov.approve(plan.id, "maria.chen").approval_id


@pytest.mark.parametrize("setup,code", [
    (lambda gov, clock: _forged(gov, night1_plan(proposer="omar.haddad"), "omar.haddad"), "self_approval"),
    (lambda gov, clock: _forged(gov, night1_plan(), "priya.raman"), "not_an_approver"),
    (lambda gov, clock: _forged(gov, night1_plan(), "deploy-bot"), "agent_identity"),
    (lambda gov, clock: _forged(gov, night1_plan(domain="revenue"), "jonas.berg"), "autonomy_too_low"),
    (_expired, "expired"),
    (_pinned, "read_only"),
    (_row_only, "unknown_approval"),
], ids=["self-approval", "non-approver", "agent-identity", "l1-domain", "expired", "read-only-pin", "row-only"])
def test_every_ledger_refusal_fails_the_job_before_any_airflow_call(runtime, gov, airflow, clock, setup, code):
    plan_id, approval_id = setup(gov, clock)
    result = execute(runtime, rerun_tags(plan_id, approval_id))
    assert not result.success and f"refused ({code})" in failure_message(result)
    assert airflow.requests == []
    assert gov.ledger.list_refusals()[-1]["code"] == code


def test_the_same_approval_cannot_launch_two_runs(runtime, gov, airflow, approved):
    plan_id, approval = approved
    assert execute(runtime, rerun_tags(plan_id, approval.approval_id)).success
    before = len(airflow.requests)
    again = execute(runtime, rerun_tags(plan_id, approval.approval_id))
    assert not again.success and "refused (already_used)" in failure_message(again)
    assert len(airflow.requests) == before


def test_stop_halts_a_queued_rerun(runtime, gov, airflow, approved):
    plan_id, approval = approved
    gov.stop(by="maria.chen", reason="freeze")
    result = execute(runtime, rerun_tags(plan_id, approval.approval_id))
    assert "refused (stopped)" in failure_message(result) and airflow.requests == []
    assert gov.ledger.get_approval(approval.approval_id).used_at is None


def test_a_run_reads_the_plan_from_the_ledger_once_for_any_number_of_steps(settings, gov, clock, monkeypatch):
    """The launch check reads (and rehashes) the plan; the later ops take it from the first op's output,
    so a four-step rerun (each step behind its own gate check) reads the plan row once."""
    steps = tuple(PlanStep(order=k, airflow_instance="legacy", dag_id=f"rebuild_{k}", conf={"part": k})
                  for k in range(2, 5))
    plan = night1_plan(instance="legacy", extra_steps=steps)
    gov.propose(plan)
    gov.request_approval(plan.id)
    approval = gov.approve(plan.id, "maria.chen")
    airflow = CountingAirflow(clock=clock, downstream={"gl_landing": ["month_end_close"]})
    runtime = GovernanceRuntime(settings, governance=gov, client_for=lambda _name: airflow, sleep=clock.advance,
                                checks_runner=passing_checks, emitter=VerificationEmitter(settings, client=Capture()))
    reads: list[str] = []
    row = GovernanceLedger.plan_row
    monkeypatch.setattr(GovernanceLedger, "plan_row", lambda self, plan_id: reads.append(plan_id) or row(self, plan_id))
    result = execute(runtime, rerun_tags(plan.id, approval.approval_id))
    assert result.success and result.output_for_node("verify_in_run")["verified"]
    assert airflow.writes == [("POST", f"dags/{d}/dagRuns")
                              for d in ("gl_landing", "rebuild_2", "rebuild_3", "rebuild_4")]
    assert reads == [plan.id]


def finish_and_feed_close(fake: FakeAirflow, run: dict) -> None:
    """A triggered gl_landing run succeeds at once, and the asset it writes starts month_end_close."""
    now = datetime.now(UTC)
    fake.finish(run, "success", now)
    fake.add_run("month_end_close", "asset_triggered__1", "success", start=now, end=now)


@pytest.fixture
def fake_airflow():
    fake = FakeAirflow(major=3)
    fake.add_dag("gl_landing")
    fake.add_dag("month_end_close")
    fake.on_trigger = lambda run: finish_and_feed_close(fake, run)
    with serve(fake) as served:
        yield served


@pytest.fixture
def http_settings(tmp_path, fake_airflow):
    _fake, url = fake_airflow
    auth = AuthConfig(type="jwt", username=FakeAirflow.username, password=FakeAirflow.password)
    instances = [AirflowInstanceConfig(name=name, url=url, read_only=ro, trigger_mode="trigger", auth=auth, retries=0)
                 for name, ro in (("legacy", False), ("pinned", True))]
    return make_settings(tmp_path, airflow=AirflowConfig(instances=instances))


def test_with_the_real_client_a_refusal_sends_no_http_request_and_approval_triggers_once(http_settings,
                                                                                          fake_airflow):
    fake, _url = fake_airflow
    gov = Governance(http_settings, store=Store(http_settings.state.url))
    runtime = GovernanceRuntime(http_settings, governance=gov, sleep=lambda _s: None, checks_runner=passing_checks,
                                emitter=VerificationEmitter(http_settings, client=Capture()))
    legacy, pinned = night1_plan(instance="legacy"), night1_plan(instance="pinned")
    for plan in (legacy, pinned):
        gov.propose(plan)
        gov.request_approval(plan.id)
    pinned_approval = gov.approve(pinned.id, "maria.chen")
    refused = execute(runtime, rerun_tags(pinned.id, pinned_approval.approval_id), poll=0.01)
    assert "refused (read_only)" in failure_message(refused)
    refused = execute(runtime, rerun_tags(legacy.id, None), poll=0.01)
    assert "refused (no_approval)" in failure_message(refused)
    assert fake.requests == []

    approval = gov.approve(legacy.id, "omar.haddad")
    result = execute(runtime, rerun_tags(legacy.id, approval.approval_id), poll=0.01)
    assert result.success, result.failure_data_for_node("dispatch_plan_steps")
    assert fake.writes == [("POST", "/api/v2/dags/gl_landing/dagRuns")]
    [trigger] = [r for r in fake.requests if r["method"] == "POST" and r["path"].startswith("/api/")]
    body = dict(trigger["json"])
    run_id = body.pop("dag_run_id")  # chosen by the dispatcher, so a lost answer can be repeated
    assert body == {"logical_date": None, "conf": {"export_date": "2026-09-30"}} and run_id.startswith("dw__")
    assert gov.ledger.plan_row(legacy.id)["status"] == "verified"


def test_the_sensor_tick_drafts_and_the_rerun_run_it_requests_waits_and_verifies(settings, runtime, gov, airflow,
                                                                                approved):
    """Dispatch in the tick (the code server, no new process), then the requested run takes it over."""
    plan_id, approval = approved
    defs = build_definitions(settings, runtime=runtime)
    with dg.instance_for_test() as instance:
        context = dg.build_sensor_context(instance=instance, definitions=defs, resources={"dw_governance": runtime})
        result = defs.resolve_sensor_def("dw_approvals")(context)
    [request] = [r for r in result.run_requests if r.job_name == "rerun_airflow_dag"]
    assert [r.action for r in gov.receipts.list(action="rerun_drafted", subject=plan_id)] == ["rerun_drafted"]
    assert gov.ledger.plan_row(plan_id)["status"] == "drafted"  # before the run exists
    run = execute(runtime, request.tags)
    assert run.success
    assert run.output_for_node("authorize_plan")["dispatch_id"] == f"dw-tick-{approval.approval_id}"
    assert len(gov.receipts.list(action="rerun_drafted", subject=plan_id)) == 1, "drafted once, by the tick"
    assert gov.ledger.get_approval(approval.approval_id).used_by == run.run_id
    assert run.output_for_node("verify_in_run")["verified"] is True
    again = execute(runtime, request.tags)  # the same request launched twice: the second run is refused
    assert not again.success and "already_used" in failure_message(again)
    assert airflow.writes == []
