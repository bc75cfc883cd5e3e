"""Incidents in the state store (SQLite or PostgreSQL through SQLAlchemy Core), and intake.

Tables: `dw_incidents` (one row per incident, list/dict fields as JSON), `dw_incident_signals`
(every signal joined, `dedupe_key` unique so one occurrence is stored once), `dw_incident_events`
(an append-only log: opened, signal, transition, update; its `seq` is the sensor's cursor and its
transitions are the incident's history) and `dw_incident_subjects` (one row per dataset, the lock
that serialises intake for that dataset).

Concurrency: intake runs in one transaction that first writes the subject's lock row (a row lock
on PostgreSQL, the write lock on SQLite, taken before any read so SQLite never has to upgrade),
then looks for an incident to join. Two writers racing on a new subject or the same dedupe_key
hit a unique constraint; the loser retries and joins what the winner made.
"""

from __future__ import annotations

import builtins
import dataclasses
import json
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from dw_assets.core import incidents as core
from dw_assets.core.blast_radius import BlastEntry
from dw_assets.core.causes import Cause
from dw_assets.core.evidence import Hop
from dw_assets.core.fixes import ProposedFix
from dw_assets.core.incidents import Incident, Transition
from dw_assets.core.signals import Signal
from dw_assets.store import Store, metadata

_TS = sa.DateTime(timezone=True)

incidents_table = sa.Table(
    "dw_incidents", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("subject", sa.String(400), nullable=False, index=True),
    sa.Column("dataset_id", sa.String(400), index=True),
    sa.Column("trigger_kind", sa.String(64), nullable=False),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("status", sa.String(32), nullable=False, index=True),
    sa.Column("severity", sa.String(16), nullable=False),
    sa.Column("owner", sa.String(200)),
    sa.Column("domain", sa.String(200)),
    sa.Column("window_start", _TS, nullable=False),
    sa.Column("window_end", _TS, nullable=False),
    sa.Column("created_at", _TS, nullable=False),
    sa.Column("updated_at", _TS, nullable=False),
    sa.Column("evidence", sa.JSON, nullable=False),
    sa.Column("causes", sa.JSON, nullable=False),
    sa.Column("path", sa.JSON, nullable=False),
    sa.Column("blast_radius", sa.JSON, nullable=False),
    sa.Column("proposed_fixes", sa.JSON, nullable=False),
    sa.Column("plan_id", sa.String(200)),
    sa.Column("run_links", sa.JSON, nullable=False),
)

signals_table = sa.Table(
    "dw_incident_signals", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("incident_id", sa.String(32), sa.ForeignKey("dw_incidents.id"), nullable=False, index=True),
    sa.Column("dedupe_key", sa.String(500), unique=True),  # NULLs never collide
    sa.Column("observed_at", _TS, nullable=False),
    sa.Column("record", sa.JSON, nullable=False),
)

events_table = sa.Table(
    "dw_incident_events", metadata,
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("incident_id", sa.String(32), nullable=False, index=True),
    sa.Column("kind", sa.String(32), nullable=False),  # opened | signal | transition | update
    sa.Column("from_status", sa.String(32)),
    sa.Column("to_status", sa.String(32)),
    sa.Column("actor", sa.String(200), nullable=False),
    sa.Column("at", _TS, nullable=False),
    sa.Column("note", sa.Text, nullable=False, default=""),
)

subjects_table = sa.Table(
    "dw_incident_subjects", metadata,
    sa.Column("subject", sa.String(400), primary_key=True),
    sa.Column("touched_at", _TS, nullable=False),
)

_JSON_FIELDS = ("evidence", "causes", "path", "blast_radius", "proposed_fixes", "run_links")
UPDATABLE = frozenset({*_JSON_FIELDS, "plan_id", "severity", "title", "owner"})
_CONFIRMED_STATUSES = frozenset({"remediating", "verifying", "resolved"})


class IncidentNotFound(KeyError):
    def __str__(self) -> str:
        return f"no incident with id {self.args[0]!r}: `dw incidents list` shows the known ones"


