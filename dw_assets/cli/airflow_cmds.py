"""dw airflow: what the configured Airflow instances ran (`dw airflow runs`)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import click

from dw_assets.cli.context import emit_json, pass_dw
from dw_assets.config import ConfigError, resolve_env
from dw_assets.connectors.airflow import AirflowClient, AirflowError
from dw_assets.core.secrets import redact_url

_RELATIVE = re.compile(r"(\d+(?:\.\d+)?)\s*([smhdw])")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_since(value: str, now: datetime) -> datetime:
    """`2h`, `30m`, `7d` (ago), or an ISO date / date-time (UTC when it has no offset)."""
    match = _RELATIVE.fullmatch(value.strip().lower())
    if match:
        return now - timedelta(**{_UNITS[match.group(2)]: float(match.group(1))})
    try:
        when = datetime.fromisoformat(value.strip())
    except ValueError:
        raise click.BadParameter(f"{value!r} is neither a duration like 2h / 30m / 7d nor an ISO date-time "
                                 "like 2026-09-30 or 2026-09-30T04:00:00+00:00", param_hint="--since") from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def collect_runs(client: AirflowClient, since: datetime, dag_id: str) -> dict[str, Any]:
    """Runs touched since `since` with their task instances, as the stable JSON shape."""
    runs = client.list_dag_runs(dag_id, updated_since=since, order_by="id")
    return {
        "name": client.name, "url": client.display_url, "api_version": client.api_version,
        "airflow_version": client.airflow_version, "error": None,
        "runs": [{**run.to_json(), "url": client.ui_url(run.dag_id, run.run_id),
                  "task_instances": [ti.to_json() for ti in client.list_task_instances(run.dag_id, run.run_id)]}
                 for run in runs],
    }


def _url(raw: str) -> str:
    try:
        return redact_url(resolve_env(raw))
    except ConfigError:
        return redact_url(raw)


def _short(iso: str | None) -> str:
    if not iso:
        return "-"
    return datetime.fromisoformat(iso).astimezone(UTC).strftime("%Y-%m-%d %H:%M:%SZ")


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}s"


def _print_instance(report: dict[str, Any]) -> None:
    if report["error"]:
        click.echo(f"{report['name']} ({report['url']}): ERROR {report['error']}", err=True)
        return
    click.echo(f"{report['name']}  Airflow {report['airflow_version']} (/api/{report['api_version']})  "
               f"{len(report['runs'])} run(s)")
    for run in report["runs"]:
        conf = f"  conf={json.dumps(run['conf'], sort_keys=True)}" if run["conf"] else ""
        click.echo(f"  {run['dag_id']:<20} {run['run_id']:<44} {run['state'] or '-':<8} "
                   f"{_short(run['start_date']):<20} {_seconds(run['duration_s']):>8}{conf}")
        for ti in run["task_instances"]:
            mapped = f"[{ti['map_index']}]" if ti["map_index"] >= 0 else ""
            click.echo(f"      {ti['task_id'] + mapped:<30} {ti['state'] or '-':<16} try {ti['try_number']}  "
                       f"{_seconds(ti['duration'])}")


@click.group("airflow")
def airflow() -> None:
    """Read the configured Airflow instances."""


@airflow.command("runs")
@click.option("--instance", "instance_name", default=None, help="Only this instance (default: all configured).")
@click.option("--since", default="24h", show_default=True,
              help="Runs updated since: a duration (2h, 30m, 7d) or an ISO date-time.")
@click.option("--dag", "dag_id", default="~", help="Only this DAG (default: all DAGs).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (shape in docs/airflow.md).")
@pass_dw
def runs(dw: Any, instance_name: str | None, since: str, dag_id: str, as_json: bool) -> None:
    """DAG runs with their task instances, per Airflow instance."""
    settings = dw.settings
    since_at = parse_since(since, datetime.now(UTC))
    chosen = [settings.airflow_instance(instance_name)] if instance_name else list(settings.airflow.instances)
    reports = []
    for inst in chosen:
        try:
            with AirflowClient(inst) as client:
                reports.append(collect_runs(client, since_at, dag_id))
        except AirflowError as exc:
            reports.append({"name": inst.name, "url": _url(inst.url), "api_version": None, "airflow_version": None,
                            "error": redact_url(str(exc)), "runs": []})
    if as_json:
        emit_json({"since": since_at.isoformat(), "dag_id": dag_id, "instances": reports})
    else:
        if not chosen:
            click.echo("no Airflow instances configured (airflow.instances in the config)")
        for report in reports:
            _print_instance(report)
    if any(r["error"] for r in reports):
        raise SystemExit(1)


commands: list[click.Command] = [airflow]
