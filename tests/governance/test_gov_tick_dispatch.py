"""The approvals sensor dispatches in its tick, and the rerun run takes that dispatch over once.

The tick asks the gate (the approval consumed under `tick_dispatch_id` before any Airflow call),
triggers or drafts the first step and records it; the run launched after it waits for Airflow,
runs later steps and verifies, dispatching nothing the tick recorded. A tick that ended between the
gate and the launch is completed by the next (launch only); a run launched by hand still dispatches
itself. An insider who can write the state database, without the signing key, makes neither the
tick nor the run dispatch: forged "dispatched" rows and replays end with no Airflow write.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from gov_fakes import CountingAirflow, make_settings, night1_plan

from dw_assets.connectors.airflow.errors import AirflowUnavailableError
from dw_assets.core.approvals import Refusal
from dw_assets.core.plans import PlanStep
from dw_assets.core.receipts import canonical_json
from dw_assets.dagster_defs.rerun import GovernanceRuntime
from dw_assets.governance.authority import signed_step_dispatch
from dw_assets.governance.dispatch import PlanRun
from dw_assets.governance.gate import tick_auto_dispatch_id, tick_dispatch_id
from dw_assets.governance.launches import Launch, TickDispatch, approvals_tick, dispatch_due, dispatch_in_tick
from dw_assets.governance.workflow import Governance
from dw_assets.store import Store


def sql(gov: Governance, statement: str, **params: Any) -> None:
    with gov.store.engine.begin() as conn:
        conn.execute(sa.text(statement), params)


def trigger_airflow(clock) -> CountingAirflow:
    return CountingAirflow(clock=clock, api="v1", downstream={"gl_landing": ["month_end_close"]})


def approve(gov: Governance, plan) -> str:
    gov.propose(plan)
    gov.request_approval(plan.id)
    return gov.approve(plan.id, "maria.chen", "both parts landed").approval_id


def tick(gov: Governance, airflow: Any) -> list[TickDispatch]:
    """One tick's dispatches, as the sensor makes them."""
    launches = [launch for launch in approvals_tick(gov).launches if launch.approval_id and launch.relaunchable]
    return [dispatch_in_tick(gov, launch, client_for=lambda _name: airflow) for launch in launches]


def rerun_run(gov: Governance, airflow: Any, plan_id: str, approval_id: str, run_id: str) -> PlanRun:
    return PlanRun(gov=gov, client_for=lambda _name: airflow, plan_id=plan_id, approval_id=approval_id,
                   run_id=run_id, poll_interval_s=5, wait_timeout_s=600, sleep=gov._clock.advance)


def refused(gov: Governance, airflow: Any, plan_id: str, approval_id: str, code: str, run_id: str) -> Refusal:
    before = list(airflow.requests)
    run = rerun_run(gov, airflow, plan_id, approval_id, run_id)
    with pytest.raises(Refusal) as info:
        run.authorize()
        run.run_all()
    assert info.value.code == code, info.value.reason
    assert airflow.requests == before, "a refused run must not reach Airflow"
    return info.value


def actions(gov: Governance, plan_id: str) -> list[str]:
    return [r.action for r in gov.receipts.list(subject=plan_id)]


