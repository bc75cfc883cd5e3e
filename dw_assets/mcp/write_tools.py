"""The write tools: propose a plan, request an approval, post a Slack alert, trigger an Airflow DAG.

None of them approves anything, and there is no tool that can: approvals are given by named people
(`dw approve`), never by the agent that proposed the plan. `trigger_airflow_dag` passes the same
gate as the rerun job (`governance.gate.check_dispatch`: the approval looked up in the ledger and
consumed once, the read-only pin, the org-wide stop, the domain's autonomy) before any request
reaches Airflow; a refusal is recorded in the ledger and as a receipt by the gate itself.
"""

from __future__ import annotations

from typing import Any

from dw_assets.connectors.airflow import AirflowClient, AirflowError
from dw_assets.connectors.slack import SlackNotifier
from dw_assets.core.approvals import Refusal
from dw_assets.core.incidents import Incident
from dw_assets.core.plans import PlanError, PlanStep
from dw_assets.core.receipts import canonical_json
from dw_assets.governance.dispatch import airflow_run_id, draft_for
from dw_assets.governance.gate import GateDecision, check_dispatch, record_refusal
from dw_assets.governance.workflow import Governance
from dw_assets.mcp.context import AGENT, ToolContext, ToolFailure, ToolSpec
from dw_assets.operations.remediation import NoInstanceError, PlanningError
from dw_assets.operations.triage import propose_for_incident

_ACTOR = "mcp:trigger_airflow_dag"


_LIVE_PLAN = ("proposed", "approval_requested", "approved")


def propose_remediation(ctx: ToolContext, incidentId: str) -> dict[str, Any]:
    """Diagnose (recorded on the incident, as triage does) and plan: `operations.propose_for_incident`."""
    incidents, gov = ctx.incidents(), ctx.governance()
    incident = incidents.get(incidentId)
    existing = gov.ledger.plan_row(incident.plan_id) if incident.plan_id else None
    if incident.plan_id and existing and existing["status"] in _LIVE_PLAN:
        return _plan_view(gov, incident, incident.plan_id, note="already proposed for this incident")
    try:
        plan = propose_for_incident(ctx.settings, ctx.store, incidentId, governance=gov, graph=ctx.graph(),
                                    actor=AGENT, note=" (MCP)")
    except NoInstanceError as exc:
        raise ToolFailure("no_instance", str(exc)) from exc
    except PlanningError as exc:
        raise ToolFailure("planning_error", str(exc)) from exc
    except AirflowError as exc:
        raise ToolFailure("airflow_error", f"reading the runs to plan from failed: {exc}") from exc
    return _plan_view(gov, incidents.get(incidentId), plan.id)


def _plan_view(gov: Governance, incident: Incident, plan_id: str, note: str = "") -> dict[str, Any]:
    plan = gov.ledger.get_plan(plan_id)
    row = gov.ledger.plan_row(plan_id) or {}
    return {"plan_id": plan_id, "status": row.get("status"), "plan": plan.content(), "description": plan.describe(),
            "proposed_fixes": [f.to_dict() for f in incident.proposed_fixes], "note": note,
            "runs": "nothing: a named approver must approve it (request_approval asks them)"}


def request_approval(ctx: ToolContext, planId: str, channel: str | None = None) -> dict[str, Any]:
    return ctx.governance().request_approval(planId, channel=channel, requested_by=AGENT)


def send_slack_alert(ctx: ToolContext, channel: str, message: str, severity: str,
                     domain: str | None = None) -> dict[str, Any]:
    gov = ctx.governance()
    target = gov.domain(channel) or (gov.domain(domain) if domain else _only_slack_domain(ctx))
    if target is None:
        raise ToolFailure("unknown_domain", f"{domain or channel!r} is not a configured domain "
                                            f"({', '.join(d.name for d in ctx.settings.domains) or 'none'})")
    override = None if channel == target.name else channel
    text = f"[{severity.upper()}] {message}\n(sent by Data Workers through MCP)"
    delivery = SlackNotifier().post(target.slack, text, channel=override)
    gov.record("slack_alert", subject=target.name, actor=AGENT, body={
        "channel": channel, "severity": severity, "message": message, "delivery": delivery.as_dict()})
    return {"domain": target.name, "channel": override or target.name, **delivery.as_dict()}


