"""Real services started for tests and the demo: Airflow (`airflow`), the Dagster webserver
(`dagster_ui`). Each runs in its own process session on loopback and is stopped by session."""

from dw_assets.harness.airflow import AirflowHarness, free_port
from dw_assets.harness.airflow_venv import ensure_airflow_venv

__all__ = ["AirflowHarness", "ensure_airflow_venv", "free_port"]
