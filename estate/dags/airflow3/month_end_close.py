"""month_end_close: build the close models with dbt (through dbt-ol) when gl_entries is updated."""

from __future__ import annotations

from datetime import datetime

from airflow.providers.standard.operators.bash import BashOperator
from airflow.sdk import DAG, Asset
from estate_lineage import openlineage_parent

GL_ENTRIES = Asset(name="gl_entries", uri="duckdb://finance/bronze/gl_entries")
# the close chain stg_gl_entries -> int_gl_by_entity -> fct_trial_balance, its seed and their tests
CLOSE_SELECT = "+fct_trial_balance"
DBT_BUILD = (
    'cd "$DW_DBT_PROJECT_DIR" && "$DW_DBT_OL" --consume-structured-logs build '
    f'--select {CLOSE_SELECT} --project-dir "$DW_DBT_PROJECT_DIR" --profiles-dir "$DW_DBT_PROFILES_DIR"'
)

with DAG(
    dag_id="month_end_close",
    description="Trial balance for the month-end close: dbt build of the close models and their tests",
    schedule=[GL_ENTRIES],
    start_date=datetime(2026, 1, 1),
    catchup=False,
    max_active_runs=1,
    tags=["finance", "close", "dbt"],
    default_args={"owner": "maria.chen", "retries": 0},
    user_defined_macros={"openlineage_parent": openlineage_parent},
) as dag:
    BashOperator(
        task_id="dbt_build",
        bash_command=DBT_BUILD,
        env={"OPENLINEAGE_CONTEXT": "{{ openlineage_parent(task_instance) }}"},
        append_env=True,
    )
