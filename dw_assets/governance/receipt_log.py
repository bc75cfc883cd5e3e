"""The persistent receipt chain (see `dw_assets.core.receipts` for the format and what it proves).

Receipts live in `dw_receipts` (one row per record, with its sequence number, hash and Ed25519
signature) and the signed head `{count, head_hash}` in `dw_receipt_head`. Appends are serialised by
updating the head row first, which takes the write lock (SQLite) or the row lock (PostgreSQL), so
two processes appending at once still produce one unbroken chain. Nothing here ever updates or
deletes a receipt.

After each append the new head is also written to the witness file (`governance.witness_file`,
append-only, 0600, outside the database), and `verify` checks the chain against the newest witnessed
head: someone who can write the database but not that file cannot delete, truncate or rewind the
chain unseen. The signed records are also the authority the gate reads (`signed`, `verify_from`).
"""

from __future__ import annotations

import builtins
import json
import os
import time
from collections.abc import Iterable, Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from dw_assets.config import Settings
from dw_assets.core.receipts import (
    GENESIS_HASH,
    Anchor,
    ChainReport,
    Head,
    Receipt,
    build_head,
    build_receipt,
    canonical_json,
    head_message,
    is_signed,
    verify_chain,
)
from dw_assets.core.signing import SigningKey, VerifyKey
from dw_assets.governance.keys import load_signing_key, load_verify_key
from dw_assets.store import Store, metadata

receipts_table = sa.Table(
    "dw_receipts", metadata,
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("at", sa.String(40), nullable=False),
    sa.Column("action", sa.String(60), nullable=False, index=True),
    sa.Column("subject", sa.String(200), index=True),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.Column("signature", sa.Text, nullable=False),
)

head_table = sa.Table(
    "dw_receipt_head", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("count", sa.Integer, nullable=False),
    sa.Column("head_hash", sa.String(64), nullable=False),
    sa.Column("signature", sa.Text, nullable=False),
)

_APPEND_ATTEMPTS = 20


class ChainTampered(RuntimeError):
    """The stored head and records disagree (rewound, truncated or edited): nothing more is appended."""


_WITNESS_TAIL_BYTES = 16 * 1024  # the newest heads are at the end; concurrent appends only reorder nearby lines


