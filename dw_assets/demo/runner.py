"""`dw demo`: both nights of STORIES.md end to end on the embedded default.

It builds the demo estate from nothing in DW_HOME, gives the estate's owners their own git working
copy of the DAGs and dbt project (so diffs are checked and merged there, never in this checkout),
starts Data Workers' OpenLineage receiver (`dw lineage serve`) and a real Airflow through the
harness, whose OpenLineage provider and dbt-ol post the estate's lineage to that receiver, replays
the night through the real DAGs, and runs Data Workers through its real sensors and jobs against one
Dagster instance (DW_HOME/dagster) until verification — or until a named person must approve.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any, TextIO

import dagster as dg

from dw_assets.config import DEFAULT_CONFIG, REPO_ROOT, Settings, dw_home, load_settings
from dw_assets.connectors.dbt import dbt_executable, run_dbt
from dw_assets.definitions import build_all_definitions
from dw_assets.demo import nights
from dw_assets.demo.context import DemoContext, DemoOptions, git
from dw_assets.demo.dagster_driver import DagsterDriver
from dw_assets.demo.estate import build_estate
from dw_assets.demo.estate_actor import EstateActor
from dw_assets.demo.home_config import write_home_config
from dw_assets.demo.timeline import Timeline
from dw_assets.harness.airflow import ESTATE_DAG_IDS, AirflowHarness
from dw_assets.harness.dagster_ui import ensure_instance_yaml
from dw_assets.harness.lineage_receiver import LineageReceiver
from dw_assets.store import open_state

MARKER = ".dw-demo-home"


def _fresh_home(home: Path) -> None:
    """Start from nothing, but never wipe a folder the demo did not create."""
    owned = (home / MARKER).exists() or home.resolve() == (REPO_ROOT / ".dw_home").resolve()
    if home.exists() and any(home.iterdir()) and not owned:
        raise SystemExit(f"dw demo: {home} is not empty and was not made by `dw demo`; set DW_HOME to a new folder")
    if home.exists():
        shutil.rmtree(home)
    home.mkdir(parents=True)
    (home / MARKER).write_text("made by `dw demo`; safe to delete\n")


def owner_repo(home: Path) -> Path:
    """The estate owners' repository: a git copy of the DAGs and the dbt project."""
    repo = home / "estate-repo"
    ignore = shutil.ignore_patterns("target", "logs", "dbt_packages", ".user.yml", "__pycache__")
    shutil.copytree(REPO_ROOT / "dbt_project", repo / "dbt_project", ignore=ignore)
    shutil.copytree(REPO_ROOT / "estate" / "dags", repo / "estate" / "dags", ignore=ignore)
    (repo / ".gitignore").write_text("target/\nlogs/\n__pycache__/\n.user.yml\n")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    # the estate's code predates the night: a fresh commit would look like a suspect recent change
    git(repo, "commit", "-q", "-m", "Estate DAGs and dbt project", date="2026-08-03T10:00:00+00:00")
    return repo


def _set_env(ctx: DemoContext) -> None:
    os.environ["DW_HOME"] = str(ctx.home)
    os.environ["DW_ESTATE_REPO"] = str(ctx.repo)
    os.environ["DAGSTER_HOME"] = str(ctx.home / "dagster")
    ensure_instance_yaml(ctx.home / "dagster")


def _build_estate(ctx: DemoContext) -> None:
    tl = ctx.timeline
    with tl.step("estate", f"building the demo estate in {ctx.home}"):
        build_estate(ctx.home)  # its paths are read from the home the settings point at
    with tl.step("estate", "dbt build of the history (dbt-duckdb)"):
        proc = run_dbt(["build"], ctx.repo / "dbt_project", ctx.repo / "dbt_project", env=_dbt_env(ctx),
                       settings=_source_settings(ctx))
        if proc.returncode != 0:
            raise RuntimeError(f"dbt build of the clean estate failed:\n{proc.stdout[-3000:]}")


def _source_config(ctx: DemoContext) -> Path:
    return Path(ctx.options.config_path or os.environ.get("DW_CONFIG") or DEFAULT_CONFIG)


def _source_settings(ctx: DemoContext) -> Settings:
    """The config the demo starts from: its `dbt.executable`, if set, runs the demo's dbt and dbt-ol."""
    return load_settings(_source_config(ctx))


def _dbt_env(ctx: DemoContext) -> dict[str, str]:
    return {"DW_HOME": str(ctx.home), "DBT_TARGET_PATH": str(ctx.home / "dbt" / "target"),
            "DBT_LOG_PATH": str(ctx.home / "dbt" / "logs")}


def _start_receiver(ctx: DemoContext) -> None:
    """`dw lineage serve` on the demo's config and home: its events land in the home's state store."""
    source = Path(ctx.options.config_path or os.environ.get("DW_CONFIG") or DEFAULT_CONFIG)
    receiver = LineageReceiver(source, ctx.home, ctx.home / "lineage" / "receiver.log")
    with ctx.timeline.step("openlineage", "starting the OpenLineage receiver (dw lineage serve on 127.0.0.1)"):
        receiver.start()
    ctx.receiver = receiver
    ctx.summary["openlineage"] = {"receiver": receiver.url}
    ctx.timeline.say("openlineage", f"receiver at {receiver.url}/api/v1/lineage: Airflow's OpenLineage provider "
                                    "and dbt-ol post there")


