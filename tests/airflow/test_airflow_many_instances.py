"""Many Airflows polled by one code location: a config with three instances (Airflow 3 and
Airflow 2 mixed, each with its own credentials from the environment) gives three sensors, each with
its own cursor, speaking its instance's API version with its instance's credentials only."""

from __future__ import annotations

import base64
import contextlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import dagster as dg
import pytest
import yaml

from dw_assets.config import load_settings
from dw_assets.connectors.airflow import AirflowClient
from sensors.airflow_runs import build_airflow_runs_sensors, sensor_name
from tests.support.airflow_fakes import FakeAirflow, serve

INSTANCES = {  # name: (major, auth type, user, password)
    "prod": (3, "jwt", "alice", "alice-secret"),
    "marketing": (3, "jwt", "bob", "bob-secret"),
    "legacy": (2, "basic", "carol", "carol-secret"),
}


def _config(path: Path, urls: dict[str, str]) -> Path:
    instances = [{"name": name, "url": urls[name], "retries": 0, "timeout_s": 10,
                  "auth": {"type": auth, "username": f"${{AF_{name.upper()}_USER}}",
                           "password": f"${{AF_{name.upper()}_PASSWORD}}"}}
                 for name, (_, auth, _, _) in INSTANCES.items()]
    outputs = {f"{name}_dag.load": [f"{name}.raw.orders"] for name in INSTANCES}
    path.write_text(yaml.safe_dump({"state": {"url": "sqlite:///${DW_HOME}/state.db"},
                                    "airflow": {"instances": instances, "task_outputs": outputs}}))
    return path


def _run(fake: FakeAirflow, name: str, run_id: str, end: datetime) -> None:
    fake.add_run(f"{name}_dag", run_id, end=end, tasks={"extract": "success", "load": "success"})


def test_three_instances_with_their_own_cursor_and_credentials(dw_home: Path, monkeypatch: pytest.MonkeyPatch):
    fakes = {name: FakeAirflow(major=major, username=user, password=password)
             for name, (major, _, user, password) in INSTANCES.items()}
    for name, (_, _, user, password) in INSTANCES.items():
        monkeypatch.setenv(f"AF_{name.upper()}_USER", user)
        monkeypatch.setenv(f"AF_{name.upper()}_PASSWORD", password)
    now = datetime.now(UTC)
    for name, fake in fakes.items():
        _run(fake, name, f"{name}_first", now - timedelta(minutes=20))
    with contextlib.ExitStack() as stack:
        urls = {name: stack.enter_context(serve(fake))[1] for name, fake in fakes.items()}
        settings = load_settings(_config(dw_home / "dw.yaml", urls))
        sensors = build_airflow_runs_sensors(settings, check_keys_for=lambda _: [], intake=lambda _: None,
                                             client_factory=lambda inst: AirflowClient(inst, backoff_s=0.01))
        assert [s.name for s in sensors] == [sensor_name(name) for name in INSTANCES]
        instance = dg.DagsterInstance.ephemeral()

        def tick(sensor: dg.SensorDefinition, cursor: str | None) -> dg.SensorResult:
            return sensor.evaluate_tick(dg.build_sensor_context(instance=instance, cursor=cursor))

        first = {s.name: tick(s, None) for s in sensors}
        for name in INSTANCES:
            events = first[sensor_name(name)].asset_events
            assert [(e.asset_key.path, e.metadata["run_id"].value, e.metadata["airflow_instance"].value)
                    for e in events] == [([name, "raw", "orders"], f"{name}_first", name)]
        cursors = {n: r.cursor for n, r in first.items()}
        assert len(set(cursors.values())) == 3  # one cursor per instance

        # a new run on one instance only: its sensor reports it, the others report nothing and keep
        # their cursors
        _run(fakes["legacy"], "legacy", "legacy_second", now - timedelta(minutes=5))
        second = {s.name: tick(s, cursors[s.name]) for s in sensors}
        assert [e.metadata["run_id"].value for e in second[sensor_name("legacy")].asset_events] == ["legacy_second"]
        for name in ("prod", "marketing"):
            assert second[sensor_name(name)].asset_events == []
            assert second[sensor_name(name)].cursor == cursors[sensor_name(name)]
        assert second[sensor_name("legacy")].cursor != cursors[sensor_name("legacy")]

    # each instance was read through its own API version (after the unauthenticated version probe)
    # with only its own credentials
    for name, fake in fakes.items():
        major, auth, user, password = INSTANCES[name]
        assert fake.rejected == 0
        reads = [r for r in fake.requests if r["path"].startswith("/api/") and not r["path"].endswith("/version")]
        assert {r["path"].split("/")[2] for r in reads} == {"v2" if major == 3 else "v1"}
        if auth == "jwt":
            logins = [r["json"] for r in fake.requests if r["path"] == "/auth/token"]
            assert logins and all(body == {"username": user, "password": password} for body in logins)
            assert all((r["auth"] or "").startswith("Bearer ") for r in reads)
        else:
            basic = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
            assert {r["auth"] for r in reads} == {basic}