class IncidentStore:
    def __init__(self, store: Store, *, max_retries: int = 8):
        self.store = store
        self.engine = store.engine
        self.max_retries = max_retries
        store.ensure_schema()

    def intake(self, signal: Signal, *, window: timedelta, owner: str | None, domain: str | None,
               now: datetime | None = None) -> tuple[Incident, bool]:
        """Open an incident for `signal`, or join the open one for its dataset and window."""
        now = now or core.utcnow()
        for _ in range(self.max_retries):
            try:
                with self.engine.begin() as conn:
                    return self._intake(conn, signal, window, owner, domain, now)
            except IntegrityError:
                continue  # a concurrent intake won the race: retry and join what it made
        raise RuntimeError(f"incident intake for {core.subject_of(signal)} kept conflicting; giving up")

    def _intake(self, conn: sa.Connection, signal: Signal, window: timedelta, owner: str | None,
                domain: str | None, now: datetime) -> tuple[Incident, bool]:
        subject = core.subject_of(signal)
        self._lock_subject(conn, subject, now)
        if signal.dedupe_key:
            seen = conn.execute(sa.select(signals_table.c.incident_id)
                                .where(signals_table.c.dedupe_key == signal.dedupe_key)).scalar()
            if seen:
                return self._get(conn, seen), False
        open_rows = conn.execute(sa.select(incidents_table).where(
            incidents_table.c.subject == subject, incidents_table.c.status.not_in(core.FINAL))
            .order_by(incidents_table.c.created_at.desc())).mappings().all()
        for row in open_rows:
            candidate = self._from_row(conn, row)
            if core.joins(candidate, signal, window):
                joined = core.add_signal(candidate, signal, window=window, now=now)
                self._write(conn, joined)
                self._insert_signal(conn, joined.id, signal)
                self._event(conn, joined.id, "signal", signal.source, now, note=signal.summary)
                return self._get(conn, joined.id), False
        new_id = self._free_id(conn, now)
        incident = core.open_incident(signal, id=new_id, owner=owner, domain=domain, window=window, now=now)
        conn.execute(incidents_table.insert().values(**self._row(incident)))
        self._insert_signal(conn, new_id, signal)
        self._event(conn, new_id, "opened", signal.source, now, to_status="open", note=signal.summary)
        return incident, True

    def join(self, incident_id: str, signal: Signal, *, window: timedelta, now: datetime | None = None,
             note: str = "") -> Incident:
        """Add `signal` to an open incident about another subject (a related symptom, e.g. a
        downstream dataset failing for the same cause). Idempotent per `dedupe_key`."""
        now = now or core.utcnow()
        with self.engine.begin() as conn:
            if signal.dedupe_key:
                seen = conn.execute(sa.select(signals_table.c.incident_id)
                                    .where(signals_table.c.dedupe_key == signal.dedupe_key)).scalar()
                if seen:
                    return self._get(conn, seen)
            joined = core.add_signal(self._get(conn, incident_id), signal, window=window, now=now)
            self._write(conn, joined)
            self._insert_signal(conn, incident_id, signal)
            self._event(conn, incident_id, "signal", signal.source, now, note=note or signal.summary)
            return self._get(conn, incident_id)

    def _lock_subject(self, conn: sa.Connection, subject: str, now: datetime) -> None:
        done = conn.execute(subjects_table.update().where(subjects_table.c.subject == subject)
                            .values(touched_at=_utc(now))).rowcount
        if not done:
            conn.execute(subjects_table.insert().values(subject=subject, touched_at=_utc(now)))

    def _free_id(self, conn: sa.Connection, now: datetime) -> str:
        for bump in range(10_000):
            candidate = core.incident_id(now, bump)
            if not conn.execute(sa.select(incidents_table.c.id).where(incidents_table.c.id == candidate)).first():
                return candidate
        raise RuntimeError("no free incident id")

    def _insert_signal(self, conn: sa.Connection, incident_id: str, signal: Signal) -> None:
        conn.execute(signals_table.insert().values(incident_id=incident_id, dedupe_key=signal.dedupe_key,
                                                   observed_at=_utc(signal.observed_at),
                                                   record=core.signal_record(signal)))

    def _event(self, conn: sa.Connection, incident_id: str, kind: str, actor: str, at: datetime, *,
               from_status: str | None = None, to_status: str | None = None, note: str = "") -> None:
        conn.execute(events_table.insert().values(incident_id=incident_id, kind=kind, actor=actor, at=_utc(at),
                                                  from_status=from_status, to_status=to_status, note=note))

    def create(self, incident: Incident) -> Incident:
        with self.engine.begin() as conn:
            conn.execute(incidents_table.insert().values(**self._row(incident)))
            for step in incident.history:
                self._event(conn, incident.id, "opened" if step.from_status is None else "transition",
                            step.actor, step.at, from_status=step.from_status, to_status=step.to_status,
                            note=step.note)
            return self._get(conn, incident.id)

    def get(self, incident_id: str) -> Incident:
        with self.engine.connect() as conn:
            return self._get(conn, incident_id)

    def list(self, status: str | Iterable[str] | None = None, dataset_id: str | None = None) -> list[Incident]:
        query = sa.select(incidents_table).order_by(incidents_table.c.id.desc())
        if status is not None:
            wanted = [status] if isinstance(status, str) else list(status)
            unknown = [s for s in wanted if s not in core.STATUSES]
            if unknown:
                raise ValueError(f"unknown status {unknown[0]!r}: use one of {', '.join(core.STATUSES)}")
            query = query.where(incidents_table.c.status.in_(wanted))
        if dataset_id is not None:
            query = query.where(incidents_table.c.dataset_id == dataset_id)
        with self.engine.connect() as conn:
            return [self._from_row(conn, row) for row in conn.execute(query).mappings().all()]

    def transition(self, incident_id: str, to: str, *, actor: str, note: str = "",
                   at: datetime | None = None) -> Incident:
        at = at or core.utcnow()
        with self.engine.begin() as conn:
            current = self._get(conn, incident_id)
            moved = core.transition(current, to, actor=actor, at=at, note=note)
            changed = conn.execute(incidents_table.update().where(
                incidents_table.c.id == incident_id, incidents_table.c.status == current.status)
                .values(status=to, updated_at=_utc(at))).rowcount
            if not changed:
                raise core.IllegalTransition(f"{incident_id}: status changed concurrently; read it again")
            self._event(conn, incident_id, "transition", moved.history[-1].actor, at,
                        from_status=current.status, to_status=to, note=note)
            return self._get(conn, incident_id)

    def update(self, incident_id: str, *, actor: str = "data-workers", note: str = "", **fields: Any) -> Incident:
        """Set causes / path / blast_radius / proposed_fixes / plan_id / evidence / run_links / ..."""
        bad = sorted(set(fields) - UPDATABLE)
        if bad:
            raise ValueError(f"cannot update {', '.join(bad)} on an incident; updatable: {', '.join(sorted(UPDATABLE))}")
        if "severity" in fields and fields["severity"] not in core.SEVERITIES:
            raise ValueError(f"severity must be one of {', '.join(core.SEVERITIES)}, got {fields['severity']!r}")
        at = core.utcnow()
        with self.engine.begin() as conn:
            self._get(conn, incident_id)
            conn.execute(incidents_table.update().where(incidents_table.c.id == incident_id)
                         .values(**{k: _jsonable(v) for k, v in fields.items()}, updated_at=_utc(at)))
            self._event(conn, incident_id, "update", actor, at, note=note or f"set {', '.join(sorted(fields))}")
            return self._get(conn, incident_id)

    def add_run_link(self, incident_id: str, link: dict[str, Any], *, actor: str = "data-workers") -> Incident:
        current = self.get(incident_id)
        if link in current.run_links:
            return current
        return self.update(incident_id, actor=actor, run_links=[*current.run_links, link],
                           note=f"linked run {link.get('run_id') or link}")

    def events_since(self, seq: int, limit: int = 1000) -> builtins.list[dict[str, Any]]:  # `list` is a method here
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(events_table).where(events_table.c.seq > seq)
                                .order_by(events_table.c.seq).limit(limit)).mappings().all()
        return [dict(r) for r in rows]

    def confirmed_partitions(self, dataset_id: str) -> set[str]:
        """Partitions named by incidents on `dataset_id` whose cause was confirmed: a cause marked
        `confirmed`, or a person approved a remediation (the incident reached remediating or later)."""
        out: set[str] = set()
        for incident in self.list(dataset_id=dataset_id):
            reached = {t.to_status for t in incident.history}
            confirmed = any(c.confirmed for c in incident.causes)
            if not (confirmed or reached & _CONFIRMED_STATUSES):
                continue
            partitions = {s.get("details", {}).get("partition") for s in incident.signals}
            partitions.add(incident.evidence.get("partition"))
            out |= {str(p) for p in partitions if p}
        return out

    def _get(self, conn: sa.Connection, incident_id: str) -> Incident:
        row = conn.execute(sa.select(incidents_table).where(incidents_table.c.id == incident_id)).mappings().first()
        if row is None:
            raise IncidentNotFound(incident_id)
        return self._from_row(conn, row)

    def _from_row(self, conn: sa.Connection, row: Any) -> Incident:
        signals: Sequence[dict[str, Any]] = conn.execute(sa.select(signals_table.c.record).where(signals_table.c.incident_id == row["id"])
                               .order_by(signals_table.c.id)).scalars().all()
        steps = conn.execute(sa.select(events_table).where(
            events_table.c.incident_id == row["id"], events_table.c.kind.in_(["opened", "transition"]))
            .order_by(events_table.c.seq)).mappings().all()
        fields = {c.name: row[c.name] for c in incidents_table.c}
        for key in ("window_start", "window_end", "created_at", "updated_at"):
            fields[key] = _aware(fields[key])
        history = [Transition(s["from_status"], s["to_status"], s["actor"], _aware(s["at"]), s["note"] or "")
                   for s in steps]
        return Incident(**_records(fields), signals=list(signals), history=history)

    def _row(self, incident: Incident) -> dict[str, Any]:
        data = {c.name: getattr(incident, c.name) for c in incidents_table.c}
        return {k: _jsonable(v) if k in _JSON_FIELDS else _utc(v) for k, v in data.items()}

    def _write(self, conn: sa.Connection, incident: Incident) -> None:
        values = self._row(incident)
        values.pop("id")
        conn.execute(incidents_table.update().where(incidents_table.c.id == incident.id).values(**values))