def _only_slack_domain(ctx: ToolContext) -> Any:
    with_slack = [d for d in ctx.settings.domains if d.slack]
    if len(with_slack) != 1:
        raise ToolFailure("invalid_arguments", "channel is not a domain name: pass domain (whose Slack settings "
                                               "post to that channel)")
    return with_slack[0]


def trigger_airflow_dag(ctx: ToolContext, instance: str, dagId: str, conf: dict[str, Any] | None = None,
                        approvalId: str | None = None, planId: str | None = None) -> dict[str, Any]:
    conf = dict(conf or {})
    gov = ctx.governance()
    plan_id = _plan_for(gov, planId, approvalId, instance, dagId, conf)
    run_id = f"mcp:{approvalId or plan_id}"  # one approval serves the steps of its plan, each once
    repeat = _repeat_of(gov, plan_id, run_id, instance, dagId, conf)
    if repeat:
        record_refusal(gov.ledger, gov.receipts, Refusal("already_used", repeat), now=gov.now(), plan_id=plan_id,
                       approval_id=approvalId, actor=_ACTOR, run_id=run_id, instance=instance, dag_id=dagId,
                       conf=conf)
        raise ToolFailure("already_used", repeat)
    decision = check_dispatch(ctx.settings, gov.ledger, plan_id, approvalId, instance=instance, dag_id=dagId,
                              conf=conf, actor=_ACTOR, run_id=run_id, consume=True, now=gov.now(),
                              receipts=gov.receipts)
    if not decision.allowed:
        raise ToolFailure(decision.code, decision.reason)
    return _dispatch(ctx, gov, decision, plan_id, run_id, instance, dagId, conf)


def _plan_for(gov: Governance, plan_id: str | None, approval_id: str | None, instance: str, dag_id: str,
              conf: dict[str, Any]) -> str | None:
    """The plan the write belongs to: given, else the approval's, else the one proposed plan holding the step."""
    if plan_id:
        return plan_id
    if approval_id and (approval := gov.ledger.get_approval(approval_id)) is not None:
        return approval.plan_id

    holding = []
    for row in gov.ledger.list_plans():
        try:
            plan = gov.ledger.get_plan(row["plan_id"])
        except PlanError:  # a tampered plan is the gate's to refuse, not ours to pick
            continue
        if plan.step_matching(instance, dag_id, conf):
            holding.append(row["plan_id"])
    return holding[0] if len(holding) == 1 else None


def _repeat_of(gov: Governance, plan_id: str | None, run_id: str, instance: str, dag_id: str,
               conf: dict[str, Any]) -> str | None:
    """Why this call repeats a step its approval already started (a retry must not start a second run)."""
    wanted = canonical_json(conf)
    for receipt in gov.receipts.list(action="rerun_dispatched", subject=plan_id) if plan_id else []:
        body = receipt.record.get("body") or {}
        path = body.get("path") or {}
        if body.get("run_id") == run_id and path == {"instance": instance, "dag_id": dag_id} \
                and canonical_json(body.get("conf") or {}) == wanted:
            return (f"{instance}:{dag_id} with conf {wanted} was already triggered under this approval "
                    f"(Airflow run {body.get('airflow_run_id')})")
    return None


