"""Task code shared by the estate's DAGs on Airflow 2 and 3 (no Airflow imports here).

Airflow runs in its own venv without the Data Workers package, so this module is self-contained:
stdlib at import time (DAG files are parsed every few seconds), duckdb imported by the tasks that use
it. `estate/dags/airflow2/estate_tasks.py` is a symlink to it.

Environment (set by `dw_assets.harness.airflow`): `DW_HOME` (the estate), `DW_ESTATE_TZ` (the zone
of the estate's naive timestamps, default America/New_York).

No lineage is emitted here: Airflow's OpenLineage provider reports every task. Each task returns
what it read and wrote (`"lineage"`: inputs and outputs as namespace, name, schema and row count:
DuckDB tables as namespace `duckdb://<file path>` + name `<catalog>.<schema>.<table>`, landed files
as `file://` + path), and `estate_lineage.LineageOperator` hands that to the provider through
`get_openlineage_facets_on_complete`; `planned_*` give the same datasets, without what was written,
for a failed run.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

log = logging.getLogger(__name__)
T = TypeVar("T")

GL_CSV_COLUMNS = {"entry_id": "VARCHAR", "entity": "VARCHAR", "account": "VARCHAR",
                  "posting_date": "DATE", "debit": "DECIMAL(18,2)", "credit": "DECIMAL(18,2)"}
GL_ENTRIES_DDL = """
CREATE SCHEMA IF NOT EXISTS bronze;
CREATE TABLE IF NOT EXISTS bronze.gl_entries (
    entry_id VARCHAR, entity VARCHAR, account VARCHAR, posting_date DATE,
    debit DECIMAL(18,2), credit DECIMAL(18,2), export_date DATE, source_file VARCHAR,
    loaded_at TIMESTAMP
);
"""
ORDERS_CLEAN_COLUMNS = ("order_id", "order_date", "customer_id", "amount", "discount", "status")
LOCK_WAIT_S = 120.0


def dw_home() -> Path:
    value = os.environ.get("DW_HOME")
    if not value:
        raise RuntimeError("DW_HOME is not set in the task environment: start Airflow through the harness")
    return Path(value)


def estate_now() -> datetime:
    """Now as the estate stores it: a naive timestamp local to the books."""
    zone = ZoneInfo(os.environ.get("DW_ESTATE_TZ") or "America/New_York")
    return datetime.now(zone).replace(tzinfo=None, microsecond=0)


def parse_export_date(value: Any) -> date:
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise ValueError(f"export_date must be YYYY-MM-DD (trigger with conf {{\"export_date\": "
                         f"\"2026-09-30\"}}), got {value!r}") from None


def retry_on_duckdb_lock(action: Callable[[], T], what: str, wait_s: float = LOCK_WAIT_S) -> T:
    """Run `action`, retrying while another process holds the DuckDB file's write lock."""
    import duckdb

    deadline = time.monotonic() + wait_s
    while True:
        try:
            return action()
        except duckdb.IOException as exc:
            if "lock" not in str(exc).lower() or time.monotonic() > deadline:
                raise
            log.warning("%s: DuckDB file is locked by another process, retrying: %s", what, exc)
            time.sleep(2)


def _sql_str(value: str | Path) -> str:
    return "'" + str(value).replace("'", "''") + "'"


def table_schema(con: Any, catalog: str, schema: str, table: str) -> list[tuple[str, str]]:
    return con.execute(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_catalog = ? AND table_schema = ? AND table_name = ? ORDER BY ordinal_position",
        [catalog, schema, table]).fetchall()


def _load_gl(finance_db: Path, export_date: date, files: list[Path]) -> int:
    import duckdb

    columns = "{" + ", ".join(f"'{c}': '{t}'" for c, t in GL_CSV_COLUMNS.items()) + "}"
    with duckdb.connect(str(finance_db)) as con:
        con.execute(GL_ENTRIES_DDL)
        con.execute("BEGIN TRANSACTION")
        con.execute("DELETE FROM bronze.gl_entries WHERE export_date = ?", [export_date])
        con.execute(
            "INSERT INTO bronze.gl_entries SELECT entry_id, entity, account, posting_date, debit, credit, "
            "?::DATE, parse_filename(filename), ?::TIMESTAMP "
            f"FROM read_csv(?, header = true, columns = {columns}, filename = true)",
            [export_date, estate_now(), [str(f) for f in files]])
        con.execute("COMMIT")
        (rows,) = con.execute("SELECT count(*) FROM bronze.gl_entries WHERE export_date = ?",
                              [export_date]).fetchone()
        return int(rows)


def dataset(namespace: str, name: str, schema: list[tuple[str, str]] | None = None,
            rows: int | None = None) -> dict[str, Any]:
    """A dataset a task read or wrote, as `estate_lineage` turns it into an OpenLineage dataset."""
    found: dict[str, Any] = {"namespace": namespace, "name": name}
    if schema is not None:
        found["schema"] = [list(column) for column in schema]
    if rows is not None:
        found["rows"] = rows
    return found


