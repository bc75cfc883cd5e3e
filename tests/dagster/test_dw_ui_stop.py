"""`dw ui` stops on SIGTERM as a service manager or `kill PID` stops it: sent to the `dw ui` process
alone, once the code location is loaded (the estate's dbt models parsed in the user's own estate
repo, not in this checkout) and the daemon is ticking sensors, it ends within a generous bound and
leaves no process behind (webserver, daemon, code server and its `dagster api grpc` child, any run
worker). Before, `dagster dev` was exec'd: signalled alone it stopped its children one after another
and its code server outlived it."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dw_assets.harness.process_group import STOP_GRACE_S
from dw_assets.harness.ready import dagster_locations_loaded
from tests.support.dagster_processes import free_port
from tests.support.processes import pids_with_env

pytestmark = [pytest.mark.dbt, pytest.mark.e2e]
REPO = Path(__file__).resolve().parents[2]
READY_S = 900  # dbt parse and the code location's load, at load 50 on 2 cores
STOP_BOUND_S = STOP_GRACE_S + 60  # the grace before SIGKILL, and `dw ui`'s own exit on a busy machine



def _kill_all(marker: bytes) -> None:
    for pid in pids_with_env(marker):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_dw_ui_stops_on_sigterm_within_a_bound_and_leaves_no_process_behind(tmp_path: Path) -> None:
    repo = tmp_path / "estate-repo"  # the user's estate repo: dbt parses there, never in this checkout
    shutil.copytree(REPO / "dbt_project", repo / "dbt_project", ignore=shutil.ignore_patterns("target", "logs"))
    port = free_port()
    marker = f"DW_UI_STOP_TEST={tmp_path}"  # every process `dw ui` starts inherits it
    env = {**os.environ, "DW_HOME": str(tmp_path / "home"), "DW_ESTATE_REPO": str(repo),
           "DW_AIRFLOW_URL": f"http://127.0.0.1:{free_port()}",  # nothing listens: the Airflow sensor skips
           "DW_UI_STOP_TEST": str(tmp_path)}
    log = tmp_path / "dw-ui.log"
    url = f"http://127.0.0.1:{port}"
    with log.open("wb") as out:
        proc = subprocess.Popen([str(Path(sys.executable).parent / "dw"), "ui", "--port", str(port)], cwd=REPO,
                                env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + READY_S
        while not (dagster_locations_loaded(url) and b"Checking for new runs" in log.read_bytes()):
            assert proc.poll() is None, f"dw ui exited {proc.returncode}:\n{log.read_text(errors='replace')[-4000:]}"
            assert time.monotonic() < deadline, f"not loaded in {READY_S}s:\n{log.read_text(errors='replace')[-4000:]}"
            time.sleep(3)
        started = pids_with_env(marker.encode())
        assert len(started) >= 5, started  # dw ui, dagster dev, webserver, daemon, code server (+ its grpc child)

        proc.send_signal(signal.SIGTERM)  # to `dw ui` alone
        try:
            code = proc.wait(STOP_BOUND_S)
        except subprocess.TimeoutExpired:
            pytest.fail(f"dw ui did not stop within {STOP_BOUND_S:.0f}s of SIGTERM:\n"
                        f"{log.read_text(errors='replace')[-4000:]}")
        left = pids_with_env(marker.encode())
        text = log.read_text(errors="replace")
        assert left == [], f"processes left behind: {left}\n{text[-4000:]}"
        # it stopped its processes (a line says in how long, and whether any had to be killed)
        assert "dagster dev stopped in" in text, f"exit {code}:\n{text[-4000:]}"
        print(text[text.index("stopping dagster dev"):][-600:])
    finally:
        _kill_all(marker.encode())
