"""The dbt connector: runs dbt (or dbt-ol) on a project and reads its artifacts.

Reads: the project's files (to tell whether the manifest is stale), `target/manifest.json` and
`target/run_results.json`.
Writes: nothing itself. The dbt it starts writes `target/` and `logs/` in the project, and
`build`/`run`/`seed`/`snapshot` (and the rest) write to the warehouse the profile points at.
Read-only: `run_dbt(..., read_only=True)` accepts only `parse`, `compile`, `ls`/`list` and raises
`DbtReadOnlyError` before any process starts; `ensure_manifest` only ever runs `parse`.
How it runs: `dbt`/`dbt-ol` from the venv of `sys.executable` (the product's own dbt-core and
openlineage-dbt), with that venv's `bin` first on PATH because dbt-ol starts `dbt` by name, with
DW_HOME set (the demo profile reads it) and dbt's anonymous tracking off (the estate is offline).
Errors: `DbtError` (base: a missing executable, bad arguments), `DbtReadOnlyError`,
`DbtArtifactError` (a missing or malformed artifact, naming the file), `DbtCommandError` (a parse
that failed, with the tail of dbt's output). A failed build is not an exception: callers read the
returned CompletedProcess and run_results.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from dw_assets.config import Settings, dw_home

READ_ONLY_COMMANDS = frozenset({"parse", "compile", "ls", "list"})
_NOT_PROJECT_DIRS = {"target", "logs", "dbt_packages", "dbt_modules"}


class DbtError(RuntimeError):
    """A dbt problem the caller can act on; the message says what and where."""


class DbtReadOnlyError(DbtError):
    pass


class DbtArtifactError(DbtError):
    pass


class DbtCommandError(DbtError):
    pass


@dataclass(frozen=True)
class DbtProjectPaths:
    project_dir: Path
    profiles_dir: Path
    manifest: Path
    run_results: Path


def project_paths(settings: Settings) -> DbtProjectPaths:
    """The dbt project of a config, with its artifacts where the config or dbt puts them."""
    cfg = settings.dbt
    project_dir = settings.resolve_path(cfg.project_dir, what="dbt.project_dir")
    profiles_dir = settings.resolve_path(cfg.profiles_dir, what="dbt.profiles_dir") if cfg.profiles_dir \
        else project_dir
    target = target_dir(project_dir)
    manifest = settings.resolve_path(cfg.manifest, what="dbt.manifest") if cfg.manifest \
        else target / "manifest.json"
    run_results = settings.resolve_path(cfg.run_results, what="dbt.run_results") if cfg.run_results \
        else target / "run_results.json"
    return DbtProjectPaths(project_dir, profiles_dir, manifest, run_results)


def target_dir(project_dir: Path, env: Mapping[str, str] | None = None) -> Path:
    """Where dbt writes artifacts: `$DBT_TARGET_PATH` (relative to the project) or `target/`."""
    value = (env or {}).get("DBT_TARGET_PATH") or os.environ.get("DBT_TARGET_PATH") or "target"
    path = Path(value)
    return path if path.is_absolute() else Path(project_dir) / path


def dbt_executable(use_openlineage: bool = False) -> Path:
    name = "dbt-ol" if use_openlineage else "dbt"
    exe = Path(sys.executable).parent / name
    if not exe.exists():
        package = "openlineage-dbt" if use_openlineage else "dbt-core and dbt-duckdb"
        raise DbtError(f"{exe} not found: install {package} into the venv of {sys.executable}")
    return exe


def dbt_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment dbt runs with: ours, then the caller's, then what dbt must have."""
    merged = {**os.environ, **(env or {})}
    merged.setdefault("DW_HOME", str(dw_home()))
    merged.setdefault("DBT_SEND_ANONYMOUS_USAGE_STATS", "false")
    merged.setdefault("DO_NOT_TRACK", "1")
    venv_bin = str(Path(sys.executable).parent)
    merged["PATH"] = os.pathsep.join([venv_bin, merged.get("PATH", "")])
    return merged


def _subcommand(args: Sequence[str]) -> str:
    for arg in args:
        if not arg.startswith("-"):
            return arg
    raise DbtError(f"no dbt command in {list(args)!r}: pass e.g. ['build', '--select', 'fct_revenue']")


