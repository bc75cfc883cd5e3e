"""Task code shared by the estate's DAGs on Airflow 2 and 3 (no Airflow imports here).

Airflow runs in its own venv without the Data Workers package, so this module is self-contained:
stdlib at import time (DAG files are parsed every few seconds), duckdb and openlineage-python
imported by the tasks that use them. `estate/dags/airflow2/estate_tasks.py` is a symlink to it.

Environment (set by `dw_assets.harness.airflow`): `DW_HOME` (the estate), `OPENLINEAGE_NAMESPACE`
(job namespace, default `airflow://local`), `DW_OPENLINEAGE_URL` (send events over HTTP to it;
else append NDJSON to `$DW_HOME/lineage/events/airflow.ndjson`), `DW_ESTATE_TZ` (the zone of the
estate's naive timestamps, default America/New_York).

Lineage the tasks emit: job `<dag_id>.<task_id>` in the namespace, a parent facet naming the DAG
run (job `<dag_id>`, runId = `dag_run_uuid(dag_id, run_id)`), DuckDB datasets as namespace
`duckdb://<file path>` + name `<catalog>.<schema>.<table>`, landed files as `file://` + path.
"""

from __future__ import annotations

import json
import logging
import os
import time
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

log = logging.getLogger(__name__)
T = TypeVar("T")

PRODUCER = "https://github.com/data-workers/data-workers-dagster/tree/main/estate/dags"
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


def namespace() -> str:
    return os.environ.get("OPENLINEAGE_NAMESPACE") or "airflow://local"


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


