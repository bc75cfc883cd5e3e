"""What the signed receipt log says about plans, approvals, their use and trust history.

The ledger's rows are an index for listing and for the atomic "used once" update; the authority
the gate reads is here: only records signed with the deployment's key count. A row inserted or
edited by someone who can write the database (an approval, a reset `used_at`, a pushed
`expires_at`, a plan with a conf of their choosing, `verified` plan statuses) has no signed record
behind it, so it authorizes nothing; deleting the signed record of a use breaks the chain, which
the gate checks from the approval onwards (`ReceiptLog.verify_from`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from dw_assets.core.approvals import ApprovalRecord
from dw_assets.core.autonomy import ClassRecord
from dw_assets.core.receipts import Receipt
from dw_assets.governance.receipt_log import ReceiptLog

DECISION_ACTIONS = ("approval_approved", "approval_rejected")
USE_ACTION = "dispatch_authorized"  # its body names the approval it consumed and the run
# a rerun run taking over the dispatch the approvals sensor's tick made under the approval
ADOPT_ACTION = "dispatch_adopted"
DISPATCH_ACTIONS = ("rerun_dispatched", "rerun_drafted")  # a step written to Airflow / drafted for its owner
FAILED_OUTCOMES = ("rerun_failed", "undo", "undone")
ASSERTED_CLI = "asserted (cli)"


@dataclass(frozen=True)
class SignedApproval:
    record: ApprovalRecord
    receipt: Receipt  # the signed decision
    identity: str  # "verified (slack U…)" | "asserted (cli)"


def _body(receipt: Receipt) -> dict:
    body = receipt.record.get("body")
    return body if isinstance(body, dict) else {}


def signed_plan(receipts: ReceiptLog, plan_id: str) -> Receipt | None:
    """The signed `plan_proposed` record of this plan hash, if the deployment ever proposed it."""
    for receipt in receipts.iter_receipts(action="plan_proposed", subject=plan_id):
        if receipt.record.get("subject") == plan_id and receipts.signed_one(receipt):
            return receipt
    return None


def signed_approval(receipts: ReceiptLog, approval_id: str) -> SignedApproval | None:
    """The signed decision with this id, with its use (if any) from the signed log."""
    decision: Receipt | None = None
    for action in DECISION_ACTIONS:
        for receipt in receipts.iter_receipts(action=action):
            if _body(receipt).get("approval_id") == approval_id and receipts.signed_one(receipt):
                decision = receipt
                break
        if decision:
            break
    if decision is None:
        return None
    body = _body(decision)
    used_at, used_by = None, None
    for receipt in receipts.iter_receipts(action=USE_ACTION, subject=decision.record.get("subject"),
                                          since_seq=decision.seq):
        if _body(receipt).get("approval_id") == approval_id and receipts.signed_one(receipt):
            used_at, used_by = datetime.fromisoformat(receipt.record["at"]), _body(receipt).get("run_id")
            break
    decided_at = datetime.fromisoformat(decision.record["at"])
    expires = body.get("expires_at")
    record = ApprovalRecord(
        approval_id=approval_id, plan_id=str(body.get("plan_hash") or decision.record.get("subject")),
        approver=str(body.get("approver") or decision.record.get("actor") or ""),
        decision="approved" if decision.action == "approval_approved" else "rejected",
        decided_at=decided_at, expires_at=datetime.fromisoformat(expires) if expires else decided_at,
        note=str(body.get("note") or ""), request_id=body.get("request_id"), used_at=used_at, used_by=used_by)
    return SignedApproval(record, decision, str(body.get("identity") or ASSERTED_CLI))


def signed_adoption(receipts: ReceiptLog, approval_id: str) -> Receipt | None:
    """The signed record of the run that took over the tick's dispatch under this approval, if any."""
    for receipt in receipts.iter_receipts(action=ADOPT_ACTION):
        if _body(receipt).get("approval_id") == approval_id and receipts.signed_one(receipt):
            return receipt
    return None


def signed_adoption_of(receipts: ReceiptLog, dispatch_id: str) -> Receipt | None:
    """The signed record of the run that took over the tick's dispatch `dispatch_id`, if any."""
    for receipt in receipts.iter_receipts(action=ADOPT_ACTION):
        if _body(receipt).get("dispatch_id") == dispatch_id and receipts.signed_one(receipt):
            return receipt
    return None


def signed_use(receipts: ReceiptLog, plan_id: str, run_id: str) -> Receipt | None:
    """The signed launch check (`dispatch_authorized`) of this plan made under `run_id`, if any: for an
    L3/L4 plan that needs no approval, the tick's dispatch is known by this record alone."""
    for receipt in receipts.iter_receipts(action=USE_ACTION, subject=plan_id):
        if _body(receipt).get("run_id") == run_id and receipts.signed_one(receipt):
            return receipt
    return None


def signed_step_dispatch(receipts: ReceiptLog, plan_id: str, run_id: str, *, order: int, instance: str,
                         dag_id: str) -> Receipt | None:
    """The signed record that `run_id` already triggered or drafted this step of the plan: an unsigned
    row claiming so is ignored (the step is then dispatched again, which a trigger under its fixed
    Airflow run id makes harmless)."""
    for receipt in receipts.iter_receipts(subject=plan_id):
        body = _body(receipt)
        if (receipt.action in DISPATCH_ACTIONS and body.get("run_id") == run_id and body.get("order") == order
                and body.get("path") == {"instance": instance, "dag_id": dag_id} and receipts.signed_one(receipt)):
            return receipt
    return None


def signed_class_record(receipts: ReceiptLog, domain: str, plan_class: str) -> tuple[ClassRecord, int | None]:
    """Trust history of a plan class in a domain from signed outcomes only, and where it starts (seq).

    Each plan counts once, by its latest signed outcome: a passed `verification` is verified; a failed
    one, a `rerun_failed` or an undo is failed.
    """
    plans: dict[str, int] = {}
    for receipt in receipts.iter_receipts(action="plan_proposed"):
        body = _body(receipt)
        if body.get("domain") == domain and body.get("plan_class") == plan_class and receipts.signed_one(receipt):
            plans.setdefault(str(receipt.record.get("subject")), receipt.seq)
    if not plans:
        return ClassRecord(), None
    start = min(plans.values())
    latest: dict[str, bool] = {}
    for receipt in receipts.iter_receipts(since_seq=start):
        subject = receipt.record.get("subject")
        if subject not in plans or receipt.action not in ("verification", *FAILED_OUTCOMES):
            continue
        if not receipts.signed_one(receipt):
            continue
        latest[subject] = receipt.action == "verification" and bool(_body(receipt).get("passed"))
    verified = sum(1 for ok in latest.values() if ok)
    return ClassRecord(verified=verified, failed=len(latest) - verified), start
