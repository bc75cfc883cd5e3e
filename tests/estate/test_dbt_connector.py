"""The dbt connector without dbt: argument building, read-only refusal, manifest freshness, artifacts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dw_assets.connectors import dbt as dbt_connector
from dw_assets.connectors.dbt import (
    DbtArtifactError,
    DbtCommandError,
    DbtError,
    DbtReadOnlyError,
    ensure_manifest,
    failed_results,
    load_manifest,
    load_run_results,
    run_dbt,
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "models").mkdir(parents=True)
    (root / "dbt_project.yml").write_text("name: p\nprofile: p\n")
    (root / "models" / "m.sql").write_text("select 1 as x\n")
    return root


@pytest.fixture
def recorded_runs(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
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


def test_runs_the_venv_dbt_with_dw_home_and_the_venv_on_path(project: Path, recorded_runs, tmp_path) -> None:
    run_dbt(["build", "--select", "fct_revenue"], project, env={"DW_HOME": str(tmp_path / "home")})
    call = recorded_runs[0]
    venv_bin = str(Path(sys.executable).parent)
    assert call["argv"][0] == os.path.join(venv_bin, "dbt")
    assert call["argv"][1:] == ["build", "--select", "fct_revenue", "--project-dir", str(project),
                                "--profiles-dir", str(project)]
    assert call["env"]["PATH"].split(os.pathsep)[0] == venv_bin
    assert call["env"]["DW_HOME"] == str(tmp_path / "home")
    assert call["env"]["DBT_SEND_ANONYMOUS_USAGE_STATS"] == "false"
    assert call["cwd"] == str(project)


def test_dbt_ol_runs_live_with_structured_logs(project: Path, recorded_runs, tmp_path) -> None:
    run_dbt(["build"], project, tmp_path, use_openlineage=True, cwd=tmp_path)
    argv = recorded_runs[0]["argv"]
    assert Path(argv[0]).name == "dbt-ol" and argv[1:3] == ["--consume-structured-logs", "build"]
    assert argv[-2:] == ["--profiles-dir", str(tmp_path.resolve())]
    assert recorded_runs[0]["cwd"] == str(tmp_path)


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
    assert calls == [(["parse"], {"read_only": True})]


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


def test_failed_results_keep_the_database_error() -> None:
    run_results = {"results": [
        {"unique_id": "model.dw_demo.stg_orders", "status": "success", "message": "OK"},
        {"unique_id": "model.dw_demo.fct_revenue", "status": "error", "message": "Conversion Error: ..."},
        {"unique_id": "test.dw_demo.x", "status": "fail", "message": "Got 3 results"},
    ]}
    assert [(r["unique_id"], r["status"]) for r in failed_results(run_results)] == [
        ("model.dw_demo.fct_revenue", "error"), ("test.dw_demo.x", "fail")]