def test_the_tick_triggers_the_first_step_and_the_run_awaits_it_without_triggering_again(gov, clock):
    plan = night1_plan("legacy")  # trigger mode: the tick writes to Airflow
    approval_id = approve(gov, plan)
    airflow = trigger_airflow(clock)
    [dispatch] = tick(gov, airflow)
    assert dispatch.launch_run and dispatch.outcome is not None and dispatch.outcome.mode == "triggered"
    assert airflow.writes == [("POST", "dags/gl_landing/dagRuns")]
    [use] = gov.receipts.list(action="dispatch_authorized", subject=plan.id)
    [sent] = gov.receipts.list(action="rerun_dispatched", subject=plan.id)
    assert use.seq < sent.seq, "the approval is consumed before the Airflow call"
    assert use.record["body"]["run_id"] == sent.record["body"]["run_id"] == tick_dispatch_id(approval_id)
    assert sent.record["body"]["airflow_run_id"] == dispatch.outcome.run_id
    assert approvals_tick(gov).pending[0].run_key == f"rerun-{approval_id}"  # the run to launch, not yet taken

    run = rerun_run(gov, airflow, plan.id, approval_id, "dagster-run-1")
    decision = run.authorize()
    assert decision.allowed and run.adopted_from == "dagster-run-1"
    [outcome] = run.run_all()
    assert airflow.writes == [("POST", "dags/gl_landing/dagRuns")], "the run triggered nothing again"
    assert outcome.run_id == dispatch.outcome.run_id and outcome.state == "success"
    assert gov.ledger.plan_row(plan.id)["status"] == "verifying"
    assert gov.ledger.get_approval(approval_id).used_by == "dagster-run-1"
    [adopted] = gov.receipts.list(action="dispatch_adopted", subject=plan.id)
    assert adopted.record["body"]["run_id"] == "dagster-run-1"
    assert approvals_tick(gov).pending == [] and approvals_tick(gov).launches == []
    assert gov.receipts.verify().ok


def test_the_tick_drafts_for_the_owner_and_the_run_waits_for_the_owners_run(gov, clock, airflow, plan):
    approval_id = approve(gov, plan)
    [dispatch] = tick(gov, airflow)
    assert dispatch.outcome is not None and dispatch.outcome.mode == "drafted" and airflow.writes == []
    assert gov.ledger.plan_row(plan.id)["status"] == "drafted"
    run = rerun_run(gov, airflow, plan.id, approval_id, "dagster-run-1")
    run.authorize()
    [outcome] = run.run_all()
    assert outcome.mode == "drafted" and outcome.state == "success" and airflow.owner_triggered == ["gl_landing"]
    assert actions(gov, plan.id).count("rerun_drafted") == 1, "the owner is told once"
    assert airflow.writes == []


def test_a_later_step_is_dispatched_by_the_run_after_the_first_steps_airflow_run_ends(gov, clock):
    second = PlanStep(order=2, airflow_instance="legacy", dag_id="trial_balance", conf={"period": "2026-09"})
    plan = night1_plan("legacy", extra_steps=(second,))
    approval_id = approve(gov, plan)
    airflow = trigger_airflow(clock)
    tick(gov, airflow)
    assert airflow.writes == [("POST", "dags/gl_landing/dagRuns")]  # only the first step in the tick
    run = rerun_run(gov, airflow, plan.id, approval_id, "dagster-run-1")
    run.authorize()
    first, later = run.run_all()
    assert airflow.writes == [("POST", "dags/gl_landing/dagRuns"), ("POST", "dags/trial_balance/dagRuns")]
    assert later.state == "success" and first.state == "success"


def test_a_tick_that_ended_after_the_gate_is_completed_by_the_next_with_a_launch_only(gov, clock):
    plan = night1_plan("legacy")
    approval_id = approve(gov, plan)
    airflow = trigger_airflow(clock)
    # the tick consumed the approval, then died before the trigger and before requesting the run
    rerun_run(gov, airflow, plan.id, approval_id, tick_dispatch_id(approval_id)).authorize()
    assert airflow.requests == []
    next_tick = approvals_tick(gov)
    assert next_tick.launches == []  # nothing to dispatch again: the approval is used
    assert [(p.plan_id, p.approval_id, p.run_key) for p in next_tick.pending] == [
        (plan.id, approval_id, f"rerun-{approval_id}")]
    run = rerun_run(gov, airflow, plan.id, approval_id, "dagster-run-1")
    run.authorize()
    run.run_all()
    assert airflow.writes == [("POST", "dags/gl_landing/dagRuns")], "the run dispatched the step the tick did not"


def test_an_airflow_that_does_not_answer_in_the_tick_leaves_the_step_to_the_run(gov, clock):
    plan = night1_plan("legacy")
    approval_id = approve(gov, plan)
    airflow = trigger_airflow(clock)

    class Down:
        @property
        def api_version(self) -> str:
            raise AirflowUnavailableError("airflow instance 'legacy': GET /api/v1/version timed out")

    [dispatch] = tick(gov, Down())
    assert dispatch.launch_run and dispatch.outcome is None and "left to the rerun run" in dispatch.note
    assert gov.ledger.plan_row(plan.id)["status"] == "dispatching"  # not failed: the run takes over
    run = rerun_run(gov, airflow, plan.id, approval_id, "dagster-run-1")
    run.authorize()
    run.run_all()
    assert airflow.writes == [("POST", "dags/gl_landing/dagRuns")]


