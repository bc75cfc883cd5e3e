"""The Airflow harness: the environment it gives Airflow, venv reuse, and a real start/stop/restart."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from dw_assets.connectors.dbt import dbt_executable
from dw_assets.harness import airflow_venv
from dw_assets.harness.airflow import AirflowHarness, free_port, session_pids
from dw_assets.harness.logs import log_tail
from dw_assets.harness.ready import http_ok, wait_ready

ESTATE_DAGS = ("gl_landing", "month_end_close", "orders_daily")
DAG_OWNERS = {"gl_landing": "sam.ortiz", "month_end_close": "maria.chen", "orders_daily": "jonas.berg"}


def test_airflow_bin_then_the_dbt_venv_bin_then_the_dagster_venv_bin(tmp_path: Path) -> None:
    env = AirflowHarness(3, tmp_path, dw_home_dir=tmp_path / "dw").process_env(Path("/venvs/venv-3"))
    path = env["PATH"].split(":")
    dbt_ol = dbt_executable(use_openlineage=True)  # dbt's own venv: dbt-ol there starts that venv's `dbt`
    assert path[:3] == ["/venvs/venv-3/bin", str(dbt_ol.parent), str(Path(sys.executable).parent)]
    assert Path(env["DW_DBT_OL"]) == dbt_ol
    assert (dbt_ol.parent / "dbt").is_file()
    assert env["DW_HOME"] == str((tmp_path / "dw").resolve())


def test_inherited_airflow_and_openlineage_settings_do_not_leak(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENLINEAGE_URL", "http://127.0.0.1:1/")
    monkeypatch.setenv("AIRFLOW__CORE__LOAD_EXAMPLES", "True")
    harness = AirflowHarness(2, tmp_path, dw_home_dir=tmp_path, openlineage_url="http://127.0.0.1:5055")
    env = harness.process_env(Path("/venvs/venv-2"))
    assert "OPENLINEAGE_URL" not in env
    # Airflow's OpenLineage provider is on and posts to the receiver
    assert env["AIRFLOW__OPENLINEAGE__DISABLED"] == "False"
    assert json.loads(env["AIRFLOW__OPENLINEAGE__TRANSPORT"]) == {
        "type": "http", "url": "http://127.0.0.1:5055", "endpoint": "api/v1/lineage", "timeout": 30}
    assert env["AIRFLOW__OPENLINEAGE__NAMESPACE"] == "airflow://local"
    assert env["AIRFLOW__CORE__LOAD_EXAMPLES"] == "False"
    assert env["AIRFLOW__WEBSERVER__WEB_SERVER_PORT"] == str(harness.port)
    assert env["AIRFLOW__API__AUTH_BACKENDS"] == "airflow.api.auth.backend.basic_auth"


def test_airflow3_env_points_tasks_at_its_own_execution_api(tmp_path: Path) -> None:
    harness = AirflowHarness(3, tmp_path, port=18123, dw_home_dir=tmp_path)
    env = harness.process_env(Path("/venvs/venv-3"))
    assert env["AIRFLOW__CORE__EXECUTION_API_SERVER_URL"] == "http://127.0.0.1:18123/execution/"
    assert env["AIRFLOW__API__PORT"] == "18123"
    assert env["AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS"] == "admin:admin"


def test_without_a_receiver_lineage_goes_to_file_transports_under_dw_home(tmp_path: Path) -> None:
    harness = AirflowHarness(3, tmp_path / "h", dw_home_dir=tmp_path / "dw")
    harness._write_config_files()
    config = yaml.safe_load((harness.airflow_home / "openlineage-dbt.yml").read_text())
    events = (tmp_path / "dw" / "lineage" / "events").resolve()
    assert config == {"transport": {"type": "file", "log_file_path": str(events / "dbt.ndjson"), "append": True}}
    provider = json.loads(harness.process_env(Path("/venvs/venv-3"))["AIRFLOW__OPENLINEAGE__TRANSPORT"])
    assert provider == {"type": "file", "log_file_path": str(events / "airflow.ndjson"), "append": True}
    assert json.loads((harness.airflow_home / "passwords.json").read_text()) == {"admin": harness.password}
    # a random password, kept owner-only in the home so a second harness on it (a restart) reuses it
    assert len(harness.password) >= 32 and harness.password != "admin"
    assert AirflowHarness(3, tmp_path / "h").password == harness.password
    assert oct((harness.airflow_home / ".admin_password").stat().st_mode & 0o777) == "0o600"


def test_unknown_major_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="must be 2 or 3"):
        AirflowHarness(4, tmp_path)
    with pytest.raises(ValueError, match="unsupported Airflow major version 1"):
        airflow_venv.ensure_airflow_venv(1)


def test_a_stamped_venv_is_reused_without_pip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DW_AIRFLOW_VENVS", str(tmp_path))
    venv = tmp_path / "venv-3"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "airflow").touch()
    (venv / airflow_venv.STAMP_NAME).write_text(json.dumps({"spec": airflow_venv.AIRFLOW_SPECS[3]}))

    def no_subprocess(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"pip must not run for a stamped venv: {args}")

    monkeypatch.setattr(airflow_venv.subprocess, "run", no_subprocess)
    assert airflow_venv.ensure_airflow_venv(3) == venv


def test_the_background_builder_builds_each_major_asked_for_and_says_where(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    built: list[int] = []

    def record(major: int) -> Path:
        built.append(major)
        return tmp_path / f"venv-{major}"

    monkeypatch.setattr(airflow_venv, "ensure_airflow_venv", record)
    airflow_venv.build_airflow_venvs([3, 2])
    assert built == [3, 2]
    assert capsys.readouterr().out.splitlines() == [f"Airflow 3: {tmp_path / 'venv-3'}",
                                                    f"Airflow 2: {tmp_path / 'venv-2'}"]


def test_free_port_is_bindable() -> None:
    port = free_port()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))


def _port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@pytest.mark.airflow
def test_estate_dags_import_without_errors(airflow: AirflowHarness) -> None:
    for dag_id in ESTATE_DAGS:
        dag = airflow.wait_for_dag(dag_id)
        assert dag["is_paused"] is False
        assert dag["owners"] == [DAG_OWNERS[dag_id]]
    assert airflow.import_errors() == []
    airflow.unpause("gl_landing")  # already unpaused: the PATCH is accepted and changes nothing
    assert airflow.wait_for_dag("gl_landing")["is_paused"] is False


@pytest.mark.airflow
def test_harness_stops_every_process_and_restarts(airflow: AirflowHarness) -> None:
    sid = airflow.session_id
    assert sid is not None and session_pids(sid), "a started harness has processes in its session"
    airflow.stop()
    for flag in ("-s", "-g"):
        left = subprocess.run(["pgrep", flag, str(sid)], capture_output=True, text=True, check=False).stdout.split()
        assert left == [], f"processes left in Airflow {airflow.major}'s {flag} {sid}: {left}"
    assert not _port_open(airflow.port)

    airflow.start()
    assert airflow.session_id != sid
    with airflow.http() as client:
        health_path = "/monitor/health" if airflow.major == 3 else "/health"
        assert client.get(airflow.api_prefix + health_path).json()["scheduler"]["status"] == "healthy"
    airflow.wait_for_dag("gl_landing")


def test_log_tail_gives_the_last_lines_or_says_there_is_no_log(tmp_path):
    log = tmp_path / "service.log"
    log.write_text("one\ntwo\nthree\n")
    assert log_tail(log, 2) == "two\nthree"
    assert log_tail(tmp_path / "missing.log", 5) == "(no log written)"


def test_the_readiness_loop_returns_when_ready_and_names_the_service_and_its_log_otherwise(tmp_path):
    """`wait_ready`, the one loop the harness's processes start behind (real child processes)."""
    log = tmp_path / "svc.log"
    log.write_text("starting\nport taken\n")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        answers = iter([False, False, True])
        wait_ready(sleeper, lambda: next(answers), what="svc", log_path=log, timeout=60, interval=0.01)
        with pytest.raises(TimeoutError, match=r"svc not ready after 0s \(last: x\); log .*svc.log:\nstarting"):
            wait_ready(sleeper, lambda: False, what="svc", log_path=log, timeout=0.2, interval=0.05,
                       last_seen=lambda: "last: x")
    finally:
        sleeper.kill()
        sleeper.wait(10)
    exits = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    exits.wait(30)
    with pytest.raises(RuntimeError, match=r"svc exited with 3 before it was ready; log .*\nstarting\nport taken"):
        wait_ready(exits, lambda: True, what="svc", log_path=log, timeout=60, interval=0.01)
    assert not http_ok(f"http://127.0.0.1:{free_port()}/health", timeout=1)  # nothing listening: not ready
