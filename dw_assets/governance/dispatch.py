"""Carrying out an approved plan against Airflow, step by step, behind the gate.

Before every write the gate is asked again (the org-wide stop, read-only pins and the approval are
re-read), so `dw stop` halts a rerun between steps. Per step, per instance:

- trigger mode (Airflow 2, or `trigger_mode: trigger`): trigger the run through the API;
- draft mode (Airflow 3 default): hand the owner the exact request (conf, UI link, the API call and
  how to get a token for it) as a receipt, on the incident (a run link with role `owner_draft`) and
  in the domain's Slack channel, then wait `governance.owner_draft_wait` for a run of that DAG with
  exactly that conf, started after the approval; when nobody triggers it, the wait's expiry is
  posted to the domain's escalation contacts and the plan fails (the incident is escalated).

Then wait for the run and for its downstream runs (`wait_for`, e.g. `month_end_close` on the asset
event) to finish, with a deadline; every run observed becomes a receipt. Plain Python with an
injected clock and sleep, so the Dagster job and the tests drive the same code.
"""

from __future__ import annotations

import itertools
import json
import re
import shlex
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, NoReturn

from dw_assets.connectors.airflow.api import AirflowApi, ClientFor
from dw_assets.connectors.airflow.errors import AirflowError, AirflowUnavailableError
from dw_assets.connectors.slack import Delivery
from dw_assets.core.approvals import Refusal, parse_duration
from dw_assets.core.plans import Plan, PlanStep
from dw_assets.core.receipts import canonical_json
from dw_assets.governance.authority import (
    signed_adoption_of,
    signed_approval,
    signed_step_dispatch,
    signed_use,
)
from dw_assets.governance.gate import (
    GateDecision,
    adopt_dispatch,
    authorize_launch,
    check_dispatch,
    record_refusal,
    tick_auto_dispatch_id,
    tick_dispatch_id,
)
from dw_assets.governance.incident_link import link_run
from dw_assets.governance.workflow import Governance


class DispatchError(RuntimeError):
    """A step could not be completed (the run failed, or nothing showed up before the deadline)."""


@dataclass
class StepOutcome:
    order: int
    instance: str
    dag_id: str
    mode: str  # "triggered" | "drafted"
    run_id: str
    state: str | None
    downstream: list[dict[str, Any]] = field(default_factory=list)
    draft: dict[str, Any] | None = None
    wait_s: float = 0.0  # a drafted step: how long its owner still has to trigger it

    def as_dict(self) -> dict[str, Any]:
        return {"order": self.order, "instance": self.instance, "dag_id": self.dag_id, "mode": self.mode,
                "run_id": self.run_id, "state": self.state, "downstream": self.downstream, "draft": self.draft}


