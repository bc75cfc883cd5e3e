"""Task code of the `web` estate: stdlib at import, duckdb inside the tasks. Paths from WEB_HOME (default:
`$DW_HOME/web`, so the estate can share an Airflow with another one)."""

import os
import time


def _home():
    return os.environ.get("WEB_HOME") or os.path.join(os.environ["DW_HOME"], "web")


def _connect():
    import duckdb

    os.makedirs(_home(), exist_ok=True)
    path = os.path.join(_home(), "web.duckdb")
    for _ in range(60):  # another process (the test reading the file) may hold the lock for a moment
        try:
            return duckdb.connect(path)
        except duckdb.IOException:
            time.sleep(1)
    return duckdb.connect(path)


def ingest_clicks(**context):
    """Append the day's click files to raw.clicks (append-only: no delete first)."""
    day = context["dag_run"].conf.get("day") or context["ds"]
    pattern = os.path.join(_home(), "landing", f"clicks_{day.replace('-', '')}_*.csv")
    con = _connect()
    con.execute("CREATE SCHEMA IF NOT EXISTS raw")
    con.execute("CREATE TABLE IF NOT EXISTS raw.clicks (click_id VARCHAR, visitor_ref VARCHAR, dwell_ms BIGINT, "
                "day DATE)")
    con.execute(f"INSERT INTO raw.clicks SELECT click_id, visitor_ref, dwell_ms, CAST('{day}' AS DATE) "
                f"FROM read_csv('{pattern}', header = true, all_varchar = true)")
    con.close()


def rebuild_sessions(**context):
    """Replace raw.sessions with the latest drop, keeping the drop's own column types."""
    pattern = os.path.join(_home(), "landing", "sessions_*.csv")
    con = _connect()
    con.execute("CREATE SCHEMA IF NOT EXISTS raw")
    con.execute(f"CREATE OR REPLACE TABLE raw.sessions AS SELECT * FROM read_csv_auto('{pattern}', header = true)")
    con.close()


def build_rollup(**context):
    """Replace the day's row of mart.click_rollup with its click count."""
    day = context["ds"]
    con = _connect()
    con.execute("CREATE SCHEMA IF NOT EXISTS mart")
    con.execute("CREATE TABLE IF NOT EXISTS mart.click_rollup (day DATE, clicks BIGINT)")
    con.execute(f"DELETE FROM mart.click_rollup WHERE day = DATE '{day}'")
    con.execute(f"INSERT INTO mart.click_rollup SELECT day, count(*) FROM raw.clicks WHERE day = DATE '{day}' "
                "GROUP BY day")
    con.close()
