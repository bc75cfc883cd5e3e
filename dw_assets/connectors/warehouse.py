"""The estate's warehouse, read-only: DuckDB by default, PostgreSQL (or SQLite) through SQLAlchemy.

Dialects: the SQL the product writes (checks, profiles, evidence) is DuckDB's (`SOURCE_DIALECT`),
written once; a session transpiles every statement with sqlglot to the warehouse's dialect.
`DIALECTS` is the one list of supported warehouses (docs/checks.md says how to add one); any other
URL is refused with `UnsupportedWarehouse` naming the supported ones. Identifiers are always quoted
(a quoted name is case-sensitive on PostgreSQL: ids are lower-cased, as PostgreSQL folds unquoted
names); `bucket` truncates to a day or an hour in the warehouse's own SQL. Column types come back
in one vocabulary, DuckDB's information_schema spelling (PostgreSQL's `character varying` / `text`
-> VARCHAR, `int8` -> BIGINT, `numeric(18,2)` -> DECIMAL(18,2)), so a schema accepted on one
engine is not drift on the other.

Reads: aggregates (counts, sums, max timestamps, grouped sums) and table schemas
(`information_schema.columns`). Never a whole table: `rows` refuses results past `max_rows`.
Writes: nothing, by design. Read-only is enforced twice, before anything reaches the database:
1. every statement is classified with sqlglot and refused unless it is exactly one SELECT / WITH ...
   SELECT / set operation, DESCRIBE, SHOW, or `PRAGMA table_info` (`ReadOnlyViolation`);
2. the connection itself is read-only: DuckDB opens an in-memory database and ATTACHes every
   catalog file `(READ_ONLY)`; SQLite opens with `mode=ro`; PostgreSQL uses read-only transactions.
Connections are short-lived (one per `session()`), because a DuckDB reader holds a file lock that
blocks the estate's own writers (Airflow's load task) and vice versa. When DuckDB reports a lock
conflict the connection is retried with exponential backoff, then `WarehouseLocked` is raised; a
SQLAlchemy database that refuses or drops the connection is retried under the shared policy
(`connectors.retry`), then `WarehouseError` names the URL (without password) and what to do.
Errors: `WarehouseError` (base; bad URL, missing catalog file, query failure), `UnsupportedWarehouse`
(a dialect not in `DIALECTS`, a driver not installed), `ReadOnlyViolation`,
`WarehouseLocked`, `ResultTooLarge`.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

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


class UnsupportedWarehouse(WarehouseError):
    """A warehouse URL whose dialect is not in `DIALECTS`, or whose driver is not installed."""


class WarehouseLocked(WarehouseError):
    """A DuckDB catalog file stayed locked by a writer for longer than the retry budget."""


class ResultTooLarge(WarehouseError):
    """`rows` is for small aggregates; a query returned more rows than allowed."""


Params = Mapping[str, Any] | None


@dataclass(frozen=True)
class Column:
    name: str
    data_type: str


@dataclass(frozen=True)
class WarehouseDialect:
    """A supported warehouse: how its URL is recognised, which driver it needs, how ids map."""

    name: str                 # sqlglot's dialect name: the SQL is transpiled to it
    schemes: tuple[str, ...]  # URL schemes (before any `+driver`)
    driver: str | None        # the SQLAlchemy driver used when the URL names none (None: SQLAlchemy's default)
    install: str              # what to install when the driver is missing
    default_schema: str       # the schema of a two-part id `catalog.table`
    one_catalog: bool         # a connection sees one catalog (database): an id's catalog must be it


SOURCE_DIALECT = "duckdb"  # the dialect the product's own SQL is written in
DIALECTS = {
    "duckdb": WarehouseDialect("duckdb", ("duckdb",), None, "pip install duckdb", "main", False),
    "postgres": WarehouseDialect("postgres", ("postgresql", "postgres"), "psycopg", "pip install 'psycopg[binary]'",
                                 "public", True),
    "sqlite": WarehouseDialect("sqlite", ("sqlite",), None, "(part of Python)", "main", True),
}


def dialect_for_url(url: str) -> WarehouseDialect:
    """The supported dialect a warehouse URL names, else UnsupportedWarehouse saying what is."""
    scheme = url.split(":", 1)[0].split("+", 1)[0].lower() if ":" in url else ""
    for dialect in DIALECTS.values():
        if scheme in dialect.schemes:
            return dialect
    supported = ", ".join(f"{d.schemes[0]}://" for d in DIALECTS.values())
    raise UnsupportedWarehouse(f"warehouse.url {_redact(url)!r}: {scheme or 'no scheme'!r} is not a supported "
                               f"warehouse (supported: {supported}); docs/checks.md, 'Warehouses', says how to add one")


def _redact(url: str) -> str:
    return re.sub(r"(//[^:/@]+):[^@/]*@", r"\1:***@", url)


# PostgreSQL's information_schema spelling -> DuckDB's (the vocabulary `table_schema` returns)
_PG_TYPES = {"character varying": "VARCHAR", "text": "VARCHAR", "character": "VARCHAR", "bpchar": "VARCHAR",
             "name": "VARCHAR", "citext": "VARCHAR", "bigint": "BIGINT", "integer": "INTEGER", "smallint": "SMALLINT",
             "double precision": "DOUBLE", "real": "FLOAT", "boolean": "BOOLEAN", "date": "DATE",
             "timestamp without time zone": "TIMESTAMP", "timestamp with time zone": "TIMESTAMP WITH TIME ZONE",
             "time without time zone": "TIME", "time with time zone": "TIME WITH TIME ZONE", "interval": "INTERVAL",
             "json": "JSON", "jsonb": "JSON", "uuid": "UUID", "bytea": "BLOB", "int8": "BIGINT", "int4": "INTEGER",
             "int2": "SMALLINT", "float8": "DOUBLE", "float4": "FLOAT", "bool": "BOOLEAN", "varchar": "VARCHAR",
             "timestamp": "TIMESTAMP", "timestamptz": "TIMESTAMP WITH TIME ZONE", "numeric": "DECIMAL"}


def canonical_type(dialect: str, data_type: str, precision: Any = None, scale: Any = None, udt: Any = None) -> str:
    """A column type from `dialect`'s information_schema in DuckDB's spelling. DuckDB's own types are
    returned as they are (its information_schema is the vocabulary)."""
    if dialect == "duckdb":
        return data_type
    name = " ".join(data_type.lower().split())
    if name in ("numeric", "decimal") and precision is not None:
        return f"DECIMAL({int(precision)},{int(scale or 0)})"
    if name == "array" and udt:  # udt_name `_int4`: an array of int4
        return canonical_type(dialect, str(udt).lstrip("_")) + "[]"
    if name == "user-defined" and udt:
        return str(udt)
    if dialect == "postgres" and name in _PG_TYPES:
        return _PG_TYPES[name]
    try:
        return exp.DataType.build(data_type, dialect=dialect).sql("duckdb").upper()
    except (sqlglot.errors.ParseError, ValueError):
        return data_type.upper()


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


def relation_parts(dataset_id: str, default_schema: str = "main") -> tuple[str | None, str | None, str]:
    """Canonical id -> (catalog, schema, table): `a.b.c` as is, `a.c` is `a.<default schema>.c`
    (DuckDB's `main`, PostgreSQL's `public`)."""
    parts = dataset_id.strip().lower().split(".")
    if any(not p for p in parts) or len(parts) > 3:
        raise WarehouseError(f"dataset id {dataset_id!r} is not catalog.schema.table, catalog.table or table")
    if len(parts) == 3:
        return parts[0], parts[1], parts[2]
    if len(parts) == 2:
        return parts[0], default_schema, parts[1]
    return None, None, parts[0]


def quote_relation(dataset_id: str, dialect: str = "duckdb") -> str:
    catalog, schema, table = relation_parts(dataset_id, DIALECTS[dialect].default_schema if dialect in DIALECTS
                                            else "main")
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
        self.flavor = dialect_for_url(url)
        self.is_duckdb = self.flavor.name == "duckdb"
        self.dialect = self.flavor.name
        self._engine: Any = None
        self.unbuilt: Path | None = None  # the URL's own DuckDB file, when it does not exist yet

    @classmethod
    def from_settings(cls, settings: Settings, **kwargs: Any) -> Warehouse:
        url = resolve_env(settings.warehouse.url, what="warehouse.url")
        attach = {name: str(settings.resolve_path(path, what=f"warehouse.attach.{name}"))
                  for name, path in settings.warehouse.attach.items()}
        return cls(url, attach, **kwargs)

    @property
    def database(self) -> str | None:
        """The one catalog a PostgreSQL / SQLite connection sees: the URL's database (file stem)."""
        if not self.flavor.one_catalog:
            return None
        name = sa.engine.make_url(self.url).database or ""
        return Path(name).stem.lower() if self.dialect == "sqlite" else name.lower()

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
            with self._sqlalchemy_connect() as conn, conn.begin():  # PostgreSQL: BEGIN READ ONLY
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
            scheme, rest = url.split(":", 1)
            if self.flavor.driver and "+" not in scheme:
                url = f"{self.flavor.schemes[0]}+{self.flavor.driver}:{rest}"
            connect_args: dict[str, Any] = {}
            if url.startswith("sqlite:///") and "mode=ro" not in url:
                url = f"sqlite:///file:{url.removeprefix('sqlite:///')}?mode=ro&uri=true"
            if self.dialect == "postgres":
                # an address that drops packets fails within 10 s, then is retried under the deadline
                connect_args["connect_timeout"] = 10
            try:
                # no pool: a Warehouse is built per check run, and a pooled connection would outlive it
                engine = sa.create_engine(url, poolclass=sa.pool.NullPool, connect_args=connect_args)
            except ImportError as exc:  # SQLAlchemy imports the DBAPI driver here
                raise UnsupportedWarehouse(
                    f"warehouse {_redact(url)}: its driver is not installed ({exc}); install it "
                    f"({self.flavor.install}) or name an installed one in the URL"
                    + (f" (e.g. {self.flavor.schemes[0]}+{self.flavor.driver}://)" if self.flavor.driver else ""))
            except sa.exc.ArgumentError as exc:
                raise WarehouseError(f"warehouse.url {_redact(url)!r} is not a valid SQLAlchemy URL: {exc}")
            if engine.dialect.name == "postgresql":
                engine = engine.execution_options(postgresql_readonly=True)
            self._engine = engine
        engine = self._engine
        system = f"warehouse {engine.url.render_as_string(hide_password=True)}"
        try:
            return retry.call(engine.connect, system=system, endpoint="connect", policy=WAREHOUSE_POLICY,
                              classify=_connection_fault, error=WarehouseError,
                              hint="check that the database is up and reachable from here")
        except sa.exc.DBAPIError as exc:  # not transient: a wrong password, role or database name
            reason = str(exc.orig or exc).strip().splitlines()[0]
            raise WarehouseError(f"{system}: connect refused: {reason}; check the user, password and database "
                                 f"in warehouse.url (not retried: it would fail the same way)") from exc

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
        """The quoted relation in the product's SQL (DuckDB's; transpiled per session). On a one-catalog
        engine the catalog must be the connected database and is left out."""
        if not self.flavor.one_catalog:
            return quote_relation(dataset_id, SOURCE_DIALECT)
        catalog, schema, table = relation_parts(dataset_id, self.flavor.default_schema)
        if catalog is not None and catalog != self.database:
            raise WarehouseError(f"{dataset_id}: its catalog {catalog!r} is not the database warehouse.url connects "
                                 f"to ({self.database!r}); {self.dialect} reads one database per connection: point "
                                 f"warehouse.url at {catalog!r} or name the dataset by that database")
        return exp.table_(table, db=schema, quoted=True).sql(dialect=SOURCE_DIALECT)

    def column(self, name: str) -> str:
        return quote_identifier(name, SOURCE_DIALECT)

    def translate(self, sql: str) -> str:
        """The product's SQL (DuckDB's) in this warehouse's dialect; `:name` parameters kept."""
        return sql if self.is_duckdb else _translate(sql, self.dialect)

    def bucket(self, name: str, grain: str, *, column_type: str | None = None, timezone: str = "UTC",
               column_timezone: str | None = None) -> str:
        """A partition column truncated to its grain in this warehouse's SQL, in the check's time
        zone, whatever the session's `TimeZone`: the day (a DATE as is; a timestamp's date in
        `timezone`) or the start of the hour in `timezone` as a naive UTC time (an instant: the two
        01:00s of a 25-hour day are two buckets). A `TIMESTAMP WITH TIME ZONE` column (`column_type`,
        as `table_schema` spells it) is an instant; a naive one was written in `column_timezone`
        (default: `timezone`). Written once in DuckDB's SQL and transpiled by sqlglot."""
        if grain not in ("day", "hour"):
            raise WarehouseError(f"unknown grain {grain!r}: use day or hour")
        column = quote_identifier(name, SOURCE_DIALECT)
        kind = (column_type or "").upper()
        if kind == "DATE" or (grain == "day" and not kind.startswith("TIMESTAMP") and timezone == "UTC"
                              and (column_timezone or timezone) == "UTC"):
            sql = f"CAST({column} AS DATE)" if grain == "day" else f"DATE_TRUNC('HOUR', CAST({column} AS TIMESTAMP))"
            return sqlglot.transpile(sql, read=SOURCE_DIALECT, write=SOURCE_DIALECT)[0]
        local, utc = _zoned(column, kind.startswith("TIMESTAMP WITH TIME ZONE"), timezone, column_timezone or timezone)
        if ("AT TIME ZONE" in local or "AT TIME ZONE" in utc) and self.dialect == "sqlite":
            raise WarehouseError(f"timezone {timezone!r} on {name!r}: SQLite has no time zones; use UTC (the "
                                 f"column's stamps as stored) or a warehouse that has them (DuckDB, PostgreSQL)")
        if grain == "day":
            sql = f"CAST({local} AS DATE)"
        elif local == utc:
            sql = f"DATE_TRUNC('HOUR', {utc})"
        else:
            # the local hour's start as an instant: the UTC time less the minutes into the local hour
            # (no local -> UTC conversion, which a repeated 01:00 would make ambiguous)
            sql = f"{utc} - ({local} - DATE_TRUNC('HOUR', {local}))"
        return sqlglot.transpile(sql, read=SOURCE_DIALECT, write=SOURCE_DIALECT)[0]  # a session transpiles it on

    def bounds(self, start: datetime, end: datetime, *, column_type: str | None = None,
               column_timezone: str = "UTC") -> dict[str, datetime]:
        """`start` / `end` (naive UTC instants) as parameters comparable with the raw column whatever
        the session's zone: aware UTC times for a `TIMESTAMP WITH TIME ZONE` column; the column's
        own wall-clock for a naive one (written in `column_timezone`)."""
        utc = ZoneInfo("UTC")
        if (column_type or "").upper().startswith("TIMESTAMP WITH TIME ZONE"):
            return {"start": start.replace(tzinfo=utc), "end": end.replace(tzinfo=utc)}
        if column_timezone == "UTC":
            return {"start": start, "end": end}
        zone = ZoneInfo(column_timezone)
        return {k: v.replace(tzinfo=utc).astimezone(zone).replace(tzinfo=None) for k, v in
                (("start", start), ("end", end))}


