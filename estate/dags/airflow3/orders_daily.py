"""orders_daily: copy the application's orders into the lake, then build revenue with dbt (dbt-ol)."""

from __future__ import annotations

from datetime import datetime

import estate_tasks
from airflow.providers.standard.operators.bash import BashOperator
from airflow.providers.standard.operators.python import PythonOperator
from airflow.sdk import DAG

REVENUE_MODELS = "stg_orders fct_revenue"
DBT_BUILD = (
    'cd "$DW_DBT_PROJECT_DIR" && "$DW_DBT_OL" --consume-structured-logs build '
    f'--select {REVENUE_MODELS} --project-dir "$DW_DBT_PROJECT_DIR" --profiles-dir "$DW_DBT_PROFILES_DIR"'
)


def orders_clean(dag_run, ti) -> dict:
    run = estate_tasks.TaskRun(dag_run.dag_id, ti.task_id, dag_run.run_id, ti.try_number)
    return estate_tasks.clean_orders(run)


with DAG(
    dag_id="orders_daily",
    description="app.orders -> lake.orders_clean -> dbt stg_orders, fct_revenue",
    schedule=None,
    start_date=datetime(2026, 1, 1),
    catchup=False,
    max_active_runs=1,
    tags=["revenue", "orders", "dbt"],
    default_args={"owner": "jonas.berg", "retries": 0},
    user_defined_macros={"openlineage_parent": estate_tasks.parent_context},
) as dag:
    clean = PythonOperator(task_id="orders_clean", python_callable=orders_clean)
    dbt_revenue = BashOperator(
        task_id="dbt_revenue",
        bash_command=DBT_BUILD,
        env={"OPENLINEAGE_CONTEXT": "{{ openlineage_parent(dag.dag_id, run_id) }}"},
        append_env=True,
    )
    clean >> dbt_revenue
