"""Run `dw demo` once per (night, airflow) per test session, as a user would, and keep its summary."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

from dw_assets.harness.airflow import ESTATE_DAG_IDS, AirflowHarness

REPO_ROOT = Path(__file__).resolve().parents[2]
_CACHE: dict[tuple[str, str], dict] = {}


def run_demo(tmp_root: Path, night: str, airflow: str, approve_as: str | None = "maria.chen",
             timeout: float = 1500) -> dict:
    """The JSON summary of `dw demo`; the run's DW_HOME is `summary["_dw_home"]`."""
    key = (night, airflow)
    if key in _CACHE:
        return _CACHE[key]
    home = tmp_root / f"demo-{night}-af{airflow}"
    home.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "DW_HOME": str(home)}
    env.pop("DW_CONFIG", None)
    args = [str(Path(sys.executable).parent / "dw"), "demo", "--night", night, "--airflow", airflow, "--json"]
    if approve_as:
        args += ["--approve-as", approve_as]
    log = tmp_root / f"demo-{night}-af{airflow}.stderr.log"  # beside DW_HOME: the demo wants it empty
    with open(log, "w") as err:
        proc = subprocess.run(args, cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=err,
                              timeout=timeout, text=True, check=False)
    try:
        summary = json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        raise AssertionError(f"dw demo printed no JSON (exit {proc.returncode}); stderr tail:\n"
                             f"{log.read_text()[-4000:]}\nstdout:\n{proc.stdout[-2000:]}") from exc
    summary["_exit_code"] = proc.returncode
    summary["_dw_home"] = str(home)
    summary["_stderr_tail"] = log.read_text()[-4000:]
    _CACHE[key] = summary
    return summary


def restart_demo_airflow(summary: dict) -> AirflowHarness:
    """The demo's own Airflow started again after `dw demo` stopped it: same home, DAGs, port and
    secrets, so the demo home's config (URL, password) reaches it, as after `dw demo --keep-airflow`."""
    home = Path(summary["_dw_home"])
    major, url = summary["airflow"]["major"], summary["airflow"]["url"]
    repo = home / "estate-repo"
    harness = AirflowHarness(major, home=home / "airflow", dags_folder=repo / "estate" / "dags" / f"airflow{major}",
                             dw_home_dir=home, port=urlsplit(url).port,
                             extra_env={"DW_DBT_PROJECT_DIR": str(repo / "dbt_project"),
                                        "DW_DBT_PROFILES_DIR": str(repo / "dbt_project")})
    harness.start()
    harness.wait_for_dags(ESTATE_DAG_IDS)
    return harness
