"""Real Airflow 3 and 2 on the demo estate, for the `airflow` tier.

At most one Airflow runs at a time (2 cores): `AirflowPool` stops the other major before starting
the one asked for, and the session-scoped `airflow` fixture, parametrized over both majors, makes
pytest run every test of one major before the other. Each major gets its own DW_HOME holding a
freshly built demo estate (with its dbt seeds loaded, as after the estate's first dbt build) and a
real `dw lineage serve` on that home's state store, where Airflow's OpenLineage provider and dbt-ol
post their events (`lineage_events` reads them back).
The fault suite's `web` estate shares each Airflow (one start per major, not two): its DAG files sit
in the same DAGs folder, its data under `$DW_HOME/web`; none of its DAGs runs until a test asks.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from dw_assets.config import DEFAULT_CONFIG, REPO_ROOT
from dw_assets.connectors.dbt import run_dbt
from dw_assets.connectors.openlineage.event_store import LineageEventStore
from dw_assets.demo.estate import build_estate
from dw_assets.harness.airflow import ESTATE_DAG_IDS, AirflowHarness
from dw_assets.harness.lineage_receiver import LineageReceiver
from dw_assets.store import Store

TERMINAL_RUN_STATES = {"success", "failed"}
WEB_DAGS = REPO_ROOT / "tests" / "fault_suite" / "web_estate" / "dags"
WEB_DAG_IDS = ("web_events", "web_sessions", "web_rollup")


def build_estate_home(home: Path) -> Path:
    """The demo estate in `home`, plus the dbt seeds the close models' tests read."""
    build_estate(home)
    env = {"DW_HOME": str(home), "DBT_TARGET_PATH": str(home / "dbt" / "target"),
           "DBT_LOG_PATH": str(home / "dbt" / "logs")}
    project = REPO_ROOT / "dbt_project"
    proc = run_dbt(["seed"], project, project, env=env, timeout_s=600)
    assert proc.returncode == 0, f"dbt seed failed for the test estate:\n{proc.stdout[-4000:]}"
    return home


def dags_folder(major: int, folder: Path) -> Path:
    """The demo estate's DAG files for `major` and the `web` estate's (written for both majors)."""
    folder.mkdir(parents=True, exist_ok=True)
    for source in (REPO_ROOT / "estate" / "dags" / f"airflow{major}", WEB_DAGS):
        for path in source.glob("*.py"):
            shutil.copy2(path, folder / path.name)
    return folder


class AirflowPool:
    """One harness per major, at most one of them running."""

    def __init__(self, root: Path):
        self.root = root
        self.harnesses: dict[int, AirflowHarness] = {}
        self.receivers: dict[int, LineageReceiver] = {}

    def running(self, major: int) -> AirflowHarness:
        self.stop_all(except_major=major)
        harness = self.harnesses.get(major)
        if harness is None:
            home = self.root / f"airflow{major}"
            dw_home = build_estate_home(home / "dw_home")
            self.receivers[major] = LineageReceiver(DEFAULT_CONFIG, dw_home, home / "receiver.log")
            harness = self.harnesses[major] = AirflowHarness(major, home, dags_folder=dags_folder(major, home / "dags"),
                                                             dw_home_dir=dw_home,
                                                             openlineage_url=self.receivers[major].url)
        if harness.session_id is None:
            self.receivers[major].start()
            harness.start()
            # healthy is not parsed: no test may trigger a DAG the processor has not read yet
            harness.wait_for_dags((*ESTATE_DAG_IDS, *WEB_DAG_IDS))
        return harness

    def stop_all(self, except_major: int | None = None) -> None:
        for major, harness in self.harnesses.items():
            if major != except_major:
                harness.stop()
                self.receivers[major].stop()


@pytest.fixture(scope="session")
def airflow_pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AirflowPool]:
    pool = AirflowPool(tmp_path_factory.mktemp("airflow-pool"))
    yield pool
    pool.stop_all()


@pytest.fixture(scope="session", params=[3, 2], ids=["airflow3", "airflow2"])
def airflow(request: pytest.FixtureRequest, airflow_pool: AirflowPool) -> AirflowHarness:
    """A started Airflow on the estate DAGs; tests using it run once per major, major by major."""
    return airflow_pool.running(request.param)


