"""A demo home carries its own config ($DW_HOME/dw.yaml): the demo's Airflow port and random
password, its repo and files written in, relative paths made absolute, owner-only; `load_settings`
uses it when no path and no DW_CONFIG are given; the Dagster instance gets a startup timeout."""

from __future__ import annotations

import stat
from pathlib import Path

import dagster as dg
import yaml

from dw_assets.config import DEFAULT_CONFIG, load_settings, resolve_env
from dw_assets.demo.home_config import write_home_config
from dw_assets.harness.dagster_ui import CODE_SERVER_STARTUP_TIMEOUT_S, ensure_instance_yaml


def _demo_config(dw_home: Path) -> Path:
    pinned = {"DW_AIRFLOW_URL": "http://127.0.0.1:41234", "DW_AIRFLOW_AUTH": "jwt", "DW_AIRFLOW_USER": "admin",
              "DW_AIRFLOW_PASSWORD": "r4nd0m-pw", "DW_HOME": str(dw_home), "DW_ESTATE_REPO": str(dw_home / "repo")}
    return write_home_config(DEFAULT_CONFIG, dw_home, pinned, dbt_artifacts=dw_home / "dbt" / "target")


def test_the_home_config_holds_the_demos_airflow_and_absolute_paths(dw_home, monkeypatch):
    path = _demo_config(dw_home)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # it holds a password
    monkeypatch.delenv("DW_CONFIG", raising=False)
    settings = load_settings()  # no path, no DW_CONFIG: the home's own config
    assert settings.path == path.resolve()
    [inst] = settings.airflow.instances
    assert (inst.url, inst.auth.type, inst.auth.username, inst.auth.password) == \
        ("http://127.0.0.1:41234", "jwt", "admin", "r4nd0m-pw")
    assert "8080" not in path.read_text()
    assert settings.resolve_path(settings.notes) == (DEFAULT_CONFIG.parent / "notes.yaml").resolve()
    assert settings.dbt.manifest == str(dw_home / "dbt" / "target" / "manifest.json")
    assert resolve_env(settings.state.url) == f"sqlite:///{dw_home}/state.db"
    assert {d.repo for d in settings.domains} == {str(dw_home / "repo")}
    spec = settings.openlineage.spec_dir  # another variable stays a reference, with an absolute default
    assert spec.startswith("${DW_OPENLINEAGE_SPEC_DIR:-/") and Path(spec.split(":-", 1)[1][:-1]).is_absolute()
    raw = yaml.safe_load(path.read_text())
    assert raw["domains"][0]["slack"]["webhook_url"] == "${DW_SLACK_WEBHOOK_FINANCE:-}"  # secrets stay in env


def test_a_state_url_replaces_the_sources_state_store(dw_home, monkeypatch):
    """A deployment rehearsal's home: the state store on another server, the rest as the source."""
    url = "postgresql://dw@127.0.0.1:5432/data_workers"
    path = write_home_config(DEFAULT_CONFIG, dw_home, {}, state_url=url)
    settings = load_settings(path)
    assert settings.state.url == url
    assert settings.warehouse.url == load_settings(DEFAULT_CONFIG).warehouse.url  # untouched, still ${DW_HOME}
    assert settings.resolve_path(settings.notes) == (DEFAULT_CONFIG.parent / "notes.yaml").resolve()


def test_dw_config_still_wins_over_the_home_config(dw_home, monkeypatch):
    _demo_config(dw_home)
    monkeypatch.setenv("DW_CONFIG", str(DEFAULT_CONFIG))
    assert load_settings().path == DEFAULT_CONFIG.resolve()


def test_the_instance_yaml_gets_a_startup_timeout_direct_launches_and_keeps_what_is_there(tmp_path):
    home = tmp_path / "dagster"
    path = ensure_instance_yaml(home)
    assert yaml.safe_load(path.read_text()) == {
        "telemetry": {"enabled": False}, "code_servers": {"local_startup_timeout": CODE_SERVER_STARTUP_TIMEOUT_S},
        "sensors": {"use_threads": True, "num_workers": 8},
        "run_coordinator": {"module": "dagster.core.run_coordinator", "class": "DefaultRunCoordinator"}}
    with dg.DagsterInstance.from_config(str(home)) as instance:  # a valid instance: runs launch as requested
        assert type(instance.run_coordinator).__name__ == "SyncInMemoryRunCoordinator"  # DefaultRunCoordinator
    path.write_text("sensors:\n  use_threads: true\nrun_queue:\n  max_concurrent_runs: 2\n")
    ensure_instance_yaml(home)
    kept = yaml.safe_load(path.read_text())
    assert kept["sensors"] == {"use_threads": True} and kept["code_servers"]["local_startup_timeout"] == 300
    assert kept["run_queue"] == {"max_concurrent_runs": 2} and "run_coordinator" not in kept  # the user's queue


def test_dw_ui_refuses_to_parse_dbt_inside_the_checkout_with_one_clear_message(dw_home, monkeypatch, tmp_path):
    from click.testing import CliRunner

    from dw_assets.cli import cli

    monkeypatch.delenv("DW_CONFIG", raising=False)
    monkeypatch.delenv("DW_ESTATE_REPO", raising=False)
    monkeypatch.setenv("DBT_TARGET_PATH", str(tmp_path / "no-target"))  # no manifest where dbt would write it
    result = CliRunner().invoke(cli, ["ui"])
    assert result.exit_code != 0
    assert "inside this checkout, where Data Workers never runs `dbt parse`" in result.output
    assert "DW_ESTATE_REPO" in result.output
    assert not (dw_home / "dagster").exists()  # refused before anything was started or written
