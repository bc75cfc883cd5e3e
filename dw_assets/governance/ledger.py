"""The approval ledger: plans, approval requests, decisions, refusals and the org-wide stop flag.

Persisted on the shared state store (`dw_assets.store.metadata`: SQLite by default, PostgreSQL for
a shared deployment). Times are stored as UTC ISO-8601 text so they compare the same way in both.
This module stores facts and enforces only what must be atomic (a request leaves `open` once, an
approval is consumed once); the rules live in `dw_assets.core.approvals` and `governance.gate`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from dw_assets.core.approvals import ApprovalRecord
from dw_assets.core.autonomy import ClassRecord
from dw_assets.core.plans import Plan, PlanError, load_plan
from dw_assets.core.receipts import canonical_json
from dw_assets.store import Store, metadata

plans = sa.Table(
    "dw_gov_plans", metadata,
    sa.Column("plan_id", sa.String(40), primary_key=True),
    sa.Column("content", sa.Text, nullable=False),
    sa.Column("domain", sa.String(200), nullable=False),
    sa.Column("plan_class", sa.String(200), nullable=False),
    sa.Column("incident_id", sa.String(200)),
    sa.Column("proposer", sa.String(200), nullable=False),
    sa.Column("status", sa.String(40), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
)

requests = sa.Table(
    "dw_gov_requests", metadata,
    sa.Column("request_id", sa.String(40), primary_key=True),
    sa.Column("plan_id", sa.String(40), nullable=False, index=True),
    sa.Column("domain", sa.String(200), nullable=False),
    sa.Column("channel", sa.String(400)),
    sa.Column("requested_by", sa.String(200)),
    sa.Column("requested_at", sa.String(40), nullable=False),
    sa.Column("expires_at", sa.String(40), nullable=False),
    sa.Column("status", sa.String(20), nullable=False),  # open | approved | rejected | expired
    sa.Column("escalated_to", sa.String(200)),
    sa.Column("delivery", sa.Text),
)

approvals = sa.Table(
    "dw_gov_approvals", metadata,
    sa.Column("approval_id", sa.String(40), primary_key=True),
    sa.Column("plan_id", sa.String(40), nullable=False, index=True),
    sa.Column("request_id", sa.String(40)),
    sa.Column("approver", sa.String(200), nullable=False),
    sa.Column("decision", sa.String(20), nullable=False),
    sa.Column("note", sa.Text, nullable=False, default=""),
    sa.Column("decided_at", sa.String(40), nullable=False),
    sa.Column("expires_at", sa.String(40), nullable=False),
    sa.Column("used_at", sa.String(40)),
    sa.Column("used_by", sa.String(200)),
)

refusals = sa.Table(
    "dw_gov_refusals", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.String(40), nullable=False),
    sa.Column("code", sa.String(40), nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("plan_id", sa.String(40)),
    sa.Column("approval_id", sa.String(200)),
    sa.Column("actor", sa.String(200)),
    sa.Column("instance", sa.String(200)),
    sa.Column("dag_id", sa.String(250)),
    sa.Column("conf", sa.Text),
)

flags = sa.Table(
    "dw_gov_flags", metadata,
    sa.Column("name", sa.String(100), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
    sa.Column("updated_by", sa.String(200)),
    sa.Column("reason", sa.Text),
)

# Things that must happen once however often a tick or a run is retried: the owner's draft message
# (claimed before it is posted), a run taking over an autonomous plan's tick dispatch. A row per
# key; the primary key makes the claim atomic.
claims = sa.Table(
    "dw_gov_claims", metadata,
    sa.Column("claim_key", sa.String(400), primary_key=True),
    sa.Column("plan_id", sa.String(40), index=True),
    sa.Column("claimed_at", sa.String(40), nullable=False),
    sa.Column("claimed_by", sa.String(200)),
    sa.Column("outcome", sa.Text),  # JSON, once known (a message's delivery); NULL: claimed, outcome unknown
)


@dataclass(frozen=True)
class Claim:
    key: str
    plan_id: str | None
    claimed_at: str
    claimed_by: str | None
    outcome: dict[str, Any] | None


FAILED_PLAN_STATUSES = ("rerun_failed", "verification_failed", "undone")


def iso(dt: datetime) -> str:
    if dt.tzinfo is None:
        raise ValueError(f"timestamp {dt!r} has no timezone: use timezone-aware datetimes")
    return dt.astimezone(UTC).isoformat(timespec="microseconds")


def from_iso(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


@dataclass(frozen=True)
class StopState:
    on: bool
    by: str | None = None
    reason: str | None = None
    at: str | None = None


class GovernanceLedger:
    def __init__(self, store: Store):
        self.store = store
        store.ensure_schema()

    # plans

    def save_plan(self, plan: Plan, *, now: datetime, status: str = "proposed") -> bool:
        """Record a plan under its content hash; False when that exact plan was already recorded."""
        plan_id = plan.id
        with self.store.engine.begin() as conn:
            if conn.execute(sa.select(plans.c.plan_id).where(plans.c.plan_id == plan_id)).first():
                return False
            conn.execute(plans.insert().values(
                plan_id=plan_id, content=canonical_json(plan.content()), domain=plan.domain,
                plan_class=plan.plan_class, incident_id=plan.incident_id, proposer=plan.proposer,
                status=status, created_at=iso(now), updated_at=iso(now)))
        return True

    def get_plan(self, plan_id: str) -> Plan:
        """The stored plan, rehashed: PlanTampered if its content changed, PlanError if unknown."""
        row = self.plan_row(plan_id)
        if row is None:
            raise PlanError(f"plan {plan_id!r} is not in the ledger")
        return load_plan(row["content"], expected_id=plan_id)

    def plan_row(self, plan_id: str) -> dict[str, Any] | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(plans).where(plans.c.plan_id == plan_id)).mappings().first()
        return dict(row) if row else None

    def list_plans(self, status: str | None = None) -> list[dict[str, Any]]:
        query = sa.select(plans).order_by(plans.c.created_at)
        if status:
            query = query.where(plans.c.status == status)
        with self.store.engine.connect() as conn:
            return [dict(r) for r in conn.execute(query).mappings()]

    def set_plan_status(self, plan_id: str, status: str, *, now: datetime) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(plans.update().where(plans.c.plan_id == plan_id).values(status=status, updated_at=iso(now)))

    def class_record(self, domain: str, plan_class: str) -> ClassRecord:
        query = (sa.select(plans.c.status, sa.func.count()).where(plans.c.domain == domain)
                 .where(plans.c.plan_class == plan_class).group_by(plans.c.status))
        with self.store.engine.connect() as conn:
            counts: dict[str, int] = {row[0]: row[1] for row in conn.execute(query).tuples()}
        return ClassRecord(verified=counts.get("verified", 0),
                           failed=sum(counts.get(s, 0) for s in FAILED_PLAN_STATUSES))

    # approval requests

    def add_request(self, row: dict[str, Any]) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(requests.insert().values(**row))

    def set_request_delivery(self, request_id: str, delivery: dict[str, Any]) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(requests.update().where(requests.c.request_id == request_id)
                         .values(delivery=canonical_json(delivery)))

    def open_request_for(self, plan_id: str) -> dict[str, Any] | None:
        query = (sa.select(requests).where(requests.c.plan_id == plan_id).where(requests.c.status == "open")
                 .order_by(requests.c.requested_at.desc()))
        with self.store.engine.connect() as conn:
            row = conn.execute(query).mappings().first()
        return dict(row) if row else None

    def list_requests(self, status: str | None = None) -> list[dict[str, Any]]:
        query = sa.select(requests).order_by(requests.c.requested_at)
        if status:
            query = query.where(requests.c.status == status)
        with self.store.engine.connect() as conn:
            return [dict(r) for r in conn.execute(query).mappings()]

    def due_requests(self, now: datetime) -> list[dict[str, Any]]:
        query = sa.select(requests).where(requests.c.status == "open").where(requests.c.expires_at <= iso(now))
        with self.store.engine.connect() as conn:
            return [dict(r) for r in conn.execute(query).mappings()]

    def close_request(self, request_id: str, status: str, *, escalated_to: str | None = None) -> bool:
        """Move a request out of `open` exactly once (a concurrent approve and expire cannot both win)."""
        with self.store.engine.begin() as conn:
            result = conn.execute(requests.update().where(requests.c.request_id == request_id)
                                  .where(requests.c.status == "open")
                                  .values(status=status, escalated_to=escalated_to))
        return result.rowcount == 1

    def count_expired_requests(self, plan_id: str) -> int:
        query = (sa.select(sa.func.count()).select_from(requests).where(requests.c.plan_id == plan_id)
                 .where(requests.c.status == "expired"))
        with self.store.engine.connect() as conn:
            return int(conn.execute(query).scalar() or 0)

    # approvals

    def add_decision(self, record: ApprovalRecord) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(approvals.insert().values(
                approval_id=record.approval_id, plan_id=record.plan_id, request_id=record.request_id,
                approver=record.approver, decision=record.decision, note=record.note,
                decided_at=iso(record.decided_at), expires_at=iso(record.expires_at)))

    def get_approval(self, approval_id: str) -> ApprovalRecord | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(approvals).where(approvals.c.approval_id == approval_id)).mappings().first()
        return _approval(row) if row else None

    def list_approvals(self, plan_id: str | None = None) -> list[ApprovalRecord]:
        query = sa.select(approvals).order_by(approvals.c.decided_at)
        if plan_id:
            query = query.where(approvals.c.plan_id == plan_id)
        with self.store.engine.connect() as conn:
            return [_approval(r) for r in conn.execute(query).mappings()]

    def launchable_approvals(self, now: datetime) -> list[ApprovalRecord]:
        query = (sa.select(approvals).where(approvals.c.decision == "approved").where(approvals.c.used_at.is_(None))
                 .where(approvals.c.expires_at > iso(now)).order_by(approvals.c.decided_at))
        with self.store.engine.connect() as conn:
            return [_approval(r) for r in conn.execute(query).mappings()]

    def consume(self, approval_id: str, *, run_id: str, now: datetime) -> bool:
        """Mark the approval used by `run_id`; False if anything used it first (one atomic UPDATE)."""
        with self.store.engine.begin() as conn:
            result = conn.execute(approvals.update().where(approvals.c.approval_id == approval_id)
                                  .where(approvals.c.used_at.is_(None))
                                  .values(used_at=iso(now), used_by=run_id))
        return result.rowcount == 1

    def adopt(self, approval_id: str, *, dispatch_id: str, run_id: str) -> bool:
        """Hand the approval's use from the sensor tick's `dispatch_id` to the run `run_id` that
        completes it; False if another run took it first (one atomic UPDATE)."""
        with self.store.engine.begin() as conn:
            result = conn.execute(approvals.update().where(approvals.c.approval_id == approval_id)
                                  .where(approvals.c.used_by == dispatch_id).values(used_by=run_id))
        return result.rowcount == 1

    def used_by_prefix(self, prefix: str) -> list[ApprovalRecord]:
        """Approvals whose use is held by a `prefix…` id (the sensor tick's dispatches no run took over)."""
        query = (sa.select(approvals).where(approvals.c.used_at.is_not(None))
                 .where(approvals.c.used_by.startswith(prefix, autoescape=True)).order_by(approvals.c.decided_at))
        with self.store.engine.connect() as conn:
            return [_approval(r) for r in conn.execute(query).mappings()]

    # claims

    def claim(self, key: str, *, plan_id: str | None, by: str, now: datetime) -> bool:
        """Claim the one doing of `key`; False if it was claimed before (one atomic INSERT)."""
        try:
            with self.store.engine.begin() as conn:
                conn.execute(claims.insert().values(claim_key=key, plan_id=plan_id, claimed_at=iso(now),
                                                    claimed_by=by))
        except sa.exc.IntegrityError:
            return False
        return True

    def claim_outcome(self, key: str, outcome: dict[str, Any]) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(claims.update().where(claims.c.claim_key == key).values(outcome=canonical_json(outcome)))

    def get_claim(self, key: str) -> Claim | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(claims).where(claims.c.claim_key == key)).mappings().first()
        if row is None:
            return None
        return Claim(row["claim_key"], row["plan_id"], row["claimed_at"], row["claimed_by"],
                     json.loads(row["outcome"]) if row["outcome"] else None)

    # refusals

    def record_refusal(self, *, code: str, reason: str, now: datetime, plan_id: str | None = None,
                       approval_id: str | None = None, actor: str | None = None, instance: str | None = None,
                       dag_id: str | None = None, conf: dict[str, Any] | None = None) -> None:
        with self.store.engine.begin() as conn:
            conn.execute(refusals.insert().values(
                at=iso(now), code=code, reason=reason, plan_id=plan_id, approval_id=approval_id, actor=actor,
                instance=instance, dag_id=dag_id, conf=canonical_json(conf) if conf is not None else None))

    def count_unapproved_refusals(self, plan_id: str) -> int:
        """Refusals recorded for a plan's launch without approval (an L3/L4 plan's)."""
        query = (sa.select(sa.func.count()).select_from(refusals).where(refusals.c.plan_id == plan_id)
                 .where(refusals.c.approval_id.is_(None)))
        with self.store.engine.connect() as conn:
            return int(conn.execute(query).scalar() or 0)

    def count_refusals(self, approval_id: str, codes: tuple[str, ...] | None = None) -> int:
        """Refusals recorded for an approval: those with one of `codes`, or all of them."""
        query = sa.select(sa.func.count()).select_from(refusals).where(refusals.c.approval_id == approval_id)
        if codes is not None:
            query = query.where(refusals.c.code.in_(codes))
        with self.store.engine.connect() as conn:
            return int(conn.execute(query).scalar() or 0)

    def list_refusals(self, plan_id: str | None = None) -> list[dict[str, Any]]:
        query = sa.select(refusals).order_by(refusals.c.id)
        if plan_id:
            query = query.where(refusals.c.plan_id == plan_id)
        with self.store.engine.connect() as conn:
            return [dict(r) for r in conn.execute(query).mappings()]

    # org-wide stop

    def set_stop(self, on: bool, *, by: str | None, reason: str | None, now: datetime) -> None:
        values = {"value": json.dumps(on), "updated_at": iso(now), "updated_by": by, "reason": reason}
        with self.store.engine.begin() as conn:
            if conn.execute(flags.update().where(flags.c.name == "stop").values(**values)).rowcount == 0:
                conn.execute(flags.insert().values(name="stop", **values))

    def stop_state(self) -> StopState:
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(flags).where(flags.c.name == "stop")).mappings().first()
        if row is None:
            return StopState(on=False)
        return StopState(on=bool(json.loads(row["value"])), by=row["updated_by"], reason=row["reason"],
                         at=row["updated_at"])


def _approval(row: Any) -> ApprovalRecord:
    return ApprovalRecord(
        approval_id=row["approval_id"], plan_id=row["plan_id"], approver=row["approver"],
        decision=row["decision"], decided_at=from_iso(row["decided_at"]),  # type: ignore[arg-type]
        expires_at=from_iso(row["expires_at"]), note=row["note"] or "",  # type: ignore[arg-type]
        request_id=row["request_id"], used_at=from_iso(row["used_at"]), used_by=row["used_by"])
