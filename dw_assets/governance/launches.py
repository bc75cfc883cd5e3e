"""What one approvals tick does, without Dagster: expire overdue requests (and escalate them), pick
the approved plans to launch and the L3/L4 plans that need no approval, and list the plans whose
reruns finished and now need verifying. The `dw_approvals` sensor (`sensors.approvals`) turns a
`Tick` into run requests.

It launches nothing while the org-wide stop is on. A launch is only a request: the rerun job's
first op asks the gate again and consumes the approval, so a tag on a run is never the permission
itself. Each approval launches at most once (its id is the run key; a run that ended before it
reached the gate, say a launch that timed out, is launched again under a new key by the sensor, at
most three times). Rows are only the index: an approval launches only with a signed decision behind
it, and L3 trust counts signed outcomes only, so a row written into the database launches nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dw_assets.core.autonomy import AutonomyLevel, dispatch_rule
from dw_assets.governance.authority import signed_approval, signed_class_record, signed_plan
from dw_assets.governance.gate import is_stopped
from dw_assets.governance.workflow import Governance

TRANSIENT_REFUSALS = ("stopped", "read_only")


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
            tick.launches.append(Launch(row["plan_id"], None, f"rerun-auto-{row['plan_id']}"))
    return tick


def _runs_without_approval(gov: Governance, row: dict[str, Any]) -> bool:
    level = gov.level(row["domain"])
    if level < AutonomyLevel.L3:
        return False
    plan = gov.ledger.get_plan(row["plan_id"])
    if not plan.steps or signed_plan(gov.receipts, plan.id) is None:
        return False
    rules = gov.settings.governance
    rule = dispatch_rule(level, plan_class=plan.plan_class, reversible=plan.reversible, has_undo=plan.undo is not None,
                         record=signed_class_record(gov.receipts, plan.domain, plan.plan_class)[0],
                         trusted_classes=set(rules.autonomous_plan_classes), min_clean_runs=rules.clean_record_min_runs)
    return rule.allowed and not rule.needs_approval
