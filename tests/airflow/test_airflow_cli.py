"""`dw airflow runs` against a fake Airflow: the JSON shape, the table, and its errors."""

from __future__ import annotations

import json
import socket
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from dw_assets.cli import cli
from dw_assets.cli.airflow_cmds import parse_since
from tests.support.airflow_fakes import FakeAirflow, FakeAirflowServer

NOW = datetime.now(UTC)


@pytest.fixture(scope="module")
def server():
    with FakeAirflowServer() as running:
        yield running


def write_config(tmp_path: Path, instances: list[dict]) -> str:
    path = tmp_path / "dw.yaml"
    path.write_text(yaml.safe_dump({"airflow": {"instances": instances}}))
    return str(path)


def instance(name: str, url: str, auth: str = "jwt") -> dict:
    return {"name": name, "url": url, "retries": 0, "timeout_s": 5,
            "auth": {"type": auth, "username": "admin", "password": "${FAKE_AF_PASSWORD:-admin}"}}


def test_runs_json_has_runs_with_task_instances(server, tmp_path):
    fake, url = server.use(FakeAirflow(major=3))
    fake.add_run("gl_landing", "manual__2026-10-01T04:00:00+00:00", end=NOW - timedelta(minutes=5),
                 conf={"export_date": "2026-09-30"}, tasks={"wait_for_export": "success", "load": "success"})
    fake.add_run("orders_daily", "old", end=NOW - timedelta(days=3), tasks={"orders_clean": "success"})
    config = write_config(tmp_path, [instance("local", url)])
    result = CliRunner().invoke(cli, ["--config", config, "airflow", "runs", "--json", "--since", "1d"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    [report] = payload["instances"]
    assert (report["name"], report["api_version"], report["airflow_version"], report["error"]) == ("local", "v2", "3.3.2", None)
    [run] = report["runs"]
    assert run["dag_id"] == "gl_landing" and run["conf"] == {"export_date": "2026-09-30"} and run["state"] == "success"
    assert set(run) >= {"run_id", "logical_date", "run_after", "start_date", "end_date", "duration_s", "run_type",
                        "triggered_by", "url", "task_instances"}
    assert [t["task_id"] for t in run["task_instances"]] == ["wait_for_export", "load"]
    assert set(run["task_instances"][0]) == {"task_id", "state", "try_number", "start_date", "end_date", "duration",
                                             "operator", "map_index"}
    assert fake.requests[-2]["args"]["updated_at_gte"] == payload["since"]


def test_runs_table_filters_by_dag_and_instance(server, tmp_path):
    fake, url = server.use(FakeAirflow(major=2))
    fake.add_run("gl_landing", "manual__1", "failed", end=NOW, tasks={"load": "failed"})
    fake.add_run("orders_daily", "manual__2", end=NOW, tasks={"orders_clean": "success"})
    config = write_config(tmp_path, [instance("a2", url, auth="basic"), instance("other", "http://127.0.0.1:9")])
    result = CliRunner().invoke(cli, ["--config", config, "airflow", "runs", "--instance", "a2", "--dag", "gl_landing"])
    assert result.exit_code == 0, result.output
    assert "a2  Airflow 2.11.0 (/api/v1)  1 run(s)" in result.output
    assert "manual__1" in result.output and "load" in result.output and "orders_daily" not in result.output


def test_an_unreachable_instance_is_reported_and_exits_1(tmp_path):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    config = write_config(tmp_path, [instance("down", f"http://127.0.0.1:{port}")])
    result = CliRunner().invoke(cli, ["--config", config, "airflow", "runs", "--json"])
    assert result.exit_code == 1
    [report] = json.loads(result.stdout)["instances"]
    assert "cannot connect" in report["error"] and report["url"] == f"http://127.0.0.1:{port}"


def test_unknown_instance_and_bad_since_are_explained(tmp_path):
    config = write_config(tmp_path, [instance("local", "http://127.0.0.1:9")])
    unknown = CliRunner().invoke(cli, ["--config", config, "airflow", "runs", "--instance", "nope"])
    assert unknown.exit_code == 2 and "no Airflow instance named 'nope'" in unknown.output
    bad = CliRunner().invoke(cli, ["--config", config, "airflow", "runs", "--since", "yesterday"])
    assert bad.exit_code == 2 and "neither a duration" in bad.output


@pytest.mark.parametrize(("text", "expected"), [
    ("2h", NOW - timedelta(hours=2)), ("30m", NOW - timedelta(minutes=30)), ("7d", NOW - timedelta(days=7)),
    ("2026-09-30", datetime(2026, 9, 30, tzinfo=UTC)),
    ("2026-09-30T04:00:00-04:00", datetime(2026, 9, 30, 8, tzinfo=UTC)),
], ids=["hours", "minutes", "days", "date", "offset"])
def test_since_accepts_durations_and_iso_times(text, expected):
    assert parse_since(text, NOW) == expected