def _dispatch(ctx: ToolContext, gov: Governance, decision: GateDecision, plan_id: str | None, run_id: str, instance: str,
              dag_id: str, conf: dict[str, Any]) -> dict[str, Any]:
    """The approved write: trigger (Airflow 2, or trigger_mode: trigger) or draft it for the DAG owner."""
    config = ctx.settings.airflow_instance(instance)
    path = {"instance": instance, "dag_id": dag_id}
    with AirflowClient(config) as client:
        try:
            if config.trigger_mode == "trigger" or client.api_version == "v1":
                step = PlanStep(order=1, airflow_instance=instance, dag_id=dag_id, conf=conf)
                run = client.trigger_dag_run(dag_id, conf, run_id=airflow_run_id(run_id, step))  # repeatable
                gov.record("rerun_dispatched", subject=plan_id, actor=_ACTOR, body={
                    "path": path, "conf": conf, "airflow_run_id": run.run_id, "run_id": run_id,
                    "approval_id": decision.approval_id})
                return {"mode": "triggered", "gate": decision.code, "approver": decision.approver, "plan_id": plan_id,
                        "airflow_run_id": run.run_id, "state": run.state, "ui_url": client.ui_url(dag_id, run.run_id)}
            draft = draft_for(client, PlanStep(order=1, airflow_instance=instance, dag_id=dag_id, conf=conf))
        except AirflowError as exc:
            raise ToolFailure("airflow_error", str(exc)) from exc
    gov.record("rerun_drafted", subject=plan_id, actor=_ACTOR, body={
        "path": path, "conf": conf, "ui_path": draft["ui_path"], "api_call": draft["curl"], "run_id": run_id,
        "approval_id": decision.approval_id})
    return {"mode": "drafted", "gate": decision.code, "approver": decision.approver, "plan_id": plan_id, **draft,
            "next": "the DAG owner triggers this exact run (trigger_mode: draft on this Airflow 3 instance)"}


WRITE_TOOLS = [
    ToolSpec("propose_remediation", "Propose a remediation plan for an incident (nothing runs)",
             "Diagnoses the incident (recorded on it) and records a plan in the governance ledger: the rerun "
             "(DAG, conf, the runs that follow), its undo written before anything runs, the diffs a code cause "
             "needs merged first, and the checks that will prove it worked; the incident's other proposed fixes "
             "(reviewed diffs with their blast radius) come back beside it. Nothing runs. Write.",
             {"type": "object", "properties": {"incidentId": {"type": "string", "minLength": 1}},
              "required": ["incidentId"], "additionalProperties": False},
             propose_remediation, writes=True),
    ToolSpec("request_approval", "Ask the plan's domain approvers for approval (does not approve)",
             "Opens an approval request in the ledger and posts it to the domain's approver channel. It does NOT "
             "approve: a named approver runs `dw approve PLAN --as NAME`. Write.",
             {"type": "object", "properties": {"planId": {"type": "string", "pattern": "^plan-[0-9a-f]{16}$"},
                                               "channel": {"type": "string", "minLength": 1}},
              "required": ["planId"], "additionalProperties": False},
             request_approval, writes=True),
    ToolSpec("send_slack_alert", "Post an alert to a domain's Slack",
             "Posts a message through the domain's Slack settings. channel: a domain name (its configured "
             "channel) or a Slack channel such as #finance-close (token-based Slack; pass domain). Write.",
             {"type": "object", "properties": {
                 "channel": {"type": "string", "minLength": 1}, "message": {"type": "string", "minLength": 1},
                 "severity": {"type": "string", "enum": ["info", "low", "medium", "high", "critical"]},
                 "domain": {"type": "string", "minLength": 1}},
              "required": ["channel", "message", "severity"], "additionalProperties": False},
             send_slack_alert, writes=True, idempotent=False, open_world=True),
    ToolSpec("trigger_airflow_dag", "Trigger an approved Airflow DAG run (gated)",
             "Triggers (or, on an Airflow 3 instance in draft mode, drafts for its owner) one step of an approved "
             "plan. It passes the rerun job's gate first: no approval, no run; an approval is used once; an "
             "instance pinned read-only and the org-wide stop refuse before Airflow is contacted. Write.",
             {"type": "object", "properties": {
                 "instance": {"type": "string", "minLength": 1}, "dagId": {"type": "string", "minLength": 1},
                 "conf": {"type": "object", "default": {}},
                 "approvalId": {"type": "string", "minLength": 1},
                 "planId": {"type": "string", "pattern": "^plan-[0-9a-f]{16}$"}},
              "required": ["instance", "dagId", "conf"], "additionalProperties": False},
             trigger_airflow_dag, writes=True, destructive=True, idempotent=False, open_world=True),
]
