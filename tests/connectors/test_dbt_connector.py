"""The dbt connector without dbt: argument building, read-only refusal, manifest freshness, artifacts."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
import yaml

from dw_assets.config import Settings, load_settings
from dw_assets.connectors import dbt as dbt_connector
from dw_assets.connectors.dbt import (
    DbtArtifactError,
    DbtCommandError,
    DbtError,
    DbtReadOnlyError,
    dbt_executable,
    ensure_manifest,
    failed_results,
    load_manifest,
    load_run_results,
    read_settled,
    run_dbt,
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "models").mkdir(parents=True)
    (root / "dbt_project.yml").write_text("name: p\nprofile: p\n")
    (root / "models" / "m.sql").write_text("select 1 as x\n")
    return root


def _fake_bin(folder: Path, *names: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_text("#!/bin/sh\n")
        (folder / name).chmod(0o755)
    return folder


@pytest.fixture
def dbt_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A dbt venv's bin (the files only: these tests never start it), named by $DW_DBT_BIN_DIR."""
    folder = _fake_bin(tmp_path / "dbt-venv" / "bin", "dbt", "dbt-ol")
    monkeypatch.setenv("DW_DBT_BIN_DIR", str(folder))
    return folder


@pytest.fixture
def recorded_runs(monkeypatch: pytest.MonkeyPatch, dbt_bin: Path) -> list[dict]:
    calls: list[dict] = []

    def fake_run(argv, **kwargs):
        calls.append({"argv": argv, **kwargs})
        return subprocess.CompletedProcess(argv, 0, "", "")

    monkeypatch.setattr(dbt_connector.subprocess, "run", fake_run)
    return calls


@pytest.mark.parametrize("command", ["build", "run", "seed", "snapshot", "test"])
def test_read_only_refuses_writing_commands_before_starting_dbt(project, recorded_runs, command) -> None:
    with pytest.raises(DbtReadOnlyError, match=f"dbt {command} refused"):
        run_dbt([command, "--select", "fct_revenue"], project, read_only=True)
    assert recorded_runs == []


def test_read_only_allows_parse_compile_and_ls(project: Path, recorded_runs) -> None:
    for command in ("parse", "compile", "ls"):
        run_dbt([command], project, read_only=True)
    assert [c["argv"][1] for c in recorded_runs] == ["parse", "compile", "ls"]


def test_runs_the_dbt_venv_dbt_with_dw_home_and_its_bin_on_path(project: Path, recorded_runs, dbt_bin,
                                                                 tmp_path) -> None:
    run_dbt(["build", "--select", "fct_revenue"], project, env={"DW_HOME": str(tmp_path / "home")})
    call = recorded_runs[0]
    assert call["argv"][0] == str(dbt_bin / "dbt")
    assert call["argv"][1:] == ["build", "--select", "fct_revenue", "--project-dir", str(project),
                                "--profiles-dir", str(project)]
    assert call["env"]["PATH"].split(os.pathsep)[0] == str(dbt_bin)  # dbt-ol starts this venv's `dbt`
    assert call["env"]["DW_HOME"] == str(tmp_path / "home")
    assert call["env"]["DBT_SEND_ANONYMOUS_USAGE_STATS"] == "false"
    assert call["cwd"] == str(project)


def test_dbt_ol_runs_live_with_structured_logs(project: Path, recorded_runs, dbt_bin, tmp_path) -> None:
    run_dbt(["build"], project, tmp_path, use_openlineage=True, cwd=tmp_path)
    argv = recorded_runs[0]["argv"]
    assert argv[0] == str(dbt_bin / "dbt-ol") and argv[1:3] == ["--consume-structured-logs", "build"]
    assert argv[-2:] == ["--profiles-dir", str(tmp_path.resolve())]
    assert recorded_runs[0]["cwd"] == str(tmp_path)


