"""Receipts: an append-only, signed hash chain of everything Data Workers decided or did. Pure.

Each receipt is a record `{seq, at, action, subject, actor, body, prev_hash}`;
`hash = sha256(prev_hash + canonical_json(record))` and `signature = Ed25519(private key, hash)`
(`dw_assets.core.signing`). A separate head `{count, head_hash}` is signed too, and the newest head
is also written where a database writer cannot rewind it (an anchor: the witness file, the Dagster
event log), so cutting records off the end or deleting them all is caught even though every
remaining record still verifies. Verifiers hold only the public key: they cannot forge a record,
and neither can anyone who writes the database; the private key holder can rewrite history, which
stays visible to anyone holding an earlier anchor.

Bodies hold facts (trigger, cause, path, diff, approver, run ids, check values, undo), never table
rows or secrets: `scrub` blanks secret-looking keys and URL passwords before anything is hashed.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any, Protocol

GENESIS_HASH = "0" * 64
SCRUBBED = "[scrubbed]"

_SECRET_KEY = re.compile(
    r"(password|passwd|secret|token|authorization|credential|api_?key|private_?key|access_?key"
    r"|signing_?key|receipt_?key|webhook)",
    re.IGNORECASE,
)
_URL_PASSWORD = re.compile(r"(?P<scheme>[a-z][a-z0-9+.-]*://)(?P<user>[^:/@\s]+):(?P<pw>[^@/\s]+)@", re.IGNORECASE)
_ROW_KEYS = {"rows", "sample_rows", "records", "sample"}


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal | Path):
        return str(value)
    if isinstance(value, set | frozenset):
        return sorted(value, key=str)
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    raise TypeError(f"cannot put a {type(value).__name__} into canonical JSON: {value!r}")


def canonical_json(value: Any) -> str:
    """Sorted keys, no whitespace, UTF-8 text: the same content always gives the same string."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False, default=_json_default)


_NOT_SECRET_KEYS = {"partition_key", "run_key", "dedupe_key", "asset_key", "dataset_key", "check_key", "sort_key"}


def _is_secret_key(key: str) -> bool:
    k = key.lower()
    if k in _NOT_SECRET_KEYS:
        return False
    return k == "key" or k.endswith("_key") or bool(_SECRET_KEY.search(k))


def scrub(value: Any) -> Any:
    """A copy with secret-looking keys blanked, URL passwords removed and row lists replaced by counts."""
    if isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            k = str(key)
            if _is_secret_key(k):
                out[k] = SCRUBBED
            elif k.lower() in _ROW_KEYS and isinstance(item, list | tuple):
                out[k] = {"count": len(item), "note": "rows are never stored in receipts"}
            else:
                out[k] = scrub(item)
        return out
    if isinstance(value, list | tuple):
        return [scrub(item) for item in value]
    if isinstance(value, str):
        return _URL_PASSWORD.sub(lambda m: f"{m['scheme']}{m['user']}:{SCRUBBED}@", value)
    return value


def record_hash(prev_hash: str, record: Mapping[str, Any]) -> str:
    return hashlib.sha256((prev_hash + canonical_json(record)).encode("utf-8")).hexdigest()


class Signer(Protocol):
    key_id: str

    def sign(self, message: str) -> str: ...


class Verifier(Protocol):
    key_id: str

    def verify(self, signature: str, message: str) -> bool: ...


def head_message(count: int, head_hash: str) -> str:
    return f"dw-receipts-head:{count}:{head_hash}"


@dataclass(frozen=True)
class Receipt:
    seq: int
    record: dict[str, Any]  # includes seq and prev_hash, exactly as hashed
    hash: str
    signature: str
    raw: str | None = None  # the stored text, when read from storage: must be canonical_json(record)
    columns: dict[str, Any] | None = None  # copies stored beside the record for queries: must agree with it

    @property
    def action(self) -> str:
        return str(self.record.get("action"))


@dataclass(frozen=True)
class Head:
    count: int
    head_hash: str
    signature: str


def build_receipt(key: Signer, prev: Receipt | None, *, at: datetime, action: str, subject: str | None,
                  actor: str | None, body: Mapping[str, Any]) -> Receipt:
    """The next receipt after `prev` (None for the first). The body is scrubbed first."""
    seq = prev.seq + 1 if prev else 1
    prev_hash = prev.hash if prev else GENESIS_HASH
    record = {"seq": seq, "at": at.isoformat(), "action": action, "subject": subject, "actor": actor,
              "body": scrub(dict(body)), "prev_hash": prev_hash}
    digest = record_hash(prev_hash, record)
    return Receipt(seq=seq, record=record, hash=digest, signature=key.sign(digest))


