"""The approvals sensor: each tick expires overdue requests (and escalates them), dispatches approved
plans and L3/L4 plans that need no approval, and starts verification of plans whose reruns
finished but were not verified by the rerun's own run (it verifies itself; the sensor's verify run is
the fallback for a run that crashed or ended before verifying, so it waits while that run is going).
What to do is `governance.launches.approvals_tick`; this module turns it into run requests.

An approved (or L3/L4) plan's first step is dispatched in the tick (`launches.dispatch_in_tick`: the gate, the
approval consumed, the trigger or the owner's draft, recorded) and its rerun run is requested to wait
for Airflow, run later steps and verify: a run's worker process takes tens of seconds to start on a
busy machine, the tick runs in the code server that is already loaded. The tick's Airflow and Slack
calls have short deadlines and the tick stops dispatching after DISPATCH_BUDGET_S, so it ends well
inside Dagster's sensor timeout (60 s by default); the rest waits for the next tick.

Each tick also adds a `dw_plans` partition (the rerun job's Launchpad) for every plan waiting for
a person, and when that set changes reports a materialization of `dw/approvals`: the pending plans
in one table, with the plan, the approve command and the owner's Airflow 3 draft.
"""

import time
from typing import Any

import dagster as dg

from dw_assets.config import Settings
from dw_assets.dagster_defs import rerun
from dw_assets.dagster_defs.plan_view import (
    APPROVALS_KEY,
    PLAN_TAG,
    approvals_metadata,
    pending_fingerprint,
    pending_plans,
)
from dw_assets.dagster_defs.rerun import (
    PLAN_PARTITIONS,
    RESOURCE_KEY,
    GovernanceRuntime,
    plan_partitions,
    rerun_run_config,
    rerun_tags,
    verification_partitions,
)
from dw_assets.governance.launches import Launch, approvals_tick, dispatch_due

# Dagster tags a sensor's run with its run key under this name (dagster._core.storage.tags.RUN_KEY_TAG,
# not exported by the public API)
RUN_KEY_TAG = "dagster/run_key"
RELAUNCHES = 3
DISPATCH_BUDGET_S = 15.0  # no new dispatch starts later than this into the tick
_ENDED_UNFINISHED = [dg.DagsterRunStatus.FAILURE, dg.DagsterRunStatus.CANCELED]
_NOT_FINISHED = [dg.DagsterRunStatus.QUEUED, dg.DagsterRunStatus.NOT_STARTED, dg.DagsterRunStatus.STARTING,
                 dg.DagsterRunStatus.STARTED, dg.DagsterRunStatus.CANCELING]


def build_definitions(settings: Settings, *, runtime: GovernanceRuntime | None = None) -> dg.Definitions:
    """Governance's jobs, asset and resource (`dagster_defs.rerun`) with the sensor that launches them."""
    runtime = runtime or rerun.runtime_for(settings)
    job = rerun.rerun_job(runtime)
    return dg.Definitions.merge(
        rerun.build_definitions(settings, runtime=runtime, job=job),
        dg.Definitions(sensors=[build_approvals_sensor(job, rerun.verify_remediation)]))


