"""Start the Dagster webserver on a Dagster instance home, for `dw ui` and the UI tests.

Loopback only, its own process group, readiness by polling `/server_info`, and a stop that kills
the whole group (SIGKILL after a grace period) so no webserver outlives the caller.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Self

import yaml

from dw_assets.config import REPO_ROOT
from dw_assets.harness.airflow import free_port
from dw_assets.harness.ready import LocalService, http_ok

# Loading this code location (dbt manifest, checks, sensors) takes tens of seconds on a quiet 2-core
# machine and several times that under load; Dagster's default local code-server startup timeout
# (180 s) was seen to run out. Five minutes fits a slow machine and still ends a hung load.
CODE_SERVER_STARTUP_TIMEOUT_S = 300
# A run launch waits for its worker to start and load the code location (tens of seconds under
# load). Through Dagster's run queue, an approved rerun waited for the queue's previous round of
# launches (21-107 s on the bench) before its own; launched by the sensor that requested it, it waits
# for its own only. Each sensor ticks in a thread of its own, so one sensor's launches hold no other.
RUN_COORDINATOR = {"module": "dagster.core.run_coordinator", "class": "DefaultRunCoordinator"}
SENSORS = {"use_threads": True, "num_workers": 8}
# Every call from the daemon or the webserver to the code server (a sensor tick, a run launch) gives
# up after 60 s by default. At load 50-60 a run launch took longer (the code server starting the run's
# process) and the approved rerun's run failed before it started; five minutes fits a slow machine.
GRPC_TIMEOUT_S = 300


def dagster_env(base: Mapping[str, str], dagster_home: Path) -> dict[str, str]:
    """The environment of a Dagster process we start (daemon, webserver, `dagster dev`): its
    DAGSTER_HOME, and a code-server call timeout that fits a slow machine unless the caller set one."""
    env = {**base, "DAGSTER_HOME": str(dagster_home)}
    env.setdefault("DAGSTER_GRPC_TIMEOUT_SECONDS", str(GRPC_TIMEOUT_S))
    return env


def ensure_instance_yaml(dagster_home: Path) -> Path:
    """`dagster.yaml` for a local instance: telemetry off, a code-server startup timeout that fits a
    slow machine, sensors in threads and runs launched as they are requested (no queue). An existing
    file is kept; only missing sections are added (none of the run coordinator's if it configures a
    run queue)."""
    dagster_home.mkdir(parents=True, exist_ok=True)
    path = dagster_home / "dagster.yaml"
    current = (yaml.safe_load(path.read_text()) if path.exists() else None) or {}
    if not isinstance(current, dict):
        return path  # not ours to rewrite; Dagster will say what is wrong with it
    changed = dict(current)
    changed.setdefault("telemetry", {"enabled": False})
    changed.setdefault("code_servers", {"local_startup_timeout": CODE_SERVER_STARTUP_TIMEOUT_S})
    changed.setdefault("sensors", SENSORS)
    if "run_queue" not in changed:
        changed.setdefault("run_coordinator", RUN_COORDINATOR)
    if changed != current or not path.exists():
        path.write_text(yaml.safe_dump(changed, sort_keys=False))
    return path


class DagsterWebserver(LocalService):
    def __init__(self, dagster_home: Path, *, port: int | None = None, env: dict[str, str] | None = None,
                 workspace: Path = REPO_ROOT / "workspace.yaml"):
        self.dagster_home = Path(dagster_home)
        self.port = port or free_port()
        self.workspace = workspace
        self.extra_env = env or {}
        self.log_path = self.dagster_home / "webserver.log"
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 180.0) -> Self:
        ensure_instance_yaml(self.dagster_home)
        env = dagster_env({**os.environ, **self.extra_env}, self.dagster_home)
        binary = Path(sys.executable).parent / "dagster-webserver"
        with open(self.log_path, "ab") as log:  # the child keeps its own descriptor
            self._proc = subprocess.Popen(
                [str(binary), "-w", str(self.workspace), "-h", "127.0.0.1", "-p", str(self.port)],
                cwd=str(REPO_ROOT), env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )
        self._await_ready(self._proc, lambda: http_ok(f"{self.url}/server_info", timeout=2),
                          what=f"dagster-webserver on {self.url}", timeout=timeout, interval=1)
        return self

    def stop(self, grace: float = 10.0) -> None:
        if not self._proc or self._proc.poll() is not None:
            return
        pgid = os.getpgid(self._proc.pid)
        os.killpg(pgid, signal.SIGTERM)
        try:
            self._proc.wait(grace)
        except subprocess.TimeoutExpired:
            os.killpg(pgid, signal.SIGKILL)
            self._proc.wait(5)
