"""The fault suite's real part: the `web` estate (tests/fault_suite/web_estate: its own DAGs, task code
and dbt project) on the session's real Airflow (3 over /api/v2, 2 over /api/v1: the pool's, whose
DAGs folder holds the web DAGs too) and real dbt on DuckDB run through dbt-ol. Faults are injected one
at a time and diagnosed through the real collectors: the failed try's log read over the Airflow API,
dbt-ol's FAIL events read from its file transport into incident intake, dbt's run_results.json, the
warehouse's information_schema against the drift baseline, the partition profile, the manifest, and
the missed-runs sensor's evaluation of a real DAG's schedule and audit log.

Both majors: the failed task (its log is text on /api/v1, structured lines on /api/v2) and the missed
run (a paused DAG: `schedule_interval` vs `timetable_summary`, and each major's audit log). Airflow 3
only (the Airflow part is one load, the rest is dbt and the warehouse): the duplicated load with the
dbt test it breaks, and the type change on day one."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest

from dw_assets.checks.state import accept_schema
from dw_assets.config import (
    AirflowConfig,
    DbtConfig,
    DomainConfig,
    OpenLineageConfig,
    OpenLineageSource,
    WarehouseConfig,
)
from dw_assets.connectors.airflow import AirflowClient
from dw_assets.connectors.dbt import load_artifact, run_dbt
from dw_assets.connectors.warehouse import Warehouse
from dw_assets.context_graph import cached_context_graph
from dw_assets.core.diagnosis import rank_causes
from dw_assets.core.evidence import EvidenceBundle, GraphNode, Symptom
from dw_assets.core.graph import ContextGraph, Provenance
from dw_assets.diagnosis import profiles, sources
from dw_assets.diagnosis.collect import collect_evidence
from dw_assets.diagnosis.service import diagnose, symptom_from_incident
from dw_assets.incidents import IncidentStore, intake_signal
from dw_assets.lineage.processing import process_new_events
from dw_assets.operations.remediation import propose_plan
from dw_assets.store import Store
from sensors.missed_runs import evaluate as missed_runs
from tests.airflow.test_airflow_integration import instance_config, wait_finished
from tests.support.settings import build_settings

pytestmark = pytest.mark.airflow

REPO = Path(__file__).resolve().parents[2]
DBT = REPO / "tests" / "fault_suite" / "web_estate" / "web_dbt"
INGEST = GraphNode("airflow:web_events.ingest_clicks", "task", "airflow", 2, feeds=("web.raw.clicks",))
AIRFLOW3_ONLY = pytest.mark.parametrize("airflow", [3], indirect=True, ids=["airflow3"])


@pytest.fixture(scope="module")
def web(airflow, tmp_path_factory):
    """The web estate on this major's Airflow: its data under `$DW_HOME/web`, its own state store, and
    `web_rollup` paused by the operator (over the REST API, so Airflow's audit log records who and when)."""
    root = tmp_path_factory.mktemp(f"web{airflow.major}")
    home = airflow.dw_home / "web"
    (home / "landing").mkdir(parents=True, exist_ok=True)
    for dag_id in ("web_events", "web_sessions", "web_rollup"):
        airflow.wait_for_dag(dag_id)
    with airflow.http() as http:
        resp = http.patch(f"{airflow.api_prefix}/dags/web_rollup", json={"is_paused": True})
        assert resp.status_code == 200, resp.text
    cfg = instance_config(airflow)
    target = root / "dbt_target"
    settings = build_settings(
        root,
        warehouse=WarehouseConfig(url="duckdb:///:memory:", attach={"web": str(home / "web.duckdb")}),
        dbt=DbtConfig(project_dir=str(DBT), manifest=str(target / "manifest.json"),
                      run_results=str(target / "run_results.json")),
        openlineage=OpenLineageConfig(sources=[OpenLineageSource(type="file", path=str(root / "lineage"))]),
        airflow=AirflowConfig(instances=[cfg], task_outputs={"web_events.ingest_clicks": ["web.raw.clicks"],
                                                            "web_sessions.rebuild_sessions": ["web.raw.sessions"],
                                                            "web_rollup.build_rollup": ["web.mart.click_rollup"]}),
        domains=[DomainConfig(name="web", datasets=["web.*"], owner="ola", repo=str(REPO),
                              dags_path="tests/fault_suite/web_estate/dags")],
        checks=[{"dataset": "web.raw.clicks", "volume": {"partition_column": "day"}}])
    (root / "lineage").mkdir()
    client = AirflowClient(cfg)
    store = Store(settings.state.url)
    yield SimpleNamespace(harness=airflow, major=airflow.major, home=home, root=root, settings=settings,
                          client=client, store=store, clients={cfg.name: client},
                          warehouse=Warehouse("duckdb:///:memory:", {"web": str(home / "web.duckdb")}))
    client.close()
    store.dispose()


def _run(web, dag_id: str, conf: dict | None = None) -> str:
    started = web.client.trigger_dag_run(dag_id, conf or {})
    return wait_finished(web.client, dag_id, started.run_id, timeout=300).state


def _window(now: datetime) -> tuple[datetime, datetime]:
    return now - timedelta(hours=48), now + timedelta(minutes=1)


def _runs(web, symptom: Symptom, upstream: list[GraphNode]):
    return sources.airflow_runs(web.settings, None, symptom, upstream, _window(symptom.observed_at), 20, web.clients)


def _dbt_ol(web, *args: str):
    """dbt build through dbt-ol, its events to the file transport the estate's OpenLineage source reads;
    then the product ingests them (FAIL events become incidents) and the run results are returned."""
    (web.root / "openlineage.yml").write_text(
        f"transport:\n  type: file\n  log_file_path: {web.root / 'lineage' / 'dbt.ndjson'}\n  append: true\n")
    env = {"WEB_HOME": str(web.home), "DBT_TARGET_PATH": str(web.root / "dbt_target"),
           "DBT_LOG_PATH": str(web.root / "dbt_logs"), "OPENLINEAGE_CONFIG": str(web.root / "openlineage.yml"),
           "OPENLINEAGE_NAMESPACE": "web"}
    run_dbt(["build", *args], DBT, DBT, env=env, use_openlineage=True)
    processed = process_new_events(web.settings, web.store, intake=intake_signal)
    return load_artifact(web.root / "dbt_target" / "run_results.json"), processed


def _clicks(web, day: str, rows: int) -> None:
    lines = ["click_id,visitor_ref,dwell_ms"] + [f"c{day}-{i},v{i % 7},{100 + i}" for i in range(rows)]
    (web.home / "landing" / f"clicks_{day.replace('-', '')}_0.csv").write_text("\n".join(lines) + "\n")


def _writer_graph(task: GraphNode, dataset: str) -> ContextGraph:
    graph = ContextGraph()
    graph.add_node(task.node_id, "task", "airflow")
    graph.add_node(dataset, "dataset", "warehouse")
    graph.add_edge(task.node_id, dataset, "writes", Provenance("config"))
    return graph


def test_failed_task_is_explained_from_its_own_log(web):
    assert _run(web, "web_events", {"day": "2026-11-15"}) == "failed"  # no file landed for that day
    now = datetime.now(UTC)
    symptom = Symptom("failure", "web.raw.clicks", now, "web_events.ingest_clicks failed",
                      job="web_events.ingest_clicks")
    runs = _runs(web, symptom, [INGEST])
    failed = [r for r in runs if r.state == "failed"]
    assert failed and any("No files found" in (r.error_message or "") for r in failed), runs
    top = rank_causes(EvidenceBundle(symptom, _window(now), upstream=(INGEST,), task_runs=tuple(runs)))[0]
    assert top.kind == "missing_input" and top.details["try_number"] >= 1 and top.details["log_lines"]
    incident = SimpleNamespace(id="INC-R1", dataset_id="web.raw.clicks", severity="high", title="failed",
                               evidence={}, causes=[top], proposed_fixes=[], blast_radius=[],
                               signals=[{"details": {"partition": "2026-11-15"}}])
    plan = propose_plan(web.settings, incident, graph=_writer_graph(INGEST, "web.raw.clicks"), client=web.client,
                        instance=web.client.name)
    assert plan.plan_class == "fix_then_rerun" and plan.steps[0].description.startswith("first fix the cause")


@AIRFLOW3_ONLY
def test_duplicated_load_and_the_dbt_test_it_breaks(web):
    day = "2026-11-16"
    _clicks(web, day, 40)
    assert _run(web, "web_events", {"day": day}) == "success"
    assert _run(web, "web_events", {"day": day}) == "success"  # the same day loaded again: it appends
    results, _ = _dbt_ol(web, "--select", "stg_clicks")
    [unique] = [r for r in results["results"] if r["unique_id"].startswith("test.web_dbt.unique_stg_clicks")]
    assert unique["status"] == "fail" and unique["failures"] == 40
    # dbt-ol's FAIL names the test's audit relation; the incident opens on the model it tests
    [incident] = [i for i in IncidentStore(web.store).list(status="open")
                  if any("unique_stg_clicks" in (s["details"].get("dbt_test") or "") for s in i.signals)]
    assert incident.dataset_id == "web.stg_clicks" and incident.owner == "ola" and incident.domain == "web"
    audit = incident.signals[0]["details"]["dbt_test_relation"]
    assert "dbt_test__audit" in audit and incident.signals[0]["details"]["tested_column"] == "click_id"
    symptom = replace(symptom_from_incident(incident), partition=day)  # the partition the load wrote twice
    graph = _graph(web)
    ev = collect_evidence(web.settings, web.store, symptom, graph=graph, airflow_clients=web.clients,
                          warehouse=web.warehouse)
    test = ev.symptom.metrics["dbt_test"]  # the failing rows, sampled from the audit relation
    assert test["tested"] == "web.stg_clicks" and test["failures"] == 40 and test["column"] == "click_id"
    assert len(test["sample_keys"]["values"]) == 5
    keys = profiles.key_columns_from_graph(graph, ["web.stg_clicks"])
    assert keys["web.stg_clicks"][0] == "click_id"  # the key column, read from the dbt tests
    profile = profiles.profile_partition(web.warehouse, "web.raw.clicks", "day", day, "daily", 3,
                                         key_columns=keys["web.stg_clicks"])
    assert profile.duplicate_keys == 40 and profile.key_column == "click_id"
    upstream = [GraphNode("web.raw.clicks", "source", "warehouse", 1), INGEST]
    bundle = EvidenceBundle(ev.symptom, _window(symptom.observed_at), upstream=tuple(upstream),
                            task_runs=tuple(_runs(web, symptom, upstream)), profiles=(profile,))
    top = rank_causes(bundle)[0]
    assert top.kind == "duplicated_load" and top.explains, top
    incident = SimpleNamespace(id="INC-R2", dataset_id="web.raw.clicks", severity="high", title="dup", evidence={},
                               causes=[top], proposed_fixes=[], blast_radius=[],
                               signals=[{"details": {"partition": day}}])
    plan = propose_plan(web.settings, incident, graph=_writer_graph(INGEST, "web.raw.clicks"), client=web.client,
                        instance=web.client.name)
    assert plan.plan_class == "dedupe_then_reload" and "appends" in plan.steps[0].description
    assert f"DELETE FROM web.raw.clicks WHERE day = '{day}'" in plan.steps[0].description


def _graph(web) -> ContextGraph:
    return cached_context_graph(web.settings)


@AIRFLOW3_ONLY
def test_type_change_on_day_one(web):
    landing = web.home / "landing"
    (landing / "sessions_1.csv").write_text("session_id,dwell_ms\ns1,1200\ns2,800\n")
    assert _run(web, "web_sessions") == "success"
    with web.warehouse.session() as s:  # the drift check's first sight: the baseline it accepts
        accept_schema(web.store, "web.raw.sessions", [(c.name, c.data_type) for c in s.table_schema("web.raw.sessions")],
                      actor="data-workers (first sight)")
    (landing / "sessions_2.csv").write_text("session_id,dwell_ms\ns3,N/A\ns4,950\n")
    assert _run(web, "web_sessions") == "success"  # the rebuild widens dwell_ms to text
    results, processed = _dbt_ol(web, "--select", "stg_sessions")
    assert processed.signals_delivered >= 1
    [model] = [r for r in results["results"] if r["unique_id"] == "model.web_dbt.stg_sessions"]
    assert model["status"] == "error"
    # the incident comes from dbt-ol's FAIL event; nobody hands the error over
    [incident] = [i for i in IncidentStore(web.store).list(status="open") if i.dataset_id == "web.stg_sessions"]
    assert incident.signals[0]["kind"] == "lineage_fail" and "Could not convert" in \
        incident.signals[0]["details"]["error_message"]
    symptom = symptom_from_incident(incident)
    result = diagnose(web.settings, web.store, symptom, airflow_clients=web.clients, warehouse=web.warehouse,
                      propose=False)
    ev = result.evidence
    assert [(c.column, c.old_type, c.new_type) for c in ev.schema_changes if c.source.startswith("schema_drift")] \
        == [("dwell_ms", "BIGINT", "VARCHAR")]
    built = [f for f in ev.failures if f.source == "dbt run_results"]  # the build's own error, from run_results
    assert built and "Could not convert string 'N/A'" in built[0].message
    top = result.causes[0]
    assert top.kind == "upstream_type_change" and top.details["column"] == "dwell_ms" and top.explains, top
    # and with no error text at all on the symptom, run_results.json alone names the same cause
    bare = collect_evidence(web.settings, web.store, replace(symptom, error_message=None), graph=_graph(web),
                            airflow_clients=web.clients, warehouse=web.warehouse)
    assert bare.symptom_error().kind == "conversion" and rank_causes(bare)[0].kind == "upstream_type_change"


def test_missed_run_of_a_paused_dag(web):
    report = missed_runs(web.settings, web.clients, lambda signal: intake_signal(web.settings, web.store, signal))
    [missed] = [r for r in report if r.get("dag_id") == "web_rollup"]
    assert missed["kind"] == "missed" and missed["schedule"] == "30 4 * * *" and missed["paused"], report
    assert missed["last_run"] is None  # it never ran: deployed paused, no run was ever created
    assert missed["paused_by"] == web.harness.username  # Airflow's audit log: who paused it, and when
    assert abs(datetime.fromisoformat(missed["paused_at"]) - datetime.now(UTC)) < timedelta(hours=1)
    assert missed["cause"].startswith("the load did not run: the DAG is paused (paused by admin at ")
    assert not [r for r in report if r.get("dag_id") in ("web_events", "web_sessions")]  # no schedule to miss
    [incident] = [i for i in IncidentStore(web.store).list(status="open") if i.dataset_id == "web.mart.click_rollup"]
    assert incident.owner == "ola" and incident.signals[0]["kind"] == "run_missed"
    symptom = symptom_from_incident(incident)
    top = rank_causes(EvidenceBundle(symptom, _window(symptom.observed_at)))[0]
    assert top.kind == "did_not_run" and "the DAG is paused" in top.title and top.explains, top
    task = GraphNode("airflow:web_rollup.build_rollup", "task", "airflow", 1)
    plan = propose_plan(web.settings, SimpleNamespace(
        id=incident.id, dataset_id="web.mart.click_rollup", severity="high", title=incident.title, evidence={},
        causes=[top], proposed_fixes=[], blast_radius=[], signals=incident.signals),
        graph=_writer_graph(task, "web.mart.click_rollup"), client=web.client, instance=web.client.name)
    assert plan.plan_class == "fix_then_rerun" and "unpauses web_rollup" in plan.steps[0].description
    assert web.client.list_dag_runs("web_rollup") == []  # and nothing ran meanwhile
