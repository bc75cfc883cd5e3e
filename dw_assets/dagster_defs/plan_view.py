"""What the UI shows of a plan, read from the governance ledger (read only): its content and
status, the approvers, the request, the approvals, the approval a Launchpad run would use, and the
Airflow 3 draft of each step the owner triggers. Shared by the incident page and the approvals asset."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

import dagster as dg

from dw_assets.config import ConfigError, Settings
from dw_assets.connectors.airflow import AirflowClient, NoAuth
from dw_assets.core import incident_report as report
from dw_assets.core.approvals import approve_command
from dw_assets.core.fixes import ProposedFix
from dw_assets.governance.dispatch import draft_for
from dw_assets.governance.ledger import GovernanceLedger, iso
from dw_assets.store import Store

PLAN_TAG = "dw/plan_id"
APPROVAL_TAG = "dw/approval_id"
RERUN_JOB = "rerun_airflow_dag"
# plans a person still has to act on (approve, or launch once approved)
PENDING_STATUSES = ("proposed", "approval_requested", "approved")


@dataclass
class PlanView:
    plan_id: str
    status: str
    content: dict[str, Any]
    approvers: list[str]
    approvals: list[dict[str, Any]]
    request: dict[str, Any] | None
    launchable_approval: str | None
    drafts: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    draft_errors: list[str] = field(default_factory=list)


def incident_url(incident_id: str) -> str:
    """The incident's partition page in the Dagster UI (a path, so it works behind any host)."""
    return f"/assets/incident?view=partitions&partition={quote(incident_id)}"


def launchable_approval(ledger: GovernanceLedger, plan_id: str, now: datetime | None = None) -> str | None:
    """The approval a launch of this plan would consume now (granted, unexpired, unused), if any."""
    usable = [a for a in ledger.launchable_approvals(now or datetime.now(UTC)) if a.plan_id == plan_id]
    return usable[-1].approval_id if usable else None


def plan_view(settings: Settings, store: Store, plan_id: str, *, drafts: bool = True,
              now: datetime | None = None) -> PlanView | None:
    ledger = GovernanceLedger(store)
    row = ledger.plan_row(plan_id)
    if row is None:
        return None
    plan = ledger.get_plan(plan_id)
    domain = settings.domain_named(plan.domain)
    requests = [r for r in ledger.list_requests() if r["plan_id"] == plan_id]
    view = PlanView(plan_id=plan_id, status=row["status"], content=plan.content(),
                    approvers=list(domain.approvers) if domain else [],
                    approvals=[_approval_dict(a) for a in ledger.list_approvals(plan_id)],
                    request=requests[-1] if requests else None,
                    launchable_approval=launchable_approval(ledger, plan_id, now))
    if drafts:
        _add_drafts(settings, plan, view)
    return view


def _approval_dict(record: Any) -> dict[str, Any]:
    out = asdict(record)
    for key in ("decided_at", "expires_at", "used_at"):
        out[key] = iso(out[key]) if out.get(key) else None
    return out


def _add_drafts(settings: Settings, plan: Any, view: PlanView) -> None:
    """Steps on an instance in draft mode (Airflow 3's default) are triggered by the DAG's owner:
    show the exact request as Airflow 3 (API v2) receives it, built without calling Airflow."""
    for step in plan.ordered_steps():
        try:
            config = settings.airflow_instance(step.airflow_instance)
        except ConfigError as exc:  # an instance no longer configured: say so beside the plan
            view.draft_errors.append(f"step {step.order}: {exc}")
            continue
        if config.trigger_mode != "draft" or config.api_version == "v1":
            continue
        try:
            # the draft is text for the owner: no credentials needed, none are read
            with AirflowClient(config.model_copy(update={"api_version": "v2"}), auth=NoAuth()) as client:
                view.drafts.append((step.order, step.dag_id, draft_for(client, step)))
        except ConfigError as exc:  # e.g. an unset ${ENV} in the instance's url: the page still renders
            view.draft_errors.append(f"step {step.order} ({step.dag_id}): draft not built: {exc}")


