"""orders_daily: copy the application's orders into the lake, then build revenue with dbt (dbt-ol).

The Airflow 2.11 twin of estate/dags/airflow3/orders_daily.py.
"""

from __future__ import annotations

from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator
import estate_tasks
from estate_lineage import LineageOperator, openlineage_parent

REVENUE_MODELS = "stg_orders fct_revenue"
DBT_BUILD = (
    'cd "$DW_DBT_PROJECT_DIR" && "$DW_DBT_OL" --consume-structured-logs build '
    f'--select {REVENUE_MODELS} --project-dir "$DW_DBT_PROJECT_DIR" --profiles-dir "$DW_DBT_PROFILES_DIR"'
)


with DAG(
    dag_id="orders_daily",
    description="app.orders -> lake.orders_clean -> dbt stg_orders, fct_revenue",
    schedule=None,
    start_date=datetime(2026, 1, 1),
    catchup=False,
    max_active_runs=1,
    tags=["revenue", "orders", "dbt"],
    default_args={"owner": "jonas.berg", "retries": 0},
    user_defined_macros={"openlineage_parent": openlineage_parent},
) as dag:
    # reported by the OpenLineage provider with the lake table's schema as written (LineageOperator)
    clean = LineageOperator(task_id="orders_clean", python_callable=estate_tasks.clean_orders,
                            planned_lineage=estate_tasks.planned_orders_clean)
    dbt_revenue = BashOperator(
        task_id="dbt_revenue",
        bash_command=DBT_BUILD,
        env={"OPENLINEAGE_CONTEXT": "{{ openlineage_parent(task_instance) }}"},
        append_env=True,
    )
    clean >> dbt_revenue
