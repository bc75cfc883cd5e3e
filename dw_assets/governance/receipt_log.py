"""The persistent receipt chain (see `dw_assets.core.receipts` for the format and what it proves).

Receipts live in `dw_receipts` (one row per record, with its sequence number, hash and signature)
and the signed head `{count, head_hash}` in `dw_receipt_head`. Appends are serialised by updating
the head row first, which takes the write lock (SQLite) or the row lock (PostgreSQL), so two
processes appending at once still produce one unbroken chain. Nothing here ever updates or deletes
a receipt.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from dw_assets.config import Settings, resolve_env
from dw_assets.core.receipts import (
    ChainReport,
    Head,
    Receipt,
    build_head,
    build_receipt,
    canonical_json,
    verify_chain,
)
from dw_assets.store import Store, metadata

receipts_table = sa.Table(
    "dw_receipts", metadata,
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("at", sa.String(40), nullable=False),
    sa.Column("action", sa.String(60), nullable=False, index=True),
    sa.Column("subject", sa.String(200), index=True),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.Column("signature", sa.String(64), nullable=False),
)

head_table = sa.Table(
    "dw_receipt_head", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("count", sa.Integer, nullable=False),
    sa.Column("head_hash", sa.String(64), nullable=False),
    sa.Column("signature", sa.String(64), nullable=False),
)

_APPEND_ATTEMPTS = 20


def receipt_key(settings: Settings) -> bytes:
    """The signing key from `governance.receipt_key` (a real deployment sets DW_RECEIPT_KEY)."""
    value = resolve_env(settings.governance.receipt_key, what="governance.receipt_key")
    if not value:
        raise ValueError("governance.receipt_key resolved to an empty string: set DW_RECEIPT_KEY")
    return value.encode("utf-8")


class ReceiptLog:
    def __init__(self, store: Store, key: bytes):
        if not key:
            raise ValueError("a receipt log needs a non-empty signing key")
        self.store = store
        self._key = key
        store.ensure_schema()

    @classmethod
    def from_settings(cls, store: Store, settings: Settings) -> ReceiptLog:
        return cls(store, receipt_key(settings))

    def append(self, action: str, *, now: datetime, subject: str | None = None, actor: str | None = None,
               body: Mapping[str, Any] | None = None) -> Receipt:
        """Append one receipt (scrubbed); retried when another process appended at the same moment."""
        last_error: Exception | None = None
        for attempt in range(_APPEND_ATTEMPTS):
            try:
                return self._append_once(action, now=now, subject=subject, actor=actor, body=body or {})
            except (sa.exc.IntegrityError, sa.exc.OperationalError) as exc:
                last_error = exc
                time.sleep(0.01 * (attempt + 1))
        raise RuntimeError(f"could not append receipt {action!r} after {_APPEND_ATTEMPTS} attempts: {last_error}")

    def _append_once(self, action: str, *, now: datetime, subject: str | None, actor: str | None,
                     body: Mapping[str, Any]) -> Receipt:
        with self.store.engine.begin() as conn:
            locked = conn.execute(head_table.update().where(head_table.c.id == 1)
                                  .values(count=head_table.c.count)).rowcount
            if locked == 0:
                conn.execute(head_table.insert().values(id=1, count=0, head_hash="0" * 64, signature=""))
            count: int = conn.execute(sa.select(head_table.c.count).where(head_table.c.id == 1)).scalar_one()
            prev_row = conn.execute(sa.select(receipts_table).where(receipts_table.c.seq == count)).mappings().first()
            prev = _receipt(prev_row) if prev_row else None
            receipt = build_receipt(self._key, prev, at=now, action=action, subject=subject, actor=actor, body=body)
            conn.execute(receipts_table.insert().values(
                seq=receipt.seq, at=receipt.record["at"], action=action, subject=subject,
                record=canonical_json(receipt.record), hash=receipt.hash, signature=receipt.signature))
            head = build_head(self._key, receipt)
            conn.execute(head_table.update().where(head_table.c.id == 1)
                         .values(count=head.count, head_hash=head.head_hash, signature=head.signature))
        return receipt

    def iter_receipts(self, *, action: str | None = None, subject: str | None = None) -> Iterator[Receipt]:
        query = sa.select(receipts_table).order_by(receipts_table.c.seq)
        if action:
            query = query.where(receipts_table.c.action == action)
        if subject:
            query = query.where(receipts_table.c.subject == subject)
        with self.store.engine.connect() as conn:
            for row in conn.execution_options(yield_per=1000).execute(query).mappings():
                yield _receipt(row)

    def list(self, *, action: str | None = None, subject: str | None = None, limit: int | None = None) -> list[Receipt]:
        found = list(self.iter_receipts(action=action, subject=subject))
        return found[-limit:] if limit else found

    def get(self, seq: int) -> Receipt | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(receipts_table).where(receipts_table.c.seq == seq)).mappings().first()
        return _receipt(row) if row else None

    def head(self) -> Head | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(head_table).where(head_table.c.id == 1)).mappings().first()
        return Head(count=row["count"], head_hash=row["head_hash"], signature=row["signature"]) if row else None

    def verify(self) -> ChainReport:
        return verify_chain(self.iter_receipts(), self.head(), self._key)


def _receipt(row: Any) -> Receipt:
    try:
        record = json.loads(row["record"])
    except ValueError:
        record = None  # an edit broke the JSON: verify reports it as an edited record
    if not isinstance(record, dict):
        record = {"seq": None, "unreadable": True}
    return Receipt(seq=row["seq"], record=record, hash=row["hash"], signature=row["signature"], raw=row["record"],
                   columns={"at": row["at"], "action": row["action"], "subject": row["subject"]})
