"""What one approvals tick does, without Dagster: expire overdue requests (and escalate them), pick
the approved plans to launch and the L3/L4 plans that need no approval, and list the plans whose
reruns finished and now need verifying. The `dw_approvals` sensor (`sensors.approvals`) turns a
`Tick` into run requests.

An approved plan is dispatched in the tick itself (`dispatch_in_tick`): the sensor runs in the code
server, already loaded, while a rerun run's worker takes tens of seconds to start on a busy machine.
The tick asks the gate (which consumes the approval under `gate.tick_dispatch_id` before any
Airflow call), triggers or drafts the first step, records it, and requests the rerun run, which
takes that dispatch over once (`gate.adopt_dispatch`), waits for Airflow, runs the later steps and
verifies. A tick that consumed an approval and ended before its run was launched is completed by
the next one (`Tick.pending`: launch only; the run dispatches what the tick did not record).
An L3/L4 plan that needs no approval is dispatched the same way, under `gate.tick_auto_dispatch_id`
(one per plan): its level is the config's for the plan's signed domain and its trust history the
signed one, never a database row, and a plan dispatched without approval once is not dispatched
again because its row says `proposed`.

It launches nothing while the org-wide stop is on. A launch is only a request: the rerun job's
first op asks the gate again (and consumes the approval, or takes the tick's dispatch over), so a
tag on a run is never the permission itself. Each approval launches at most once (its id is the run key; a run that ended before it
reached the gate, say a launch that timed out, is launched again under a new key by the sensor, at
most three times). Rows are only the index: an approval launches only with a signed decision behind
it, and L3 trust counts signed outcomes only, so a row written into the database launches nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dw_assets.connectors.airflow.api import ClientFor
from dw_assets.connectors.airflow.errors import AirflowUnavailableError
from dw_assets.core.approvals import Refusal
from dw_assets.core.autonomy import AutonomyLevel, dispatch_rule
from dw_assets.core.plans import PlanError
from dw_assets.governance.authority import (
    USE_ACTION,
    signed_adoption,
    signed_adoption_of,
    signed_approval,
    signed_class_record,
    signed_plan,
    signed_use,
)
from dw_assets.governance.dispatch import DispatchError, PlanRun, StepOutcome
from dw_assets.governance.gate import (
    TICK_DISPATCH_PREFIX,
    is_stopped,
    tick_auto_dispatch_id,
    tick_dispatch_id,
)
from dw_assets.governance.workflow import Governance

TRANSIENT_REFUSALS = ("stopped", "read_only")
# plan statuses in which a tick's dispatch waits for its run (after a failure nothing is relaunched)
_DISPATCHED = ("dispatching", "drafted")


@dataclass(frozen=True)
class Launch:
    plan_id: str
    approval_id: str | None  # None for an L3/L4 plan that needs no approval
    run_key: str
    # whether a run under `run_key` that ended may be launched again: it never reached the gate (its
    # launch failed, the worker died before the first op), since the gate recorded no final refusal
    relaunchable: bool = True


@dataclass
class Tick:
    launches: list[Launch] = field(default_factory=list)
    # approvals a tick consumed (and maybe dispatched) whose run no one has taken over: launch only
    pending: list[Launch] = field(default_factory=list)
    verify: list[str] = field(default_factory=list)  # plan ids whose reruns finished
    expired: list[dict[str, Any]] = field(default_factory=list)
    stopped: str | None = None


def approvals_tick(gov: Governance) -> Tick:
    """What one tick should do; plain Python so it is tested without a Dagster instance."""
    tick = Tick(expired=gov.expire_due())
    tick.verify = [row["plan_id"] for row in gov.ledger.list_plans(status="verifying")]
    tick.stopped = is_stopped(gov.settings, gov.ledger)
    if tick.stopped:
        return tick
    for approval in gov.ledger.launchable_approvals(gov.now()):
        row = gov.ledger.plan_row(approval.plan_id)
        signed = signed_approval(gov.receipts, approval.approval_id) if row and row["status"] == "approved" else None
        if signed and signed.record.plan_id == approval.plan_id and signed.record.used_at is None:
            # a launch refused for a passing reason (stop, read-only pin) left the approval unused:
            # a new run key lets the next tick launch it again once the reason is gone
            retries = gov.ledger.count_refusals(approval.approval_id, TRANSIENT_REFUSALS)
            key = f"rerun-{approval.approval_id}" + (f"-retry{retries}" if retries else "")
            final = gov.ledger.count_refusals(approval.approval_id) - retries
            tick.launches.append(Launch(approval.plan_id, approval.approval_id, key, relaunchable=final == 0))
    for row in gov.ledger.list_plans(status="proposed"):
        if _runs_without_approval(gov, row):
            # refused once (recorded, with why): not dispatched again every tick; a person may approve it
            refused = gov.ledger.count_unapproved_refusals(row["plan_id"])
            tick.launches.append(Launch(row["plan_id"], None, auto_run_key(row["plan_id"]), relaunchable=refused == 0))
    tick.pending = _pending(gov)
    return tick


def _pending(gov: Governance) -> list[Launch]:
    """The tick's dispatches no run took over yet, by the signed log (rows are only the index)."""
    pending = []
    for approval in gov.ledger.used_by_prefix(TICK_DISPATCH_PREFIX):
        row = gov.ledger.plan_row(approval.plan_id)
        if approval.used_by != tick_dispatch_id(approval.approval_id) or not row or row["status"] not in _DISPATCHED:
            continue
        signed = signed_approval(gov.receipts, approval.approval_id)
        if (signed is None or signed.record.plan_id != approval.plan_id
                or signed.record.used_by != approval.used_by or signed_adoption(gov.receipts, approval.approval_id)):
            continue
        retries = gov.ledger.count_refusals(approval.approval_id, TRANSIENT_REFUSALS)
        key = f"rerun-{approval.approval_id}" + (f"-retry{retries}" if retries else "")
        final = gov.ledger.count_refusals(approval.approval_id) - retries
        pending.append(Launch(approval.plan_id, approval.approval_id, key, relaunchable=final == 0))
    for status in _DISPATCHED:  # L3/L4 plans the tick dispatched without approval
        for row in gov.ledger.list_plans(status=status):
            dispatch_id = tick_auto_dispatch_id(row["plan_id"])
            if (signed_use(gov.receipts, row["plan_id"], dispatch_id) is not None
                    and signed_adoption_of(gov.receipts, dispatch_id) is None):
                pending.append(Launch(row["plan_id"], None, auto_run_key(row["plan_id"])))
    return pending


