"""Dagster as a deployment runs it, for the tests that start real processes (the daemon alone, or
code server + daemon + webserver): start one in its own process group with its log in a file, stop
it (TERM, then KILL), and wait until a failed run has become an incident whose partition of the
`incident` asset the daemon materialized."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import dagster as dg
import sqlalchemy as sa

from dw_assets.incidents import IncidentStore
from dw_assets.store import Store


def free_port() -> int:
    """A loopback port nothing listens on once the probe socket is closed."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(cmd: list[str], *, cwd: Path, env: Mapping[str, str], log: Path) -> subprocess.Popen:
    with log.open("wb") as out:
        return subprocess.Popen(cmd, cwd=cwd, env=dict(env), stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


def wait_for_materialized_incident(store: Store, dagster_home: Path, dataset_id: str, *, deadline_s: float,
                                   alive: Callable[[], bool],
                                   state_ready: Callable[[], bool] = lambda: True) -> tuple[Any, Any]:
    """(the incident on `dataset_id`, the materialization of its `incident` partition), polled every
    3 s until both exist, the deadline passes or a process died; either may be None."""
    incident, materialization = None, None
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline and alive():
        time.sleep(3)
        if incident is None and state_ready():
            try:
                found = IncidentStore(store).list(dataset_id=dataset_id)
            except sa.exc.SQLAlchemyError:  # the code location may be creating the tables right now
                found = []
            incident = found[0] if found else None
        if incident is not None:
            with dg.DagsterInstance.from_config(str(dagster_home)) as instance:
                event = instance.get_latest_materialization_event(dg.AssetKey(["incident"]))
            if event is not None and event.dagster_event.partition == incident.id:
                materialization = event
                break
    return incident, materialization
