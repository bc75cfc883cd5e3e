"""dw commands: `dw config check`, which loads the config and says what is wrong and where."""

from __future__ import annotations

import sys
from typing import Any

import click

from dw_assets.cli.context import DwContext, emit_json, pass_dw
from dw_assets.config import ConfigError, load_settings, resolve_env
from dw_assets.connectors.warehouse import UnsupportedWarehouse, dialect_for_url
from dw_assets.governance.keys import key_status


def _unresolved(settings) -> list[str]:
    """Environment references, in every section, that would fail when used (reported, not fatal: a
    read-only command may never need them)."""
    problems: list[str] = []

    def walk(value: Any, where: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{where}.{key}" if where else str(key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                name = (item.get("name") or item.get("dataset")) if isinstance(item, dict) else None
                walk(item, f"{where}[{name or index}]")
        elif isinstance(value, str) and "${" in value:
            try:
                resolve_env(value, what=where)
            except ConfigError as exc:
                problems.append(str(exc))

    walk(settings.model_dump(mode="json", exclude={"path"}), "")
    return problems


def _warehouse(settings) -> tuple[str | None, str | None, list[str]]:
    """(the warehouse's dialect, an error, warnings): an unsupported URL is an error here, not at the
    first check. A URL that is all one ${VARIABLE} is judged when it is used."""
    url = settings.warehouse.url
    if url.startswith("${"):
        return None, None, []
    try:
        dialect = dialect_for_url(url).name
    except UnsupportedWarehouse as exc:
        return None, str(exc), []
    warnings = [f"warehouse.attach is DuckDB's only; {dialect} ignores it (each catalog is a database there)"] \
        if settings.warehouse.attach and dialect != "duckdb" else []
    return dialect, None, warnings


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
    dialect, warehouse_error, warehouse_warnings = _warehouse(settings)
    warnings += warehouse_warnings
    key_ok, key_note = key_status(settings)
    errors = ([] if key_ok else [key_note]) + ([warehouse_error] if warehouse_error else [])
    if errors:
        if as_json:
            emit_json({"ok": False, "errors": errors, "warnings": warnings})
        else:
            for error in errors:
                click.echo(f"{settings.path}: {error}", err=True)
        sys.exit(2)
    instances = [i.name for i in settings.airflow.instances]
    domains = {d.name: d.autonomy for d in settings.domains}
    datasets = [c.dataset for c in settings.checks]
    summary = {"ok": True, "signing_key": key_note, "path": str(settings.path), "airflow_instances": instances,
               "warehouse": dialect, "domains": domains, "checked_datasets": datasets, "warnings": warnings}
    if as_json:
        emit_json(summary)
        return
    click.echo(f"{settings.path}: OK")
    click.echo(f"  Airflow instances: {', '.join(instances) or 'none'}")
    click.echo(f"  warehouse: {dialect or 'set by an environment variable'}")
    click.echo("  domains: " + ", ".join(f"{k} ({v})" for k, v in domains.items()))
    click.echo(f"  checked datasets: {len(datasets)}")
    click.echo(f"  signing key: {key_note}")
    for warning in warnings:
        click.echo(f"  warning: {warning}")


commands = [config]
