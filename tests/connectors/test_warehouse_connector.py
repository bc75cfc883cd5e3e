"""The read-only warehouse connector: statement guard, relation naming, lock retries, schemas."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from datetime import datetime

import pytest

from dw_assets.connectors.warehouse import (
    ReadOnlyViolation,
    ResultTooLarge,
    UnsupportedWarehouse,
    Warehouse,
    WarehouseError,
    WarehouseLocked,
    assert_read_only,
    canonical_type,
    quote_relation,
)


@pytest.mark.parametrize("sql", [
    "SELECT 1", "WITH a AS (SELECT 1 AS x) SELECT x FROM a", "SELECT 1 UNION ALL SELECT 2",
    "DESCRIBE finance.bronze.gl_entries", "SHOW TABLES", "PRAGMA table_info('gl_entries')",
    "SELECT count(*) FROM t WHERE d = :p AND x::INT > 0"])
def test_reads_are_allowed(sql):
    assert_read_only(sql)


@pytest.mark.parametrize("sql", [
    "INSERT INTO t VALUES (1)", "WITH a AS (SELECT 1) INSERT INTO t SELECT * FROM a", "DELETE FROM t",
    "UPDATE t SET x = 1", "DROP TABLE t", "CREATE TABLE t (x INT)", "SELECT 1; DROP TABLE t",
    "SELECT * INTO t2 FROM t", "COPY t TO 'out.csv'", "ATTACH 'x.duckdb' AS x", "PRAGMA enable_profiling",
    "CALL pragma_table_info('t')", "SET threads = 1"])
def test_writes_and_unknown_statements_are_refused_before_sending(sql):
    with pytest.raises(ReadOnlyViolation, match="refused"):
        assert_read_only(sql)


def test_dataset_ids_map_to_quoted_relations():
    assert quote_relation("finance.bronze.gl_entries") == '"finance"."bronze"."gl_entries"'
    assert quote_relation("lake.orders_clean") == '"lake"."main"."orders_clean"'
    with pytest.raises(WarehouseError, match="not catalog.schema.table"):
        quote_relation("a..b")


def test_queries_run_read_only_on_attached_catalogs(estate):
    wh = Warehouse.from_settings(estate.settings)
    assert wh.scalar("SELECT count(*) FROM finance.bronze.gl_entries WHERE export_date = :d",
                     {"d": "2026-09-30"}) == 580
    assert wh.scalar("SELECT count(*) FROM fct_trial_balance") == 4  # the URL's own catalog is USEd
    import duckdb

    with wh.session() as s, pytest.raises(duckdb.Error, match="read-only"):
        s.conn.execute("INSERT INTO finance.bronze.gl_entries (entry_id) VALUES ('x')")  # bypassing the guard


def test_table_schema_reads_information_schema(estate):
    cols = Warehouse.from_settings(estate.settings).table_schema("lake.orders_clean")
    assert [c.name for c in cols][:3] == ["order_id", "order_date", "customer_id"]
    assert {c.name: c.data_type for c in cols}["discount"] == "DECIMAL(18,2)"
    assert Warehouse.from_settings(estate.settings).table_schema("lake.nope") == []


def test_rows_refuses_results_past_the_limit(estate):
    wh = Warehouse.from_settings(estate.settings, max_rows=10)
    with pytest.raises(ResultTooLarge, match="aggregates"):
        wh.rows("SELECT entry_id FROM finance.bronze.gl_entries")


def test_missing_catalog_file_is_named(estate, tmp_path):
    wh = Warehouse("duckdb://", {"gone": str(tmp_path / "gone.duckdb")})
    with pytest.raises(WarehouseError, match="catalog file.s. missing.*gone.duckdb"):
        wh.scalar("SELECT 1")


def _hold_write_lock(path, seconds: float) -> subprocess.Popen:
    code = textwrap.dedent(f"""
        import duckdb, sys, time
        conn = duckdb.connect({str(path)!r})
        print("locked", flush=True)
        time.sleep({seconds})
        conn.close()
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "locked"
    return proc


