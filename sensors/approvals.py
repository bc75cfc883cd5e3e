"""The approvals sensor: each tick expires overdue requests (and escalates them), launches approved
plans, launches L3/L4 plans that need no approval, and starts verification of plans whose reruns
finished.

Each tick also adds a `dw_plans` partition (the rerun job's Launchpad) for every plan waiting for
a person, and when that set changes reports a materialization of `dw/approvals`: the pending plans
in one table, with the plan, the approve command and the owner's Airflow 3 draft.

It launches nothing while the org-wide stop is on. A launch is only a request: the rerun job's
first op asks the gate again and consumes the approval, so a tag on a run is never the permission
itself. Each approval launches at most once (its id is the run key). Rows are only the index: an
approval launches only with a signed decision behind it, and L3 trust counts signed outcomes only,
so a row written into the database launches nothing.
"""

from dataclasses import dataclass, field
from typing import Any

import dagster as dg

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
            tick.launches.append(Launch(approval.plan_id, approval.approval_id, key))
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


def build_approvals_sensor(rerun_job: Any, verify_job: Any, *, minimum_interval_seconds: int = 10) -> dg.SensorDefinition:
    """Every 10 s: a tick is a few ledger reads, and an approval should start its rerun at once."""
    from dw_assets.dagster_defs.plan_view import (
        APPROVALS_KEY,
        approvals_metadata,
        pending_fingerprint,
        pending_plans,
    )
    from dw_assets.dagster_defs.rerun import (
        PLAN_PARTITIONS,
        RESOURCE_KEY,
        plan_partitions,
        rerun_run_config,
        rerun_tags,
        verification_partitions,
    )

    assert RESOURCE_KEY == "dw_governance", "the sensor's resource parameter is named after RESOURCE_KEY"

    @dg.sensor(name="dw_approvals", jobs=[rerun_job, verify_job], minimum_interval_seconds=minimum_interval_seconds,
               default_status=dg.DefaultSensorStatus.RUNNING,
               description="Launches approved plans, expires and escalates requests, starts verification.")
    def dw_approvals(context: dg.SensorEvaluationContext, dw_governance: dg.ResourceParam[Any]) -> dg.SensorResult:
        gov = dw_governance.governance()
        tick = approvals_tick(gov)
        for request in tick.expired:
            context.log.info(f"request {request['request_id']} for {request['plan_id']} expired; "
                             f"escalated to {request['escalated_to']}")
        requests = [dg.RunRequest(run_key=launch.run_key, job_name=rerun_job.name,
                                  run_config=rerun_run_config(launch.plan_id),
                                  tags=rerun_tags(launch.plan_id, launch.approval_id))
                    for launch in tick.launches]
        requests += [dg.RunRequest(run_key=f"verify-{plan_id}", job_name=verify_job.name, partition_key=plan_id,
                                   tags={"dw/plan_id": plan_id}) for plan_id in tick.verify]
        partitions = [verification_partitions.build_add_request(tick.verify)] if tick.verify else []
        pending = pending_plans(gov.store)
        known = set(context.instance.get_dynamic_partitions(PLAN_PARTITIONS))
        new = [row["plan_id"] for row in pending if row["plan_id"] not in known]
        partitions += [plan_partitions.build_add_request(new)] if new else []
        fingerprint = pending_fingerprint(pending)
        events = []
        if fingerprint != (context.cursor or ""):
            events.append(dg.AssetMaterialization(
                asset_key=APPROVALS_KEY, description=f"{len(pending)} plan(s) waiting for a person",
                metadata=approvals_metadata(dw_governance.settings, gov.store, pending, gov.now())))
        skip = tick.stopped if tick.stopped and not requests else None
        return dg.SensorResult(run_requests=requests, dynamic_partitions_requests=partitions, skip_reason=skip,
                               asset_events=events, cursor=fingerprint)

    return dw_approvals