def dag_run_uuid(dag_id: str, run_id: str) -> str:
    """A stable OpenLineage runId for a DAG run, so every task and dbt can name the same parent."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"{namespace()}/{dag_id}/{run_id}"))


def parent_context(dag_id: str, run_id: str) -> str:
    """OPENLINEAGE_CONTEXT for dbt-ol: its events get the DAG run as parent."""
    job = {"namespace": namespace(), "name": dag_id}
    return json.dumps({"parent": {"run": {"runId": dag_run_uuid(dag_id, run_id)}, "job": job}})


@dataclass(frozen=True)
class TaskRun:
    dag_id: str
    task_id: str
    run_id: str
    try_number: int = 1

    @property
    def job_name(self) -> str:
        return f"{self.dag_id}.{self.task_id}"

    @property
    def run_uuid(self) -> str:
        key = f"{namespace()}/{self.job_name}/{self.run_id}/{self.try_number}"
        return str(uuid.uuid5(uuid.NAMESPACE_URL, key))


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


class Lineage:
    """START / COMPLETE / FAIL events for one task run, sent through openlineage-python."""

    def __init__(self, run: TaskRun):
        from openlineage.client import OpenLineageClient
        from openlineage.client.event_v2 import set_producer

        set_producer(PRODUCER)
        self.run = run
        self.client = OpenLineageClient(transport=self._transport())

    @staticmethod
    def _transport() -> Any:
        if url := os.environ.get("DW_OPENLINEAGE_URL"):
            from openlineage.client.transport.http import HttpConfig, HttpTransport

            return HttpTransport(HttpConfig(url=url))
        from openlineage.client.transport.file import FileConfig, FileTransport

        path = dw_home() / "lineage" / "events" / "airflow.ndjson"
        path.parent.mkdir(parents=True, exist_ok=True)
        return FileTransport(FileConfig(log_file_path=str(path), append=True))

    @staticmethod
    def dataset(kind: str, ns: str, name: str, schema: list[tuple[str, str]] | None = None,
                row_count: int | None = None) -> Any:
        from openlineage.client.event_v2 import InputDataset, OutputDataset
        from openlineage.client.facet_v2 import output_statistics_output_dataset as stats
        from openlineage.client.facet_v2 import schema_dataset

        facets = {}
        if schema is not None:
            fields = [schema_dataset.SchemaDatasetFacetFields(name=n, type=t) for n, t in schema]
            facets["schema"] = schema_dataset.SchemaDatasetFacet(fields=fields)
        if kind == "input":
            return InputDataset(namespace=ns, name=name, facets=facets)
        output_facets = {} if row_count is None else {
            "outputStatistics": stats.OutputStatisticsOutputDatasetFacet(rowCount=row_count)}
        return OutputDataset(namespace=ns, name=name, facets=facets, outputFacets=output_facets)

    def emit(self, state: str, inputs: list[Any] | None = None, outputs: list[Any] | None = None,
             error: BaseException | None = None) -> None:
        from openlineage.client.event_v2 import Job, Run, RunEvent, RunState
        from openlineage.client.facet_v2 import error_message_run, job_type_job, parent_run

        dag_run_id = dag_run_uuid(self.run.dag_id, self.run.run_id)
        run_facets: dict[str, Any] = {"parent": parent_run.ParentRunFacet(
            run=parent_run.Run(runId=dag_run_id),
            job=parent_run.Job(namespace=namespace(), name=self.run.dag_id),
            root=parent_run.Root(run=parent_run.RootRun(runId=dag_run_id),
                                 job=parent_run.RootJob(namespace=namespace(), name=self.run.dag_id)))}
        if error is not None:
            run_facets["errorMessage"] = error_message_run.ErrorMessageRunFacet(
                message=str(error), programmingLanguage="PYTHON",
                stackTrace="".join(traceback.format_exception(error)))
        job_facets = {"jobType": job_type_job.JobTypeJobFacet(
            processingType="BATCH", integration="AIRFLOW", jobType="TASK")}
        event = RunEvent(eventType=RunState[state], eventTime=datetime.now(UTC).isoformat(),
                         run=Run(runId=self.run.run_uuid, facets=run_facets),
                         job=Job(namespace=namespace(), name=self.run.job_name, facets=job_facets),
                         inputs=inputs or [], outputs=outputs or [])
        try:
            self.client.emit(event)
        except Exception:  # lineage is reporting: a broken endpoint must not fail the load
            log.exception("could not emit the OpenLineage %s event for %s", state, self.run.job_name)


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


def load_gl_export(export_date_value: Any, export_glob: str, run: TaskRun) -> dict[str, Any]:
    """Replace the export_date partition of finance.bronze.gl_entries with the files present now."""
    export_date = parse_export_date(export_date_value)
    landing = dw_home() / "landing"
    files = sorted(landing.glob(export_glob.format(export_date=export_date.strftime("%Y%m%d"))))
    if not files:
        raise FileNotFoundError(f"no files matching {export_glob!r} for {export_date} in {landing}")
    finance_db = dw_home() / "warehouse" / "finance.duckdb"
    finance_db.parent.mkdir(parents=True, exist_ok=True)
    lineage = Lineage(run)
    inputs = [Lineage.dataset("input", "file://", str(f)) for f in files]
    lineage.emit("START", inputs=inputs)
    try:
        rows = retry_on_duckdb_lock(lambda: _load_gl(finance_db, export_date, files), "gl_landing.load")
        schema = retry_on_duckdb_lock(lambda: _read_schema(finance_db, "finance", "bronze", "gl_entries"),
                                      "gl_landing.load schema")
    except BaseException as exc:
        lineage.emit("FAIL", inputs=inputs, error=exc)
        raise
    output = Lineage.dataset("output", f"duckdb://{finance_db}", "finance.bronze.gl_entries", schema, rows)
    lineage.emit("COMPLETE", inputs=inputs, outputs=[output])
    log.info("loaded %s rows for export_date %s from %s", rows, export_date, [f.name for f in files])
    return {"export_date": export_date.isoformat(), "rows": rows, "files": [f.name for f in files]}


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


def clean_orders(run: TaskRun) -> dict[str, Any]:
    """Rebuild lake.main.orders_clean from the application's orders table."""
    app_db = dw_home() / "app" / "app.duckdb"
    lake_db = dw_home() / "warehouse" / "lake.duckdb"
    if not app_db.exists():
        raise FileNotFoundError(f"the application database {app_db} does not exist: build the estate first")
    lineage = Lineage(run)
    source = Lineage.dataset("input", f"duckdb://{app_db}", "app.main.orders")
    lineage.emit("START", inputs=[source])
    try:
        rows, app_schema, lake_schema = retry_on_duckdb_lock(lambda: _clean_orders(app_db, lake_db),
                                                             "orders_daily.orders_clean")
    except BaseException as exc:
        lineage.emit("FAIL", inputs=[source], error=exc)
        raise
    source = Lineage.dataset("input", f"duckdb://{app_db}", "app.main.orders", app_schema)
    output = Lineage.dataset("output", f"duckdb://{lake_db}", "lake.main.orders_clean", lake_schema, rows)
    lineage.emit("COMPLETE", inputs=[source], outputs=[output])
    types = dict(lake_schema)
    log.info("wrote %s rows to lake.main.orders_clean (discount %s)", rows, types.get("discount"))
    return {"rows": rows, "schema": types}
