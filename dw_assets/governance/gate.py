"""THE gate: the one check in front of every write to Airflow (rerun job, MCP tool, CLI).

`check_dispatch` answers whether one (instance, DAG, conf) write of one plan may happen now, under
one approval id, and records every refusal twice: in the ledger and as a receipt, with a stable
code and a reason a person can act on. Run tags and arguments are never trusted for their
presence, and neither are the ledger's rows: the plan, the approval, its use and the trust history
are read from the signed receipt log (`governance.authority`), and the chain from the approval to
the head must be unbroken and not behind its witness. Every rule is re-evaluated against the
current config, so an edited config (an approver removed, a domain lowered to L1, an instance
pinned read-only, the org-wide stop) takes effect on the next check, including between steps of a
running rerun.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from dw_assets.config import ConfigError, Settings
from dw_assets.core.approvals import Refusal, check_decider, check_usable
from dw_assets.core.autonomy import AutonomyLevel, ClassRecord, dispatch_rule
from dw_assets.core.plans import Plan, PlanError, PlanStep, PlanTampered
from dw_assets.governance.authority import (
    ADOPT_ACTION,
    signed_adoption,
    signed_adoption_of,
    signed_approval,
    signed_class_record,
    signed_plan,
)
from dw_assets.governance.ledger import GovernanceLedger
from dw_assets.governance.receipt_log import ChainTampered, ReceiptLog

TICK_DISPATCH_PREFIX = "dw-tick-"


@dataclass(frozen=True)
class GateDecision:
    allowed: bool
    code: str  # "approved" | "autonomous" | a RefusalCode
    reason: str
    plan_id: str | None
    approval_id: str | None = None
    approver: str | None = None
    identity: str | None = None  # "verified (slack U…)" | "asserted (cli)"
    decided_at: datetime | None = None  # the signed approval's decision time
    plan: Plan | None = field(default=None, repr=False, compare=False)  # the plan the gate read and rehashed

    def raise_if_refused(self) -> GateDecision:
        if not self.allowed:
            raise Refusal(self.code, self.reason)  # type: ignore[arg-type]
        return self


def is_stopped(settings: Settings, ledger: GovernanceLedger) -> str | None:
    """Why the org-wide stop is on (config or ledger), or None when dispatch may proceed."""
    if settings.governance.stop:
        return "org-wide stop is on (governance.stop: true in the config): nothing is dispatched"
    state = ledger.stop_state()
    if state.on:
        return (f"org-wide stop is on (dw stop by {state.by or 'unknown'} at {state.at}"
                + (f": {state.reason}" if state.reason else "") + "): nothing is dispatched until `dw resume`")
    return None


class _StepRefusal(Refusal):
    """A refusal of another step of the launch than the one checked first: recorded with its path."""

    def __init__(self, refusal: Refusal, step: PlanStep):
        super().__init__(refusal.code, refusal.reason)
        self.step = step


def check_dispatch(settings: Settings, ledger: GovernanceLedger, plan_id: str | None, approval_id: str | None, *,
                   instance: str, dag_id: str, conf: Mapping[str, Any], actor: str,
                   run_id: str | None = None, consume: bool = False, now: datetime | None = None,
                   receipts: ReceiptLog | None = None, plan: Plan | None = None,
                   other_steps: Sequence[PlanStep] = ()) -> GateDecision:
    """May `actor` write (instance, dag_id, conf) for `plan_id` under `approval_id` now?

    With `consume`, a usable approval is consumed for `run_id` atomically (the first check of a
    run); later checks of the same run pass `run_id` without `consume`. `plan`: the plan this run
    already read (and rehashed) from the ledger under this id, so it is not read again per step.
    `other_steps`: steps that must fit too (instance known and writable, in the plan) before the
    approval is consumed; the launch check passes the rest of the plan's steps here, so the plan
    and the approval are read once for the whole launch.
    """
    now = now or datetime.now(UTC)
    receipts = receipts or ReceiptLog.from_settings(ledger.store, settings)
    try:
        decision = _evaluate(settings, ledger, receipts, plan_id, approval_id, instance=instance, dag_id=dag_id,
                             conf=conf, run_id=run_id, consume=consume, now=now, plan=plan, other_steps=other_steps)
    except _StepRefusal as refusal:
        step = refusal.step
        return record_refusal(ledger, receipts, refusal, now=now, plan_id=plan_id, approval_id=approval_id,
                               actor=actor, run_id=run_id, instance=step.airflow_instance, dag_id=step.dag_id,
                               conf=step.conf)
    except Refusal as refusal:
        return record_refusal(ledger, receipts, refusal, now=now, plan_id=plan_id, approval_id=approval_id,
                               actor=actor, run_id=run_id, instance=instance, dag_id=dag_id, conf=conf)
    if consume:
        receipts.append("dispatch_authorized", now=now, subject=plan_id, actor=actor, body={
            "mode": decision.code, "reason": decision.reason, "approval_id": approval_id,
            "approver": decision.approver, "identity": decision.identity, "run_id": run_id})
    return decision


def _evaluate(settings: Settings, ledger: GovernanceLedger, receipts: ReceiptLog, plan_id: str | None,
              approval_id: str | None, *, instance: str, dag_id: str, conf: Mapping[str, Any], run_id: str | None,
              consume: bool, now: datetime, plan: Plan | None = None,
              other_steps: Sequence[PlanStep] = ()) -> GateDecision:
    stopped = is_stopped(settings, ledger)
    if stopped:
        raise Refusal("stopped", stopped)
    if plan is None or plan.id != plan_id:
        plan = _load_plan(ledger, plan_id)
    if signed_plan(receipts, plan.id) is None:
        raise Refusal("unsigned_plan", f"{plan.id} has no plan_proposed record signed with the deployment's key "
                                       f"({receipts.key_id}): a plan row alone is not a proposal")
    _check_step(settings, plan, instance, dag_id, conf)
    domain = settings.domain_named(plan.domain)
    level = settings.autonomy_of(domain)
    gov = settings.governance
    record, history_start = ClassRecord(), None
    if level >= AutonomyLevel.L3 and plan.plan_class in gov.autonomous_plan_classes:
        record, history_start = signed_class_record(receipts, plan.domain, plan.plan_class)
    rule = dispatch_rule(level, plan_class=plan.plan_class, reversible=plan.reversible, has_undo=plan.undo is not None,
                         record=record, trusted_classes=set(gov.autonomous_plan_classes),
                         min_clean_runs=gov.clean_record_min_runs)
    if not rule.allowed:
        raise Refusal("autonomy_too_low", f"domain {plan.domain!r}: {rule.reason}")
    if not approval_id:
        if not rule.needs_approval:
            if history_start is not None:
                _check_chain(receipts, history_start, what=f"the trust history of {plan.plan_class!r}")
            _check_other_steps(settings, plan, other_steps)
            return GateDecision(True, "autonomous", rule.reason, plan.id, plan=plan)
        raise Refusal("no_approval", f"no approval id given for {plan.id} (run tag dw/approval_id): {rule.reason}")
    signed = signed_approval(receipts, approval_id)
    if signed is None:
        why = ("its ledger row has no decision signed with the deployment's key"
               if ledger.get_approval(approval_id) else "it is not in the ledger")
        raise Refusal("unknown_approval", f"approval {approval_id!r} does not count: {why}")
    approval = check_usable(signed.record, approval_id=approval_id, plan_id=plan.id, now=now, run_id=run_id)
    check_decider(person=approval.approver, proposer=plan.proposer, approvers=domain.approvers if domain else [],
                  agent_identities=gov.agent_identities, domain=plan.domain)
    if domain is not None and domain.require_verified_approval and not signed.identity.startswith("verified"):
        raise Refusal("unverified_identity", f"domain {plan.domain!r} requires a verified approval identity "
                                             f"(a signed Slack interaction); {approval_id} is {signed.identity}")
    _check_chain(receipts, signed.receipt.seq, what=f"approval {approval_id}")
    _check_other_steps(settings, plan, other_steps)
    if consume and approval.used_at is None:
        if not run_id:
            raise ValueError("consuming an approval needs the run_id that uses it")
        if not ledger.consume(approval_id, run_id=run_id, now=now):
            raise Refusal("already_used", f"approval {approval_id} was used by another run a moment ago")
    return GateDecision(True, "approved", f"approved by {approval.approver} ({approval_id}, identity "
                        f"{signed.identity})", plan.id, approval_id, approval.approver, signed.identity,
                        decided_at=approval.decided_at, plan=plan)


def _check_chain(receipts: ReceiptLog, start_seq: int, *, what: str) -> None:
    """The signed log after `what` must be whole, or a deleted use or outcome could hide in the gap."""
    report = receipts.verify_from(start_seq)
    if not report.ok:
        raise Refusal("chain_broken", f"the receipt chain after {what} (record {start_seq}) does not verify: "
                                      f"{report.problem}; run `dw receipts verify`")


def _check_step(settings: Settings, plan: Plan, instance: str, dag_id: str, conf: Mapping[str, Any]) -> None:
    _check_instance(settings, instance)
    if plan.step_matching(instance, dag_id, conf) is None:
        raise Refusal("not_in_plan", f"{instance}:{dag_id} with conf {dict(conf)} is not a step of {plan.id}")


def _check_other_steps(settings: Settings, plan: Plan, steps: Sequence[PlanStep]) -> None:
    for step in steps:
        try:
            _check_step(settings, plan, step.airflow_instance, step.dag_id, step.conf)
        except Refusal as refusal:
            raise _StepRefusal(refusal, step) from None


def _load_plan(ledger: GovernanceLedger, plan_id: str | None) -> Plan:
    if not plan_id:
        raise Refusal("unknown_plan", "no plan id given (run config plan_id / tag dw/plan_id)")
    try:
        return ledger.get_plan(plan_id)
    except PlanTampered as exc:
        raise Refusal("plan_tampered", str(exc)) from exc
    except PlanError as exc:
        raise Refusal("unknown_plan", str(exc)) from exc


def _check_instance(settings: Settings, instance: str) -> None:
    try:
        config = settings.airflow_instance(instance)
    except ConfigError as exc:
        raise Refusal("unknown_instance", str(exc)) from exc
    if config.read_only:
        raise Refusal("read_only", f"Airflow instance {instance!r} is pinned read-only (airflow.instances[].read_only)")


def authorize_launch(settings: Settings, ledger: GovernanceLedger, plan_id: str | None, approval_id: str | None, *,
                     run_id: str, actor: str, now: datetime | None = None,
                     receipts: ReceiptLog | None = None) -> GateDecision:
    """The launch check of a rerun run: every step must pass, then the approval is consumed once."""
    now = now or datetime.now(UTC)
    receipts = receipts or ReceiptLog.from_settings(ledger.store, settings)
    try:
        plan = _load_plan(ledger, plan_id)  # read and rehashed once for every check of the launch
        steps = plan.ordered_steps()
        if not steps:
            raise Refusal("not_in_plan", f"plan {plan_id} has no Airflow steps: nothing to rerun "
                                         "(its diffs go to their owners)")
    except Refusal as refusal:
        return record_refusal(ledger, receipts, refusal, now=now, plan_id=plan_id, approval_id=approval_id,
                               actor=actor, run_id=run_id)
    # one check for the whole launch: the plan and the approval are read once, every step must fit
    # (instance known and writable, in the plan) before the approval is consumed
    first, *rest = steps
    return check_dispatch(settings, ledger, plan_id, approval_id, instance=first.airflow_instance,
                          dag_id=first.dag_id, conf=first.conf, actor=actor, run_id=run_id, consume=True,
                          now=now, receipts=receipts, plan=plan, other_steps=rest)


def record_refusal(ledger: GovernanceLedger, receipts: ReceiptLog, refusal: Refusal, *, now: datetime,
                    plan_id: str | None, approval_id: str | None, actor: str, run_id: str | None,
                    instance: str | None = None, dag_id: str | None = None,
                    conf: Mapping[str, Any] | None = None) -> GateDecision:
    conf_dict = dict(conf) if conf is not None else None
    ledger.record_refusal(code=refusal.code, reason=refusal.reason, now=now, plan_id=plan_id,
                          approval_id=approval_id, actor=actor, instance=instance, dag_id=dag_id, conf=conf_dict)
    try:
        receipts.append("refusal", now=now, subject=plan_id, actor=actor, body={
            "code": refusal.code, "reason": refusal.reason, "approval_id": approval_id, "run_id": run_id,
            "path": {"instance": instance, "dag_id": dag_id}, "conf": conf_dict})
    except ChainTampered:
        pass  # the chain itself was tampered with: the refusal stands (and is in the ledger) without its receipt
    return GateDecision(False, refusal.code, refusal.reason, plan_id, approval_id)


def tick_dispatch_id(approval_id: str) -> str:
    """The run id under which the approvals sensor's tick consumes an approval and dispatches its
    first step (there is no Dagster run yet). Derived from the approval, never from a run tag, so the
    rerun run that completes the dispatch finds it without trusting anything the launcher wrote."""
    return f"{TICK_DISPATCH_PREFIX}{approval_id}"


def tick_auto_dispatch_id(plan_id: str) -> str:
    """The run id under which the approvals sensor's tick dispatches an L3/L4 plan that needs no
    approval: one per plan (a plan is dispatched without approval once, from `proposed`)."""
    return f"{TICK_DISPATCH_PREFIX}auto-{plan_id}"


def adopt_dispatch(settings: Settings, ledger: GovernanceLedger, plan_id: str | None, approval_id: str | None, *,
                   run_id: str, actor: str, now: datetime | None = None,
                   receipts: ReceiptLog | None = None) -> GateDecision:
    """The launch check of a rerun run whose approval the sensor's tick already consumed (and whose
    first step it dispatched): the whole check again, as of the tick's use (`tick_dispatch_id`), then
    this run takes that dispatch over, once. The signed log says whether anyone took it over before
    (a reset row is not enough); the ledger's atomic update settles two runs racing for it.
    `approval_id` None: an L3/L4 plan the tick dispatched without approval (`tick_auto_dispatch_id`),
    its autonomy checked again against the current config."""
    now = now or datetime.now(UTC)
    receipts = receipts or ReceiptLog.from_settings(ledger.store, settings)
    if approval_id is None and not plan_id:
        return record_refusal(ledger, receipts, Refusal("unknown_plan", "no plan id given (run tag dw/plan_id)"),
                              now=now, plan_id=plan_id, approval_id=None, actor=actor, run_id=run_id)
    dispatch_id = tick_dispatch_id(approval_id) if approval_id else tick_auto_dispatch_id(str(plan_id))
    try:
        plan = _load_plan(ledger, plan_id)
        steps = plan.ordered_steps()
        if not steps:
            raise Refusal("not_in_plan", f"plan {plan_id} has no Airflow steps: nothing to rerun")
    except Refusal as refusal:
        return record_refusal(ledger, receipts, refusal, now=now, plan_id=plan_id, approval_id=approval_id,
                               actor=actor, run_id=run_id)
    first, *rest = steps
    decision = check_dispatch(settings, ledger, plan_id, approval_id, instance=first.airflow_instance,
                              dag_id=first.dag_id, conf=first.conf, actor=actor, run_id=dispatch_id, now=now,
                              receipts=receipts, plan=plan, other_steps=rest)
    if not decision.allowed:
        return decision
    if approval_id is not None:
        taken = signed_adoption(receipts, approval_id)
        took = taken is None and ledger.adopt(approval_id, dispatch_id=dispatch_id, run_id=run_id)
        what = f"approval {approval_id} was used by the approvals sensor's dispatch {dispatch_id}"
    else:
        taken = signed_adoption_of(receipts, dispatch_id)
        took = taken is None and ledger.claim(f"adopt:{dispatch_id}", plan_id=plan_id, by=run_id, now=now)
        what = f"{plan_id} was dispatched without approval by the approvals sensor ({dispatch_id})"
    if not took:
        by = _body_of(taken).get("run_id") if taken is not None else "another run a moment ago"
        return record_refusal(ledger, receipts, Refusal("already_used", f"{what}, which {by} already completes"),
                              now=now, plan_id=plan_id, approval_id=approval_id, actor=actor, run_id=run_id)
    receipts.append(ADOPT_ACTION, now=now, subject=plan_id, actor=actor, body={
        "approval_id": approval_id, "dispatch_id": dispatch_id, "run_id": run_id})
    return decision


def _body_of(receipt: Any) -> dict[str, Any]:
    body = receipt.record.get("body") if receipt is not None else None
    return body if isinstance(body, dict) else {}