class Witness:
    """An append-only file of signed heads (`seq hash signature` per line), 0600, outside the database."""

    def __init__(self, path: Path):
        self.path = path

    def record(self, head: Head) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, f"{head.count} {head.head_hash} {head.signature}\n".encode())
        finally:
            os.close(fd)

    def newest(self, key: VerifyKey | None) -> tuple[list[Anchor], str | None]:
        """The highest witnessed head (as anchors), or a problem when a line is not the deployment's
        (`key=None` skips that check: an append only needs to know how far the chain had got)."""
        if not self.path.exists():
            return [], None
        with self.path.open("rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - _WITNESS_TAIL_BYTES))
            lines = handle.read().decode("utf-8", "replace").splitlines()
        if size > _WITNESS_TAIL_BYTES:
            lines = lines[1:]  # the first one may be cut in half
        best: tuple[int, str, str] | None = None
        for number, line in enumerate(lines, start=1):
            parts = line.split()
            if not parts:
                continue
            try:
                seq, digest, signature = int(parts[0]), parts[1], parts[2]
            except (ValueError, IndexError):
                return [], f"witness {self.path}: line {number} of its tail is not `seq hash signature`"
            if best is None or seq > best[0]:
                best = (seq, digest, signature)
        if best is None:
            return [], None
        if key is not None and not key.verify(best[2], head_message(best[0], best[1])):
            return [], f"witness {self.path}: the head for seq {best[0]} is not signed by the deployment's key"
        return [Anchor(best[0], best[1], f"witness {self.path}")], None


def witness_for(settings: Settings) -> Witness | None:
    value = settings.governance.witness_file
    return Witness(settings.resolve_path(value, what="governance.witness_file")) if value else None


class ReceiptLog:
    """The chain on a store. With a SigningKey it appends; with only a VerifyKey it can verify and read."""

    def __init__(self, store: Store, key: SigningKey | VerifyKey, *, witness: Witness | None = None):
        if not isinstance(key, VerifyKey):
            raise TypeError("a receipt log needs an Ed25519 key (dw_assets.core.signing), not "
                            f"{type(key).__name__}")
        self.store = store
        self._key = key
        self.witness = witness
        store.ensure_schema()
        _widen_signature_columns(store)

    @classmethod
    def from_settings(cls, store: Store, settings: Settings) -> ReceiptLog:
        return cls(store, load_signing_key(settings), witness=witness_for(settings))

    @classmethod
    def for_verifying(cls, store: Store, settings: Settings) -> ReceiptLog:
        """A log that only needs the public key (`governance.public_key`, else the signing key's)."""
        return cls(store, load_verify_key(settings), witness=witness_for(settings))

    @property
    def key_id(self) -> str:
        return self._key.key_id

    def append(self, action: str, *, now: datetime, subject: str | None = None, actor: str | None = None,
               body: Mapping[str, Any] | None = None) -> Receipt:
        """Append one receipt (scrubbed); retried when another process appended at the same moment."""
        if not isinstance(self._key, SigningKey):
            raise PermissionError("this receipt log holds only the public key: it can verify, not append")
        last_error: Exception | None = None
        for attempt in range(_APPEND_ATTEMPTS):
            try:
                receipt, head = self._append_once(action, now=now, subject=subject, actor=actor, body=body or {})
            except (sa.exc.IntegrityError, sa.exc.OperationalError) as exc:
                last_error = exc
                time.sleep(0.01 * (attempt + 1))
                continue
            if self.witness is not None:
                self.witness.record(head)
            return receipt
        raise RuntimeError(f"could not append receipt {action!r} after {_APPEND_ATTEMPTS} attempts: {last_error}")

    def _append_once(self, action: str, *, now: datetime, subject: str | None, actor: str | None,
                     body: Mapping[str, Any]) -> tuple[Receipt, Head]:
        key = self._key
        assert isinstance(key, SigningKey)
        anchors, _problem = self.witness.newest(None) if self.witness is not None else ([], None)
        witnessed = max((a.seq for a in anchors), default=0)
        with self.store.engine.begin() as conn:
            locked = conn.execute(head_table.update().where(head_table.c.id == 1)
                                  .values(count=head_table.c.count)).rowcount
            if locked == 0:
                conn.execute(head_table.insert().values(id=1, count=0, head_hash=GENESIS_HASH, signature=""))
            count, head_hash = conn.execute(sa.select(head_table.c.count, head_table.c.head_hash)
                                            .where(head_table.c.id == 1)).tuples().one()
            prev_row = conn.execute(sa.select(receipts_table).where(receipts_table.c.seq == count)).mappings().first()
            prev = _receipt(prev_row) if prev_row else None
            ahead = conn.execute(sa.select(sa.func.max(receipts_table.c.seq))).scalar() or 0
            if ahead != count or (count and (prev is None or prev.hash != head_hash)):
                raise ChainTampered(f"the receipt chain's stored head (record {count}) does not match its records "
                                    f"(highest {ahead}): it was rewound, truncated or edited; nothing more is "
                                    "appended until it is investigated (`dw receipts verify`)")
            if self.witness is not None and witnessed > count:
                raise ChainTampered(f"the receipt chain holds {count} records but the witness {self.witness.path} "
                                    f"saw {witnessed}: records were deleted and the head rewound; nothing more is "
                                    "appended until it is investigated (`dw receipts verify`)")
            receipt = build_receipt(key, prev, at=now, action=action, subject=subject, actor=actor, body=body)
            conn.execute(receipts_table.insert().values(
                seq=receipt.seq, at=receipt.record["at"], action=action, subject=subject,
                record=canonical_json(receipt.record), hash=receipt.hash, signature=receipt.signature))
            head = build_head(key, receipt)
            conn.execute(head_table.update().where(head_table.c.id == 1)
                         .values(count=head.count, head_hash=head.head_hash, signature=head.signature))
        return receipt, head

    def iter_receipts(self, *, action: str | None = None, subject: str | None = None,
                      since_seq: int | None = None) -> Iterator[Receipt]:
        query = sa.select(receipts_table).order_by(receipts_table.c.seq)
        if action:
            query = query.where(receipts_table.c.action == action)
        if subject:
            query = query.where(receipts_table.c.subject == subject)
        if since_seq is not None:
            query = query.where(receipts_table.c.seq >= since_seq)
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

    def anchors(self) -> tuple[builtins.list[Anchor], str | None]:  # `list` is a method here
        return self.witness.newest(self._key) if self.witness is not None else ([], None)

    def verify(self, extra_anchors: Iterable[Anchor] = ()) -> ChainReport:
        """The whole chain, against the witness file's newest head and any other anchors given."""
        anchors, problem = self.anchors()
        if problem:
            return ChainReport(False, 0, None, problem)
        return verify_chain(self.iter_receipts(), self.head(), self._key, [*anchors, *extra_anchors])

    # the signed log as the authority

    def signed(self, *, action: str | None = None, subject: str | None = None,
               actions: Iterable[str] = ()) -> builtins.list[Receipt]:
        """Receipts whose text, hash and signature are the deployment's (unsigned rows are ignored)."""
        wanted = set(actions)
        return [r for r in self.iter_receipts(action=action, subject=subject)
                if (not wanted or r.action in wanted) and is_signed(r, self._key)]

    def signed_one(self, receipt: Receipt) -> bool:
        return is_signed(receipt, self._key)

    def verify_from(self, start_seq: int) -> ChainReport:
        """The chain from `start_seq` to the head: unbroken, signed, and not behind the witness.

        What the gate checks before trusting "this approval was never used": no record after the
        approval was deleted, edited or cut off, and the head was not rewound.
        """
        anchors, problem = self.anchors()
        if problem:
            return ChainReport(False, 0, None, problem)
        expected, prev_hash, hashes = start_seq, None, {}
        for receipt in self.iter_receipts(since_seq=start_seq):
            if receipt.seq != expected or receipt.record.get("seq") != expected:
                return ChainReport(False, expected - start_seq, expected,
                                   f"record {expected} is missing from the chain (deleted or moved)")
            if not is_signed(receipt, self._key):
                return ChainReport(False, expected - start_seq, expected,
                                   f"record {expected} is not signed by the deployment's key {self._key.key_id}")
            if prev_hash is not None and receipt.record.get("prev_hash") != prev_hash:
                return ChainReport(False, expected - start_seq, expected,
                                   f"record {expected} does not link to the record before it")
            prev_hash, hashes[expected] = receipt.hash, receipt.hash
            expected += 1
        last = expected - 1
        head = self.head()
        if head is None or not self._key.verify(head.signature, head_message(head.count, head.head_hash)):
            return ChainReport(False, last - start_seq + 1, None, "the chain head is missing or not signed")
        if head.count != last or head.head_hash != prev_hash:
            return ChainReport(False, last - start_seq + 1, None,
                               f"the signed head says {head.count} records, storage holds {last}")
        for anchor in anchors:
            if anchor.seq > last:
                return ChainReport(False, last - start_seq + 1, last + 1,
                                   f"{anchor.source} says the chain had {anchor.seq} records, storage holds {last}: "
                                   "records were deleted or the head rewound")
            if anchor.seq >= start_seq and hashes.get(anchor.seq) != anchor.head_hash:
                return ChainReport(False, last - start_seq + 1, anchor.seq,
                                   f"record {anchor.seq} is not the one anchored in {anchor.source}")
        return ChainReport(True, last - start_seq + 1)


def _widen_signature_columns(store: Store) -> None:
    """Tables made before Ed25519 held 64-character HMAC signatures; PostgreSQL enforces the length."""
    if store.dialect != "postgresql":
        return
    inspector = sa.inspect(store.engine)
    for table in (receipts_table.name, head_table.name):
        column = next(c for c in inspector.get_columns(table) if c["name"] == "signature")
        if getattr(column["type"], "length", None):
            with store.engine.begin() as conn:
                conn.execute(sa.text(f"ALTER TABLE {table} ALTER COLUMN signature TYPE TEXT"))


def _receipt(row: Any) -> Receipt:
    try:
        record = json.loads(row["record"])
    except ValueError:
        record = None  # an edit broke the JSON: verify reports it as an edited record
    if not isinstance(record, dict):
        record = {"seq": None, "unreadable": True}
    return Receipt(seq=row["seq"], record=record, hash=row["hash"], signature=row["signature"], raw=row["record"],
                   columns={"at": row["at"], "action": row["action"], "subject": row["subject"]})
