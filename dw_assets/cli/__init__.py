"""The `dw` command line. Every command takes `--json` for stable machine-readable output.

Each command group lives in its own module and exports `commands` (a list of click commands);
this module only merges them, so a group can be added without touching the others.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

import click
import sqlalchemy as sa

from dw_assets.config import ConfigError, Settings, load_settings
from dw_assets.core.secrets import redact_url
from dw_assets.store import state_url
from dw_assets.store.preflight import StateDatabaseError, explain

_GROUP_MODULES = [
    "dw_assets.cli.graph_cmds",
    "dw_assets.cli.airflow_cmds",
    "dw_assets.cli.lineage_cmds",
    "dw_assets.cli.incident_cmds",
    "dw_assets.cli.governance_cmds",
    "dw_assets.cli.demo_cmds",
    "dw_assets.cli.tools_cmds",
    "dw_assets.cli.config_cmds",
]


class DwContext:
    """Carried on click's context: the config path, loaded on first use (not at import)."""

    def __init__(self, config_path: str | None):
        self.config_path = config_path
        self._settings: Settings | None = None

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            self._settings = load_settings(self.config_path)
        return self._settings


pass_dw = click.make_pass_decorator(DwContext)


def emit_json(payload: Any) -> None:
    """Stable JSON: sorted keys, ISO dates, two-space indent."""
    click.echo(json.dumps(payload, indent=2, sort_keys=True, default=str))


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


for _name in _GROUP_MODULES:
    for _command in importlib.import_module(_name).commands:
        cli.add_command(_command)


def main() -> None:
    cli()
