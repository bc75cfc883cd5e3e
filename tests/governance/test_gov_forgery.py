"""An insider who can write the state database, but holds no signing key, cannot make anything run.

Each forgery (an approval row, a reset `used_at`, a pushed `expires_at`, a plan row with a conf of
their choosing, `verified` trust-history rows, deleted, truncated or rewound receipts, a history
re-signed with another key) ends with zero Airflow requests and a named refusal or a failed
`verify`, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import base64
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from cryptography.hazmat.primitives import serialization
from gov_fakes import CountingAirflow, make_settings, night1_plan

from dw_assets.config import ConfigError
from dw_assets.core.approvals import Refusal
from dw_assets.core.receipts import canonical_json
from dw_assets.core.signing import SigningKey
from dw_assets.governance.dispatch import PlanRun
from dw_assets.governance.keys import load_signing_key
from dw_assets.governance.launches import approvals_tick
from dw_assets.governance.receipt_log import ReceiptLog
from dw_assets.governance.workflow import Governance, plan_receipt_body
from dw_assets.store import Store


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request, tmp_path: Path) -> Store:
    if request.param == "sqlite":
        return Store(f"sqlite:///{tmp_path}/state.db")
    return request.getfixturevalue("pg_store")


@pytest.fixture
def gov(tmp_path: Path, store: Store, clock) -> Governance:
    return Governance(make_settings(tmp_path), store=store, clock=clock)


def sql(gov: Governance, statement: str, **params) -> None:
    with gov.store.engine.begin() as conn:
        conn.execute(sa.text(statement), params)


def attempt(gov: Governance, plan_id: str, approval_id: str | None, code: str, run_id: str = "run-evil") -> Refusal:
    """Launch as the rerun job does; it must be refused with `code` before any Airflow request."""
    airflow = CountingAirflow(clock=gov._clock, owner_triggers=True)
    runner = PlanRun(gov=gov, client_for=lambda _name: airflow, plan_id=plan_id, approval_id=approval_id,
                     run_id=run_id, poll_interval_s=5, wait_timeout_s=600, sleep=gov._clock.advance)
    with pytest.raises(Refusal) as info:
        runner.authorize()
        runner.run_all()
    assert info.value.code == code, info.value.reason
    assert airflow.requests == [], "a forged launch must not reach Airflow at all"
    return info.value


def run_legitimately(gov: Governance, plan_id: str, approval_id: str, run_id: str = "run-1") -> CountingAirflow:
    airflow = CountingAirflow(clock=gov._clock, downstream={"gl_landing": ["month_end_close"]}, owner_triggers=True)
    airflow.expect_owner_run("gl_landing", {"export_date": "2026-09-30"})
    runner = PlanRun(gov=gov, client_for=lambda _name: airflow, plan_id=plan_id, approval_id=approval_id,
                     run_id=run_id, poll_interval_s=5, wait_timeout_s=600, sleep=gov._clock.advance)
    runner.authorize()
    runner.run_all()
    return airflow


def approved(gov: Governance, plan=None):
    plan = plan or night1_plan()
    gov.propose(plan)
    gov.request_approval(plan.id)
    return plan, gov.approve(plan.id, "maria.chen", "checked")


def insert_approval(gov: Governance, plan_id: str, approval_id: str = "apr-insider0000000") -> str:
    now = gov.now()
    sql(gov, "INSERT INTO dw_gov_approvals (approval_id, plan_id, approver, decision, note, decided_at, expires_at) "
             "VALUES (:a, :p, 'omar.haddad', 'approved', '', :d, :e)",
        a=approval_id, p=plan_id, d=now.isoformat(), e=(now + timedelta(hours=4)).isoformat())
    sql(gov, "UPDATE dw_gov_plans SET status = 'approved' WHERE plan_id = :p", p=plan_id)
    return approval_id


def test_an_inserted_approval_runs_nothing_and_the_sensor_does_not_launch_it(gov):
    plan = night1_plan()
    gov.propose(plan)
    gov.request_approval(plan.id)
    approval_id = insert_approval(gov, plan.id)
    assert approvals_tick(gov).launches == []
    err = attempt(gov, plan.id, approval_id, "unknown_approval")
    assert "signed" in err.reason and gov.receipts.verify().ok


def test_a_reset_used_at_does_not_make_an_approval_usable_again(gov):
    plan, approval = approved(gov)
    run_legitimately(gov, plan.id, approval.approval_id)
    sql(gov, "UPDATE dw_gov_approvals SET used_at = NULL, used_by = NULL WHERE approval_id = :a",
        a=approval.approval_id)
    sql(gov, "UPDATE dw_gov_plans SET status = 'approved' WHERE plan_id = :p", p=plan.id)
    assert approvals_tick(gov).launches == []
    err = attempt(gov, plan.id, approval.approval_id, "already_used")
    assert "run-1" in err.reason


def test_a_pushed_expires_at_does_not_extend_an_approval(gov, clock):
    plan, approval = approved(gov)
    clock.advance(5 * 3600)
    later = (clock() + timedelta(days=30)).isoformat()
    sql(gov, "UPDATE dw_gov_approvals SET expires_at = :e WHERE approval_id = :a", e=later, a=approval.approval_id)
    attempt(gov, plan.id, approval.approval_id, "expired")


def test_a_plan_row_with_a_chosen_conf_and_its_approval_run_nothing(gov):
    _, approval = approved(gov)
    evil = night1_plan(conf={"export_date": "2026-09-30", "drop_tables": True})
    sql(gov, "INSERT INTO dw_gov_plans (plan_id, content, domain, plan_class, proposer, status, created_at, "
             "updated_at) VALUES (:p, :c, 'finance', 'reload_partition', 'data-workers', 'approved', :t, :t)",
        p=evil.id, c=canonical_json(evil.content()), t=gov.now().isoformat())
    attempt(gov, evil.id, insert_approval(gov, evil.id), "unsigned_plan")
    # nor does pointing the real approval's row at it
    sql(gov, "UPDATE dw_gov_approvals SET plan_id = :p WHERE approval_id = :a", p=evil.id, a=approval.approval_id)
    attempt(gov, evil.id, approval.approval_id, "unsigned_plan")


def test_inserted_trust_history_does_not_let_l3_act_alone(tmp_path, store, clock):
    base = make_settings(tmp_path)
    finance = base.domains[0].model_copy(update={"autonomy": "L3"})
    gov = Governance(base.model_copy(update={"domains": [finance, base.domains[1]]}), store=store, clock=clock)
    plan = night1_plan()
    gov.propose(plan)
    for day in ("2026-03-31", "2026-04-30", "2026-05-31"):
        fake = night1_plan(conf={"export_date": day})
        sql(gov, "INSERT INTO dw_gov_plans (plan_id, content, domain, plan_class, proposer, status, created_at, "
                 "updated_at) VALUES (:p, :c, 'finance', 'reload_partition', 'data-workers', 'verified', :t, :t)",
            p=fake.id, c=canonical_json(fake.content()), t=gov.now().isoformat())
        # and unsigned `verification` receipts for them, appended by hand at the end of the chain
        head = gov.receipts.head()
        seq = (head.count if head else 0) + 1
        record = {"seq": seq, "at": gov.now().isoformat(), "action": "verification", "subject": fake.id,
                  "actor": "dw-verify", "body": {"passed": True}, "prev_hash": head.head_hash if head else "0" * 64}
        sql(gov, "INSERT INTO dw_receipts (seq, at, action, subject, record, hash, signature) "
                 "VALUES (:s, :a, 'verification', :p, :r, :h, :g)",
            s=seq, a=record["at"], p=fake.id, r=canonical_json(record), h="f" * 64, g="0" * 128)
        sql(gov, "UPDATE dw_receipt_head SET count = :s, head_hash = :h", s=seq, h="f" * 64)
    assert approvals_tick(gov).launches == []
    err = attempt(gov, plan.id, None, "no_approval")
    assert "0 verified" in err.reason


def test_a_deleted_use_receipt_breaks_the_chain_and_the_gate_refuses(gov):
    plan, approval = approved(gov)
    run_legitimately(gov, plan.id, approval.approval_id)
    sql(gov, "DELETE FROM dw_receipts WHERE action = 'dispatch_authorized'")
    sql(gov, "UPDATE dw_gov_approvals SET used_at = NULL, used_by = NULL")
    err = attempt(gov, plan.id, approval.approval_id, "chain_broken")
    assert "missing" in err.reason
    report = gov.receipts.verify()
    assert not report.ok


def test_truncation_with_the_head_rewound_is_caught_by_the_witness(gov):
    plan, approval = approved(gov)
    old_head = gov.receipts.head()  # a genuine signed head, from before the approval was used
    run_legitimately(gov, plan.id, approval.approval_id)
    full = gov.receipts.head().count
    sql(gov, "DELETE FROM dw_receipts WHERE seq > :n", n=old_head.count)
    sql(gov, "UPDATE dw_receipt_head SET count = :c, head_hash = :h, signature = :s",
        c=old_head.count, h=old_head.head_hash, s=old_head.signature)
    sql(gov, "UPDATE dw_gov_approvals SET used_at = NULL, used_by = NULL")
    err = attempt(gov, plan.id, approval.approval_id, "chain_broken")
    assert "witness" in err.reason
    report = gov.receipts.verify()
    assert not report.ok and f"had {full} records" in report.problem
    assert f"records {old_head.count + 1}..{full} missing" in report.problem


def test_a_rewound_head_alone_fails_verify(gov):
    plan, approval = approved(gov)
    old_head = gov.receipts.head()
    gov.record("run_observed", subject=plan.id, actor="x", body={})
    sql(gov, "UPDATE dw_receipt_head SET count = :c, head_hash = :h, signature = :s",
        c=old_head.count, h=old_head.head_hash, s=old_head.signature)
    assert not gov.receipts.verify().ok
    attempt(gov, plan.id, approval.approval_id, "chain_broken")


def test_total_deletion_fails_verify_naming_what_is_missing(gov):
    approved(gov)
    count = gov.receipts.head().count
    sql(gov, "DELETE FROM dw_receipts")
    sql(gov, "DELETE FROM dw_receipt_head")
    report = gov.receipts.verify()
    assert not report.ok and report.count == 0
    assert f"had {count} records" in report.problem and "all of them missing" in report.problem


def test_a_history_re_signed_with_another_key_verifies_nowhere(gov, tmp_path):
    """The insider rebuilds the whole chain (plan, request, approval) with a valid key of their own."""
    sql(gov, "DELETE FROM dw_receipts")
    sql(gov, "DELETE FROM dw_receipt_head")
    evil = night1_plan(conf={"export_date": "2026-09-30", "truncate": "gl_entries"})
    gov.ledger.save_plan(evil, now=gov.now(), status="approved")
    forger = ReceiptLog(gov.store, SigningKey.generate())  # not the deployment's key, no witness
    forger.append("plan_proposed", now=gov.now(), subject=evil.id, actor="data-workers", body=plan_receipt_body(evil))
    forger.append("approval_approved", now=gov.now(), subject=evil.id, actor="omar.haddad", body={
        "approval_id": "apr-resigned000000", "approver": "omar.haddad", "plan_hash": evil.id,
        "expires_at": (gov.now() + timedelta(hours=4)).isoformat()})
    insert_approval(gov, evil.id, "apr-resigned000000")
    assert forger.verify().ok  # it hangs together under the forger's own key...
    report = gov.receipts.verify()  # ...but not under the deployment's
    assert not report.ok and "not the deployment's" in report.problem
    assert approvals_tick(gov).launches == []
    attempt(gov, evil.id, "apr-resigned000000", "unsigned_plan")


def test_a_signing_key_that_is_not_the_pinned_public_key_is_refused(tmp_path, monkeypatch):
    settings = make_settings(tmp_path)
    pinned = load_signing_key(settings).public().text()
    other = SigningKey.generate()
    monkeypatch.setenv("DW_SIGNING_KEY", base64.b64encode(
        other._private.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                     serialization.NoEncryption())).decode())
    pinned_settings = settings.model_copy(update={"governance": settings.governance.model_copy(
        update={"public_key": pinned})})
    with pytest.raises(ConfigError, match="not the deployment's"):
        Governance(pinned_settings)


def _secret_forms(key_file: Path) -> list[str]:
    pem = key_file.read_text()
    key = serialization.load_pem_private_key(pem.encode(), password=None)
    raw = key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())
    body = "".join(line for line in pem.splitlines() if not line.startswith("-----"))
    return [body, base64.b64encode(raw).decode(), raw.hex()]


def test_the_private_key_never_reaches_the_database_receipts_or_json(gov, tmp_path, caplog):
    import logging

    caplog.set_level(logging.DEBUG)
    plan, approval = approved(gov)
    run_legitimately(gov, plan.id, approval.approval_id)
    secrets = _secret_forms(Path(gov.settings.governance.signing_key_file))
    dump = []
    with gov.store.engine.connect() as conn:
        for table in sa.inspect(gov.store.engine).get_table_names():
            dump += [repr(tuple(row)) for row in conn.execute(sa.text(f"SELECT * FROM {table}"))]
    json_out = canonical_json([{**r.record, "hash": r.hash, "signature": r.signature} for r in gov.receipts.list()])
    witness = Path(gov.settings.governance.witness_file).read_text()
    text = "\n".join(dump) + json_out + witness + caplog.text + repr(gov.receipts._key)
    assert dump and json_out
    for secret in secrets:
        assert secret not in text
