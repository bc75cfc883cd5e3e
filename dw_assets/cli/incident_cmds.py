"""`dw incidents list|show` and `dw checks run|accept-schema`.

JSON shapes (`--json`): `incidents list` -> a list of incident summaries (id, status, severity,
dataset_id, owner, trigger_kind, title, created_at, updated_at); `incidents show` -> the full
incident (`Incident.to_dict()`: every key, including causes, path, blast_radius and
proposed_fixes, present even when empty); `checks run` -> {"dataset", "partition", "results": [{check,
dataset, partition, passed, severity, summary, metadata, incident_id}]}.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime

import click

from dw_assets.checks.runner import find_entry, run_dataset_checks
from dw_assets.checks.schema_drift import current_schema
from dw_assets.checks.state import accept_partition, accept_schema
from dw_assets.checks.volume import partition_key, partition_label
from dw_assets.cli.context import emit_json, pass_dw
from dw_assets.connectors.warehouse import Warehouse, WarehouseError
from dw_assets.governance.receipt_log import ReceiptLog
from dw_assets.incidents import IncidentNotFound, IncidentStore
from dw_assets.store import open_state

_SUMMARY_KEYS = ("id", "status", "severity", "dataset_id", "owner", "trigger_kind", "title", "created_at",
                 "updated_at")


def _incident_store(settings):
    return IncidentStore(open_state(settings))


@click.group("incidents")
def incidents_group() -> None:
    """Incidents opened by checks, lineage failures and Airflow failures."""


@incidents_group.command("list")
@click.option("--status", "status", default=None, help="Only incidents in this status (e.g. open, resolved).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_dw
def list_incidents(dw, status: str | None, as_json: bool) -> None:
    try:
        found = _incident_store(dw.settings).list(status=status)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--status") from exc
    rows = [{k: v for k, v in i.to_dict().items() if k in _SUMMARY_KEYS} for i in found]
    if as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo("no incidents" + (f" with status {status}" if status else ""))
        return
    click.echo(f"{'ID':<18} {'STATUS':<18} {'SEV':<8} {'DATASET':<30} {'OWNER':<14} TITLE")
    for r in rows:
        click.echo(f"{r['id']:<18} {r['status']:<18} {r['severity']:<8} {(r['dataset_id'] or '-'):<30} "
                   f"{(r['owner'] or '-'):<14} {r['title'][:70]}")


@incidents_group.command("show")
@click.argument("incident_id")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_dw
def show_incident(dw, incident_id: str, as_json: bool) -> None:
    try:
        incident = _incident_store(dw.settings).get(incident_id)
    except IncidentNotFound as exc:
        click.echo(f"dw: {exc}", err=True)
        sys.exit(1)
    data = incident.to_dict()
    if as_json:
        emit_json(data)
        return
    click.echo(f"{data['id']}  [{data['status']}]  severity {data['severity']}")
    click.echo(f"  {data['title']}")
    click.echo(f"  dataset {data['dataset_id'] or '-'}   owner {data['owner'] or '-'}   trigger {data['trigger_kind']}")
    click.echo(f"  window  {data['window_start']} .. {data['window_end']}")
    click.echo(f"  signals ({len(data['signals'])}):")
    for s in data["signals"]:
        click.echo(f"    {s['observed_at']}  {s['source']}: {s['summary']}")
    for key in ("causes", "path", "blast_radius", "proposed_fixes", "run_links"):
        click.echo(f"  {key}: " + ("none yet" if not data[key] else f"{len(data[key])}"))
        for item in data[key]:
            click.echo(f"    - {_one_line(item)}")
    if data["plan_id"]:
        click.echo(f"  plan {data['plan_id']}")
    click.echo("  history:")
    for t in data["history"]:
        click.echo(f"    {t['at']}  {t['from_status'] or '(new)'} -> {t['to_status']}  by {t['actor']}"
                   + (f": {t['note']}" if t["note"] else ""))


def _one_line(item) -> str:
    if isinstance(item, dict):
        for key in ("summary", "label", "title", "kind", "node_id", "source"):
            if item.get(key):
                rest = {k: v for k, v in item.items() if k in ("confidence", "owner", "target", "system")}
                return f"{item[key]}" + (f"  {rest}" if rest else "")
    return str(item)[:160]


@click.group("checks")
def checks_group() -> None:
    """Run the configured data checks outside Dagster; accept a new schema."""


@checks_group.command("run")
@click.argument("dataset")
@click.option("--partition", default=None,
              help="YYYY-MM-DD, or an hour YYYY-MM-DDTHH for an hourly check (default: the latest partition).")
@click.option("--no-record", is_flag=True, help="Do not send failures to incident intake.")
@click.option("--as-of", "as_of", default=None,
              help="Judge freshness as of this ISO time (e.g. 2026-10-01T12:00:00+00:00; default: now).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_dw
def run_checks(dw, dataset: str, partition: str | None, no_record: bool, as_of: str | None, as_json: bool) -> None:
    runs = run_dataset_checks(dw.settings, dataset, partition=partition, record=not no_record, now=_as_of(as_of))
    if as_json:
        emit_json({"dataset": runs[0].outcome.dataset_id if runs else dataset, "partition": partition,
                   "results": [r.to_dict() for r in runs]})
    else:
        for r in runs:
            o = r.outcome
            verdict = "PASS" if o.passed else "WARN" if o.severity == "WARN" else "ERR" if "error" in o.metadata else "FAIL"
            click.echo(f"{verdict:<5} {o.check:<32} {o.summary}")
            if r.incident_id:
                click.echo(f"      -> incident {r.incident_id} (dw incidents show {r.incident_id})")
    if any(r.outcome.actionable for r in runs):
        sys.exit(1)


def _as_of(value: str | None):
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError as exc:
        raise click.BadParameter(f"{value!r} is not an ISO time like 2026-10-01T12:00:00+00:00",
                                 param_hint="--as-of") from exc
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@checks_group.command("accept-schema")
@click.argument("dataset")
@click.option("--as", "actor", default="cli", help="Who accepts the schema (recorded).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_dw
def accept_schema_cmd(dw, dataset: str, actor: str, as_json: bool) -> None:
    """Accept the dataset's current schema as the one schema drift compares against."""
    settings = dw.settings
    entry = find_entry(settings, dataset)
    source = entry.schema_drift.source if entry.schema_drift else "warehouse"
    store = open_state(settings)
    columns, came_from = current_schema(Warehouse.from_settings(settings), store, entry.dataset, source)
    if not columns:
        click.echo(f"dw: {entry.dataset} has no columns ({came_from}); nothing to accept", err=True)
        sys.exit(1)
    accept_schema(store, entry.dataset, columns, actor=actor)
    if as_json:
        emit_json({"dataset": entry.dataset, "source": came_from, "accepted_by": actor,
                   "columns": [{"name": n, "type": t} for n, t in columns]})
    else:
        click.echo(f"accepted {len(columns)} columns of {entry.dataset} ({came_from}) as its schema")


