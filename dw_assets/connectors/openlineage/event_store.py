"""OpenLineage events kept in Data Workers' state store: accepted events, their datasets, rejects.

Reads and writes only its own tables (`dw_ol_events`, `dw_ol_dataset_events`, `dw_ol_datasets`,
`dw_ol_rejected`) on `dw_assets.store.metadata`, through SQLAlchemy Core and the driver's cursor for
the hot path, so SQLite (WAL) and PostgreSQL share one code path. Events are stored once: a content hash over the canonical JSON (sorted keys, compact) is unique
and inserts skip conflicts. `seq` is the arrival order consumers poll by (cursor per consumer via
`Store.get_cursor/set_cursor`). Raises `sqlalchemy.exc.SQLAlchemyError` on database failures.

On PostgreSQL several writing processes could commit sequence numbers out of order; one receiver
process writes through one batching writer, which keeps arrival order and commit order the same.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson
import sqlalchemy as sa

from dw_assets.connectors.openlineage.validation import EventKind, parse_event_time
from dw_assets.store import Store, metadata

log = logging.getLogger(__name__)

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

# Which events name a dataset, keyed for the one lookup made of it (a dataset's events in arrival
# order). One B-tree and short rows: a batch touches one leaf per distinct dataset it names.
dataset_events = sa.Table(
    "dw_ol_dataset_events",
    metadata,
    sa.Column("dataset_id", sa.String(1000), primary_key=True),
    sa.Column("event_seq", _ID, primary_key=True),
    sa.Column("role", sa.String(8), primary_key=True),  # input | output | dataset
    sqlite_with_rowid=False,  # the primary key is the table
)

# Each dataset once, with the namespace and name it was first seen under (its id is derived from them).
datasets = sa.Table(
    "dw_ol_datasets",
    metadata,
    sa.Column("dataset_id", sa.String(1000), primary_key=True),
    sa.Column("namespace", sa.String(1000), nullable=False),
    sa.Column("name", sa.String(1000), nullable=False),
    sqlite_with_rowid=False,
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


@dataclass(slots=True)
class PreparedBatch:
    """A batch turned into statement parameters without touching the database, so one thread can
    prepare the next batch while another writes this one. `event_params` and `link_params` are flat
    lists on SQLite (multi-row VALUES) and row tuples elsewhere (executemany); a link names its event
    by its index in `unique` until the write knows the seqs."""

    hashes: list[str]  # per accepted event, in arrival order (duplicates included)
    unique: list[str]  # the first of equal events, in arrival order
    event_params: list[Any]
    link_params: list[Any]
    datasets: dict[str, tuple[str, str]]  # dataset id -> (namespace, name), each once
    rejections: list[dict[str, Any]]


class LineageEventStore:
    """Accepted and rejected OpenLineage events on a `Store`."""

    def __init__(self, store: Store):
        self.store = store
        store.ensure_schema()
        _move_links_of_older_layout(store)
        self._known_datasets: set[str] = set()  # committed to dw_ol_datasets through this object

    def append_many(self, accepted: Sequence[AcceptedEvent]) -> list[int | None]:
        """Store a batch in one transaction; per event its new `seq`, or None when already stored."""
        return self.write(self.prepare(accepted))

    def reject_many(self, rejections: Sequence[Rejection]) -> None:
        self.write(self.prepare((), rejections))

    def prepare(self, accepted: Sequence[AcceptedEvent], rejections: Sequence[Rejection] = ()) -> PreparedBatch:
        """Statement parameters for `write`; pure Python, no database access."""
        flat = self.store.dialect == "sqlite"
        now = _now()
        received_at = _db_time(now, self.store.dialect)
        unique: dict[str, AcceptedEvent] = {}
        for item in accepted:  # in arrival order; the first of equal events
            unique.setdefault(item.content_hash, item)
        event_params: list[Any] = []
        link_params: list[Any] = []
        found: dict[str, tuple[str, str]] = {}
        add_event = event_params.extend if flat else event_params.append
        add_link = link_params.extend if flat else link_params.append
        for index, (h, item) in enumerate(unique.items()):
            add_event((h, item.kind, _db_time(item.event_time, self.store.dialect), item.event_type, item.run_id,
                       item.job_namespace, item.job_name, item.source[:500], received_at, item.canonical.decode()))
            for ref in item.datasets:
                add_link((ref.dataset_id, index, ref.role))
                if ref.dataset_id not in found and ref.dataset_id not in self._known_datasets:
                    found[ref.dataset_id] = (ref.namespace, ref.name)
        return PreparedBatch([item.content_hash for item in accepted], list(unique), event_params, link_params,
                             found, [_rejected_row(r, now) for r in rejections])

    def write(self, batch: PreparedBatch) -> list[int | None]:
        """Write a prepared batch in one transaction; per accepted event its new `seq`, or None when
        it was stored before. No read before the write: events insert with `ON CONFLICT
        (content_hash) DO NOTHING`, then the seqs are found (see `_new_seqs`) and the links written."""
        if not batch.hashes and not batch.rejections:
            return []
        sqlite = self.store.dialect == "sqlite"
        with self.store.engine.begin() as conn:
            cursor: Any = conn.connection.cursor()  # the transaction's own DBAPI cursor
            try:
                if sqlite:
                    for pragma in _SQLITE_WRITER_PRAGMAS:
                        cursor.execute(pragma)
                new = self._write_events(cursor, batch, sqlite) if batch.unique else {}
            finally:
                cursor.close()
            if batch.rejections:
                conn.execute(rejected.insert(), batch.rejections)
        self._known_datasets.update(batch.datasets)
        if len(self._known_datasets) > 200_000:  # a bound on memory; forgetting costs one probe each
            self._known_datasets.clear()
        return [new.pop(h, None) for h in batch.hashes]

    def _write_events(self, cursor: Any, batch: PreparedBatch, sqlite: bool) -> dict[str, int]:
        cursor.execute("SELECT max(seq) FROM dw_ol_events")
        before = cursor.fetchone()[0] or 0
        if sqlite:
            inserted = _insert_values(cursor, _SQLITE.insert_events, batch.event_params, len(_EVENT_COLUMNS))
        else:
            cursor.executemany(_POSTGRES.insert_events, batch.event_params)
            inserted = cursor.rowcount
        new = self._new_seqs(cursor, before, batch.unique, inserted)
        if batch.datasets:
            rows = [(d, ns, name) for d, (ns, name) in batch.datasets.items()]
            if sqlite:
                _insert_values(cursor, _SQLITE.insert_datasets, [v for row in rows for v in row], 3)
            else:
                cursor.executemany(_POSTGRES.insert_datasets, rows)
        if sqlite and len(new) == len(batch.unique):
            # seqs are consecutive in batch order (see `_new_seqs`): the links carry the batch
            # index, and the statement adds the first seq to it
            first = new[batch.unique[0]]
            _insert_values(cursor, _SQLITE.insert_links, batch.link_params, 3, offset=first)
            return new
        seq_of = [new.get(h) for h in batch.unique]
        links = batch.link_params
        if sqlite:
            rows = [(links[i], seq_of[links[i + 1]], links[i + 2]) for i in range(0, len(links), 3)]
            kept = [v for row in rows if row[1] is not None for v in row]
            _insert_values(cursor, _SQLITE.insert_links, kept, 3, offset=0)
        else:
            cursor.executemany(_POSTGRES.insert_links, [(d, seq_of[i], role) for d, i, role in links
                                                        if seq_of[i] is not None])
        return new

    def _new_seqs(self, cursor: Any, before: int, hashes: list[str], inserted: int) -> dict[str, int]:
        """Content hash -> seq of the rows this batch inserted (in the batch's transaction): on
        SQLite an all-new batch needs only the new highest seq; otherwise the rows past `before`
        (a range scan of the primary key), kept when their hash is in the batch."""
        if self.store.dialect == "sqlite" and inserted == len(hashes):
            # SQLite holds the write lock, so an all-new batch got consecutive seqs in batch order
            cursor.execute("SELECT max(seq) FROM dw_ol_events")
            first = cursor.fetchone()[0] - len(hashes) + 1
            return dict(zip(hashes, range(first, first + len(hashes)), strict=True))
        # rows another writer added meanwhile (PostgreSQL) carry hashes not in this batch
        mark = "?" if self.store.dialect == "sqlite" else "%s"
        cursor.execute(f"SELECT content_hash, seq FROM {events.name} WHERE seq > {mark}", (before,))
        wanted = set(hashes)
        return {h: seq for h, seq in cursor.fetchall() if h in wanted}

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
            linked = sa.select(dataset_events.c.event_seq).where(dataset_events.c.dataset_id == dataset_id)
            q = q.where(events.c.seq.in_(linked))
        if run_id:
            q = q.where(events.c.run_id == run_id)
        if since:
            q = q.where(events.c.event_time >= utc(since))
        with self.store.engine.connect() as conn:
            return [_stored(row) for row in conn.execute(q)]

    def dataset_ids_ending(self, suffix: str) -> list[str]:
        """Known dataset ids equal to `suffix` or ending in `.<suffix>` (short names: `orders_clean`)."""
        col = datasets.c.dataset_id
        q = sa.select(col).where(sa.or_(col == suffix, col.like(f"%.{suffix}"))).order_by(col)
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


# A batch touches a few random index pages per event (content hash, run id): with SQLite's
# default 2 MB page cache it reads them back and spills half-written pages mid-transaction. 16 MB
# bounds that memory; a checkpoint every ~40 MB of WAL instead of every 4 MB writes a hot page
# (the table's last page, a busy dataset's leaf) to the database once instead of per commit.
# Both are per connection and cost a few microseconds per batch.
_SQLITE_WRITER_PRAGMAS = ("PRAGMA cache_size=-16384", "PRAGMA wal_autocheckpoint=10000")


class _Statements:
    def __init__(self, mark: str, links_select: str):
        self.insert_events = (f"INSERT INTO {events.name} ({', '.join(_EVENT_COLUMNS)}) VALUES {{values}} "
                              "ON CONFLICT (content_hash) DO NOTHING")
        self.insert_datasets = (f"INSERT INTO {datasets.name} (dataset_id, namespace, name) VALUES {{values}} "
                                "ON CONFLICT DO NOTHING")
        self.insert_links = (f"INSERT INTO {dataset_events.name} (dataset_id, event_seq, role) {links_select} "
                             "ON CONFLICT DO NOTHING")
        if mark != "?":  # executemany: one row of placeholders
            for name in ("insert_events", "insert_datasets", "insert_links"):
                sql = getattr(self, name)
                width = len(_EVENT_COLUMNS) if name == "insert_events" else 3
                setattr(self, name, sql.replace("{values}", "(" + ", ".join([mark] * width) + ")"))


# SQLite: many rows per statement. The sqlite3 driver releases the GIL while a statement runs and
# takes it back between rows of an executemany, so a writer thread beside a busy parser (the event
# loop, a folder reader) would wait for the GIL once per row; with a few hundred rows per statement
# it waits once per statement and the B-tree work runs beside the parser. The links statement adds
# the batch's first seq (?1) to each link's index in the batch.
_SQLITE = _Statements("?", "SELECT column1, column2 + ?1, column3 FROM (VALUES {values}) WHERE true")
_POSTGRES = _Statements("%s", "VALUES {values}")
_MAX_VALUES = 8192  # bound values per statement; SQLite's own limit is 32766 (250000 in Debian's build)


@functools.lru_cache(maxsize=64)
def _values_sql(template: str, width: int, rows: int) -> str:
    return template.replace("{values}", ",".join(["(" + ",".join(["?"] * width) + ")"] * rows))


def _insert_values(cursor: Any, template: str, flat: list[Any], width: int, offset: int | None = None) -> int:
    """Run `template` over `flat` (rows of `width` values, back to back) in statements of at most
    `_MAX_VALUES` values; return the rows inserted. Statements hold a power of two of rows, so a
    connection compiles about ten shapes per statement and then reuses them from the driver's
    statement cache (compiling a thousand rows of VALUES costs ~10 ms; running it, a fraction)."""
    rows = len(flat) // width
    inserted = 0
    start = 0
    size = 1 << ((_MAX_VALUES // width).bit_length() - 1)
    while start < rows:
        while size > rows - start:
            size //= 2
        params = flat[start * width:(start + size) * width]
        if offset is not None:
            params.insert(0, offset)
        cursor.execute(_values_sql(template, width, size), params)
        inserted += cursor.rowcount
        start += size
    return inserted


def _rejected_row(r: Rejection, now: datetime) -> dict[str, Any]:
    kept = bytes(r.body[:REJECTED_BODY_KEEP])
    total = r.body_bytes if r.body_bytes is not None else len(r.body)
    return {"received_at": now, "source": r.source[:500], "reason": r.reason, "body": kept,
            "body_bytes": total, "truncated": total > len(kept)}


def _move_links_of_older_layout(store: Store) -> None:
    """Stores written by earlier builds linked events and datasets in `dw_ol_event_datasets` (namespace
    and name on every link): copy those links into `dw_ol_dataset_events` and `dw_ol_datasets`, then drop
    the old table. Once per database URL and process."""
    if store.url in _layout_checked:
        return
    with _layout_lock:
        if store.url in _layout_checked:
            return
        if sa.inspect(store.engine).has_table("dw_ol_event_datasets"):
            with store.engine.begin() as conn:
                conn.exec_driver_sql(
                    f"INSERT INTO {datasets.name} (dataset_id, namespace, name) SELECT dataset_id, min(namespace), "
                    "min(name) FROM dw_ol_event_datasets WHERE true GROUP BY dataset_id ON CONFLICT DO NOTHING")
                conn.exec_driver_sql(
                    f"INSERT INTO {dataset_events.name} (dataset_id, event_seq, role) SELECT dataset_id, event_seq, "
                    "role FROM dw_ol_event_datasets WHERE true ON CONFLICT DO NOTHING")
                conn.exec_driver_sql("DROP TABLE dw_ol_event_datasets")
            log.info("moved the OpenLineage dataset links of %s to dw_ol_dataset_events", store.url)
        _layout_checked.add(store.url)


_layout_checked: set[str] = set()
_layout_lock = threading.Lock()


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