def build_approvals_sensor(rerun_job: Any, verify_job: Any, *, minimum_interval_seconds: int = 10) -> dg.SensorDefinition:
    """Every 10 s: a tick is a few ledger reads, and an approval should start its rerun at once."""
    assert RESOURCE_KEY == "dw_governance", "the sensor's resource parameter is named after RESOURCE_KEY"

    @dg.sensor(name="dw_approvals", jobs=[rerun_job, verify_job], minimum_interval_seconds=minimum_interval_seconds,
               default_status=dg.DefaultSensorStatus.RUNNING,
               description="Launches approved plans, expires and escalates requests, starts verification.")
    def dw_approvals(context: dg.SensorEvaluationContext, dw_governance: dg.ResourceParam[Any]) -> dg.SensorResult:
        started = time.monotonic()
        gov = dw_governance.governance()
        tick = approvals_tick(gov)
        for request in tick.expired:
            context.log.info(f"request {request['request_id']} for {request['plan_id']} expired; "
                             f"escalated to {request['escalated_to']}")
        # what waits for a person as the tick starts: an approved plan counts until its launch, as when
        # its run did the dispatch, so its Launchpad partition exists and dw/approvals records it even
        # when this tick dispatches it at once
        pending = pending_plans(gov.store)
        # a final refusal is on record (the gate's reason in the ledger, the receipts and the run or
        # tick that met it): the approval is not tried again. L3/L4 plans that need no approval are
        # dispatched here too, through the same gate (their level is the config's, never the database's)
        due = [launch for launch in tick.launches if launch.relaunchable]
        budget = max(0.0, DISPATCH_BUDGET_S - (time.monotonic() - started))
        done, deferred = dispatch_due(gov, due, client_for=dw_governance.tick_client,
                                      notifier=dw_governance.tick_notifier(), budget_s=budget, log=context.log.info)
        for dispatch in done:
            what = (f"{dispatch.outcome.mode} {dispatch.outcome.dag_id}" if dispatch.outcome else dispatch.note)
            context.log.info(f"{dispatch.launch.plan_id} ({dispatch.launch.approval_id}): {what}")
        if deferred:
            context.log.info(f"{len(deferred)} approved plan(s) left for the next tick (this one used its time)")
        to_launch = [d.launch for d in done if d.launch_run] + tick.pending
        requests = []
        for launch in to_launch:
            run_key = _launch_key(context.instance, rerun_job.name, launch)
            if run_key is None:
                context.log.warning(f"the rerun of {launch.plan_id} failed to start {RELAUNCHES + 1} times; "
                                    "not launched again: see those runs' logs, then approve anew")
                continue
            requests.append(dg.RunRequest(run_key=run_key, job_name=rerun_job.name, run_config=rerun_run_config(),
                                          tags=rerun_tags(launch.plan_id, launch.approval_id)))
        verify = [plan_id for plan_id in tick.verify if not _rerun_going(context.instance, rerun_job.name, plan_id)]
        requests += [dg.RunRequest(run_key=f"verify-{plan_id}", job_name=verify_job.name, partition_key=plan_id,
                                   tags={"dw/plan_id": plan_id}) for plan_id in verify]
        partitions = [verification_partitions.build_add_request(verify)] if verify else []
        if pending and time.monotonic() - started < DISPATCH_BUDGET_S:
            for name in dw_governance.warm_tick_clients():
                context.log.info(f"Airflow instance {name!r} did not tell its API version: its approved plans are "
                                 "dispatched by their runs if it still does not answer when they are approved")
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


def _launch_key(instance: dg.DagsterInstance, job_name: str, launch: Launch) -> str | None:
    """The run key for a launch. A run under its key that ended before its first op consumed the
    approval (the approval is still unused, or the tick would not list it, and no final refusal was
    recorded: its launch timed out, its worker died) gets a new key, `-relaunch<n>`, so the approval is
    not stuck until it expires; at most RELAUNCHES times, then None."""
    key = launch.run_key
    for attempt in range(1, RELAUNCHES + 2):
        ended = instance.get_run_records(dg.RunsFilter(job_name=job_name, tags={RUN_KEY_TAG: key},
                                                       statuses=_ENDED_UNFINISHED), limit=1)
        if not ended or not launch.relaunchable:
            return key  # new, going or succeeded (Dagster skips a key it launched), or refused for good
        if attempt > RELAUNCHES:
            return None
        key = f"{launch.run_key}-relaunch{attempt}"
    return None


def _rerun_going(instance: dg.DagsterInstance, job_name: str, plan_id: str) -> bool:
    """Whether a rerun run of the plan has not finished yet: it verifies the plan itself."""
    going = instance.get_run_records(dg.RunsFilter(job_name=job_name, tags={PLAN_TAG: plan_id},
                                                   statuses=_NOT_FINISHED), limit=1)
    return bool(going)
