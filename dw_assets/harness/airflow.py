"""A real local Airflow (2.11 or 3.3) for tests and the demo: `airflow standalone` on loopback.

Each harness owns a home folder (AIRFLOW_HOME, log, config files), a free port, an `admin` user with
a random password kept in the home (so a restart keeps it) and its own session of processes. `stop()` sends SIGTERM to every process of that
session (Airflow's task runners move to their own process groups but keep the session), then
SIGKILL after a grace period; an `atexit` hook stops any harness still running, so no Airflow
outlives the Python process that started it. Linux only (it reads `/proc` to find the session).

The estate's DAGs run with `DW_*` variables pointing at the demo estate (see `task_env`) and dbt-ol
(found as the dbt connector finds it: its own venv by default) with its bin on PATH after Airflow's.
OpenLineage is reported the way an Airflow user's estate reports it: Airflow's OpenLineage provider (`apache-airflow-providers-openlineage`, in
both venvs) emits the DAG-run and task events, and dbt-ol the model events under the task's run.
Both go to `openlineage_url` (`dw lineage serve`) over HTTP when given, else to NDJSON files under
`$DW_HOME/lineage/events/` (`airflow.ndjson` from the provider, `dbt.ndjson` from dbt-ol).
"""

from __future__ import annotations

import atexit
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Self
from urllib.parse import quote

import httpx
import yaml

from dw_assets.config import REPO_ROOT, dw_home
from dw_assets.connectors.dbt import dbt_executable
from dw_assets.connectors.retry import RetryPolicy, RetryTransport
from dw_assets.harness.airflow_venv import ensure_airflow_venv
from dw_assets.harness.ready import LocalService
from dw_assets.secret_files import write_secret

OPENLINEAGE_NAMESPACE = "airflow://local"
# The provider emits from a forked process it kills after this many seconds (default 10): on a busy
# machine extraction plus a POST can take longer, and a killed emission loses the event.
OPENLINEAGE_EMIT_TIMEOUT_S = 120
# A busy machine (load 15-25 on 2 cores) stalls Airflow's single API worker for tens of seconds:
# each request waits up to 90 s, and timeouts, dropped connections and 5xx are retried for 5 minutes.
HTTP_TIMEOUT = httpx.Timeout(90.0, connect=15.0)
HTTP_POLICY = RetryPolicy(attempts=8, backoff_s=1.0, max_backoff_s=15.0, deadline_s=300.0)
_RUNNING: set[AirflowHarness] = set()
# The demo estate's DAGs (estate/dags/airflow{2,3}): a started harness is usable once all are parsed.
ESTATE_DAG_IDS = ("gl_landing", "month_end_close", "orders_daily")


