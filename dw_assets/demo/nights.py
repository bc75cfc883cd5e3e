"""The two nights, played on the demo estate: the estate does its thing through Airflow, then Data
Workers notices, explains, proposes, waits for a named approval, reruns, verifies and records."""

from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dw_assets.config import resolve_env
from dw_assets.connectors.openlineage.event_store import LineageEventStore
from dw_assets.context_graph import cached_context_graph
from dw_assets.core.approvals import Refusal
from dw_assets.core.incidents import Incident
from dw_assets.dagster_defs.rerun import rerun_run_config
from dw_assets.demo.context import DemoContext, git
from dw_assets.demo.estate import (
    add_orders_day,
    break_orders_discount,
    write_done_marker,
    write_gl_export_part,
)
from dw_assets.governance.receipt_log import ReceiptLog
from dw_assets.governance.workflow import Governance
from dw_assets.incidents import IncidentStore
from sensors.airflow_runs import sensor_name
from sensors.incident_intake import SENSOR_NAME as INCIDENT_SENSOR
from sensors.incident_triage import SENSOR_NAME as TRIAGE_SENSOR
from sensors.openlineage_events import SENSOR_NAME as OL_SENSOR

NIGHT1_DATE = "2026-09-30"
ORDERS_DAY = "2026-09-30"
RERUN_POLL_S = 3.0


def _now() -> datetime:
    return datetime.now(UTC)


def _meta_value(value: Any) -> Any:
    return getattr(value, "value", value)


def observe(ctx: DemoContext) -> dict[str, dict[str, Any]]:
    """Data Workers' sensors read Airflow and OpenLineage; the checks they request run. Returns the
    check evaluations by dataset and check name."""
    results: dict[str, dict[str, Any]] = {}
    for instance in ctx.settings.airflow.instances:
        tick = ctx.driver.tick(sensor_name(instance.name))
        for run in tick.runs:
            for ev in run.get_asset_check_evaluations():
                meta = {k: _meta_value(v) for k, v in (ev.metadata or {}).items()}
                keep = {k: meta[k] for k in ("ratio", "observed", "baseline", "expected_band", "summary",
                                              "partition", "broken_groups", "file_rows", "table_rows") if k in meta}
                dataset = ".".join(ev.asset_key.path)
                results.setdefault(dataset, {})[ev.check_name] = {
                    "passed": ev.passed, "severity": ev.severity.value if ev.severity else None, **keep}
    ctx.driver.tick(OL_SENSOR)
    for dataset, checks in results.items():
        for name, outcome in checks.items():
            verdict = "passed" if outcome["passed"] else f"FAILED ({outcome['severity']})"
            detail = f" ratio {outcome['ratio']}" if outcome.get("ratio") is not None else ""
            ctx.timeline.say("check", f"{dataset} {name}: {verdict}{detail}")
    return results


def triage(ctx: DemoContext) -> None:
    ctx.driver.tick(INCIDENT_SENSOR)  # the incident appears as a partition as soon as it opens
    ctx.driver.tick(TRIAGE_SENSOR)
    ctx.driver.tick(INCIDENT_SENSOR)


def _incidents_since(ctx: DemoContext, since: datetime) -> list[Any]:
    return [i for i in IncidentStore(ctx.store).list() if i.created_at >= since]


def _blast(ctx: DemoContext, dataset: str) -> dict[str, Any]:
    return cached_context_graph(ctx.settings, store=ctx.store).blast_radius(dataset).to_dict()