def auto_run_key(plan_id: str) -> str:
    """The run key of an L3/L4 plan's rerun run (one per plan: it is dispatched without approval once)."""
    return f"rerun-auto-{plan_id}"


@dataclass(frozen=True)
class TickDispatch:
    """What the tick did with one approved launch, and whether its rerun run is to be launched."""

    launch: Launch
    launch_run: bool
    outcome: StepOutcome | None = None  # the first step, triggered or drafted
    note: str = ""  # for the sensor's log: a refusal, a failure, or the step left to the run


def dispatch_in_tick(gov: Governance, launch: Launch, *, client_for: ClientFor, notifier: Any = None,
                     log: Callable[[str], None] = lambda _msg: None) -> TickDispatch:
    """Dispatch an approved plan's first step in the tick, behind the gate (see the module doc).

    A refusal (recorded by the gate) or a failed trigger (recorded; the plan failed) launches no run.
    An Airflow that did not answer in the tick's time leaves the consumed approval to the run, which
    dispatches the step itself, riding the outage out."""
    dispatch_id = (tick_dispatch_id(launch.approval_id) if launch.approval_id
                   else tick_auto_dispatch_id(launch.plan_id))
    run = PlanRun(gov=gov, client_for=client_for, plan_id=launch.plan_id, approval_id=launch.approval_id,
                  run_id=dispatch_id, actor="dw-approvals-sensor", log=log,
                  ride_outages=False, notifier=notifier)
    try:
        outcome = run.dispatch_first()
    except Refusal as refusal:
        return TickDispatch(launch, False, note=f"refused ({refusal.code}): {refusal.reason}")
    except DispatchError as exc:
        return TickDispatch(launch, False, note=f"the rerun of {launch.plan_id} failed: {exc}")
    except AirflowUnavailableError as exc:  # raised after the gate consumed the approval: the run takes over
        return TickDispatch(launch, True, note=f"the first step is left to the rerun run: {exc}")
    except Exception as exc:  # noqa: BLE001 - the run meets it again and fails with it in its log
        # (a misconfigured instance, the state database away): whether or not the approval was
        # consumed, the run completes the launch through the gate (taking over, or consuming itself)
        return TickDispatch(launch, True, note=f"left to the rerun run: {type(exc).__name__}: {exc}")
    return TickDispatch(launch, True, outcome)


def dispatch_due(gov: Governance, launches: list[Launch], *, client_for: ClientFor, notifier: Any = None,
                 budget_s: float = 30.0, log: Callable[[str], None] = lambda _msg: None,
                 clock: Callable[[], float] = time.monotonic) -> tuple[list[TickDispatch], list[Launch]]:
    """Dispatch the approved launches one by one while the tick has time (`budget_s`, well inside
    Dagster's sensor timeout); the rest wait for the next tick. Returns (done, deferred)."""
    started = clock()
    done: list[TickDispatch] = []
    for index, launch in enumerate(launches):
        if clock() - started >= budget_s:
            return done, launches[index:]
        done.append(dispatch_in_tick(gov, launch, client_for=client_for, notifier=notifier, log=log))
    return done, []


def _any_autonomous_domain(gov: Governance) -> bool:
    return any(gov.settings.autonomy_of(domain) >= AutonomyLevel.L3 for domain in gov.settings.domains)


def _runs_without_approval(gov: Governance, row: dict[str, Any]) -> bool:
    """Whether an L3/L4 plan may be dispatched without approval. The level is the config's for the
    plan's own domain (its signed content, not the row's `domain` column: a row is only an index), the
    trust history is the signed one, and a plan dispatched without approval before (a signed launch
    check with no approval) is not dispatched again because its row says `proposed` again."""
    if not _any_autonomous_domain(gov):
        return False  # the usual case, without reading the plan
    try:
        plan = gov.ledger.get_plan(row["plan_id"])
    except PlanError:  # tampered or unreadable: the gate refuses it when a person launches it
        return False
    level = gov.level(plan.domain)
    if level < AutonomyLevel.L3:
        return False
    if not plan.steps or signed_plan(gov.receipts, plan.id) is None:
        return False
    if any(not (r.record.get("body") or {}).get("approval_id") and gov.receipts.signed_one(r)
           for r in gov.receipts.iter_receipts(action=USE_ACTION, subject=plan.id)):
        return False
    rules = gov.settings.governance
    rule = dispatch_rule(level, plan_class=plan.plan_class, reversible=plan.reversible, has_undo=plan.undo is not None,
                         record=signed_class_record(gov.receipts, plan.domain, plan.plan_class)[0],
                         trusted_classes=set(rules.autonomous_plan_classes), min_clean_runs=rules.clean_record_min_runs)
    return rule.allowed and not rule.needs_approval