def plan_metadata(view: PlanView, *, prefix: str = "") -> dict[str, Any]:
    """The plan, how to approve it and its drafts, as inline Markdown entries."""
    md = dg.MetadataValue
    content = view.content
    meta: dict[str, Any] = {
        f"{prefix}plan": md.md(report.plan_md(view.plan_id, content, view.status)),
        f"{prefix}how to approve": md.md(report.approve_md(
            plan_id=view.plan_id, approvers=view.approvers, command=approve_command(view.plan_id), job=RERUN_JOB,
            plan_tag=PLAN_TAG, approval_tag=APPROVAL_TAG, approvals=view.approvals, request=view.request,
            launchable=view.launchable_approval)),
    }
    for order, dag_id, draft in view.drafts:
        meta[f"{prefix}draft step {order}"] = md.md(report.draft_md(order, dag_id, draft))
    for error in view.draft_errors:
        meta.setdefault(f"{prefix}draft problems", md.text(error))
    for i, diff in enumerate(content.get("diffs") or [], start=1):
        meta[f"{prefix}change {i}"] = md.md(report.fix_md(i, ProposedFix(
            cause_kind="", title=f"{diff.get('path')} in {diff.get('repo')}", kind="diff",
            rationale=f"owner: {diff.get('owner') or 'unknown'}", paths=[str(diff.get("path"))],
            diff=diff.get("diff"), verified=None)))
    return meta


def table(rows: list[dict[str, str]], columns: list[str] | None = None) -> dg.TableMetadataValue:
    """Rows of text as table metadata (every column a string, in the given order)."""
    cols = columns or (list(rows[0]) if rows else [])
    schema = dg.TableSchema(columns=[dg.TableColumn(c, "string") for c in cols])
    return dg.MetadataValue.table([dg.TableRecord({c: str(r.get(c, "")) for c in cols}) for r in rows], schema=schema)


APPROVALS_KEY = dg.AssetKey(["dw", "approvals"])
SHOWN_PLANS = 3  # plans shown in full on the approvals asset; the table lists every one


def pending_plans(store: Store) -> list[dict[str, Any]]:
    """Plans a person still has to act on, oldest first."""
    rows = [r for r in GovernanceLedger(store).list_plans() if r["status"] in PENDING_STATUSES]
    return sorted(rows, key=lambda r: (r["created_at"], r["plan_id"]))


def pending_fingerprint(rows: list[dict[str, Any]]) -> str:
    return ";".join(f"{r['plan_id']}={r['status']}@{r['updated_at']}" for r in rows)


def approvals_metadata(settings: Settings, store: Store, rows: list[dict[str, Any]],
                       now: datetime | None = None) -> dict[str, Any]:
    """Every pending plan in one table (with the command that approves it), then the first few in
    full: the plan, how to approve it and the owner's Airflow 3 draft beside it."""
    views = [v for v in (plan_view(settings, store, r["plan_id"], now=now) for r in rows) if v is not None]
    table_rows = [{
        "#": str(i), "plan": v.plan_id, "status": v.status, "domain": str(v.content.get("domain") or ""),
        "incident": str(v.content.get("incident_id") or ""), "summary": report.shorten(v.content.get("summary"), 90),
        "approvers": ", ".join(v.approvers), "expires": str((v.request or {}).get("expires_at") or ""),
        "launch tags": f"{PLAN_TAG}={v.plan_id} {APPROVAL_TAG}={v.launchable_approval or '(approve first)'}",
        "approve with": approve_command(v.plan_id)} for i, v in enumerate(views, start=1)]
    meta: dict[str, Any] = {
        "pending": len(views),
        "plans": table(table_rows, ["#", "plan", "status", "domain", "incident", "summary", "approvers", "expires",
                                    "launch tags", "approve with"]),
    }
    # each shown plan's entries are numbered by its row in the table (`1. plan`): a plan id in
    # every key made them too long for the page's key column
    for i, view in enumerate(views[:SHOWN_PLANS], start=1):
        meta.update(plan_metadata(view, prefix=f"{i}. "))
    return meta
