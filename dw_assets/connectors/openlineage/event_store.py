"""OpenLineage events kept in Data Workers' state store: accepted events, their datasets, rejects.

Reads and writes only its own tables (`dw_ol_events`, `dw_ol_unindexed`, `dw_ol_job_events`,
`dw_ol_dataset_events`, `dw_ol_datasets`, `dw_ol_rejected`) on `dw_assets.store.metadata`, through
SQLAlchemy Core and, on the hot path, the driver's cursor, so SQLite (WAL) and PostgreSQL share one
code path. Events are stored once: a key made of the event time and a hash of the canonical JSON
(sorted keys, compact) is unique and inserts skip conflicts. `seq` is the arrival order consumers
poll by (cursor per consumer via `Store.get_cursor/set_cursor`). Raises `sqlalchemy.exc.SQLAlchemyError` on database failures.

Several receivers may write one PostgreSQL store side by side (each process through one batching
writer). Sequence numbers are handed out at insert and transactions could commit out of that order,
so a consumer that read up to seq 11 while seq 10 was still uncommitted would skip 10 forever: each
write transaction first takes a transaction-level advisory lock (`_WRITE_LOCK`), which makes the
writers' commits follow their seqs. Only the short insert transactions queue on it; receiving,
parsing and validating stay parallel, and batching keeps the commits few. Index passes take their
own lock and skip when another process holds it.
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

from dw_assets.connectors.openlineage.validation import EventKind, InvalidEvent, parse_event_time
from dw_assets.store import Store, metadata

log = logging.getLogger(__name__)

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")  # INTEGER PRIMARY KEY is SQLite's rowid
REJECTED_BODY_KEEP = 64 * 1024
# What the events table's columns hold (PostgreSQL refuses longer values, and NUL in any text): an
# event past them is refused with its reason instead of failing the batch it arrives in.
_COLUMN_LIMITS = {"job.namespace": 500, "job.name": 1000, "run.runId": 36, "eventType": 16}
_DATASET_PART_LIMIT = 1000
_JOB_KEY_LIMIT = 1480  # "openlineage:<namespace>/<name>" in the graph's 1,500-character keys

events = sa.Table(
    "dw_ol_events",
    metadata,
    sa.Column("seq", _ID, primary_key=True, autoincrement=True),
    sa.Column("content_hash", sa.String(64), nullable=False),  # SHA-256 of the canonical JSON
    # Unique, and what a duplicate is found by: the event time's second (big-endian, 4 bytes) then
    # 12 bytes of the content hash. Events arrive roughly in event-time order, so new keys land at
    # the right edge of the index (a few hot leaves) rather than on a random leaf each, and the index
    # stays a third the size of one on the hex hash: intake keeps its rate as the store grows.
    sa.Column("dedupe_key", sa.LargeBinary(16), nullable=False, unique=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("event_time", sa.DateTime(timezone=True), nullable=False),
    sa.Column("event_type", sa.String(16)),
    sa.Column("run_id", sa.String(36)),
    sa.Column("job_namespace", sa.String(500)),
    sa.Column("job_name", sa.String(1000)),
    sa.Column("source", sa.String(500), nullable=False),
    sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("raw", sa.Text, nullable=False),
    # schema findings of an event accepted although a facet breaks its published schema:
    # JSON [[json path, what is wrong], ...]; NULL for a clean event
    sa.Column("findings", sa.Text),
    sa.Index("ix_dw_ol_events_run", "run_id"),
    sqlite_autoincrement=True,
)

# The lookups by job and by dataset are written apart from the events: a commit of a few dozen
# events would otherwise touch one index leaf per distinct job and dataset in it (most of what it
# writes). Each event gets a row in `dw_ol_unindexed` (its dataset links as JSON) in its own
# transaction; `index_pending` moves thousands at a time into the two lookups, in key order, and
# queries add the few still pending (see `_pending_matches`).
unindexed = sa.Table(
    "dw_ol_unindexed",
    metadata,
    sa.Column("event_seq", _ID, primary_key=True, autoincrement=False),
    sa.Column("links", sa.Text, nullable=False),  # [[role, dataset id], ...]
)

job_events = sa.Table(
    "dw_ol_job_events",
    metadata,
    sa.Column("job_name", sa.String(1000), primary_key=True),  # first: a lookup may name no namespace
    sa.Column("job_namespace", sa.String(500), primary_key=True),
    sa.Column("event_seq", _ID, primary_key=True),
    sqlite_with_rowid=False,
)

# Which events name a dataset, keyed for the one lookup made of it (a dataset's events in arrival order).
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
    dedupe_key: bytes
    datasets: list[DatasetRef] = field(default_factory=list)
    findings: str | None = None  # JSON [[path, problem], ...] when a facet breaks its schema

    @classmethod
    def of(cls, event: dict[str, Any], kind: EventKind, source: str, *, datasets: list[DatasetRef] | None = None,
           event_time: datetime | None = None, findings: list[tuple[str, str]] | None = None) -> AcceptedEvent:
        """From a validated event; `datasets` must hold each (role, dataset id) once. Raises
        InvalidEvent for an event that cannot be stored (nested too deep to serialise, a key
        column too long or holding NUL)."""
        try:
            canonical = orjson.dumps(event, option=orjson.OPT_SORT_KEYS)
        except orjson.JSONEncodeError as exc:  # orjson writes at most 255 levels of nesting
            why = "nested deeper than 255 levels" if "ecursion" in str(exc) else str(exc)
            raise InvalidEvent([("$", f"cannot be stored: {why}")]) from None
        digest = hashlib.sha256(canonical).digest()
        event_time = event_time or parse_event_time(event["eventTime"])
        job = event.get("job") if kind != "dataset" else None
        stored = cls(kind, source, event_time, event["eventType"] if kind == "run" else None,
                     event["run"]["runId"] if kind == "run" else None,
                     job["namespace"] if job else None, job["name"] if job else None,
                     canonical, digest.hex(), dedupe_key(event_time, digest), datasets or [],
                     orjson.dumps(findings).decode() if findings else None)
        _check_storable(stored)
        return stored


def _check_storable(item: AcceptedEvent) -> None:
    problems = []
    for path, value in (("job.namespace", item.job_namespace), ("job.name", item.job_name),
                        ("run.runId", item.run_id), ("eventType", item.event_type)):
        if value is not None and (len(value) > _COLUMN_LIMITS[path] or "\x00" in value):
            problems.append((f"$.{path}", f"cannot be stored: longer than {_COLUMN_LIMITS[path]} characters"
                             if len(value) > _COLUMN_LIMITS[path] else "cannot be stored: holds a NUL character"))
    for ref in item.datasets:
        for part, value in (("namespace", ref.namespace), ("name", ref.name), ("id", ref.dataset_id)):
            if len(value) > _DATASET_PART_LIMIT or "\x00" in value:
                why = f"longer than {_DATASET_PART_LIMIT} characters or holds a NUL character"
                problems.append((f"$.{ref.role}s", f"dataset {part} {value[:80]!r}... cannot be stored: {why}"))
                break
    if item.job_name is not None and len(item.job_namespace or "") + len(item.job_name) > _JOB_KEY_LIMIT:
        why = f"namespace and name together longer than {_JOB_KEY_LIMIT} characters (the context graph's job ids)"
        problems.append(("$.job", f"cannot be stored: {why}"))
    if problems:
        raise InvalidEvent(problems[:10])


def dedupe_key(event_time: datetime, digest: bytes) -> bytes:
    """16 bytes: the event time in whole seconds since 1970 (clamped to 0..2**32-1) and the first 12
    bytes of the content's SHA-256. Equal events have equal keys; two different events share one
    only if they also share the second and 96 bits of hash."""
    seconds = min(max(int(event_time.timestamp()), 0), 0xFFFFFFFF)
    return seconds.to_bytes(4, "big") + digest[:12]


@dataclass(frozen=True)
class Rejection:
    source: str
    reason: str
    body: bytes
    body_bytes: int | None = None  # total size when `body` is only its beginning


@dataclass(frozen=True, slots=True)
class Quarantined:
    """What `write` hands back for an event the database would not take even alone (kept as a
    reject with this reason), where it hands back a seq for a stored one."""

    reason: str


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
    findings: list[list[str]] = field(default_factory=list)  # [[json path, problem], ...]


def utc(value: datetime) -> datetime:
    """Aware UTC; SQLite hands back naive datetimes that were stored as UTC."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(slots=True)
