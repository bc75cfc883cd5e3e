"""Dagster wiring of governance: the gated `rerun_airflow_dag` job, the `verification` asset and its
`verify_remediation` job (the approvals sensor that launches both is `sensors.approvals`).

The rerun job verifies in its own run once Airflow reports the reruns done (its last op materializes
the plan's `dw/verification` partition, with the same receipt and OpenLineage run as the verify job):
under a daemon a new run costs a process start and a code-location load, tens of seconds on a busy
machine. The verify job is the fallback for a plan whose rerun run ended without verifying (crashed,
timed out); verification is idempotent by plan (`verify_once`), so nothing verifies twice.

The plan id rides in one place, the `dw/plan_id` run tag (the run config holds only the polling
settings). Run tags are free text in OSS Dagster, so the job trusts none of them: its first op hands
the `dw/approval_id` and `dw/plan_id` tags to the gate, which looks both up in the signed log (an
approval for another plan is refused), reads the plan and the approval once for the launch, consumes
the approval for this run, and raises `dg.Failure` with the refusal's reason before any Airflow call.
The first op passes on what the later ones need as its plain output (`Authorized`: the plan id, the
approval id, the plan's content as the gate read it, the approval time, the polling settings), so the
plan is read from the ledger once per run; the later ops rebuild the plan from that content only if
it still hashes to its id. Every later step asks the gate again (org-wide stop, read-only pins, the
signed approval and its use by this run).

On the Launchpad the job is partitioned by plan (`dw_plans`, one partition per plan that asked for
approval, added by the approvals sensor): picking a plan fills in the run config and both tags, the
approval tag being the plan's granted, unused approval at that moment (none: the gate refuses).
"""

import importlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypedDict, cast

import dagster as dg

from dw_assets.checks.verification import default_checks_runner
from dw_assets.config import ConfigError, Settings
from dw_assets.connectors.airflow import AirflowClient, AirflowError, clients_from_settings
from dw_assets.connectors.airflow.api import AirflowApi, ClientFor
from dw_assets.connectors.openlineage.emitter import VerificationEmitter
from dw_assets.connectors.retry import RetryPolicy
from dw_assets.connectors.slack import SlackNotifier
from dw_assets.connectors.warehouse import Warehouse
from dw_assets.core.approvals import Refusal
from dw_assets.core.incident_report import shorten
from dw_assets.core.incidents import Incident
from dw_assets.core.plans import Plan, load_plan
from dw_assets.core.receipts import Anchor, canonical_json
from dw_assets.dagster_defs.plan_view import (
    APPROVAL_TAG,
    APPROVALS_KEY,
    PLAN_TAG,
    RERUN_JOB,
    incident_url,
    launchable_approval,
    table,
)
from dw_assets.governance.dispatch import DispatchError, PlanRun
from dw_assets.governance.keys import key_status
from dw_assets.governance.ledger import from_iso, iso
from dw_assets.governance.verification import ChecksRunner, VerificationResult, verify_plan
from dw_assets.governance.workflow import Governance
from dw_assets.incidents.store import IncidentNotFound, IncidentStore

log = logging.getLogger(__name__)
VERIFY_JOB = "verify_remediation"
RESOURCE_KEY = "dw_governance"
ANCHOR_SEQ, ANCHOR_HASH = "dw/receipts_seq", "dw/receipts_head"
VERIFICATION_KEY = dg.AssetKey(["dw", "verification"])
# The approvals sensor dispatches in its tick, inside Dagster's sensor timeout (60 s by default): its
# Airflow and Slack calls get short deadlines (a worst case of ~11 s per Airflow call, ~10 s for
# Slack); what does not answer in time is left to the rerun run, which waits outages out.
TICK_AIRFLOW_TIMEOUT_S, TICK_AIRFLOW_DEADLINE_S = 5.0, 6.0
TICK_SLACK_TIMEOUT_S = 5
TICK_SLACK_POLICY = RetryPolicy(attempts=2, backoff_s=1.0, max_backoff_s=2.0, deadline_s=5.0)
VERIFICATIONS = "dw_verifications"  # the name, typed str (a partitions definition's name is optional)
verification_partitions = dg.DynamicPartitionsDefinition(name=VERIFICATIONS)
PLAN_PARTITIONS = "dw_plans"
plan_partitions = dg.DynamicPartitionsDefinition(name=PLAN_PARTITIONS)