def test_a_run_launched_by_hand_dispatches_itself_through_the_gate_and_the_tick_then_does_nothing(gov, clock):
    plan = night1_plan("legacy")
    approval_id = approve(gov, plan)
    airflow = trigger_airflow(clock)
    run = rerun_run(gov, airflow, plan.id, approval_id, "launchpad-run")
    run.authorize()
    assert run.adopted_from is None
    run.run_all()
    assert airflow.writes == [("POST", "dags/gl_landing/dagRuns")]
    assert tick(gov, airflow) == [] and approvals_tick(gov).pending == []
    assert airflow.writes == [("POST", "dags/gl_landing/dagRuns")]


def test_a_replayed_run_cannot_take_the_ticks_dispatch_over_again_even_with_the_row_reset(gov, clock):
    plan = night1_plan("legacy")
    approval_id = approve(gov, plan)
    airflow = trigger_airflow(clock)
    tick(gov, airflow)
    run = rerun_run(gov, airflow, plan.id, approval_id, "dagster-run-1")
    run.authorize()
    run.run_all()
    writes = list(airflow.writes)
    err = refused(gov, airflow, plan.id, approval_id, "already_used", run_id="dagster-run-2")
    assert "dagster-run-1" in err.reason
    # the insider hands the use back to the tick's id and resets the plan: the signed takeover stands
    sql(gov, "UPDATE dw_gov_approvals SET used_by = :t WHERE approval_id = :a", t=tick_dispatch_id(approval_id),
        a=approval_id)
    sql(gov, "UPDATE dw_gov_plans SET status = 'dispatching' WHERE plan_id = :p", p=plan.id)
    assert approvals_tick(gov).pending == []  # the signed log says it was taken over: nothing to launch
    refused(gov, airflow, plan.id, approval_id, "already_used", run_id="dagster-run-3")
    assert tick(gov, airflow) == [] and airflow.writes == writes
    # and a re-execution of the run's later op, reading the first op's stored output, is refused
    copy = rerun_run(gov, airflow, plan.id, approval_id, "dagster-run-4")
    with pytest.raises(Refusal, match="did not take over"):
        copy.resume_adopted()
    assert airflow.writes == writes


def test_a_forged_tick_dispatch_without_a_signed_approval_dispatches_nothing(gov, clock):
    plan = night1_plan("legacy")
    gov.propose(plan)
    gov.request_approval(plan.id)
    forged = "apr-insider0000000"
    now = gov.now()
    # an approval row "consumed by the tick", the plan "dispatching": no signed decision behind it
    sql(gov, "INSERT INTO dw_gov_approvals (approval_id, plan_id, approver, decision, note, decided_at, expires_at, "
             "used_at, used_by) VALUES (:a, :p, 'omar.haddad', 'approved', '', :d, :e, :d, :u)",
        a=forged, p=plan.id, d=now.isoformat(), e=(now + timedelta(hours=4)).isoformat(), u=tick_dispatch_id(forged))
    sql(gov, "UPDATE dw_gov_plans SET status = 'dispatching' WHERE plan_id = :p", p=plan.id)
    airflow = trigger_airflow(clock)
    assert approvals_tick(gov).pending == [] and tick(gov, airflow) == []
    refused(gov, airflow, plan.id, forged, "unknown_approval", run_id="dagster-run-1")
    assert airflow.requests == []


def test_a_forged_tick_use_of_a_real_unused_approval_dispatches_nothing(gov, clock):
    plan = night1_plan("legacy")
    approval_id = approve(gov, plan)
    # the row says the tick used it (it did not: no signed use); the launch is then refused, not run
    sql(gov, "UPDATE dw_gov_approvals SET used_at = :d, used_by = :u WHERE approval_id = :a",
        d=gov.now().isoformat(), u=tick_dispatch_id(approval_id), a=approval_id)
    sql(gov, "UPDATE dw_gov_plans SET status = 'dispatching' WHERE plan_id = :p", p=plan.id)
    airflow = trigger_airflow(clock)
    assert approvals_tick(gov).pending == [] and tick(gov, airflow) == []
    refused(gov, airflow, plan.id, approval_id, "already_used", run_id="dagster-run-1")


