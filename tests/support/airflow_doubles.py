"""In-process Airflow client doubles (no HTTP), for services that take an Airflow client. The HTTP
fake with fault injection, for the real client, is `airflow_fakes`.

- `CountingAirflow` has the surface the rerun path uses (`api_version`, `trigger_request`,
  `trigger_dag_run`, `list_dag_runs`, `get_dag_run`) and returns the connector's real `DagRun`
  model. Runs advance queued -> running -> success (or a chosen end state) as they are polled; a
  successful run of a DAG listed in `downstream` creates the downstream DAG's run, as an asset event
  would. In draft mode `owner_triggers` simulates the DAG owner pressing the button.
Both satisfy `dw_assets.connectors.airflow.AirflowApi`, the Protocol the services take
(tests/connectors/airflow/test_airflow_api.py checks it).

- `RecordedAirflow` reads only, from the runs and DAGs it is given (filters applied as Airflow
  does); a write fails the test, for callers that must never write (a planner, a sensor).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from dw_assets.connectors.airflow.errors import ReadOnlyError
from dw_assets.connectors.airflow.models import Dag, DagRun, TaskInstance


class Clock:
    def __init__(self, start: datetime = datetime(2026, 10, 1, 6, 0, tzinfo=UTC)):
        self.current = start

    def __call__(self) -> datetime:
        return self.current

    def advance(self, seconds: float) -> None:
        self.current += timedelta(seconds=seconds)


@dataclass
class _Run:
    dag_id: str
    run_id: str
    conf: dict[str, Any]
    created: datetime
    polls: int = 0
    state: str = "queued"
    end_state: str = "success"
    end: datetime | None = None

    def model(self) -> DagRun:
        return DagRun(dag_id=self.dag_id, run_id=self.run_id, state=self.state, logical_date=None,
                      run_after=self.created, start_date=self.created, end_date=self.end, conf=dict(self.conf))


@dataclass
class CountingAirflow:
    clock: Clock
    name: str = "local"
    api: str = "v2"
    read_only: bool = False
    downstream: dict[str, list[str]] = field(default_factory=dict)
    end_states: dict[str, str] = field(default_factory=dict)  # dag_id -> final state of new runs
    owner_triggers: bool = False  # draft mode: the owner triggers the drafted run when first polled
    requests: list[tuple[str, str]] = field(default_factory=list)
    runs: list[_Run] = field(default_factory=list)
    owner_triggered: list[str] = field(default_factory=list)

    @property
    def writes(self) -> list[tuple[str, str]]:
        return [r for r in self.requests if r[0] in ("POST", "PATCH")]

    @property
    def api_version(self) -> str:
        return self.api

    def trigger_request(self, dag_id: str, conf: dict[str, Any] | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"conf": dict(conf or {})}
        if self.api == "v2":
            body = {"logical_date": None, **body}
        path = f"/api/{self.api}/dags/{dag_id}/dagRuns"
        return {"instance": self.name, "method": "POST", "url": "http://127.0.0.1:9/" + path.lstrip("/"),
                "path": path, "json": body}

    def trigger_dag_run(self, dag_id: str, conf: dict[str, Any] | None = None, *,
                        run_id: str | None = None) -> DagRun:
        if self.read_only:
            raise ReadOnlyError(f"instance {self.name!r} is pinned read-only (nothing was sent)")
        self.requests.append(("POST", f"dags/{dag_id}/dagRuns"))
        return self._new_run(dag_id, conf or {}).model()

    def list_dag_runs(self, dag_id: str = "~", **filters: Any) -> list[DagRun]:
        self.requests.append(("GET", f"dags/{dag_id}/dagRuns"))
        self._advance()
        if self.owner_triggers and dag_id not in self.owner_triggered and self._drafted_conf.get(dag_id) is not None:
            self.owner_triggered.append(dag_id)
            self._new_run(dag_id, self._drafted_conf[dag_id])
        since = filters.get("updated_since")
        return [r.model() for r in self.runs if r.dag_id == dag_id and (since is None or r.created >= since)]

    def get_dag_run(self, dag_id: str, run_id: str) -> DagRun:
        self.requests.append(("GET", f"dags/{dag_id}/dagRuns/{run_id}"))
        self._advance()
        return next(r for r in self.runs if r.dag_id == dag_id and r.run_id == run_id).model()

    def list_dags(self) -> list[Dag]:
        return [Dag(dag_id, False) for dag_id in dict.fromkeys(r.dag_id for r in self.runs)]

    def list_task_instances(self, dag_id: str, run_id: str) -> list[TaskInstance]:
        return []

    def task_log(self, dag_id: str, run_id: str, task_id: str, try_number: int, *, map_index: int = -1,
                 max_chars: int = 64_000) -> str:
        return ""

    def pause_event(self, dag_id: str) -> tuple[str | None, datetime | None] | None:
        return None

    def ui_url(self, dag_id: str, run_id: str) -> str:
        return f"http://127.0.0.1:9/dags/{dag_id}/runs/{run_id}"

    def close(self) -> None:
        pass

    def expect_owner_run(self, dag_id: str, conf: dict[str, Any]) -> None:
        """The conf the owner will use when they trigger a drafted run."""
        self._drafted_conf[dag_id] = conf

    def __post_init__(self) -> None:
        self._drafted_conf: dict[str, dict[str, Any]] = {}

    def _new_run(self, dag_id: str, conf: dict[str, Any]) -> _Run:
        self.clock.advance(1)
        run = _Run(dag_id, f"manual__{self.clock().isoformat()}_{len(self.runs)}", dict(conf), self.clock(),
                   end_state=self.end_states.get(dag_id, "success"))
        self.runs.append(run)
        return run

    def _advance(self) -> None:
        for run in list(self.runs):
            if run.state in ("success", "failed"):
                continue
            run.polls += 1
            run.state = "running" if run.polls == 1 else run.end_state
            if run.state in ("success", "failed"):
                run.end = self.clock()
                if run.state == "success":
                    for dag_id in self.downstream.get(run.dag_id, []):
                        self._new_run(dag_id, {})


@dataclass
class RecordedAirflow:
    runs: list[DagRun] = field(default_factory=list)
    dags: list[Dag] = field(default_factory=list)
    # dag_id -> (who, when) of its last pause, or the error reading it raises
    pauses: Mapping[str, tuple[str, datetime] | Exception] = field(default_factory=dict)
    allowed_filters: Collection[str] | None = None  # set: any other list_dag_runs filter fails the test
    task_instances: Mapping[tuple[str, str], list[TaskInstance]] = field(default_factory=dict)
    logs: Mapping[tuple[str, str, str, int], str] = field(default_factory=dict)  # (dag, run, task, try) -> text
    name: str = "local"
    api_version: str = "v2"

    def list_dag_runs(self, dag_id: str = "~", **filters: Any) -> list[DagRun]:
        if self.allowed_filters is not None:
            assert set(filters) <= set(self.allowed_filters), filters
        since = filters.get("updated_since")  # Airflow's updated_at: the run's last change
        ended_since = filters.get("end_date_since")
        states = filters.get("states")
        return [r for r in self.runs if (dag_id == "~" or r.dag_id == dag_id)
                and (since is None or (r.end_date or r.start_date or r.run_after) >= since)
                and (ended_since is None or (r.end_date is not None and r.end_date >= ended_since))
                and (not states or r.state in states)]

    def list_dags(self) -> list[Dag]:
        return list(self.dags)

    def pause_event(self, dag_id: str) -> tuple[str, datetime] | None:
        record = self.pauses.get(dag_id)
        if isinstance(record, Exception):
            raise record
        return record

    def get_dag_run(self, dag_id: str, run_id: str) -> DagRun:
        return next(r for r in self.runs if r.dag_id == dag_id and r.run_id == run_id)

    def list_task_instances(self, dag_id: str, run_id: str) -> list[TaskInstance]:
        return list(self.task_instances.get((dag_id, run_id), ()))

    def task_log(self, dag_id: str, run_id: str, task_id: str, try_number: int, *, map_index: int = -1,
                 max_chars: int = 64_000) -> str:
        return self.logs.get((dag_id, run_id, task_id, try_number), "")[-max_chars:]

    def ui_url(self, dag_id: str, run_id: str) -> str:
        return f"http://127.0.0.1:9/dags/{dag_id}/runs/{run_id}"

    def trigger_request(self, dag_id: str, conf: dict[str, Any] | None = None) -> dict[str, Any]:
        path = f"/api/{self.api_version}/dags/{dag_id}/dagRuns"
        return {"instance": self.name, "method": "POST", "url": f"http://127.0.0.1:9{path}", "path": path,
                "json": {"conf": dict(conf or {})}}

    def close(self) -> None:
        pass

    def trigger_dag_run(self, *args: Any, **kwargs: Any) -> DagRun:
        raise AssertionError(f"a read-only caller triggered a DAG run on {self.name!r}: {args} {kwargs}")
