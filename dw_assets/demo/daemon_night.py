"""The month-end night under a real `dagster-daemon`, as a deployment runs it (not the demo's
in-process driver): the daemon ticks the sensors and launches every run itself; this module only
plays the estate (the split export, the owner who triggers the drafted run), approves through the
`dw approve` command, and measures how long each leg of the loop takes. Dagster's processes start
once the night's first load has landed (a deployment running every night finds its data fresh).

Legs (wall-clock, seconds): green run end -> plan awaiting approval; approval -> rerun dispatched
(drafted for the owner on Airflow 3, triggered on Airflow 2); Airflow done (the last awaited run's
end) -> verification receipt. With `restart_airflow=True` Airflow restarts with new JWT/API secrets
right after the approval, so every token the daemon's clients hold is refused (403) and must renew.

The deployment it runs on is a parameter: `instance` (the Dagster instance's `dagster.yaml`, e.g. its
storage on PostgreSQL through dagster-postgres; Dagster's tables are then created first with
`dagster instance migrate`, as a deployment's migration job does), `state_url` (Data Workers' state
store, written into the home's config) and `separate_processes` (the code server, the daemon and
the webserver as three processes, as a deployment runs them, instead of the daemon's own code server).

Used by `benchmarks/daemon_bench.py` (the figures in the README), `tests/e2e/test_daemon_night.py` and
the deployment rehearsal (`tests/postgres/test_deployment_rehearsal.py`).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

import dagster as dg
import yaml

from dw_assets.config import REPO_ROOT, load_settings
from dw_assets.core.incidents import Incident
from dw_assets.demo import runner
from dw_assets.demo.estate import write_done_marker, write_gl_export_part
from dw_assets.demo.home_config import write_home_config
from dw_assets.demo.timeline import Timeline
from dw_assets.governance.receipt_log import ReceiptLog
from dw_assets.governance.workflow import Governance
from dw_assets.harness.airflow import ESTATE_DAG_IDS, free_port
from dw_assets.harness.dagster_ui import DagsterWebserver, dagster_env, ensure_instance_yaml
from dw_assets.harness.ready import wait_ready
from dw_assets.incidents import IncidentStore
from dw_assets.store import open_state

NIGHT_DATE = "2026-09-30"
# Loading the code location in the code server takes tens of seconds quiet and minutes at load 50;
# a hung load still ends.
CODE_SERVER_READY_S = 600.0


class DaemonNightError(RuntimeError):
    """A leg did not finish before its deadline; the message names the leg and the daemon log."""


def _wait(what: str, probe: Callable[[], Any], deadline_s: float, log: Path, every_s: float = 2.0) -> Any:
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        found = probe()
        if found:
            return found
        time.sleep(every_s)
    tail = log.read_text(errors="replace")[-3000:] if log.exists() else "(no daemon log)"
    raise DaemonNightError(f"{what}: not within {deadline_s:.0f}s; daemon log {log}:\n{tail}")


class DaemonNight:
    def __init__(self, home: Path, *, approver: str = "maria.chen", major: int = 3, restart_airflow: bool = False,
                 stream: TextIO | None = None, leg_deadline_s: float = 600.0, state_url: str | None = None,
                 instance: dict[str, Any] | None = None, separate_processes: bool = False):
        self.home = Path(home).resolve()
        self.approver, self.restart_airflow, self.leg_deadline_s = approver, restart_airflow, leg_deadline_s
        self.state_url, self.instance, self.separate_processes = state_url, instance, separate_processes
        self.dagster_home = self.home / "dagster"
        self.code_server: subprocess.Popen[bytes] | None = None
        self.webserver: DagsterWebserver | None = None
        options = runner.DemoOptions(nights=["month-end"], airflow_major=major, approve_as=approver)
        self.ctx = runner.DemoContext(options=options, home=self.home, repo=self.home / "estate-repo",
                                      timeline=Timeline(stream=stream or sys.stderr))
        self.daemon: subprocess.Popen[bytes] | None = None
        self.daemon_log = self.home / "daemon.log"
        self.summary: dict[str, Any] = {"ok": False, "dw_home": str(self.home), "airflow": major,
                                        "restart_airflow": restart_airflow, "legs_s": {}}

    # -- setup ------------------------------------------------------------------------------------
    def prepare(self) -> None:
        ctx = self.ctx
        os.environ["DW_HOME"] = str(self.home)  # the demo's steps read the home from the environment
        runner._fresh_home(self.home)
        runner.owner_repo(self.home)
        if self.state_url is not None:  # the chosen config with the state store elsewhere, as the home's config
            ctx.options.config_path = str(write_home_config(runner._source_config(ctx), self.home, {},
                                                            state_url=self.state_url))
        if self.instance is not None:  # before _set_env: its defaults only fill what this leaves out
            self.dagster_home.mkdir(parents=True)
            (self.dagster_home / "dagster.yaml").write_text(yaml.safe_dump(self.instance, sort_keys=False))
        runner._set_env(ctx)
        runner._build_estate(ctx)
        runner._start_receiver(ctx)  # where Airflow's OpenLineage provider and dbt-ol post
        runner._start_airflow(ctx)  # also writes $DW_HOME/dw.yaml with the Airflow's port and password
        os.environ["DW_CONFIG"] = self.config_path

        ctx.settings = load_settings(ctx.options.config_path)
        ctx.store = open_state(ctx.settings)

    @property
    def config_path(self) -> str:
        if self.ctx.options.config_path is None:  # runner._set_env writes the home's config
            raise DaemonNightError("the demo home's config is not written yet (prepare() first)")
        return self.ctx.options.config_path

    def process_env(self) -> dict[str, str]:
        """The environment of every Dagster process this night starts."""
        return {**dagster_env(os.environ, self.dagster_home), "DW_CONFIG": self.config_path}

    def start_daemon(self) -> None:
        ensure_instance_yaml(self.dagster_home)  # sensors in threads, runs launched as requested (no queue)
        env = self.process_env()
        workspace = REPO_ROOT / "workspace.yaml"
        if self.instance is not None:  # Dagster's tables created once, not raced for by the processes
            self._dagster(["instance", "migrate"], env)
        if self.separate_processes:
            workspace = self._start_code_server(env)
        with self.daemon_log.open("wb") as out:
            self.daemon = subprocess.Popen(
                [str(Path(sys.executable).parent / "dagster-daemon"), "run", "-w", str(workspace)],
                cwd=REPO_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        self.ctx.timeline.say("dagster", f"dagster-daemon started (pid {self.daemon.pid}, log {self.daemon_log})")
        if self.separate_processes:
            self.webserver = DagsterWebserver(self.dagster_home, env={"DW_CONFIG": self.config_path},
                                              workspace=workspace)
            # the code server is loaded already: the webserver only connects to it
            with self.ctx.timeline.step("dagster", "starting dagster-webserver on the code server"):
                self.webserver.start(timeout=CODE_SERVER_READY_S)

    def _dagster(self, args: list[str], env: dict[str, str]) -> None:
        proc = subprocess.run([str(Path(sys.executable).parent / "dagster"), *args], cwd=REPO_ROOT, env=env,
                              capture_output=True, text=True, timeout=600, check=False)
        if proc.returncode != 0:
            raise DaemonNightError(f"dagster {' '.join(args)} failed ({proc.returncode}) on {self.dagster_home}: "
                                   f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")

    def _start_code_server(self, env: dict[str, str]) -> Path:
        """`dagster api grpc` on a loopback port, waited for with its health check (a readiness
        probe's command); returns the workspace that points the daemon and the webserver at it."""
        port, log = free_port(), self.home / "code-server.log"
        binary = str(Path(sys.executable).parent / "dagster")
        with log.open("wb") as out:
            self.code_server = subprocess.Popen(
                [binary, "api", "grpc", "--module-name", "dw_assets.definitions", "--host", "127.0.0.1",
                 "--port", str(port)], cwd=REPO_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True)
        probe = [binary, "api", "grpc-health-check", "-h", "127.0.0.1", "-p", str(port)]
        with self.ctx.timeline.step("dagster", f"starting the code server (dagster api grpc on port {port})"):
            wait_ready(self.code_server, lambda: _succeeds(probe), what=f"the code server on 127.0.0.1:{port}", log_path=log, timeout=CODE_SERVER_READY_S,
                       interval=2)
        workspace = self.dagster_home / "workspace.yaml"
        workspace.write_text(yaml.safe_dump({"load_from": [{"grpc_server": {
            "host": "127.0.0.1", "port": port, "location_name": "data_workers"}}]}, sort_keys=False))
        return workspace

    def stop(self) -> None:
        if self.webserver is not None:
            self.webserver.stop()
        if self.daemon is not None and self.daemon.poll() is None:
            started = time.monotonic()
            _stop_group(self.daemon)
            # how long the daemon (its sensor threads, code server, run workers) took to stop on SIGTERM
            self.summary["daemon_stop_s"] = round(time.monotonic() - started, 1)
        if self.code_server is not None:  # after the daemon: the run workers it launched are its children
            _stop_group(self.code_server)
        if self.ctx.harness is not None:
            self.ctx.harness.stop()
        if self.ctx.receiver is not None:
            self.ctx.receiver.stop()

    # -- the night --------------------------------------------------------------------------------
    def _receipts(self, action: str, subject: str | None = None) -> list[Any]:
        return ReceiptLog.from_settings(self.ctx.store, self.ctx.settings).list(action=action, subject=subject)

    def play(self) -> dict[str, Any]:
        ctx, tl, legs = self.ctx, self.ctx.timeline, self.summary["legs_s"]
        write_gl_export_part(self.home, NIGHT_DATE, 1)
        run = ctx.estate.trigger("gl_landing", {"export_date": NIGHT_DATE})
        ctx.estate.wait_run("gl_landing", run["dag_run_id"])
        write_gl_export_part(self.home, NIGHT_DATE, 2)
        write_done_marker(self.home, NIGHT_DATE)
        # Dagster starts once the night's first load has landed: the estate's history ends months
        # before the wall clock, so a sensor ticking earlier (dw_missed_runs's freshness SLA at its
        # first tick) would find it stale and open a freshness incident the story is not about. The
        # Airflow runs sensor's first tick still reads the load's run (its lookback is a day).
        if self.daemon is None:
            self.start_daemon()
        load_end = ctx.estate.task_end("gl_landing", run["dag_run_id"], "load")  # its asset event starts the close
        close = ctx.estate.wait_next_run("month_end_close", after=load_end.replace(microsecond=0), timeout=900)
        green_end = datetime.fromisoformat(close["end_date"]).timestamp()
        tl.say("airflow", f"month_end_close {close['dag_run_id']}: {close['state']} (green, on half the data)")

        requested = _wait("plan awaiting approval", lambda: self._receipts("approval_requested"),
                          self.leg_deadline_s, self.daemon_log)[-1]
        plan_id = requested.record["subject"]
        legs["green_run_end_to_plan_awaiting_approval"] = round(_at(requested) - green_end, 1)
        tl.say("data-workers", f"plan {plan_id} awaiting approval "
                               f"({legs['green_run_end_to_plan_awaiting_approval']}s after the green run ended)")

        approve = subprocess.run([str(Path(sys.executable).parent / "dw"), "approve", plan_id, "--as", self.approver,
                                  "--note", "both export parts landed", "--json"],
                                 capture_output=True, text=True, timeout=300, check=False)
        if approve.returncode != 0:
            raise DaemonNightError(f"dw approve failed ({approve.returncode}): {approve.stderr[-2000:]}")
        approved_at = datetime.fromisoformat(json.loads(approve.stdout)["decided_at"]).timestamp()
        tl.say(self.approver, f"dw approve {plan_id} --as {self.approver}")
        if self.restart_airflow:
            with tl.step("airflow", "restarting Airflow with new JWT and API secrets"):
                ctx.harness.rotate_secrets()
                ctx.harness.restart()
                ctx.harness.wait_for_dags(ESTATE_DAG_IDS)

        dispatched = _wait("rerun dispatched", lambda: self._receipts("rerun_drafted", plan_id)
                           or self._receipts("rerun_dispatched", plan_id), self.leg_deadline_s, self.daemon_log)[-1]
        legs["approval_to_rerun_dispatched"] = round(_at(dispatched) - approved_at, 1)
        tl.say("dagster", f"{dispatched.action} {legs['approval_to_rerun_dispatched']}s after the approval")
        if dispatched.action == "rerun_drafted":  # Airflow 3: the DAG's owner triggers exactly the draft
            body = dispatched.record["body"]
            owner_run = ctx.estate.trigger(body["path"]["dag_id"], body["conf"])
            tl.say("owner", f"triggers the drafted {body['path']['dag_id']} run ({owner_run['dag_run_id']})")

        verified = _wait("verification", lambda: self._receipts("verification", plan_id),
                         self.leg_deadline_s, self.daemon_log)[-1]
        observed = [r.record["body"] for r in self._receipts("run_observed", plan_id)]
        airflow_done = max(datetime.fromisoformat(o["end_date"]).timestamp() for o in observed if o.get("end_date"))
        legs["airflow_done_to_verified"] = round(_at(verified) - airflow_done, 1)
        tl.say("verify", f"verification {'passed' if verified.record['body']['passed'] else 'FAILED'} "
                         f"{legs['airflow_done_to_verified']}s after Airflow finished")

        incident_id = Governance(ctx.settings, store=ctx.store).ledger.get_plan(plan_id).incident_id
        incident = _wait("incident resolved", lambda: _resolved(IncidentStore(ctx.store), incident_id), 120,
                         self.daemon_log)
        report = Governance(ctx.settings, store=ctx.store).receipts.verify()
        self.summary.update(
            plan_id=plan_id, incident_id=incident_id, incident_status=incident.status,
            verification_passed=bool(verified.record["body"]["passed"]),
            receipts={"intact": report.ok, "count": report.count},
            actions=[r.action for r in self._receipts_all(plan_id)],
            **self._dagster_runs())
        self.summary["ok"] = self.summary["verification_passed"] and report.ok and incident.status == "resolved"
        return self.summary

    def _receipts_all(self, plan_id: str) -> list[Any]:
        return ReceiptLog.from_settings(self.ctx.store, self.ctx.settings).list(subject=plan_id)

    def _dagster_runs(self) -> dict[str, Any]:
        """How many runs the daemon launched, in all and per job (the rerun verifies in its own run)."""
        with dg.DagsterInstance.from_config(str(self.dagster_home)) as instance:
            records = instance.get_run_records()
        jobs = Counter(r.dagster_run.job_name for r in records)
        return {"dagster_runs": len(records), "dagster_runs_by_job": dict(sorted(jobs.items()))}

    def run(self) -> dict[str, Any]:
        try:
            self.prepare()
            self.play()  # starts Dagster's processes once the night's first load has landed
        except Exception as exc:  # noqa: BLE001 - the summary says what failed; callers check `ok`
            self.summary["error"] = f"{type(exc).__name__}: {exc}"
        finally:
            self.stop()
        self.summary["timeline"] = self.ctx.timeline.to_list()
        return self.summary


def _at(receipt: Any) -> float:
    return datetime.fromisoformat(receipt.record["at"]).timestamp()


def _resolved(incidents: IncidentStore, incident_id: str | None) -> Incident | None:
    if not incident_id:
        return None
    incident = incidents.get(incident_id)
    return incident if incident.status == "resolved" else None


def _stop_group(proc: subprocess.Popen[bytes], grace_s: float = 60.0) -> None:
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(grace_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


def _succeeds(cmd: list[str], timeout_s: float = 120.0) -> bool:
    try:
        return subprocess.run(cmd, capture_output=True, timeout=timeout_s, check=False).returncode == 0
    except subprocess.TimeoutExpired:  # a probe that hangs is a probe that failed; the caller retries
        return False
