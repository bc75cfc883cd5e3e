"""OpenLineage events kept in Data Workers' state store: accepted events, their datasets, rejects.

Reads and writes only its own tables (`dw_ol_events`, `dw_ol_event_datasets`, `dw_ol_rejected`) on
`dw_assets.store.metadata`, through SQLAlchemy Core, so SQLite (WAL) and PostgreSQL share one code
path. Events are stored once: a content hash over the canonical JSON (sorted keys, compact) is unique
and inserts skip conflicts. `seq` is the arrival order consumers poll by (cursor per consumer via
`Store.get_cursor/set_cursor`). Raises `sqlalchemy.exc.SQLAlchemyError` on database failures.

On PostgreSQL several writing processes could commit sequence numbers out of order; one receiver
process writes through one batching writer, which keeps arrival order and commit order the same.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson
import sqlalchemy as sa

from dw_assets.connectors.openlineage.validation import EventKind, parse_event_time
from dw_assets.store import Store, metadata

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")  # INTEGER PRIMARY KEY is SQLite's rowid
REJECTED_BODY_KEEP = 64 * 1024

events = sa.Table(
    "dw_ol_events",
    metadata,
    sa.Column("seq", _ID, primary_key=True, autoincrement=True),
    sa.Column("content_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("event_time", sa.DateTime(timezone=True), nullable=False),
    sa.Column("event_type", sa.String(16)),
    sa.Column("run_id", sa.String(36)),
    sa.Column("job_namespace", sa.String(500)),
    sa.Column("job_name", sa.String(1000)),
    sa.Column("source", sa.String(500), nullable=False),
    sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("raw", sa.Text, nullable=False),
    sa.Index("ix_dw_ol_events_job", "job_namespace", "job_name", "seq"),
    sa.Index("ix_dw_ol_events_run", "run_id"),
    sqlite_autoincrement=True,
)

event_datasets = sa.Table(
    "dw_ol_event_datasets",
    metadata,
    sa.Column("event_seq", _ID, sa.ForeignKey("dw_ol_events.seq", ondelete="CASCADE"), primary_key=True),
    sa.Column("role", sa.String(8), primary_key=True),  # input | output | dataset
    sa.Column("dataset_id", sa.String(1000), primary_key=True),
    sa.Column("namespace", sa.String(1000), nullable=False),
    sa.Column("name", sa.String(1000), nullable=False),
    sa.Index("ix_dw_ol_event_datasets_dataset", "dataset_id", "event_seq"),
    sqlite_with_rowid=False,  # the primary key is the table: one B-tree less to write per link
)

rejected = sa.Table(
    "dw_ol_rejected",
    metadata,
    sa.Column("id", _ID, primary_key=True, autoincrement=True),
    sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("source", sa.String(500), nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("body", sa.LargeBinary, nullable=False),
    sa.Column("body_bytes", sa.BigInteger, nullable=False),  # size received, before truncation
    sa.Column("truncated", sa.Boolean, nullable=False),
    sqlite_autoincrement=True,
)


@dataclass(frozen=True, slots=True)
class DatasetRef:
    role: str  # input | output | dataset
    namespace: str
    name: str
    dataset_id: str


@dataclass(slots=True)
class AcceptedEvent:
    """A validated event ready to store: its columns, its compact sorted-key JSON (`canonical`) and the
    hash of that. The parsed dict is not kept, so a batch waiting for its commit holds a few
    objects per event, not the whole tree."""

    kind: EventKind
    source: str
    event_time: datetime
    event_type: str | None
    run_id: str | None
    job_namespace: str | None
    job_name: str | None
    canonical: bytes
    content_hash: str
    datasets: list[DatasetRef] = field(default_factory=list)

    @classmethod
    def of(cls, event: dict[str, Any], kind: EventKind, source: str, *, datasets: list[DatasetRef] | None = None,
           event_time: datetime | None = None) -> AcceptedEvent:
        """From a validated event; `datasets` must hold each (role, dataset id) once."""
        canonical = orjson.dumps(event, option=orjson.OPT_SORT_KEYS)
        job = event.get("job") if kind != "dataset" else None
        return cls(kind, source, event_time or parse_event_time(event["eventTime"]),
                   event["eventType"] if kind == "run" else None,
                   event["run"]["runId"] if kind == "run" else None,
                   job["namespace"] if job else None, job["name"] if job else None,
                   canonical, hashlib.sha256(canonical).hexdigest(), datasets or [])


@dataclass(frozen=True)
class Rejection:
    source: str
    reason: str
    body: bytes
    body_bytes: int | None = None  # total size when `body` is only its beginning


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    event_time: datetime
    event_type: str | None
    kind: str
    run_id: str | None
    job_namespace: str | None
    job_name: str | None
    source: str
    event: dict[str, Any]


def utc(value: datetime) -> datetime:
    """Aware UTC; SQLite hands back naive datetimes that were stored as UTC."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _now() -> datetime:
    return datetime.now(UTC)


