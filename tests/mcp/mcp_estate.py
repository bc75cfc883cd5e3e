"""The MCP test estate: the demo estate on the morning after night 1, the real dbt project and
notes, a fake Airflow 3 that records every request, and a config pointing at them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml
from pytest_httpserver import HTTPServer

from dw_assets.config import Settings, load_settings

REPO = Path(__file__).resolve().parents[2]
EXPORT_DATE = "2026-09-30"
API_KEY = "test-mcp-key-0123456789abcdef"


@dataclass
class McpEstate:
    home: Path
    config: Path
    airflow: HTTPServer
    slack: HTTPServer
    incident_id: str

    @property
    def settings(self) -> Settings:
        return load_settings(self.config)

    @property
    def env(self) -> dict[str, str]:
        return {"DW_CONFIG": str(self.config), "DW_HOME": str(self.home), "DW_MCP_API_KEY": ""}

    def airflow_requests(self) -> list[tuple[str, str]]:
        return [(request.method, request.path) for request, _ in self.airflow.log]


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def fake_airflow(server: HTTPServer, load_start: datetime) -> None:
    """Airflow 3's API as the demo's night-1 runs left it: gl_landing released early and loaded part 1."""
    run_id = "manual__night1"
    run = {"dag_id": "gl_landing", "dag_run_id": run_id, "state": "success", "logical_date": None,
           "run_after": _iso(load_start - timedelta(minutes=2)), "start_date": _iso(load_start - timedelta(minutes=2)),
           "end_date": _iso(load_start + timedelta(minutes=3)), "conf": {"export_date": EXPORT_DATE},
           "run_type": "manual"}
    tasks = [{"task_id": "wait_for_export", "state": "success", "try_number": 1,
              "start_date": _iso(load_start - timedelta(minutes=2)), "end_date": _iso(load_start - timedelta(minutes=1))},
             {"task_id": "load", "state": "success", "try_number": 1, "start_date": _iso(load_start),
              "end_date": _iso(load_start + timedelta(minutes=2))}]
    triggered = {**run, "dag_run_id": "manual__from_mcp", "state": "queued", "start_date": None, "end_date": None}
    server.expect_request("/api/v2/version", method="GET").respond_with_json({"version": "3.0.0"})
    server.expect_request("/api/v2/dags/gl_landing/dagRuns", method="POST").respond_with_json(triggered)
    server.expect_request("/api/v2/dags/gl_landing/dagRuns", method="GET").respond_with_json(
        {"dag_runs": [run], "total_entries": 1})
    server.expect_request(f"/api/v2/dags/gl_landing/dagRuns/{run_id}/taskInstances").respond_with_json(
        {"task_instances": tasks, "total_entries": 2})
    server.expect_request(re.compile(r"^/api/v2/dags/[^/]+/dagRuns$"), method="GET").respond_with_json(
        {"dag_runs": [], "total_entries": 0})
    server.expect_request(re.compile(".*")).respond_with_json({"detail": "not found"}, status=404)


def night1(home: Path, now_local: datetime) -> datetime:
    """Part 1 lands, the load runs before part 2, then part 2 and the done-marker land. Returns the
    load's start (aware)."""
    from zoneinfo import ZoneInfo

    from dw_assets.demo.estate import build_estate, load_gl_partition, write_done_marker, write_gl_export_part

    paths = build_estate(home)
    load_start = now_local - timedelta(hours=2, minutes=55)
    write_gl_export_part(home, EXPORT_DATE, 1, landed_at=now_local - timedelta(hours=3))
    load_gl_partition(paths.finance_db, paths.landing, EXPORT_DATE, loaded_at=load_start + timedelta(minutes=2))
    write_gl_export_part(home, EXPORT_DATE, 2, landed_at=now_local - timedelta(hours=2, minutes=30))
    write_done_marker(home, EXPORT_DATE, landed_at=now_local - timedelta(hours=2, minutes=29))
    return load_start.replace(tzinfo=ZoneInfo("America/New_York"))


def write_config(home: Path, airflow_url: str, slack_url: str) -> Path:
    raw = yaml.safe_load((REPO / "estate" / "dw.yaml").read_text())
    raw["dbt"] = {"project_dir": str(REPO / "dbt_project"), "profiles_dir": str(REPO / "dbt_project")}
    raw["notes"] = str(REPO / "estate" / "notes.yaml")
    instance = {"url": airflow_url, "auth": {"type": "none"}, "timeout_s": 10, "retries": 0}
    raw["airflow"]["instances"] = [{"name": "local", **instance, "read_only": False, "trigger_mode": "trigger"},
                                   {"name": "pinned", **instance, "read_only": True}]
    raw["openlineage"].pop("spec_dir", None)
    for domain in raw["domains"]:  # the owners' repo is this one: diffs are only checked, never applied
        domain.update(slack={"webhook_url": f"{slack_url}/{domain['name']}"}, repo=str(REPO), dags_path="estate/dags")
    raw["governance"].update(signing_key_file=str(home / "keys" / "signing.key"), demo_key=True,
                             witness_file=str(home / "receipts.witness"))
    config = home / "dw.yaml"
    config.write_text(yaml.safe_dump(raw, sort_keys=False))
    return config
