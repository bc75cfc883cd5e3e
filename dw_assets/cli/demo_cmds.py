"""dw commands: `dw demo` (the main job on the embedded demo estate) and `dw ui`."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from dw_assets.cli.context import DwContext, emit_json, pass_dw
from dw_assets.config import REPO_ROOT, dw_home, home_config, load_settings
from dw_assets.context_graph import checkout_parse_refusal
from dw_assets.harness.dagster_ui import dagster_env, ensure_instance_yaml
from dw_assets.harness.process_group import run_as_group


@click.command("demo")
@click.option("--night", type=click.Choice(["month-end", "orders", "both"]), default="month-end", show_default=True)
@click.option("--airflow", "airflow_major", type=click.Choice(["3", "2"]), default="3", show_default=True,
              help="Which Airflow major the harness starts (3: /api/v2, 2: /api/v1).")
@click.option("--approve-as", default=None, help="Approve the rerun as this named person (a listed approver).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON summary on stdout (the timeline goes to stderr).")
@click.option("--keep-airflow", is_flag=True, help="Leave the demo's Airflow running when done (Ctrl-C stops it).")
@pass_dw
def demo(dw: DwContext, night: str, airflow_major: str, approve_as: str | None, as_json: bool, keep_airflow: bool) -> None:
    """Build the demo estate from nothing, replay the night(s) on a real Airflow, and run Data Workers
    through its sensors and jobs until verification (or until approval is needed)."""
    # lazy: the demo loads Dagster (seconds); the other `dw` commands start without it
    from dw_assets.demo.runner import DemoOptions, run_demo

    options = DemoOptions(
        nights=["month-end", "orders"] if night == "both" else [night],
        airflow_major=int(airflow_major),
        approve_as=approve_as,
        keep_airflow=keep_airflow,
        config_path=dw.config_path,
    )
    summary = run_demo(options, stream=sys.stderr if as_json else sys.stdout)
    if as_json:
        emit_json(summary)
    sys.exit(0 if summary.get("ok") else 1)


@click.command("ui")
@click.option("--port", default=3000, show_default=True)
@pass_dw
def ui(dw: DwContext, port: int) -> None:
    """Open the Dagster UI (`dagster dev -w workspace.yaml`) on the demo's Dagster instance."""
    _refuse_dbt_parse_in_checkout(dw.config_path or os.environ.get("DW_CONFIG"))
    home = dw_home() / "dagster"
    ensure_instance_yaml(home)  # a code-server startup timeout that fits a slow machine
    env = dagster_env(os.environ, home)
    if dw.config_path:
        env["DW_CONFIG"] = str(Path(dw.config_path).resolve())
    config = env.get("DW_CONFIG") or home_config() or "estate/dw.yaml (the shipped demo config)"
    click.echo(f"Dagster UI on http://127.0.0.1:{port} (DAGSTER_HOME={home}, config {config})", err=True)
    dagster = str(Path(sys.executable).parent / "dagster")
    # not exec'd: its processes stop together on a stop signal, and none outlives `dw ui`
    code = run_as_group([dagster, "dev", "-w", "workspace.yaml", "-h", "127.0.0.1", "-p", str(port)],
                        cwd=REPO_ROOT, env=env, what="dagster dev")
    sys.stdout.flush()
    sys.stderr.flush()
    # nothing of ours is left to clean up, and unloading the ~1,000 modules `dw` imported costs
    # seconds of a busy machine after Dagster has stopped (0.6 s CPU, 3.4 s wall at load 30)
    os._exit(code)


def _refuse_dbt_parse_in_checkout(config_path: str | None) -> None:
    """The code location would load without the estate's dbt models (it never parses in this checkout):
    say so before starting a UI that would show an estate without them."""
    refusal = checkout_parse_refusal(load_settings(config_path))
    if refusal is not None:
        raise click.ClickException(refusal)


commands = [demo, ui]
