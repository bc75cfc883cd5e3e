"""The Done-when of the OpenLineage issue, as a user runs it: `dw lineage serve` is up, a real
`dbt-ol build` of the demo dbt project posts its events over HTTP, and `dw lineage events --json`
lists them from the store."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from dw_assets.connectors.dbt import run_dbt
from dw_assets.demo.estate import build_estate

pytestmark = [pytest.mark.openlineage, pytest.mark.dbt]
REPO = Path(__file__).resolve().parents[2]
DW = str(Path(sys.executable).parent / "dw")


def _port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def receiver(dw_home: Path):
    port = _port()
    env = {**os.environ, "DW_HOME": str(dw_home)}
    env.pop("DW_CONFIG", None)
    proc = subprocess.Popen([DW, "lineage", "serve", "--port", str(port)], env=env, cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/v1/health", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.5)
    else:
        proc.kill()
        raise AssertionError(f"dw lineage serve did not come up: {proc.stdout.read().decode()[-2000:]}")
    yield url
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(30)


def test_dbt_ol_build_of_the_demo_project_lands_in_the_store(dw_home: Path, receiver: str, tmp_path: Path):
    build_estate(dw_home)
    proc = run_dbt(["build"], REPO / "dbt_project", REPO / "dbt_project", use_openlineage=True, cwd=tmp_path,
                   env={"DW_HOME": str(dw_home), "OPENLINEAGE_URL": receiver, "OPENLINEAGE_CONFIG": "",
                        "DBT_TARGET_PATH": str(tmp_path / "target"), "DBT_LOG_PATH": str(tmp_path / "logs")})
    assert proc.returncode == 0, proc.stdout[-3000:]
    out = subprocess.run([DW, "lineage", "events", "--limit", "1000", "--json"], cwd=REPO, capture_output=True,
                         text=True, timeout=120, check=False, env={**os.environ, "DW_HOME": str(dw_home)})
    assert out.returncode == 0, out.stderr
    events = json.loads(out.stdout)
    jobs = {e["job_name"] for e in events}
    assert {"model.dw_demo.fct_trial_balance", "model.dw_demo.fct_revenue"} <= jobs, sorted(jobs)[:20]
    assert {e["event_type"] for e in events} >= {"START", "COMPLETE"}
    outputs = {o for e in events for o in e["outputs"]}
    assert {"analytics.fct_trial_balance", "analytics.fct_revenue"} <= outputs
    rejected = subprocess.run([DW, "lineage", "rejected", "--json"], cwd=REPO, capture_output=True, text=True,
                              timeout=120, check=False, env={**os.environ, "DW_HOME": str(dw_home)})
    assert json.loads(rejected.stdout) == [], rejected.stdout[:2000]