def _settings_with(tmp_path: Path, executable: str | None) -> Settings:
    config = tmp_path / "conf" / "dw.yaml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(yaml.safe_dump({"project": "p", "dbt": {"executable": executable} if executable else {}}))
    return load_settings(config)


def test_config_names_the_dbt_executable_or_its_folder(tmp_path: Path, dbt_bin: Path) -> None:
    mine = _fake_bin(tmp_path / "conf" / "tools", "dbt", "dbt-ol")  # relative to the config file
    for value in ("tools", "tools/dbt", str(mine)):
        settings = _settings_with(tmp_path, value)
        assert dbt_executable(settings=settings) == mine / "dbt"  # the config wins over $DW_DBT_BIN_DIR
        assert dbt_executable(True, settings) == mine / "dbt-ol"


def test_a_configured_place_without_dbt_is_an_error_naming_it(tmp_path: Path, dbt_bin: Path) -> None:
    settings = _settings_with(tmp_path, "nowhere/bin")
    with pytest.raises(DbtError, match=r"nowhere/bin/dbt-ol not found \(dbt\.executable in .*dw\.yaml: nowhere/bin\)"
                                       r".*openlineage-dbt.*requirements-dbt\.txt"):
        dbt_executable(True, settings)


def test_dw_dbt_bin_dir_comes_before_this_venv_and_path(tmp_path: Path, dbt_bin: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dbt_connector.sys, "executable", str(_fake_bin(tmp_path / "py" / "bin", "dbt") / "python"))
    monkeypatch.setenv("PATH", str(_fake_bin(tmp_path / "on-path", "dbt")))
    assert dbt_executable() == dbt_bin / "dbt"
    monkeypatch.setenv("DW_DBT_BIN_DIR", str(tmp_path / "empty"))
    with pytest.raises(DbtError, match=r"empty/dbt not found \(\$DW_DBT_BIN_DIR=.*empty\): install dbt-core"):
        dbt_executable()


