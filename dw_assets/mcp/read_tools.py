"""The read tools: lineage, blast radius, diagnosis, incidents, metrics, receipts. None writes.

Each handler calls the code the CLI and the Dagster code location call (the context graph,
`diagnosis.diagnose`, the checks' evaluate functions, the receipt log); diagnosis here never
persists (`persist=False`), so a read-only server changes nothing anywhere.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from dw_assets import pr_impact
from dw_assets.checks.freshness import evaluate_freshness
from dw_assets.checks.runner import find_entry, run_dataset_checks
from dw_assets.checks.volume import evaluate_volume
from dw_assets.connectors.dbt import load_artifact
from dw_assets.connectors.warehouse import Warehouse
from dw_assets.context_graph import ensure_manifest
from dw_assets.core.blast_radius import BlastRadius
from dw_assets.core.evidence import Symptom
from dw_assets.core.graph import ContextGraph
from dw_assets.core.incidents import FINAL, STATUSES
from dw_assets.diagnosis.service import diagnose as diagnose_symptom
from dw_assets.diagnosis.service import diagnose_incident
from dw_assets.governance.receipt_log import ReceiptLog
from dw_assets.mcp.context import ToolContext, ToolFailure, ToolSpec
from dw_assets.pr_impact import dialect_of
from dw_assets.pr_impact.impact import column_readers

_DEPTH = {"type": "integer", "minimum": 0, "maximum": 50, "default": 10,
          "description": "Hops to follow (Airflow tasks and jobs in between cost nothing)."}
_ASSET = {"type": "string", "minLength": 1,
          "description": "Canonical id (finance.bronze.gl_entries), alias, dbt unique_id, exposure label or a "
                         "unique short name (fct_revenue)."}
CHANGE_TYPES = {
    "column_removed": (True, "readers selecting the column fail or lose it"),
    "column_renamed": (True, "readers selecting the old name fail"),
    "column_type_changed": (True, "readers casting or aggregating the column may fail or change values"),
    "column_added": (False, "no reader breaks; `select *` readers see one more column"),
    "logic_changed": (False, "no reader fails, but every number downstream may change"),
    "model_removed": (True, "every reader fails"),
    "data_incident": (False, "readers show wrong numbers until the data is fixed"),
}
_COLUMN_CHANGES = {"column_removed", "column_renamed", "column_type_changed", "column_added"}


def trace_lineage(ctx: ToolContext, assetId: str, direction: str = "upstream", maxDepth: int = 10,
                  includeOrchestration: bool = False) -> dict[str, Any]:
    return ctx.graph().trace(assetId, direction=direction, max_depth=maxDepth,
                             include_orchestration=includeOrchestration).to_dict()


def blast_radius_analysis(ctx: ToolContext, assetId: str | None = None, maxDepth: int = 10,
                          changeType: str | None = None, columnName: str | None = None,
                          prDiff: str | None = None) -> dict[str, Any]:
    if prDiff:
        report = pr_impact.for_diff(ctx.settings, prDiff, max_depth=maxDepth, store=pr_impact.graph_store(ctx.settings))
        return {"source": "prDiff", **report, "comment_markdown": pr_impact.render_markdown(report)}
    if not assetId:
        raise ToolFailure("invalid_arguments", "pass assetId (an asset to analyse) or prDiff (a unified diff)")
    if changeType in _COLUMN_CHANGES and not columnName:
        raise ToolFailure("invalid_arguments", f"changeType {changeType} needs columnName")
    graph = ctx.graph()
    radius = graph.blast_radius(assetId, max_depth=maxDepth)
    out = {"source": "asset", **radius.to_dict()}
    if changeType or columnName:
        out.update(_change_annotations(ctx, graph, radius, changeType, columnName))
    return out


def _change_annotations(ctx: ToolContext, graph: ContextGraph, radius: BlastRadius, change_type: str | None,
                        column: str | None) -> dict[str, Any]:
    """What the change does to the radius: which models select the column, what sits below them."""
    breaking, effect = CHANGE_TYPES.get(change_type or "", (None, "a change to one column"))
    change: dict[str, Any] = {"type": change_type, "column": column, "breaking": breaking, "effect": effect}
    if change_type == "column_added":
        return {"change": change, "column_readers": {}, "narrowed": []}
    if not column:
        return {"change": change, "column_readers": {}, "narrowed": [a.id for a in radius.affected]}
    readers = column_readers(graph, load_artifact(ensure_manifest(ctx.settings)), radius.root, [column],
                             dialect=dialect_of(ctx.settings), max_depth=radius.max_depth or 10)
    cols = radius.columns  # whole columns: a large radius has 20k+ nodes
    if cols is None:  # only a radius built by hand lacks them; a graph's walk always has them
        raise ToolFailure("internal_error", f"the blast radius of {radius.root} carries no node columns")
    ids = cols.ids()
    change["models_not_selecting_it"] = [i for i, kind in zip(ids, cols.kinds()) if kind == "model" and i not in readers]
    narrowed = [i for i, hit in zip(ids, cols.passes_through(readers).tolist()) if hit]
    return {"change": change, "column_readers": readers, "narrowed": narrowed}


def diagnose(ctx: ToolContext, incidentId: str | None = None, datasetId: str | None = None) -> dict[str, Any]:
    settings, store = ctx.settings, ctx.store
    if not incidentId:
        dataset = ctx.graph().resolve(datasetId or "")
        live = [i for i in ctx.incidents().list(dataset_id=dataset) if i.status not in FINAL]
        if not live:
            symptom = Symptom("check_failed", dataset, datetime.now(UTC), f"diagnosis asked for {dataset}")
            return {"incident_id": None, **diagnose_symptom(settings, store, symptom).to_dict()}
        incidentId = live[0].id
    return diagnose_incident(settings, store, incidentId, persist=False).to_dict()


def list_incidents(ctx: ToolContext, status: str | None = None) -> dict[str, Any]:
    keys = ("id", "status", "severity", "dataset_id", "owner", "trigger_kind", "title", "created_at", "updated_at")
    found = ctx.incidents().list(status=status)
    return {"incidents": [{k: v for k, v in i.to_dict().items() if k in keys} for i in found]}


def get_incident(ctx: ToolContext, incidentId: str) -> dict[str, Any]:
    return ctx.incidents().get(incidentId).to_dict()


def monitor_metrics(ctx: ToolContext, datasetId: str, metric: str = "volume", window: int | None = None,
                    partition: str | None = None) -> dict[str, Any]:
    settings, store = ctx.settings, ctx.store
    entry = find_entry(settings, datasetId)
    if metric == "all":
        runs = run_dataset_checks(settings, entry.dataset, partition=partition, record=False, store=store)
        return {"dataset": entry.dataset, "metric": "all", "checks": [r.outcome.to_dict() for r in runs]}
    cfg = getattr(entry, metric)
    if cfg is None:
        raise ToolFailure("not_configured", f"no {metric} check is configured for {entry.dataset} in "
                                            f"{settings.path}: add `{metric}:` under its checks entry")
    warehouse = Warehouse.from_settings(settings)
    if metric == "volume":
        if window:
            cfg = cfg.model_copy(update={"history": window, "min_history": min(cfg.min_history, window)})
        return _volume_view(evaluate_volume(warehouse, store, entry.dataset, cfg, partition))

    outcome = evaluate_freshness(warehouse, store, entry.dataset, cfg, partition, datetime.now(UTC))
    return {"metric": "freshness", **outcome.to_dict()}


def _volume_view(outcome: Any) -> dict[str, Any]:
    meta = outcome.metadata
    band = None
    if "expected_lower" in meta:
        band = {"lower": meta["expected_lower"], "upper": meta["expected_upper"], "rule": meta["band_rule"]}
    return {"metric": "volume", "dataset": outcome.dataset_id, "partition": outcome.partition,
            "passed": outcome.passed, "severity": outcome.severity, "summary": outcome.summary,
            "observed": meta.get("observed"), "history": meta.get("history", []), "baseline": meta.get("baseline"),
            "band": band, "ratio": meta.get("ratio"), "period": meta.get("period"),
            "excluded_partitions": meta.get("excluded_partitions", [])}


def get_receipt(ctx: ToolContext, seq: int | None = None, receiptId: str | None = None) -> dict[str, Any]:
    log = ReceiptLog.from_settings(ctx.store, ctx.settings)
    wanted = seq if seq is not None else (int(receiptId) if receiptId and receiptId.isdigit() else None)
    if wanted is not None:
        receipt = log.get(wanted)
    elif receiptId and len(receiptId) >= 8:
        receipt = next((r for r in log.iter_receipts() if r.hash.startswith(receiptId.lower())), None)
    else:
        raise ToolFailure("invalid_arguments", "pass seq (a number) or receiptId (a seq, or 8+ hex digits of a hash)")
    if receipt is None:
        raise ToolFailure("not_found", f"no receipt {seq if seq is not None else receiptId!r} in the chain")
    return {**receipt.record, "hash": receipt.hash, "signature": receipt.signature}


def verify_receipts(ctx: ToolContext) -> dict[str, Any]:
    return ReceiptLog.from_settings(ctx.store, ctx.settings).verify().as_dict()


def _object(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required or [], "additionalProperties": False,
            **extra}


READ_TOOLS = [
    ToolSpec("trace_cross_platform_lineage", "Trace lineage across dbt, Airflow, OpenLineage and notes",
             "Upstream and/or downstream lineage of an asset, each edge labelled with where it came from "
             "(dbt manifest, OpenLineage, Airflow config, a team note with author and source). Read-only.",
             _object({"assetId": _ASSET,
                      "direction": {"type": "string", "enum": ["upstream", "downstream", "both"], "default": "upstream"},
                      "maxDepth": _DEPTH,
                      "includeOrchestration": {"type": "boolean", "default": False,
                                               "description": "List Airflow tasks/DAGs and jobs as nodes."}},
                     ["assetId"]),
             trace_lineage),
    ToolSpec("blast_radius_analysis", "Blast radius: what breaks downstream, owners, severity",
             "Everything downstream of an asset (models, dashboards, recorded readers) with owner, depth and "
             "severity. changeType/columnName annotate it: a column change lists the downstream models that "
             "select that column (and narrows to what sits below them). prDiff: a unified diff whose changed "
             "dbt files are mapped to assets and columns, as `dw pr-impact` does. Read-only.",
             _object({"assetId": _ASSET, "maxDepth": _DEPTH,
                      "changeType": {"type": "string", "enum": sorted(CHANGE_TYPES)},
                      "columnName": {"type": "string", "minLength": 1},
                      "prDiff": {"type": "string", "minLength": 1,
                                 "description": "A unified diff (git diff) against the estate's repository."}},
                     anyOf=[{"required": ["assetId"]}, {"required": ["prDiff"]}]),
             blast_radius_analysis),
    ToolSpec("diagnose_incident", "Diagnose an incident: ranked causes, path, readers, fixes",
             "Collects evidence (Airflow runs, OpenLineage events, the warehouse, the landing zone, git) and "
             "ranks causes with the facts for and against each; proposes fixes as diffs checked with "
             "`git apply --check`. Give incidentId, or datasetId (its open incident, else a fresh look). "
             "Read-only: the result is returned, not recorded.",
             _object({"incidentId": {"type": "string", "minLength": 1},
                      "datasetId": {"type": "string", "minLength": 1}},
                     oneOf=[{"required": ["incidentId"]}, {"required": ["datasetId"]}]),
             diagnose),
    ToolSpec("list_incidents", "List incidents", "Incident summaries, newest first. Read-only.",
             _object({"status": {"type": "string", "enum": list(STATUSES)}}), list_incidents),
    ToolSpec("get_incident", "Get one incident",
             "An incident with its signals, causes, path, blast radius, proposed fixes, runs and history. Read-only.",
             _object({"incidentId": {"type": "string", "minLength": 1}}, ["incidentId"]), get_incident),
    ToolSpec("monitor_metrics", "Volume history, baseline and expected band of a dataset",
             "Row counts of the comparable partitions before the checked one, their median baseline and the "
             "expected band (wider of the ratio band and k*MAD), as the volume check computes them; or the "
             "freshness check, or every configured check (metric=all, nothing recorded). Read-only.",
             _object({"datasetId": {"type": "string", "minLength": 1},
                      "metric": {"type": "string", "enum": ["volume", "freshness", "all"], "default": "volume"},
                      "window": {"type": "integer", "minimum": 1, "maximum": 60,
                                 "description": "How many comparable partitions form the history (volume)."},
                      "partition": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$",
                                    "description": "YYYY-MM-DD; default the latest partition."}},
                     ["datasetId"]),
             monitor_metrics),
    ToolSpec("get_receipt", "Get a receipt from the tamper-evident chain",
             "One receipt (what was done, by whom, with hash and signature) by seq or hash prefix. Read-only.",
             _object({"seq": {"type": "integer", "minimum": 1}, "receiptId": {"type": "string", "minLength": 1}},
                     anyOf=[{"required": ["seq"]}, {"required": ["receiptId"]}]),
             get_receipt),
    ToolSpec("verify_receipts", "Verify the receipt chain",
             "Recomputes every hash and signature; names the first record that was edited, removed or "
             "reordered. Read-only.", _object({}), verify_receipts),
]