class PreparedBatch:
    """A batch turned into statement parameters without touching the database, so one thread can
    prepare the next batch while another writes this one. `event_params` and `pending_params` are
    flat lists on SQLite (multi-row VALUES) and row tuples elsewhere (executemany); a pending row
    names its event by its index in `unique` until the write knows the seqs."""

    keys: list[bytes]  # dedupe key per accepted event, in arrival order (duplicates included)
    unique: list[bytes]  # the keys of the first of equal events, in arrival order
    event_params: list[Any]
    datasets: dict[str, tuple[str, str]]  # dataset id -> (namespace, name), each once
    rejections: list[dict[str, Any]]
    indexed: bool = False  # a big batch goes straight into the lookups, a small one is pending
    pending_params: list[Any] = field(default_factory=list)  # (index, links as JSON) per event
    job_params: list[Any] = field(default_factory=list)  # (job name, namespace, index), in key order
    link_params: list[Any] = field(default_factory=list)  # (dataset id, index, role), in key order
    # what the batch was made of, to retry in parts when the database refuses it (see `write`)
    accepted: Sequence[AcceptedEvent] = ()
    rejects: Sequence[Rejection] = ()


class LineageEventStore:
    """Accepted and rejected OpenLineage events on a `Store`. A batch of `index_batches_from` events or
    more is written into the job and dataset lookups directly (its rows share their index leaves);
    a smaller one is left pending, and once `index_every` events are pending a write indexes them."""

    def __init__(self, store: Store, *, index_every: int = 1024, index_batches_from: int = 1024):
        self.store = store
        self.index_every = index_every
        self.index_batches_from = index_batches_from
        store.ensure_schema()
        _upgrade_older_layout(store)
        self._known_datasets: set[str] = set()  # committed to dw_ol_datasets through this object
        self._pending: int | None = None  # counted on first use: most instances only read

    @property
    def pending(self) -> int:
        """Events left out of the job and dataset lookups (what this object wrote or last counted)."""
        if self._pending is None:
            with self.store.engine.connect() as conn:
                self._pending = conn.execute(sa.select(sa.func.count()).select_from(unindexed)).scalar_one()
        return self._pending

    def append_many(self, accepted: Sequence[AcceptedEvent],
                    rejections: Sequence[Rejection] = ()) -> list[int | Quarantined | None]:
        """Store a batch (and rejects) in one transaction; per accepted event its new `seq`, None
        when already stored, or `Quarantined` when the database refused it (see `write`)."""
        return self.write(self.prepare(accepted, rejections))

    def reject_many(self, rejections: Sequence[Rejection]) -> None:
        self.write(self.prepare((), rejections))

    def prepare(self, accepted: Sequence[AcceptedEvent], rejections: Sequence[Rejection] = ()) -> PreparedBatch:
        """Statement parameters for `write`; pure Python, no database access."""
        flat = self.store.dialect == "sqlite"
        now = _now()
        received_at = _db_time(now, self.store.dialect)
        unique: dict[bytes, AcceptedEvent] = {}
        for item in accepted:  # in arrival order; the first of equal events
            unique.setdefault(item.dedupe_key, item)
        event_params: list[Any] = []
        batch = PreparedBatch([item.dedupe_key for item in accepted], list(unique), event_params, {},
                              [_rejected_row(r, now) for r in rejections], len(unique) >= self.index_batches_from,
                              accepted=accepted, rejects=rejections)
        add_event = event_params.extend if flat else event_params.append
        add_pending = batch.pending_params.extend if flat else batch.pending_params.append
        jobs: list[tuple[str, str, int]] = []
        links: list[tuple[str, int, str]] = []
        for index, (key, item) in enumerate(unique.items()):
            add_event((item.content_hash, key, item.kind, _db_time(item.event_time, self.store.dialect),
                       item.event_type, item.run_id, item.job_namespace, item.job_name, item.source[:500],
                       received_at, item.canonical.decode(), item.findings))
            if not batch.indexed:
                add_pending((index, orjson.dumps([(ref.role, ref.dataset_id) for ref in item.datasets]).decode()))
            elif item.job_name is not None and item.job_namespace is not None:
                jobs.append((item.job_name, item.job_namespace, index))
            for ref in item.datasets:
                if batch.indexed:
                    links.append((ref.dataset_id, index, ref.role))
                if ref.dataset_id not in batch.datasets and ref.dataset_id not in self._known_datasets:
                    batch.datasets[ref.dataset_id] = (ref.namespace, ref.name)
        jobs.sort()
        links.sort()
        batch.job_params = [v for row in jobs for v in row] if flat else jobs
        batch.link_params = [v for row in links for v in row] if flat else links
        return batch

    def write(self, batch: PreparedBatch) -> list[int | Quarantined | None]:
        """Write a prepared batch in one transaction; per accepted event its new `seq`, or None when
        it was stored before. No read before the write: events insert with `ON CONFLICT DO NOTHING`
        (the dedupe key is unique), then their seqs are found and the lookups or pending rows written.
        Then, past `index_every` pending events, an index pass (its own transaction).

        No poison event: when the database refuses the batch for its content (not because it is
        unreachable or locked), the batch is retried in halves, and an event refused on its own is
        kept as a reject with the database's reason (`Quarantined` in its place) while the rest is
        stored. An unreachable database raises, and nothing of the batch is written."""
        try:
            return [*self._write(batch)]  # (a list of seqs widened to the type that may quarantine)
        except Exception as exc:
            if _store_unavailable(exc) or not (batch.accepted or batch.rejects):
                raise
            if len(batch.accepted) + len(batch.rejects) <= 1 and not batch.accepted:
                raise  # a reject alone the database will not take: nothing smaller to try
            log.warning("the store refused a batch of %d OpenLineage events (%s: %s); storing it in parts",
                        len(batch.accepted), type(exc).__name__, exc)
            return self._write_isolating(list(batch.accepted), list(batch.rejects), exc)

    def _write_isolating(self, accepted: list[AcceptedEvent], rejects: list[Rejection],
                         error: BaseException) -> list[int | Quarantined | None]:
        if len(accepted) == 1:
            item = accepted[0]
            why = f"$: cannot be stored: {type(error).__name__}: {str(error).splitlines()[0][:300] if str(error) else ''}"
            log.warning("OpenLineage event from %s quarantined: %s", item.source, why)
            self._write(self.prepare((), [*rejects, Rejection(item.source, why, item.canonical)]))
            return [Quarantined(why)]
        if not accepted:  # only rejects: written one by one, each can only fail for itself
            for reject in rejects:
                try:
                    self._write(self.prepare((), [reject]))
                except Exception as exc:
                    if _store_unavailable(exc):
                        raise
                    log.exception("a rejected OpenLineage event from %s could not be kept", reject.source)
            return []
        half = len(accepted) // 2
        seqs: list[int | Quarantined | None] = []
        for part, part_rejects in ((accepted[:half], rejects), (accepted[half:], [])):
            try:
                seqs += self._write(self.prepare(part, part_rejects))
            except Exception as exc:
                if _store_unavailable(exc):
                    raise
                seqs += self._write_isolating(part, part_rejects, exc)
        return seqs

    def _write(self, batch: PreparedBatch) -> list[int | None]:
        if not batch.keys and not batch.rejections:
            return []
        sqlite = self.store.dialect == "sqlite"
        pending = self.pending  # counted before this batch adds to it
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
        self._known_datasets.update(d for d in batch.datasets if len(d) <= 300)
        if len(self._known_datasets) > 50_000:  # a bound on memory (~10 MB); forgetting costs one probe each
            self._known_datasets.clear()
        self._pending = pending + len(new)
        seqs = [new.pop(key, None) for key in batch.keys]
        if self.pending >= self.index_every:
            try:
                self.index_pending()
            except sa.exc.SQLAlchemyError:  # the events are stored; lookups still find them pending
                log.exception("indexing %d pending OpenLineage events failed; the next write retries", self.pending)
        return seqs

    def _write_events(self, cursor: Any, batch: PreparedBatch, sqlite: bool) -> dict[bytes, int]:
        if sqlite:
            cursor.execute("SELECT max(seq) FROM dw_ol_events")
            before = cursor.fetchone()[0] or 0
            inserted = _insert_values(cursor, _SQLITE.insert_events, batch.event_params, len(_EVENT_COLUMNS))
            new = self._new_seqs(cursor, before, batch.unique, inserted)
        else:  # RETURNING names exactly this batch's new rows, whatever other writers commit meanwhile
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", (_WRITE_LOCK,))  # see the module doc
            cursor.executemany(_POSTGRES.insert_events, batch.event_params, returning=True)
            new = {}
            while True:
                new.update((bytes(key), seq) for key, seq in cursor.fetchall())
                if not cursor.nextset():
                    break
        _insert_rows(cursor, sqlite, "insert_datasets", [(d, ns, name) for d, (ns, name) in batch.datasets.items()])
        consecutive = sqlite and len(new) == len(batch.unique)
        # an all-new batch on SQLite got consecutive seqs in batch order (see `_new_seqs`): its rows
        # carry the batch index, and each statement adds the first seq to it
        offset = new[batch.unique[0]] if consecutive else 0
        seq_of = None if consecutive else [new.get(h) for h in batch.unique]
        if batch.indexed:
            _write_indexed_rows(cursor, sqlite, "insert_jobs", batch.job_params, 3, 2, seq_of, offset)
            _write_indexed_rows(cursor, sqlite, "insert_links", batch.link_params, 3, 1, seq_of, offset)
        else:
            _write_indexed_rows(cursor, sqlite, "insert_pending", batch.pending_params, 2, 0, seq_of, offset)
        return new

    @staticmethod
    def _new_seqs(cursor: Any, before: int, keys: list[bytes], inserted: int) -> dict[bytes, int]:
        """On SQLite, dedupe key -> seq of the rows this batch inserted (in the batch's transaction):
        an all-new batch needs only the new highest seq; otherwise the rows past `before` (a range
        scan of the primary key), kept when their key is in the batch."""
        if inserted == len(keys):
            # SQLite holds the write lock, so an all-new batch got consecutive seqs in batch order
            cursor.execute("SELECT max(seq) FROM dw_ol_events")
            first = cursor.fetchone()[0] - len(keys) + 1
            return dict(zip(keys, range(first, first + len(keys)), strict=True))
        cursor.execute(f"SELECT dedupe_key, seq FROM {events.name} WHERE seq > ?", (before,))
        wanted = set(keys)
        return {bytes(key): seq for key, seq in cursor.fetchall() if bytes(key) in wanted}

    def index_pending(self, max_events: int = 20_000) -> int:
        """Move up to `max_events` pending events (oldest first) into the job and dataset lookups, in
        one transaction; return how many. Safe beside other writers and other index passes: rows
        go in with ON CONFLICT DO NOTHING and only the pending rows read are removed."""
        sqlite = self.store.dialect == "sqlite"
        query = (sa.select(unindexed.c.event_seq, unindexed.c.links, events.c.job_name, events.c.job_namespace)
                 .select_from(unindexed.outerjoin(events, events.c.seq == unindexed.c.event_seq))
                 .order_by(unindexed.c.event_seq).limit(max_events))
        with self.store.engine.begin() as conn:
            if not sqlite and not conn.exec_driver_sql(f"SELECT pg_try_advisory_xact_lock({_INDEX_LOCK})").scalar():
                return 0  # another process is indexing these rows now
            rows = conn.execute(query).tuples().all()
            if rows:
                jobs = sorted((name, ns, seq) for seq, _, name, ns in rows if name is not None and ns is not None)
                links = sorted({(dataset_id, seq, role) for seq, raw, *_ in rows
                                for role, dataset_id in orjson.loads(raw)})
                cursor: Any = conn.connection.cursor()
                try:
                    if sqlite:
                        cursor.execute(_SQLITE_WRITER_PRAGMAS[0])
                    _insert_rows(cursor, sqlite, "insert_jobs", jobs, offset=0)
                    _insert_rows(cursor, sqlite, "insert_links", links, offset=0)
                    if sqlite:  # one writer: no pending row below the newest read can appear meanwhile
                        cursor.execute(f"DELETE FROM {unindexed.name} WHERE event_seq <= ?", (rows[-1][0],))
                    else:
                        cursor.execute(f"DELETE FROM {unindexed.name} WHERE event_seq = ANY(%s)",
                                       ([row[0] for row in rows],))
                finally:
                    cursor.close()
        self._pending = max(0, self.pending - len(rows)) if len(rows) == max_events else 0
        return len(rows)

    def _pending_matches(self, conn: sa.Connection, *, jobs: list[tuple[str, str]] | None = None,
                         dataset_id: str | None = None) -> list[int]:
        """Seqs of still-pending events with one of these jobs ((name, namespace), "" for any
        namespace) or this dataset: a scan of the pending rows, which index passes keep short."""
        rows = conn.execute(sa.select(unindexed.c.event_seq, unindexed.c.links, events.c.job_name,
                                      events.c.job_namespace)
                            .select_from(unindexed.join(events, events.c.seq == unindexed.c.event_seq))).tuples()
        found = []
        for seq, links, name, namespace in rows:
            if jobs is not None and not any(name == n and (not ns or namespace == ns) for n, ns in jobs):
                continue
            if dataset_id is not None and not any(d == dataset_id for _, d in orjson.loads(links)):
                continue
            found.append(seq)
        return found

    def read_after(self, seq: int, limit: int = 1000) -> list[StoredEvent]:
        """Events in arrival order after `seq` (a consumer's cursor)."""
        query = sa.select(events).where(events.c.seq > seq).order_by(events.c.seq).limit(limit)
        with self.store.engine.connect() as conn:
            return [_stored(row) for row in conn.execute(query)]

    def query(self, *, job: str | None = None, dataset_id: str | None = None, run_id: str | None = None,
              since: datetime | None = None, with_findings: bool = False, limit: int = 100) -> list[StoredEvent]:
        """Latest events first, filtered by job name (`name` or `namespace/name`), dataset, run, time."""
        q = sa.select(events).order_by(events.c.seq.desc()).limit(limit)
        with self.store.engine.connect() as conn:
            if job:
                namespace, _, name = job.rpartition("/")
                by_name = job_events.c.job_name == job
                if namespace:
                    by_name = sa.or_(by_name, sa.and_(job_events.c.job_name == name,
                                                      job_events.c.job_namespace == namespace))
                pending = self._pending_matches(conn, jobs=[(job, "")] + ([(name, namespace)] if namespace else []))
                q = q.where(sa.or_(events.c.seq.in_(sa.select(job_events.c.event_seq).where(by_name)),
                                   events.c.seq.in_(pending)))
            if dataset_id:
                linked = sa.select(dataset_events.c.event_seq).where(dataset_events.c.dataset_id == dataset_id)
                pending = self._pending_matches(conn, dataset_id=dataset_id)
                q = q.where(sa.or_(events.c.seq.in_(linked), events.c.seq.in_(pending)))
            if run_id:
                q = q.where(events.c.run_id == run_id)
            if since:
                q = q.where(events.c.event_time >= utc(since))
            if with_findings:
                q = q.where(events.c.findings.is_not(None))
            return [_stored(row) for row in conn.execute(q)]

    def provider_dag_run_id(self, namespace: str, dag_id: str, airflow_run_id: str) -> str | None:
        """The OpenLineage run id Airflow's provider gave an Airflow DAG run, when its DAG-run events
        are stored (their `airflowDagRun` facet names the Airflow run id); else None."""
        for stored in self.query(job=f"{namespace}/{dag_id}", limit=50):
            facets = (stored.event.get("run") or {}).get("facets") or {}
            dag_run = (facets.get("airflowDagRun") or {}).get("dagRun") if isinstance(facets, dict) else None
            if isinstance(dag_run, dict) and dag_run.get("run_id") == airflow_run_id and stored.run_id:
                return stored.run_id
        return None

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
                "with_findings": conn.execute(sa.select(sa.func.count()).select_from(events)
                                              .where(events.c.findings.is_not(None))).scalar_one(),
            }

    def max_seq(self) -> int:
        with self.store.engine.connect() as conn:
            return conn.execute(sa.select(sa.func.max(events.c.seq))).scalar() or 0


