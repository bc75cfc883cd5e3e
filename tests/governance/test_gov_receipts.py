"""The receipt chain: any edit, deletion, insertion, reorder, truncation or forged append is caught."""

from __future__ import annotations

import dataclasses
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from dw_assets.core.receipts import (
    SCRUBBED,
    Receipt,
    build_head,
    build_receipt,
    canonical_json,
    scrub,
    verify_chain,
)
from dw_assets.core.signing import SigningKey
from dw_assets.governance.receipt_log import ReceiptLog
from dw_assets.store import Store

KEY = SigningKey.generate()
ATTACKER = SigningKey.generate()  # a valid Ed25519 key that is not the deployment's
T0 = datetime(2026, 10, 1, 6, 0, tzinfo=UTC)


def chain(n: int, key: SigningKey = KEY) -> list[Receipt]:
    out: list[Receipt] = []
    for i in range(n):
        out.append(build_receipt(key, out[-1] if out else None, at=T0 + timedelta(minutes=i), action="plan_proposed",
                                 subject=f"plan-{i:016x}", actor="data-workers",
                                 body={"cause": f"cause {i}", "checks": [{"before": i, "after": i + 1}]}))
    return out


def test_an_untouched_chain_verifies():
    receipts = chain(5)
    report = verify_chain(receipts, build_head(KEY, receipts[-1]), KEY)
    assert report.ok and report.count == 5
    assert verify_chain([], build_head(KEY, None), KEY).ok


def _edit(r: Receipt, path: str, value) -> Receipt:
    record = dict(r.record)
    record["body"] = {**record["body"], path: value}
    return dataclasses.replace(r, record=record)


@st.composite
def tampered(draw):
    n = draw(st.integers(min_value=2, max_value=12))
    receipts = chain(n)
    head = build_head(KEY, receipts[-1])
    kind = draw(st.sampled_from(["edit", "flip_hash", "flip_sig", "delete", "insert", "reorder", "truncate",
                                 "forge_append", "forge_append_and_head", "edit_and_rehash"]))
    i = draw(st.integers(min_value=0, max_value=n - 1))
    out = list(receipts)
    if kind == "edit":
        out[i] = _edit(out[i], "cause", draw(st.text(max_size=10).filter(lambda t: t != f"cause {i}")))
    elif kind == "flip_hash":
        h = out[i].hash
        out[i] = dataclasses.replace(out[i], hash=h[:-1] + ("0" if h[-1] != "0" else "1"))
    elif kind == "flip_sig":
        s = out[i].signature
        out[i] = dataclasses.replace(out[i], signature=("f" if s[0] != "f" else "e") + s[1:])
    elif kind == "delete":
        del out[i]
    elif kind == "insert":
        out.insert(i, out[draw(st.integers(min_value=0, max_value=n - 1))])
    elif kind == "reorder":
        j = draw(st.integers(min_value=0, max_value=n - 1).filter(lambda j: j != i))
        out[i], out[j] = out[j], out[i]
    elif kind == "truncate":
        out = out[:i]  # head still says n
    elif kind in ("forge_append", "forge_append_and_head"):
        forged = build_receipt(ATTACKER, out[-1], at=T0 + timedelta(days=1), action="approval_approved",
                               subject="plan-x", actor="mallory", body={"approver": "mallory"})
        out.append(forged)
        if kind == "forge_append_and_head":
            head = build_head(ATTACKER, forged)
    elif kind == "edit_and_rehash":  # recompute the hash chain from i on, without the key
        edited = _edit(out[i], "cause", "rewritten")
        prev = out[i - 1] if i else None
        rebuilt = build_receipt(ATTACKER, prev, at=T0, action=edited.record["action"],
                                subject=edited.record["subject"], actor=edited.record["actor"], body=edited.record["body"])
        out[i] = rebuilt
    return kind, out, head


@hsettings(max_examples=300, deadline=None)
@given(tampered())
def test_every_kind_of_tampering_is_detected(case):
    kind, receipts, head = case
    report = verify_chain(receipts, head, KEY)
    assert not report.ok, kind
    assert report.problem


def test_the_first_bad_record_is_named():
    receipts = chain(6)
    receipts[3] = _edit(receipts[3], "cause", "edited")
    report = verify_chain(receipts, build_head(KEY, chain(6)[-1]), KEY)
    assert (report.ok, report.first_bad_seq, report.count) == (False, 4, 3)
    assert "edited" in report.problem


def test_verification_with_the_wrong_key_fails():
    receipts = chain(3)
    assert not verify_chain(receipts, build_head(KEY, receipts[-1]), ATTACKER).ok


