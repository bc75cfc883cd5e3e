"""The Airflow virtualenvs the harness runs: one per major version, built on first use.

Airflow's pins clash with Dagster's, so each major lives in its own venv under `$DW_AIRFLOW_VENVS`
(default `<repo>/.cache/airflow`) as `venv-3` / `venv-2`. A stamp file records the pip spec the
venv was built with; a venv whose stamp matches is reused as is, anything else gets
`pip install <spec>` (a no-op apart from resolution when the packages are already there). An
exclusive file lock keeps two processes from building the same venv at once.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

from dw_assets.config import REPO_ROOT

AIRFLOW_SPECS: dict[int, list[str]] = {
    3: ["apache-airflow==3.3.2", "duckdb>=1.1", "apache-airflow-providers-openlineage"],
    # cryptography 51 made MultiFernet a Rust type that takes no new attributes; Airflow 2.11's get_fernet sets
    # `is_encrypted` on it, so `airflow standalone` dies creating its default connections
    2: ["apache-airflow==2.11.*", "cryptography<51", "duckdb>=1.1", "apache-airflow-providers-openlineage"],
}
STAMP_NAME = ".dw-airflow-spec.json"


class AirflowVenvError(RuntimeError):
    """The Airflow venv could not be created or installed; the message holds pip's output tail."""


def airflow_venvs_root() -> Path:
    return Path(os.environ.get("DW_AIRFLOW_VENVS") or REPO_ROOT / ".cache" / "airflow")


def airflow_venv_path(major: int) -> Path:
    return airflow_venvs_root() / f"venv-{major}"


def _spec(major: int) -> list[str]:
    if major not in AIRFLOW_SPECS:
        raise ValueError(f"unsupported Airflow major version {major!r}: choose one of {sorted(AIRFLOW_SPECS)}")
    return AIRFLOW_SPECS[major]


def _stamp_matches(venv: Path, spec: list[str]) -> bool:
    try:
        recorded = json.loads((venv / STAMP_NAME).read_text())
    except (OSError, ValueError):
        return False
    return recorded.get("spec") == spec and (venv / "bin" / "airflow").exists()


def _run(cmd: list[str], what: str, timeout: float) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-30:])
        raise AirflowVenvError(f"{what} failed (exit {proc.returncode}): {' '.join(cmd)}\n{tail}")


def ensure_airflow_venv(major: int, *, timeout: float = 1800.0) -> Path:
    """Return the venv for Airflow `major`, creating or completing it when needed."""
    spec = _spec(major)
    venv = airflow_venv_path(major)
    if _stamp_matches(venv, spec):
        return venv
    venv.parent.mkdir(parents=True, exist_ok=True)
    with open(venv.parent / f".venv-{major}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _stamp_matches(venv, spec):  # another process finished it while we waited
            return venv
        python = venv / "bin" / "python"
        if not python.exists():
            _run([sys.executable, "-m", "venv", str(venv)], f"creating the Airflow {major} venv", 300)
        _run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *spec],
             f"installing Airflow {major} into {venv}", timeout)
        (venv / STAMP_NAME).write_text(json.dumps({"spec": spec}) + "\n")
    return venv


def build_airflow_venvs(majors: list[int]) -> None:
    """Build (or confirm) the venvs of these majors: scripts/test.sh runs it in the background so the
    builds overlap the tests that need no Airflow."""
    for major in majors:
        print(f"Airflow {major}: {ensure_airflow_venv(major)}", flush=True)