# Start deadlines fit a busy shared machine: at load 25, four Airflows starting at once, one took
# more than 240 s to report healthy. The waits end as soon as it is, so a wide one costs nothing.
START_TIMEOUT_S = 600.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def session_pids(sid: int, *, zombies: bool = False) -> list[int]:
    """Processes whose session id is `sid` (zombies, which cannot be signalled, only if asked)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == sid and (zombies or fields[0] != "Z"):
            pids.append(int(entry.name))
    return pids


def _signal_all(pids: list[int], sig: signal.Signals) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


class AirflowHarness(LocalService):
    username = "admin"
    log_lines = 60

    def __init__(self, major: int, home: Path, dags_folder: Path | None = None,
                 extra_env: dict[str, str] | None = None, port: int | None = None, *,
                 dw_home_dir: Path | None = None, openlineage_url: str | None = None,
                 password: str | None = None, dbt_ol: Path | None = None):
        if major not in (2, 3):
            raise ValueError(f"Airflow major version must be 2 or 3, got {major!r}")
        self.major = major
        self.home = Path(home).resolve()
        self.airflow_home = self.home / "airflow"
        self.dags_folder = Path(dags_folder or REPO_ROOT / "estate" / "dags" / f"airflow{major}").resolve()
        self.port = port or free_port()
        self.extra_env = dict(extra_env or {})
        self.dw_home = Path(dw_home_dir or self.extra_env.get("DW_HOME") or dw_home()).resolve()
        self.openlineage_url = openlineage_url
        self._dbt_ol = dbt_ol  # None: found as the dbt connector finds it (dbt_executable)
        self.log_path = self.home / "standalone.log"
        self.api_prefix = "/api/v2" if major == 3 else "/api/v1"
        self._proc: subprocess.Popen[bytes] | None = None
        self._token: str | None = None
        self.env: dict[str, str] = {}
        self.password = password or self._secret("admin_password")

    @property
    def dbt_ol(self) -> Path:
        if self._dbt_ol is None:
            self._dbt_ol = dbt_executable(use_openlineage=True)
        return self._dbt_ol

    def task_env(self) -> dict[str, str]:
        """What the estate's task code reads: where the estate lives and where lineage goes."""
        env = {
            "DW_HOME": str(self.dw_home),
            "DW_DBT_PROJECT_DIR": str(REPO_ROOT / "dbt_project"),
            "DW_DBT_PROFILES_DIR": str(REPO_ROOT / "dbt_project"),
            "DW_DBT_OL": str(self.dbt_ol),
            # dbt's artifacts and logs stay with the estate, not in the shared repo checkout
            "DBT_TARGET_PATH": str(self.dw_home / "dbt" / "target"),
            "DBT_LOG_PATH": str(self.dw_home / "dbt" / "logs"),
            "OPENLINEAGE_NAMESPACE": OPENLINEAGE_NAMESPACE,
            "OPENLINEAGE_CONFIG": str(self.airflow_home / "openlineage-dbt.yml"),
        }
        return env

    def openlineage_transport(self, file_name: str) -> dict[str, Any]:
        """The openlineage-python transport config for the provider and dbt-ol: HTTP to
        `openlineage_url` (the receiver's `/api/v1/lineage`), else NDJSON appended to
        `$DW_HOME/lineage/events/<file_name>`."""
        if self.openlineage_url:
            return {"type": "http", "url": self.openlineage_url, "endpoint": "api/v1/lineage", "timeout": 30}
        return {"type": "file", "log_file_path": str(self.dw_home / "lineage" / "events" / file_name),
                "append": True}

    def process_env(self, venv: Path) -> dict[str, str]:
        inherited = {k: v for k, v in os.environ.items()
                     if not k.startswith(("AIRFLOW", "OPENLINEAGE", "DBT_"))
                     and k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
        # dbt-ol starts `dbt` by name: its own venv's bin comes right after Airflow's
        bins = [str(venv / "bin"), str(self.dbt_ol.parent), str(Path(sys.executable).parent),
                inherited.get("PATH", "/usr/bin:/bin")]
        path = os.pathsep.join(dict.fromkeys(bins))
        env = {**inherited, "PATH": path, "AIRFLOW_HOME": str(self.airflow_home), **self.task_env(),
               "AIRFLOW__CORE__DAGS_FOLDER": str(self.dags_folder),
               "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
               "AIRFLOW__CORE__DAGS_ARE_PAUSED_AT_CREATION": "False",
               "AIRFLOW__CORE__PARALLELISM": "4",
               "AIRFLOW__CORE__MAX_ACTIVE_TASKS_PER_DAG": "4",
               "AIRFLOW__OPENLINEAGE__DISABLED": "False",
               "AIRFLOW__OPENLINEAGE__NAMESPACE": OPENLINEAGE_NAMESPACE,
               "AIRFLOW__OPENLINEAGE__TRANSPORT": json.dumps(self.openlineage_transport("airflow.ndjson")),
               "AIRFLOW__OPENLINEAGE__EXECUTION_TIMEOUT": str(OPENLINEAGE_EMIT_TIMEOUT_S),
               "AIRFLOW__LOGGING__WORKER_LOG_SERVER_PORT": str(free_port()),
               "AIRFLOW__LOGGING__TRIGGER_LOG_SERVER_PORT": str(free_port())}
        if self.major == 3:
            env.update({
                "AIRFLOW__API__HOST": "127.0.0.1", "AIRFLOW__API__PORT": str(self.port),
                "AIRFLOW__API__WORKERS": "1",
                "AIRFLOW__CORE__EXECUTION_API_SERVER_URL": f"{self.url}/execution/",
                "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS": f"{self.username}:admin",
                "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_PASSWORDS_FILE": str(self.airflow_home / "passwords.json"),
                "AIRFLOW__API_AUTH__JWT_SECRET": self._secret("jwt_secret"),
                "AIRFLOW__API__SECRET_KEY": self._secret("api_secret_key"),
                "AIRFLOW__DAG_PROCESSOR__REFRESH_INTERVAL": "5",
                # a loaded machine stalls the single API worker: a task's calls to the execution API
                # wait (default 5 s) and retry longer, instead of failing the task before it starts
                "AIRFLOW__WORKERS__EXECUTION_API_TIMEOUT": "60",
                "AIRFLOW__WORKERS__EXECUTION_API_RETRIES": "10",
            })
        else:
            env.update({
                "AIRFLOW__WEBSERVER__WEB_SERVER_HOST": "127.0.0.1",
                "AIRFLOW__WEBSERVER__WEB_SERVER_PORT": str(self.port),
                "AIRFLOW__WEBSERVER__WORKERS": "1",
                # the webserver kills itself when gunicorn's master is silent this long (default 120 s,
                # which a load average of 12 on 2 cores reached while dbt ran)
                "AIRFLOW__WEBSERVER__WEB_SERVER_MASTER_TIMEOUT": "600",
                "AIRFLOW__WEBSERVER__SECRET_KEY": self._secret("webserver_secret_key"),
                "AIRFLOW__API__AUTH_BACKENDS": "airflow.api.auth.backend.basic_auth",
                "AIRFLOW__SCHEDULER__DAG_DIR_LIST_INTERVAL": "5",
            })
        return {**env, **self.extra_env}

    def _secret(self, name: str) -> str:
        """A random secret kept in the home (owner-only), so a restart keeps issued tokens valid."""
        path = self.airflow_home / f".{name}"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            write_secret(path, secrets.token_urlsafe(32))
        return path.read_text().strip()

    def rotate_secrets(self) -> None:
        """New JWT and API secrets at the next start, as an operator rotating them would: every token
        issued before is then refused (Airflow 3 answers 403 "Invalid JWT token")."""
        for name in ("jwt_secret", "api_secret_key", "webserver_secret_key"):
            (self.airflow_home / f".{name}").unlink(missing_ok=True)
        self._token = None

    def _write_config_files(self) -> None:
        self.airflow_home.mkdir(parents=True, exist_ok=True)
        (self.dw_home / "lineage" / "events").mkdir(parents=True, exist_ok=True)
        (self.airflow_home / "openlineage-dbt.yml").write_text(
            yaml.safe_dump({"transport": self.openlineage_transport("dbt.ndjson")}))
        if self.major == 3:
            write_secret(self.airflow_home / "passwords.json", json.dumps({self.username: self.password}))

    def _create_airflow2_admin(self) -> None:
        """Airflow 2 standalone invents a random admin password unless the user already exists."""
        marker = self.airflow_home / ".dw-admin-created"
        if marker.exists():
            return
        airflow = str(Path(self.env["PATH"].split(os.pathsep)[0]) / "airflow")
        for cmd in (["db", "migrate"],
                    ["users", "create", "--username", self.username,
                     f"--password={self.password}",  # a random password may start with "-"
                     "--role", "Admin", "--firstname", "Admin", "--lastname", "User",
                     "--email", "admin@example.com"]):
            proc = subprocess.run([airflow, *cmd], env=self.env, cwd=self.home, capture_output=True,
                                  text=True, timeout=600, check=False, umask=0o077)
            if proc.returncode != 0:
                raise RuntimeError(f"airflow {' '.join(cmd[:2])} failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
        write_secret(self.airflow_home / "standalone_admin_password.txt", self.password)
        marker.touch()

    def start(self, timeout: float = START_TIMEOUT_S) -> Self:
        if self._proc and self._proc.poll() is None:
            return self
        venv = ensure_airflow_venv(self.major)
        self.home.mkdir(parents=True, exist_ok=True)
        self._write_config_files()
        self.env = self.process_env(venv)
        if self.major == 2:
            self._create_airflow2_admin()
        with open(self.log_path, "ab") as log:
            self._proc = subprocess.Popen([str(venv / "bin" / "airflow"), "standalone"], env=self.env,
                                          cwd=self.home, stdout=log, stderr=subprocess.STDOUT,
                                          start_new_session=True,
                                          umask=0o077)  # airflow.cfg (fernet and secret keys) stays 0600
        _RUNNING.add(self)
        self._wait_healthy(timeout)  # stops the process when it never gets healthy
        return self

    def _health(self) -> dict[str, Any] | None:
        path = "/api/v2/monitor/health" if self.major == 3 else "/api/v1/health"
        try:
            resp = httpx.get(self.url + path, timeout=5)
        except httpx.HTTPError:
            return None
        return resp.json() if resp.status_code == 200 else None

    def _wait_healthy(self, timeout: float) -> None:
        components = ["metadatabase", "scheduler"] + (["dag_processor"] if self.major == 3 else [])
        seen: list[dict[str, Any] | None] = [None]

        def healthy() -> bool:
            seen[0] = health = self._health()
            return health is not None and all((health.get(c) or {}).get("status") == "healthy" for c in components)

        self._await_ready(self._proc, healthy, what=f"airflow standalone ({self.major}) at {self.url}",
                          timeout=timeout, interval=2, last_seen=lambda: f"last health: {seen[0]}")

    def stop(self, grace: float = 15.0) -> None:
        _RUNNING.discard(self)
        self._token = None
        if self._proc is None:
            return
        sid = self._proc.pid  # start_new_session: the session id is the leader's pid
        _signal_all(session_pids(sid), signal.SIGTERM)
        deadline = time.monotonic() + grace
        while session_pids(sid) and time.monotonic() < deadline:
            self._proc.poll()  # reaps the leader once it exits
            time.sleep(0.5)
        for _ in range(40):  # then until even the zombies are reaped by their parents
            self._proc.poll()
            if not session_pids(sid, zombies=True):
                break
            _signal_all(session_pids(sid), signal.SIGKILL)
            time.sleep(0.5)
        self._proc = None

    def restart(self, timeout: float = START_TIMEOUT_S) -> AirflowHarness:
        self.stop()
        return self.start(timeout)

    @property
    def session_id(self) -> int | None:
        return self._proc.pid if self._proc else None

    def _transport(self) -> RetryTransport:
        return RetryTransport(f"Airflow {self.major} (harness) at {self.url}", policy=HTTP_POLICY,
                              hint=f"Airflow is not answering: see its log {self.log_path}")

    def _auth_headers(self) -> dict[str, str]:
        if self.major == 2:
            return {}
        if self._token is None:
            with httpx.Client(transport=self._transport(), timeout=HTTP_TIMEOUT) as client:
                resp = client.post(f"{self.url}/auth/token", json={"username": self.username, "password": self.password},
                                   extensions={"dw_idempotent": True})  # a login may be repeated
                resp.raise_for_status()
                self._token = str(resp.json()["access_token"])
        return {"Authorization": f"Bearer {self._token}"}

    def http(self) -> httpx.Client:
        """An authenticated client on the REST API root (paths start with `api_prefix`), with the
        harness's retry policy: reads are retried on timeouts and 5xx; a POST only when it never left,
        or when the caller marks it `extensions={"dw_idempotent": True}` (a trigger with its own run id)."""
        auth = httpx.BasicAuth(self.username, self.password) if self.major == 2 else None
        return httpx.Client(base_url=self.url, headers=self._auth_headers(), auth=auth, timeout=HTTP_TIMEOUT,
                            transport=self._transport())

    def import_errors(self) -> list[dict[str, Any]]:
        with self.http() as client:
            resp = client.get(f"{self.api_prefix}/importErrors")
            resp.raise_for_status()
            return resp.json()["import_errors"]

    def wait_for_dag(self, dag_id: str, timeout: float = 120.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        with self.http() as client:
            while time.monotonic() < deadline:
                resp = client.get(f"{self.api_prefix}/dags/{quote(dag_id, safe='')}")
                # a DAG the processor has marked stale (v1 `is_active`, v2 `is_stale`) cannot be triggered
                body = resp.json() if resp.status_code == 200 else {}
                if body and body.get("is_active", True) and not body.get("is_stale", False):
                    return dict(body)
                time.sleep(2)
        raise TimeoutError(f"DAG {dag_id!r} not visible in Airflow {self.major} after {timeout:.0f}s "
                           f"(dags folder {self.dags_folder}); import errors: {self.import_errors()}")

    def wait_for_dags(self, dag_ids: tuple[str, ...] | list[str], timeout: float = START_TIMEOUT_S) -> None:
        """Until every DAG in `dag_ids` is parsed and active: `airflow standalone` reports healthy before
        its DAG processor has read the folder, and a trigger before then answers 404."""
        deadline = time.monotonic() + timeout
        for dag_id in dag_ids:
            self.wait_for_dag(dag_id, timeout=max(1.0, deadline - time.monotonic()))

    def unpause(self, dag_id: str) -> None:
        with self.http() as client:
            resp = client.patch(f"{self.api_prefix}/dags/{quote(dag_id, safe='')}", json={"is_paused": False})
            resp.raise_for_status()


@atexit.register
def _stop_all_running() -> None:
    for harness in list(_RUNNING):
        harness.stop(grace=5)
