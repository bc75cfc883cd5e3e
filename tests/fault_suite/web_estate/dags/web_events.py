"""The `web` estate's DAGs (Airflow 3 and 2): clicks are appended per day, sessions are rebuilt from a
drop, and a daily rollup reads the clicks on a clock of its own (deployed paused)."""

from datetime import datetime

try:  # Airflow 3
    from airflow.providers.standard.operators.python import PythonOperator
    from airflow.sdk import DAG
except ImportError:  # Airflow 2
    from airflow import DAG
    from airflow.operators.python import PythonOperator
from web_tasks import build_rollup, ingest_clicks, rebuild_sessions

with DAG(dag_id="web_events", schedule=None, start_date=datetime(2026, 1, 1), catchup=False, tags=["web"],
         default_args={"retries": 0}):
    PythonOperator(task_id="ingest_clicks", python_callable=ingest_clicks)

with DAG(dag_id="web_sessions", schedule=None, start_date=datetime(2026, 1, 1), catchup=False, tags=["web"],
         default_args={"retries": 0}):
    PythonOperator(task_id="rebuild_sessions", python_callable=rebuild_sessions)

with DAG(dag_id="web_rollup", schedule="30 4 * * *", start_date=datetime(2026, 1, 1), catchup=False, tags=["web"],
         is_paused_upon_creation=True, default_args={"retries": 0}):
    PythonOperator(task_id="build_rollup", python_callable=build_rollup)