def test_a_forged_dispatched_receipt_does_not_stand_for_a_dispatch(gov, clock):
    """An unsigned `rerun_dispatched` row naming the tick's id and some other Airflow run: the run
    does not await that run as if the step were done (the gate refuses the edited chain)."""
    plan = night1_plan("legacy")
    approval_id = approve(gov, plan)
    rerun_run(gov, trigger_airflow(clock), plan.id, approval_id, tick_dispatch_id(approval_id)).authorize()
    head = gov.receipts.head()
    assert head is not None
    seq = head.count + 1
    record = {"seq": seq, "at": gov.now().isoformat(), "action": "rerun_dispatched", "subject": plan.id,
              "actor": "dw-approvals-sensor", "prev_hash": head.head_hash,
              "body": {"order": 1, "path": {"instance": "legacy", "dag_id": "gl_landing"},
                       "airflow_run_id": "manual__someone_elses_run", "run_id": tick_dispatch_id(approval_id)}}
    sql(gov, "INSERT INTO dw_receipts (seq, at, action, subject, record, hash, signature) "
             "VALUES (:s, :a, 'rerun_dispatched', :p, :r, :h, :g)",
        s=seq, a=record["at"], p=plan.id, r=canonical_json(record), h="f" * 64, g="0" * 128)
    sql(gov, "UPDATE dw_receipt_head SET count = :s, head_hash = :h", s=seq, h="f" * 64)
    assert signed_step_dispatch(gov.receipts, plan.id, tick_dispatch_id(approval_id), order=1, instance="legacy",
                                dag_id="gl_landing") is None
    airflow = trigger_airflow(clock)
    refused(gov, airflow, plan.id, approval_id, "chain_broken", run_id="dagster-run-1")


def test_the_tick_stops_dispatching_when_its_time_is_used_and_leaves_the_rest(gov, clock):
    plans = [night1_plan("legacy", conf={"export_date": day}) for day in ("2026-08-31", "2026-09-30")]
    launches = [Launch(p.id, approve(gov, p), f"rerun-{p.id}") for p in plans]
    airflow = trigger_airflow(clock)
    ticks = iter([0.0, 0.0, 20.0])  # the first dispatch used the tick's time
    done, deferred = dispatch_due(gov, launches, client_for=lambda _name: airflow, budget_s=15.0,
                                  clock=lambda: next(ticks))
    assert [d.launch for d in done] == launches[:1] and deferred == launches[1:]
    assert len(airflow.writes) == 1
    assert [l.approval_id for l in approvals_tick(gov).launches] == [launches[1].approval_id]


def test_while_plans_wait_the_tick_learns_the_api_version_so_an_approval_during_a_restart_drafts_at_once(
        settings, gov, clock, airflow, plan):
    """Drafting needs only the API version: learnt while the plan waits for its approver, the draft is
    made in the tick even if Airflow is restarting when the approval comes."""

    class Restarting:
        """Airflow 3 whose `/version` answers only while `up`; the version is cached once known."""

        def __init__(self) -> None:
            self.up, self.known, self.probes = False, None, 0

        @property
        def api_version(self) -> str:
            if self.known is None:
                self.probes += 1
                if not self.up:
                    raise AirflowUnavailableError("airflow instance 'local': GET /api/v2/version: connection refused")
                self.known = "v2"
            return self.known

        def trigger_request(self, dag_id: str, conf: dict | None = None) -> dict:
            return airflow.trigger_request(dag_id, conf)

    clients = {"local": Restarting(), "legacy": Restarting()}
    runtime = GovernanceRuntime(settings, governance=gov, client_for=clients.__getitem__)
    assert runtime.warm_tick_clients(retry_after_s=60) == ["local", "legacy"]  # down: tried again later
    assert runtime.warm_tick_clients(retry_after_s=60) == [] and clients["local"].probes == 1
    for client in clients.values():
        client.up = True
    runtime._warm_after.clear()  # the minute passed
    assert runtime.warm_tick_clients() == [] and clients["local"].known == "v2"
    assert runtime.warm_tick_clients() == [] and clients["local"].probes == 2  # known: never asked again
    clients["local"].up = False  # Airflow restarts as the approval comes
    approval_id = approve(gov, plan)
    [dispatch] = [dispatch_in_tick(gov, launch, client_for=runtime.tick_client)
                  for launch in approvals_tick(gov).launches]
    assert dispatch.outcome is not None and dispatch.outcome.mode == "drafted", dispatch.note
    assert gov.ledger.get_approval(approval_id).used_by == tick_dispatch_id(approval_id)


