"""Evidence of the two nights written by hand from the estate's realistic facts, parametrised by the
estate's names so the same facts can be replayed on a renamed estate."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from dw_assets.core.evidence import (
    DatasetSchema,
    EvidenceBundle,
    FailureEvent,
    GraphNode,
    LandedFile,
    ModelSource,
    PartitionProfile,
    SchemaChange,
    Symptom,
    TaskRun,
)

T0 = datetime(2026, 10, 1, 4, 0, tzinfo=UTC)  # 00:00 in New York


@dataclass(frozen=True)
class Names:
    gl_table: str = "finance.bronze.gl_entries"
    gl_dag: str = "gl_landing"
    load_task: str = "load"
    sensor_task: str = "wait_for_export"
    close_dag: str = "month_end_close"
    stg_gl: str = "analytics.stg_gl_entries"
    export_prefix: str = "gl"
    app_table: str = "app.orders"
    lake_table: str = "lake.orders_clean"
    orders_dag: str = "orders_daily"
    clean_task: str = "orders_clean"
    stg_orders: str = "analytics.stg_orders"
    fct_revenue: str = "analytics.fct_revenue"
    column: str = "discount"
    model_path: str = "dbt_project/models/staging/stg_orders.sql"


RENAMED = Names(gl_table="ledger.raw.journal_lines", gl_dag="erp_ingest", load_task="copy_lines",
                sensor_task="await_files", close_dag="close_books", stg_gl="mart.stg_journal",
                export_prefix="je", app_table="shop.sales", lake_table="bronze.sales_copy",
                orders_dag="sales_sync", clean_task="copy_sales", stg_orders="mart.stg_sales",
                fct_revenue="mart.fct_sales", column="rebate", model_path="models/stg_sales.sql")


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def night1(n: Names = Names()) -> EvidenceBundle:
    """Two parts land at 00:02 and 00:34; the sensor released at 00:02, the load ran 00:03-00:05."""
    part = "2026-09-30"
    stem = f"{n.export_prefix}_20260930"
    glob = f"{n.export_prefix}_{{partition_compact}}_*.csv"
    load = TaskRun("airflow", n.gl_dag, n.load_task, "manual__1", "success", at(3), at(5),
                   conf={"export_date": part}, outputs=(n.gl_table,))
    sensor = TaskRun("airflow", n.gl_dag, n.sensor_task, "manual__1", "success", at(1), at(2.5),
                     conf={"export_date": part})
    close = TaskRun("airflow", n.close_dag, "dbt_build", "asset_triggered__1", "success", at(6), at(9),
                    inputs=(n.gl_table,), outputs=(n.stg_gl,))
    files = (
        LandedFile(f"{stem}_part0001.csv", at(2), 61_000, {"posting_date": (date(2026, 9, 1), date(2026, 9, 19))},
                   dataset_id=n.gl_table, partition=part, glob=glob),
        LandedFile(f"{stem}_part0002.csv", at(34), 44_500, {"posting_date": (date(2026, 9, 20), date(2026, 9, 30))},
                   dataset_id=n.gl_table, partition=part, glob=glob),
        LandedFile(f"{stem}.done", at(34.5), is_marker=True, dataset_id=n.gl_table, partition=part, glob=glob),
    )
    profile = PartitionProfile(n.gl_table, "export_date", part, 61_000, {f"{stem}_part0001.csv": 61_000},
                               {"posting_date": (date(2026, 9, 1), date(2026, 9, 19))},
                               (date(2026, 9, 1), date(2026, 9, 30)), "entry_id", 0,
                               (104_000, 106_500, 103_200, 105_800, 102_900, 107_100))
    symptom = Symptom("volume_low", n.gl_table, at(60), f"{n.gl_table} 2026-09-30 holds 58% of its history",
                      partition=part, metrics={"ratio": 0.58})
    upstream = (GraphNode(f"airflow:{n.gl_dag}.{n.load_task}", "task", "airflow", 1,
                          file_path=f"estate/dags/{n.gl_dag}.py"),)
    return EvidenceBundle(symptom, (at(-48 * 60), at(61)), upstream=upstream, task_runs=(sensor, load, close),
                          landed_files=files, profiles=(profile,))


def night2(n: Names = Names()) -> EvidenceBundle:
    """At 00:40 the app's column became text with 'N/A' rows; the copy task ran green; dbt failed."""
    col = n.column
    message = (f'Conversion Error: Could not convert string "N/A" to DECIMAL(18,2) when casting from source '
               f'column {col}\n\nLINE 12:     cast({col} as decimal(18, 2)) as {col},')
    clean = TaskRun("airflow", n.orders_dag, n.clean_task, "manual__2", "success", at(41), at(42),
                    outputs=(n.lake_table,), inputs=(n.app_table,))
    dbt = TaskRun("airflow", n.orders_dag, "dbt_revenue", "manual__2", "failed", at(42), at(44),
                  inputs=(n.lake_table,), outputs=(n.stg_orders, n.fct_revenue))
    fail = FailureEvent(f"model.demo.{n.fct_revenue.rsplit('.', 1)[-1]}", "run-fct", at(44), message,
                        outputs=(n.fct_revenue,))
    sql = (f"with source as (select * from {{{{ source('lake', '{n.lake_table.rsplit('.', 1)[-1]}') }}}})\n"
           f"select\n    order_id,\n    cast(amount as decimal(18, 2)) as amount,\n"
           f"    cast({col} as decimal(18, 2)) as {col},\n    status\nfrom source\n")
    upstream = (
        GraphNode(n.stg_orders, "model", "dbt", 1, file_path=n.model_path),
        GraphNode(n.lake_table, "source", "warehouse", 2),
        GraphNode(f"airflow:{n.orders_dag}.{n.clean_task}", "task", "airflow", 3),
        GraphNode(n.app_table, "dataset", "app", 4),
    )
    symptom = Symptom("failure", n.fct_revenue, at(44), f"dbt {n.fct_revenue} failed", job=fail.job,
                      error_message=message)
    return EvidenceBundle(
        symptom, (at(-48 * 60), at(45)), upstream=upstream,
        schema_changes=(SchemaChange(n.lake_table, col, "type_changed", at(42), "DECIMAL(18,2)", "VARCHAR",
                                     run_id="r-clean"),),
        schemas=(DatasetSchema(n.app_table, {"order_id": "VARCHAR", col: "VARCHAR"}, "app database"),),
        task_runs=(clean, dbt), failures=(fail,),
        models=(ModelSource(n.stg_orders, n.stg_orders.rsplit(".", 1)[-1], n.model_path, sql, 1),),
        profiles=(PartitionProfile(n.lake_table, "", "*", 120_000, non_castable={col: ("N/A",)}),),
    )