class LineageEventStore:
    """Accepted and rejected OpenLineage events on a `Store`."""

    def __init__(self, store: Store):
        self.store = store
        store.ensure_schema()

    def append_many(self, accepted: Sequence[AcceptedEvent]) -> list[int | None]:
        """Store a batch in one transaction; per event its new `seq`, or None when already stored.
        A handful of statements per batch, whatever its size: the highest `seq` before, one
        executemany of the events (`ON CONFLICT (content_hash) DO NOTHING`: no read before the
        write), their seqs (see `_new_seqs`), one executemany of their links. Rows go to the
        driver's executemany as generators: each row tuple lives only while it is bound, so a big
        batch does not keep Python's garbage collector busy."""
        if not accepted:
            return []
        dialect = self.store.dialect
        unique: dict[str, AcceptedEvent] = {}
        for item in accepted:  # in arrival order; the first of equal events
            unique.setdefault(item.content_hash, item)
        received_at = _db_time(_now(), dialect)
        rows = ((h, item.kind, _db_time(item.event_time, dialect), item.event_type, item.run_id, item.job_namespace,
                 item.job_name, item.source[:500], received_at, item.canonical.decode()) for h, item in unique.items())
        sql = _sql_for("?" if dialect == "sqlite" else "%s")
        with self.store.engine.begin() as conn:
            # the transaction's own DBAPI cursor; sqlite3 and psycopg take any iterable of rows
            cursor: Any = conn.connection.cursor()
            try:
                if dialect == "sqlite":
                    for pragma in _SQLITE_WRITER_PRAGMAS:
                        cursor.execute(pragma)
                cursor.execute("SELECT max(seq) FROM dw_ol_events")
                before = cursor.fetchone()[0] or 0
                cursor.executemany(sql.insert_events, rows)
                new = self._new_seqs(cursor, sql, before, list(unique), inserted=cursor.rowcount)
                cursor.executemany(sql.insert_links, ((seq, ref.role, ref.dataset_id, ref.namespace, ref.name)
                                                      for h, seq in new.items() for ref in unique[h].datasets))
            finally:
                cursor.close()
        return [new.pop(item.content_hash, None) for item in accepted]

    def _new_seqs(self, cursor: Any, sql: _SqlFor, before: int, hashes: list[str], inserted: int) -> dict[str, int]:
        """Content hash -> seq of the rows this batch inserted (in the batch's transaction): on
        SQLite an all-new batch needs only the new highest seq; otherwise the rows past `before`
        (a range scan of the primary key), kept when their hash is in the batch."""
        if self.store.dialect == "sqlite" and inserted == len(hashes):
            # SQLite holds the write lock, so an all-new batch got consecutive seqs in batch order
            cursor.execute("SELECT max(seq) FROM dw_ol_events")
            first = cursor.fetchone()[0] - len(hashes) + 1
            return dict(zip(hashes, range(first, first + len(hashes)), strict=True))
        # rows another writer added meanwhile (PostgreSQL) carry hashes not in this batch
        cursor.execute(sql.new_events, (before,))
        wanted = set(hashes)
        return {h: seq for h, seq in cursor.fetchall() if h in wanted}

    def reject_many(self, rejections: Sequence[Rejection]) -> None:
        if not rejections:
            return
        now = _now()
        rows = []
        for r in rejections:
            kept = bytes(r.body[:REJECTED_BODY_KEEP])
            total = r.body_bytes if r.body_bytes is not None else len(r.body)
            rows.append({"received_at": now, "source": r.source[:500], "reason": r.reason, "body": kept,
                         "body_bytes": total, "truncated": total > len(kept)})
        with self.store.engine.begin() as conn:
            conn.execute(rejected.insert(), rows)

    def read_after(self, seq: int, limit: int = 1000) -> list[StoredEvent]:
        """Events in arrival order after `seq` (a consumer's cursor)."""
        query = sa.select(events).where(events.c.seq > seq).order_by(events.c.seq).limit(limit)
        with self.store.engine.connect() as conn:
            return [_stored(row) for row in conn.execute(query)]

    def query(self, *, job: str | None = None, dataset_id: str | None = None, run_id: str | None = None,
              since: datetime | None = None, limit: int = 100) -> list[StoredEvent]:
        """Latest events first, filtered by job name (`name` or `namespace/name`), dataset, run, time."""
        q = sa.select(events).order_by(events.c.seq.desc()).limit(limit)
        if job:
            namespace, _, name = job.rpartition("/")
            by_name = events.c.job_name == job
            q = q.where(sa.or_(by_name, sa.and_(events.c.job_namespace == namespace, events.c.job_name == name))
                        if namespace else by_name)
        if dataset_id:
            linked = sa.select(event_datasets.c.event_seq).where(event_datasets.c.dataset_id == dataset_id)
            q = q.where(events.c.seq.in_(linked))
        if run_id:
            q = q.where(events.c.run_id == run_id)
        if since:
            q = q.where(events.c.event_time >= utc(since))
        with self.store.engine.connect() as conn:
            return [_stored(row) for row in conn.execute(q)]

    def dataset_ids_ending(self, suffix: str) -> list[str]:
        """Known dataset ids equal to `suffix` or ending in `.<suffix>` (short names: `orders_clean`)."""
        col = event_datasets.c.dataset_id
        q = sa.select(col).distinct().where(sa.or_(col == suffix, col.like(f"%.{suffix}"))).order_by(col)
        with self.store.engine.connect() as conn:
            return list(conn.execute(q.limit(20)).scalars())

    def rejected(self, limit: int = 100) -> list[dict[str, Any]]:
        q = sa.select(rejected).order_by(rejected.c.id.desc()).limit(limit)
        with self.store.engine.connect() as conn:
            return [
                {**row._asdict(), "received_at": utc(row.received_at), "body": bytes(row.body)}
                for row in conn.execute(q)
            ]

    def counts(self) -> dict[str, int]:
        with self.store.engine.connect() as conn:
            return {
                "events": conn.execute(sa.select(sa.func.count()).select_from(events)).scalar_one(),
                "rejected": conn.execute(sa.select(sa.func.count()).select_from(rejected)).scalar_one(),
            }

    def max_seq(self) -> int:
        with self.store.engine.connect() as conn:
            return conn.execute(sa.select(sa.func.max(events.c.seq))).scalar() or 0


