"""dw lineage: the OpenLineage receiver, source ingestion, and what the event store holds.

`--json` shapes (stable keys):
- `events`: list of {"seq", "event_time", "event_type", "kind", "run_id", "job_namespace", "job_name",
  "source", "inputs", "outputs", "findings"} (datasets as canonical ids; findings: [[json path, problem],
  ...] for an event accepted although a facet breaks its published schema, else []), newest first.
- `rejected`: list of {"id", "received_at", "source", "reason", "body_bytes", "truncated", "body"}
  (body decoded as UTF-8 with replacement, at most 64 KiB).
- `schema-changes`: list of {"dataset_id", "column", "change", "old_type", "new_type", "event_time",
  "run_id", "job", "previous_run_id", "event_seq"}, newest first.
- `ingest`: {"sources": [{"source", "accepted", "duplicates", "rejected"}], "errors": [...], "accepted"}.
"""

from __future__ import annotations

import sys
from datetime import datetime

import click

from dw_assets.cli.context import DwContext, emit_json, pass_dw
from dw_assets.connectors.openlineage import ingest_sources
from dw_assets.connectors.openlineage.event_store import LineageEventStore
from dw_assets.connectors.openlineage.intake import dataset_id_resolver
from dw_assets.connectors.openlineage.receiver import serve
from dw_assets.lineage.schema_history import SchemaHistory
from dw_assets.store import Store, open_state


def _store(dw: DwContext) -> Store:
    return open_state(dw.settings)


