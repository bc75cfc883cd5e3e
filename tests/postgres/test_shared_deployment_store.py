"""A shared deployment keeps Data Workers' state in PostgreSQL: incidents (with intake dedupe and
lifecycle), the governance ledger and the signed receipt chain work there as on SQLite."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from dw_assets.config import load_settings
from dw_assets.core.plans import Plan, PlanStep, PlanUndo
from dw_assets.core.signals import Signal
from dw_assets.governance.ledger import GovernanceLedger
from dw_assets.governance.workflow import Governance
from dw_assets.incidents import IncidentStore
from dw_assets.incidents.store import IncidentStore as _Store  # noqa: F401  (tables registered)

pytestmark = pytest.mark.postgres
T0 = datetime(2026, 10, 1, 6, 0, tzinfo=UTC)


def test_incident_intake_and_lifecycle_on_postgres(pg_store):
    incidents = IncidentStore(pg_store)
    signal = Signal("check_failed", "finance.bronze.gl_entries", T0, "check:volume_vs_history", "58% of history",
                    dedupe_key="k1")
    first, created = incidents.intake(signal, window=timedelta(hours=24), owner="maria.chen", domain="finance")
    again, created_again = incidents.intake(signal, window=timedelta(hours=24), owner="maria.chen", domain="finance")
    assert created and not created_again and again.id == first.id
    incidents.transition(first.id, "diagnosed", actor="data-workers", note="split export")
    stored = incidents.get(first.id)
    assert stored.status == "diagnosed" and [t.to_status for t in stored.history][-1] == "diagnosed"
    assert [i.id for i in incidents.list(status="diagnosed")] == [first.id]


def test_approvals_and_receipts_on_postgres(pg_store, dw_home, monkeypatch):
    settings = load_settings()
    gov = Governance(settings, store=pg_store, clock=lambda: T0)
    plan = Plan(domain="finance", plan_class="reload_partition", proposer="data-workers", summary="rerun",
                steps=(PlanStep(order=1, airflow_instance="local", dag_id="gl_landing",
                                conf={"export_date": "2026-09-30"}),),
                undo=PlanUndo(description="rerun with the same conf"))
    plan_id = gov.propose(plan)
    gov.request_approval(plan_id)
    record = gov.approve(plan_id, "maria.chen", note="ok")
    assert record.plan_id == plan_id and gov.ledger.get_approval(record.approval_id).approver == "maria.chen"
    report = gov.receipts.verify()
    assert report.ok and report.count >= 3


def test_a_receipts_table_from_before_ed25519_is_widened(pg_store, dw_home):
    import sqlalchemy as sa

    from dw_assets.core.signing import SigningKey
    from dw_assets.governance.receipt_log import ReceiptLog

    with pg_store.engine.begin() as conn:  # the shape an earlier version created (HMAC: 64 hex)
        conn.execute(sa.text("CREATE TABLE dw_receipts (seq INTEGER PRIMARY KEY, at VARCHAR(40) NOT NULL, "
                             "action VARCHAR(60) NOT NULL, subject VARCHAR(200), record TEXT NOT NULL, "
                             "hash VARCHAR(64) NOT NULL, signature VARCHAR(64) NOT NULL)"))
        conn.execute(sa.text("CREATE TABLE dw_receipt_head (id INTEGER PRIMARY KEY, count INTEGER NOT NULL, "
                             "head_hash VARCHAR(64) NOT NULL, signature VARCHAR(64) NOT NULL)"))
    log = ReceiptLog(pg_store, SigningKey.generate())
    log.append("stop", now=T0, actor="maria.chen", body={"reason": "freeze"})
    assert log.verify().ok and len(log.get(1).signature) == 128


def test_a_claim_is_taken_once_on_postgres(pg_store):
    """The owner's draft message and a run's takeover of an L3/L4 tick dispatch are claimed by one
    atomic insert: the second claimer (another process's ledger) is told no and sees the outcome."""
    first, second = GovernanceLedger(pg_store), GovernanceLedger(pg_store)
    key = "owner_draft:plan-1:apr-1:1:local:gl_landing"
    assert first.claim(key, plan_id="plan-1", by="dw-tick-apr-1", now=T0)
    assert not second.claim(key, plan_id="plan-1", by="dagster-run-1", now=T0)
    assert second.get_claim(key).outcome is None  # claimed; the post's outcome not known yet
    first.claim_outcome(key, {"delivered": True, "via": "webhook", "detail": ""})
    claim = second.get_claim(key)
    assert claim.claimed_by == "dw-tick-apr-1" and claim.outcome == {"delivered": True, "via": "webhook", "detail": ""}
    assert second.claim("owner_draft:plan-1:apr-2:1:local:gl_landing", plan_id="plan-1", by="r", now=T0)