def _zoned(column: str, aware: bool, timezone: str, column_timezone: str) -> tuple[str, str]:
    """(the local wall-clock time in `timezone`, the naive UTC time) of a column, in DuckDB's SQL.
    `AT TIME ZONE` means the same on DuckDB and PostgreSQL: on an instant it gives the zone's wall
    clock; on a naive time it reads it as the zone's wall clock and gives the instant."""
    def zone(name: str) -> str:
        return exp.Literal.string(name).sql(SOURCE_DIALECT)

    if aware:
        return f"({column} AT TIME ZONE {zone(timezone)})", f"({column} AT TIME ZONE 'UTC')"
    naive = f"CAST({column} AS TIMESTAMP)"
    instant = f"({naive} AT TIME ZONE {zone(column_timezone)})"
    local = naive if column_timezone == timezone else f"({instant} AT TIME ZONE {zone(timezone)})"
    utc = naive if column_timezone == "UTC" else f"({instant} AT TIME ZONE 'UTC')"
    return local, utc


class WarehouseSession:
    """Queries over one open connection. Parameters are named, `:name`, on every backend."""

    def __init__(self, warehouse: Warehouse, conn: Any):
        self.warehouse = warehouse
        self.conn = conn

    def query(self, sql: str, params: Params = None) -> tuple[list[str], list[tuple]]:
        try:
            sql = self.warehouse.translate(sql)
        except sqlglot.errors.SqlglotError as exc:
            raise ReadOnlyViolation(f"refused: statement could not be read as DuckDB SQL to transpile to "
                                    f"{self.warehouse.dialect} ({exc}): {sql[:200]}") from exc
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
        """Columns in ordinal order, types in one vocabulary (`canonical_type`); an empty list when
        the relation does not exist."""
        wh = self.warehouse
        wh.relation(dataset_id)  # a catalog the connection cannot see is an error, not "no columns"
        catalog, schema, table = relation_parts(dataset_id, wh.flavor.default_schema)
        where, params = ["lower(table_name) = :table_name"], {"table_name": table}
        if schema is not None:
            where.append("lower(table_schema) = :table_schema")
            params["table_schema"] = schema
        if catalog is not None and wh.is_duckdb:
            where.append("lower(table_catalog) = :table_catalog")
            params["table_catalog"] = catalog
        extra = "" if wh.is_duckdb else ", numeric_precision, numeric_scale, udt_name"
        sql = (f"SELECT column_name, data_type{extra} FROM information_schema.columns WHERE "
               + " AND ".join(where) + " ORDER BY ordinal_position")
        return [Column(str(r["column_name"]), canonical_type(wh.dialect, str(r["data_type"]), r.get("numeric_precision"),
                                                             r.get("numeric_scale"), r.get("udt_name")))
                for r in self.rows(sql, params)]


@functools.lru_cache(maxsize=512)
def _translate(sql: str, dialect: str) -> str:
    tree = sqlglot.parse_one(sql, read=SOURCE_DIALECT)
    # `:name` stays `:name` (SQLAlchemy binds it), whatever the target's own placeholder style
    tree = tree.transform(lambda n: exp.var(f":{n.name}") if isinstance(n, exp.Placeholder) and n.name else n)
    return tree.sql(dialect=dialect)


def _connection_fault(exc: BaseException) -> str | None:
    """A transient failure to connect (retried); anything else is raised at once."""
    text = str(exc).lower()
    return retry.describe(exc).splitlines()[0] if any(m in text for m in _CONNECTION_FAULTS) else None


def _is_lock_conflict(exc: BaseException) -> bool:
    text = str(exc).lower()
    return any(marker in text for marker in _LOCK_MARKERS)