class GovernanceRuntime:
    """What the jobs and the sensor need, built lazily from the settings; tests replace any part."""

    def __init__(self, settings: Settings, *, governance: Governance | None = None,
                 client_for: ClientFor | None = None, checks_runner: ChecksRunner | None = None,
                 emitter: VerificationEmitter | None = None, sleep: Callable[[float], None] = time.sleep):
        self.settings = settings
        self._governance = governance
        self._client_for = client_for
        self._clients: dict[str, Any] | None = None
        self._tick_clients: dict[str, Any] = {}
        self._warm_after: dict[str, float] = {}  # instance -> when to probe its API version again
        self._checks_runner = checks_runner
        self._emitter = emitter
        self._build_lock = threading.Lock()  # the verification's parts are built once, warm or not
        self.sleep = sleep

    def governance(self) -> Governance:
        if self._governance is None:
            self._governance = Governance(self.settings)
        return self._governance

    def client(self, instance: str) -> AirflowApi:
        if self._client_for is not None:
            return self._client_for(instance)
        if self._clients is None:
            self._clients = clients_from_settings(self.settings)
        return self._clients[instance]

    def tick_client(self, instance: str) -> AirflowApi:
        """A client for the approvals sensor's tick: the instance's, with tick-sized timeout and deadline."""
        if self._client_for is not None:
            return self._client_for(instance)
        if instance not in self._tick_clients:
            config = self.settings.airflow_instance(instance)
            self._tick_clients[instance] = AirflowClient(config.model_copy(update={
                "timeout_s": min(config.timeout_s, TICK_AIRFLOW_TIMEOUT_S),
                "deadline_s": min(config.deadline_s, TICK_AIRFLOW_DEADLINE_S)}))
        return self._tick_clients[instance]

    def warm_tick_clients(self, *, retry_after_s: float = 60.0) -> list[str]:
        """Learn each writable instance's API version (`/version`, once per code server) while plans
        wait for a person, so the tick that drafts an approved plan's first step needs no Airflow
        call: the approval may come while Airflow restarts. A failed probe is tried again after
        `retry_after_s`; returns the instances that did not answer (the tick goes on without them)."""
        missed = []
        for config in self.settings.airflow.instances:
            if config.read_only or time.monotonic() < self._warm_after.get(config.name, 0.0):
                continue
            try:
                _version = self.tick_client(config.name).api_version  # probed once, then cached
                self._warm_after[config.name] = float("inf")  # known for this process's life
            except (AirflowError, ConfigError):
                self._warm_after[config.name] = time.monotonic() + retry_after_s
                missed.append(config.name)
        return missed

    def tick_notifier(self) -> Any:
        """The governance's notifier with a tick-sized deadline (None when a test replaced the governance's)."""
        notifier = self.governance().notifier
        if type(notifier) is not SlackNotifier:
            return None
        return SlackNotifier(timeout_s=TICK_SLACK_TIMEOUT_S, web_api_base_url=notifier.web_api_base_url,
                             policy=TICK_SLACK_POLICY)

    def checks_runner(self) -> ChecksRunner:
        with self._build_lock:
            if self._checks_runner is None:
                self._checks_runner = default_checks_runner(self.settings)
            return self._checks_runner

    def emitter(self) -> VerificationEmitter | None:
        with self._build_lock:
            if self._emitter is None and self.settings.openlineage.emit_transport:
                self._emitter = VerificationEmitter(self.settings)  # imports openlineage-python: seconds
            return self._emitter

    def warm_verification(self) -> threading.Thread:
        """Build what verifying needs (the OpenLineage emitter and its imports, the checks runner, DuckDB's
        module) in a thread while the run waits for Airflow, so verification starts the moment the
        reruns end: 3.5 s (emitter) + 1 s (duckdb) of the last leg at load 27. A failure here is met
        again, and reported, by the verification."""

        def warm() -> None:
            try:
                self.emitter()
                self.checks_runner()
                if Warehouse.from_settings(self.settings).is_duckdb:
                    # the module only (a second or more under load): a connection now could take
                    # the lock the rerun's dbt needs to write the warehouse file
                    importlib.import_module("duckdb")
            except Exception as exc:  # noqa: BLE001 - the verification builds them again and reports why
                log.debug("warming the verification failed: %s", exc)

        thread = threading.Thread(target=warm, name="dw-warm-verification", daemon=True)
        thread.start()
        return thread

    def incident(self, incident_id: str | None) -> Incident | None:
        if not incident_id:
            return None
        try:
            return IncidentStore(self.governance().store).get(incident_id)
        except IncidentNotFound:
            return None


