"""The `web` estate's DAGs (Airflow 3): clicks are appended daily; sessions are rebuilt from a drop."""

from datetime import datetime

from airflow.providers.standard.operators.python import PythonOperator
from airflow.sdk import DAG
from web_tasks import ingest_clicks, rebuild_sessions

with DAG(dag_id="web_events", schedule="0 6 * * *", start_date=datetime(2026, 1, 1), catchup=False,
         tags=["web"], default_args={"retries": 0}):
    PythonOperator(task_id="ingest_clicks", python_callable=ingest_clicks)

with DAG(dag_id="web_sessions", schedule=None, start_date=datetime(2026, 1, 1), catchup=False, tags=["web"],
         default_args={"retries": 0}):
    PythonOperator(task_id="rebuild_sessions", python_callable=rebuild_sessions)