def test_lock_conflict_is_retried_until_the_writer_is_done(estate):
    writer = _hold_write_lock(estate.finance, 1.5)
    try:
        wh = Warehouse.from_settings(estate.settings, lock_timeout_s=60)
        assert wh.scalar("SELECT count(*) FROM finance.bronze.gl_entries") > 0
    finally:
        writer.wait(timeout=60)


def test_lock_conflict_past_the_budget_raises_warehouse_locked(estate):
    writer = _hold_write_lock(estate.finance, 30)
    try:
        with pytest.raises(WarehouseLocked, match="still locked"):
            Warehouse.from_settings(estate.settings, lock_timeout_s=0.3).scalar("SELECT 1")
    finally:
        writer.kill()
        writer.wait(timeout=30)


def test_sqlalchemy_urls_open_sqlite_read_only(tmp_path):
    import sqlite3

    db = tmp_path / "app.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE orders (id INTEGER, discount NUMERIC)")
    conn.execute("INSERT INTO orders VALUES (1, 0.5)")
    conn.commit()
    conn.close()
    wh = Warehouse(f"sqlite:///{db}")
    assert wh.scalar("SELECT count(*) FROM orders WHERE id = :i", {"i": 1}) == 1
    with wh.session() as s, pytest.raises(Exception, match="readonly"):
        import sqlalchemy as sa

        s.conn.execute(sa.text("INSERT INTO orders VALUES (2, 1)"))


def test_a_main_file_not_built_yet_leaves_the_attached_catalogs_usable(estate):
    estate.analytics.unlink()
    wh = Warehouse.from_settings(estate.settings)
    assert wh.scalar("SELECT count(*) FROM finance.bronze.gl_entries") > 0
    with pytest.raises(WarehouseError, match="analytics.duckdb does not exist yet"):
        wh.scalar("SELECT count(*) FROM analytics.main.fct_trial_balance")


def test_a_database_that_refuses_connections_is_retried_then_named_without_its_password(monkeypatch):
    import socket

    from dw_assets.connectors import warehouse as warehouse_module
    from dw_assets.connectors.retry import RetryPolicy

    monkeypatch.setattr(warehouse_module, "WAREHOUSE_POLICY", RetryPolicy(attempts=3, backoff_s=0.01))
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    wh = Warehouse(f"postgresql://reader:s3cret@127.0.0.1:{port}/estate")
    with pytest.raises(WarehouseError) as err:
        wh.scalar("SELECT 1")
    message = str(err.value)
    assert f"warehouse postgresql+psycopg://reader:***@127.0.0.1:{port}/estate: connect failed after 3 attempt(s)" \
        in message and "s3cret" not in message and "database is up" in message


def test_an_unsupported_warehouse_is_refused_naming_the_supported_ones():
    with pytest.raises(UnsupportedWarehouse) as err:
        Warehouse("mysql://reader:s3cret@db.internal/estate")
    message = str(err.value)
    assert "'mysql' is not a supported warehouse" in message and "postgresql://" in message
    assert "duckdb://" in message and "how to add one" in message and "s3cret" not in message


def test_a_missing_driver_is_named_with_what_to_install():
    wh = Warehouse("postgresql+pg8000://reader:s3cret@127.0.0.1:1/estate")  # pg8000 is not installed
    with pytest.raises(UnsupportedWarehouse, match=r"driver is not installed.*psycopg\[binary\].*postgresql\+psycopg://"):
        wh.scalar("SELECT 1")


def test_postgres_ids_name_the_connected_database_and_the_public_schema():
    wh = Warehouse("postgresql://reader@db.internal/estate")
    assert wh.relation("estate.sales.orders") == '"sales"."orders"'
    assert wh.relation("estate.orders") == '"public"."orders"'
    with pytest.raises(WarehouseError, match="catalog 'finance' is not the database warehouse.url connects to"):
        wh.relation("finance.bronze.gl_entries")


