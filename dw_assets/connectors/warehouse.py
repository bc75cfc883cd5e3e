"""The estate's warehouse, read-only: DuckDB by default, any SQLAlchemy URL otherwise.

Reads: aggregates (counts, sums, max timestamps, grouped sums) and table schemas
(`information_schema.columns`). Never a whole table: `rows` refuses results past `max_rows`.
Writes: nothing, by design. Read-only is enforced twice, before anything reaches the database:
1. every statement is classified with sqlglot and refused unless it is exactly one SELECT / WITH ...
   SELECT / set operation, DESCRIBE, SHOW, or `PRAGMA table_info` (`ReadOnlyViolation`);
2. the connection itself is read-only: DuckDB opens an in-memory database and ATTACHes every
   catalog file `(READ_ONLY)`; SQLite opens with `mode=ro`; PostgreSQL uses read-only transactions.
   Other SQLAlchemy dialects rely on (1).
Connections are short-lived (one per `session()`), because a DuckDB reader holds a file lock that
blocks the estate's own writers (Airflow's load task) and vice versa. When DuckDB reports a lock
conflict the connection is retried with exponential backoff, then `WarehouseLocked` is raised; a
SQLAlchemy database that refuses or drops the connection is retried under the shared policy
(`connectors.retry`), then `WarehouseError` names the URL (without password) and what to do.
Errors: `WarehouseError` (base; bad URL, missing catalog file, query failure), `ReadOnlyViolation`,
`WarehouseLocked`, `ResultTooLarge`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
import sqlglot
from sqlglot import exp

from dw_assets.config import Settings, resolve_env
from dw_assets.connectors import retry
from dw_assets.connectors.retry import RetryPolicy


class WarehouseError(RuntimeError):
    """A warehouse problem, naming the URL, relation or statement involved."""


class ReadOnlyViolation(WarehouseError):
    """A statement that is not a read was refused before it reached the database."""


class WarehouseLocked(WarehouseError):
    """A DuckDB catalog file stayed locked by a writer for longer than the retry budget."""


class ResultTooLarge(WarehouseError):
    """`rows` is for small aggregates; a query returned more rows than allowed."""


Params = Mapping[str, Any] | None


@dataclass(frozen=True)
class Column:
    name: str
    data_type: str


_READ_ROOTS = (exp.Select, exp.SetOperation, exp.Describe, exp.Show)
_WRITE_NODES = (exp.Insert, exp.Update, exp.Delete, exp.Create, exp.Drop, exp.Alter, exp.Merge,
                exp.Copy, exp.Attach, exp.Detach, exp.Command, exp.Set, exp.Use, exp.Into)
# `:name` not preceded by ':' or a word character, so `x::int` casts and `'10:30'` are left alone
_NAMED_PARAM = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")
# a database restarting or a network blip, not a bad password or a missing database
_CONNECTION_FAULTS = ("connection refused", "could not connect", "server closed the connection", "timeout expired",
                      "timed out", "the database system is starting up", "the database system is shutting down",
                      "connection reset", "terminating connection", "could not translate host name")
WAREHOUSE_POLICY = RetryPolicy(attempts=5, backoff_s=0.5, max_backoff_s=8.0, deadline_s=60.0)
_LOCK_MARKERS = ("could not set lock", "conflicting lock", "unique file handle conflict", "database is locked")


def assert_read_only(sql: str, dialect: str = "duckdb") -> None:
    """Raise ReadOnlyViolation unless `sql` is one statement that only reads."""
    try:
        statements = [s for s in sqlglot.parse(sql, dialect=dialect) if s is not None]
    except sqlglot.errors.ParseError as exc:
        raise ReadOnlyViolation(f"refused: statement could not be classified as a read ({exc}): {sql[:200]}")
    if len(statements) != 1:
        raise ReadOnlyViolation(f"refused: expected exactly one statement, got {len(statements)}: {sql[:200]}")
    root = statements[0]
    if isinstance(root, exp.Pragma):
        func = root.this
        if not (isinstance(func, exp.Anonymous) and str(func.this).lower() == "table_info"):
            raise ReadOnlyViolation(f"refused: only PRAGMA table_info is allowed: {sql[:200]}")
        return
    if not isinstance(root, _READ_ROOTS):
        raise ReadOnlyViolation(f"refused: {type(root).__name__} is not a read statement: {sql[:200]}")
    if any(isinstance(node, _WRITE_NODES) for node in root.walk()):
        raise ReadOnlyViolation(f"refused: the statement contains a write: {sql[:200]}")


def relation_parts(dataset_id: str) -> tuple[str | None, str | None, str]:
    """Canonical id -> (catalog, schema, table): `a.b.c` as is, `a.c` is `a.main.c` (main elided)."""
    parts = dataset_id.strip().lower().split(".")
    if any(not p for p in parts) or len(parts) > 3:
        raise WarehouseError(f"dataset id {dataset_id!r} is not catalog.schema.table, catalog.table or table")
    if len(parts) == 3:
        return parts[0], parts[1], parts[2]
    if len(parts) == 2:
        return parts[0], "main", parts[1]
    return None, None, parts[0]


def quote_relation(dataset_id: str, dialect: str = "duckdb") -> str:
    catalog, schema, table = relation_parts(dataset_id)
    return exp.table_(table, db=schema, catalog=catalog, quoted=True).sql(dialect=dialect)


def quote_identifier(name: str, dialect: str = "duckdb") -> str:
    return exp.to_identifier(name, quoted=True).sql(dialect=dialect)


class Warehouse:
    """Read-only access to the warehouse. Cheap to build; every session opens a fresh connection."""

    def __init__(self, url: str, attach: dict[str, str] | None = None, *, lock_timeout_s: float = 30.0,
                 max_rows: int = 10_000):
        self.url = url
        self.attach = dict(attach or {})
        self.lock_timeout_s = lock_timeout_s
        self.max_rows = max_rows
        self.is_duckdb = url.startswith("duckdb:")
        self.dialect = "duckdb" if self.is_duckdb else self._sqlalchemy_dialect(url)
        self._engine: Any = None
        self.unbuilt: Path | None = None  # the URL's own DuckDB file, when it does not exist yet

    @classmethod
    def from_settings(cls, settings: Settings, **kwargs: Any) -> Warehouse:
        url = resolve_env(settings.warehouse.url, what="warehouse.url")
        attach = {name: str(settings.resolve_path(path, what=f"warehouse.attach.{name}"))
                  for name, path in settings.warehouse.attach.items()}
        return cls(url, attach, **kwargs)

    @staticmethod
    def _sqlalchemy_dialect(url: str) -> str:
        name = url.split(":", 1)[0].split("+", 1)[0]
        return {"postgresql": "postgres", "mssql": "tsql"}.get(name, name)

    @contextmanager
    def session(self) -> Iterator[WarehouseSession]:
        """One short-lived read-only connection for a few related queries."""
        if self.is_duckdb:
            conn = self._duckdb_connect()
            try:
                yield WarehouseSession(self, conn)
            finally:
                conn.close()
        else:
            with self._sqlalchemy_connect() as conn:
                yield WarehouseSession(self, conn)

    def _duckdb_files(self) -> list[tuple[str, Path]]:
        """(catalog, file) pairs; the URL's own file first. `duckdb:///<path>` follows SQLAlchemy:
        what follows the third slash is the path, so an absolute path gives four slashes."""
        main = self.url.removeprefix("duckdb:").removeprefix("//").removeprefix("/")
        files = [(name, Path(path)) for name, path in self.attach.items()]
        if main and main != ":memory:":
            files.insert(0, (Path(main).stem, Path(main)))
        return files

    def _duckdb_connect(self) -> Any:
        """An in-memory DuckDB with every catalog file attached READ_ONLY; the URL's file is `USE`d.

        Attaching (rather than opening the main file directly) keeps one code path and avoids
        DuckDB's in-process 'unique file handle' conflicts between a file opened and attached."""
        # lazy: duckdb loads only for a DuckDB warehouse
        import duckdb

        files = self._duckdb_files()
        has_main = len(files) > len(self.attach)
        missing = [(name, path) for name, path in files[1 if has_main else 0:] if not path.exists()]
        if missing:
            raise WarehouseError("warehouse.attach: catalog file(s) missing: "
                                 + ", ".join(f"{name!r} at {path}" for name, path in missing))
        self.unbuilt = None
        if has_main and not files[0][1].exists():
            # dbt builds the URL's own file (analytics.duckdb) later: the attached catalogs still work
            self.unbuilt = files[0][1]
            files, has_main = files[1:], False
        uses_main = has_main
        delay, deadline = 0.05, time.monotonic() + self.lock_timeout_s
        while True:
            conn = duckdb.connect(":memory:")
            try:
                for name, path in files:
                    conn.execute(f"ATTACH {exp.Literal.string(str(path)).sql('duckdb')} AS "
                                 f"{quote_identifier(name)} (READ_ONLY)")
                if uses_main:
                    conn.execute(f"USE {quote_identifier(files[0][0])}")
                return conn
            except duckdb.Error as exc:
                conn.close()
                if not _is_lock_conflict(exc):
                    raise WarehouseError(f"cannot open warehouse {self.url}: {exc}") from exc
                if time.monotonic() + delay > deadline:
                    raise WarehouseLocked(f"warehouse file still locked after {self.lock_timeout_s:.0f}s "
                                          f"of retries: {exc}") from exc
                time.sleep(delay)
                delay = min(delay * 2, 2.0)

    def _sqlalchemy_connect(self) -> Any:
        if self._engine is None:
            url = self.url
            if url.startswith("sqlite:///") and "mode=ro" not in url:
                url = f"sqlite:///file:{url.removeprefix('sqlite:///')}?mode=ro&uri=true"
            elif url.startswith("postgresql://"):
                url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
            engine = sa.create_engine(url, pool_pre_ping=True)
            if engine.dialect.name == "postgresql":
                engine = engine.execution_options(postgresql_readonly=True)
            self._engine = engine
        engine = self._engine
        return retry.call(engine.connect, system=f"warehouse {engine.url.render_as_string(hide_password=True)}",
                          endpoint="connect", policy=WAREHOUSE_POLICY, classify=_connection_fault,
                          error=WarehouseError, hint="check that the database is up and reachable from here")

    def scalar(self, sql: str, params: Params = None) -> Any:
        with self.session() as s:
            return s.scalar(sql, params)

    def rows(self, sql: str, params: Params = None, max_rows: int | None = None) -> list[dict[str, Any]]:
        with self.session() as s:
            return s.rows(sql, params, max_rows)

    def table_schema(self, dataset_id: str) -> list[Column]:
        with self.session() as s:
            return s.table_schema(dataset_id)

    def relation(self, dataset_id: str) -> str:
        return quote_relation(dataset_id, self.dialect)

    def column(self, name: str) -> str:
        return quote_identifier(name, self.dialect)

    def bucket(self, name: str, grain: str) -> str:
        """A partition column truncated to its grain in this warehouse's SQL: the day (a DATE, or
        a TIMESTAMP's date) or the hour. Written once in DuckDB's SQL and transpiled by sqlglot."""
        if grain not in ("day", "hour"):
            raise WarehouseError(f"unknown grain {grain!r}: use day or hour")
        column = quote_identifier(name, "duckdb")
        sql = f"CAST({column} AS DATE)" if grain == "day" else f"DATE_TRUNC('HOUR', CAST({column} AS TIMESTAMP))"
        return sqlglot.transpile(sql, read="duckdb", write=self.dialect)[0]


