"""The Airflow runs sensor: cursor, dedupe, out-of-order finishes, failing ticks, events and checks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import dagster as dg
import pytest

from dw_assets.config import AirflowInstanceConfig, AuthConfig, Settings
from dw_assets.connectors.airflow import AirflowClient, AirflowUnavailableError, DagRun, TaskInstance
from dw_assets.connectors.airflow.run_feed import (
    FeedCursor,
    FinishedRun,
    dataset_events,
    failure_signals,
    poll,
)
from dw_assets.incidents import IncidentStore
from dw_assets.store import open_state
from sensors.airflow_runs import build_airflow_runs_sensors, evaluate, intake_into_incidents
from tests.support.airflow_fakes import FakeAirflow, FakeAirflowServer, Fault
from tests.support.settings import build_settings

NOW = datetime(2026, 10, 1, 5, 0, tzinfo=UTC)
T = NOW - timedelta(hours=1)
OUTPUTS = {"gl_landing.load": ["finance.bronze.gl_entries"], "orders_daily.orders_clean": ["lake.orders_clean"]}
GL_KEY = dg.AssetKey(["finance", "bronze", "gl_entries"])


@pytest.fixture(scope="module")
def server():
    with FakeAirflowServer() as running:
        yield running


@pytest.fixture
def af(server):
    return server.use(FakeAirflow(major=3))


def settings_for(url: str) -> Settings:
    inst = AirflowInstanceConfig(name="local", url=url, retries=0, timeout_s=5,
                                 auth=AuthConfig(type="jwt", username="admin", password="admin"))
    return build_settings(airflow={"instances": [inst], "task_outputs": OUTPUTS})


def client(url: str) -> AirflowClient:
    return AirflowClient(settings_for(url).airflow.instances[0], backoff_s=0.01)


def gl_run(fake: FakeAirflow, run_id: str, state: str = "success", *, end: datetime, start: datetime | None = None):
    return fake.add_run("gl_landing", run_id, state, end=end, start=start, conf={"export_date": "2026-09-30"},
                        tasks={"wait_for_export": "success", "load": "success" if state == "success" else "failed"})


def reported(result) -> list[str]:
    return [fr.run.run_id for fr in result.finished]


def test_a_run_seen_by_two_polls_is_reported_once(af):
    fake, url = af
    gl_run(fake, "manual__a", end=T)
    c = client(url)
    first = poll(c, FeedCursor(), now=NOW)
    second = poll(c, first.cursor, now=NOW + timedelta(seconds=30))
    assert reported(first) == ["manual__a"] and reported(second) == []
    assert second.cursor == first.cursor


def test_out_of_order_finishes_are_not_skipped(af):
    fake, url = af
    c = client(url)
    slow = gl_run(fake, "slow", "running", end=None, start=T - timedelta(minutes=30))
    gl_run(fake, "fast", end=T, start=T - timedelta(minutes=1))
    tick1 = poll(c, FeedCursor(), now=NOW)
    fake.finish(slow, "failed", T + timedelta(minutes=5))  # started first, finished last
    tick2 = poll(c, tick1.cursor, now=NOW + timedelta(minutes=1))
    # a run whose end time is before the high-water mark becomes visible only now (committed late)
    gl_run(fake, "late", end=T + timedelta(minutes=2))
    tick3 = poll(c, tick2.cursor, now=NOW + timedelta(minutes=2))
    tick4 = poll(c, tick3.cursor, now=NOW + timedelta(minutes=3))
    assert [reported(t) for t in (tick1, tick2, tick3, tick4)] == [["fast"], ["slow"], ["late"], []]
    assert tick3.cursor.high_water == T + timedelta(minutes=5)


def test_a_quiet_tick_costs_one_list_request(af):
    fake, url = af
    for i in range(3):
        gl_run(fake, f"r{i}", end=T + timedelta(seconds=i))
    c = client(url)
    first = poll(c, FeedCursor(), now=NOW)
    before = len(fake.requests)
    poll(c, first.cursor, now=NOW)
    assert fake.request_count("taskInstances") == 3  # one per newly finished run, none on re-listing
    assert [r["path"] for r in fake.requests[before:]] == ["/api/v2/dags/~/dagRuns"]


def test_a_backlog_is_drained_in_bounded_polls_without_duplicates(af):
    fake, url = af
    for i in range(5):
        gl_run(fake, f"r{i}", end=T + timedelta(seconds=i))
    c, cursor, seen = client(url), FeedCursor(), []
    for _ in range(4):
        result = poll(c, cursor, now=NOW, max_runs=2)
        seen += reported(result)
        cursor = result.cursor
    assert seen == ["r0", "r1", "r2", "r3", "r4"]


def test_reported_keys_are_forgotten_once_outside_the_overlap():
    def run(i: int, end: datetime) -> DagRun:
        return DagRun("d", f"r{i}", "success", None, None, end - timedelta(minutes=1), end)

    cursor = FeedCursor().advance([run(1, T), run(2, T + timedelta(minutes=30))], overlap=timedelta(minutes=10))
    assert list(cursor.reported) == [f"d/r2@{(T + timedelta(minutes=30)).isoformat()}"]
    assert FeedCursor.from_json(cursor.to_json()) == cursor


def test_a_corrupt_cursor_fails_loudly_with_the_fix():
    with pytest.raises(ValueError, match="reset the sensor's cursor"):
        FeedCursor.from_json("{not json")


def test_success_materializes_and_failure_observes_and_signals():
    def finished(state: str, load_state: str, mapped: list[str] | None = None) -> FinishedRun:
        run = DagRun("gl_landing", "manual__x", state, None, T, T - timedelta(minutes=2), T,
                     {"export_date": "2026-09-30"}, "manual", "rest_api")
        tis = [TaskInstance("load", s, 1, None, None, None, "PythonOperator", i)
               for i, s in enumerate(mapped or [load_state])]
        return FinishedRun("local", run, tis, "http://af/dags/gl_landing/runs/manual__x")

    [ok] = dataset_events(finished("success", "success"), OUTPUTS)
    assert (ok.kind, ok.asset_key, ok.task_state) == ("materialization", ["finance", "bronze", "gl_entries"], "success")
    assert ok.metadata["run_id"] == "manual__x" and ok.metadata["conf"] == {"export_date": "2026-09-30"}
    assert ok.metadata["duration_s"] == 120 and ok.metadata["end_date"] == T.isoformat()
    [bad] = dataset_events(finished("failed", "failed"), OUTPUTS)
    assert (bad.kind, bad.task_state) == ("observation", "failed")
    [partly] = dataset_events(finished("failed", "", mapped=["success", "failed"]), OUTPUTS)
    assert partly.task_state == "failed"
    assert failure_signals(finished("success", "success"), OUTPUTS) == []
    [signal] = failure_signals(finished("failed", "failed"), OUTPUTS)
    assert (signal.kind, signal.dataset_id, signal.source) == ("airflow_run_failed", "finance.bronze.gl_entries", "airflow:local")
    assert signal.dedupe_key == f"airflow:local:gl_landing/manual__x@{T.isoformat()}:finance.bronze.gl_entries"
    assert signal.details["failed_tasks"] == {"load": "failed"} and "load failed" in signal.summary


def _defs_with_volume_check(sensor: dg.SensorDefinition) -> dg.Definitions:
    @dg.asset_check(asset=GL_KEY, name="volume")
    def volume() -> dg.AssetCheckResult:
        return dg.AssetCheckResult(passed=True)

    return dg.Definitions(assets=[dg.AssetSpec(GL_KEY)], asset_checks=[volume], sensors=[sensor])


def test_sensor_ticks_report_once_request_checks_and_keep_the_cursor_when_airflow_fails(af):
    fake, url = af
    signals = []
    [sensor] = build_airflow_runs_sensors(settings_for(url), intake=signals.append,
                                          client_factory=lambda inst: AirflowClient(inst, backoff_s=0.01))
    defs = _defs_with_volume_check(sensor)
    instance = dg.DagsterInstance.ephemeral()
    now = datetime.now(UTC)
    gl_run(fake, "manual__ok", end=now - timedelta(minutes=3))
    gl_run(fake, "manual__bad", "failed", end=now - timedelta(minutes=2))

    first = sensor.evaluate_tick(dg.build_sensor_context(instance=instance, definitions=defs, cursor=None))
    kinds = sorted((type(e).__name__, e.metadata["run_id"].value) for e in first.asset_events)
    assert kinds == [("AssetMaterialization", "manual__ok"), ("AssetObservation", "manual__bad")]
    [request] = first.run_requests
    assert request.asset_check_keys == [dg.AssetCheckKey(GL_KEY, "volume")] and request.asset_selection == []
    assert [s.details["run_id"] for s in signals] == ["manual__bad"]

    fake.faults.append(Fault(r"dagRuns", status=500, times=1))
    failing = dg.build_sensor_context(instance=instance, definitions=defs, cursor=first.cursor)
    with pytest.raises(AirflowUnavailableError):
        sensor.evaluate_tick(failing)
    assert failing.cursor == first.cursor

    gl_run(fake, "manual__later", end=now - timedelta(minutes=1))
    third = sensor.evaluate_tick(dg.build_sensor_context(instance=instance, definitions=defs, cursor=first.cursor))
    assert [e.metadata["run_id"].value for e in third.asset_events] == ["manual__later"]
    assert len(signals) == 1


def test_a_partitioned_dataset_is_materialized_and_checked_by_partition(af):
    """The partition the checks evaluate rides on the materialization and on the check run, as the
    `dagster/partition` tag, so the check page's Partition column shows it."""
    fake, url = af
    [sensor] = build_airflow_runs_sensors(settings_for(url), intake=lambda s: None,
                                          partition_for={"finance.bronze.gl_entries": "2026-09-30"}.get,
                                          client_factory=lambda inst: AirflowClient(inst, backoff_s=0.01))
    defs = _defs_with_volume_check(sensor)
    gl_run(fake, "manual__ok", end=datetime.now(UTC) - timedelta(minutes=1))
    result = sensor.evaluate_tick(dg.build_sensor_context(instance=dg.DagsterInstance.ephemeral(), definitions=defs))
    [materialization] = result.asset_events
    assert materialization.partition == "2026-09-30"
    [request] = result.run_requests
    assert request.tags["dagster/partition"] == "2026-09-30" and request.run_key.endswith(":2026-09-30")
    assert request.partition_key is None  # the checks job is not partitioned: the tag names the partition