_EVENT_COLUMNS = ("content_hash", "kind", "event_time", "event_type", "run_id", "job_namespace", "job_name",
                  "source", "received_at", "raw")
_LINK_COLUMNS = ("event_seq", "role", "dataset_id", "namespace", "name")


# A batch touches a few random index pages per event (content hash, run id, dataset): with SQLite's
# default 2 MB page cache it reads them back and spills half-written pages mid-transaction. 16 MB
# bounds that memory; a checkpoint every ~40 MB of WAL instead of every 4 MB writes a hot page
# (the table's last page, a busy dataset's index leaf) to the database once instead of per commit.
# Both are per connection and cost a few microseconds per batch.
_SQLITE_WRITER_PRAGMAS = ("PRAGMA cache_size=-16384", "PRAGMA wal_autocheckpoint=10000")


@functools.cache
def _sql_for(mark: str) -> _SqlFor:
    return _SqlFor(mark)


class _SqlFor:
    """The hot path's statements in the driver's parameter style (sqlite3 `?`, psycopg `%s`)."""

    def __init__(self, mark: str):
        self.insert_events = (f"INSERT INTO {events.name} ({', '.join(_EVENT_COLUMNS)}) VALUES "
                              f"({', '.join([mark] * len(_EVENT_COLUMNS))}) ON CONFLICT (content_hash) DO NOTHING")
        self.new_events = f"SELECT content_hash, seq FROM {events.name} WHERE seq > {mark}"
        self.insert_links = (f"INSERT INTO {event_datasets.name} ({', '.join(_LINK_COLUMNS)}) VALUES "
                             f"({', '.join([mark] * len(_LINK_COLUMNS))}) ON CONFLICT DO NOTHING")


def _db_time(value: datetime, dialect: str) -> Any:
    """As SQLAlchemy's DateTime stores it: SQLite keeps naive UTC text, PostgreSQL a timestamptz."""
    if value.tzinfo is not UTC:  # `...Z` parses to UTC itself: no conversion on the hot path
        value = utc(value)
    return value.replace(tzinfo=None).isoformat(" ", "microseconds") if dialect == "sqlite" else value


def _stored(row: Any) -> StoredEvent:
    return StoredEvent(
        seq=row.seq, event_time=utc(row.event_time), event_type=row.event_type, kind=row.kind,
        run_id=row.run_id, job_namespace=row.job_namespace, job_name=row.job_name, source=row.source,
        event=orjson.loads(row.raw),
    )
