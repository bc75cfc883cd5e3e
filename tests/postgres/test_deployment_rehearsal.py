"""A one-machine rehearsal of the team deployment (docs/deployment.md): Dagster's run, event-log and
schedule storage on PostgreSQL through `dagster-postgres`, the code server, the daemon and the
webserver as separate processes, Data Workers' state store on the same PostgreSQL server. A failed
dbt run reported through OpenLineage becomes an incident in the PostgreSQL state store, and the
intake sensor (under the daemon) records the incident's partition, in Dagster's PostgreSQL storage; the webserver serves the code location from the code server and reports the
daemon healthy. Nothing is evaluated in this process: it reads the stores and asks the webserver."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from dw_assets.harness.ready import http_ok, wait_ready
from dw_assets.store import Store
from tests.support.dagster_processes import free_port, start, stop, wait_for_materialized_incident

pytestmark = [pytest.mark.postgres, pytest.mark.e2e]
REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
DEADLINE_S = 480  # three processes loading the code location, two sensor ticks, a run worker


def _database(server_url: str, name: str) -> str:
    admin = sa.create_engine(server_url.replace("postgresql://", "postgresql+psycopg://"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return server_url.rsplit("/", 1)[0] + f"/{name}"


def _fail_event(folder: Path) -> str:
    run_id = str(uuid.uuid4())
    analytics = "duckdb:///warehouse/analytics.duckdb"
    event = {"eventType": "FAIL", "eventTime": "2026-10-02T06:20:00+00:00",
             "producer": "https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/dbt",
             "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
             "run": {"runId": run_id, "facets": {"errorMessage": {
                 "_producer": "https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/dbt",
                 "_schemaURL": "https://openlineage.io/spec/facets/1-0-1/ErrorMessageRunFacet.json"
                               "#/$defs/ErrorMessageRunFacet",
                 "message": 'Conversion Error: Could not convert string "N/A" to DECIMAL(18,2)',
                 "programmingLanguage": "sql"}}},
             "job": {"namespace": "dbt", "name": "model.dw_demo.fct_revenue", "facets": {}},
             "inputs": [{"namespace": analytics, "name": "analytics.main.stg_orders", "facets": {}}],
             "outputs": [{"namespace": analytics, "name": "analytics.main.fct_revenue", "facets": {}}]}
    folder.mkdir(parents=True)
    (folder / "dbt.ndjson").write_text(json.dumps(event) + "\n")
    return run_id


def _graphql(url: str, query: str) -> dict:
    response = httpx.post(f"{url}/graphql", json={"query": query}, timeout=30)
    response.raise_for_status()
    return response.json()["data"]


def test_the_team_deployment_on_postgres_with_separate_processes(tmp_path: Path, postgres_url: str) -> None:
    tag = uuid.uuid4().hex[:8]
    dagster_url, state_url = _database(postgres_url, f"dagster_{tag}"), _database(postgres_url, f"dw_{tag}")
    dw_home, dagster_home = tmp_path / "dw", tmp_path / "dagster"
    dagster_home.mkdir(parents=True)
    # psycopg2 named in the scheme: SQLAlchemy 2.1 maps a bare postgresql:// to psycopg 3, under which
    # dagster-postgres's `NOTIFY run_events, %s` fails and no run can be launched
    (dagster_home / "dagster.yaml").write_text(
        "telemetry:\n  enabled: false\n"
        f"storage:\n  postgres:\n    postgres_url: {dagster_url.replace('postgresql://', 'postgresql+psycopg2://')}\n"
        "run_coordinator:\n  module: dagster.core.run_coordinator\n  class: QueuedRunCoordinator\n"
        "sensors:\n  use_threads: true\n  num_workers: 4\n")
    # the demo estate's config with the state store on PostgreSQL
    config = tmp_path / "dw.yaml"
    shipped = (REPO / "estate" / "dw.yaml").read_text()
    assert "url: sqlite:///${DW_HOME}/state.db" in shipped and "\nnotes: notes.yaml\n" in shipped
    config.write_text(shipped.replace("url: sqlite:///${DW_HOME}/state.db", f"url: {state_url}")
                      .replace("\nnotes: notes.yaml\n", f"\nnotes: {REPO / 'estate' / 'notes.yaml'}\n"))
    grpc_port, web_port = free_port(), free_port()
    (tmp_path / "workspace.yaml").write_text(
        f"load_from:\n  - grpc_server:\n      host: 127.0.0.1\n      port: {grpc_port}\n"
        "      location_name: data_workers\n")
    run_id = _fail_event(dw_home / "lineage" / "events")
    env = {**os.environ, "DW_HOME": str(dw_home), "DAGSTER_HOME": str(dagster_home), "DW_CONFIG": str(config),
           "DW_ESTATE_REPO": str(REPO), "DW_AIRFLOW_URL": f"http://127.0.0.1:{free_port()}"}
    if os.environ.get("DW_SHARED_DIR"):
        env["DW_OPENLINEAGE_SPEC_DIR"] = f"{os.environ['DW_SHARED_DIR']}/openlineage-spec"
    commands = {
        "code-server": [str(BIN / "dagster"), "api", "grpc", "--module-name", "dw_assets.definitions",
                        "--host", "127.0.0.1", "--port", str(grpc_port)],
        "daemon": [str(BIN / "dagster-daemon"), "run", "-w", str(tmp_path / "workspace.yaml")],
        "webserver": [str(BIN / "dagster-webserver"), "-w", str(tmp_path / "workspace.yaml"),
                      "-h", "127.0.0.1", "-p", str(web_port)],
    }
    # as a deployment does before starting anything (the Helm chart's migration job): Dagster's
    # tables created once, not raced for by the daemon and the webserver
    migrate = subprocess.run([str(BIN / "dagster"), "instance", "migrate"], cwd=REPO, env=env,
                             capture_output=True, text=True, timeout=300, check=False)
    assert migrate.returncode == 0, migrate.stdout[-2000:] + migrate.stderr[-2000:]
    procs: dict[str, subprocess.Popen] = {}
    store = Store(state_url)
    web = f"http://127.0.0.1:{web_port}"
    deadline = time.monotonic() + DEADLINE_S
    try:
        for name, cmd in commands.items():
            procs[name] = start(cmd, cwd=REPO, env=env, log=tmp_path / f"{name}.log")
            if name == "code-server":  # the readiness probe: the others connect to a server that answers
                probe = [str(BIN / "dagster"), "api", "grpc-health-check", "-h", "127.0.0.1", "-p", str(grpc_port)]
                while subprocess.run(probe, capture_output=True, timeout=120, check=False).returncode != 0:
                    assert time.monotonic() < deadline and procs[name].poll() is None, \
                        (tmp_path / f"{name}.log").read_text(errors="replace")[-3000:]
                    time.sleep(2)
        incident, materialization = wait_for_materialized_incident(
            store, dagster_home, "analytics.fct_revenue", deadline_s=deadline - time.monotonic(),
            alive=lambda: all(p.poll() is None for p in procs.values()))
        logs = {name: (tmp_path / f"{name}.log").read_text(errors="replace")[-3000:] for name in commands}
        assert incident is not None, f"no incident within {DEADLINE_S} s; logs:\n{logs}"
        assert incident.trigger_kind == "lineage_fail" and run_id in str(incident.signals)
        assert materialization is not None, f"the incident's partition was not materialized; logs:\n{logs}"
        assert materialization.asset_materialization.metadata["dataset"].value == "analytics.fct_revenue"

        # the webserver starts last and may still be loading the location when the daemon is done
        wait_ready(procs["webserver"], lambda: http_ok(f"{web}/server_info"), what=f"dagster-webserver at {web}",
                   log_path=tmp_path / "webserver.log", timeout=max(60.0, deadline - time.monotonic()), interval=2)
        data = _graphql(web, "{ workspaceOrError { ... on Workspace { locationEntries { name "
                             "locationOrLoadError { __typename } } } } "
                             "instance { daemonHealth { allDaemonStatuses { daemonType required healthy } } } }")
        entries = {e["name"]: e["locationOrLoadError"]["__typename"] for e in data["workspaceOrError"]["locationEntries"]}
        assert entries == {"data_workers": "RepositoryLocation"}
        daemons = {d["daemonType"]: d["healthy"] for d in data["instance"]["daemonHealth"]["allDaemonStatuses"]
                   if d["required"]}
        assert daemons.get("SENSOR") and daemons.get("QUEUED_RUN_COORDINATOR"), daemons
    finally:
        for proc in procs.values():
            stop(proc)
        store.dispose()
    # Dagster's records are in PostgreSQL, not on local files
    with sa.create_engine(dagster_url.replace("postgresql://", "postgresql+psycopg://")).connect() as conn:
        # the incident's materialization (the intake sensor reports it: incident is an external asset)
        assert conn.execute(sa.text("SELECT count(*) FROM event_logs WHERE dagster_event_type = "
                                    "'ASSET_MATERIALIZATION'")).scalar() >= 1
        assert conn.execute(sa.text("SELECT count(*) FROM job_ticks")).scalar() >= 1
    assert not (dagster_home / "history").exists()  # where SQLite run storage would be
    assert not [p for p in dagster_home.rglob("*") if p.suffix in (".db", ".sqlite")]  # only compute logs stay local