def rerun_run_config(*, poll_interval_s: float = 5.0, wait_timeout_s: float = 6 * 3600.0) -> dict:
    """The rerun run's config: polling only (the plan is the `dw/plan_id` tag, `rerun_tags`)."""
    return {"ops": {"authorize_plan": {"config": {"poll_interval_s": poll_interval_s,
                                                  "wait_timeout_s": wait_timeout_s}}}}


def rerun_tags(plan_id: str, approval_id: str | None) -> dict[str, str]:
    tags = {PLAN_TAG: plan_id}
    if approval_id:
        tags[APPROVAL_TAG] = approval_id
    return tags


def _fail(refusal: Refusal) -> dg.Failure:
    return dg.Failure(description=f"refused ({refusal.code}): {refusal.reason}",
                      metadata={"refusal_code": refusal.code, "reason": refusal.reason})


def _plan_id(context: dg.OpExecutionContext) -> str:
    plan_id = context.run.tags.get(PLAN_TAG)
    if not plan_id:
        raise dg.Failure(description=f"no plan to run: pick the plan's partition on the Launchpad of {RERUN_JOB} "
                                     f"(it fills in config and tags), or set the run tag {PLAN_TAG}")
    return plan_id


# Op outputs are plain dicts (serialisable by any IO manager); Dagster checks an op's input and
# output types with isinstance, which a TypedDict refuses, so the ops are typed `dict` and these
# TypedDicts name the keys for the reader and mypy.
class Authorized(TypedDict):
    """What the launch check hands the later ops."""

    plan_id: str
    approval_id: str | None
    plan: dict[str, Any]  # the plan's content as the gate read it (hashes to plan_id)
    since: str | None  # the signed approval time, ISO
    dispatch_id: str | None  # the approvals sensor tick's dispatch this run took over (`gate.tick_dispatch_id`)
    poll_interval_s: float
    wait_timeout_s: float


class Dispatched(TypedDict):
    plan_id: str
    plan: dict[str, Any]
    steps: list[dict[str, Any]]


def _handed_plan(passed: Authorized | Dispatched) -> Plan:
    """The plan the first op read, from its content; refused unless it still hashes to its id."""
    return load_plan(passed["plan"], expected_id=passed["plan_id"])


def _plan_run(context: dg.OpExecutionContext, *, plan_id: str, approval_id: str | None, poll_interval_s: float,
              wait_timeout_s: float, plan: Plan | None = None) -> PlanRun:
    runtime: GovernanceRuntime = getattr(context.resources, RESOURCE_KEY)
    return PlanRun(gov=runtime.governance(), client_for=runtime.client, plan_id=plan_id, approval_id=approval_id,
                   run_id=context.run_id, poll_interval_s=poll_interval_s, wait_timeout_s=wait_timeout_s,
                   sleep=runtime.sleep, log=context.log.info, known_plan=plan)


