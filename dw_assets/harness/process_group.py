"""A service's whole process tree run in a process group of its own and stopped as one, as `dw ui`
runs `dagster dev`: a stop signal (SIGINT, SIGTERM, SIGHUP) goes to every process of the tree at
once, and nothing of the tree outlives the command (SIGKILL after a grace period).

Why not exec `dagster dev` and let it stop its own children: sent SIGTERM alone (`kill PID`, a
service manager), `dagster dev` stops its webserver and daemon first, waits for both, and only then
asks its code server to stop, which then stops its own `dagster api grpc` child: each process's
shutdown waits for the one before, and on a busy machine every step is stretched by the run queue
(32 s until `dagster dev` exited and 41 s until its last process was gone at load 56; the code
server outlived `dagster dev` by 6-9 s, and a code server with a run in flight waits for that run
before it stops). Signalled together, they stop side by side.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import FrameType
from typing import TextIO

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# `dagster dev` gives its webserver and daemon 60 s each before it kills them; a sensor tick in
# flight keeps within 40 s. Past this, whatever of the tree still runs is killed.
STOP_GRACE_S = 60.0


def group_alive(pgid: int) -> list[int]:
    """The live processes of process group `pgid` (zombies, which a container's init may never reap,
    do not count). Read from /proc on Linux; elsewhere the group itself is probed."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return []
    proc = Path("/proc")
    if not proc.is_dir():
        return [pgid]
    alive = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) ": state, ppid, pgrp, ...
        if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            alive.append(int(entry.name))
    return alive


def end_group(pgid: int, grace_s: float) -> list[int]:
    """SIGTERM to every live process of the group, SIGKILL to those still alive after `grace_s`;
    returns the killed ones."""
    _signal_group(pgid, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        if not group_alive(pgid):
            return []
        time.sleep(0.5)
    left = group_alive(pgid)
    _signal_group(pgid, signal.SIGKILL)
    return left


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        pass


def run_as_group(cmd: Sequence[str], *, cwd: Path, env: Mapping[str, str], what: str,
                 grace_s: float = STOP_GRACE_S, stream: TextIO = sys.stderr) -> int:
    """Run `cmd` in a new process group until it exits; on SIGINT, SIGTERM or SIGHUP every process
    of the group gets SIGTERM at once, and after `grace_s` what still runs gets SIGKILL. Whatever
    the command left running when it exited (on its own or on a signal) is stopped the same way.
    Returns the command's exit code (128 + signal when a signal ended it)."""
    stop_at: list[float] = []
    started: list[subprocess.Popen[bytes]] = []

    def forward(signum: int, _frame: FrameType | None) -> None:
        if not stop_at:
            stop_at.append(time.monotonic())
            print(f"stopping {what} (its processes, together) ...", file=stream, flush=True)
        if started:
            _signal_group(started[0].pid, signal.SIGTERM)  # Dagster's processes treat SIGTERM as Ctrl-C

    # The handlers go in before the command starts: a disposition this process inherited as
    # "ignore" (a launcher that ignores SIGTERM or SIGHUP) would pass to the command through exec,
    # and its processes would then never stop on the forwarded signal; a Python handler is reset to
    # the default in the child instead.
    previous = {sig: signal.signal(sig, forward) for sig in STOP_SIGNALS}
    try:
        proc = subprocess.Popen(list(cmd), cwd=cwd, env=dict(env), process_group=0)
        started.append(proc)
        if stop_at:  # a stop signal came while it started
            _signal_group(proc.pid, signal.SIGTERM)
        while True:
            try:
                proc.wait(timeout=0.5)
                break
            except subprocess.TimeoutExpired:
                if stop_at and time.monotonic() - stop_at[0] > grace_s:
                    break
        left_for = grace_s - (time.monotonic() - stop_at[0]) if stop_at else grace_s
        killed = end_group(proc.pid, max(left_for, 1.0))
        if proc.poll() is None:
            proc.wait(10)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if killed:
        print(f"{what}: killed {len(killed)} process(es) still running {grace_s:.0f} s after the stop "
              f"(pids {', '.join(map(str, killed))})", file=stream, flush=True)
    if stop_at:
        print(f"{what} stopped in {time.monotonic() - stop_at[0]:.1f} s", file=stream, flush=True)
    code = proc.returncode
    return 128 - code if code < 0 else code