_EVENT_COLUMNS = ("content_hash", "dedupe_key", "kind", "event_time", "event_type", "run_id", "job_namespace",
                  "job_name", "source", "received_at", "raw", "findings")


# A batch may touch a random index page per event (dedupe key and run id of events out of time
# order): with SQLite's
# default 2 MB page cache it reads them back and spills half-written pages mid-transaction. 16 MB
# bounds that memory; a checkpoint every ~40 MB of WAL instead of every 4 MB writes a hot page
# (the table's last page, a busy dataset's leaf) to the database once instead of per commit.
# Both are per connection and cost a few microseconds per batch.
# PostgreSQL advisory lock keys (any two fixed 64-bit numbers; these spell "dwolwrit"/"dwolindx")
_WRITE_LOCK = int.from_bytes(b"dwolwrit", "big") - 2**63
_INDEX_LOCK = int.from_bytes(b"dwolindx", "big") - 2**63
_SQLITE_WRITER_PRAGMAS = ("PRAGMA cache_size=-16384", "PRAGMA wal_autocheckpoint=10000")


class _Statements:
    """The hot path's statements. On SQLite, many rows per statement (`{values}` becomes that many
    rows of `?`), and the rows of pending events, jobs and links carry the event's index in its batch,
    to which the statement adds the batch's first seq (?1). Elsewhere, one row of placeholders for
    executemany (psycopg pipelines it; measured here, multi-row VALUES on PostgreSQL was ~30% slower),
    the seq already in the row."""

    def __init__(self, mark: str):
        def rows_from(width: int, seq_at: int | None) -> str:
            if mark != "?":
                return "VALUES (" + ", ".join([mark] * width) + ")"
            if seq_at is None:
                return "VALUES {values}"
            picked = [f"column{k + 1}" + (" + ?1" if k == seq_at else "") for k in range(width)]
            return f"SELECT {', '.join(picked)} FROM (VALUES {{values}}) WHERE true"

        def insert(table: sa.Table, columns: tuple[str, ...], seq_at: int | None, conflict: str) -> str:
            return f"INSERT INTO {table.name} ({', '.join(columns)}) {rows_from(len(columns), seq_at)} {conflict}".strip()

        # no conflict target: a store from an earlier build also keeps its unique content_hash
        self.insert_events = insert(events, _EVENT_COLUMNS, None, "ON CONFLICT DO NOTHING"
                                    + (" RETURNING dedupe_key, seq" if mark != "?" else ""))  # see `_write_events`
        self.insert_datasets = insert(datasets, ("dataset_id", "namespace", "name"), None, "ON CONFLICT DO NOTHING")
        # DO NOTHING: on PostgreSQL a concurrent writer of the same event may have listed it already
        self.insert_pending = insert(unindexed, ("event_seq", "links"), 0, "ON CONFLICT DO NOTHING")
        self.insert_jobs = insert(job_events, ("job_name", "job_namespace", "event_seq"), 2, "ON CONFLICT DO NOTHING")
        self.insert_links = insert(dataset_events, ("dataset_id", "event_seq", "role"), 1, "ON CONFLICT DO NOTHING")