@pytest.fixture
def airflow3(airflow_pool: AirflowPool) -> AirflowHarness:
    return airflow_pool.running(3)


@pytest.fixture
def airflow2(airflow_pool: AirflowPool) -> AirflowHarness:
    return airflow_pool.running(2)


@pytest.fixture(scope="session")
def estate_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_estate_home(tmp_path_factory.mktemp("estate") / "dw_home")


class AirflowApi:
    """The few REST calls the tests make, on /api/v2 (Airflow 3) or /api/v1 (Airflow 2)."""

    def __init__(self, harness: AirflowHarness):
        self.harness = harness
        self.prefix = harness.api_prefix

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        with self.harness.http() as client:
            resp = client.request(method, self.prefix + path, **kwargs)
        assert resp.status_code < 300, f"{method} {path} -> {resp.status_code}: {resp.text[:2000]}"
        return resp.json()

    def trigger(self, dag_id: str, conf: dict[str, Any] | None = None) -> str:
        body: dict[str, Any] = {"conf": conf or {}}
        if self.harness.major == 3:
            body["logical_date"] = None
        return self._call("POST", f"/dags/{dag_id}/dagRuns", json=body)["dag_run_id"]

    def runs(self, dag_id: str) -> list[dict[str, Any]]:
        return self._call("GET", f"/dags/{dag_id}/dagRuns")["dag_runs"]  # oldest first

    def task_states(self, dag_id: str, run_id: str) -> dict[str, str | None]:
        body = self._call("GET", f"/dags/{dag_id}/dagRuns/{quote(run_id, safe='')}/taskInstances")
        return {ti["task_id"]: ti["state"] for ti in body["task_instances"]}

    def wait_for_run(self, dag_id: str, run_id: str, timeout: float = 180.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        run: dict[str, Any] = {}
        while time.monotonic() < deadline:
            run = self._call("GET", f"/dags/{dag_id}/dagRuns/{quote(run_id, safe='')}")
            if run["state"] in TERMINAL_RUN_STATES:
                return run
            time.sleep(2)
        raise AssertionError(f"{dag_id} run {run_id} still {run.get('state')} after {timeout:.0f}s; tasks: "
                             f"{self.task_states(dag_id, run_id)}\n{self.harness.log_tail(40)}")

    def wait_for_new_run(self, dag_id: str, known: set[str], timeout: float = 180.0) -> dict[str, Any]:
        """The first run of `dag_id` not in `known` (e.g. scheduled by an asset event), once finished."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            fresh = [r for r in self.runs(dag_id) if r["dag_run_id"] not in known]
            if fresh:
                return self.wait_for_run(dag_id, fresh[-1]["dag_run_id"], deadline - time.monotonic())
            time.sleep(2)
        raise AssertionError(f"no new {dag_id} run within {timeout:.0f}s (known: {sorted(known)})")


@pytest.fixture
def airflow_api(airflow: AirflowHarness) -> AirflowApi:
    return AirflowApi(airflow)


class LineageEvents:
    """The OpenLineage events a pooled Airflow's receiver stored, in arrival order."""

    def __init__(self, harness: AirflowHarness):
        self.store = Store(f"sqlite:///{harness.dw_home}/state.db")

    def all(self) -> list[dict[str, Any]]:
        return [stored.event for stored in LineageEventStore(self.store).read_after(0, 1_000_000)]

    def wait_for(self, predicate: Any, what: str, timeout: float = 120.0) -> list[dict[str, Any]]:
        """All events, once one satisfies `predicate` (the provider posts a DAG run's last events
        from the scheduler, shortly after the REST API reports the run finished)."""
        deadline = time.monotonic() + timeout
        while True:
            events = self.all()
            if any(predicate(e) for e in events) or time.monotonic() > deadline:
                assert any(predicate(e) for e in events), \
                    f"no {what} within {timeout:.0f}s; jobs seen: {sorted({e['job']['name'] for e in events})}"
                return events
            time.sleep(2)


@pytest.fixture
def lineage_events(airflow: AirflowHarness) -> Iterator[LineageEvents]:
    events = LineageEvents(airflow)
    yield events
    events.store.dispose()


def _read_events(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture
def read_events() -> Any:
    """Reads the OpenLineage events of an NDJSON file-transport log (empty if none yet)."""
    return _read_events
