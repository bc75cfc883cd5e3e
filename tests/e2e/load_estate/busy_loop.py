"""Another team's DAG sharing the machine (Airflow 3 and 2): every minute, a few tasks that compute
and write a little, so their scheduler, task runners and API server keep working during the load test."""

import time
from datetime import datetime, timedelta

try:  # Airflow 3
    from airflow.providers.standard.operators.python import PythonOperator
    from airflow.sdk import DAG
except ImportError:  # Airflow 2
    from airflow import DAG
    from airflow.operators.python import PythonOperator


def crunch(seconds: float = 3.0) -> int:
    """CPU work for about `seconds` of one core, then a small result (stored as an XCom)."""
    end, total = time.monotonic() + seconds, 0
    while time.monotonic() < end:
        total += sum(i * i for i in range(10_000))
    return total % 1_000_003


with DAG(dag_id="busy_loop", schedule=timedelta(minutes=1), start_date=datetime(2026, 1, 1), catchup=False,
         is_paused_upon_creation=False, max_active_runs=1, tags=["load"], default_args={"retries": 0}):
    first = PythonOperator(task_id="extract", python_callable=crunch)
    first >> [PythonOperator(task_id=f"transform_{i}", python_callable=crunch) for i in range(2)]
