"""Runs that did not happen: expected runs from each DAG's schedule; a missed or stuck run goes to
intake as its own signal, and diagnosis names the cause "the load did not run"."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from dw_assets.config import AirflowConfig, Settings, StateConfig
from dw_assets.connectors.airflow.models import Dag, DagRun
from dw_assets.core.diagnosis import rank_causes
from dw_assets.core.evidence import EvidenceBundle, Symptom
from dw_assets.core.expected_runs import RunSeen, last_fire, missed_or_stuck
from dw_assets.diagnosis.service import symptom_from_incident
from dw_assets.incidents import IncidentStore, intake_signal
from dw_assets.store import Store
from sensors.missed_runs import evaluate

NOW = datetime(2026, 3, 4, 9, 0, tzinfo=UTC)


def _seen(run_id, day, hour=6, state="success", minutes=5):
    start = datetime(2026, 3, day, hour, 0, 5, tzinfo=UTC)
    return RunSeen(run_id, state, start, start + timedelta(minutes=minutes) if state != "running" else None)


@pytest.mark.parametrize(("schedule", "expected"), [("0 6 * * *", datetime(2026, 3, 4, 6, 0, tzinfo=UTC)),
                                                    ("@hourly", datetime(2026, 3, 4, 8, 0, tzinfo=UTC)),
                                                    ("Asset", None), ("@once", None)])
def test_last_fire_reads_crons_and_presets(schedule, expected):
    assert last_fire(schedule, NOW - timedelta(minutes=30)) == expected


def test_missed_stuck_and_on_time():
    two_days_ago = [_seen("r1", 2)]
    missed = missed_or_stuck("events_daily", "0 6 * * *", two_days_ago, NOW)
    assert missed.kind == "missed" and missed.expected_at == datetime(2026, 3, 4, 6, 0, tzinfo=UTC)
    assert missed.details()["cause"] == "the load did not run" and missed.details()["last_run"]["run_id"] == "r1"
    assert missed_or_stuck("events_daily", "0 6 * * *", [_seen("r1", 3), _seen("r2", 4)], NOW) is None
    stuck = missed_or_stuck("events_daily", "0 6 * * *", [_seen("r1", 3), _seen("r2", 4, 6, "running")],
                            NOW + timedelta(hours=2))
    assert stuck.kind == "stuck" and "running" in stuck.summary
    assert missed_or_stuck("events_daily", "1 day, 0:00:00", [_seen("r1", 2)], NOW).kind == "missed"
    assert missed_or_stuck("by_asset", "Asset", [], NOW) is None


class Airflow:
    def list_dags(self):
        return [Dag("events_daily", False, schedule="0 6 * * *"), Dag("paused", True, schedule="@daily"),
                Dag("by_asset", False, schedule="Asset")]

    def list_dag_runs(self, dag_id, **filters):
        start = datetime(2026, 3, 2, 6, 0, 5, tzinfo=UTC)
        run = DagRun(dag_id=dag_id, run_id="scheduled__2026-03-02", state="success", logical_date=None,
                     run_after=start, start_date=start, end_date=start + timedelta(minutes=4), conf={})
        return [] if filters.get("states") else [run]


def test_the_sensor_opens_one_incident_that_diagnoses_as_did_not_run(dw_home):
    settings = Settings(state=StateConfig(url=f"sqlite:///{dw_home}/state.db"),
                        airflow=AirflowConfig(task_outputs={"events_daily.load": ["web.raw.events"]}))
    store = Store(settings.state.url)
    intake = lambda signal: intake_signal(settings, store, signal)
    found = evaluate(settings, {"main": Airflow()}, intake, now=NOW)
    assert [f["dag_id"] for f in found] == ["events_daily"]
    evaluate(settings, {"main": Airflow()}, intake, now=NOW + timedelta(minutes=5))  # next tick: same occurrence
    [incident] = IncidentStore(store).list(status="open")
    assert incident.dataset_id == "web.raw.events" and len(incident.signals) == 1
    symptom = symptom_from_incident(incident)
    assert symptom.kind == "stale" and symptom.job == "events_daily"
    causes = rank_causes(EvidenceBundle(symptom, (NOW - timedelta(hours=48), NOW)))
    assert causes[0].kind == "did_not_run" and causes[0].explains
    assert causes[0].details["expected_at"] == "2026-03-04T06:00:00+00:00"
    store.dispose()


def test_a_stale_dataset_whose_writer_never_ran_is_did_not_run():
    from dw_assets.core.evidence import GraphNode

    writer = GraphNode("airflow:events_daily.load", "task", "airflow", 1, feeds=("web.raw.events",))
    ev = EvidenceBundle(Symptom("stale", "web.raw.events", NOW), (NOW - timedelta(hours=48), NOW), upstream=(writer,))
    assert rank_causes(ev)[0].kind == "did_not_run"
    gap = EvidenceBundle(Symptom("stale", "web.raw.events", NOW), (NOW - timedelta(hours=48), NOW), upstream=(writer,),
                         gaps=("airflow: cannot connect",))
    assert rank_causes(gap)[0].kind != "did_not_run"


def test_freshness_slas_are_checked_on_the_sensors_own_clock(dw_home):
    import duckdb

    from dw_assets.config import WarehouseConfig
    from sensors.missed_runs import check_freshness

    path = dw_home / "web.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE SCHEMA raw; CREATE TABLE raw.events AS SELECT TIMESTAMP '2026-03-02 06:00:00' AS loaded_at")
    con.close()
    settings = Settings(state=StateConfig(url=f"sqlite:///{dw_home}/state.db"),
                        warehouse=WarehouseConfig(url="duckdb:///:memory:", attach={"web": str(path)}),
                        checks=[{"dataset": "web.raw.events", "freshness": {"timestamp_column": "loaded_at",
                                                                              "max_age": "26h"}}])
    store = Store(settings.state.url)
    [found] = check_freshness(settings, store, NOW)
    assert "stale" in found and found["incident"]
    [incident] = IncidentStore(store).list(status="open")
    assert incident.dataset_id == "web.raw.events" and incident.trigger_kind == "check_failed"
    store.dispose()