def _utc(value: Any) -> Any:
    """SQLite keeps no offset: store every timestamp in UTC so reading it back as UTC is right."""
    return value.astimezone(UTC) if isinstance(value, datetime) and value.tzinfo else value


def _aware(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


def _records(fields: dict[str, Any]) -> dict[str, Any]:
    """The one place an incident's JSON columns become its typed records (`_jsonable` is the way
    back): causes, path, blast radius and proposed fixes, in the shape every earlier build wrote."""
    return {**fields,
            "causes": [Cause.from_dict(c) for c in fields["causes"] or ()],
            "path": [Hop.from_dict(h) for h in fields["path"] or ()],
            "blast_radius": [BlastEntry.from_dict(e) for e in fields["blast_radius"] or ()],
            "proposed_fixes": [ProposedFix.from_dict(f) for f in fields["proposed_fixes"] or ()]}


def _jsonable(value: Any) -> Any:
    """JSON columns take plain data; dataclasses (a diagnosis' causes, hops) go through to_dict/asdict."""
    def default(obj: Any) -> Any:
        if hasattr(obj, "to_dict"):
            return obj.to_dict()
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            return dataclasses.asdict(obj)
        if hasattr(obj, "isoformat"):
            return obj.isoformat()
        return str(obj)

    return json.loads(json.dumps(value, default=default))