@dg.op(required_resource_keys={RESOURCE_KEY}, config_schema={
    # one GET per awaited run every 5 s: cheap for Airflow, and the run's end is seen within 5 s
    "poll_interval_s": dg.Field(float, default_value=5.0),
    "wait_timeout_s": dg.Field(float, default_value=6 * 3600.0, description="Deadline for each awaited run."),
})
def authorize_plan(context: dg.OpExecutionContext) -> dict:
    """The launch check: the gate validates the approval tag against the ledger and consumes it."""
    plan_id, approval_id = _plan_id(context), context.run.tags.get(APPROVAL_TAG) or None
    cfg = context.op_config
    run = _plan_run(context, plan_id=plan_id, approval_id=approval_id, poll_interval_s=cfg["poll_interval_s"],
                    wait_timeout_s=cfg["wait_timeout_s"])
    try:
        decision = run.authorize()
    except Refusal as refusal:
        raise _fail(refusal) from None
    context.add_output_metadata({"plan_id": plan_id, "mode": decision.code, "reason": decision.reason,
                                 "approval_id": decision.approval_id or "", "approver": decision.approver or "",
                                 "dispatched by": "the dw_approvals sensor's tick" if run.adopted_from else "this run"})
    # a dispatch the sensor's tick began is continued under its id (the gate's use of the approval)
    return dict(Authorized(plan_id=plan_id, approval_id=approval_id, plan=run.plan.content(),
                           since=iso(run.since) if run.since else None, poll_interval_s=cfg["poll_interval_s"],
                           wait_timeout_s=cfg["wait_timeout_s"],
                           dispatch_id=run.run_id if run.adopted_from else None))


@dg.op(required_resource_keys={RESOURCE_KEY})
def dispatch_plan_steps(context: dg.OpExecutionContext, authorized: dict) -> dict:
    """Each step in order: re-check the gate, trigger (or draft and wait), wait for downstream runs."""
    return dict(_dispatch(context, cast(Authorized, authorized)))


def _dispatch(context: dg.OpExecutionContext, authorized: Authorized) -> Dispatched:
    run = _plan_run(context, plan_id=authorized["plan_id"], approval_id=authorized["approval_id"],
                    poll_interval_s=authorized["poll_interval_s"], wait_timeout_s=authorized["wait_timeout_s"],
                    plan=_handed_plan(authorized))
    run.since = from_iso(authorized["since"])
    getattr(context.resources, RESOURCE_KEY).warm_verification()
    try:
        if authorized["dispatch_id"]:
            run.resume_adopted()  # this very run took the tick's dispatch over (not a re-execution's copy)
        outcomes = run.run_all()
    except Refusal as refusal:
        raise _fail(refusal) from None
    except DispatchError as exc:
        raise dg.Failure(description=str(exc)) from None
    steps = [o.as_dict() for o in outcomes]
    context.add_output_metadata({"steps": dg.MetadataValue.json(steps),
                                 "airflow_run_ids": ", ".join(o.run_id for o in outcomes)})
    for outcome in outcomes:
        if outcome.draft:
            context.log.info(f"draft for {outcome.dag_id}: {canonical_json(outcome.draft)}")
    return Dispatched(plan_id=run.plan_id, plan=authorized["plan"], steps=steps)


def verify_once(runtime: GovernanceRuntime, plan_id: str, plan: Plan | None = None) -> VerificationResult | None:
    """Verify the plan unless its last rerun is already verified (a receipt after the newest
    `rerun_completed`); None when it was. Idempotent by plan: the rerun run and the fallback verify
    job both call this. `plan`: the plan as this run read it (else it is read from the ledger)."""
    gov = runtime.governance()
    completed = gov.receipts.list(action="rerun_completed", subject=plan_id)
    since = completed[-1].seq if completed else 0
    if any(r.seq > since for r in gov.receipts.list(action="verification", subject=plan_id)):
        return None
    plan = plan or gov.ledger.get_plan(plan_id)
    return verify_plan(runtime.settings, plan, runtime.incident(plan.incident_id), runtime.checks_runner(),
                       runtime.emitter(), gov=gov)