def build_head(key: Signer, last: Receipt | None) -> Head:
    count, digest = (last.seq, last.hash) if last else (0, GENESIS_HASH)
    return Head(count=count, head_hash=digest, signature=key.sign(head_message(count, digest)))


@dataclass(frozen=True)
class Anchor:
    """A head kept outside the database (witness file, Dagster event log): `seq` records ended in `head_hash`."""

    seq: int
    head_hash: str
    source: str  # where it was read, for the report: e.g. "witness /srv/dw/receipts.witness"


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    count: int  # records checked
    first_bad_seq: int | None = None  # the stored seq (or position) of the first bad record
    problem: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "count": self.count, "first_bad_seq": self.first_bad_seq, "problem": self.problem}


def verify_chain(receipts: Iterable[Receipt], head: Head | None, key: Verifier,
                 anchors: Iterable[Anchor] = ()) -> ChainReport:
    """Recompute every hash and signature in storage order; name the first record that is wrong.

    Each anchor (a head kept where a database writer cannot rewind it) must still be in the chain:
    the record at its seq must exist and have its hash, so truncation, a rewound head and total
    deletion fail, naming what is missing.
    """
    wanted: dict[int, list[Anchor]] = {}
    for anchor in anchors:
        wanted.setdefault(anchor.seq, []).append(anchor)
    prev_hash, position = GENESIS_HASH, 0
    for position, receipt in enumerate(receipts, start=1):
        problem = _check_one(receipt, position, prev_hash, key)
        if problem:
            return ChainReport(False, position - 1, receipt.seq, problem)
        prev_hash = receipt.hash
        for anchor in wanted.pop(position, []):
            if anchor.head_hash != receipt.hash:
                return ChainReport(False, position - 1, position,
                                   f"record {position} is not the one anchored in {anchor.source} (hash "
                                   f"{receipt.hash[:12]}, anchored {anchor.head_hash[:12]}): history was rewritten")
    count = position
    if wanted:
        top = max(wanted)
        anchor = wanted[top][0]
        missing = "all of them" if count == 0 else f"records {count + 1}..{top}"
        return ChainReport(False, count, count + 1,
                           f"{anchor.source} says the chain had {top} records ending in {anchor.head_hash[:12]}, "
                           f"storage holds {count}: {missing} missing (deleted or truncated, head rewound)")
    if head is None:
        if count:
            return ChainReport(False, count, None, "the signed head is missing")
        return ChainReport(True, 0)
    if not key.verify(head.signature, head_message(head.count, head.head_hash)):
        return ChainReport(False, count, None, "the head's signature does not match (forged or wrong key)")
    if head.count != count or head.head_hash != prev_hash:
        return ChainReport(False, count, count + 1 if head.count > count else None,
                           f"the signed head says {head.count} records ending in {head.head_hash[:12]}, "
                           f"storage holds {count} ending in {prev_hash[:12]} (records cut off or appended)")
    return ChainReport(True, count)


def _check_one(receipt: Receipt, position: int, prev_hash: str, key: Verifier) -> str | None:
    record = receipt.record
    if receipt.raw is not None and canonical_json(record) != receipt.raw:
        return f"record at position {position} was edited (its stored text is not the record that was hashed)"
    for column, value in (receipt.columns or {}).items():
        if record.get(column) != value:
            return f"record at position {position}: stored column {column!r} was edited ({value!r})"
    if receipt.seq != position or record.get("seq") != position:
        return f"record at position {position} has seq {record.get('seq')} (deleted, inserted or reordered)"
    if record.get("prev_hash") != prev_hash:
        return f"record {position} does not link to the record before it (prev_hash mismatch)"
    if record_hash(prev_hash, record) != receipt.hash:
        return f"record {position} was edited (its content does not match its hash)"
    if not key.verify(receipt.signature, receipt.hash):
        return (f"record {position} has a bad signature (forged, or signed by a key that is not the "
                f"deployment's {key.key_id})")
    return None


def is_signed(receipt: Receipt, key: Verifier) -> bool:
    """One record on its own: its stored text is what was hashed, and the signature is the deployment's."""
    if receipt.raw is not None and canonical_json(receipt.record) != receipt.raw:
        return False
    for column, value in (receipt.columns or {}).items():
        if receipt.record.get(column) != value:
            return False
    return (record_hash(str(receipt.record.get("prev_hash")), receipt.record) == receipt.hash
            and key.verify(receipt.signature, receipt.hash))
