"""`AirflowApi`: what the services call on one Airflow, whatever its version.

`AirflowClient` (REST API v1 for Airflow 2, v2 for Airflow 3, chosen by probing) is the one real
implementation; planners, dispatch, diagnosis and the sensors take this Protocol, so a test double
(tests/support/airflow_doubles.py) stands in without HTTP. mypy checks the client against it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from dw_assets.connectors.airflow.models import Dag, DagRun, TaskInstance


@runtime_checkable
class AirflowApi(Protocol):
    name: str  # the configured instance name

    @property
    def api_version(self) -> str:
        """`v1` (Airflow 2) or `v2` (Airflow 3)."""
        ...

    def list_dags(self) -> list[Dag]: ...

    def list_dag_runs(self, dag_id: str = "~", **filters: Any) -> list[DagRun]:
        """Runs of one DAG, or of all (`~`); filters: `updated_since`, `end_date_since`, `states`."""
        ...

    def get_dag_run(self, dag_id: str, run_id: str) -> DagRun: ...

    def list_task_instances(self, dag_id: str, run_id: str) -> list[TaskInstance]: ...

    def task_log(self, dag_id: str, run_id: str, task_id: str, try_number: int, *, map_index: int = -1,
                 max_chars: int = ...) -> str: ...

    def pause_event(self, dag_id: str) -> tuple[str | None, datetime | None] | None:
        """Who paused the DAG and when, from the audit log; None when it holds no such entry."""
        ...

    def ui_url(self, dag_id: str, run_id: str) -> str: ...

    def trigger_request(self, dag_id: str, conf: dict[str, Any] | None = None) -> dict[str, Any]:
        """The exact request a trigger sends (what a drafted run hands to the DAG owner)."""
        ...

    def trigger_dag_run(self, dag_id: str, conf: dict[str, Any] | None = None, *,
                        run_id: str | None = None) -> DagRun:
        """Start a run; a read-only instance refuses with `ReadOnlyError` before sending anything."""
        ...

    def close(self) -> None: ...


ClientFor = Callable[[str], AirflowApi]  # instance name -> its client (AirflowClient, or a test double)
