"""Who reads what a change touches: blast radius per changed asset, column readers, owners.

The graph is the context graph (`dw_assets.context_graph`) built from the dbt project the change
is in, so a pull request's new dependencies count; notes and feeds come from the config as usual.
A downstream model reads a changed column when its SQL names it (`core.fixes.references_column`);
a model that passes the column on under the same name carries it one level further down.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dw_assets.core.blast_radius import LEVELS, READER_KINDS
from dw_assets.core.fixes import references_column
from dw_assets.core.graph import ContextGraph
from dw_assets.pr_impact.changes import (
    ChangedAsset,
    FileChange,
    changed_column_names,
    map_changes,
    model_columns,
)

_RANK = {level: i for i, level in enumerate(LEVELS)}


def column_readers(graph: ContextGraph, manifest: Mapping[str, Any], root: str, columns: list[str], *,
                   dialect: str = "duckdb", max_depth: int = 10) -> dict[str, list[str]]:
    """Downstream model id -> the columns of `columns` its SQL names (models that pass a column
    on by name carry it further); readers without SQL (dashboards, notes) are never listed."""
    found: dict[str, list[str]] = {}
    carriers, depth = {root: list(columns)}, 0
    while carriers and depth < max_depth:
        depth += 1
        deeper: dict[str, list[str]] = {}
        for node_id, cols in carriers.items():
            for child in graph.trace(node_id, "downstream", max_depth=1).nodes[1:]:
                sql = _raw_code(graph, manifest, child.id)
                read = [c for c in cols if sql is not None and references_column(sql, c, dialect)]
                if sql is None or not read:
                    continue
                known = found.setdefault(child.id, [])
                known += [c for c in read if c not in known]
                passed_on = model_columns(sql, dialect) or {}
                deeper.setdefault(child.id, []).extend(c for c in read if c.lower() in passed_on)
        carriers = {k: v for k, v in deeper.items() if v}
    return found


def _raw_code(graph: ContextGraph, manifest: Mapping[str, Any], node_id: str) -> str | None:
    uid = graph.node(node_id).attrs.get("dbt_unique_id")
    node = (manifest.get("nodes") or {}).get(uid or "")
    return node.get("raw_code") if node and node.get("resource_type") in ("model", "snapshot") else None


def asset_impact(graph: ContextGraph, manifest: Mapping[str, Any], asset: ChangedAsset, *, dialect: str = "duckdb",
                 max_depth: int = 10) -> dict[str, Any]:
    """One changed asset's entry in the report: what changed and everything downstream of it."""
    entry: dict[str, Any] = {
        "unique_id": asset.unique_id, "name": asset.name, "resource_type": asset.resource_type,
        "change": asset.change, "files": asset.files, "columns": asset.columns, "id": None, "owner": None,
        "breaking": asset.change == "removed" or bool(changed_column_names(asset.columns)),
        "severity": "low", "severity_reason": "not in the head manifest's graph", "downstream": []}
    roots = _roots(graph, manifest, asset)
    if not roots:
        return entry
    entry["id"], entry["owner"] = roots[0], graph.node(roots[0]).owner
    affected: dict[str, dict[str, Any]] = {}
    verdicts = []
    for root in roots:
        radius = graph.blast_radius(root, max_depth=max_depth)
        readers = column_readers(graph, manifest, root, changed_column_names(asset.columns), dialect=dialect,
                                 max_depth=max_depth)
        verdicts.append((radius.severity, radius.severity_reason))
        for a in radius.to_dict()["affected"]:  # built from the radius's columns
            if a["id"] not in affected or a["depth"] < affected[a["id"]]["depth"]:
                affected[a["id"]] = {**a, "reads_columns": readers.get(a["id"], [])}
    entry["severity"], entry["severity_reason"] = max(verdicts, key=lambda v: _RANK[v[0]])
    entry["downstream"] = sorted(affected.values(), key=lambda a: (-_RANK[a["severity"]], a["depth"], a["id"]))
    return entry


def _roots(graph: ContextGraph, manifest: Mapping[str, Any], asset: ChangedAsset) -> list[str]:
    """The graph nodes a changed asset stands for: itself, or for a macro every model calling it."""
    uids = [asset.unique_id]
    if asset.resource_type == "macro":
        uids = [uid for uid, node in (manifest.get("nodes") or {}).items()
                if asset.unique_id in ((node.get("depends_on") or {}).get("macros") or [])]
    roots = []
    for uid in uids:
        try:
            roots.append(graph.resolve(uid))
        except LookupError:
            continue
    return roots


def impact_report(graph: ContextGraph, manifest: Mapping[str, Any], changes: list[FileChange], project_prefix: str, *,
                  dialect: str = "duckdb", max_depth: int = 10, **context: Any) -> dict[str, Any]:
    """The whole report (keys in docs/mcp.md); `context` (base, head, repo, notes...) is kept as is."""
    assets, unmapped = map_changes(changes, manifest, project_prefix, dialect=dialect)
    impacts = [asset_impact(graph, manifest, a, dialect=dialect, max_depth=max_depth) for a in assets]
    owners: dict[str, list[str]] = {}
    for item in impacts:
        for d in item["downstream"]:
            ids = owners.setdefault(d["owner"] or "(none)", [])
            if d["id"] not in ids:
                ids.append(d["id"])
    severity = max((i["severity"] for i in impacts), key=_RANK.__getitem__, default="low")
    readers = {d["id"] for i in impacts for d in i["downstream"] if d["kind"] in READER_KINDS}
    return {**context, "severity": severity, "reader_count": len(readers), "owners": owners,
            "changed_files": [{"path": c.path, "status": c.status} for c in changes],
            "assets": impacts, "unmapped_files": unmapped}
