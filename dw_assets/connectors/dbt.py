"""The dbt connector: runs dbt (or dbt-ol) on a project and reads its artifacts.

Reads: the project's files (to tell whether the manifest is stale), `target/manifest.json` and
`target/run_results.json`.
Writes: nothing itself. The dbt it starts writes `target/` and `logs/` in the project, and
`build`/`run`/`seed`/`snapshot` (and the rest) write to the warehouse the profile points at.
Read-only: `run_dbt(..., read_only=True)` accepts only `parse`, `compile`, `ls`/`list` and raises
`DbtReadOnlyError` before any process starts; `ensure_manifest` only ever runs `parse`.
How it runs: `dbt`/`dbt-ol` as executables, never imported (dbt-core's import costs seconds of class
compilation in every Dagster process that loads the code location, so it lives in its own venv).
`dbt_executable` looks in order at: config `dbt.executable` (the `dbt` executable or the folder
holding `dbt` and `dbt-ol`), `$DW_DBT_BIN_DIR`, beside `sys.executable` (one venv for everything),
the checkout's `.venv-dbt/bin` (what `make install` builds from requirements-dbt.txt), then PATH.
The executable's folder goes first on PATH because dbt-ol starts `dbt` by name; DW_HOME is set (the
demo profile reads it) and dbt's anonymous tracking is off (the estate is offline).
Errors: `DbtError` (base: a missing executable, bad arguments), `DbtReadOnlyError`,
`DbtArtifactError` (a missing or malformed artifact, naming the file), `DbtCommandError` (a parse
that failed, with the tail of dbt's output). A failed build is not an exception: callers read the
returned CompletedProcess and run_results.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from dw_assets.config import REPO_ROOT, Settings, dw_home

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


DBT_BIN_DIR_ENV = "DW_DBT_BIN_DIR"
# what `make install` builds beside the product's venv (requirements-dbt.txt)
CHECKOUT_DBT_BIN = REPO_ROOT / ".venv-dbt" / "bin"
_PACKAGES = {"dbt": "dbt-core and an adapter (dbt-duckdb for the demo)",
             "dbt-ol": "openlineage-dbt beside dbt-core and the adapter"}


def _in_folder(folder: Path, name: str) -> Path:
    return folder / (name + ".exe" if os.name == "nt" else name)


def dbt_executable(use_openlineage: bool = False, settings: Settings | None = None) -> Path:
    """`dbt` (or `dbt-ol`): config `dbt.executable`, `$DW_DBT_BIN_DIR`, beside sys.executable, the
    checkout's `.venv-dbt/bin`, PATH. A configured place that lacks it is an error, not a fallback."""
    name = "dbt-ol" if use_openlineage else "dbt"
    install = (f"install {_PACKAGES[name]} into a venv of its own (`make install` builds .venv-dbt from "
               f"requirements-dbt.txt), then set {DBT_BIN_DIR_ENV} or dbt.executable to its bin folder")
    if settings is not None and settings.dbt.executable:
        configured = settings.dbt.executable
        path = settings.resolve_path(configured, what="dbt.executable")
        # the `dbt` executable (dbt-ol beside it) or, otherwise, the folder holding both
        names_dbt = path.is_file() or (not path.exists() and path.name in ("dbt", "dbt.exe"))
        exe = (path if name == "dbt" else _in_folder(path.parent, name)) if names_dbt else _in_folder(path, name)
        if not exe.is_file():
            raise DbtError(f"{exe} not found (dbt.executable in {settings.path}: {configured}): "
                           f"point it at the dbt executable or its bin folder, or {install}")
        return exe
    from_env = os.environ.get(DBT_BIN_DIR_ENV)
    if from_env:
        exe = _in_folder(Path(from_env).expanduser(), name)
        if not exe.is_file():
            raise DbtError(f"{exe} not found (${DBT_BIN_DIR_ENV}={from_env}): {install}")
        return exe
    tried = [_in_folder(Path(sys.executable).parent, name), _in_folder(CHECKOUT_DBT_BIN, name)]
    for exe in tried:
        if exe.is_file():
            return exe
    on_path = shutil.which(name)
    if on_path:
        return Path(on_path)
    looked = ", ".join(str(t) for t in tried)
    raise DbtError(f"{name} not found: looked at dbt.executable (unset), ${DBT_BIN_DIR_ENV} (unset), {looked} "
                   f"and PATH; {install}")