def _describe_incident(ctx: DemoContext, night: dict[str, Any], incident: Incident) -> Any:
    tl = ctx.timeline
    night["incident_ids"] = [incident.id]
    night["incident"] = {"id": incident.id, "dataset": incident.dataset_id, "severity": incident.severity,
                         "owner": incident.owner, "status": incident.status, "trigger": incident.trigger_kind}
    tl.say("data-workers", f"incident {incident.id} on {incident.dataset_id}: severity {incident.severity}, "
                           f"owner {incident.owner}")
    night["top_cause"] = incident.causes[0].to_dict() if incident.causes else {}
    night["causes"] = [{"kind": c.kind, "confidence": c.confidence, "title": c.title} for c in incident.causes]
    for rank, cause in enumerate(incident.causes[:3], 1):
        tl.say("diagnosis", f"#{rank} {cause.kind} ({cause.confidence:.2f}): {cause.title}")
    night["path"] = [hop.to_dict() for hop in incident.path]
    for hop in incident.path:
        tl.say("path", f"{hop.source} -> {hop.target}  [{hop.system}, {hop.provenance}]")
    night["blast_radius"] = _blast(ctx, incident.dataset_id or "")
    readers = ", ".join(f"{a['name']} ({a['owner']}, {a['severity']})" for a in night["blast_radius"]["affected"])
    tl.say("blast-radius", f"{night['blast_radius']['severity']}: {readers}")
    night["fixes"] = [{"title": f.title, "kind": f.kind, "paths": f.paths, "applies": bool(f.verified),
                       "cause_kind": f.cause_kind, "diff": f.diff} for f in incident.proposed_fixes]
    for fix in night["fixes"]:
        state = "git apply --check OK" if fix["applies"] else fix["kind"]
        tl.say("fix", f"{fix['title']} ({', '.join(dict.fromkeys(fix['paths'])) or 'advice'}; {state})")
    gov = Governance(ctx.settings, store=ctx.store)
    plan = gov.ledger.get_plan(incident.plan_id) if incident.plan_id else None
    night["plan"] = {"id": plan.id, **plan.content()} if plan else None
    if plan:
        for line in plan.describe().splitlines():
            tl.say("plan", line.strip())
    return plan


def _approve(ctx: DemoContext, night: dict[str, Any], plan: Any) -> bool:
    tl = ctx.timeline
    how = {"cli": f"dw approve {plan.id} --as <approver> --note '...'",
           "launchpad": (f"on the Launchpad of rerun_airflow_dag pick partition {plan.id}: it fills in the config "
                         f"and the tags dw/plan_id={plan.id} and dw/approval_id=<approval id>")}
    night["how_to_approve"] = how
    if not ctx.options.approve_as:
        tl.say("data-workers", f"awaiting approval. Approve with: {how['cli']} (approvers: "
                               f"{', '.join(ctx.settings.domain_for(night['incident']['dataset']).approvers)})")
        night["status"] = "awaiting_approval"
        return False
    try:
        record = Governance(ctx.settings, store=ctx.store).approve(plan.id, ctx.options.approve_as,
                                                                   note="approved during dw demo")
    except Refusal as refusal:
        tl.say("governance", f"approval by {ctx.options.approve_as} refused: {refusal.reason}")
        night["status"], night["approval_refused"] = "awaiting_approval", refusal.reason
        return False
    night["approval"] = {"id": record.approval_id, "approver": record.approver, "plan_id": record.plan_id,
                         "decided_at": record.decided_at.isoformat()}
    tl.say(record.approver, f"approves {plan.id} ({record.approval_id})")
    return True


def _owner_merges(ctx: DemoContext, plan: Any) -> None:
    """The domain owner merges the plan's diffs into their repo (the product never does)."""
    for diff in plan.diffs:
        patch = ctx.home / f"fix-{plan.id}.patch"
        patch.write_text(diff.diff)
        author = (diff.owner or "owner", f"{diff.owner or 'owner'}@example.com")
        git(ctx.repo, "apply", str(patch), author=author)
        git(ctx.repo, "commit", "-q", "-am", f"Fix for {plan.incident_id}: {diff.path}", author=author)
        ctx.timeline.say(diff.owner or "owner", f"reviews and merges the proposed diff to {diff.path}")


def _dag_owner(ctx: DemoContext, dag_id: str) -> str:
    with ctx.harness.http() as client:
        resp = client.get(f"{ctx.harness.api_prefix}/dags/{dag_id}")
        owners = resp.json().get("owners") if resp.status_code == 200 else None
    return (owners or ["owner"])[0]


def _owner_triggers_drafts(ctx: DemoContext, plan: Any, stop: threading.Event) -> None:
    """Airflow 3 default: Data Workers drafts the run; the DAG's owner triggers exactly that."""
    receipts = ReceiptLog.from_settings(ctx.store, ctx.settings)
    handled: set[int] = set()
    while not stop.is_set():
        for receipt in receipts.list(action="rerun_drafted", subject=plan.id):
            if receipt.seq in handled:
                continue
            handled.add(receipt.seq)
            body = receipt.record["body"]
            dag_id, conf = body["path"]["dag_id"], body["conf"]
            owner = _dag_owner(ctx, dag_id)
            run = ctx.estate.trigger(dag_id, conf)
            ctx.timeline.say(owner, f"triggers the drafted {dag_id} run with conf {json.dumps(conf)} "
                                    f"({run['dag_run_id']})")
        stop.wait(1.0)