@checks_group.command("accept")
@click.argument("dataset")
@click.argument("partition")
@click.option("--as", "actor", required=True, help="Who accepts the partition as legitimate (recorded).")
@click.option("--note", default="", help="Why it is legitimate (kept with the record and the receipt).")
@click.option("--shift", is_flag=True, help="It starts a new normal level: re-baseline from it at once.")
@click.option("--shape", is_flag=True,
              help="The weekly pattern changed from it for good (a weekend moved, Sundays opened): every "
                   "weekday's share is re-learned from its occurrences since, a weekday not seen since is "
                   "judged with a wider band. Daily checks only; combines with --shift (a new level too).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_dw
def accept_partition_cmd(dw, dataset: str, partition: str, actor: str, note: str, shift: bool, shape: bool,
                         as_json: bool) -> None:
    """Mark a flagged PARTITION of DATASET as legitimate: it passes and joins the volume history."""
    settings = dw.settings
    entry = find_entry(settings, dataset)
    grain = entry.volume.grain if entry.volume else "day"
    if shape and grain != "day":
        raise click.BadParameter(f"{entry.dataset}'s volume check is {grain}ly: --shape is for daily series "
                                 "(a weekday's share)", param_hint="--shape")
    zone = entry.volume.timezone if entry.volume else "UTC"  # an hourly key is a wall-clock hour of the check's zone
    try:
        label = partition_label(partition_key(partition, grain, zone), grain, zone)
    except WarehouseError as exc:
        raise click.BadParameter(str(exc), param_hint="PARTITION") from exc
    if not actor.strip():
        raise click.BadParameter("name who accepts it", param_hint="--as")
    store = open_state(settings)
    now = datetime.now(UTC)
    record = accept_partition(store, entry.dataset, label, actor=actor, note=note, shift=shift, shape=shape, now=now)
    receipt = ReceiptLog.from_settings(store, settings).append(
        "partition_accepted", now=now, subject=f"{entry.dataset}:{label}", actor=actor,
        body={"dataset": entry.dataset, "partition": label, "shift": shift, "shape": shape, "note": note})
    record["receipt_seq"] = receipt.seq
    if as_json:
        emit_json(record)
    else:
        kind = " and ".join(k for k, on in (("a new level", shift), ("a new weekly pattern", shape)) if on)
        kind = f"as the start of {kind}" if kind else "as legitimate"
        click.echo(f"accepted {entry.dataset} {label} {kind} by {actor} (receipt #{receipt.seq}); "
                   f"it joins the volume history")


commands: list = [incidents_group, checks_group]
