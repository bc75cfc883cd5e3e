"""The `dw` command line. Every command takes `--json` for stable machine-readable output.

Each command group lives in its own module and exports `commands` (a list of click commands);
this module only merges them, so a group can be added without touching the others. What the
groups share (the loaded config on click's context, the JSON output) is in `cli.context`.
"""

from __future__ import annotations

import sys
from typing import Any

import click
import sqlalchemy as sa

from dw_assets.cli import (
    airflow_cmds,
    config_cmds,
    demo_cmds,
    governance_cmds,
    graph_cmds,
    incident_cmds,
    lineage_cmds,
    tools_cmds,
)
from dw_assets.cli.context import DwContext
from dw_assets.config import ConfigError
from dw_assets.core.secrets import redact_url
from dw_assets.store import state_url
from dw_assets.store.preflight import StateDatabaseError, explain

GROUPS = (graph_cmds, airflow_cmds, lineage_cmds, incident_cmds, governance_cmds, demo_cmds, tools_cmds, config_cmds)


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ConfigError as exc:
            click.echo(f"dw: config error: {redact_url(str(exc))}", err=True)
            sys.exit(2)
        except StateDatabaseError as exc:
            click.echo(f"dw: {exc}", err=True)
            sys.exit(2)
        except sa.exc.SQLAlchemyError as exc:  # met mid-command: one sentence, not a traceback
            click.echo(f"dw: {explain(exc, _state_url(ctx))}", err=True)
            sys.exit(2)


def _state_url(ctx: click.Context) -> str:
    try:
        return state_url(ctx.obj.settings)
    except (ConfigError, AttributeError):
        return "(state.url)"


@click.group(cls=_Group)
@click.option("--config", "config_path", envvar="DW_CONFIG", default=None,
              help="Path to dw.yaml (default: $DW_CONFIG, else the demo estate's estate/dw.yaml).")
@click.pass_context
def cli(ctx: click.Context, config_path: str | None) -> None:
    """Data Workers for Dagster: notice, explain, fix, rerun (with approval) and verify."""
    ctx.obj = DwContext(config_path)


for _group in GROUPS:
    for _command in _group.commands:
        cli.add_command(_command)


def main() -> None:
    cli()
