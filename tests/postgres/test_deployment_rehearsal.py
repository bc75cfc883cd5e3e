"""A one-machine rehearsal of the team deployment (docs/deployment.md), with the month-end story
passing through it: Dagster's run, event-log and schedule storage on PostgreSQL through
`dagster-postgres` (tables created first with `dagster instance migrate`), the code server, the
daemon and the webserver as three processes, Data Workers' state store on the same PostgreSQL
server, a real Airflow 3 and `dw lineage serve`.

The story is daemon_night's driver (the one `tests/e2e/test_daemon_night.py` plays on the embedded
default), here on this instance and state store: the split GL export lands half, the volume check
fails, an incident and a plan, `dw approve`, the approvals sensor launches the gated rerun under
the daemon, the owner triggers the drafted run, the rerun's run verifies, receipts intact. Then the
rows are read back from PostgreSQL, the webserver is asked through GraphQL, and no SQLite file was
written (Airflow's own metadata database aside: it is the team's Airflow, not this deployment)."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import dagster as dg
import httpx
import pytest
import sqlalchemy as sa

from dw_assets.dagster_defs.rerun import dagster_anchor
from dw_assets.demo.daemon_night import DaemonNight
from dw_assets.governance.workflow import Governance
from dw_assets.incidents import IncidentStore

pytestmark = [pytest.mark.postgres, pytest.mark.e2e]
GL = {"path": ["finance", "bronze", "gl_entries"]}
SQLITE_MAGIC = b"SQLite format 3\x00"


def _database(server_url: str, name: str) -> str:
    admin = sa.create_engine(server_url.replace("postgresql://", "postgresql+psycopg://"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return server_url.rsplit("/", 1)[0] + f"/{name}"


def _instance(dagster_url: str) -> dict[str, Any]:
    """The deployment's dagster.yaml (docs/deployment.md): PostgreSQL storage, the run queue."""
    # psycopg2 named in the scheme: SQLAlchemy 2.1 maps a bare postgresql:// to psycopg 3, under which
    # dagster-postgres's `NOTIFY run_events, %s` fails and no run can be launched
    return {"telemetry": {"enabled": False},
            "storage": {"postgres": {"postgres_url": dagster_url.replace("postgresql://", "postgresql+psycopg2://")}},
            "run_coordinator": {"module": "dagster.core.run_coordinator", "class": "QueuedRunCoordinator"},
            "sensors": {"use_threads": True, "num_workers": 8}}