def test_a_malformed_page_fails_the_tick(af):
    fake, url = af
    [sensor] = build_airflow_runs_sensors(settings_for(url), intake=lambda s: None)
    gl_run(fake, "manual__ok", end=datetime.now(UTC))
    fake.faults.append(Fault(r"dagRuns", status=200, body="{'dag_runs': oops"))
    context = dg.build_sensor_context(instance=dg.DagsterInstance.ephemeral(), cursor=None)
    with pytest.raises(Exception, match="not JSON"):
        sensor.evaluate_tick(context)
    assert context.cursor is None


def test_a_failed_run_opens_one_incident_even_when_a_tick_is_repeated(af, dw_home):
    fake, url = af
    settings = settings_for(url).model_copy(update={"aliases": {"gl_entries": "finance.bronze.gl_entries"}})
    settings = settings.model_copy(update={"airflow": settings.airflow.model_copy(
        update={"task_outputs": {"gl_landing.load": ["gl_entries"]}})})
    gl_run(fake, "manual__bad", "failed", end=T)
    c = client(url)
    for _ in range(2):  # the same tick twice, as after a result Dagster never stored
        result = evaluate(settings, c, None, check_keys_for=lambda ds: [], intake=intake_into_incidents(settings),
                          now=NOW)
        assert [e.asset_key for e in result.asset_events] == [GL_KEY]
    store = IncidentStore(open_state(settings))
    [incident] = store.list(dataset_id="finance.bronze.gl_entries")
    assert incident.trigger_kind == "airflow_run_failed" and len(incident.signals) == 1


def failure_signal_stub():
    run = DagRun("gl_landing", "r", "failed", None, None, T, T)
    [signal] = failure_signals(FinishedRun("local", run, [TaskInstance("load", "failed", 1, T, T, 0.0, None)]), OUTPUTS)
    return signal


def test_nothing_listening_at_the_url_skips_the_tick_with_the_reason_and_keeps_the_cursor():
    """A stopped demo Airflow or a wrong port: the sensor says so each interval instead of failing."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    [sensor] = build_airflow_runs_sensors(settings_for(url), intake=lambda s: None,
                                          client_factory=lambda inst: AirflowClient(inst, backoff_s=0.01))
    context = dg.build_sensor_context(instance=dg.DagsterInstance.ephemeral(), cursor=None)
    result = sensor.evaluate_tick(context)
    assert result.run_requests == [] and context.cursor is None
    assert "nothing listens at Airflow instance 'local'" in result.skip_message
    assert "cannot connect" in result.skip_message and "airflow.instances[local].url" in result.skip_message
