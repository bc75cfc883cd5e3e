"""Waiting for a started service: one readiness loop for the harness's processes (Airflow, the
lineage receiver, the Dagster webserver), each error ending with the end of the service's log."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Self

import httpx

from dw_assets.harness.logs import log_tail


def wait_ready(proc: subprocess.Popen[bytes] | None, ready: Callable[[], bool], *, what: str, log_path: Path,
               timeout: float, interval: float, last_seen: Callable[[], str] = lambda: "",
               tail_lines: int = 40) -> None:
    """Poll `ready()` every `interval` seconds until it answers True. RuntimeError when the process
    exits first, TimeoutError after `timeout` seconds (with `last_seen()`, what the probe saw last)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is None or proc.poll() is not None:
            code = None if proc is None else proc.returncode
            raise RuntimeError(f"{what} exited with {code} before it was ready; log {log_path}:\n"
                               f"{log_tail(log_path, tail_lines)}")
        if ready():
            return
        time.sleep(interval)
    seen = last_seen()
    raise TimeoutError(f"{what} not ready after {timeout:.0f}s" + (f" ({seen})" if seen else "")
                       + f"; log {log_path}:\n{log_tail(log_path, tail_lines)}")


def http_ok(url: str, *, timeout: float = 5.0) -> bool:
    """True when GET `url` answers 200; False while the service is not listening or answers otherwise."""
    try:
        return httpx.get(url, timeout=timeout).status_code == 200
    except httpx.HTTPError:
        return False


class LocalService:
    """What the harness's processes share: a loopback port, a log, `with` for start and stop, and
    the start's readiness wait (which stops the process when it never gets ready)."""

    port: int
    log_path: Path
    log_lines = 40  # how much of the log an error shows

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self, timeout: float = 120.0) -> Self:
        raise NotImplementedError

    def stop(self, grace: float = 10.0) -> None:
        raise NotImplementedError

    def log_tail(self, lines: int | None = None) -> str:
        return log_tail(self.log_path, lines or self.log_lines)

    def _await_ready(self, proc: subprocess.Popen[bytes] | None, ready: Callable[[], bool], *, what: str,
                     timeout: float, interval: float, last_seen: Callable[[], str] = lambda: "") -> None:
        try:
            wait_ready(proc, ready, what=what, log_path=self.log_path, timeout=timeout, interval=interval,
                       last_seen=last_seen, tail_lines=self.log_lines)
        except BaseException:
            self.stop()
            raise


_LOCATIONS_QUERY = "{workspaceOrError{... on Workspace{locationEntries{name loadStatus}}}}"


def dagster_locations_loaded(url: str, *, timeout: float = 10.0) -> bool:
    """True once a Dagster webserver at `url` lists code locations and every one is LOADED (the
    webserver answers before its code server has loaded the definitions)."""
    try:
        body = httpx.post(f"{url}/graphql", json={"query": _LOCATIONS_QUERY}, timeout=timeout).json()
    except (httpx.HTTPError, ValueError):
        return False
    entries = (body.get("data") or {}).get("workspaceOrError", {}).get("locationEntries") or []
    return bool(entries) and all(e["loadStatus"] == "LOADED" for e in entries)