class WarehouseSession:
    """Queries over one open connection. Parameters are named, `:name`, on every backend."""

    def __init__(self, warehouse: Warehouse, conn: Any):
        self.warehouse = warehouse
        self.conn = conn

    def query(self, sql: str, params: Params = None) -> tuple[list[str], list[tuple]]:
        assert_read_only(sql, self.warehouse.dialect)
        limit = self.warehouse.max_rows
        try:
            if self.warehouse.is_duckdb:
                used = set(_NAMED_PARAM.findall(sql))  # DuckDB rejects unused parameters
                values = {k: v for k, v in (params or {}).items() if k in used}
                cur = self.conn.execute(_NAMED_PARAM.sub(r"$\1", sql), values)
                columns = [d[0] for d in cur.description or []]
                fetched = cur.fetchmany(limit + 1)
            else:
                result = self.conn.execute(sa.text(sql), dict(params or {}))
                columns = list(result.keys())
                fetched = [tuple(r) for r in result.fetchmany(limit + 1)]
        except Exception as exc:  # the driver's own error types differ per backend
            unbuilt = getattr(self.warehouse, "unbuilt", None)
            hint = f" (note: {unbuilt} does not exist yet)" if unbuilt else ""
            raise WarehouseError(f"query failed on {self.warehouse.url}{hint}: {exc}\n  SQL: {sql}") from exc
        if len(fetched) > limit:
            raise ResultTooLarge(f"query returned more than {limit} rows; checks read aggregates only: {sql[:200]}")
        return columns, fetched

    def scalar(self, sql: str, params: Params = None) -> Any:
        _, fetched = self.query(sql, params)
        return fetched[0][0] if fetched else None

    def rows(self, sql: str, params: Params = None, max_rows: int | None = None) -> list[dict[str, Any]]:
        columns, fetched = self.query(sql, params)
        if max_rows is not None and len(fetched) > max_rows:
            raise ResultTooLarge(f"expected at most {max_rows} rows, got {len(fetched)}: {sql[:200]}")
        return [dict(zip(columns, row)) for row in fetched]

    def table_schema(self, dataset_id: str) -> list[Column]:
        """Columns in ordinal order; an empty list when the relation does not exist."""
        catalog, schema, table = relation_parts(dataset_id)
        where, params = ["lower(table_name) = :table_name"], {"table_name": table}
        if schema is not None:
            where.append("lower(table_schema) = :table_schema")
            params["table_schema"] = schema
        if catalog is not None and self.warehouse.is_duckdb:
            where.append("lower(table_catalog) = :table_catalog")
            params["table_catalog"] = catalog
        sql = ("SELECT column_name, data_type FROM information_schema.columns WHERE "
               + " AND ".join(where) + " ORDER BY ordinal_position")
        return [Column(str(r["column_name"]), str(r["data_type"])) for r in self.rows(sql, params)]


def _connection_fault(exc: BaseException) -> str | None:
    """A transient failure to connect (retried); anything else is raised at once."""
    text = str(exc).lower()
    return retry.describe(exc).splitlines()[0] if any(m in text for m in _CONNECTION_FAULTS) else None


def _is_lock_conflict(exc: BaseException) -> bool:
    text = str(exc).lower()
    return any(marker in text for marker in _LOCK_MARKERS)
