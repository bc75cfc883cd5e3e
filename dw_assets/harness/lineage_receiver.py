"""`dw lineage serve` as a child process, for the demo and the tests: where Airflow's OpenLineage
provider and dbt-ol post their events (the harness's `openlineage_url`).

It runs the real CLI on a free loopback port with the given config (`DW_CONFIG`) and DW_HOME, so the
events land in that config's state store, where the OpenLineage sensor reads them. Ready when
`GET /api/v1/health` answers; `stop()` sends SIGTERM (uvicorn finishes the requests in flight and
the writer commits) and SIGKILL after a grace period. Log: `<log_path>`.
"""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
from pathlib import Path
from typing import Self

from dw_assets.harness.airflow import free_port
from dw_assets.harness.ready import LocalService, http_ok

_RUNNING: set[LineageReceiver] = set()


class LineageReceiver(LocalService):
    def __init__(self, config_path: Path, dw_home_dir: Path, log_path: Path, *, port: int | None = None,
                 extra_args: tuple[str, ...] = ()):
        self.config_path = Path(config_path).resolve()
        self.dw_home = Path(dw_home_dir).resolve()
        self.log_path = Path(log_path)
        self.port = port or free_port()
        self.extra_args = extra_args
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 120.0) -> Self:
        if self._proc and self._proc.poll() is None:
            return self
        dw = Path(sys.executable).parent / "dw"
        env = {**os.environ, "DW_CONFIG": str(self.config_path), "DW_HOME": str(self.dw_home)}
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log_path, "ab") as log:
            self._proc = subprocess.Popen(
                [str(dw), "lineage", "serve", "--host", "127.0.0.1", "--port", str(self.port), *self.extra_args],
                env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        _RUNNING.add(self)
        self._await_ready(self._proc, lambda: http_ok(f"{self.url}/api/v1/health"),
                          what=f"dw lineage serve on {self.url}", timeout=timeout, interval=0.5)
        return self

    def stop(self, grace: float = 20.0) -> None:
        _RUNNING.discard(self)
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@atexit.register
def _stop_all_running() -> None:
    for receiver in list(_RUNNING):
        receiver.stop(grace=5)
