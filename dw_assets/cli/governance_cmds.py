"""dw commands for governance: plans, approvals, the org-wide stop and the receipt chain.

Exit codes: 0 done, 1 the receipt chain failed verification, 2 bad input (unknown plan, config),
3 a governance rule refused the action (the reason is printed; the refusal is in the ledger).
"""

from __future__ import annotations

import getpass
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any, NoReturn

import click
import uvicorn
import yaml

from dw_assets.cli.context import DwContext, emit_json, pass_dw
from dw_assets.config import ConfigError
from dw_assets.connectors.slack_actions import PATH, build_app
from dw_assets.core.approvals import ApprovalRecord, Refusal
from dw_assets.core.plans import PlanError
from dw_assets.governance.keys import generate_key_file, load_verify_key
from dw_assets.governance.ledger import GovernanceLedger, iso
from dw_assets.governance.receipt_log import ChainTampered, ReceiptLog
from dw_assets.governance.workflow import Governance
from dw_assets.store import open_store, state_url
from dw_assets.store.preflight import preflight


def _gov(dw: DwContext, *, write: bool = False) -> Any:
    return Governance(dw.settings, store=_store(dw, write=write))


def _reader(dw: DwContext) -> Any:
    """The ledger and the receipts for reading: needs only the public key, writes nothing."""
    store = _store(dw)
    return SimpleNamespace(ledger=GovernanceLedger(store), receipts=ReceiptLog.for_verifying(store, dw.settings))


def _store(dw: DwContext, *, write: bool = False) -> Any:
    """The state store, after a preflight: a missing (for reads), corrupt, truncated, read-only or
    directory database stops here with one error naming it, before anything is written."""
    url = state_url(dw.settings)
    preflight(url, write=write)
    return open_store(url)


def _refused(refusal: Refusal, as_json: bool) -> NoReturn:
    if as_json:
        emit_json({"ok": False, "code": refusal.code, "reason": refusal.reason})
    click.echo(f"dw: refused ({refusal.code}): {refusal.reason}", err=True)
    sys.exit(3)


def _bad(message: str) -> NoReturn:
    click.echo(f"dw: {message}", err=True)
    sys.exit(2)


def _approval_json(record: ApprovalRecord) -> dict[str, Any]:
    return {"approval_id": record.approval_id, "plan_id": record.plan_id, "approver": record.approver,
            "decision": record.decision, "note": record.note, "request_id": record.request_id,
            "decided_at": iso(record.decided_at), "expires_at": iso(record.expires_at),
            "used_at": iso(record.used_at) if record.used_at else None, "used_by": record.used_by}


@click.group("plans")
def plans_group() -> None:
    """Remediation plans: show, list, request approval."""


@plans_group.command("show")
@click.argument("plan_id")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_dw
def plans_show(dw: DwContext, plan_id: str, as_json: bool) -> None:
    """Show a plan (rehashed: a tampered plan is reported, not shown)."""
    gov = _reader(dw)
    try:
        plan = gov.ledger.get_plan(plan_id)
    except PlanError as exc:
        _bad(str(exc))
    row = gov.ledger.plan_row(plan_id) or {}
    approvals = [_approval_json(a) for a in gov.ledger.list_approvals(plan_id)]
    if as_json:
        emit_json({"plan_id": plan.id, "status": row.get("status"), "plan": plan.content(), "approvals": approvals,
                   "open_request": gov.ledger.open_request_for(plan_id)})
        return
    click.echo(plan.describe())
    click.echo(f"  status: {row.get('status')}")
    for a in approvals:
        used = f", used by run {a['used_by']}" if a["used_by"] else ""
        click.echo(f"  {a['decision']} by {a['approver']} ({a['approval_id']}) at {a['decided_at']}{used}")


@plans_group.command("list")
@click.option("--status", default=None, help="Only plans in this status (proposed, approved, verifying, ...).")
@click.option("--json", "as_json", is_flag=True)
@pass_dw
def plans_list(dw: DwContext, status: str | None, as_json: bool) -> None:
    rows = _reader(dw).ledger.list_plans(status=status)
    keys = ("plan_id", "domain", "plan_class", "incident_id", "proposer", "status", "created_at")
    if as_json:
        emit_json([{k: r[k] for k in keys} for r in rows])
        return
    for r in rows:
        click.echo(f"{r['plan_id']}  {r['status']:<20} {r['domain']:<12} {r['plan_class']:<18} "
                   f"{r['incident_id'] or '-':<18} by {r['proposer']}")
    if not rows:
        click.echo("no plans")


