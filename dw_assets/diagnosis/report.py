"""`dw report`: every failed or flagged run since a date, with its cause, blast radius and the fix
that would have been proposed. A read-only first win on an estate: it writes nothing.

Sources, each optional (a missing one becomes a line under `gaps`): incidents in the state store,
OpenLineage FAIL events not already part of an incident, failed Airflow runs (every configured
instance). The state store is opened read-only (SQLite `mode=ro`, PostgreSQL read-only
transactions), so even schema creation is impossible; diagnosis runs with `persist=False`.
"""

from __future__ import annotations

import html
import json
import threading
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from dw_assets.config import Settings
from dw_assets.connectors.airflow import clients_from_settings
from dw_assets.connectors.airflow.api import AirflowApi
from dw_assets.connectors.openlineage.event_store import LineageEventStore
from dw_assets.core.evidence import Symptom
from dw_assets.core.graph import ContextGraph
from dw_assets.core.identity import canonical_dataset_id
from dw_assets.diagnosis.service import diagnose, symptom_from_incident
from dw_assets.diagnosis.sources import event_dataset_ids
from dw_assets.incidents import IncidentStore
from dw_assets.store import Store, state_url

FORMATS = ("md", "html", "json")


class ReadOnlyStore(Store):
    """The state store, opened so that nothing can be written (not even missing tables)."""

    def __init__(self, url: str):
        self.url = url
        if url.startswith("sqlite:///"):
            path = url.removeprefix("sqlite:///")
            self.engine = sa.create_engine(f"sqlite:///file:{path}?mode=ro&uri=true")
        else:
            pg = "postgresql+psycopg://" + url.removeprefix("postgresql://") if url.startswith("postgresql://") else url
            self.engine = sa.create_engine(pg).execution_options(postgresql_readonly=True)
        self._schema_lock = threading.Lock()
        self._schema_ready = True

    def ensure_schema(self) -> None:  # tables that do not exist hold nothing to report
        return None


def open_read_only_store(settings: Settings) -> Store | None:
    url = state_url(settings)
    if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).exists():
        return None
    return ReadOnlyStore(url)


def build_report(settings: Settings, since: datetime, *, until: datetime | None = None, store: Store | None = None,
                 airflow_clients: Mapping[str, AirflowApi] | None = None, graph: ContextGraph | None = None) -> dict[str, Any]:
    until = until or datetime.now(UTC)
    store = store if store is not None else open_read_only_store(settings)
    gaps: list[str] = [] if store is not None else ["state store: none yet (no incidents or lineage recorded)"]
    items = _collect_items(settings, store, since, until, airflow_clients, gaps)
    entries = []
    for source, ref, symptom in items:
        result = diagnose(settings, store, symptom, incident_id=ref if source == "incident" else None, graph=graph,
                          airflow_clients=airflow_clients)
        entries.append(_entry(source, ref, result))
    return {"since": since.isoformat(), "until": until.isoformat(), "count": len(entries), "items": entries,
            "gaps": gaps}


def _collect_items(settings, store, since, until, clients, gaps) -> list[tuple[str, str, Symptom]]:
    items: list[tuple[str, str, Symptom]] = []
    seen_runs: set[str] = set()
    if store is not None:
        try:
            for incident in IncidentStore(store).list():
                if since <= incident.window_start <= until:  # when it happened, not when we heard
                    items.append(("incident", incident.id, symptom_from_incident(incident)))
                    seen_runs |= {str((s.get("details") or {}).get("run_id")) for s in incident.signals}
        except Exception as exc:  # noqa: BLE001  a store without incidents yet still gets a report
            gaps.append(f"incidents: {type(exc).__name__}: {str(exc)[:200]}")
        items += _guard(gaps, "openlineage", lambda: _fail_events(settings, store, since, until, seen_runs))
    items += _guard(gaps, "airflow", lambda: _failed_airflow_runs(settings, since, until, clients, seen_runs))
    return items


def _guard(gaps: list[str], name: str, fn) -> list:
    try:
        return fn()
    except Exception as exc:  # noqa: BLE001  one unreachable source must not stop the report
        gaps.append(f"{name}: {type(exc).__name__}: {str(exc)[:200]}")
        return []


def _fail_events(settings, store, since, until, seen_runs) -> list[tuple[str, str, Symptom]]:
    out = []
    for ev in LineageEventStore(store).query(since=since, limit=1000):
        if ev.event_type != "FAIL" or ev.event_time > until or ev.run_id in seen_runs:
            continue
        facets = (ev.event.get("run") or {}).get("facets") or {}
        message = (facets.get("errorMessage") or {}).get("message")
        outputs = event_dataset_ids(settings, ev.event.get("outputs"))
        out.append(("openlineage", ev.run_id or str(ev.seq), Symptom(
            "failure", outputs[0] if outputs else None, ev.event_time, f"{ev.job_name} failed", job=ev.job_name,
            error_message=message)))
    return out


