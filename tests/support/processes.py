"""Finding and signalling the processes a test started, by what their environment names (the load
tests freeze an Airflow by its AIRFLOW_HOME and sweep everything started under their tmp folder)."""

from __future__ import annotations

import os
import signal
from pathlib import Path


def pids_with_env(needle: bytes) -> list[int]:
    """Processes whose environment mentions `needle` (a variable's `NAME=value`, or a tmp folder)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if needle in (entry / "environ").read_bytes():
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


def airflow_pids(airflow_home: Path) -> list[int]:
    """Processes whose AIRFLOW_HOME is `airflow_home` (its API server, scheduler, task runners...)."""
    wanted, pids = f"AIRFLOW_HOME={airflow_home}".encode(), []
    for pid in pids_with_env(wanted):
        try:
            if wanted in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0"):
                pids.append(pid)
        except OSError:
            continue
    return pids


def signal_pids(pids: list[int], sig: signal.Signals) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass
