"""The demo and the daemon night on a busy shared machine, the condition under which `dw demo` once
failed 7 times in 8 (load 15-25): beside them run two more Airflows (an Airflow 3 and an Airflow 2,
each running a DAG of its own every minute), a `dagster-daemon` of another team launching a run every
20 s, and CPU-bound processes; and every process of the demo's Airflow is frozen (SIGSTOP) for longer
than a request's old 30 s timeout, twice, while its month-end night plays. The demo (`dw demo`, the
in-process driver) and the daemon night (`benchmarks/daemon_bench.py --restart-airflow`: a real
`dagster-daemon`, Airflow restarted with new secrets) play at the same time, each one more load for
the other, and both must end verified with intact receipts.

Bounded: 2 burners, 2 freezes of 45 s, 4 Airflows at most; every process this module starts carries
its tmp folder in its environment and is ended at teardown, pass or fail (no orphan Airflow).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import dagster as dg
import pytest

from dw_assets.harness.airflow import AirflowHarness
from dw_assets.harness.dagster_ui import ensure_instance_yaml
from tests.support.dagster_processes import stop as stop_process
from tests.support.processes import airflow_pids, pids_with_env, signal_pids

pytestmark = [pytest.mark.e2e, pytest.mark.airflow, pytest.mark.load, pytest.mark.neighbours]
REPO_ROOT = Path(__file__).resolve().parents[2]
LOAD_ESTATE = Path(__file__).resolve().parent / "load_estate"
FREEZE_S, FREEZES, BURNERS = 45.0, 2, 2
STORY_TIMEOUT_S = 2700.0  # both stories at once at load 20+; each normally takes 4-10 min


def _rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except (OSError, ValueError):
            continue
    return total / 1024


def _sweep(root: Path) -> list[int]:
    """End every process started under `root` (its environment names it): SIGTERM, then SIGKILL."""
    needle = str(root).encode()
    left = pids_with_env(needle)
    signal_pids(left, signal.SIGCONT)  # a frozen process cannot act on SIGTERM
    signal_pids(left, signal.SIGTERM)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and pids_with_env(needle):
        time.sleep(0.5)
    stragglers = pids_with_env(needle)
    signal_pids(stragglers, signal.SIGKILL)
    return left


class Neighbours:
    """The other work on the machine: two Airflows running `busy_loop`, a daemon running `busy_job`."""

    def __init__(self, root: Path):
        self.root = root
        self.airflows: list[AirflowHarness] = []
        self.daemon: subprocess.Popen[bytes] | None = None
        self.dagster_home = root / "busy-dagster"

    def start(self) -> None:
        env = {"DW_LOAD_TEST_ROOT": str(self.root)}  # so _sweep finds every process they start
        for major in (3, 2):
            home = self.root / f"busy-airflow{major}"
            dags = home / "dags"
            dags.mkdir(parents=True)
            (dags / "busy_loop.py").write_text((LOAD_ESTATE / "busy_loop.py").read_text())
            self.airflows.append(AirflowHarness(major, home, dags_folder=dags, extra_env=env,
                                                dw_home_dir=home / "dw_home"))
        # both start at once (each waits until healthy), as another team's would: half the wall time
        with ThreadPoolExecutor(len(self.airflows)) as pool:
            for started in [pool.submit(harness.start) for harness in self.airflows]:
                started.result()
        ensure_instance_yaml(self.dagster_home)
        with dg.DagsterInstance.from_config(str(self.dagster_home)):
            pass  # its SQLite storages are created here, before the daemon and our probes open them at once
        workspace = self.root / "busy-workspace.yaml"
        workspace.write_text(f"load_from:\n  - python_file:\n      relative_path: {LOAD_ESTATE / 'busy_location.py'}\n"
                             "      location_name: busy_neighbour\n")
        with (self.root / "busy-daemon.log").open("wb") as out:
            self.daemon = subprocess.Popen(
                [str(Path(sys.executable).parent / "dagster-daemon"), "run", "-w", str(workspace)],
                cwd=self.root, env={**os.environ, **env, "DAGSTER_HOME": str(self.dagster_home)},
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)

    def wait_busy(self, timeout: float = 600.0) -> None:
        """Readiness: each Airflow is running or has run `busy_loop` and the daemon has launched a run."""
        deadline = time.monotonic() + timeout
        pending = {f"airflow {h.major}" for h in self.airflows} | {"daemon"}
        while pending and time.monotonic() < deadline:
            for harness in self.airflows:
                if f"airflow {harness.major}" in pending and self._loop_ran(harness):
                    pending.discard(f"airflow {harness.major}")
            if "daemon" in pending and self._daemon_runs():
                pending.discard("daemon")
            if self.daemon is not None and self.daemon.poll() is not None:
                raise RuntimeError(f"the neighbour dagster-daemon exited {self.daemon.returncode}:\n"
                                   f"{(self.root / 'busy-daemon.log').read_text(errors='replace')[-3000:]}")
            time.sleep(5)
        if pending:
            raise TimeoutError(f"the load did not start within {timeout:.0f}s: {sorted(pending)} not busy yet")

    @staticmethod
    def _loop_ran(harness: AirflowHarness) -> bool:
        with harness.http() as client:
            resp = client.get(f"{harness.api_prefix}/dags/busy_loop/dagRuns", params={"limit": 5})
        return resp.status_code == 200 and any(r.get("state") in ("running", "success")
                                               for r in resp.json().get("dag_runs", []))

    def _daemon_runs(self) -> int:
        with dg.DagsterInstance.from_config(str(self.dagster_home)) as instance:
            return len(instance.get_run_records())

    def figures(self) -> dict[str, Any]:
        runs: dict[str, Any] = {}
        for harness in self.airflows:
            try:
                with harness.http() as client:
                    resp = client.get(f"{harness.api_prefix}/dags/busy_loop/dagRuns", params={"limit": 100})
                runs[f"airflow{harness.major}_busy_loop_runs"] = resp.json().get("total_entries")
            except Exception as exc:  # noqa: BLE001 - figures for the record, never the verdict
                runs[f"airflow{harness.major}_busy_loop_runs"] = f"unknown ({type(exc).__name__})"
        runs["neighbour_daemon_runs"] = self._daemon_runs()
        return runs

    def stop(self) -> None:
        if self.daemon is not None:
            stop_process(self.daemon)
        for harness in self.airflows:
            harness.stop()


@pytest.fixture
def neighbours(tmp_path: Path) -> Iterator[Neighbours]:
    busy = Neighbours(tmp_path)
    try:
        busy.start()
        busy.wait_busy()
        yield busy
    finally:
        busy.stop()
        _sweep(tmp_path)


def _freezer(airflow_home: Path, demo_log: Path, stop: threading.Event, done: list[float]) -> None:
    """Once the demo's Airflow is up (its timeline says so) and the night under way, freeze the whole
    Airflow for FREEZE_S, up to FREEZES times, 40 s apart. Never during its start: that is the start
    deadline's test, not the night's."""
    while not stop.wait(5.0):
        if demo_log.exists() and "healthy at" in demo_log.read_text(errors="replace"):
            break
    while not stop.wait(40.0) and len(done) < FREEZES:
        pids = airflow_pids(airflow_home)
        if len(pids) < 3:  # already stopped
            continue
        signal_pids(pids, signal.SIGSTOP)
        stop.wait(FREEZE_S)
        signal_pids(airflow_pids(airflow_home), signal.SIGCONT)
        done.append(time.monotonic())
    signal_pids(airflow_pids(airflow_home), signal.SIGCONT)  # never leave it frozen


def _summary(proc: subprocess.Popen[bytes], out: Path, log: Path) -> tuple[dict[str, Any], str]:
    tail = log.read_text(errors="replace")[-4000:]
    try:
        return json.loads(out.read_text()), tail
    except json.JSONDecodeError:
        return {"ok": False, "error": f"no JSON summary (exit {proc.returncode})"}, tail


def _wait_all(procs: list[subprocess.Popen[bytes]], timeout: float, rss: list[float], root: Path) -> None:
    """Until every story ends (RSS of everything under `root` sampled every 10 s), at most `timeout`."""
    deadline = time.monotonic() + timeout
    while any(p.poll() is None for p in procs) and time.monotonic() < deadline:
        rss.append(_rss_mb(pids_with_env(str(root).encode())))
        time.sleep(10)
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)  # the sweep ends what it started
            proc.wait(60)


def test_the_demo_and_the_daemon_night_pass_on_a_machine_shared_with_other_airflows_and_daemons(
        tmp_path: Path, neighbours: Neighbours) -> None:
    started = time.monotonic()
    env = {**os.environ, "DW_LOAD_TEST_ROOT": str(tmp_path)}
    env.pop("DW_CONFIG", None)  # each story writes and uses its home's own config
    demo_home, bench_home = tmp_path / "demo-home", tmp_path / "daemon-home"
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"], env=env) for _ in range(BURNERS)]
    stop, freezes, rss = threading.Event(), list[float](), list[float]()
    logs = {name: (tmp_path / f"{name}.stdout.json", tmp_path / f"{name}.stderr.log") for name in ("demo", "bench")}
    freezer = threading.Thread(target=_freezer, args=(demo_home / "airflow" / "airflow", logs["demo"][1], stop, freezes),
                               daemon=True)
    try:
        freezer.start()
        with logs["demo"][0].open("wb") as demo_out, logs["demo"][1].open("wb") as demo_err, \
                logs["bench"][0].open("wb") as bench_out, logs["bench"][1].open("wb") as bench_err:
            demo = subprocess.Popen([str(Path(sys.executable).parent / "dw"), "demo", "--night", "month-end",
                                     "--approve-as", "maria.chen", "--json"], cwd=REPO_ROOT,
                                    env={**env, "DW_HOME": str(demo_home)}, stdout=demo_out, stderr=demo_err,
                                    start_new_session=True)
            bench = subprocess.Popen([sys.executable, str(REPO_ROOT / "benchmarks" / "daemon_bench.py"), "--json",
                                      "--restart-airflow", "--home", str(bench_home)], cwd=REPO_ROOT, env=env,
                                     stdout=bench_out, stderr=bench_err, start_new_session=True)
            _wait_all([demo, bench], STORY_TIMEOUT_S, rss, tmp_path)
        demo_summary, demo_tail = _summary(demo, *logs["demo"])
        bench_summary, bench_tail = _summary(bench, *logs["bench"])
        neighbour_figures = neighbours.figures()
    finally:
        stop.set()
        freezer.join(FREEZE_S + 10)
        for burner in burners:
            burner.kill()
            burner.wait()
    print(json.dumps({"wall_s": round(time.monotonic() - started), "freezes": len(freezes),
                      "peak_rss_mb_of_this_test": round(max(rss, default=0)), "load_avg": os.getloadavg(),
                      "daemon_legs_s": bench_summary.get("legs_s"), **neighbour_figures}))

    assert freezes, f"Airflow was never frozen: the condition was not reproduced; demo stderr tail:\n{demo_tail}"
    # the neighbours kept working the whole time (a run a minute, a run every 20 s)
    assert neighbour_figures["neighbour_daemon_runs"] >= 5, neighbour_figures
    for harness in neighbours.airflows:
        runs = neighbour_figures[f"airflow{harness.major}_busy_loop_runs"]
        assert isinstance(runs, int) and runs >= 3, neighbour_figures
    assert demo_summary.get("ok"), (f"demo failed under load after {len(freezes)} freeze(s): "
                                    f"{demo_summary.get('error')}\nstderr tail:\n{demo_tail}")
    [night] = demo_summary["nights"]
    assert night["status"] == "verified" and night["incident"]["status"] == "resolved"

    assert bench_summary.get("ok"), f"daemon night failed under load: {bench_summary.get('error')}\n{bench_tail}"
    assert bench_summary["restart_airflow"] and bench_summary["verification_passed"]
    assert bench_summary["incident_status"] == "resolved" and bench_summary["receipts"]["intact"]
    actions = bench_summary["actions"]
    for action in ("approval_approved", "dispatch_authorized", "rerun_drafted", "rerun_completed", "verification"):
        assert action in actions, f"{action} missing from {actions}"
    assert actions.count("verification") == 1