def rerun_and_verify(ctx: DemoContext, night: dict[str, Any], plan: Any) -> None:
    tl = ctx.timeline
    if plan.diffs:
        _owner_merges(ctx, plan)
    mode = "draft" if ctx.harness.major == 3 and ctx.settings.airflow_instance(
        plan.steps[0].airflow_instance).trigger_mode == "draft" else "trigger"
    night["rerun"] = {"mode": mode}
    stop = threading.Event()
    owner = threading.Thread(target=_owner_triggers_drafts, args=(ctx, plan, stop), daemon=True)
    owner.start()

    def fast_polling(request: Any) -> Any:
        if request.job_name == "rerun_airflow_dag":
            return rerun_run_config(poll_interval_s=RERUN_POLL_S, wait_timeout_s=900)
        return request.run_config

    with tl.step("dagster", "approvals sensor launches rerun_airflow_dag (gated by the approval tag)"):
        tick = ctx.driver.tick("dw_approvals", run_config_override=fast_polling)
    stop.set()
    owner.join(5)
    reruns = [r for r in tick.runs if r.dagster_run.job_name == "rerun_airflow_dag"]
    night["rerun"]["dagster_run_ids"] = [r.run_id for r in reruns]
    night["rerun"]["tags"] = reruns[0].dagster_run.tags if reruns else {}
    if not reruns or not all(r.success for r in reruns):
        night["status"] = "rerun_failed"
        tl.say("dagster", f"rerun job did not succeed: {[r.run_id for r in reruns]}")
        return
    receipts = ReceiptLog.from_settings(ctx.store, ctx.settings)
    observed = [r.record["body"] for r in receipts.list(action="run_observed", subject=plan.id)]
    night["rerun"]["airflow_run_ids"] = [o["airflow_run_id"] for o in observed]
    for o in observed:
        tl.say("airflow", f"{o['path']['dag_id']} {o['airflow_run_id']}: {o['state']} ({o['role']})")
    night["checks_after"] = observe(ctx)
    with tl.step("dagster", "approvals sensor (the rerun run verified; verify_remediation only as its fallback)"):
        ctx.driver.tick("dw_approvals")
    verifications = [r.record["body"] for r in receipts.list(action="verification", subject=plan.id)]
    if not verifications:
        night["status"] = "verification_missing"
        return
    verdict = verifications[-1]
    night["verification"] = {"passed": verdict["passed"], "outcome": verdict["outcome"],
                             "checks": verdict["checks"], "openlineage_run_id": verdict["openlineage"]["run_id"]}
    for check in verdict["checks"]:
        tl.say("verify", f"{check['dataset']} {check['check']}: {'passed' if check['passed'] else 'FAILED'} "
                         f"(before: {_headline(check.get('before'))}; after: {_headline(check.get('after'))})")
    night["lineage_events"] = lineage_events_of(ctx, verdict["openlineage"]["run_id"])
    tl.say("openlineage", f"verification run reported: {night['lineage_events']}")
    night["status"] = "verified" if verdict["passed"] else "verification_failed"


def await_dag_lineage(ctx: DemoContext, dag_id: str, run_id: str, timeout: float = 90.0) -> bool:
    """Wait (bounded) for the event that closes the DAG run in Airflow's OpenLineage provider's feed:
    the scheduler posts it just after the REST API reports the run finished, and the sensors should
    read a finished run's lineage whole. False (and a timeline line) when it did not come in time: the
    sensors then read the rest at a later tick."""
    events = LineageEventStore(ctx.store)
    deadline = time.monotonic() + timeout
    while True:
        for stored in events.query(job=dag_id, limit=20):
            facets = (stored.event.get("run") or {}).get("facets") or {}
            if stored.event_type in ("COMPLETE", "FAIL") and \
                    ((facets.get("airflowDagRun") or {}).get("dagRun") or {}).get("run_id") == run_id:
                return True
        if time.monotonic() > deadline:
            ctx.timeline.say("openlineage", f"no closing event of {dag_id} {run_id} from the provider after "
                                            f"{timeout:.0f}s; reading what arrived")
            return False
        time.sleep(1)


