"""The month-end story under a real `dagster-daemon` (not the demo's in-process driver), with Airflow
restarted with new secrets in the middle: split export, incident, plan, `dw approve`, the approvals
sensor launches the gated rerun, the owner triggers the draft, the rerun's run verifies (once, no
verify run), receipts intact. One Airflow 3 and one daemon; the run's figures are printed for the record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.airflow]
REPO_ROOT = Path(__file__).resolve().parents[2]


def test_month_end_under_the_daemon_survives_an_airflow_restart_with_new_secrets(tmp_path):
    env = {**os.environ}
    env.pop("DW_CONFIG", None)  # the bench writes and uses the home's own config
    log = tmp_path / "bench.stderr.log"
    with log.open("w") as err:
        proc = subprocess.run([sys.executable, str(REPO_ROOT / "benchmarks" / "daemon_bench.py"), "--json",
                               "--restart-airflow", "--home", str(tmp_path / "home")],
                              cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=err, text=True,
                              timeout=1800, check=False)
    tail = log.read_text()[-4000:]
    try:
        summary = json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        raise AssertionError(f"no JSON summary (exit {proc.returncode}); stderr tail:\n{tail}") from exc
    print(json.dumps({k: summary.get(k) for k in ("legs_s", "dagster_runs", "dagster_runs_by_job", "receipts",
                                                   "daemon_stop_s")}))
    assert summary["ok"], f"{summary.get('error')}\nstderr tail:\n{tail}"
    assert summary["restart_airflow"] and summary["verification_passed"]
    assert summary["incident_status"] == "resolved" and summary["receipts"]["intact"]
    actions = summary["actions"]
    for action in ("plan_proposed", "approval_requested", "approval_approved", "dispatch_authorized",
                   "rerun_drafted", "run_observed", "rerun_completed", "verification"):
        assert action in actions, f"{action} missing from {actions}"
    # verified inside the rerun's run: no verify run (a run worker's start) after Airflow finished
    assert "verify_remediation" not in summary["dagster_runs_by_job"], summary["dagster_runs_by_job"]
    assert actions.count("verification") == 1
    assert set(summary["legs_s"]) == {"green_run_end_to_plan_awaiting_approval", "approval_to_rerun_dispatched",
                                      "airflow_done_to_verified"}