def _table(rows: list[list[str]], headers: list[str]) -> None:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    click.echo("  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip())
    for row in rows:
        click.echo("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())


@click.group("lineage")
def lineage() -> None:
    """OpenLineage: receive events, read configured sources, inspect what was stored."""


@lineage.command("serve")
@click.option("--host", default=None, help="Address to bind (default: openlineage.receiver_host, 127.0.0.1).")
@click.option("--port", type=int, default=None, help="Port (default: openlineage.receiver_port).")
@click.option("--structural-only", is_flag=True,
              help="Skip full JSON-Schema validation even when openlineage.spec_dir is set (faster).")
@click.option("--strict", is_flag=True, default=None,
              help="Refuse (400) events whose facets break their published schema (default: "
                   "openlineage.strict; otherwise they are stored with the findings attached).")
@pass_dw
def serve_cmd(dw: DwContext, host: str | None, port: int | None, structural_only: bool,
              strict: bool | None) -> None:
    """Run the OpenLineage HTTP receiver (POST /api/v1/lineage, Marquez/OpenLineage-compatible)."""
    settings = dw.settings
    bind = f"{host or settings.openlineage.receiver_host}:{port or settings.openlineage.receiver_port}"
    click.echo(f"OpenLineage receiver on http://{bind}/api/v1/lineage", err=True)
    serve(settings, _store(dw), host=host, port=port, full_validation=False if structural_only else None,
          strict=strict or None)


@lineage.command("ingest")
@click.option("--json", "as_json", is_flag=True)
@pass_dw
def ingest_cmd(dw: DwContext, as_json: bool) -> None:
    """Read every configured source (file folders, Marquez) once into the store."""
    report = ingest_sources(dw.settings, _store(dw))
    if as_json:
        emit_json(report.as_dict())
    else:
        _table([[r.source, str(r.accepted), str(r.duplicates), str(r.rejected)] for r in report.reports],
               ["source", "accepted", "duplicates", "rejected"])
        for error in report.errors:
            click.echo(f"error: {error}", err=True)
    sys.exit(1 if report.errors else 0)


@lineage.command("events")
@click.option("--job", default=None, help="Job name, or namespace/name.")
@click.option("--dataset", default=None, help="Dataset (canonical id, or any name the identity rule maps).")
@click.option("--since", default=None, help="Only events at or after this ISO 8601 time.")
@click.option("--with-findings", is_flag=True, help="Only events stored with schema findings.")
@click.option("--limit", type=int, default=50, show_default=True)
@click.option("--json", "as_json", is_flag=True)
@pass_dw
def events_cmd(dw: DwContext, job: str | None, dataset: str | None, since: str | None, with_findings: bool,
               limit: int, as_json: bool) -> None:
    """Stored events, newest first."""
    try:
        since_at = datetime.fromisoformat(since) if since else None
    except ValueError:
        raise click.BadParameter(f"{since!r} is not an ISO 8601 time", param_hint="--since") from None
    events = LineageEventStore(_store(dw))
    dataset_id = _dataset(dw, events, dataset) if dataset else None
    found = events.query(job=job, dataset_id=dataset_id, since=since_at, with_findings=with_findings, limit=limit)
    rows = [_event_json(e) for e in found]
    if as_json:
        emit_json(rows)
        return
    _table([[str(r["seq"]), r["event_time"].isoformat(timespec="seconds"), r["event_type"] or r["kind"],
             f"{r['job_namespace']}/{r['job_name']}" if r["job_name"] else "-",
             ", ".join(r["inputs"]) or "-", ", ".join(r["outputs"]) or "-", str(len(r["findings"]))] for r in rows],
           ["seq", "event_time", "type", "job", "inputs", "outputs", "findings"])


def _dataset(dw: DwContext, events, name: str) -> str:
    """A canonical id, or a short name that ends exactly one known dataset id (`orders_clean`)."""
    canonical = dataset_id_resolver(dw.settings.aliases)("", name)
    matches = events.dataset_ids_ending(canonical)
    if canonical in matches:
        return canonical
    if len(matches) > 1:
        raise click.BadParameter(f"{name!r} matches several datasets: {', '.join(matches)}", param_hint="--dataset")
    return matches[0] if matches else canonical


def _event_json(stored) -> dict:
    resolve = dataset_id_resolver()
    ev = stored.event
    ids = {role: [resolve(d["namespace"], d["name"]) for d in ev.get(role) or []] for role in ("inputs", "outputs")}
    return {"seq": stored.seq, "event_time": stored.event_time, "event_type": stored.event_type,
            "kind": stored.kind, "run_id": stored.run_id, "job_namespace": stored.job_namespace,
            "job_name": stored.job_name, "source": stored.source, **ids, "findings": stored.findings}


@lineage.command("rejected")
@click.option("--limit", type=int, default=50, show_default=True)
@click.option("--json", "as_json", is_flag=True)
@pass_dw
def rejected_cmd(dw: DwContext, limit: int, as_json: bool) -> None:
    """Events that were refused, with the reason, newest first."""
    rows = LineageEventStore(_store(dw)).rejected(limit)
    for row in rows:
        row["body"] = row["body"].decode("utf-8", "replace")
    if as_json:
        emit_json(rows)
        return
    _table([[str(r["id"]), r["received_at"].isoformat(timespec="seconds"), r["source"],
             r["reason"][:100]] for r in rows], ["id", "received_at", "source", "reason"])


@lineage.command("schema-changes")
@click.option("--dataset", default=None, help="Only this dataset (canonical id, or any name that maps to it).")
@click.option("--limit", type=int, default=100, show_default=True)
@click.option("--json", "as_json", is_flag=True)
@pass_dw
def schema_changes_cmd(dw: DwContext, dataset: str | None, limit: int, as_json: bool) -> None:
    """Column changes seen in OpenLineage schema facets (added, dropped, type changed)."""
    store = _store(dw)
    dataset_id = _dataset(dw, LineageEventStore(store), dataset) if dataset else None
    rows = SchemaHistory(store).changes(dataset_id, limit)
    if as_json:
        emit_json(rows)
        return
    _table([[r["event_time"].isoformat(timespec="seconds"), r["dataset_id"], r["column"], r["change"],
             r["old_type"] or "-", r["new_type"] or "-", r["job"] or "-"] for r in rows],
           ["event_time", "dataset", "column", "change", "old", "new", "job"])


commands: list = [lineage]
