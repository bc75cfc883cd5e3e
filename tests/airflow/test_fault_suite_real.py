"""The fault suite's real part: the `web` estate (tests/fault_suite/web_estate: its own DAGs, task code
and dbt project) on a real Airflow 3 and real dbt on DuckDB. Faults are injected one at a time and
diagnosed through the real collectors: the failed try's log read over the Airflow API, the
warehouse's information_schema against the drift baseline, the partition profile, dbt's run results
and manifest, and the missed-runs sensor's evaluation of the DAG's real schedule.

Cases: failed task (no input files), duplicated load, dbt unique test failing on its audit relation,
type change on day one (drift check + dbt model cast), missed scheduled run. One Airflow at a time:
the pool stops the demo estate's before this one starts."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest

from dw_assets.checks.state import accept_schema
from dw_assets.config import AirflowConfig, DomainConfig, Settings, StateConfig
from dw_assets.connectors.airflow import AirflowClient
from dw_assets.connectors.dbt import load_artifact, run_dbt
from dw_assets.connectors.warehouse import Warehouse
from dw_assets.core.dbt_lineage import add_manifest
from dw_assets.core.diagnosis import rank_causes
from dw_assets.core.evidence import EvidenceBundle, GraphNode, ModelSource, Symptom
from dw_assets.core.graph import ContextGraph
from dw_assets.diagnosis import profiles, sources
from dw_assets.harness.airflow import AirflowHarness
from dw_assets.operations.remediation import propose_plan
from dw_assets.store import Store
from sensors.missed_runs import evaluate as missed_runs
from tests.airflow.test_airflow_integration import instance_config, wait_finished

pytestmark = pytest.mark.airflow

REPO = Path(__file__).resolve().parents[2]
ESTATE = REPO / "tests" / "fault_suite" / "web_estate"
DBT = ESTATE / "web_dbt"
INGEST = GraphNode("airflow:web_events.ingest_clicks", "task", "airflow", 2, feeds=("web.raw.clicks",))


@pytest.fixture(scope="module")
def web(airflow_pool, tmp_path_factory):
    root = tmp_path_factory.mktemp("web_estate")
    home = root / "web"
    (home / "landing").mkdir(parents=True)
    airflow_pool.stop_all()  # one Airflow at a time: the demo estate's stops first
    harness = AirflowHarness(3, root / "airflow", dags_folder=ESTATE / "dags", dw_home_dir=home,
                             extra_env={"WEB_HOME": str(home)})
    airflow_pool.harnesses["web"] = harness  # the pool stops it when a test asks for another Airflow
    harness.start()
    for dag_id in ("web_events", "web_sessions"):
        harness.wait_for_dag(dag_id)
    cfg = instance_config(harness)
    settings = Settings(
        state=StateConfig(url=f"sqlite:///{root}/state.db"),
        airflow=AirflowConfig(instances=[cfg], task_outputs={"web_events.ingest_clicks": ["web.raw.clicks"],
                                                            "web_sessions.rebuild_sessions": ["web.raw.sessions"]}),
        domains=[DomainConfig(name="web", datasets=["web.*"], owner="ola", repo=str(REPO),
                              dags_path="tests/fault_suite/web_estate/dags")],
        checks=[{"dataset": "web.raw.clicks", "volume": {"partition_column": "day"}}])
    client = AirflowClient(cfg)
    store = Store(settings.state.url)
    yield SimpleNamespace(harness=harness, home=home, root=root, settings=settings, client=client, store=store,
                          warehouse=Warehouse("duckdb:///:memory:", {"web": str(home / "web.duckdb")}))
    client.close()
    store.dispose()
    harness.stop()
    airflow_pool.harnesses.pop("web", None)


def _run(web, dag_id: str, conf: dict | None = None) -> str:
    started = web.client.trigger_dag_run(dag_id, conf or {})
    return wait_finished(web.client, dag_id, started.run_id, timeout=300).state


def _window(now: datetime) -> tuple[datetime, datetime]:
    return now - timedelta(hours=48), now + timedelta(minutes=1)


def _runs(web, symptom: Symptom, upstream: list[GraphNode]):
    return sources.airflow_runs(web.settings, None, symptom, upstream, _window(symptom.observed_at), 20,
                                {"web": web.client})


def _dbt(web, *args: str):
    env = {"WEB_HOME": str(web.home), "DBT_TARGET_PATH": str(web.root / "dbt_target"),
           "DBT_LOG_PATH": str(web.root / "dbt_logs")}
    run_dbt(["build", *args], DBT, DBT, env=env, structured_logs=False)
    target = web.root / "dbt_target"
    return load_artifact(target / "run_results.json"), load_artifact(target / "manifest.json")


def _clicks(web, day: str, rows: int) -> None:
    lines = ["click_id,visitor_ref,dwell_ms"] + [f"c{day}-{i},v{i % 7},{100 + i}" for i in range(rows)]
    (web.home / "landing" / f"clicks_{day.replace('-', '')}_0.csv").write_text("\n".join(lines) + "\n")


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
                               evidence={}, causes=[top.to_dict()], proposed_fixes=[], blast_radius=[],
                               signals=[{"details": {"partition": "2026-11-15"}}])
    graph = ContextGraph()
    graph.add_node(INGEST.node_id, "task", "airflow")
    graph.add_node("web.raw.clicks", "dataset", "warehouse")
    from dw_assets.core.graph import Provenance

    graph.add_edge(INGEST.node_id, "web.raw.clicks", "writes", Provenance("config"))
    plan = propose_plan(web.settings, incident, graph=graph, client=web.client, instance=web.client.name)
    assert plan.plan_class == "fix_then_rerun" and plan.steps[0].description.startswith("first fix the cause")


def test_duplicated_load_and_the_dbt_test_it_breaks(web):
    day = "2026-11-16"
    _clicks(web, day, 40)
    assert _run(web, "web_events", {"day": day}) == "success"
    assert _run(web, "web_events", {"day": day}) == "success"  # the same day loaded again: it appends
    results, manifest = _dbt(web, "--select", "stg_clicks")
    [unique] = [r for r in results["results"] if r["unique_id"].startswith("test.web_dbt.unique_stg_clicks")]
    assert unique["status"] == "fail" and unique["failures"] == 40
    graph = ContextGraph()
    add_manifest(graph, manifest)
    test_node = manifest["nodes"][unique["unique_id"]]
    audit = f"{test_node['database']}.{test_node['schema']}.{test_node['alias']}"
    tested = graph.resolve(audit)  # the incident belongs to the model, not to the audit table
    assert tested == "web.stg_clicks"
    dbt_settings = Settings(dbt={"project_dir": str(DBT), "run_results": str(web.root / "dbt_target" /
                                                                              "run_results.json")})
    evidence = sources.dbt_test_evidence(dbt_settings, graph, audit, web.warehouse)
    assert evidence["tested"] == "web.stg_clicks" and evidence["failures"] == 40 and evidence["column"] == "click_id"
    assert len(evidence["sample_keys"]["values"]) == 5  # keys of the failing rows, from the stored failures
    keys = profiles.key_columns_from_graph(graph, ["web.stg_clicks"])
    assert keys["web.stg_clicks"][0] == "click_id"
    profile = profiles.profile_partition(web.warehouse, "web.raw.clicks", "day", day, "daily", 3,
                                         key_columns=keys["web.stg_clicks"])
    assert profile.duplicate_keys == 40 and profile.key_column == "click_id"
    now = datetime.now(UTC)
    symptom = Symptom("check_failed", tested, now, f"dbt test {test_node['name']} failed: {unique['failures']} rows",
                      partition=day, metrics={"dbt_test": test_node["name"], "failures": unique["failures"]})
    upstream = [GraphNode("web.raw.clicks", "source", "warehouse", 1), INGEST]
    ev = EvidenceBundle(symptom, _window(now), upstream=tuple(upstream), task_runs=tuple(_runs(web, symptom, upstream)),
                        profiles=(profile,))
    top = rank_causes(ev)[0]
    assert top.kind == "duplicated_load" and top.explains, top
    incident = SimpleNamespace(id="INC-R2", dataset_id="web.raw.clicks", severity="high", title="dup", evidence={},
                               causes=[top.to_dict()], proposed_fixes=[], blast_radius=[],
                               signals=[{"details": {"partition": day}}])
    plan = propose_plan(web.settings, incident, graph=graph_with_writer(), client=web.client,
                        instance=web.client.name)
    assert plan.plan_class == "dedupe_then_reload" and "appends" in plan.steps[0].description
    assert f"DELETE FROM web.raw.clicks WHERE day = '{day}'" in plan.steps[0].description


def graph_with_writer() -> ContextGraph:
    from dw_assets.core.graph import Provenance

    graph = ContextGraph()
    graph.add_node(INGEST.node_id, "task", "airflow")
    graph.add_node("web.raw.clicks", "dataset", "warehouse")
    graph.add_edge(INGEST.node_id, "web.raw.clicks", "writes", Provenance("config"))
    return graph


def test_type_change_on_day_one(web):
    landing = web.home / "landing"
    (landing / "sessions_1.csv").write_text("session_id,dwell_ms\ns1,1200\ns2,800\n")
    assert _run(web, "web_sessions") == "success"
    with web.warehouse.session() as s:  # the drift check's first sight: the baseline it accepts
        accept_schema(web.store, "web.raw.sessions", [(c.name, c.data_type) for c in s.table_schema("web.raw.sessions")],
                      actor="data-workers (first sight)")
    (landing / "sessions_2.csv").write_text("session_id,dwell_ms\ns3,N/A\ns4,950\n")
    assert _run(web, "web_sessions") == "success"  # the rebuild widens dwell_ms to text
    results, _ = _dbt(web, "--select", "stg_sessions")
    [model] = [r for r in results["results"] if r["unique_id"] == "model.web_dbt.stg_sessions"]
    assert model["status"] == "error"
    now = datetime.now(UTC)
    changes = sources.drift_changes(web.settings, web.store, ["web.raw.sessions"], [], _window(now), web.warehouse)
    assert [(c.column, c.old_type, c.new_type) for c in changes] == [("dwell_ms", "BIGINT", "VARCHAR")]
    symptom = Symptom("failure", "web.stg_sessions", now, "dbt stg_sessions failed", job="model.web_dbt.stg_sessions",
                      error_message=model["message"])
    upstream = (GraphNode("web.raw.sessions", "source", "warehouse", 1),
                GraphNode("airflow:web_sessions.rebuild_sessions", "task", "airflow", 2, feeds=("web.raw.sessions",)))
    sql = (DBT / "models" / "stg_sessions.sql").read_text()
    ev = EvidenceBundle(symptom, _window(now), upstream=upstream, schema_changes=tuple(changes),
                        models=(ModelSource("web.stg_sessions", "stg_sessions", "models/stg_sessions.sql", sql, 0),))
    top = rank_causes(ev)[0]
    assert top.kind == "upstream_type_change" and top.details["column"] == "dwell_ms" and top.explains, top


def test_missed_scheduled_run(web):
    found: list = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # the scheduler has made web_events' latest scheduled run by now
        if any(r.run_type == "scheduled" for r in web.client.list_dag_runs("web_events")):
            break
        time.sleep(3)
    later = datetime.now(UTC) + timedelta(days=2)  # two days on, nothing ran
    report = missed_runs(web.settings, {"web": web.client}, found.append, now=later)
    missed = [r for r in report if r.get("dag_id") == "web_events"]
    assert missed and missed[0]["kind"] == "missed" and missed[0]["schedule"] == "0 6 * * *", report
    assert not [r for r in report if r.get("dag_id") == "web_sessions"]  # no schedule: nothing to miss
    [signal] = [s for s in found if s.details["dag_id"] == "web_events"]
    assert signal.kind == "run_missed" and signal.dataset_id == "web.raw.clicks"
    assert signal.details["cause"] == "the load did not run"
