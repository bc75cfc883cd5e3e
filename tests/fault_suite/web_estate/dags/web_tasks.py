"""Task code of the `web` estate: stdlib at import, duckdb inside the tasks. Paths from WEB_HOME."""

import os
import time


def _connect():
    import duckdb

    path = os.path.join(os.environ["WEB_HOME"], "web.duckdb")
    for _ in range(60):  # another process (the test reading the file) may hold the lock for a moment
        try:
            return duckdb.connect(path)
        except duckdb.IOException:
            time.sleep(1)
    return duckdb.connect(path)


def ingest_clicks(**context):
    """Append the day's click files to raw.clicks (append-only: no delete first)."""
    day = context["dag_run"].conf.get("day") or context["ds"]
    pattern = os.path.join(os.environ["WEB_HOME"], "landing", f"clicks_{day.replace('-', '')}_*.csv")
    con = _connect()
    con.execute("CREATE SCHEMA IF NOT EXISTS raw")
    con.execute("CREATE TABLE IF NOT EXISTS raw.clicks (click_id VARCHAR, visitor_ref VARCHAR, dwell_ms BIGINT, "
                "day DATE)")
    con.execute(f"INSERT INTO raw.clicks SELECT click_id, visitor_ref, dwell_ms, CAST('{day}' AS DATE) "
                f"FROM read_csv('{pattern}', header = true, all_varchar = true)")
    con.close()


def rebuild_sessions(**context):
    """Replace raw.sessions with the latest drop, keeping the drop's own column types."""
    pattern = os.path.join(os.environ["WEB_HOME"], "landing", "sessions_*.csv")
    con = _connect()
    con.execute("CREATE SCHEMA IF NOT EXISTS raw")
    con.execute(f"CREATE OR REPLACE TABLE raw.sessions AS SELECT * FROM read_csv_auto('{pattern}', header = true)")
    con.close()
