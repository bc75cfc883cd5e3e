"""`dw airflow runs --json` against a real Airflow 3 and 2: the estate's DAG runs with their task
instances, through the config file a user would write (auth and URL from the environment)."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner

from dw_assets.cli import cli

pytestmark = pytest.mark.airflow


def _config(tmp_path, harness) -> str:
    path = tmp_path / "dw.yaml"
    path.write_text(f"""
airflow:
  instances:
    - name: local
      url: ${{TEST_AIRFLOW_URL}}
      auth:
        type: {'jwt' if harness.major == 3 else 'basic'}
        username: admin
        password: ${{TEST_AIRFLOW_PASSWORD}}
      read_only: true
""")
    return str(path)


def test_runs_lists_dag_runs_with_task_instances(airflow, tmp_path, monkeypatch):
    monkeypatch.setenv("TEST_AIRFLOW_URL", airflow.url)
    monkeypatch.setenv("TEST_AIRFLOW_PASSWORD", airflow.password)
    with airflow.http() as http:  # make sure at least one finished run exists
        body = {"conf": {"export_date": "2026-08-31"}, **({"logical_date": None} if airflow.major == 3 else {})}
        run_id = http.post(f"{airflow.api_prefix}/dags/gl_landing/dagRuns", json=body).json()["dag_run_id"]
        deadline = time.monotonic() + 300
        while http.get(f"{airflow.api_prefix}/dags/gl_landing/dagRuns/{run_id}").json()["state"] not in (
                "success", "failed") and time.monotonic() < deadline:
            time.sleep(2)
    result = CliRunner().invoke(cli, ["--config", _config(tmp_path, airflow), "airflow", "runs", "--dag",
                                      "gl_landing", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    (instance,) = payload["instances"]
    assert instance["error"] is None and instance["api_version"] == ("v2" if airflow.major == 3 else "v1")
    runs = instance["runs"]
    mine = next(r for r in runs if r["run_id"] == run_id)
    assert mine["dag_id"] == "gl_landing" and mine["conf"] == {"export_date": "2026-08-31"}
    assert {t["task_id"] for t in mine["task_instances"]} == {"wait_for_export", "load"}