@dg.op(required_resource_keys={RESOURCE_KEY})
def verify_in_run(context: dg.OpExecutionContext, dispatched: dict) -> dict:
    """Verify right after Airflow reported the reruns done, in this run (no new run to wait for), and
    record it as the plan's `dw/verification` partition."""
    runtime: GovernanceRuntime = getattr(context.resources, RESOURCE_KEY)
    plan_id = dispatched["plan_id"]
    result = verify_once(runtime, plan_id, _handed_plan(cast(Dispatched, dispatched)))
    if result is None:
        context.log.info(f"{plan_id} is already verified: nothing to do")
        return {"plan_id": plan_id, "verified": False}
    context.instance.add_dynamic_partitions(VERIFICATIONS, [plan_id])
    context.log_event(dg.AssetMaterialization(asset_key=VERIFICATION_KEY, partition=plan_id,
                                              description=f"verified in rerun run {context.run_id}",
                                              metadata=verification_metadata(runtime, result)))
    return {"plan_id": plan_id, "verified": True, "passed": result.passed, "outcome": result.outcome}


def launchpad_config(runtime: GovernanceRuntime) -> dg.PartitionedConfig:
    """Per plan partition: the run config and the tags a launch needs, looked up when it is picked."""

    def tags(plan_id: str) -> dict[str, str]:
        gov = runtime.governance()
        return rerun_tags(plan_id, launchable_approval(gov.ledger, plan_id, gov.now()))

    def run_config(_plan_id: str) -> dict:
        return rerun_run_config()

    return dg.PartitionedConfig(partitions_def=plan_partitions, run_config_for_partition_key_fn=run_config,
                                tags_for_partition_key_fn=tags)


def rerun_job(runtime: GovernanceRuntime | None = None) -> dg.JobDefinition:
    """The gated rerun job; with a runtime, partitioned by plan so the Launchpad fills in a launch."""

    @dg.job(name=RERUN_JOB, description="Rerun an approved plan's Airflow DAGs, behind the approval gate, then "
                                        "verify. Launchpad: pick the plan's partition; config and tags follow.",
            # first out of the run queue: an approved rerun waits behind no check or incident run;
            # dagster's overloads leave out the None its implementation takes (the unpartitioned job)
            tags={"dw/kind": "rerun", "dagster/priority": "10"},
            config=launchpad_config(runtime) if runtime else None)  # type: ignore[arg-type]
    def rerun_airflow_dag() -> None:
        verify_in_run(dispatch_plan_steps(authorize_plan()))

    return rerun_airflow_dag


rerun_airflow_dag = rerun_job()  # unpartitioned: for callers that pass run config and tags themselves


@dg.asset(key=VERIFICATION_KEY, partitions_def=verification_partitions, required_resource_keys={RESOURCE_KEY},
          deps=[dg.AssetDep(dg.AssetKey(["incident"]), partition_mapping=dg.AllPartitionMapping())],
          group_name="governance", description="One verification per remediation plan (partition = plan id).")