def lineage_producers(ctx: DemoContext, after_seq: int) -> dict[str, int]:
    """The estate's OpenLineage events stored since `after_seq`, by producer: Airflow's provider,
    dbt-ol, Data Workers' own verification runs (nothing else reports lineage in the demo)."""
    counts: dict[str, int] = {}
    events = LineageEventStore(ctx.store)
    while batch := events.read_after(after_seq, 5000):
        for stored in batch:
            producer = str(stored.event.get("producer") or "")
            name = ("airflow_provider" if "apache/airflow" in producer and "openlineage" in producer
                    else "dbt_ol" if "/integration/dbt" in producer
                    else "data_workers" if "data-workers" in producer else producer)
            counts[name] = counts.get(name, 0) + 1
        after_seq = batch[-1].seq
    return counts


def lineage_events_of(ctx: DemoContext, run_id: str) -> dict[str, int]:
    """Count our verification run's events where the configured transport wrote them."""
    transport = ctx.settings.openlineage.emit_transport or {}
    counts: dict[str, int] = {}
    path = transport.get("log_file_path")
    if not path:
        return counts
    for line in Path(resolve_env(path)).read_text().splitlines():
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue
        if event.get("run", {}).get("runId") == run_id:
            counts[event["eventType"]] = counts.get(event["eventType"], 0) + 1
    return counts


def _finish(ctx: DemoContext, night: dict[str, Any], incident_id: str) -> None:
    ctx.driver.tick(INCIDENT_SENSOR)
    incident = IncidentStore(ctx.store).get(incident_id)
    night["incident"]["status"] = incident.status
    ctx.timeline.say("data-workers", f"incident {incident.id} is {incident.status}")


def _after_triage(ctx: DemoContext, night: dict[str, Any], since: datetime) -> None:
    incidents = sorted(_incidents_since(ctx, since), key=lambda i: (i.dataset_id is None, i.created_at))
    if not incidents:
        night["status"] = "no_incident"
        ctx.timeline.say("data-workers", "no incident opened")
        return
    if len(incidents) > 1:
        ctx.timeline.say("data-workers", f"{len(incidents)} incidents opened: {[i.id for i in incidents]}")
    plan = _describe_incident(ctx, night, incidents[0])
    night["incident_ids"] = [i.id for i in incidents]
    if plan is None:
        night["status"] = "no_plan"
        return
    if _approve(ctx, night, plan):
        rerun_and_verify(ctx, night, plan)
    _finish(ctx, night, incidents[0].id)


def month_end(ctx: DemoContext) -> dict[str, Any]:
    night: dict[str, Any] = {"night": "month-end"}
    tl, since = ctx.timeline, _now()
    first_seq = _lineage_seq(ctx)
    tl.say("night", "Night 1: month-end close, a green run on half the data")
    part1 = write_gl_export_part(ctx.home, NIGHT1_DATE, 1)
    tl.say("landing", f"{part1.name} lands ({_rows(part1):,} rows)")
    run = ctx.estate.trigger("gl_landing", {"export_date": NIGHT1_DATE})
    tl.say("airflow", f"gl_landing {run['dag_run_id']} starts with conf {{\"export_date\": \"{NIGHT1_DATE}\"}}")
    ctx.estate.wait_run("gl_landing", run["dag_run_id"])
    for ti in ctx.estate.task_instances("gl_landing", run["dag_run_id"]):
        tl.say("airflow", f"gl_landing.{ti['task_id']}: {ti['state']} ({ti.get('start_date')} -> {ti.get('end_date')})")
    time.sleep(1)
    part2 = write_gl_export_part(ctx.home, NIGHT1_DATE, 2)
    write_done_marker(ctx.home, NIGHT1_DATE)
    tl.say("landing", f"{part2.name} lands ({_rows(part2):,} rows) after the load finished; done-marker written")
    load_end = ctx.estate.task_end("gl_landing", run["dag_run_id"], "load")  # its asset event starts the close
    with tl.step("airflow", "month_end_close runs on the gl_entries asset event (dbt-ol build)"):
        close = ctx.estate.wait_next_run("month_end_close", after=load_end.replace(microsecond=0), timeout=900)
    tl.say("airflow", f"month_end_close {close['dag_run_id']}: {close['state']} (every dbt test passed: green)")
    await_dag_lineage(ctx, "gl_landing", run["dag_run_id"])
    await_dag_lineage(ctx, "month_end_close", close["dag_run_id"])
    return _observe_and_triage(ctx, night, since, first_seq,
                               "sensors read Airflow and OpenLineage; checks run on what the runs wrote")


