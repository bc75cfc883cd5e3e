"""Governance actions: propose, request approval, approve/reject, expire and escalate, stop/resume.

Each action applies the pure rules (`core.approvals`, `core.autonomy`), writes the ledger and
appends a receipt, so every decision, including every refusal, is on record twice. The CLI, the
sensor, the rerun job and the MCP tools all go through `Governance`, never the tables directly.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Literal, NoReturn

from dw_assets.config import ConfigError, DomainConfig, Settings
from dw_assets.connectors.slack import Delivery, SlackError, SlackNotifier, approval_blocks
from dw_assets.core.approvals import (
    ApprovalRecord,
    Refusal,
    approve_command,
    check_decider,
    escalation_contact,
    new_id,
    parse_duration,
    request_message,
)
from dw_assets.core.autonomy import AutonomyLevel, may_propose
from dw_assets.core.plans import Plan, PlanError, PlanTampered
from dw_assets.core.receipts import Receipt
from dw_assets.governance.authority import ASSERTED_CLI, signed_plan
from dw_assets.governance.incident_link import advance_incident
from dw_assets.governance.ledger import GovernanceLedger, from_iso, iso
from dw_assets.governance.receipt_log import ReceiptLog
from dw_assets.store import Store, open_state


class Governance:
    """Settings + ledger + receipts + Slack + clock: what every governance action needs."""

    def __init__(self, settings: Settings, *, store: Store | None = None, notifier: SlackNotifier | None = None,
                 clock: Callable[[], datetime] | None = None):
        self.settings = settings
        self.store = store or open_state(settings)
        self.ledger = GovernanceLedger(self.store)
        self.receipts = ReceiptLog.from_settings(self.store, settings)
        self.notifier = notifier or SlackNotifier()
        self._clock = clock or (lambda: datetime.now(UTC))

    def now(self) -> datetime:
        return self._clock()

    def domain(self, name: str) -> DomainConfig | None:
        return self.settings.domain_named(name)

    def level(self, domain: str) -> AutonomyLevel:
        return self.settings.autonomy_of(self.settings.domain_named(domain))

    def record(self, action: str, *, subject: str | None, actor: str | None, body: dict[str, Any]) -> Receipt:
        """Append a receipt for an action taken elsewhere (incident opened, run observed, undo...)."""
        return self.receipts.append(action, now=self.now(), subject=subject, actor=actor, body=body)

    def move_incident(self, incident_id: str | None, target: str, *, actor: str, note: str = "") -> str:
        return advance_incident(self.store, incident_id, target, actor=actor, note=note)

    def propose(self, plan: Plan) -> str:
        """Record a plan (idempotent by content hash) and its receipt; returns the plan id."""
        # a row put there first by someone else is not a proposal: the signed record is what counts
        if self.ledger.save_plan(plan, now=self.now()) or signed_plan(self.receipts, plan.id) is None:
            self.record("plan_proposed", subject=plan.id, actor=plan.proposer, body=plan_receipt_body(plan))
        return plan.id

    def request_approval(self, plan_id: str, *, channel: str | None = None,
                         requested_by: str = "data-workers") -> dict[str, Any]:
        """Open a request on the plan and post it to the domain's approver channel."""
        now = self.now()
        plan = self._plan(plan_id, actor=requested_by)
        domain = self._domain_or_refuse(plan, actor=requested_by)
        level = self.level(plan.domain)
        if not may_propose(level):
            self._refuse(Refusal("autonomy_too_low", f"domain {plan.domain!r} is at {level.name}: plans are recorded, "
                                 "never dispatched, so no approval is requested (raise it to L2)"),
                         plan_id=plan_id, actor=requested_by)
        existing = self.ledger.open_request_for(plan_id)
        if existing and from_iso(existing["expires_at"]) > now:  # type: ignore[operator]
            return {**existing, "reused": True, "approve_command": approve_command(plan_id)}
        if existing:  # overdue but not yet swept: it expires (and escalates) before a new one opens
            self._expire(existing, now)
        expires_at = now + parse_duration(self.settings.governance.approval_ttl)
        request_id = new_id("req")
        row = {"request_id": request_id, "plan_id": plan_id, "domain": plan.domain, "channel": channel,
               "requested_by": requested_by, "requested_at": iso(now), "expires_at": iso(expires_at), "status": "open"}
        self.ledger.add_request(row)
        self.ledger.set_plan_status(plan_id, "approval_requested", now=now)
        text = request_message(plan_description=plan.describe(), plan_id=plan_id, domain=plan.domain,
                               approvers=list(domain.approvers), expires_at=expires_at, request_id=request_id)
        delivery = self.notify(domain, text, channel, blocks=approval_blocks(text, plan_id))
        self.ledger.set_request_delivery(request_id, delivery.as_dict())
        self.record("approval_requested", subject=plan_id, actor=requested_by, body={
            "request_id": request_id, "domain": plan.domain, "approvers": list(domain.approvers),
            "expires_at": iso(expires_at), "channel": channel, "delivery": delivery.as_dict(),
            "approve_command": approve_command(plan_id)})
        self.move_incident(plan.incident_id, "awaiting_approval", actor=requested_by,
                           note=f"approval requested for {plan_id} ({request_id})")
        return {**row, "delivery": delivery.as_dict(), "approve_command": approve_command(plan_id), "message": text}

    def approve(self, plan_id: str, person: str, note: str = "", *, identity: str = ASSERTED_CLI) -> ApprovalRecord:
        """Approve as `person`; `identity` says how we know who that is (a verified Slack user, or --as)."""
        return self._decide(plan_id, person, "approved", note, identity)

    def reject(self, plan_id: str, person: str, note: str = "", *, identity: str = ASSERTED_CLI) -> ApprovalRecord:
        return self._decide(plan_id, person, "rejected", note, identity)

    def _decide(self, plan_id: str, person: str, decision: Literal["approved", "rejected"], note: str,
                identity: str) -> ApprovalRecord:
        now = self.now()
        plan = self._plan(plan_id, actor=person)
        domain = self._domain_or_refuse(plan, actor=person)
        try:
            check_decider(person=person, proposer=plan.proposer, approvers=domain.approvers,
                          agent_identities=self.settings.governance.agent_identities, domain=plan.domain,
                          approving=decision == "approved")
        except Refusal as refusal:
            self._refuse(refusal, plan_id=plan_id, actor=person)
        request = self._open_request_or_refuse(plan_id, person, now)
        if not self.ledger.close_request(request["request_id"], decision):
            self._refuse(Refusal("no_open_request", f"request {request['request_id']} was closed a moment ago"),
                         plan_id=plan_id, actor=person)
        ttl = parse_duration(self.settings.governance.approval_ttl)
        record = ApprovalRecord(approval_id=new_id("apr"), plan_id=plan_id, approver=person.strip(), decision=decision,
                                decided_at=now, expires_at=now + ttl if decision == "approved" else now, note=note,
                                request_id=request["request_id"])
        self.ledger.add_decision(record)
        self.ledger.set_plan_status(plan_id, decision, now=now)
        self.record(f"approval_{decision}", subject=plan_id, actor=record.approver, body={
            "approval_id": record.approval_id, "request_id": record.request_id, "approver": record.approver,
            "note": note, "plan_hash": plan_id, "expires_at": iso(record.expires_at), "identity": identity,
            "proposer": plan.proposer})
        if decision == "rejected":
            self.move_incident(plan.incident_id, "diagnosed", actor=record.approver,
                               note=f"{plan_id} rejected: {note}".rstrip(": "))
        return record

    def _open_request_or_refuse(self, plan_id: str, person: str, now: datetime) -> dict[str, Any]:
        request = self.ledger.open_request_for(plan_id)
        if request is None:
            self._refuse(Refusal("no_open_request", f"{plan_id} has no open approval request (an expired one never "
                                 f"becomes a grant): request one with `dw plans request {plan_id}`"),
                         plan_id=plan_id, actor=person)
        if now >= from_iso(request["expires_at"]):  # type: ignore[operator]
            self._expire(request, now)
            self._refuse(Refusal("expired", f"the approval request for {plan_id} expired at {request['expires_at']}; "
                                 "it was escalated and cannot be approved: request a new one"),
                         plan_id=plan_id, actor=person)
        return request

    def expire_due(self) -> list[dict[str, Any]]:
        """Expire every unanswered request past its deadline and escalate it; never grants anything."""
        now = self.now()
        return [done for request in self.ledger.due_requests(now) if (done := self._expire(request, now))]

    def _expire(self, request: dict[str, Any], now: datetime) -> dict[str, Any] | None:
        plan_id, domain = request["plan_id"], self.domain(request["domain"])
        contact = escalation_contact(list(domain.escalation) if domain else [],
                                     self.ledger.count_expired_requests(plan_id))
        if not self.ledger.close_request(request["request_id"], "expired", escalated_to=contact):
            return None  # someone decided or expired it first
        self.ledger.set_plan_status(plan_id, "expired", now=now)
        text = (f"Approval request {request['request_id']} for {plan_id} (domain {request['domain']}) expired "
                f"unanswered at {request['expires_at']}. Nothing was run. Escalated to {contact or 'nobody listed'}: "
                f"to go ahead, request it again with `dw plans request {plan_id}`.")
        delivery = self.notify(domain, text, request.get("channel")) if domain else Delivery(False, "none", "no domain")
        self.record("approval_expired", subject=plan_id, actor="data-workers", body={
            "request_id": request["request_id"], "expired_at": request["expires_at"], "escalated_to": contact,
            "delivery": delivery.as_dict()})
        plan_row = self.ledger.plan_row(plan_id)
        self.move_incident(plan_row["incident_id"] if plan_row else None, "escalated", actor="data-workers",
                           note=f"approval request for {plan_id} expired unanswered; escalated to {contact}")
        return {**request, "status": "expired", "escalated_to": contact, "delivery": delivery.as_dict()}

    def stop(self, *, by: str, reason: str | None = None) -> None:
        self.ledger.set_stop(True, by=by, reason=reason, now=self.now())
        self.record("stop", subject=None, actor=by, body={"reason": reason, "effect": "all dispatch halted"})

    def resume(self, *, by: str, reason: str | None = None) -> None:
        self.ledger.set_stop(False, by=by, reason=reason, now=self.now())
        self.record("resume", subject=None, actor=by, body={"reason": reason,
                                                            "config_stop": self.settings.governance.stop})

    def _plan(self, plan_id: str, *, actor: str) -> Plan:
        try:
            return self.ledger.get_plan(plan_id)
        except PlanTampered as exc:
            self._refuse(Refusal("plan_tampered", str(exc)), plan_id=plan_id, actor=actor)
        except PlanError as exc:
            self._refuse(Refusal("unknown_plan", str(exc)), plan_id=plan_id, actor=actor)

    def _domain_or_refuse(self, plan: Plan, *, actor: str) -> DomainConfig:
        domain = self.domain(plan.domain)
        if domain is None:
            self._refuse(Refusal("not_an_approver", f"domain {plan.domain!r} is not configured: nobody may approve "
                                 "its plans (add it under domains: in dw.yaml)"), plan_id=plan.id, actor=actor)
        return domain

    def _refuse(self, refusal: Refusal, *, plan_id: str | None, actor: str) -> NoReturn:
        now = self.now()
        self.ledger.record_refusal(code=refusal.code, reason=refusal.reason, now=now, plan_id=plan_id, actor=actor)
        self.receipts.append("refusal", now=now, subject=plan_id, actor=actor,
                             body={"code": refusal.code, "reason": refusal.reason})
        raise refusal

    def notify(self, domain: DomainConfig, text: str, channel: str | None = None, *,
               blocks: list[dict[str, Any]] | None = None, notifier: Any = None) -> Delivery:
        """Post to the domain's Slack; `notifier`: another notifier than the governance's (another deadline)."""
        try:
            return (notifier or self.notifier).post(domain.slack, text, channel=channel, blocks=blocks)
        except (SlackError, ConfigError) as exc:  # the ledger holds the request either way: say it was not sent
            return Delivery(False, "error", str(exc))


def plan_receipt_body(plan: Plan) -> dict[str, Any]:
    return {
        "plan_hash": plan.id, "proposer": plan.proposer, "trigger": plan.trigger, "cause": plan.cause, "incident_id": plan.incident_id, "domain": plan.domain,
        "plan_class": plan.plan_class, "summary": plan.summary,
        "path": [{"order": s.order, "instance": s.airflow_instance, "dag_id": s.dag_id, "conf": s.conf,
                  "wait_for": [w.dag_id for w in s.wait_for]} for s in plan.ordered_steps()],
        "diff": [d.model_dump() for d in plan.diffs],
        "undo": plan.undo.model_dump() if plan.undo else None,
        "blast_radius": plan.blast_radius,
        "verification": [v.model_dump() for v in plan.verification],
    }
