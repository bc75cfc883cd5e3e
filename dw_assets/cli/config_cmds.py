"""dw commands: `dw config check`, which loads the config and says what is wrong and where."""

from __future__ import annotations

import sys

import click

from dw_assets.cli import DwContext, emit_json, pass_dw
from dw_assets.config import ConfigError, load_settings, resolve_env


def _unresolved(settings) -> list[str]:
    """Environment references that would fail when used (reported, not fatal: a read-only command
    may never need them)."""
    problems = []
    for inst in settings.airflow.instances:
        for what, value in (("url", inst.url), ("auth.type", inst.auth.type), ("auth.username", inst.auth.username),
                            ("auth.password", inst.auth.password), ("auth.token", inst.auth.token)):
            if value:
                try:
                    resolve_env(value, what=f"airflow.instances[{inst.name}].{what}")
                except ConfigError as exc:
                    problems.append(str(exc))
    return problems


@click.group("config")
def config() -> None:
    """Inspect the config file."""


@config.command("check")
@click.option("--json", "as_json", is_flag=True)
@pass_dw
def check(dw: DwContext, as_json: bool) -> None:
    """Validate the config: exit 0 when it loads, 2 with file, key and fix for each problem."""
    try:
        settings = load_settings(dw.config_path)
    except ConfigError as exc:
        if as_json:
            emit_json({"ok": False, "errors": str(exc).splitlines()})
        else:
            click.echo(str(exc), err=True)
        sys.exit(2)
    warnings = _unresolved(settings)
    summary = {"ok": True, "path": str(settings.path), "airflow_instances": [i.name for i in settings.airflow.instances],
               "domains": {d.name: d.autonomy for d in settings.domains}, "checked_datasets": [c.dataset for c in settings.checks],
               "warnings": warnings}
    if as_json:
        emit_json(summary)
        return
    click.echo(f"{settings.path}: OK")
    click.echo(f"  Airflow instances: {', '.join(summary['airflow_instances']) or 'none'}")
    click.echo("  domains: " + ", ".join(f"{k} ({v})" for k, v in summary["domains"].items()))
    click.echo(f"  checked datasets: {len(summary['checked_datasets'])}")
    for warning in warnings:
        click.echo(f"  warning: {warning}")


commands = [config]
