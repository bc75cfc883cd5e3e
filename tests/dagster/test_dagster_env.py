"""The environment of the Dagster processes we start: a code-server call timeout that fits a slow
machine (a run launch at load 50-60 outlived Dagster's 60 s default and the rerun's run failed
before it started), unless the caller chose one."""

from pathlib import Path

from dw_assets.harness.dagster_ui import GRPC_TIMEOUT_S, dagster_env


def test_dagster_processes_get_a_code_server_timeout_for_a_slow_machine(tmp_path: Path) -> None:
    env = dagster_env({"PATH": "/usr/bin"}, tmp_path / "dagster")
    assert env["DAGSTER_HOME"] == str(tmp_path / "dagster") and env["PATH"] == "/usr/bin"
    assert int(env["DAGSTER_GRPC_TIMEOUT_SECONDS"]) == GRPC_TIMEOUT_S > 60


def test_a_timeout_the_caller_set_is_kept(tmp_path: Path) -> None:
    env = dagster_env({"DAGSTER_GRPC_TIMEOUT_SECONDS": "90"}, tmp_path)
    assert env["DAGSTER_GRPC_TIMEOUT_SECONDS"] == "90"
