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

from airflow import DAG
from airflow.datasets import Dataset
from airflow.models.param import Param
from airflow.sensors.python import PythonSensor
import estate_tasks
from estate_lineage import LineageOperator

EXPORT_GLOB = "gl_{export_date}_*.csv"  # export_date as YYYYMMDD
GL_ENTRIES = Dataset("duckdb://finance/bronze/gl_entries")


def landing_dir() -> Path:
    return Path(os.environ["DW_HOME"]) / "landing"


def export_has_landed(export_date: str) -> bool:
    """True once any file of the export is in the landing zone."""
    compact = estate_tasks.parse_export_date(export_date).strftime("%Y%m%d")
    return any(landing_dir().glob(EXPORT_GLOB.format(export_date=compact)))


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
    # its OpenLineage inputs and outputs (landed files -> finance.bronze.gl_entries with the schema
    # and row count it wrote) come from LineageOperator; the outlet schedules month_end_close
    load_export = LineageOperator(
        task_id="load",
        python_callable=estate_tasks.load_gl_export,
        planned_lineage=estate_tasks.planned_gl_export,
        op_kwargs={"export_date_value": "{{ params.export_date }}", "export_glob": EXPORT_GLOB},
        outlets=[GL_ENTRIES],
    )
    wait_for_export >> load_export
