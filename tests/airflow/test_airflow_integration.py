"""The connector and the runs sensor against a real Airflow 3 and 2 (C2's harness, `airflow` fixture).

Triggers `gl_landing` for a prior month-end whose export is already in the landing zone (so the
load rewrites the same rows), waits for it and for the `month_end_close` run its asset event
schedules, so the estate is quiet again for the tests that follow.
"""

from __future__ import annotations

import socket
import time
from datetime import UTC, datetime, timedelta

import dagster as dg
import pytest

from dw_assets.config import AirflowInstanceConfig, AuthConfig
from dw_assets.connectors.airflow import AirflowClient, DagRun, ReadOnlyError
from sensors.airflow_runs import build_airflow_runs_sensors
from tests.support.settings import build_settings

pytestmark = pytest.mark.airflow

EXPORT_DATE = "2026-08-31"  # a prior month-end: its export is in landing/ from the start
OUTPUTS = {"gl_landing.load": ["finance.bronze.gl_entries"]}
GL_KEY = dg.AssetKey(["finance", "bronze", "gl_entries"])


def instance_config(harness, *, url: str | None = None, read_only: bool = False) -> AirflowInstanceConfig:
    auth = AuthConfig(type="jwt" if harness.major == 3 else "basic", username=harness.username,
                      password=harness.password)
    return AirflowInstanceConfig(name=f"airflow{harness.major}", url=url or harness.url, auth=auth,
                                 read_only=read_only, timeout_s=30, retries=2)


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def wait_finished(client: AirflowClient, dag_id: str, run_id: str, timeout: float = 300) -> DagRun:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run = client.get_dag_run(dag_id, run_id)
        if run.finished:
            return run
        time.sleep(2)
    raise AssertionError(f"{dag_id} {run_id} still {run.state} after {timeout}s: "
                         f"{[(t.task_id, t.state) for t in client.list_task_instances(dag_id, run_id)]}")


def wait_new_run(client: AirflowClient, dag_id: str, known: set[str], timeout: float = 300) -> DagRun:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        fresh = [r for r in client.list_dag_runs(dag_id, order_by="id") if r.run_id not in known]
        if fresh:
            return wait_finished(client, dag_id, fresh[-1].run_id, deadline - time.monotonic())
        time.sleep(2)
    raise AssertionError(f"no new {dag_id} run within {timeout}s")


def sensor_for(harness, url: str | None = None) -> dg.SensorDefinition:
    settings = build_settings(airflow={"instances": [instance_config(harness, url=url)], "task_outputs": OUTPUTS})
    [sensor] = build_airflow_runs_sensors(settings, intake=lambda signal: None,
                                          check_keys_for=lambda ds: [dg.AssetCheckKey(GL_KEY, "volume")])
    return sensor


def tick(sensor: dg.SensorDefinition, cursor: str | None):
    return sensor.evaluate_tick(dg.build_sensor_context(instance=dg.DagsterInstance.ephemeral(), cursor=cursor))


def reported_gl_runs(result, run_id: str) -> list:
    return [e for e in result.asset_events if e.metadata["run_id"].value == run_id]


def test_connector_and_sensor_on_a_real_airflow(airflow):
    client = AirflowClient(instance_config(airflow))
    assert client.api_version == ("v2" if airflow.major == 3 else "v1")
    assert client.airflow_version.startswith(f"{airflow.major}.")
    assert {"gl_landing", "month_end_close", "orders_daily"} <= {d.dag_id for d in client.list_dags()}

    sensor = sensor_for(airflow)
    cursor = tick(sensor, None).cursor
    known_close = {r.run_id for r in client.list_dag_runs("month_end_close")}

    started = client.trigger_dag_run("gl_landing", {"export_date": EXPORT_DATE})
    assert started.conf == {"export_date": EXPORT_DATE} and started.state in ("queued", "running")
    run = wait_finished(client, "gl_landing", started.run_id)
    assert run.state == "success" and run.end_date >= datetime.now(UTC) - timedelta(minutes=10)
    if airflow.major == 3:
        assert run.logical_date is None and run.run_after is not None and run.triggered_by == "rest_api"
    tis = {t.task_id: t for t in client.list_task_instances("gl_landing", run.run_id)}
    assert {k: t.state for k, t in tis.items()} == {"wait_for_export": "success", "load": "success"}
    assert tis["load"].try_number >= 1 and tis["load"].end_date is not None
    # the try's log through the API (both majors), as plain lines and bounded in size
    log = client.task_log("gl_landing", run.run_id, "load", tis["load"].try_number)
    assert log.strip() and "{'event'" not in log and '"event":' not in log, log[:500]
    assert len(client.task_log("gl_landing", run.run_id, "load", tis["load"].try_number, max_chars=200)) <= 200

    read_only = AirflowClient(instance_config(airflow, read_only=True))
    with pytest.raises(ReadOnlyError, match=f"instance 'airflow{airflow.major}' is pinned read-only"):
        read_only.trigger_dag_run("gl_landing", {"export_date": EXPORT_DATE})
    assert read_only.requests_sent == 0

    first = tick(sensor, cursor)
    [event] = reported_gl_runs(first, run.run_id)
    assert isinstance(event, dg.AssetMaterialization) and event.asset_key == GL_KEY
    assert event.metadata["conf"].value == {"export_date": EXPORT_DATE}
    assert any(GL_KEY == k.asset_key for r in first.run_requests for k in r.asset_check_keys)

    down = dg.build_sensor_context(instance=dg.DagsterInstance.ephemeral(), cursor=first.cursor)
    # Airflow unreachable: the tick is skipped with the reason (not failed) and the cursor stays
    skipped = sensor_for(airflow, url=closed_port_url()).evaluate_tick(down)
    assert skipped.run_requests == [] and "cannot connect" in skipped.skip_message
    assert down.cursor == first.cursor

    close = wait_new_run(client, "month_end_close", known_close)  # scheduled by the gl_entries asset event
    assert close.state == "success"
    later = tick(sensor, first.cursor)
    assert reported_gl_runs(later, run.run_id) == []
    assert [e.metadata["run_id"].value for e in later.asset_events] == []  # close writes no mapped dataset
    assert tick(sensor, later.cursor).asset_events == []