def l3_gov(tmp_path, clock, *, finance: str = "L3", revenue: str = "L1") -> Governance:
    """Finance at `finance` with a clean signed record of three verified night-1 reloads (L3 trusts it)."""
    base = make_settings(tmp_path)
    domains = [base.domains[0].model_copy(update={"autonomy": finance}),
               base.domains[1].model_copy(update={"autonomy": revenue})]
    gov = Governance(base.model_copy(update={"domains": domains}), store=Store(base.state.url), clock=clock)
    for day in ("2026-05-31", "2026-06-30", "2026-07-31"):
        earlier = night1_plan("legacy", conf={"export_date": day})
        gov.propose(earlier)
        gov.ledger.set_plan_status(earlier.id, "verified", now=clock())
        gov.record("verification", subject=earlier.id, actor="dw-verify", body={"passed": True})
    return gov


def test_an_l3_plan_is_dispatched_in_the_tick_and_its_run_takes_it_over_without_triggering_again(tmp_path, clock):
    gov = l3_gov(tmp_path, clock)
    plan = night1_plan("legacy")
    gov.propose(plan)
    airflow = trigger_airflow(clock)
    [launch] = approvals_tick(gov).launches
    assert launch.approval_id is None and launch.run_key == f"rerun-auto-{plan.id}"
    [dispatch] = dispatch_due(gov, [launch], client_for=lambda _name: airflow)[0]
    assert dispatch.launch_run and dispatch.outcome is not None and dispatch.outcome.mode == "triggered"
    assert airflow.writes == [("POST", "dags/gl_landing/dagRuns")]
    [use] = gov.receipts.list(action="dispatch_authorized", subject=plan.id)
    assert use.record["body"]["mode"] == "autonomous" and use.record["body"]["run_id"] == tick_auto_dispatch_id(plan.id)
    again = approvals_tick(gov)
    assert again.launches == [] and [p.run_key for p in again.pending] == [f"rerun-auto-{plan.id}"]

    run = PlanRun(gov=gov, client_for=lambda _name: airflow, plan_id=plan.id, approval_id=None,
                  run_id="dagster-run-1", poll_interval_s=5, wait_timeout_s=600, sleep=clock.advance)
    assert run.authorize().code == "autonomous" and run.adopted_from == "dagster-run-1"
    [outcome] = run.run_all()
    assert outcome.run_id == dispatch.outcome.run_id and outcome.state == "success"
    assert airflow.writes == [("POST", "dags/gl_landing/dagRuns")], "the run triggered nothing again"
    assert approvals_tick(gov).pending == [] and approvals_tick(gov).launches == []
    # a second run for the same plan (a replay, a relaunch) cannot take it over again
    replay = PlanRun(gov=gov, client_for=lambda _name: airflow, plan_id=plan.id, approval_id=None,
                     run_id="dagster-run-2", poll_interval_s=5, wait_timeout_s=600, sleep=clock.advance)
    with pytest.raises(Refusal) as info:
        replay.authorize()
    assert info.value.code == "already_used" and "dagster-run-1" in info.value.reason
    assert gov.receipts.verify().ok