def _gl_files(export_date: date, export_glob: str) -> list[Path]:
    landing = dw_home() / "landing"
    return sorted(landing.glob(export_glob.format(export_date=export_date.strftime("%Y%m%d"))))


def _finance_db() -> Path:
    return dw_home() / "warehouse" / "finance.duckdb"


def planned_gl_export(export_date_value: Any, export_glob: str) -> dict[str, Any]:
    """What `load_gl_export` reads and writes, before (or without) running it."""
    try:
        files = _gl_files(parse_export_date(export_date_value), export_glob)
    except ValueError:
        files = []
    return {"inputs": [dataset("file://", str(f)) for f in files],
            "outputs": [dataset(f"duckdb://{_finance_db()}", "finance.bronze.gl_entries")]}


def load_gl_export(export_date_value: Any, export_glob: str) -> dict[str, Any]:
    """Replace the export_date partition of finance.bronze.gl_entries with the files present now."""
    export_date = parse_export_date(export_date_value)
    files = _gl_files(export_date, export_glob)
    if not files:
        raise FileNotFoundError(f"no files matching {export_glob!r} for {export_date} in {dw_home() / 'landing'}")
    finance_db = _finance_db()
    finance_db.parent.mkdir(parents=True, exist_ok=True)
    rows = retry_on_duckdb_lock(lambda: _load_gl(finance_db, export_date, files), "gl_landing.load")
    schema = retry_on_duckdb_lock(lambda: _read_schema(finance_db, "finance", "bronze", "gl_entries"),
                                  "gl_landing.load schema")
    log.info("loaded %s rows for export_date %s from %s", rows, export_date, [f.name for f in files])
    lineage = {"inputs": [dataset("file://", str(f)) for f in files],
               "outputs": [dataset(f"duckdb://{finance_db}", "finance.bronze.gl_entries", schema, rows)]}
    return {"export_date": export_date.isoformat(), "rows": rows, "files": [f.name for f in files],
            "lineage": lineage}


def _read_schema(db: Path, catalog: str, schema: str, table: str) -> list[tuple[str, str]]:
    import duckdb

    with duckdb.connect(str(db), read_only=True) as con:
        return table_schema(con, catalog, schema, table)


def _clean_orders(app_db: Path, lake_db: Path) -> tuple[int, list[tuple[str, str]], list[tuple[str, str]]]:
    import duckdb

    columns = ", ".join(f"o.{c}" for c in ORDERS_CLEAN_COLUMNS)
    with duckdb.connect(str(lake_db)) as con:
        con.execute(f"ATTACH {_sql_str(app_db)} AS app (READ_ONLY)")
        con.execute("CREATE TABLE IF NOT EXISTS lake.main.orders_clean (order_id VARCHAR, loaded_at TIMESTAMP)")
        # the source's column types are kept as they are (a text discount stays text); rows already
        # in the lake keep their load time, so loaded_at says when an order first arrived
        con.execute(
            f"CREATE OR REPLACE TABLE lake.main.orders_clean AS "
            f"SELECT {columns}, coalesce(l.loaded_at, ?::TIMESTAMP) AS loaded_at "
            f"FROM app.main.orders o LEFT JOIN lake.main.orders_clean l USING (order_id) "
            f"ORDER BY o.order_date, o.order_id", [estate_now()])
        (rows,) = con.execute("SELECT count(*) FROM lake.main.orders_clean").fetchone()
        return (int(rows), table_schema(con, "app", "main", "orders"),
                table_schema(con, "lake", "main", "orders_clean"))


def _orders_dbs() -> tuple[Path, Path]:
    return dw_home() / "app" / "app.duckdb", dw_home() / "warehouse" / "lake.duckdb"


def planned_orders_clean() -> dict[str, Any]:
    """What `clean_orders` reads and writes, before (or without) running it."""
    app_db, lake_db = _orders_dbs()
    return {"inputs": [dataset(f"duckdb://{app_db}", "app.main.orders")],
            "outputs": [dataset(f"duckdb://{lake_db}", "lake.main.orders_clean")]}


def clean_orders() -> dict[str, Any]:
    """Rebuild lake.main.orders_clean from the application's orders table."""
    app_db, lake_db = _orders_dbs()
    if not app_db.exists():
        raise FileNotFoundError(f"the application database {app_db} does not exist: build the estate first")
    rows, app_schema, lake_schema = retry_on_duckdb_lock(lambda: _clean_orders(app_db, lake_db),
                                                         "orders_daily.orders_clean")
    types = dict(lake_schema)
    log.info("wrote %s rows to lake.main.orders_clean (discount %s)", rows, types.get("discount"))
    lineage = {"inputs": [dataset(f"duckdb://{app_db}", "app.main.orders", app_schema)],
               "outputs": [dataset(f"duckdb://{lake_db}", "lake.main.orders_clean", lake_schema, rows)]}
    return {"rows": rows, "schema": types, "lineage": lineage}