def _failed_airflow_runs(settings, since, until, clients, seen_runs) -> list[tuple[str, str, Symptom]]:
    if not settings.airflow.instances:
        return []

    clients = clients if clients is not None else clients_from_settings(settings)
    out = []
    for client in clients.values():
        for run in client.list_dag_runs("~", end_date_since=since, states=["failed"]):
            if run.run_id in seen_runs or not run.end_date or run.end_date > until:
                continue
            failed = [t.task_id for t in client.list_task_instances(run.dag_id, run.run_id) if t.state == "failed"]
            job = f"{run.dag_id}.{failed[0]}" if failed else run.dag_id
            outputs = settings.airflow.task_outputs.get(job, [])
            out.append(("airflow", f"{run.dag_id}/{run.run_id}", Symptom(
                "failure", canonical_dataset_id(outputs[0]) if outputs else None, run.end_date,
                f"Airflow run {run.dag_id} {run.run_id} failed", job=job)))
    return out


def _entry(source: str, ref: str, result: Any) -> dict[str, Any]:
    top = result.top
    fix = next((f for f in result.fixes if f.kind == "diff"), result.fixes[0] if result.fixes else None)
    return {
        "source": source, "ref": ref, "observed_at": result.symptom.observed_at.isoformat(),
        "dataset": result.symptom.dataset_id, "summary": result.symptom.summary,
        "cause": {"kind": top.kind, "title": top.title, "confidence": top.confidence, "explains": top.explains},
        "blast_radius": [{"id": r.id, "kind": r.kind, "owner": r.owner, "severity": r.severity}
                         for r in result.blast_radius],
        "fix": None if fix is None else {"title": fix.title, "kind": fix.kind, "verified": fix.verified,
                                         "rationale": fix.rationale, "diff": fix.diff, "repo": fix.repo},
        "gaps": list(result.gaps),
    }


def render(report: dict[str, Any], fmt: str) -> str:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    if fmt == "json":
        return json.dumps(report, indent=2, sort_keys=True, default=str)
    return _html(report) if fmt == "html" else _markdown(report)


def _markdown(report: dict[str, Any]) -> str:
    lines = [f"# Failed and flagged runs {report['since'][:10]} .. {report['until'][:10]}", "",
             f"{report['count']} item(s)."]
    for item in report["items"]:
        cause, fix = item["cause"], item["fix"]
        lines += ["", f"## {item['summary']}", "",
                  f"- source: {item['source']} `{item['ref']}` at {item['observed_at']}",
                  f"- dataset: `{item['dataset']}`",
                  f"- cause ({cause['confidence']:.2f}): **{cause['title']}**" + (
                      f" — {cause['explains']}" if cause["explains"] else ""),
                  "- blast radius: " + (", ".join(f"`{r['id']}` ({r['owner'] or 'no owner'}, {r['severity']})"
                                                  for r in item["blast_radius"]) or "nothing downstream")]
        if fix:
            checked = {True: "applies cleanly", False: "does NOT apply", None: "not a diff"}[fix["verified"]]
            lines.append(f"- fix: {fix['title']} ({checked}): {fix['rationale']}")
            if fix["diff"]:
                lines += ["", "```diff", fix["diff"].rstrip("\n"), "```"]
    if report["gaps"]:
        lines += ["", "## Gaps", ""] + [f"- {g}" for g in report["gaps"]]
    return "\n".join(lines) + "\n"


def _html(report: dict[str, Any]) -> str:
    e = html.escape
    rows = []
    for item in report["items"]:
        cause, fix = item["cause"], item["fix"]
        radius = ", ".join(f"{r['id']} ({r['owner'] or 'no owner'})" for r in item["blast_radius"])
        diff = f"<pre>{e(fix['diff'])}</pre>" if fix and fix["diff"] else ""
        rows.append(f"<section><h2>{e(item['summary'])}</h2><p>{e(item['source'])} {e(item['ref'])} at "
                    f"{e(item['observed_at'])}; dataset {e(str(item['dataset']))}</p>"
                    f"<p><b>Cause ({cause['confidence']:.2f}):</b> {e(cause['title'])}. {e(cause['explains'] or '')}</p>"
                    f"<p><b>Blast radius:</b> {e(radius or 'nothing downstream')}</p>"
                    f"<p><b>Fix:</b> {e(fix['title'] if fix else 'none')}</p>{diff}</section>")
    gaps = "".join(f"<li>{e(g)}</li>" for g in report["gaps"])
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>Data Workers report</title></head><body>"
            f"<h1>Failed and flagged runs {e(report['since'][:10])} .. {e(report['until'][:10])}</h1>"
            f"<p>{report['count']} item(s).</p>{''.join(rows)}"
            + (f"<h2>Gaps</h2><ul>{gaps}</ul>" if gaps else "") + "</body></html>\n")
