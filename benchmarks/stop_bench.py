"""How long `dw ui` (`dagster dev`: webserver, daemon, code server and any run worker) and
`dw lineage serve` (and `dagster dev` run directly, as the README's other way, and `dagster-daemon run`
alone, as a deployment and the daemon night run it) take to stop on SIGTERM (a script, not a test). Each is started on a demo home
(`make demo` leaves one at .dw_home; give another with --home), waited for until it serves (for
`dw ui`: the code location loaded and the daemon ticking for --settle seconds), then sent SIGTERM,
either to its first process only (`kill PID`, as a service manager or a shell does) or to its whole
process group (Ctrl-C in a terminal). Reported: when the first process exited and when the last
process it started was gone (found by a marker in their environment, so nothing escapes by
changing its session), and the load average.

    .venv/bin/python benchmarks/stop_bench.py [--home DIR] [--rounds N] [--target leader|group] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from dw_assets.config import REPO_ROOT, dw_home
from dw_assets.harness.airflow import free_port
from dw_assets.harness.dagster_ui import dagster_env
from dw_assets.harness.ready import dagster_locations_loaded, http_ok, wait_ready

MARKER = "DW_STOP_BENCH"


def pids_marked(token: str) -> list[int]:
    needle = f"{MARKER}={token}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if needle in (entry / "environ").read_bytes().split(b"\0"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _name(pid: int) -> str:
    """A short name for a process: the Dagster or dw subcommand it runs."""
    try:
        argv = (Path(f"/proc/{pid}") / "cmdline").read_bytes().split(b"\0")
    except OSError:
        return "?"
    words = [a.decode(errors="replace").rsplit("/", 1)[-1] for a in argv if a and not a.startswith(b"-")]
    return " ".join(w for w in words[:4] if len(w) < 40)


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds of `pid` so far, 0.0 once it is gone."""
    try:
        stat = (Path(f"/proc/{pid}") / "stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")



def measure(kind: str, home: Path, target: str, settle_s: float, out: Path) -> dict[str, Any]:
    token = uuid.uuid4().hex
    port = free_port()
    env = {**os.environ, MARKER: token, "DW_HOME": str(home)}
    dw = str(Path(sys.executable).parent / "dw")
    log = out / f"{kind}-{token[:8]}.log"
    cmd = {"ui": [dw, "ui", "--port", str(port)], "lineage": [dw, "lineage", "serve", "--port", str(port)],
           "daemon": [str(Path(sys.executable).parent / "dagster-daemon"), "run", "-w", "workspace.yaml"],
           "dev": [str(Path(sys.executable).parent / "dagster"), "dev", "-w", "workspace.yaml", "-h", "127.0.0.1",
                   "-p", str(port)]}[kind]
    if kind in ("daemon", "dev"):  # as a deployment runs it (and the daemon night): its own instance and code server
        env.update(dagster_env(env, home / "dagster"))
    with log.open("wb") as handle:
        proc = subprocess.Popen(cmd, cwd=REPO_ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT,
                                start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    ready = {"ui": lambda: dagster_locations_loaded(url), "dev": lambda: dagster_locations_loaded(url), "lineage": lambda: http_ok(f"{url}/api/v1/health"),
             "daemon": lambda: b"Checking for new runs" in log.read_bytes()}[kind]
    started = time.monotonic()
    wait_ready(proc, ready, what=f"{kind} on {url}", log_path=log, timeout=900, interval=2)
    ready_s = time.monotonic() - started
    time.sleep(settle_s)  # sensors tick, runs may start: stop it while it works
    before = {pid: _name(pid) for pid in pids_marked(token)}
    cpu_at_stop = {pid: _cpu_s(pid) for pid in before}
    cpu_last = dict(cpu_at_stop)
    gone: dict[str, float] = {}
    load = os.getloadavg()
    sent = time.monotonic()
    if target == "group":
        os.killpg(proc.pid, signal.SIGTERM)
    else:
        proc.send_signal(signal.SIGTERM)
    leader_s = all_s = None
    deadline = sent + 180
    while time.monotonic() < deadline:
        alive = set(pids_marked(token))
        for pid in alive & before.keys():
            cpu_last[pid] = _cpu_s(pid) or cpu_last[pid]
        for pid, name in before.items():
            if pid not in alive and f"{name} {pid}" not in gone:
                gone[f"{name} {pid}"] = round(time.monotonic() - sent, 1)
        if leader_s is None and proc.poll() is not None:
            leader_s = time.monotonic() - sent
        if leader_s is not None and not alive:
            all_s = time.monotonic() - sent
            break
        time.sleep(0.2)
    left = pids_marked(token)
    for pid in left:  # never leave one behind, even when the bench fails
        os.kill(pid, signal.SIGKILL)
    return {"kind": kind, "target": target, "ready_s": round(ready_s, 1), "processes": len(before),
            "leader_exit_s": None if leader_s is None else round(leader_s, 1),
            "all_gone_s": None if all_s is None else round(all_s, 1), "left_killed": len(left), "each_gone_s": gone,
            # CPU seconds each spent after the signal (last sample before it exited): a stop that is
            # CPU stretched by the run queue, or one that waits
            "cpu_after_stop_s": {f"{before[p]} {p}": round(cpu_last[p] - cpu_at_stop[p], 2) for p in before},
            "load_avg": [round(x, 1) for x in load], "exit_code": proc.poll(), "log": str(log)}



def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, default=None, help="a demo home (default: DW_HOME or .dw_home)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--target", choices=["leader", "group"], default="leader")
    parser.add_argument("--settle", type=float, default=45.0, help="seconds the UI runs before SIGTERM")
    parser.add_argument("--only", choices=["ui", "dev", "daemon", "lineage"], default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    home = (args.home or dw_home()).resolve()
    out = home / "stop-bench"
    out.mkdir(parents=True, exist_ok=True)
    results = []
    for _ in range(args.rounds):
        for kind in [args.only] if args.only else ["ui", "daemon", "lineage"]:
            results.append(measure(kind, home, args.target, 2.0 if kind == "lineage" else args.settle, out))
            print(json.dumps(results[-1]) if args.json else results[-1], flush=True)
    return 0 if all(r["all_gone_s"] is not None for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
