"""The estate's side of the demo: what its people and its scheduler do, through Airflow's own REST
API as the estate's admin. None of this goes through Data Workers' gate: it is the world Data
Workers watches (and the owner who triggers a drafted rerun on Airflow 3)."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from dw_assets.harness.airflow import AirflowHarness


class EstateActor:
    def __init__(self, harness: AirflowHarness):
        self.harness = harness
        self.api = harness.api_prefix

    def trigger(self, dag_id: str, conf: dict[str, Any]) -> dict[str, Any]:
        # The run id is chosen here (in Airflow's own `manual__<time>` form) so a trigger whose answer
        # was lost on a busy machine can be repeated: the repeat gets 409 and the run is read back.
        run_id = f"manual__{utcnow().isoformat()}"
        body: dict[str, Any] = {"conf": conf, "dag_run_id": run_id}
        if self.harness.major == 3:
            body["logical_date"] = None
        with self.harness.http() as client:
            resp = client.post(f"{self.api}/dags/{quote(dag_id, safe='')}/dagRuns", json=body,
                               extensions={"dw_idempotent": True})
            if resp.status_code == 409:
                return self.run(dag_id, run_id)
            resp.raise_for_status()
            return resp.json()

    def runs(self, dag_id: str) -> list[dict[str, Any]]:
        with self.harness.http() as client:
            resp = client.get(f"{self.api}/dags/{quote(dag_id, safe='')}/dagRuns",
                              params={"order_by": "-start_date", "limit": 50})
            resp.raise_for_status()
            return resp.json()["dag_runs"]

    def run(self, dag_id: str, run_id: str) -> dict[str, Any]:
        with self.harness.http() as client:
            resp = client.get(f"{self.api}/dags/{quote(dag_id, safe='')}/dagRuns/{quote(run_id, safe='')}")
            resp.raise_for_status()
            return resp.json()

    def task_instances(self, dag_id: str, run_id: str) -> list[dict[str, Any]]:
        with self.harness.http() as client:
            resp = client.get(f"{self.api}/dags/{quote(dag_id, safe='')}/dagRuns/{quote(run_id, safe='')}"
                              "/taskInstances")
            resp.raise_for_status()
            return resp.json()["task_instances"]

    def wait_run(self, dag_id: str, run_id: str, timeout: float = 600) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            run = self.run(dag_id, run_id)
            if run["state"] in ("success", "failed"):
                return run
            time.sleep(2)
        raise TimeoutError(f"{dag_id} run {run_id} did not finish within {timeout:.0f}s")

    def task_end(self, dag_id: str, run_id: str, task_id: str) -> datetime:
        """When a task of a finished run ended: what a downstream run started by its asset event
        follows. Not the DAG run's end, which Airflow 2's scheduler may record after that downstream
        run has already started."""
        for ti in self.task_instances(dag_id, run_id):
            if ti["task_id"] == task_id and ti.get("end_date"):
                return datetime.fromisoformat(ti["end_date"])
        raise LookupError(f"{dag_id} run {run_id} has no finished task {task_id!r}")

    def wait_next_run(self, dag_id: str, after: datetime, timeout: float = 600) -> dict[str, Any]:
        """The first run of `dag_id` started after `after` (e.g. one Airflow starts on an asset event)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for run in self.runs(dag_id):
                started = run.get("start_date") or run.get("queued_at")
                if started and datetime.fromisoformat(started) >= after:
                    return self.wait_run(dag_id, run["dag_run_id"], timeout=max(1, deadline - time.monotonic()))
            time.sleep(2)
        raise TimeoutError(f"no run of {dag_id} started after {after.isoformat()} within {timeout:.0f}s")


def utcnow() -> datetime:
    return datetime.now(UTC)