def run_dbt(args: Sequence[str], project_dir: Path | str, profiles_dir: Path | str | None = None,
            env: Mapping[str, str] | None = None, use_openlineage: bool = False, *,
            read_only: bool = False, structured_logs: bool = True, cwd: Path | str | None = None,
            timeout_s: float = 1800.0) -> subprocess.CompletedProcess[str]:
    """Run one dbt command; with `use_openlineage`, through dbt-ol (live events by default).

    `structured_logs` makes dbt-ol emit events as nodes run, with the database error in an
    errorMessage facet on FAIL. dbt-ol reads `openlineage.yml` from `cwd` (default: the project)
    or the file named by `OPENLINEAGE_CONFIG`.
    """
    if isinstance(args, str) or not all(isinstance(a, str) for a in args):
        raise DbtError(f"dbt args must be a list of strings, got {args!r}")
    command = _subcommand(args)
    if read_only and command not in READ_ONLY_COMMANDS:
        allowed = ", ".join(sorted(READ_ONLY_COMMANDS))
        raise DbtReadOnlyError(f"dbt {command} refused: this connection is read-only (allowed: {allowed})")
    project_dir = Path(project_dir).resolve()
    if not (project_dir / "dbt_project.yml").exists():
        raise DbtError(f"{project_dir} is not a dbt project: it has no dbt_project.yml")
    argv = [str(dbt_executable(use_openlineage))]
    if use_openlineage and structured_logs:
        argv.append("--consume-structured-logs")
    argv += list(args)
    if "--project-dir" not in args:
        argv += ["--project-dir", str(project_dir)]
    if "--profiles-dir" not in args:
        argv += ["--profiles-dir", str(Path(profiles_dir or project_dir).resolve())]
    return subprocess.run(argv, cwd=str(cwd or project_dir), env=dbt_env(env), capture_output=True,
                          text=True, timeout=timeout_s, check=False)


def _newest_project_mtime(project_dir: Path, profiles_dir: Path) -> float:
    profiles = profiles_dir / "profiles.yml"
    newest = profiles.stat().st_mtime if profiles.exists() else 0.0
    for root, dirs, files in os.walk(project_dir):
        dirs[:] = [d for d in dirs if d not in _NOT_PROJECT_DIRS and not d.startswith(".")]
        for name in files:
            newest = max(newest, (Path(root) / name).stat().st_mtime)
    return newest


def ensure_manifest(project_dir: Path | str, profiles_dir: Path | str | None = None,
                    env: Mapping[str, str] | None = None) -> Path:
    """The project's manifest, running `dbt parse` only when it is missing or older than the project."""
    project_dir = Path(project_dir).resolve()
    profiles_dir = Path(profiles_dir or project_dir).resolve()
    manifest = target_dir(project_dir, env) / "manifest.json"
    if manifest.exists() and manifest.stat().st_mtime >= _newest_project_mtime(project_dir, profiles_dir):
        return manifest
    result = run_dbt(["parse"], project_dir, profiles_dir, env, read_only=True)
    if result.returncode != 0 or not manifest.exists():
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-15:])
        raise DbtCommandError(f"dbt parse failed in {project_dir} (exit {result.returncode}):\n{tail}")
    return manifest


def load_artifact(path: Path | str, required: tuple[str, ...] = ("metadata",),
                  what: str = "dbt artifact") -> dict[str, Any]:
    """A dbt artifact (manifest, run results) as JSON; `DbtArtifactError` names the file and what
    is wrong (missing, not JSON, lacking a top-level key dbt always writes). orjson: manifests of
    large projects are tens of MB."""
    path = Path(path)
    try:
        data = orjson.loads(path.read_bytes())
    except FileNotFoundError as exc:
        raise DbtArtifactError(f"{what} {path} does not exist: run `dbt parse` (or build) first") from exc
    except (OSError, orjson.JSONDecodeError) as exc:
        raise DbtArtifactError(f"{what} {path} is not valid JSON: {exc}") from exc
    missing = [key for key in required if not isinstance(data, dict) or key not in data]
    if missing:
        raise DbtArtifactError(f"{what} {path} lacks {', '.join(missing)}: is it a dbt {what}?")
    return data


def load_manifest(path: Path | str) -> dict[str, Any]:
    return load_artifact(path, ("metadata", "nodes", "sources", "exposures"), "manifest")


def load_run_results(path: Path | str) -> dict[str, Any]:
    return load_artifact(path, ("metadata", "results"), "run_results")


def failed_results(run_results: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The nodes that errored or failed in a run, with dbt's message (the database error)."""
    return [
        {"unique_id": r.get("unique_id"), "status": r.get("status"), "message": r.get("message")}
        for r in run_results.get("results", [])
        if r.get("status") in {"error", "fail", "runtime error"}
    ]