def test_the_tick_dispatches_an_l3_plan_once_a_lowered_level_is_refused_by_the_run(tmp_path, clock):
    gov = l3_gov(tmp_path, clock)
    plan = night1_plan("legacy")
    gov.propose(plan)
    airflow = trigger_airflow(clock)
    dispatch_due(gov, approvals_tick(gov).launches, client_for=lambda _name: airflow)
    # finance lowered to L2 in the config between the tick and its run: the run's gate refuses it
    lowered = [d.model_copy(update={"autonomy": "L2"}) if d.name == "finance" else d for d in gov.settings.domains]
    gov.settings = gov.settings.model_copy(update={"domains": lowered})
    run = PlanRun(gov=gov, client_for=lambda _name: airflow, plan_id=plan.id, approval_id=None,
                  run_id="dagster-run-1", poll_interval_s=5, wait_timeout_s=600, sleep=clock.advance)
    with pytest.raises(Refusal) as info:
        run.authorize()
    assert info.value.code == "no_approval"
    assert len(airflow.writes) == 1


def test_forged_rows_in_the_state_database_do_not_make_a_tick_dispatch_without_approval(tmp_path, clock):
    """The autonomy level is the config's, for the plan's signed domain; an insider who can write the
    database (not the config, not the signing key) makes no tick dispatch a plan without approval."""
    gov = l3_gov(tmp_path, clock, finance="L2", revenue="L4")  # finance needs approval, revenue is L4
    plan = night1_plan("legacy")  # a finance plan with a reversible class
    gov.propose(plan)
    airflow = trigger_airflow(clock)
    # a "level" row for the domain, and the plan's row moved to the L4 domain
    sql(gov, "INSERT INTO dw_gov_flags (name, value, updated_at, updated_by) VALUES "
             "('autonomy:finance', 'L4', :t, 'insider')", t=gov.now().isoformat())
    sql(gov, "UPDATE dw_gov_plans SET domain = 'revenue' WHERE plan_id = :p", p=plan.id)
    tick_ = approvals_tick(gov)
    assert tick_.launches == [] and tick_.pending == []
    # a forged "the tick dispatched it" state: the plan row dispatching, an unsigned launch check
    sql(gov, "UPDATE dw_gov_plans SET status = 'dispatching' WHERE plan_id = :p", p=plan.id)
    head = gov.receipts.head()
    assert head is not None
    record = {"seq": head.count + 1, "at": gov.now().isoformat(), "action": "dispatch_authorized",
              "subject": plan.id, "actor": "dw-approvals-sensor", "prev_hash": head.head_hash,
              "body": {"mode": "autonomous", "approval_id": None, "run_id": tick_auto_dispatch_id(plan.id)}}
    sql(gov, "INSERT INTO dw_receipts (seq, at, action, subject, record, hash, signature) "
             "VALUES (:s, :a, 'dispatch_authorized', :p, :r, :h, :g)",
        s=record["seq"], a=record["at"], p=plan.id, r=canonical_json(record), h="f" * 64, g="0" * 128)
    assert approvals_tick(gov).pending == []
    run = PlanRun(gov=gov, client_for=lambda _name: airflow, plan_id=plan.id, approval_id=None,
                  run_id="dagster-run-1", poll_interval_s=5, wait_timeout_s=600, sleep=clock.advance)
    with pytest.raises(Refusal):
        run.authorize()
        run.run_all()
    assert airflow.requests == [], "nothing reached Airflow"


def test_an_l3_plan_reset_to_proposed_in_the_database_is_not_dispatched_again(tmp_path, clock):
    gov = l3_gov(tmp_path, clock)
    plan = night1_plan("legacy")
    gov.propose(plan)
    airflow = trigger_airflow(clock)
    dispatch_due(gov, approvals_tick(gov).launches, client_for=lambda _name: airflow)
    run = PlanRun(gov=gov, client_for=lambda _name: airflow, plan_id=plan.id, approval_id=None,
                  run_id="dagster-run-1", poll_interval_s=5, wait_timeout_s=600, sleep=clock.advance)
    run.authorize()
    run.run_all()
    writes = list(airflow.writes)
    sql(gov, "UPDATE dw_gov_plans SET status = 'proposed' WHERE plan_id = :p", p=plan.id)
    assert approvals_tick(gov).launches == [] and approvals_tick(gov).pending == []
    assert airflow.writes == writes
