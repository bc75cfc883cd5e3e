"""Runs that did not happen: expected runs from each DAG's schedule; a missed or stuck run goes to
intake as its own signal, and diagnosis names the cause "the load did not run"."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from pydantic import ValidationError

from dw_assets.config import AirflowConfig, Settings
from dw_assets.connectors.airflow.models import Dag, DagRun
from dw_assets.core.diagnosis import rank_causes
from dw_assets.core.evidence import EvidenceBundle, Symptom
from dw_assets.core.expected_runs import RunSeen, last_fire, missed_or_stuck
from dw_assets.core.graph import ContextGraph, Provenance
from dw_assets.diagnosis.service import symptom_from_incident
from dw_assets.incidents import IncidentStore, intake_signal
from dw_assets.operations.remediation import propose_plan
from dw_assets.store import Store
from sensors.missed_runs import evaluate
from tests.support.airflow_doubles import RecordedAirflow
from tests.support.settings import build_settings

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


def events_airflow(rollup_paused_by=("ops.lead", "2026-03-03T17:12:00+00:00")) -> RecordedAirflow:
    """Three DAGs (rollup paused, by_asset on assets), each with one successful run on 2026-03-02."""
    start = datetime(2026, 3, 2, 6, 0, 5, tzinfo=UTC)
    dags = [Dag("events_daily", False, schedule="0 6 * * *"), Dag("rollup", True, schedule="@daily"),
            Dag("by_asset", False, schedule="Asset")]
    runs = [DagRun(dag_id=d.dag_id, run_id="scheduled__2026-03-02", state="success", logical_date=None,
                   run_after=start, start_date=start, end_date=start + timedelta(minutes=4), conf={}) for d in dags]
    pause = (rollup_paused_by if isinstance(rollup_paused_by, Exception)
             else (rollup_paused_by[0], datetime.fromisoformat(rollup_paused_by[1])))
    return RecordedAirflow(runs=runs, dags=dags, pauses={"rollup": pause} if rollup_paused_by else {})


def test_the_sensor_opens_one_incident_that_diagnoses_as_did_not_run(dw_home):
    settings = build_settings(dw_home,
                          airflow=AirflowConfig(task_outputs={"events_daily.load": ["web.raw.events"]}),
                          missed_runs={"ignore": ["roll*"]})
    store = Store(settings.state.url)
    intake = lambda signal: intake_signal(settings, store, signal)
    found = evaluate(settings, {"main": events_airflow()}, intake, now=NOW)
    assert [f["dag_id"] for f in found] == ["events_daily"]  # the paused `rollup` is ignored by config
    evaluate(settings, {"main": events_airflow()}, intake, now=NOW + timedelta(minutes=5))  # next tick: same occurrence
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
    settings = build_settings(dw_home,
                          warehouse=WarehouseConfig(url="duckdb:///:memory:", attach={"web": str(path)}),
                          airflow=AirflowConfig(task_outputs={"rollup.build": ["web.raw.events"]}),
                          checks=[{"dataset": "web.raw.events", "freshness": {"timestamp_column": "loaded_at",
                                                                                "max_age": "26h"}}])
    store = Store(settings.state.url)
    [found] = check_freshness(settings, store, NOW)
    assert "stale" in found and found["incident"]
    [incident] = IncidentStore(store).list(status="open")
    assert incident.dataset_id == "web.raw.events" and incident.trigger_kind == "check_failed"
    # its writer is paused: the stale dataset's incident gets the pause as its cause
    stale, paused = check_freshness(settings, store, NOW + timedelta(minutes=5), {"main": events_airflow()})
    assert stale["incident"] == incident.id
    assert paused == {"dataset": "web.raw.events", "paused_writer": "rollup", "cause":
                      "the load did not run: the DAG is paused (paused by ops.lead at 2026-03-03 17:12 UTC)"}
    [incident] = IncidentStore(store).list(status="open")
    assert [s["kind"] for s in incident.signals] == ["check_failed", "run_missed"]
    top = rank_causes(EvidenceBundle(symptom_from_incident(incident), (NOW - timedelta(hours=48), NOW)))[0]
    assert top.kind == "did_not_run" and "is paused" in top.title
    store.dispose()


def test_a_paused_dag_past_due_opens_an_incident_that_says_it_is_paused(dw_home):
    settings = build_settings(dw_home,
                          airflow=AirflowConfig(task_outputs={"events_daily.load": ["web.raw.events"],
                                                              "rollup.build": ["web.mart.rollup"]}))
    store = Store(settings.state.url)
    found = evaluate(settings, {"main": events_airflow()}, lambda signal: intake_signal(settings, store, signal), now=NOW)
    [paused] = [f for f in found if f["dag_id"] == "rollup"]
    assert paused["paused"] and paused["paused_by"] == "ops.lead" and paused["paused_at"].startswith("2026-03-03T17:12")
    assert paused["cause"] == "the load did not run: the DAG is paused (paused by ops.lead at 2026-03-03 17:12 UTC)"
    [incident] = [i for i in IncidentStore(store).list(status="open") if i.dataset_id == "web.mart.rollup"]
    assert "paused by ops.lead" in incident.title
    top = rank_causes(EvidenceBundle(symptom_from_incident(incident), (NOW - timedelta(hours=48), NOW)))[0]
    assert top.kind == "did_not_run" and "the DAG is paused (paused by ops.lead" in top.title and top.explains
    assert any(f.code == "dag_paused" for f in top.facts)
    incident = SimpleNamespace(id=incident.id, dataset_id="web.mart.rollup", severity="high", title=incident.title,
                               evidence={}, causes=[top], proposed_fixes=[], blast_radius=[],
                               signals=[{"details": {}}])
    graph = ContextGraph()
    graph.add_node("airflow:rollup.build", "task", "airflow")
    graph.add_node("web.mart.rollup", "dataset", "warehouse")
    graph.add_edge("airflow:rollup.build", "web.mart.rollup", "writes", Provenance("config"))
    plan = propose_plan(settings, incident, graph=graph, client=events_airflow(), instance="main")
    assert plan.plan_class == "fix_then_rerun" and plan.steps[0].description.startswith("first the owner unpauses rollup")
    # no audit record (or no permission to read it): still paused, still an incident
    quiet = evaluate(settings, {"main": events_airflow(rollup_paused_by=RuntimeError("403"))}, lambda s: None, now=NOW)
    assert [f["cause"] for f in quiet if f["dag_id"] == "rollup"] == ["the load did not run: the DAG is paused"]
    store.dispose()


def test_stuck_limits_come_from_config_and_bad_values_are_named():
    runs = [_seen("r1", 3, minutes=10), _seen("r2", 4, 6, "running")]
    at = datetime(2026, 3, 4, 6, 50, tzinfo=UTC)
    assert missed_or_stuck("events_daily", "0 6 * * *", runs, at) is None  # default: at least an hour
    stuck = missed_or_stuck("events_daily", "0 6 * * *", runs, at, stuck_factor=2, stuck_min=timedelta(minutes=15))
    assert stuck.kind == "stuck" and stuck.expected_at == datetime(2026, 3, 4, 6, 20, 5, tzinfo=UTC)
    settings = Settings(missed_runs={"stuck_factor": 2, "stuck_min": "15m", "grace": "10m"})
    assert settings.missed_runs.stuck_min == "15m" and Settings().missed_runs.stuck_factor == 3.0
    for bad, named in (({"stuck_factor": 0.5}, "stuck_factor"), ({"grace": "soon"}, "grace"),
                       ({"stuck_after": "-1h"}, "stuck_after"), ({"lookback_days": 3}, "lookback_days")):
        with pytest.raises(ValidationError) as err:
            Settings(missed_runs=bad)
        assert named in str(err.value)