@plans_group.command("request")
@click.argument("plan_id")
@click.option("--channel", default=None, help="Slack channel override (token-based Slack only).")
@click.option("--as", "requested_by", default="data-workers", show_default=True)
@click.option("--json", "as_json", is_flag=True)
@pass_dw
def plans_request(dw: DwContext, plan_id: str, channel: str | None, requested_by: str, as_json: bool) -> None:
    """Ask the plan's domain approvers for approval (posted to Slack when configured)."""
    try:
        request = _gov(dw, write=True).request_approval(plan_id, channel=channel, requested_by=requested_by)
    except Refusal as refusal:
        _refused(refusal, as_json)
    if as_json:
        emit_json(request)
        return
    sent = request.get("delivery", {})
    click.echo(f"{request['request_id']} for {plan_id}, expires {request['expires_at']}"
               + (" (already open)" if request.get("reused") else ""))
    if sent:
        click.echo(f"slack: {'sent' if sent.get('delivered') else 'not sent'} ({sent.get('detail')})")
    click.echo(f"approve with: {request['approve_command']}")


def _decide(dw: DwContext, plan_id: str, person: str, note: str, as_json: bool, approve: bool) -> None:
    gov = _gov(dw, write=True)
    try:
        record = gov.approve(plan_id, person, note) if approve else gov.reject(plan_id, person, note)
    except Refusal as refusal:
        _refused(refusal, as_json)
    if as_json:
        emit_json({"ok": True, **_approval_json(record)})
        return
    click.echo(f"{record.decision} {plan_id} as {record.approver}: {record.approval_id}")
    if approve:
        click.echo(f"valid until {iso(record.expires_at)}; the dw_approvals sensor launches rerun_airflow_dag "
                   f"with tag dw/approval_id={record.approval_id} (used once)")


@click.command("approve")
@click.argument("plan_id")
@click.option("--as", "person", required=True, help="Your name, as listed in the domain's approvers.")
@click.option("--note", default="", help="Why (kept in the ledger and the receipt).")
@click.option("--json", "as_json", is_flag=True)
@pass_dw
def approve(dw: DwContext, plan_id: str, person: str, note: str, as_json: bool) -> None:
    """Approve a plan (by its hash) as a named approver of its domain."""
    _decide(dw, plan_id, person, note, as_json, approve=True)


@click.command("reject")
@click.argument("plan_id")
@click.option("--as", "person", required=True)
@click.option("--note", default="")
@click.option("--json", "as_json", is_flag=True)
@pass_dw
def reject(dw: DwContext, plan_id: str, person: str, note: str, as_json: bool) -> None:
    """Reject a plan; nothing of it runs."""
    _decide(dw, plan_id, person, note, as_json, approve=False)


@click.group("approvals")
def approvals_group() -> None:
    """Approval requests and decisions."""


@approvals_group.command("list")
@click.option("--status", default=None, help="Requests in this status: open, approved, rejected, expired.")
@click.option("--json", "as_json", is_flag=True)
@pass_dw
def approvals_list(dw: DwContext, status: str | None, as_json: bool) -> None:
    gov = _reader(dw)
    requests = gov.ledger.list_requests(status=status)
    decisions = [_approval_json(a) for a in gov.ledger.list_approvals()]
    if as_json:
        emit_json({"requests": requests, "decisions": decisions})
        return
    for r in requests:
        extra = f" escalated to {r['escalated_to']}" if r["escalated_to"] else ""
        click.echo(f"{r['request_id']}  {r['plan_id']}  {r['status']:<9} {r['domain']:<12} "
                   f"expires {r['expires_at']}{extra}")
    for d in decisions:
        used = f" used by {d['used_by']}" if d["used_by"] else " unused"
        click.echo(f"{d['approval_id']}  {d['plan_id']}  {d['decision']:<9} by {d['approver']}{used}")
    if not requests and not decisions:
        click.echo("no approval requests")


@approvals_group.command("serve-slack")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=3000, show_default=True, type=int)
@pass_dw
def approvals_serve_slack(dw: DwContext, host: str, port: int) -> None:
    """Serve the Slack interactivity endpoint (POST /slack/actions): signed approve/reject buttons."""
    gov = _gov(dw, write=True)
    click.echo(f"Slack approvals at http://{host}:{port}{PATH} (set it as the app's Interactivity Request URL)")
    uvicorn.run(build_app(lambda: gov), host=host, port=port, log_level="warning")


def _whoami(person: str | None) -> str:
    try:
        return person or getpass.getuser()
    except (OSError, KeyError):  # no login name in some containers
        return "unknown"


@click.command("stop")
@click.option("--reason", default=None)
@click.option("--as", "person", default=None, help="Who stops (default: your login name).")
@pass_dw
def stop(dw: DwContext, reason: str | None, person: str | None) -> None:
    """Org-wide stop: halt all dispatch at once, queued reruns included."""
    # the brake must work even when nothing can be signed: the flag first, the receipt if possible
    try:
        _gov(dw, write=True).stop(by=_whoami(person), reason=reason)
    except (ConfigError, ChainTampered) as exc:
        GovernanceLedger(_store(dw, write=True)).set_stop(True, by=_whoami(person), reason=reason,
                                                          now=datetime.now(UTC))
        click.echo(f"dw: warning: the stop is on but has no signed receipt: {exc}", err=True)
    click.echo("org-wide stop is ON: nothing will be dispatched until `dw resume`")


