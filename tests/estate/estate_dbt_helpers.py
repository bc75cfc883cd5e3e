"""Helpers for the estate tests that run real dbt: a private copy of the project, a dbt-ol run
with a file transport, and what a run left behind."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dw_assets.connectors.dbt import load_run_results, run_dbt
from dw_assets.demo.estate import EstatePaths

REPO_DBT_PROJECT = Path(__file__).resolve().parents[2] / "dbt_project"
SEED = 7


@dataclass
class DbtRun:
    result: subprocess.CompletedProcess[str]
    run_results: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)

    def status_of(self, unique_id: str) -> str:
        return next(r["status"] for r in self.run_results["results"] if r["unique_id"] == unique_id)


@dataclass
class NightEstate:
    paths: EstatePaths
    na_order_ids: list[str]


def copy_dbt_project(dest: Path) -> Path:
    shutil.copytree(REPO_DBT_PROJECT, dest, ignore=shutil.ignore_patterns("target", "logs", "dbt_packages"))
    return dest


def dbt_ol_run(home: Path, project: Path, args: list[str], work: Path) -> DbtRun:
    """`dbt-ol --consume-structured-logs <args>` with a file transport writing NDJSON into `work`."""
    work.mkdir(parents=True, exist_ok=True)
    events_file = work / "events.ndjson"
    (work / "openlineage.yml").write_text(
        f"transport:\n  type: file\n  log_file_path: {events_file}\n  append: true\n"
    )
    result = run_dbt(args, project, project, {"DW_HOME": str(home), "OPENLINEAGE_URL": ""},
                     use_openlineage=True, cwd=work)
    (work / "dbt-output.txt").write_text(result.stdout + result.stderr)
    lines = events_file.read_text().splitlines() if events_file.exists() else []
    events = [json.loads(line) for line in lines]
    return DbtRun(result, load_run_results(project / "target" / "run_results.json"), events)
