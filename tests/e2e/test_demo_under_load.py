"""The demo on a busy machine: CPU-bound processes on every core, and every process of the demo's
Airflow frozen (SIGSTOP) for longer than a request's old 30 s timeout, several times, while the
month-end night plays. Before the harness retried, a freeze during any of the estate's polls ended
the demo with `ReadTimeout: timed out`; now each call waits and retries under a deadline.
Bounded: 4 burners, at most 3 freezes of 45 s, one Airflow."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.support.processes import airflow_pids, signal_pids

pytestmark = [pytest.mark.e2e, pytest.mark.airflow, pytest.mark.load]
REPO_ROOT = Path(__file__).resolve().parents[2]
FREEZE_S, FREEZES, BURNERS = 45.0, 3, 4


def _freezer(airflow_home: Path, stop: threading.Event, done: list[float]) -> None:
    """Once the night is under way, freeze the whole Airflow for FREEZE_S, up to FREEZES times."""
    while not stop.wait(40.0) and len(done) < FREEZES:
        pids = airflow_pids(airflow_home)
        if len(pids) < 3:  # not started yet (or already stopped)
            continue
        signal_pids(pids, signal.SIGSTOP)
        stop.wait(FREEZE_S)
        signal_pids(airflow_pids(airflow_home), signal.SIGCONT)
        done.append(time.monotonic())
    signal_pids(airflow_pids(airflow_home), signal.SIGCONT)  # never leave it frozen


def test_the_demo_passes_beside_cpu_burners_and_through_airflow_freezes(tmp_path):
    home = tmp_path / "home"
    env = {**os.environ, "DW_HOME": str(home)}
    env.pop("DW_CONFIG", None)
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(BURNERS)]
    stop, freezes = threading.Event(), []
    freezer = threading.Thread(target=_freezer, args=(home / "airflow" / "airflow", stop, freezes), daemon=True)
    log = tmp_path / "demo.stderr.log"
    try:
        freezer.start()
        with log.open("w") as err:
            proc = subprocess.run([str(Path(sys.executable).parent / "dw"), "demo", "--night", "month-end",
                                   "--approve-as", "maria.chen", "--json"], cwd=REPO_ROOT, env=env,
                                  stdout=subprocess.PIPE, stderr=err, text=True, timeout=2400, check=False)
    finally:
        stop.set()
        freezer.join(FREEZE_S + 10)
        for burner in burners:
            burner.kill()
            burner.wait()
    tail = log.read_text()[-4000:]
    summary = json.loads(proc.stdout) if proc.stdout.strip().startswith("{") else {}
    assert freezes, f"Airflow was never frozen: the condition was not reproduced; stderr tail:\n{tail}"
    assert summary.get("ok"), f"demo failed under load after {len(freezes)} freeze(s): " \
                              f"{summary.get('error')}\nstderr tail:\n{tail}"
    [night] = summary["nights"]
    assert night["status"] == "verified" and night["incident"]["status"] == "resolved"