@click.command("resume")
@click.option("--reason", default=None)
@click.option("--as", "person", default=None)
@pass_dw
def resume(dw: DwContext, reason: str | None, person: str | None) -> None:
    """Lift the org-wide stop set by `dw stop` (governance.stop in the config still applies)."""
    gov = _gov(dw, write=True)
    gov.resume(by=_whoami(person), reason=reason)
    if dw.settings.governance.stop:
        click.echo("ledger stop lifted, but governance.stop: true in the config still halts dispatch")
    else:
        click.echo("org-wide stop is OFF: approved plans may be dispatched")


@click.group("receipts")
def receipts_group() -> None:
    """The tamper-evident receipt chain."""


def _dagster_anchors() -> list:
    """The head kept in Dagster's event log, when this host has a Dagster instance ($DAGSTER_HOME)."""
    if not os.environ.get("DAGSTER_HOME"):
        return []
    # lazy: Dagster takes seconds to import; the other `dw` commands start without it
    import dagster as dg

    from dw_assets.dagster_defs.rerun import dagster_anchor

    with dg.DagsterInstance.get() as instance:
        anchor = dagster_anchor(instance)
    return [anchor] if anchor else []


@receipts_group.command("verify")
@click.option("--json", "as_json", is_flag=True)
@pass_dw
def receipts_verify(dw: DwContext, as_json: bool) -> None:
    """Recompute every hash and signature with the public key, against the witness file and the
    Dagster event log's anchor; exit 1 naming the first bad record or what is missing."""
    log = ReceiptLog.for_verifying(_store(dw), dw.settings)
    report = log.verify(_dagster_anchors())
    if as_json:
        emit_json({**report.as_dict(), "key_id": log.key_id})
    elif report.ok:
        click.echo(f"ok: {report.count} receipts, every hash and signature checks out")
    else:
        where = f"record {report.first_bad_seq}" if report.first_bad_seq else "the chain head"
        click.echo(f"BROKEN at {where}: {report.problem} ({report.count} records verified before it)")
    if not report.ok:
        sys.exit(1)


@receipts_group.command("list")
@click.option("--action", default=None)
@click.option("--subject", default=None, help="A plan id, incident id, ...")
@click.option("--limit", type=int, default=None, help="Only the last N.")
@click.option("--json", "as_json", is_flag=True)
@pass_dw
def receipts_list(dw: DwContext, action: str | None, subject: str | None, limit: int | None, as_json: bool) -> None:
    found = _reader(dw).receipts.list(action=action, subject=subject, limit=limit)
    if as_json:
        emit_json([{**r.record, "hash": r.hash, "signature": r.signature} for r in found])
        return
    for r in found:
        click.echo(f"{r.seq:>6}  {r.record['at']}  {r.action:<20} {r.record.get('subject') or '-':<24} "
                   f"{r.record.get('actor') or '-'}")
    if not found:
        click.echo("no receipts")


@receipts_group.command("show")
@click.argument("seq", type=int)
@click.option("--json", "as_json", is_flag=True)
@pass_dw
def receipts_show(dw: DwContext, seq: int, as_json: bool) -> None:
    receipt = _reader(dw).receipts.get(seq)
    if receipt is None:
        _bad(f"no receipt with seq {seq}")
    payload = {**receipt.record, "hash": receipt.hash, "signature": receipt.signature}
    if as_json:
        emit_json(payload)
        return

    click.echo(yaml.safe_dump(payload, sort_keys=False, default_flow_style=False).rstrip())


@click.group("keys")
def keys_group() -> None:
    """The deployment's Ed25519 signing key."""


@keys_group.command("generate")
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
def keys_generate(path: Path) -> None:
    """Write a new private key to PATH (mode 0600, never overwritten) and print its public key."""
    try:
        key = generate_key_file(path)
    except FileExistsError:
        _bad(f"{path} already exists: a key is never overwritten (move it away first)")
    click.echo(f"private key written to {path} (0600): point governance.signing_key_file at it")
    click.echo(f"public key (governance.public_key): {key.text()}")
    click.echo(f"key id: {key.key_id}")


@keys_group.command("show")
@pass_dw
def keys_show(dw: DwContext) -> None:
    """Print the public key and key id receipts are verified with (never the private key)."""
    key = load_verify_key(dw.settings)
    click.echo(f"public key: {key.text()}\nkey id: {key.key_id}")


commands: list = [plans_group, approve, reject, approvals_group, stop, resume, receipts_group, keys_group]