def test_the_products_sql_is_transpiled_with_its_parameters_kept():
    wh = Warehouse("postgresql://reader@db.internal/estate")
    assert wh.translate(f"SELECT {wh.bucket('at', 'hour')} AS p, CAST(x AS VARCHAR) FROM t WHERE d >= :start "
                        "AND s = '10:30' GROUP BY 1") == \
        "SELECT DATE_TRUNC('HOUR', CAST(\"at\" AS TIMESTAMP)) AS p, CAST(x AS TEXT) FROM t WHERE d >= :start " \
        "AND s = '10:30' GROUP BY 1"
    duck = Warehouse("duckdb://")
    assert duck.translate("SELECT x::INT FROM t WHERE d = :p") == "SELECT x::INT FROM t WHERE d = :p"  # as written


@pytest.mark.parametrize(("data_type", "precision", "scale", "udt", "duckdb_spelling"), [
    ("character varying", None, None, "varchar", "VARCHAR"), ("text", None, None, "text", "VARCHAR"),
    ("bigint", 64, 0, "int8", "BIGINT"), ("numeric", 18, 2, "numeric", "DECIMAL(18,2)"),
    ("double precision", 53, None, "float8", "DOUBLE"), ("timestamp without time zone", None, None, "timestamp",
                                                         "TIMESTAMP"),
    ("timestamp with time zone", None, None, "timestamptz", "TIMESTAMP WITH TIME ZONE"),
    ("jsonb", None, None, "jsonb", "JSON"), ("ARRAY", None, None, "_int4", "INTEGER[]")])
def test_postgres_types_read_in_duckdbs_spelling(data_type, precision, scale, udt, duckdb_spelling):
    assert canonical_type("postgres", data_type, precision, scale, udt) == duckdb_spelling
    assert canonical_type("duckdb", duckdb_spelling) == duckdb_spelling  # DuckDB's own are the vocabulary


def test_naive_stamps_written_in_one_zone_are_bucketed_in_the_checks_zone(tmp_path):
    """`column_timezone: UTC`, `timezone: America/New_York` on a naive TIMESTAMP column: the hours
    around the end of daylight saving are New York's hours as UTC instants (two 01:00s, one
    bucket each), the days New York's; a SQLite warehouse refuses a zone it cannot apply."""
    import duckdb

    path = tmp_path / "lake.duckdb"
    with duckdb.connect(str(path)) as conn:
        conn.execute("CREATE TABLE ev AS SELECT TIMESTAMP '2026-11-01 03:00' + i * INTERVAL 20 MINUTE AS at "
                     "FROM range(15) t(i)")  # 03:00-07:40 UTC = 23:00 EDT .. 02:40 EST
    wh = Warehouse("duckdb://", {"lake": str(path)})
    hour = wh.bucket("at", "hour", column_type="TIMESTAMP", timezone="America/New_York", column_timezone="UTC")
    day = wh.bucket("at", "day", column_type="TIMESTAMP", timezone="America/New_York", column_timezone="UTC")
    hours = wh.rows(f"SELECT {hour} AS p, count(*) AS n FROM lake.ev GROUP BY p ORDER BY p")
    assert [(r["p"].hour, r["n"]) for r in hours] == [(3, 3), (4, 3), (5, 3), (6, 3), (7, 3)]  # UTC starts
    days = wh.rows(f"SELECT {day} AS p, count(*) AS n FROM lake.ev GROUP BY p ORDER BY p")
    assert [(str(r["p"]), r["n"]) for r in days] == [("2026-10-31", 3), ("2026-11-01", 12)]
    half = wh.bucket("at", "hour", column_type="TIMESTAMP", timezone="Asia/Kolkata", column_timezone="UTC")
    assert {r["p"].minute for r in wh.rows(f"SELECT {half} AS p FROM lake.ev")} == {30}  # IST hours start at :30 UTC
    assert wh.bounds(datetime(2026, 11, 1, 6), datetime(2026, 11, 1, 7), column_type="TIMESTAMP",
                     column_timezone="America/New_York") == {"start": datetime(2026, 11, 1, 1),
                                                              "end": datetime(2026, 11, 1, 2)}
    with pytest.raises(WarehouseError, match="SQLite has no time zones"):
        Warehouse(f"sqlite:///{tmp_path}/x.db").bucket("at", "hour", timezone="Europe/Berlin")