def _start_airflow(ctx: DemoContext) -> None:
    major = ctx.options.airflow_major
    # a free port and a random password (the harness's defaults): the home's config records both
    harness = AirflowHarness(major, home=ctx.home / "airflow", dags_folder=ctx.repo / "estate" / "dags" / f"airflow{major}",
                             dw_home_dir=ctx.home, openlineage_url=ctx.receiver.url,
                             extra_env={"DW_DBT_PROJECT_DIR": str(ctx.repo / "dbt_project"),
                                        "DW_DBT_PROFILES_DIR": str(ctx.repo / "dbt_project")},
                             dbt_ol=dbt_executable(use_openlineage=True, settings=_source_settings(ctx)))
    with ctx.timeline.step("airflow", f"starting a real Airflow {major} (airflow standalone on 127.0.0.1)"):
        harness.start()
        harness.wait_for_dags(ESTATE_DAG_IDS)
    ctx.harness = harness
    ctx.estate = EstateActor(harness)
    airflow_env = {"DW_AIRFLOW_URL": harness.url, "DW_AIRFLOW_AUTH": "jwt" if major == 3 else "basic",
                   "DW_AIRFLOW_USER": harness.username, "DW_AIRFLOW_PASSWORD": harness.password}
    os.environ.update(airflow_env)
    # the home's own config, with these values written in: the demo runs on it, and `dw ui` /
    # `dagster dev` on this home later read it (config precedence: DW_CONFIG, then $DW_HOME/dw.yaml)
    source = _source_config(ctx)
    pinned = {**airflow_env, "DW_HOME": str(ctx.home), "DW_ESTATE_REPO": str(ctx.repo)}
    # the demo's dbt writes its artifacts under the home (DBT_TARGET_PATH): point the config there,
    # so loading the code location on this home reads that manifest and never runs `dbt parse`
    target = ctx.home / "dbt" / "target"
    ctx.options.config_path = str(write_home_config(source, ctx.home, pinned, dbt_artifacts=target))
    ctx.summary["airflow"] = {"major": major, "url": harness.url}
    ctx.timeline.say("airflow", f"Airflow {major} healthy at {harness.url}; DAGs gl_landing, month_end_close, "
                                "orders_daily loaded from the owners' repo")


def _hold_airflow(ctx: DemoContext) -> None:
    """--keep-airflow: leave the estate's Airflow up for a look around, until Ctrl-C."""
    h = ctx.harness
    ctx.timeline.say("airflow", f"Airflow stays up at {h.url} (user {h.username}, password in "
                                f"{ctx.options.config_path}) until Ctrl-C. In another shell: "
                                f"export DW_HOME={ctx.home}; dw airflow runs --json")
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass


def _start_data_workers(ctx: DemoContext) -> None:
    with ctx.timeline.step("data-workers", "loading the code location and the Dagster instance"):
        ctx.settings = load_settings(ctx.options.config_path)
        ctx.store = open_state(ctx.settings)
        defs = build_all_definitions(ctx.options.config_path)
        ctx.driver = DagsterDriver(defs, dg.DagsterInstance.get())


def run_demo(options: DemoOptions, stream: TextIO | None = None) -> dict[str, Any]:
    home = dw_home()
    timeline = Timeline(stream=stream or sys.stdout)
    _fresh_home(home)
    ctx = DemoContext(options=options, home=home, repo=home / "estate-repo", timeline=timeline)
    ctx.summary = {"ok": False, "dw_home": str(home), "nights": []}
    try:
        owner_repo(home)
        _set_env(ctx)
        _build_estate(ctx)
        _start_receiver(ctx)
        _start_airflow(ctx)
        _start_data_workers(ctx)
        for night in options.nights:
            play = nights.month_end if night == "month-end" else nights.orders
            ctx.summary["nights"].append(play(ctx))
        ctx.summary["receipts"] = nights.receipts_status(ctx)
        ctx.summary["ok"] = all(n.get("status") in ("verified", "awaiting_approval") for n in ctx.summary["nights"]) \
            and ctx.summary["receipts"]["intact"]
    except Exception as exc:  # noqa: BLE001  the summary says what failed; the exit code is non-zero
        timeline.say("demo", f"FAILED: {type(exc).__name__}: {exc}")
        ctx.summary["error"] = f"{type(exc).__name__}: {exc}"
        if ctx.harness is not None:
            ctx.summary["airflow_log_tail"] = ctx.harness.log_tail(30)
        if ctx.receiver is not None:
            ctx.summary["receiver_log_tail"] = ctx.receiver.log_tail(30)
    finally:
        if ctx.harness is not None and options.keep_airflow:
            _hold_airflow(ctx)
        if ctx.harness is not None:
            with timeline.step("airflow", "stopping Airflow"):
                ctx.harness.stop()
        if ctx.receiver is not None:  # after Airflow: its last events are posted by then
            with timeline.step("openlineage", "stopping the OpenLineage receiver"):
                ctx.receiver.stop()
    ctx.summary["timeline"] = timeline.to_list()
    (home / "demo-summary.json").write_text(json.dumps(ctx.summary, indent=2, default=str))
    timeline.say("demo", f"summary written to {home / 'demo-summary.json'}; open the Dagster UI with: "
                         f"DW_HOME={home} dw ui")
    return ctx.summary


__all__ = ["DemoOptions", "owner_repo", "run_demo"]