def _graphql(url: str, query: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
    response = httpx.post(f"{url}/graphql", json={"query": query, "variables": variables or {}}, timeout=120)
    response.raise_for_status()
    body = response.json()
    assert "errors" not in body, body["errors"]
    return body["data"]


def _materializations(web: str, path: list[str], partition: str) -> list[dict[str, Any]]:
    data = _graphql(web, """query($k: AssetKeyInput!, $p: [String!]) { assetOrError(assetKey: $k) { ... on Asset {
        assetMaterializations(partitions: $p) { partition runId metadataEntries { label
        ... on BoolMetadataEntry { boolValue } } } } } }""", {"k": {"path": path}, "p": [partition]})
    return data["assetOrError"].get("assetMaterializations") or []  # [] while not an Asset yet


def _volume_outcomes(web: str) -> list[bool]:
    """The volume check's results on the GL entries, newest first."""
    data = _graphql(web, """query($k: AssetKeyInput!, $c: String!) { assetCheckExecutions(assetKey: $k,
        checkName: $c, limit: 20) { evaluation { success } } }""", {"k": GL, "c": "volume_vs_history"})
    return [e["evaluation"]["success"] for e in data["assetCheckExecutions"] if e["evaluation"]]


def _eventually(what: str, probe: Callable[[], Any], done: Callable[[Any], bool], deadline_s: float = 600) -> Any:
    """`probe()` once `done` says so, asked every 5 s; AssertionError with the last answer after the deadline."""
    end = time.monotonic() + deadline_s
    while True:
        found = probe()
        if done(found):
            return found
        assert time.monotonic() < end, f"{what}: not within {deadline_s:.0f}s; last seen {found}"
        time.sleep(5)


def _rows(url: str, sql: str, **params: Any) -> list[Any]:
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as conn:
            return list(conn.execute(sa.text(sql), params))
    finally:
        engine.dispose()


def _sqlite_files(root: Path, *, skip: Path) -> list[Path]:
    found = []
    for path in root.rglob("*"):
        if skip in path.parents or not path.is_file():
            continue
        with path.open("rb") as fh:
            if fh.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC:
                found.append(path)
    return found


@pytest.fixture
def restored_environ() -> Iterator[None]:
    """The driver sets DW_HOME, DW_CONFIG, DAGSTER_HOME and the Airflow's credentials in this
    process's environment (the demo's steps read them there): none of it outlives the test."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


def test_the_month_end_story_through_the_team_deployment_on_postgres(tmp_path: Path, postgres_url: str,
                                                                     restored_environ: None) -> None:
    tag = uuid.uuid4().hex[:8]
    dagster_url, state_url = _database(postgres_url, f"dagster_{tag}"), _database(postgres_url, f"dw_{tag}")
    home = tmp_path / "home"
    night = DaemonNight(home, instance=_instance(dagster_url), state_url=state_url, separate_processes=True,
                        leg_deadline_s=900)
    try:
        night.prepare()
        summary = night.play()  # migrates the instance, starts the three processes after the first load
        assert night.webserver is not None
        web = night.webserver.url
        incident_id, plan_id = summary["incident_id"], summary["plan_id"]

        # the webserver (its own process, on the code server) answers for the story
        data = _graphql(web, "{ workspaceOrError { ... on Workspace { locationEntries { name "
                             "locationOrLoadError { __typename } } } } "
                             "instance { daemonHealth { allDaemonStatuses { daemonType required healthy } } } }")
        entries = {e["name"]: e["locationOrLoadError"]["__typename"] for e in data["workspaceOrError"]["locationEntries"]}
        assert entries == {"data_workers": "RepositoryLocation"}
        daemons = {d["daemonType"]: d["healthy"] for d in data["instance"]["daemonHealth"]["allDaemonStatuses"]
                   if d["required"]}
        assert daemons.get("SENSOR") and daemons.get("QUEUED_RUN_COORDINATOR"), daemons
        # the verification receipt is written before the rerun run logs its materialization, and the
        # check run on the rerun's load may still be under way: asked until they are there
        _eventually(f"incident partition {incident_id} materialized",
                    lambda: _materializations(web, ["incident"], incident_id), bool)
        verifications = _eventually(f"dw/verification partition {plan_id} materialized",
                                    lambda: _materializations(web, ["dw", "verification"], plan_id), bool)
        assert {e["label"]: e.get("boolValue") for e in verifications[0]["metadataEntries"]}.get("passed") is True
        _eventually("the volume check failed, then passed", lambda: _volume_outcomes(web),
                    lambda o: bool(o) and o[0] is True and False in o[1:])
        reruns = _eventually("the rerun run succeeded", lambda: _graphql(web, """query { runsOrError(filter:
            {pipelineName: "rerun_airflow_dag"}) { ... on Runs { results { status tags { key value } } } } }""")
                             ["runsOrError"]["results"], lambda r: bool(r) and r[0]["status"] == "SUCCESS")
        assert {t["key"]: t["value"] for t in reruns[0]["tags"]}.get("dw/plan_id") == plan_id
    finally:
        night.stop()
    print({k: summary.get(k) for k in ("legs_s", "dagster_runs", "dagster_runs_by_job", "receipts", "daemon_stop_s")})

    # the story, as daemon_night's summary tells it
    assert summary["ok"], summary.get("error")
    assert summary["verification_passed"] and summary["incident_status"] == "resolved"
    assert summary["receipts"]["intact"]
    for action in ("plan_proposed", "approval_requested", "approval_approved", "dispatch_authorized",
                   "rerun_drafted", "run_observed", "rerun_completed", "verification"):
        assert action in summary["actions"], f"{action} missing from {summary['actions']}"
    incident = IncidentStore(night.ctx.store).get(incident_id)
    assert incident.dataset_id == "finance.bronze.gl_entries" and incident.plan_id == plan_id
    assert "split_export_early_release" in str(incident.causes[0]), incident.causes[:1]

    # Data Workers' state is in PostgreSQL: the incident, the approval, the receipt chain, the events
    [(incidents,)] = _rows(state_url, "SELECT count(*) FROM dw_incidents WHERE id = :id", id=incident_id)
    [(approvals,)] = _rows(state_url, "SELECT count(*) FROM dw_gov_approvals")
    [(receipts,)] = _rows(state_url, "SELECT count(*) FROM dw_receipts")
    [(events,)] = _rows(state_url, "SELECT count(*) FROM dw_ol_events")
    assert incidents == 1 and approvals >= 1 and receipts >= summary["receipts"]["count"] and events > 0
    # ... and Dagster's: the runs the daemon launched, the materializations, the check executions, ticks
    [(runs,)] = _rows(dagster_url, "SELECT count(*) FROM runs")
    [(reruns_done,)] = _rows(dagster_url, "SELECT count(*) FROM runs WHERE pipeline_name = 'rerun_airflow_dag' "
                                          "AND status = 'SUCCESS'")
    assert runs >= summary["dagster_runs"] and reruns_done == 1, summary["dagster_runs_by_job"]
    keys = {key for (key,) in _rows(dagster_url, "SELECT DISTINCT asset_key FROM event_logs "
                                                 "WHERE dagster_event_type = 'ASSET_MATERIALIZATION'")}
    assert {dg.AssetKey(["incident"]).to_string(), dg.AssetKey(["dw", "verification"]).to_string()} <= keys, keys
    [(failed_checks,)] = _rows(dagster_url, "SELECT count(*) FROM asset_check_executions WHERE check_name = "
                                            "'volume_vs_history' AND execution_status = 'FAILED'")
    [(ticks,)] = _rows(dagster_url, "SELECT count(*) FROM job_ticks")
    assert failed_checks >= 1 and ticks >= 1
    # the receipt head anchored in Dagster's (PostgreSQL) event log matches the chain in the state store
    with dg.DagsterInstance.from_config(str(night.dagster_home)) as instance:
        anchor = dagster_anchor(instance)
    assert anchor is not None
    report = Governance(night.ctx.settings, store=night.ctx.store).receipts.verify([anchor])
    assert report.ok, report
    night.ctx.store.dispose()

    # nothing of this deployment on SQLite: no state.db, no Dagster history, no SQLite file anywhere
    assert not (home / "state.db").exists() and not (night.dagster_home / "history").exists()
    assert _sqlite_files(home, skip=home / "airflow") == []
