"""The gate in front of every Airflow write: each refusal reaches Airflow with zero requests."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa
from gov_fakes import CountingAirflow, make_settings, night1_plan

from dw_assets.core.approvals import ApprovalRecord, Refusal
from dw_assets.core.plans import DownstreamWait, PlanStep
from dw_assets.governance import gate
from dw_assets.governance.authority import signed_approval
from dw_assets.governance.dispatch import DispatchError, PlanRun
from dw_assets.governance.gate import check_dispatch
from dw_assets.governance.ledger import plans as plans_table
from dw_assets.governance.workflow import Governance
from dw_assets.store import Store


def run_plan(gov, airflow, plan_id, approval_id, run_id="run-1", **kw) -> PlanRun:
    runner = PlanRun(gov=gov, client_for=lambda _name: airflow, plan_id=plan_id, approval_id=approval_id,
                     run_id=run_id, poll_interval_s=5, wait_timeout_s=600, sleep=gov._clock.advance, **kw)
    runner.authorize()
    runner.run_all()
    return runner


def forge_approval(gov, plan_id, approver, *, approval_id="apr-forged000000000", signed=True):
    """A decision written around the rules: by the key holder (a signed record and its row), or with
    `signed=False` by someone who can only write the database (the row alone)."""
    now = gov.now()
    record = ApprovalRecord(approval_id=approval_id, plan_id=plan_id, approver=approver, decision="approved",
                            decided_at=now, expires_at=now + timedelta(hours=4))
    gov.ledger.add_decision(record)
    if signed:
        gov.record("approval_approved", subject=plan_id, actor=approver, body={
            "approval_id": approval_id, "approver": approver, "plan_hash": plan_id,
            "expires_at": record.expires_at.isoformat()})
    return approval_id


def test_an_approval_row_without_a_signed_decision_is_refused(gov, airflow, plan):
    gov.propose(plan)
    approval_id = forge_approval(gov, plan.id, "maria.chen", signed=False)
    err = assert_refused(gov, airflow, plan.id, approval_id, "unknown_approval")
    assert "signed" in err.reason


def assert_refused(gov, airflow, plan_id, approval_id, code, run_id="run-x"):
    refusals_before = len(gov.ledger.list_refusals())
    with pytest.raises(Refusal) as info:
        run_plan(gov, airflow, plan_id, approval_id, run_id=run_id)
    assert info.value.code == code, info.value.reason
    assert airflow.writes == [] and airflow.requests == [], "a refused plan must not reach Airflow at all"
    refusals = gov.ledger.list_refusals()
    assert len(refusals) > refusals_before and refusals[-1]["code"] == code and refusals[-1]["reason"]
    receipt = gov.receipts.list(action="refusal")[-1]
    assert receipt.record["body"]["code"] == code and receipt.record["body"]["reason"] == info.value.reason
    return info.value


def test_no_approval_tag(gov, airflow, approved):
    plan_id, _ = approved
    assert_refused(gov, airflow, plan_id, None, "no_approval")


def test_unknown_approval(gov, airflow, approved):
    plan_id, _ = approved
    assert_refused(gov, airflow, plan_id, "apr-0123456789abcdef", "unknown_approval")


def test_approval_for_another_plan(gov, airflow, approved):
    _, approval = approved
    other = night1_plan(conf={"export_date": "2026-08-31"})
    gov.propose(other)
    assert_refused(gov, airflow, other.id, approval.approval_id, "approval_for_other_plan")


def test_self_approval_in_the_ledger_is_refused(gov, airflow, plan):
    gov.propose(plan)
    approval_id = forge_approval(gov, plan.id, plan.proposer)
    err = assert_refused(gov, airflow, plan.id, approval_id, "agent_identity")
    assert plan.proposer in err.reason
    own = night1_plan(proposer="omar.haddad")
    gov.propose(own)
    approval_id = forge_approval(gov, own.id, "omar.haddad", approval_id="apr-forged000000001")
    assert_refused(gov, airflow, own.id, approval_id, "self_approval")


def test_non_approver_in_the_ledger_is_refused(gov, airflow, plan):
    gov.propose(plan)
    assert_refused(gov, airflow, plan.id, forge_approval(gov, plan.id, "priya.raman"), "not_an_approver")


def test_an_approver_removed_from_the_config_after_approving_no_longer_counts(tmp_path, clock, airflow, plan):
    store = Store(f"sqlite:///{tmp_path}/state.db")
    gov = Governance(make_settings(tmp_path), store=store, clock=clock)
    gov.propose(plan)
    gov.request_approval(plan.id)
    approval = gov.approve(plan.id, "omar.haddad")
    base = make_settings(tmp_path)
    finance = base.domains[0].model_copy(update={"approvers": ["maria.chen"]})
    edited = Governance(base.model_copy(update={"domains": [finance, base.domains[1]]}), store=store, clock=clock)
    assert_refused(edited, airflow, plan.id, approval.approval_id, "not_an_approver")


def test_agent_identity_in_the_ledger_is_refused(gov, airflow, plan):
    gov.propose(plan)
    assert_refused(gov, airflow, plan.id, forge_approval(gov, plan.id, "deploy-bot"), "agent_identity")


def test_expired_approval(gov, airflow, approved, clock):
    plan_id, approval = approved
    clock.advance(4 * 3600)
    assert_refused(gov, airflow, plan_id, approval.approval_id, "expired")


def test_rejected_decision_is_not_an_approval(gov, airflow, plan):
    gov.propose(plan)
    gov.request_approval(plan.id)
    rejection = gov.reject(plan.id, "maria.chen", "no")
    assert_refused(gov, airflow, plan.id, rejection.approval_id, "rejected")


def test_an_approval_is_used_once(gov, airflow, approved):
    plan_id, approval = approved
    run_plan(gov, airflow, plan_id, approval.approval_id, run_id="run-1")
    used = gov.ledger.get_approval(approval.approval_id)
    assert used.used_by == "run-1" and used.used_at is not None
    fresh = CountingAirflow(clock=airflow.clock)
    assert_refused(gov, fresh, plan_id, approval.approval_id, "already_used", run_id="run-2")


def test_read_only_pin(gov, plan):
    pinned = night1_plan(instance="pinned")
    gov.propose(pinned)
    gov.request_approval(pinned.id)
    approval = gov.approve(pinned.id, "maria.chen")
    airflow = CountingAirflow(clock=gov._clock, read_only=True)
    assert_refused(gov, airflow, pinned.id, approval.approval_id, "read_only")
    assert gov.ledger.get_approval(approval.approval_id).used_at is None


def test_a_launch_reads_the_approval_once_and_refuses_a_later_read_only_step_unconsumed(gov, monkeypatch):
    """The launch check covers every step (the second here is pinned read-only: refused, recorded with
    that step's path, the approval left unused) and reads the signed approval once, not once per step."""
    two = night1_plan(instance="legacy", extra_steps=(
        PlanStep(order=2, airflow_instance="pinned", dag_id="month_end_close", conf={"full_refresh": True}),))
    gov.propose(two)
    gov.request_approval(two.id)
    approval = gov.approve(two.id, "maria.chen")
    reads: list[str] = []
    monkeypatch.setattr(gate, "signed_approval", lambda receipts, approval_id: reads.append(approval_id)
                        or signed_approval(receipts, approval_id))
    airflow = CountingAirflow(clock=gov._clock)
    assert_refused(gov, airflow, two.id, approval.approval_id, "read_only")
    assert reads == [approval.approval_id]
    refusal = gov.ledger.list_refusals()[-1]
    assert (refusal["instance"], refusal["dag_id"]) == ("pinned", "month_end_close")
    assert gov.ledger.get_approval(approval.approval_id).used_at is None


def test_org_wide_stop_from_the_ledger_then_resume(gov, airflow, approved):
    plan_id, approval = approved
    gov.stop(by="maria.chen", reason="close freeze")
    err = assert_refused(gov, airflow, plan_id, approval.approval_id, "stopped")
    assert "close freeze" in err.reason
    gov.resume(by="maria.chen")
    run_plan(gov, airflow, plan_id, approval.approval_id)
    assert len(airflow.requests) > 0


def test_org_wide_stop_from_the_config(tmp_path, clock, airflow, plan):
    store = Store(f"sqlite:///{tmp_path}/state.db")
    gov = Governance(make_settings(tmp_path), store=store, clock=clock)
    gov.propose(plan)
    gov.request_approval(plan.id)
    approval = gov.approve(plan.id, "maria.chen")
    base = make_settings(tmp_path)
    stopped = Governance(base.model_copy(update={"governance": base.governance.model_copy(update={"stop": True})}),
                         store=store, clock=clock)
    assert_refused(stopped, airflow, plan.id, approval.approval_id, "stopped")


@pytest.mark.parametrize("level", ["L1", "L0"])
def test_domains_below_l2_never_dispatch(tmp_path, clock, airflow, level):
    base = make_settings(tmp_path)
    revenue = base.domains[1].model_copy(update={"autonomy": level})
    gov = Governance(base.model_copy(update={"domains": [base.domains[0], revenue]}),
                     store=Store(f"sqlite:///{tmp_path}/state.db"), clock=clock)
    observe = night1_plan(domain="revenue")
    gov.propose(observe)
    assert_refused(gov, airflow, observe.id, forge_approval(gov, observe.id, "jonas.berg"), "autonomy_too_low")


def test_a_plan_edited_in_the_ledger_is_refused_as_tampered(gov, airflow, approved):
    plan_id, approval = approved
    with gov.store.engine.begin() as conn:
        content = conn.execute(sa.select(plans_table.c.content).where(plans_table.c.plan_id == plan_id)).scalar()
        conn.execute(plans_table.update().where(plans_table.c.plan_id == plan_id)
                     .values(content=content.replace("2026-09-30", "2026-08-31")))
    assert_refused(gov, airflow, plan_id, approval.approval_id, "plan_tampered")


def test_a_write_that_is_not_a_step_of_the_plan_is_refused(gov, approved):
    plan_id, approval = approved
    decision = check_dispatch(gov.settings, gov.ledger, plan_id, approval.approval_id, instance="local",
                              dag_id="gl_landing", conf={"export_date": "2026-08-31"}, actor="mcp", now=gov.now())
    assert not decision.allowed and decision.code == "not_in_plan"


def test_approved_path_in_trigger_mode_triggers_once_and_waits_for_downstream(gov, clock):
    airflow = CountingAirflow(clock=clock, downstream={"gl_landing": ["month_end_close"]})
    legacy = night1_plan(instance="legacy")
    gov.propose(legacy)
    gov.request_approval(legacy.id)
    approval = gov.approve(legacy.id, "maria.chen")
    runner = run_plan(gov, airflow, legacy.id, approval.approval_id)
    assert airflow.writes == [("POST", "dags/gl_landing/dagRuns")]
    assert [r.dag_id for r in airflow.runs] == ["gl_landing", "month_end_close"]
    assert gov.ledger.plan_row(legacy.id)["status"] == "verifying"
    actions = [r.action for r in gov.receipts.list(subject=legacy.id)]
    assert actions[-5:] == ["dispatch_authorized", "rerun_dispatched", "run_observed", "run_observed",
                            "rerun_completed"]
    completed = gov.receipts.list(action="rerun_completed")[-1].record["body"]
    assert completed["steps"][0]["downstream"][0]["dag_id"] == "month_end_close"
    assert runner.since == approval.decided_at and gov.receipts.verify().ok


def test_approved_path_in_draft_mode_writes_nothing_and_follows_the_owners_run(gov, clock, approved):
    plan_id, approval = approved
    airflow = CountingAirflow(clock=clock, downstream={"gl_landing": ["month_end_close"]}, owner_triggers=True)
    airflow.expect_owner_run("gl_landing", {"export_date": "2026-09-30"})
    run_plan(gov, airflow, plan_id, approval.approval_id)
    assert airflow.writes == [] and airflow.owner_triggered == ["gl_landing"]
    draft = gov.receipts.list(action="rerun_drafted")[-1].record["body"]
    assert draft["ui_path"] == "/dags/gl_landing/trigger"
    assert '"logical_date": null' in draft["api_call"] and '"export_date": "2026-09-30"' in draft["api_call"]
    assert draft["api_call"].startswith("curl -X POST ") and "/api/v2/dags/gl_landing/dagRuns" in draft["api_call"]
    assert gov.ledger.plan_row(plan_id)["status"] == "verifying"


def test_on_airflow_2_draft_mode_still_triggers(gov, clock, approved):
    plan_id, approval = approved
    airflow = CountingAirflow(clock=clock, api="v1", downstream={"gl_landing": ["month_end_close"]})
    run_plan(gov, airflow, plan_id, approval.approval_id)
    assert airflow.writes == [("POST", "dags/gl_landing/dagRuns")]


def test_a_draft_nobody_triggers_times_out_and_is_recorded(gov, clock, approved):
    plan_id, approval = approved
    airflow = CountingAirflow(clock=clock)
    with pytest.raises(DispatchError, match="timed out"):
        run_plan(gov, airflow, plan_id, approval.approval_id)
    assert airflow.writes == [] and gov.ledger.plan_row(plan_id)["status"] == "rerun_failed"
    assert gov.receipts.list(action="rerun_failed")


def test_a_draft_run_with_another_conf_is_not_taken_for_ours(gov, clock, approved):
    plan_id, approval = approved
    airflow = CountingAirflow(clock=clock, owner_triggers=True)
    airflow.expect_owner_run("gl_landing", {"export_date": "2026-09-29"})
    with pytest.raises(DispatchError, match="timed out"):
        run_plan(gov, airflow, plan_id, approval.approval_id)


def test_a_failed_rerun_stops_the_plan(gov, clock):
    airflow = CountingAirflow(clock=clock, end_states={"gl_landing": "failed"})
    legacy = night1_plan(instance="legacy")
    gov.propose(legacy)
    gov.request_approval(legacy.id)
    with pytest.raises(DispatchError, match="ended failed"):
        run_plan(gov, airflow, legacy.id, gov.approve(legacy.id, "maria.chen").approval_id)
    assert gov.ledger.plan_row(legacy.id)["status"] == "rerun_failed"


def test_stop_between_steps_halts_a_running_rerun_before_its_next_write(gov, clock):
    two = night1_plan(instance="legacy", extra_steps=(
        PlanStep(order=2, airflow_instance="legacy", dag_id="month_end_close", conf={"full_refresh": True},
                 wait_for=(DownstreamWait(dag_id="close_report"),)),))
    airflow = CountingAirflow(clock=clock, downstream={"gl_landing": ["month_end_close"]})
    gov.propose(two)
    gov.request_approval(two.id)
    approval = gov.approve(two.id, "maria.chen")
    runner = PlanRun(gov=gov, client_for=lambda _n: airflow, plan_id=two.id, approval_id=approval.approval_id,
                     run_id="run-1", poll_interval_s=5, wait_timeout_s=600, sleep=clock.advance)
    runner.authorize()
    first, second = runner.plan.ordered_steps()
    runner.run_step(first)
    gov.stop(by="omar.haddad", reason="incident bridge")
    with pytest.raises(Refusal) as info:
        runner.run_step(second)
    assert info.value.code == "stopped" and airflow.writes == [("POST", "dags/gl_landing/dagRuns")]