# SQLite: many rows per statement. The sqlite3 driver releases the GIL while a statement runs and
# takes it back between rows of an executemany, so a writer thread beside a busy parser (the event
# loop, a folder reader) would wait for the GIL once per row; with a few hundred rows per statement
# it waits once per statement and the B-tree work runs beside the parser.
_SQLITE = _Statements("?")
_POSTGRES = _Statements("%s")
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


def _insert_rows(cursor: Any, sqlite: bool, statement: str, rows: list[tuple[Any, ...]],
                 offset: int | None = None) -> None:
    """Row tuples through `_SQLITE.<statement>` (flattened, `offset` for the statements that add one)
    or `_POSTGRES.<statement>` (executemany, the rows as they are)."""
    if not rows:
        return
    if sqlite:
        _insert_values(cursor, getattr(_SQLITE, statement), [v for row in rows for v in row], len(rows[0]),
                       offset=offset)
    else:
        cursor.executemany(getattr(_POSTGRES, statement), rows)


def _write_indexed_rows(cursor: Any, sqlite: bool, statement: str, params: list[Any], width: int, at: int,
                        seq_of: list[int | None] | None, offset: int) -> None:
    """A batch's rows whose value at `at` is the event's index in the batch (flat on SQLite, tuples
    elsewhere): with `seq_of`, each index becomes its event's seq and rows of events stored before
    are dropped; without it (an all-new SQLite batch), the statement adds `offset`."""
    if seq_of is None:
        _insert_values(cursor, getattr(_SQLITE, statement), params, width, offset=offset)
        return
    rows = params if not sqlite else [tuple(params[i:i + width]) for i in range(0, len(params), width)]
    _insert_rows(cursor, sqlite, statement, [row[:at] + (seq_of[row[at]],) + row[at + 1:] for row in rows
                                             if seq_of[row[at]] is not None], offset=0)