def test_scrub_blanks_secrets_and_rows_but_keeps_facts():
    body = scrub({"password": "hunter2", "auth": {"token": "abc", "username": "admin"}, "api_key": "k",
                  "webhook_url": "https://hooks.example/T/B/x", "partition_key": "2026-09-30", "run_key": "r",
                  "url": "postgresql://app:s3cret@db:5432/app", "rows": [{"entry_id": 1}], "row_count": 5,
                  "key": "x", "signing_key": "y"})
    assert body["password"] == body["auth"]["token"] == body["api_key"] == body["webhook_url"] == SCRUBBED
    assert body["key"] == body["signing_key"] == SCRUBBED
    assert body["auth"]["username"] == "admin" and body["partition_key"] == "2026-09-30" and body["run_key"] == "r"
    assert "s3cret" not in body["url"] and body["url"].startswith("postgresql://app:")
    assert body["rows"] == {"count": 1, "note": "rows are never stored in receipts"} and body["row_count"] == 5


def test_receipt_bodies_are_scrubbed_before_hashing():
    r = build_receipt(KEY, None, at=T0, action="x", subject=None, actor=None, body={"token": "secret-value"})
    assert "secret-value" not in canonical_json(r.record)


@pytest.fixture
def log(tmp_path) -> ReceiptLog:
    store = Store(f"sqlite:///{tmp_path}/state.db")
    log = ReceiptLog(store, KEY)
    for i in range(6):
        log.append("plan_proposed", now=T0 + timedelta(minutes=i), subject=f"plan-{i}", actor="data-workers",
                   body={"cause": f"cause {i}", "checks": [{"before": i, "after": i + 1}]})
    return log


def _sql(log: ReceiptLog, statement: str, *args) -> None:
    con = sqlite3.connect(log.store.url.removeprefix("sqlite:///"))
    con.execute(statement, args)
    con.commit()
    con.close()


def _flip_one_byte(text: str, at: int) -> str:
    ch = text[at]
    return text[:at] + ("X" if ch != "X" else "Y") + text[at + 1:]


def test_persisted_chain_verifies_and_keeps_sequence_numbers(log):
    assert log.verify().ok and log.verify().count == 6
    assert [r.seq for r in log.list()] == [1, 2, 3, 4, 5, 6]
    assert log.head().count == 6


@pytest.mark.parametrize("position", [0, 10, 40, -3])
def test_persisted_byte_flip_in_a_record_is_detected(log, position):
    text = log.get(3).raw
    _sql(log, "UPDATE dw_receipts SET record = ? WHERE seq = 3", _flip_one_byte(text, position % len(text)))
    report = log.verify()
    assert not report.ok and report.first_bad_seq == 3


@pytest.mark.parametrize("column,value", [("action", "approval_approved"), ("subject", "plan-other"),
                                          ("hash", "0" * 64), ("signature", "0" * 64)])
def test_persisted_column_edit_is_detected(log, column, value):
    _sql(log, f"UPDATE dw_receipts SET {column} = ? WHERE seq = 2", value)
    assert not log.verify().ok


def test_persisted_deletion_insertion_reorder_truncation_are_detected(log, tmp_path):
    cases = {
        "delete": ["DELETE FROM dw_receipts WHERE seq = 3"],
        "truncate": ["DELETE FROM dw_receipts WHERE seq >= 5"],
        "reorder": ["UPDATE dw_receipts SET seq = -1 WHERE seq = 2", "UPDATE dw_receipts SET seq = 2 WHERE seq = 3",
                    "UPDATE dw_receipts SET seq = 3 WHERE seq = -1"],
        "insert": ["UPDATE dw_receipts SET seq = seq + 100 WHERE seq >= 4",
                   "UPDATE dw_receipts SET seq = seq - 99 WHERE seq >= 100",
                   ("INSERT INTO dw_receipts SELECT 4, at, action, subject, record, hash, signature "
                   "FROM dw_receipts WHERE seq = 2")],
        "head_rewound": ["UPDATE dw_receipt_head SET count = 4"],
    }
    source = sqlite3.connect(log.store.url.removeprefix("sqlite:///"))
    for name, statements in cases.items():
        copy = tmp_path / f"{name}.db"
        con = sqlite3.connect(copy)
        source.backup(con)
        for statement in statements:
            con.execute(statement)
        con.commit()
        con.close()
        report = ReceiptLog(Store(f"sqlite:///{copy}"), KEY).verify()
        assert not report.ok, name


def test_forged_append_without_the_key_is_detected(log):
    forger = ReceiptLog(log.store, ATTACKER)
    forger.append("approval_approved", now=T0 + timedelta(hours=1), subject="plan-5", actor="mallory",
                  body={"approver": "mallory"})
    report = log.verify()
    assert not report.ok and report.first_bad_seq == 7 and "signature" in report.problem


def test_concurrent_appends_from_two_handles_form_one_chain(tmp_path):
    import threading

    url = f"sqlite:///{tmp_path}/state.db"
    logs = [ReceiptLog(Store(url), KEY) for _ in range(2)]

    def write(log: ReceiptLog, tag: str) -> None:
        for i in range(15):
            log.append("run_observed", now=T0, subject=tag, actor=tag, body={"i": i})

    threads = [threading.Thread(target=write, args=(log, f"w{n}")) for n, log in enumerate(logs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    report = logs[0].verify()
    assert report.ok and report.count == 30