@dataclass
class PlanRun:
    """One execution of a plan by one Dagster (or CLI) run."""

    gov: Governance
    client_for: ClientFor
    plan_id: str
    approval_id: str | None
    run_id: str
    actor: str = "dw-rerun-job"
    poll_interval_s: float = 5.0
    wait_timeout_s: float = 6 * 3600.0
    sleep: Callable[[float], None] = time.sleep
    log: Callable[[str], None] = lambda _msg: None
    since: datetime | None = None  # runs must start after this (the approval time)
    draft_wait_s: float | None = None  # None: governance.owner_draft_wait
    # the plan as this run already read it (and rehashed it to `plan_id`): the gate's read at launch,
    # handed on to the later steps of a Dagster run; None: read from the ledger on first use
    known_plan: Plan | None = field(default=None, repr=False)
    # False in the approvals sensor's tick: an Airflow that does not answer within the connector's
    # (tick-sized) deadline raises at once instead of being waited out; the rerun run waits it out
    ride_outages: bool = True
    notifier: Any = None  # None: the governance's notifier (the tick passes one with a tick-sized deadline)
    adopted_from: str | None = None  # the Dagster run id, when this run took over the tick's dispatch
    # an awaited run is polled every `short_poll_s` from shortly before its DAG's usual duration
    # (the median of its last successful runs) until well after it, so its end is seen within about
    # a second where it is expected, and every `poll_interval_s` otherwise
    short_poll_s: float = 1.0
    _usual: dict[str, float | None] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.known_plan is not None and self.known_plan.id != self.plan_id:
            raise ValueError(f"PlanRun for {self.plan_id} was handed plan {self.known_plan.id}")

    def authorize(self) -> GateDecision:
        """The launch check; consumes the approval. Raises Refusal (already recorded) when refused.

        When the approvals sensor's tick already consumed the approval (and dispatched the first
        step) under `tick_dispatch_id`, this run takes that dispatch over instead (once: see
        `gate.adopt_dispatch`) and acts under that id from here on, so it re-dispatches nothing the
        tick recorded as dispatched. Whether the tick used it is read from the signed log only; an
        L3/L4 plan the tick dispatched without approval is taken over the same way."""
        if self.run_id != self._tick_id() and self._dispatched_by_tick():
            decision = adopt_dispatch(self.gov.settings, self.gov.ledger, self.plan_id, self.approval_id,
                                      run_id=self.run_id, actor=self.actor, now=self.gov.now(),
                                      receipts=self.gov.receipts).raise_if_refused()
            self.adopted_from, self.run_id = self.run_id, self._tick_id()
            self.known_plan = decision.plan
            self.since = decision.decided_at or self.gov.now()
            return decision
        decision = authorize_launch(self.gov.settings, self.gov.ledger, self.plan_id, self.approval_id,
                                    run_id=self.run_id, actor=self.actor, now=self.gov.now(),
                                    receipts=self.gov.receipts).raise_if_refused()
        self.known_plan = decision.plan
        self.since = decision.decided_at or self.gov.now()  # the signed time, not the row's
        self.gov.ledger.set_plan_status(self.plan_id, "dispatching", now=self.gov.now())
        self.gov.move_incident(self.plan.incident_id, "remediating", actor=self.actor,
                               note=f"{self.plan_id} authorized: {decision.reason}")
        return decision

    def resume_adopted(self) -> None:
        """Act under the tick's dispatch id in a later op of the run that took it over; the signed
        adoption must name this run (a re-execution reading the first op's stored output is refused)."""
        taken = signed_adoption_of(self.gov.receipts, self._tick_id())
        body = taken.record.get("body") if taken is not None else None
        if not isinstance(body, dict) or body.get("run_id") != self.run_id:
            reason = (f"run {self.run_id} did not take over the approvals sensor's dispatch of {self.plan_id} "
                      f"({self.approval_id}): {'run ' + str(body.get('run_id')) if isinstance(body, dict) else 'no run'}"
                      " did; launch a new plan instead of re-executing this run")
            record_refusal(self.gov.ledger, self.gov.receipts, Refusal("already_used", reason), now=self.gov.now(),
                           plan_id=self.plan_id, approval_id=self.approval_id, actor=self.actor, run_id=self.run_id)
            raise Refusal("already_used", reason)
        self.adopted_from, self.run_id = self.run_id, self._tick_id()

    def _tick_id(self) -> str:
        """The id the approvals sensor's tick dispatches this plan under (with or without approval)."""
        return tick_dispatch_id(self.approval_id) if self.approval_id else tick_auto_dispatch_id(self.plan_id)

    def _dispatched_by_tick(self) -> bool:
        if self.approval_id is None:  # an L3/L4 plan: the tick's signed launch check
            return signed_use(self.gov.receipts, self.plan_id, self._tick_id()) is not None
        signed = signed_approval(self.gov.receipts, self.approval_id)
        return signed is not None and signed.record.used_by == self._tick_id()

    def dispatch_first(self) -> StepOutcome:
        """The approvals sensor's part, in its tick: the launch check (consuming the approval under
        `tick_dispatch_id`, before any Airflow call), then the first step triggered or drafted, not
        awaited. The rerun run then takes over (`authorize`) and waits, verifies and runs later steps.
        Raises Refusal (recorded), DispatchError (recorded; the plan failed) or AirflowUnavailableError
        (Airflow did not answer in the tick's time: the run dispatches the step itself)."""
        if self.run_id != self._tick_id():
            raise ValueError("a tick dispatch runs under tick_dispatch_id(approval_id), or tick_auto_dispatch_id"
                             "(plan_id) for a plan that needs no approval")
        self.authorize()
        step = self.plan.ordered_steps()[0]
        client = self.client_for(step.airflow_instance)
        return self._start(client, step)

    @property
    def plan(self) -> Plan:
        """The plan as the gate read it at launch (or as handed on); read (and rehashed) once otherwise."""
        if self.known_plan is None:
            self.known_plan = self.gov.ledger.get_plan(self.plan_id)
        return self.known_plan

    def run_step(self, step: PlanStep) -> StepOutcome:
        self._recheck(step)
        client = self.client_for(step.airflow_instance)
        done = signed_step_dispatch(self.gov.receipts, self.plan_id, self.run_id, order=step.order,
                                    instance=step.airflow_instance, dag_id=step.dag_id)
        # a step the sensor's tick (this run's dispatch id) already triggered or drafted is awaited, not repeated
        outcome = self._resumed(step, done) if done is not None else self._start(client, step, recheck=False)
        if outcome.mode == "drafted":
            owner_run = self._await_owner(client, step, outcome)
            outcome.run_id, outcome.state = owner_run.run_id, owner_run.state
        run = self._wait_finished(client, step.dag_id, outcome.run_id)
        outcome.state = run.state
        self._observed(step, run, role="rerun")
        if run.state != "success":
            self._failed(f"{step.dag_id} run {run.run_id} ended {run.state}")
        for wait in step.wait_for:
            instance = wait.airflow_instance or step.airflow_instance
            down_client = client if instance == step.airflow_instance else self.client_for(instance)
            after = run.start_date or run.run_after or self.since
            down = self._wait_downstream(down_client, wait.dag_id, after)
            self._observed(step, down, role=f"downstream ({wait.via or 'follows'})")
            outcome.downstream.append({"dag_id": down.dag_id, "run_id": down.run_id, "state": down.state})
            if down.state != "success":
                self._failed(f"downstream {down.dag_id} run {down.run_id} ended {down.state}")
        return outcome

    def run_all(self) -> list[StepOutcome]:
        outcomes = [self.run_step(step) for step in self.plan.ordered_steps()]
        self.gov.ledger.set_plan_status(self.plan_id, "verifying", now=self.gov.now())
        self.gov.record("rerun_completed", subject=self.plan_id, actor=self.actor, body={
            "run_id": self.run_id, "approval_id": self.approval_id, "steps": [o.as_dict() for o in outcomes]})
        incident_id = self.plan.incident_id
        for outcome in outcomes:
            for run in [{"dag_id": outcome.dag_id, "run_id": outcome.run_id}, *outcome.downstream]:
                link_run(self.gov.store, incident_id, {"system": "airflow", "instance": outcome.instance,
                                                       "dag_id": run["dag_id"], "run_id": run["run_id"],
                                                       "role": "remediation", "plan_id": self.plan_id},
                         actor=self.actor)
        self.gov.move_incident(incident_id, "verifying", actor=self.actor, note=f"{self.plan_id} reruns finished")
        return outcomes

    def _start(self, client: AirflowApi, step: PlanStep, *, recheck: bool = True) -> StepOutcome:
        """Trigger the step (Airflow 2 or trigger mode) or draft it for its owner; not awaited."""
        if recheck:
            self._recheck(step)
        config = self.gov.settings.airflow_instance(step.airflow_instance)
        api = self._through_outages(lambda: client.api_version, f"reaching {step.airflow_instance}")
        if config.trigger_mode == "trigger" or api == "v1":
            return self._trigger(client, step)
        return self._draft(client, step)

    def _resumed(self, step: PlanStep, done: Any) -> StepOutcome:
        """The outcome of a step dispatched earlier under this run's id (by the sensor's tick)."""
        body = done.record["body"]
        if done.action == "rerun_dispatched":
            self.log(f"{step.dag_id} run {body['airflow_run_id']} was triggered by the approvals sensor: awaiting it")
            return StepOutcome(step.order, step.airflow_instance, step.dag_id, "triggered", body["airflow_run_id"], None)
        draft = {"conf": body["conf"], "ui_path": body["ui_path"], "ui_url": body.get("ui_url"),
                 "curl": body["api_call"], "token_help": body["token_help"]}
        self.log(f"{step.dag_id} was drafted for its owner by the approvals sensor at {done.record['at']}: "
                 f"waiting for the owner's run")
        outcome = StepOutcome(step.order, step.airflow_instance, step.dag_id, "drafted", "", None, draft=draft)
        outcome.wait_s = max(0.0, float(body["wait_s"]) - (self.gov.now() - _at(done)).total_seconds())
        return outcome

    def _recheck(self, step: PlanStep) -> None:
        check_dispatch(self.gov.settings, self.gov.ledger, self.plan_id, self.approval_id,
                       instance=step.airflow_instance, dag_id=step.dag_id, conf=step.conf, actor=self.actor,
                       run_id=self.run_id, now=self.gov.now(), receipts=self.gov.receipts,
                       plan=self.plan).raise_if_refused()

    def _trigger(self, client: AirflowApi, step: PlanStep) -> StepOutcome:
        try:
            # one Airflow run id per Dagster run and step: a trigger whose answer was lost is repeated
            # safely (Airflow answers 409 and the run is read back), never a second run
            run_id = airflow_run_id(self.run_id, step)
            run = self._through_outages(lambda: client.trigger_dag_run(step.dag_id, dict(step.conf), run_id=run_id),
                                        f"triggering {step.airflow_instance}:{step.dag_id}")
        except AirflowUnavailableError:
            raise  # only in the tick (`ride_outages=False`): the run dispatches the step itself
        except AirflowError as exc:  # the connector's errors name the instance and what to check
            self._failed(f"triggering {step.airflow_instance}:{step.dag_id} failed: {exc}")
        self.gov.record("rerun_dispatched", subject=self.plan_id, actor=self.actor, body={
            "order": step.order, "path": {"instance": step.airflow_instance, "dag_id": step.dag_id}, "conf": step.conf,
            "airflow_run_id": run.run_id, "run_id": self.run_id, "approval_id": self.approval_id})
        self.log(f"triggered {step.dag_id} run {run.run_id}")
        return StepOutcome(step.order, step.airflow_instance, step.dag_id, "triggered", run.run_id, run.state)

    def _draft(self, client: AirflowApi, step: PlanStep) -> StepOutcome:
        draft = self._through_outages(lambda: draft_for(client, step), f"drafting {step.dag_id}")
        wait_s = self.draft_wait_s if self.draft_wait_s is not None else \
            parse_duration(self.gov.settings.governance.owner_draft_wait).total_seconds()
        delivery = self._tell_owner(step, draft, wait_s)
        self.gov.record("rerun_drafted", subject=self.plan_id, actor=self.actor, body={
            "order": step.order, "path": {"instance": step.airflow_instance, "dag_id": step.dag_id},
            "conf": step.conf, "ui_path": draft["ui_path"], "ui_url": draft["ui_url"], "api_call": draft["curl"],
            "token_help": draft["token_help"], "run_id": self.run_id, "approval_id": self.approval_id,
            "wait_s": wait_s, "delivery": delivery.as_dict()})
        self.gov.ledger.set_plan_status(self.plan_id, "drafted", now=self.gov.now())
        self.log(f"drafted {step.dag_id}: trigger it at {draft['ui_url']} with conf {canonical_json(step.conf)} "
                 f"or run: {draft['curl']} ({draft['token_help']}); waiting up to {wait_s:.0f}s; "
                 f"Slack: {delivery.via} {delivery.detail}".rstrip())
        outcome = StepOutcome(step.order, step.airflow_instance, step.dag_id, "drafted", "", None, draft=draft)
        outcome.wait_s = wait_s
        return outcome

    def _await_owner(self, client: AirflowApi, step: PlanStep, outcome: StepOutcome) -> Any:
        """The owner's run of a drafted step: exactly its conf, started after the approval."""
        wait_s = outcome.wait_s
        wanted = canonical_json(step.conf)
        since = self.since or self.gov.now()

        def matching() -> Any:
            runs = _runs_after(client.list_dag_runs(step.dag_id, updated_since=since), since)
            found = [run for run in runs if canonical_json(run.conf or {}) == wanted]
            return found[0] if found else None

        what = f"a run of {step.dag_id} with conf {wanted} triggered by its owner"
        return self._poll(matching, what, timeout_s=wait_s, on_timeout=lambda: self._escalate_draft(step, wait_s))

    def _tell_owner(self, step: PlanStep, draft: dict[str, Any], wait_s: float) -> Any:
        """The draft onto the incident and into the domain's channel: who, what, where, how, by when."""
        plan = self.plan
        link_run(self.gov.store, plan.incident_id, {
            "system": "airflow", "instance": step.airflow_instance, "dag_id": step.dag_id, "role": "owner_draft",
            "plan_id": self.plan_id, "conf": dict(step.conf), "ui_url": draft["ui_url"], "api_call": draft["curl"],
            "token_help": draft["token_help"]}, actor=self.actor)
        domain = self.gov.domain(plan.domain)
        text = (f"Approved rerun for {plan.incident_id or self.plan_id} is ready for you to trigger "
                f"(Data Workers drafts runs on {step.airflow_instance}; it does not trigger them).\n"
                f"DAG {step.dag_id}, conf {canonical_json(step.conf)}\n"
                f"In the Airflow UI: {draft['ui_url']} (Trigger, paste the conf)\n"
                f"Or by API: {draft['curl']}\n{draft['token_help']}\n"
                f"Waiting {_human(wait_s)} for the run; then it is escalated to "
                f"{', '.join(domain.escalation) if domain and domain.escalation else 'the domain owner'}.")
        if domain is None:
            return Delivery(False, "none", f"domain {plan.domain!r} is not configured")
        # told once: the sending is claimed (an atomic row) before the post, so a tick that died after
        # posting and before recording the draft, or the run taking its dispatch over, does not post again
        key = draft_notice_key(self.plan_id, self.approval_id or self.run_id, step)
        if not self.gov.ledger.claim(key, plan_id=self.plan_id, by=self.run_id, now=self.gov.now()):
            earlier = self.gov.ledger.get_claim(key)
            sent = (earlier.outcome or {}) if earlier else {}
            when = f"at {earlier.claimed_at} by {earlier.claimed_by}" if earlier else "before"
            self.log(f"the owner was already told of {step.dag_id}'s draft ({when}): not posted again")
            return Delivery(bool(sent.get("delivered")), "earlier",
                            f"posted {when}" + (f" via {sent['via']}" if sent.get("via") else
                                                " (that attempt ended before recording the outcome)"))
        delivery = self.gov.notify(domain, text, notifier=self.notifier)
        self.gov.ledger.claim_outcome(key, delivery.as_dict())
        return delivery

    def _escalate_draft(self, step: PlanStep, wait_s: float) -> None:
        plan = self.plan
        domain = self.gov.domain(plan.domain)
        contacts = ", ".join(domain.escalation) if domain and domain.escalation else "the domain owner"
        text = (f"Escalated to {contacts}: the approved rerun of {step.dag_id} for {plan.incident_id or self.plan_id} "
                f"was drafted {_human(wait_s)} ago and nobody triggered it. Nothing was run. Trigger it as drafted "
                f"(see the incident), or ask for a new plan.")
        delivery = self.gov.notify(domain, text) if domain is not None else None
        self.gov.record("rerun_draft_expired", subject=self.plan_id, actor=self.actor, body={
            "path": {"instance": step.airflow_instance, "dag_id": step.dag_id}, "wait_s": wait_s,
            "escalated_to": contacts, "run_id": self.run_id,
            "delivery": delivery.as_dict() if delivery is not None else None})

    def _wait_finished(self, client: AirflowApi, dag_id: str, run_id: str) -> Any:
        seen: list[Any] = []

        def finished() -> Any:
            run = client.get_dag_run(dag_id, run_id)
            seen[:] = [run]
            return run if run.state in ("success", "failed") else None

        return self._poll(finished, f"{dag_id} run {run_id} to finish",
                          interval=lambda: self._interval(client, dag_id, seen[0] if seen else None))

    def _wait_downstream(self, client: AirflowApi, dag_id: str, after: datetime | None) -> Any:
        seen: list[Any] = []

        def downstream() -> Any:
            runs = _runs_after(client.list_dag_runs(dag_id, updated_since=after), after)
            seen[:] = runs
            done = [run for run in runs if run.state in ("success", "failed")]
            return done[0] if done and len(done) == len(runs) else None

        return self._poll(downstream, f"downstream {dag_id} after {after}",
                          interval=lambda: self._interval(client, dag_id, seen[0] if seen else None))

    def _interval(self, client: AirflowApi, dag_id: str, run: Any) -> float:
        """How long to sleep before polling `run` (of `dag_id`) again: `short_poll_s` from 80% to 300%
        of the DAG's usual duration after the run started, `poll_interval_s` before and after."""
        started = getattr(run, "start_date", None)
        if started is None or self.short_poll_s >= self.poll_interval_s:
            return self.poll_interval_s
        usual = self._usual_duration(client, dag_id)
        if usual is None:
            return self.poll_interval_s
        elapsed = (self.gov.now() - started).total_seconds()
        near = 0.8 * usual - self.poll_interval_s <= elapsed <= 3.0 * usual
        return self.short_poll_s if near else self.poll_interval_s

    def _usual_duration(self, client: AirflowApi, dag_id: str) -> float | None:
        """The median duration of the DAG's last five successful runs (asked once per DAG; one page)."""
        if dag_id not in self._usual:
            durations: list[float] = []
            runs = getattr(client, "iter_dag_runs", None)  # test doubles may only list
            try:
                if runs is not None:
                    for run in itertools.islice(runs(dag_id, states=["success"], order_by="-end_date"), 5):
                        if run.start_date and run.end_date:
                            durations.append((run.end_date - run.start_date).total_seconds())
            except AirflowError as exc:  # the estimate is an optimisation: poll at the usual pace
                self.log(f"no usual duration for {dag_id} ({exc}): polling every {self.poll_interval_s:.0f}s")
            durations.sort()
            self._usual[dag_id] = durations[len(durations) // 2] if durations else None
        return self._usual[dag_id]

    def _poll(self, probe: Callable[[], Any], what: str, *, timeout_s: float | None = None,
              on_timeout: Callable[[], None] | None = None, interval: Callable[[], float] | None = None) -> Any:
        timeout_s = self.wait_timeout_s if timeout_s is None else timeout_s
        deadline = self.gov.now() + timedelta(seconds=timeout_s)
        while True:
            found = self._through_outages(probe, f"waiting for {what}", deadline=deadline)
            if found is not None:
                return found
            if self.gov.now() >= deadline:
                if on_timeout is not None:
                    on_timeout()
                self._failed(f"timed out after {timeout_s:.0f}s waiting for {what}")
            self.sleep(interval() if interval is not None else self.poll_interval_s)

    def _through_outages(self, call: Callable[[], Any], what: str, *, deadline: datetime | None = None) -> Any:
        """`call()`, riding out an Airflow that is down or restarting (the connector already retried
        for its deadline): try again every poll interval until this run's own wait deadline, so an
        outage of minutes never ends a rerun that may wait for hours. Other errors end it at once."""
        if not self.ride_outages:
            return call()  # the tick: the connector's own (tick-sized) retries only
        deadline = deadline or self.gov.now() + timedelta(seconds=self.wait_timeout_s)
        while True:
            try:
                return call()
            except AirflowUnavailableError as exc:
                if self.gov.now() >= deadline:
                    self._failed(f"{what}: Airflow stayed unavailable until the deadline: {exc}")
                self.log(f"{what}: {exc}; trying again in {self.poll_interval_s:.0f}s")
                self.sleep(self.poll_interval_s)

    def _observed(self, step: PlanStep, run: Any, *, role: str) -> None:
        self.gov.record("run_observed", subject=self.plan_id, actor=self.actor, body={
            "role": role, "path": {"instance": step.airflow_instance, "dag_id": run.dag_id},
            "airflow_run_id": run.run_id, "state": run.state, "run_id": self.run_id,
            "start_date": run.start_date, "end_date": run.end_date})

    def _failed(self, reason: str) -> NoReturn:
        self.gov.ledger.set_plan_status(self.plan_id, "rerun_failed", now=self.gov.now())
        self.gov.record("rerun_failed", subject=self.plan_id, actor=self.actor,
                        body={"reason": reason, "run_id": self.run_id})
        self.gov.move_incident(self.plan.incident_id, "escalated", actor=self.actor,
                               note=f"{self.plan_id} rerun did not complete: {reason}")
        raise DispatchError(reason)


def draft_notice_key(plan_id: str, use: str, step: PlanStep) -> str:
    """One owner message per drafted step per approval (or per run, for a plan that needs none)."""
    return f"owner_draft:{plan_id}:{use}:{step.order}:{step.airflow_instance}:{step.dag_id}"


def _at(receipt: Any) -> datetime:
    return datetime.fromisoformat(receipt.record["at"])


def airflow_run_id(run_id: str, step: PlanStep) -> str:
    """`dw__<our run id>__<step>`, in the characters Airflow allows in a run id."""
    return re.sub(r"[^A-Za-z0-9_.~:+-]", "-", f"dw__{run_id}__{step.order}")


def _runs_after(runs: list[Any], after: datetime | None) -> list[Any]:
    """Runs created at or after `after` (Airflow 3 `run_after`, else start or logical date), oldest first."""
    timed = [(run.run_after or run.start_date or run.logical_date, run) for run in runs]
    kept = [(when, run) for when, run in timed if when is not None and (after is None or when >= after)]
    return [run for _when, run in sorted(kept, key=lambda pair: pair[0])]


def draft_for(client: AirflowApi, step: PlanStep) -> dict[str, Any]:
    """What the owner needs to trigger the run: the exact conf, the UI page and the API call."""
    request: Mapping[str, Any] = client.trigger_request(step.dag_id, dict(step.conf))
    body = json.dumps(request["json"], sort_keys=True)
    curl = (f"curl -X POST {shlex.quote(request['url'])} -H 'Content-Type: application/json' "
            f"-H \"Authorization: Bearer $AIRFLOW_TOKEN\" -d {shlex.quote(body)}")
    base = str(request["url"]).split("/api/", 1)[0]
    ui_path = f"/dags/{step.dag_id}/trigger"
    return {"conf": dict(step.conf), "ui_path": ui_path, "ui_url": base + ui_path, "api_request": dict(request),
            "curl": curl, "token_help": token_help(base)}


def token_help(base_url: str) -> str:
    """How the owner gets `$AIRFLOW_TOKEN` for the drafted call (Airflow 3's own login endpoint)."""
    login = shlex.quote(f"{base_url}/auth/token")
    return ("Token: export AIRFLOW_TOKEN=$(curl -s -X POST " + login + " -H 'Content-Type: application/json' "
            "-d '{\"username\": \"<you>\", \"password\": \"<your password>\"}' | "
            "python3 -c 'import json,sys; print(json.load(sys.stdin)[\"access_token\"])') "
            "(Airflow 3 with its own users; behind SSO or on a managed Airflow, use the token your platform issues)")


def _human(seconds: float) -> str:
    if seconds >= 3600 and seconds % 3600 == 0:
        return f"{seconds / 3600:.0f} h"
    if seconds >= 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds:.0f} s"