def _store_unavailable(exc: BaseException) -> bool:
    """The database could not be reached or was busy (worth retrying the whole batch later), as
    opposed to refusing this batch's content (a value too long, a NUL byte...)."""
    if isinstance(exc, sa.exc.DBAPIError):
        exc = exc.orig if exc.orig is not None else exc
    if isinstance(exc, (sa.exc.OperationalError, sa.exc.InterfaceError, sa.exc.TimeoutError, OSError)):
        return True
    return type(exc).__name__ in ("OperationalError", "InterfaceError")  # the DBAPI's own classes


def _rejected_row(r: Rejection, now: datetime) -> dict[str, Any]:
    kept = bytes(r.body[:REJECTED_BODY_KEEP])
    total = r.body_bytes if r.body_bytes is not None else len(r.body)
    # PostgreSQL text holds no NUL: a reason quoting a bad value must still be storable
    return {"received_at": now, "source": r.source[:500].replace("\x00", "\\x00"),
            "reason": r.reason.replace("\x00", "\\x00"), "body": kept,
            "body_bytes": total, "truncated": total > len(kept)}


def _upgrade_older_layout(store: Store) -> None:
    """Stores written by earlier builds found duplicates by the hex hash alone, linked events and
    datasets in `dw_ol_event_datasets` (namespace and name on every link) and looked jobs up through
    an index on the events table: add and fill `dedupe_key`, copy those links and jobs into
    `dw_ol_dataset_events`, `dw_ol_datasets` and `dw_ol_job_events`, then drop the old table and
    index. Once per database URL and process."""
    if store.url in _layout_checked:
        return
    with _layout_lock:
        if store.url in _layout_checked:
            return
        inspector = sa.inspect(store.engine)
        columns = {c["name"] for c in inspector.get_columns(events.name)}
        if "dedupe_key" not in columns:
            _add_dedupe_keys(store)
        if "findings" not in columns:  # stores from before events were kept with schema findings
            with store.engine.begin() as conn:
                conn.exec_driver_sql(f"ALTER TABLE {events.name} ADD COLUMN findings TEXT")
        old_links = inspector.has_table("dw_ol_event_datasets")
        old_job_index = "ix_dw_ol_events_job" in {ix["name"] for ix in inspector.get_indexes(events.name)}
        if old_links or old_job_index:
            with store.engine.begin() as conn:
                if old_links:
                    conn.exec_driver_sql(
                        f"INSERT INTO {datasets.name} (dataset_id, namespace, name) SELECT dataset_id, "
                        "min(namespace), min(name) FROM dw_ol_event_datasets WHERE true GROUP BY dataset_id "
                        "ON CONFLICT DO NOTHING")
                    conn.exec_driver_sql(
                        f"INSERT INTO {dataset_events.name} (dataset_id, event_seq, role) SELECT dataset_id, "
                        "event_seq, role FROM dw_ol_event_datasets WHERE true ON CONFLICT DO NOTHING")
                    conn.exec_driver_sql("DROP TABLE dw_ol_event_datasets")
                if old_job_index:
                    conn.exec_driver_sql(
                        f"INSERT INTO {job_events.name} (job_name, job_namespace, event_seq) SELECT job_name, "
                        f"job_namespace, seq FROM {events.name} WHERE job_name IS NOT NULL "
                        "AND job_namespace IS NOT NULL ON CONFLICT DO NOTHING")
                    conn.exec_driver_sql("DROP INDEX ix_dw_ol_events_job")
            log.info("moved the OpenLineage job and dataset lookups of %s to their own tables", store.url)
        _layout_checked.add(store.url)


def _add_dedupe_keys(store: Store) -> None:
    """An earlier build's events table found duplicates by its unique hex `content_hash` alone: add
    `dedupe_key`, fill it for the stored events and index it (the old unique constraint stays)."""
    blob = sa.LargeBinary().compile(dialect=store.engine.dialect)
    with store.engine.begin() as conn:
        conn.exec_driver_sql(f"ALTER TABLE {events.name} ADD COLUMN dedupe_key {blob}")
        rows = conn.execute(sa.select(events.c.seq, events.c.event_time, events.c.content_hash)).tuples().all()
        if rows:
            conn.execute(events.update().where(events.c.seq == sa.bindparam("s")).values(dedupe_key=sa.bindparam("k")),
                         [{"s": seq, "k": dedupe_key(utc(when), bytes.fromhex(h))} for seq, when, h in rows])
        conn.exec_driver_sql(f"CREATE UNIQUE INDEX ux_dw_ol_events_dedupe_key ON {events.name} (dedupe_key)")
    log.info("added dedupe keys to the %d OpenLineage events of %s", len(rows), store.url)


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
        event=orjson.loads(row.raw), findings=orjson.loads(row.findings) if row.findings else [],
    )