def dbt_env(env: Mapping[str, str] | None = None, bin_dir: Path | str | None = None) -> dict[str, str]:
    """The environment dbt runs with: ours, then the caller's, then what dbt must have (the dbt
    executable's folder first on PATH: dbt-ol starts `dbt` by name)."""
    merged = {**os.environ, **(env or {})}
    merged.setdefault("DW_HOME", str(dw_home()))
    merged.setdefault("DBT_SEND_ANONYMOUS_USAGE_STATS", "false")
    merged.setdefault("DO_NOT_TRACK", "1")
    if bin_dir is not None:
        merged["PATH"] = os.pathsep.join([str(bin_dir), merged.get("PATH", "")])
    return merged


def _subcommand(args: Sequence[str]) -> str:
    for arg in args:
        if not arg.startswith("-"):
            return arg
    raise DbtError(f"no dbt command in {list(args)!r}: pass e.g. ['build', '--select', 'fct_revenue']")


def run_dbt(args: Sequence[str], project_dir: Path | str, profiles_dir: Path | str | None = None,
            env: Mapping[str, str] | None = None, use_openlineage: bool = False, *,
            read_only: bool = False, structured_logs: bool = True, cwd: Path | str | None = None,
            timeout_s: float = 1800.0, settings: Settings | None = None) -> subprocess.CompletedProcess[str]:
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
    exe = dbt_executable(use_openlineage, settings)
    argv = [str(exe)]
    if use_openlineage and structured_logs:
        argv.append("--consume-structured-logs")
    argv += list(args)
    if "--project-dir" not in args:
        argv += ["--project-dir", str(project_dir)]
    if "--profiles-dir" not in args:
        argv += ["--profiles-dir", str(Path(profiles_dir or project_dir).resolve())]
    return subprocess.run(argv, cwd=str(cwd or project_dir), env=dbt_env(env, exe.parent), capture_output=True,
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
                    env: Mapping[str, str] | None = None, settings: Settings | None = None) -> Path:
    """The project's manifest, running `dbt parse` only when it is missing or older than the project."""
    project_dir = Path(project_dir).resolve()
    profiles_dir = Path(profiles_dir or project_dir).resolve()
    manifest = target_dir(project_dir, env) / "manifest.json"
    if manifest.exists() and manifest.stat().st_mtime >= _newest_project_mtime(project_dir, profiles_dir):
        return manifest
    result = run_dbt(["parse"], project_dir, profiles_dir, env, read_only=True, settings=settings)
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
        data = read_settled(path)
    except FileNotFoundError as exc:
        raise DbtArtifactError(f"{what} {path} does not exist: run `dbt parse` (or build) first") from exc
    except (OSError, orjson.JSONDecodeError) as exc:
        raise DbtArtifactError(f"{what} {path} is not valid JSON: {exc}") from exc
    missing = [key for key in required if not isinstance(data, dict) or key not in data]
    if missing:
        raise DbtArtifactError(f"{what} {path} lacks {', '.join(missing)}: is it a dbt {what}?")
    return data


def read_settled(path: Path, *, settle_s: float = 10.0, every_s: float = 0.25,
                 sleep: Callable[[float], None] = time.sleep) -> Any:
    """The file as JSON. dbt rewrites its artifacts in place, not atomically: a process loading the
    manifest while the estate's dbt run writes it (a run worker loading the code location beside the
    estate's Airflow) reads half a file. While the file is still changing it is read again, for up to
    `settle_s`; a file that stays broken is an error at once (after one `every_s`)."""
    deadline = time.monotonic() + settle_s
    while True:
        before = path.stat()
        try:
            return orjson.loads(path.read_bytes())
        except orjson.JSONDecodeError:
            sleep(every_s)
            after = path.stat()
            if (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns) \
                    or time.monotonic() >= deadline:
                raise


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
