"""Who may approve what, and when an approval still counts. Pure rules; the ledger stores the facts.

An approval is a named person's decision on one plan id (the plan's content hash). It counts only
if that person is a listed approver of the plan's domain, is not the plan's proposer, is not an
agent or service identity, it has not expired, and it has not been used: it is consumed once, at
launch. An unanswered request expires and escalates; it never turns into a grant.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from fnmatch import fnmatch
from typing import Literal

RefusalCode = Literal[
    "no_approval", "unknown_approval", "approval_for_other_plan", "rejected", "self_approval",
    "not_an_approver", "agent_identity", "expired", "already_used", "read_only", "stopped",
    "autonomy_too_low", "unknown_plan", "plan_tampered", "not_in_plan", "no_open_request", "unknown_instance",
    "unsigned_plan", "chain_broken", "unverified_identity",
]

# Names that are machines, whatever the config lists: `*-bot`, `*[bot]`, `svc-*`, `system:*`.
SERVICE_ACCOUNT_PATTERNS = ("*-bot", "*[[]bot]", "*_bot", "svc-*", "svc_*", "system:*", "serviceaccount:*")

_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([smhdw])", re.IGNORECASE)
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


class Refusal(Exception):
    """A governance rule said no. `code` is stable (see RefusalCode); `reason` is for people."""

    def __init__(self, code: RefusalCode, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason


def parse_duration(text: str) -> timedelta:
    """`4h`, `90m`, `1h30m`, `2d`: a positive duration, or ValueError naming the bad text."""
    cleaned = text.strip()
    parts = _DURATION.findall(cleaned)
    if not parts or _DURATION.sub("", cleaned).strip():
        raise ValueError(f"duration {text!r} is not like 4h, 90m, 1h30m or 2d")
    seconds = sum(float(n) * _UNIT_SECONDS[u.lower()] for n, u in parts)
    if seconds <= 0:
        raise ValueError(f"duration {text!r} must be positive")
    return timedelta(seconds=seconds)


def is_agent_identity(name: str, agent_identities: Iterable[str]) -> bool:
    lowered = name.strip().lower()
    if lowered in {a.strip().lower() for a in agent_identities}:
        return True
    return any(fnmatch(lowered, pattern) for pattern in SERVICE_ACCOUNT_PATTERNS)


def check_decider(*, person: str, proposer: str, approvers: Iterable[str], agent_identities: Iterable[str],
                  domain: str, approving: bool = True) -> None:
    """Raise Refusal unless `person` may decide on a plan proposed by `proposer` in `domain`."""
    name = person.strip()
    if not name:
        raise Refusal("not_an_approver", "an approval needs a person's name (--as NAME)")
    if is_agent_identity(name, agent_identities):
        raise Refusal("agent_identity", f"{name!r} is an agent or service identity: only people approve plans")
    if approving and name.lower() == proposer.strip().lower():
        raise Refusal("self_approval", f"{name!r} proposed this plan and cannot approve it")
    listed = [a.strip().lower() for a in approvers]
    if name.lower() not in listed:
        who = ", ".join(approvers) or "nobody (add approvers to the domain in dw.yaml)"
        raise Refusal("not_an_approver", f"{name!r} is not an approver of domain {domain!r}: approvers are {who}")


@dataclass(frozen=True)
class ApprovalRecord:
    approval_id: str
    plan_id: str
    approver: str
    decision: Literal["approved", "rejected"]
    decided_at: datetime
    expires_at: datetime
    note: str = ""
    request_id: str | None = None
    used_at: datetime | None = None
    used_by: str | None = None  # the run that consumed it


def check_usable(approval: ApprovalRecord | None, *, approval_id: str, plan_id: str, now: datetime,
                 run_id: str | None = None) -> ApprovalRecord:
    """Raise Refusal unless the approval exists, is for this plan, granted, unexpired and unused.

    An approval already consumed by `run_id` stays usable for that same run's later steps.
    """
    if approval is None:
        raise Refusal("unknown_approval", f"approval {approval_id!r} is not in the ledger")
    if approval.plan_id != plan_id:
        raise Refusal("approval_for_other_plan",
                      f"approval {approval_id} was given for {approval.plan_id}, not {plan_id}")
    if approval.decision != "approved":
        raise Refusal("rejected", f"{approval.approver} rejected {plan_id} ({approval_id})")
    if approval.used_at is not None and (run_id is None or approval.used_by != run_id):
        raise Refusal("already_used",
                      f"approval {approval_id} was already used by run {approval.used_by} at {approval.used_at}")
    if approval.used_at is None and now >= approval.expires_at:
        raise Refusal("expired", f"approval {approval_id} expired at {approval.expires_at.isoformat()}")
    return approval


def escalation_contact(escalation: list[str], expired_before: int) -> str | None:
    """The next contact after `expired_before` earlier expiries of this plan's requests (last one repeats)."""
    if not escalation:
        return None
    return escalation[min(expired_before, len(escalation) - 1)]


def new_id(prefix: str) -> str:
    return f"{prefix}-{secrets.token_hex(8)}"


def approve_command(plan_id: str) -> str:
    return f'dw approve {plan_id} --as <your-name> --note "<why>"'


def request_message(*, plan_description: str, plan_id: str, domain: str, approvers: list[str],
                    expires_at: datetime, request_id: str) -> str:
    """The text posted to the domain's approver channel."""
    return "\n".join([
        f"Approval requested for a Data Workers plan in domain {domain} ({request_id}).",
        plan_description,
        (f"Approvers: {', '.join(approvers) or 'none listed'}. Expires {expires_at.isoformat()} "
        "(an unanswered request escalates; it never turns into an approval)."),
        f"To approve: {approve_command(plan_id)}",
        f"To reject:  dw reject {plan_id} --as <your-name> --note \"<why>\"",
    ])