def verification(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
    runtime: GovernanceRuntime = getattr(context.resources, RESOURCE_KEY)
    result = verify_once(runtime, context.partition_key)
    if result is None:  # the rerun's own run verified it first
        return dg.MaterializeResult(metadata={"already_verified": True, **_recorded(runtime, context.partition_key),
                                              **_anchor(runtime)})
    return dg.MaterializeResult(metadata=verification_metadata(runtime, result))


def verification_metadata(runtime: GovernanceRuntime, result: VerificationResult) -> dict[str, Any]:
    metadata: dict[str, Any] = {
        "passed": result.passed, "outcome": result.outcome,
        "checks passed": f"{sum(c.passed for c in result.checks)} of {len(result.checks)}",
        "lineage run": result.ol_run_id, "escalated to": result.escalated_to or "",
        "checks": dg.MetadataValue.json([c.as_dict() for c in result.checks]),
        "before and after": table([{
            "dataset": c.dataset, "check": c.check, "partition": c.partition or "latest", "why": c.origin,
            "before": shorten(_compact(c.before), 90), "after": shorten(_compact(c.after), 90),
            "result": "passed" if c.passed else "FAILED", "summary": shorten(c.summary, 140)} for c in result.checks],
            ["dataset", "check", "partition", "why", "before", "after", "result", "summary"]),
    }
    if result.incident_id:
        metadata["incident"] = dg.MetadataValue.md(f"[{result.incident_id}]({incident_url(result.incident_id)})")
    # each check's result is a row of "before and after", not a `dataset/check` key: those keys
    # were too long for the page's key column and ran over the timestamps
    return {**metadata, **_anchor(runtime)}


def _anchor(runtime: GovernanceRuntime) -> dict[str, Any]:
    """The receipt head: an anchor in Dagster's event log, out of reach of a state-database writer."""
    head = runtime.governance().receipts.head()
    return {ANCHOR_SEQ: head.count, ANCHOR_HASH: head.head_hash} if head is not None else {}


def _recorded(runtime: GovernanceRuntime, plan_id: str) -> dict[str, Any]:
    """What the plan's last verification receipt says (for a verify run that found it done)."""
    receipt = runtime.governance().receipts.list(action="verification", subject=plan_id)[-1]
    body = receipt.record["body"]
    return {"passed": bool(body["passed"]), "outcome": body["outcome"], "incident": body.get("incident_id") or "",
            "verified at": receipt.record["at"], "receipt seq": receipt.seq,
            "lineage run": (body.get("openlineage") or {}).get("run_id") or ""}


def dagster_anchor(instance: dg.DagsterInstance) -> Anchor | None:
    """The receipt head recorded on the newest `dw/verification` materialization, if any."""
    event = instance.get_latest_materialization_event(VERIFICATION_KEY)
    materialization = event.asset_materialization if event is not None else None
    if event is None or materialization is None or ANCHOR_SEQ not in materialization.metadata:
        return None
    seq = materialization.metadata[ANCHOR_SEQ].value
    if not isinstance(seq, int):
        raise TypeError(f"dw/verification run {event.run_id}: metadata {ANCHOR_SEQ} is {seq!r}, not a receipt count")
    return Anchor(seq, str(materialization.metadata[ANCHOR_HASH].value),
                  f"the Dagster event log (dw/verification run {event.run_id})")


def _compact(value: Any) -> str:
    """A check's before/after value as one short line (`observed=105334, ratio=1.0087`)."""
    if value is None:
        return ""
    if isinstance(value, dict):
        return ", ".join(f"{k}={_compact(v)}" for k, v in value.items() if not isinstance(v, (list, dict)))
    if isinstance(value, list):
        return f"{len(value)} item(s)"
    return str(value)


verify_remediation = dg.define_asset_job(VERIFY_JOB, selection=[verification], partitions_def=verification_partitions,
                                         description="Verify a remediation plan after its reruns.")


def runtime_for(settings: Settings) -> GovernanceRuntime:
    """The production runtime; no signing key, no code location (the demo's is made on first use)."""
    key_ok, why = key_status(settings)
    if not key_ok:
        raise ConfigError(why)
    return GovernanceRuntime(settings)


def build_definitions(settings: Settings, *, runtime: GovernanceRuntime | None = None,
                      job: dg.JobDefinition | None = None) -> dg.Definitions:
    """The rerun and verification jobs, the verification asset and the governance resource; the
    approvals sensor that launches them is added by `sensors.approvals.build_definitions`."""
    runtime = runtime or runtime_for(settings)
    approvals = dg.AssetSpec(APPROVALS_KEY, group_name="governance", kinds={"python"},
                             description="Plans waiting for a person, in one table: approvers, the `dw approve` "
                                         "command, Launchpad tags, the plan and the owner's Airflow 3 draft. "
                                         "Reported by the dw_approvals sensor whenever the set changes.")
    return dg.Definitions(
        assets=[verification, approvals], jobs=[job or rerun_job(runtime), verify_remediation],
        resources={RESOURCE_KEY: dg.ResourceDefinition.hardcoded_resource(runtime)},
    )
