"""gl_landing: land one NetSuite GL export into finance.bronze.gl_entries (owner: data platform).

Trigger with conf `{"export_date": "YYYY-MM-DD"}`. `wait_for_export` releases as soon as
`export_has_landed` sees a file of the export in `$DW_HOME/landing`; `load` then replaces that
export_date partition with the rows of every file matching EXPORT_GLOB at that moment and updates
the dataset `duckdb://finance/bronze/gl_entries`, which schedules `month_end_close`.

The Airflow 2.11 twin of estate/dags/airflow3/gl_landing.py.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import estate_tasks
from airflow import DAG
from airflow.datasets import Dataset
from airflow.models.param import Param
from airflow.operators.python import PythonOperator
from airflow.sensors.python import PythonSensor

EXPORT_GLOB = "gl_{export_date}_*.csv"  # export_date as YYYYMMDD
GL_ENTRIES = Dataset("duckdb://finance/bronze/gl_entries")


def landing_dir() -> Path:
    return Path(os.environ["DW_HOME"]) / "landing"


def export_has_landed(export_date: str) -> bool:
    """True once any file of the export is in the landing zone."""
    compact = estate_tasks.parse_export_date(export_date).strftime("%Y%m%d")
    return any(landing_dir().glob(EXPORT_GLOB.format(export_date=compact)))


def load(export_date: str, dag_run, ti) -> dict:
    run = estate_tasks.TaskRun(dag_run.dag_id, ti.task_id, dag_run.run_id, ti.try_number)
    return estate_tasks.load_gl_export(export_date, EXPORT_GLOB, run)


with DAG(
    dag_id="gl_landing",
    description="Land the NetSuite GL export for one month-end into finance.bronze.gl_entries",
    schedule=None,
    start_date=datetime(2026, 1, 1),
    catchup=False,
    max_active_runs=1,
    tags=["finance", "landing", "netsuite"],
    default_args={"owner": "sam.ortiz", "retries": 0},
    params={"export_date": Param(None, type=["null", "string"], description="YYYY-MM-DD")},
) as dag:
    wait_for_export = PythonSensor(
        task_id="wait_for_export",
        python_callable=export_has_landed,
        op_kwargs={"export_date": "{{ params.export_date }}"},
        poke_interval=5,
        timeout=3600,
        mode="reschedule",
    )
    load_export = PythonOperator(
        task_id="load",
        python_callable=load,
        op_kwargs={"export_date": "{{ params.export_date }}"},
        outlets=[GL_ENTRIES],
    )
    wait_for_export >> load_export