def test_without_config_or_env_this_venv_then_the_checkout_venv_then_path(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DW_DBT_BIN_DIR", raising=False)
    python_bin = tmp_path / "py" / "bin"
    checkout_bin = tmp_path / "checkout" / ".venv-dbt" / "bin"
    on_path = tmp_path / "on-path"
    monkeypatch.setattr(dbt_connector.sys, "executable", str(python_bin / "python"))
    monkeypatch.setattr(dbt_connector, "CHECKOUT_DBT_BIN", checkout_bin)
    monkeypatch.setenv("PATH", str(on_path))
    with pytest.raises(DbtError) as missing:
        dbt_executable(True)
    message = str(missing.value)
    assert message.startswith("dbt-ol not found: looked at dbt.executable (unset), $DW_DBT_BIN_DIR (unset), ")
    assert str(python_bin / "dbt-ol") in message and str(checkout_bin / "dbt-ol") in message and "PATH" in message
    assert "install openlineage-dbt" in message and "make install" in message
    _fake_bin(on_path, "dbt-ol")
    assert dbt_executable(True) == on_path / "dbt-ol"
    _fake_bin(checkout_bin, "dbt-ol")
    assert dbt_executable(True) == checkout_bin / "dbt-ol"
    _fake_bin(python_bin, "dbt-ol")
    assert dbt_executable(True) == python_bin / "dbt-ol"


@pytest.mark.parametrize("args, message", [
    ("build", "must be a list of strings"),
    (["--debug"], "no dbt command"),
])
def test_bad_arguments_are_named(project: Path, recorded_runs, args, message) -> None:
    with pytest.raises(DbtError, match=message):
        run_dbt(args, project)


def test_a_folder_without_dbt_project_is_refused(tmp_path: Path, recorded_runs) -> None:
    with pytest.raises(DbtError, match=r"has no dbt_project\.yml"):
        run_dbt(["parse"], tmp_path)


def _write_manifest(project: Path, mtime: float) -> Path:
    manifest = project / "target" / "manifest.json"
    manifest.parent.mkdir(exist_ok=True)
    manifest.write_text(json.dumps({"metadata": {}, "nodes": {}, "sources": {}, "exposures": {}}))
    os.utime(manifest, (mtime, mtime))
    return manifest


def test_ensure_manifest_skips_parse_when_manifest_is_current(project: Path, recorded_runs) -> None:
    manifest = _write_manifest(project, (project / "models" / "m.sql").stat().st_mtime + 10)
    (project / "target" / "run_results.json").touch()  # target/ itself never makes a manifest stale
    assert ensure_manifest(project) == manifest
    assert recorded_runs == []


def test_ensure_manifest_parses_when_a_model_changed(project: Path, monkeypatch) -> None:
    _write_manifest(project, (project / "models" / "m.sql").stat().st_mtime - 10)
    calls = []

    def fake_run_dbt(args, project_dir, profiles_dir, env, **kwargs):
        calls.append((args, kwargs))
        _write_manifest(project, (project / "models" / "m.sql").stat().st_mtime + 10)
        return subprocess.CompletedProcess(args, 0, "", "")

    monkeypatch.setattr(dbt_connector, "run_dbt", fake_run_dbt)
    ensure_manifest(project)
    assert calls == [(["parse"], {"read_only": True, "settings": None})]


def test_ensure_manifest_reports_a_failed_parse(project: Path, monkeypatch) -> None:
    monkeypatch.setattr(dbt_connector, "run_dbt", lambda *a, **k: subprocess.CompletedProcess(
        a[0], 2, "Parsing Error\n  bad yaml in models/m.yml", ""))
    with pytest.raises(DbtCommandError, match=r"(?s)dbt parse failed .*exit 2.*bad yaml in models/m.yml"):
        ensure_manifest(project)


def test_artifacts_missing_or_malformed_are_named(tmp_path: Path) -> None:
    with pytest.raises(DbtArtifactError, match=r"manifest .*missing\.json does not exist"):
        load_manifest(tmp_path / "missing.json")
    (tmp_path / "broken.json").write_text("{not json")
    with pytest.raises(DbtArtifactError, match="not valid JSON"):
        load_run_results(tmp_path / "broken.json")
    (tmp_path / "other.json").write_text(json.dumps({"metadata": {}}))
    with pytest.raises(DbtArtifactError, match="lacks results"):
        load_run_results(tmp_path / "other.json")


def test_an_artifact_read_while_dbt_rewrites_it_is_read_again_once_written(tmp_path: Path) -> None:
    """dbt writes artifacts in place: a reader that catches half a file reads it again while it
    changes; a file that stays broken is an error without waiting out the whole deadline."""
    whole = json.dumps({"metadata": {}, "results": [{"unique_id": "model.x"}] * 2000}).encode()
    path = tmp_path / "run_results.json"
    path.write_bytes(whole[:1000])  # the writer is mid-way; it finishes while the reader waits
    waits: list[float] = []
    data = read_settled(path, sleep=lambda s: (waits.append(s), path.write_bytes(whole)))
    assert len(data["results"]) == 2000 and len(waits) == 1
    path.write_bytes(whole[:1000])
    with pytest.raises(DbtArtifactError, match="not valid JSON"):
        load_run_results(path)  # nothing writes it any more: one short wait, then the error


def test_failed_results_keep_the_database_error() -> None:
    run_results = {"results": [
        {"unique_id": "model.dw_demo.stg_orders", "status": "success", "message": "OK"},
        {"unique_id": "model.dw_demo.fct_revenue", "status": "error", "message": "Conversion Error: ..."},
        {"unique_id": "test.dw_demo.x", "status": "fail", "message": "Got 3 results"},
    ]}
    assert [(r["unique_id"], r["status"]) for r in failed_results(run_results)] == [
        ("model.dw_demo.fct_revenue", "error"), ("test.dw_demo.x", "fail")]
