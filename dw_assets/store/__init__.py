"""Data Workers' own state (lineage events, incidents, approvals, receipts, cursors) in one store.

SQLAlchemy Core over SQLite (WAL, the embedded default) or PostgreSQL (a shared deployment): one
code path, two engines. Each component declares its tables on `metadata` in its own module and
calls `Store.ensure_schema()`; nothing here knows their shapes. The estate's rows never land here:
only metadata and scrubbed facts (counts, sums, schemas, run ids).
"""

from __future__ import annotations

import threading
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event

from dw_assets.config import Settings, resolve_env

metadata = sa.MetaData()

cursors = sa.Table(
    "dw_cursors",
    metadata,
    sa.Column("consumer", sa.String(200), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.func.now()),
)


def _sqlite_pragmas(dbapi_conn, _record) -> None:  # pragma: no cover - exercised via engine
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


_SCHEMA_LOCK = int.from_bytes(b"dwschema", "big") - 2**63  # a PostgreSQL advisory lock key


class Store:
    """A handle on the state database. Cheap to share; create one per process per URL."""

    def __init__(self, url: str):
        self.url = url
        if url.startswith("sqlite:///"):
            Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
            self.engine = sa.create_engine(url, connect_args={"timeout": 30})
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            if url.startswith("postgresql://"):
                url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
            self.engine = sa.create_engine(url, pool_pre_ping=True)
        self._schema_lock = threading.Lock()
        self._schema_ready = False

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def ensure_schema(self) -> None:
        """Create every table declared on `metadata` so far (idempotent)."""
        with self._schema_lock:
            if self.dialect == "postgresql":
                # processes starting together (receivers side by side, a daemon and a code server)
                # would race on CREATE TABLE: one at a time, each seeing what the last created
                with self.engine.begin() as conn:
                    conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_SCHEMA_LOCK})")
                    metadata.create_all(conn)
            else:
                metadata.create_all(self.engine)
            self._schema_ready = True

    def get_cursor(self, consumer: str) -> str | None:
        self.ensure_schema()
        with self.engine.connect() as conn:
            return conn.execute(sa.select(cursors.c.value).where(cursors.c.consumer == consumer)).scalar()

    def set_cursor(self, consumer: str, value: str) -> None:
        self.ensure_schema()
        with self.engine.begin() as conn:
            updated = conn.execute(
                cursors.update().where(cursors.c.consumer == consumer).values(value=value, updated_at=sa.func.now())
            )
            if updated.rowcount == 0:
                conn.execute(cursors.insert().values(consumer=consumer, value=value))

    def dispose(self) -> None:
        self.engine.dispose()


_stores: dict[str, Store] = {}
_stores_lock = threading.Lock()


def open_store(url: str) -> Store:
    """The process-wide Store for a URL (already env-resolved)."""
    with _stores_lock:
        if url not in _stores:
            _stores[url] = Store(url)
        return _stores[url]


def open_state(settings: Settings) -> Store:
    """The state store `state.url` names (`${VAR}` references resolved now)."""
    return open_store(state_url(settings))


def state_url(settings: Settings) -> str:
    return resolve_env(settings.state.url, what="state.url")