def _observe_and_triage(ctx: DemoContext, night: dict[str, Any], since: datetime, first_seq: int,
                        sensors_step: str) -> dict[str, Any]:
    """Each night's ending: the sensors and checks read what the runs wrote, incidents are opened and
    planned, and the night records the lineage it stored."""
    with ctx.timeline.step("data-workers", sensors_step):
        night["checks_before"] = observe(ctx)
    with ctx.timeline.step("data-workers", "incident intake, diagnosis, plan"):
        triage(ctx)
    _after_triage(ctx, night, since)
    _record_lineage(ctx, night, first_seq)
    return night


def _lineage_seq(ctx: DemoContext) -> int:
    return LineageEventStore(ctx.store).max_seq()


def _record_lineage(ctx: DemoContext, night: dict[str, Any], first_seq: int) -> None:
    night["lineage_producers"] = lineage_producers(ctx, first_seq)
    ctx.timeline.say("openlineage", f"events stored this night, by producer: {night['lineage_producers']}")


def orders(ctx: DemoContext) -> dict[str, Any]:
    night: dict[str, Any] = {"night": "orders"}
    tl = ctx.timeline
    first_seq = _lineage_seq(ctx)
    tl.say("night", "Night 2: a column type changes two systems upstream")
    with tl.step("airflow", "the night before: orders_daily runs green (OpenLineage records discount as DECIMAL)"):
        before = ctx.estate.wait_run("orders_daily", ctx.estate.trigger("orders_daily", {})["dag_run_id"], timeout=900)
    tl.say("airflow", f"orders_daily {before['dag_run_id']}: {before['state']}")
    await_dag_lineage(ctx, "orders_daily", before["dag_run_id"])
    observe(ctx)
    since = _now()
    added = add_orders_day(ctx.home, ORDERS_DAY)
    broken = break_orders_discount(ctx.home)
    tl.say("app-db", f"{added:,} orders for {ORDERS_DAY}; a release changes orders.discount to text and "
                     f"{len(broken)} rows say 'N/A'")
    run = ctx.estate.trigger("orders_daily", {})
    tl.say("airflow", f"orders_daily {run['dag_run_id']} starts")
    finished = ctx.estate.wait_run("orders_daily", run["dag_run_id"], timeout=900)
    for ti in ctx.estate.task_instances("orders_daily", run["dag_run_id"]):
        tl.say("airflow", f"orders_daily.{ti['task_id']}: {ti['state']}")
    tl.say("airflow", f"orders_daily {finished['state']}")
    await_dag_lineage(ctx, "orders_daily", run["dag_run_id"])
    return _observe_and_triage(ctx, night, since, first_seq,
                               "sensors read Airflow and OpenLineage (the FAIL event, the schema facet)")


def _rows(path: Any) -> int:
    with open(path, "rb") as handle:
        return max(sum(1 for _ in handle) - 1, 0)


def receipts_status(ctx: DemoContext) -> dict[str, Any]:
    report = ReceiptLog.from_settings(ctx.store, ctx.settings).verify()
    ctx.timeline.say("receipts", f"chain of {report.count} receipts: {'intact' if report.ok else report.problem}")
    return {"intact": report.ok, "count": report.count, "problem": report.problem}


def _headline(facts: Any) -> str:
    """The few numbers a person compares before and after (the receipt keeps everything)."""
    if not isinstance(facts, dict):
        return "not measured"
    metrics = facts.get("metrics", facts)
    if not isinstance(metrics, dict):
        return str(metrics)[:80]
    shown = []
    for key in ("observed", "ratio", "table_rows", "file_rows", "difference", "age_hours"):
        if metrics.get(key) is not None:
            shown.append(f"{key} {metrics[key]:,}" if isinstance(metrics[key], int) else f"{key} {metrics[key]}")
    if "broken_groups" in metrics:
        shown.append(f"{len(metrics['broken_groups'] or [])} unbalanced group(s)")
    return ", ".join(shown) or "recorded"
