"""dbt's artifacts in the context graph: `manifest.json` (what exists, who owns it, what reads what)
and optionally `run_results.json` (how each node last ended).

Mapping (one function per resource type, all edges with provenance `dbt_manifest`):
- models and snapshots -> kind `model`, seeds -> kind `dataset`, system `dbt`; sources -> kind
  `source`, system `warehouse` (dbt only declares them). Ids are canonical dataset ids of
  `database.schema.alias` (sources: `identifier`), so `analytics.main.fct_revenue` ->
  `analytics.fct_revenue` and the same table reported by OpenLineage lands on the same node.
- exposures -> `exposure:{name}`, kind `dashboard` / `application` / `reader` (analysis, notebook,
  ml), system from `meta.tool` (e.g. tableau) else `dbt`; owner `owner.name` or `owner.email`;
  maturity, url and `meta.criticality` kept as attributes; the label is a searchable name.
- metrics -> `metric:{name}`, semantic models -> `semantic_model:{name}`, kinds of the same names.
- owner of a model/metric: `meta.owner` (node or config meta), else its group's owner.
- every `depends_on.nodes` parent becomes an edge parent -> child (`feeds`; `reads` into an
  exposure). A parent missing from the manifest becomes a placeholder `dbt:{unique_id}` node
  (attribute `missing_from_manifest`) rather than a silently dropped hop.
- data tests are not nodes: their names are listed on the tested node (`dbt_tests`).
The dbt unique_id of every node is an alias and labels are node names, so
`model.dw_demo.fct_revenue` and `Close: Trial Balance` both resolve.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dw_assets.core.graph import ContextGraph, Provenance
from dw_assets.core.identity import (
    exposure_node_id,
    metric_node_id,
    relation_id_from_parts,
    semantic_model_node_id,
)

_NODE_KINDS = {"model": "model", "snapshot": "model", "seed": "dataset"}
_EXPOSURE_KINDS = {"dashboard": "dashboard", "application": "application"}
_PLACEHOLDER_KINDS = {"model": "model", "snapshot": "model", "seed": "dataset", "source": "source",
                      "metric": "metric", "semantic_model": "semantic_model", "exposure": "reader"}


@dataclass
class DbtIndex:
    """unique_id -> node id for what the manifest added, and tested node ids per data test."""

    node_ids: dict[str, str] = field(default_factory=dict)
    tests: dict[str, list[str]] = field(default_factory=dict)


def add_manifest(graph: ContextGraph, manifest: Mapping[str, Any]) -> DbtIndex:
    index = DbtIndex()
    group_owners = {g.get("name"): _person(g.get("owner")) for g in (manifest.get("groups") or {}).values()}
    for uid, node in (manifest.get("nodes") or {}).items():
        kind = _NODE_KINDS.get(node.get("resource_type", ""))
        if kind:
            index.node_ids[uid] = _add_relation_node(graph, uid, node, kind, group_owners)
    for uid, source in (manifest.get("sources") or {}).items():
        index.node_ids[uid] = _add_source(graph, uid, source)
    for uid, sm in (manifest.get("semantic_models") or {}).items():
        index.node_ids[uid] = _add_named(graph, uid, sm, semantic_model_node_id(sm["name"]), "semantic_model",
                                         group_owners)
    for uid, metric in (manifest.get("metrics") or {}).items():
        index.node_ids[uid] = _add_named(graph, uid, metric, metric_node_id(metric["name"]), "metric", group_owners)
    for uid, exposure in (manifest.get("exposures") or {}).items():
        index.node_ids[uid] = _add_exposure(graph, uid, exposure)
    for section in ("nodes", "semantic_models", "metrics", "exposures"):
        for uid, item in (manifest.get(section) or {}).items():
            if uid in index.node_ids:
                relation = "reads" if section == "exposures" else "feeds"
                _add_parent_edges(graph, index, uid, item, relation)
            elif item.get("resource_type") == "test":
                _attach_test(graph, index, uid, item)
    return index


def _meta(item: Mapping[str, Any]) -> dict[str, Any]:
    return {**((item.get("config") or {}).get("meta") or {}), **(item.get("meta") or {})}


def _person(owner: Any) -> str | None:
    if isinstance(owner, Mapping):
        return owner.get("name") or owner.get("email")
    return owner or None


def _owner(item: Mapping[str, Any], meta: Mapping[str, Any], group_owners: Mapping[Any, str | None]) -> str | None:
    group = item.get("group") or (item.get("config") or {}).get("group")
    return _person(meta.get("owner")) or group_owners.get(group)


def _add_relation_node(graph: ContextGraph, uid: str, node: Mapping[str, Any], kind: str,
                       group_owners: Mapping[Any, str | None]) -> str:
    node_id = relation_id_from_parts(node.get("database"), node.get("schema"), node.get("alias") or node["name"])
    meta, config = _meta(node), node.get("config") or {}
    attrs = {"dbt_unique_id": uid, "resource_type": node.get("resource_type"),
             "materialized": config.get("materialized"), "group": node.get("group") or config.get("group"),
             "tags": node.get("tags") or [], "meta": meta, "path": node.get("original_file_path")}
    graph.add_node(node_id, kind, "dbt", name=node["name"], owner=_owner(node, meta, group_owners),
                   attrs=attrs, aliases=(uid,))
    return node_id


def _add_source(graph: ContextGraph, uid: str, source: Mapping[str, Any]) -> str:
    node_id = relation_id_from_parts(source.get("database"), source.get("schema"),
                                     source.get("identifier") or source["name"])
    meta = _meta(source)
    attrs = {"dbt_unique_id": uid, "source_name": source.get("source_name"), "meta": meta,
             "loaded_at_field": source.get("loaded_at_field"), "freshness": source.get("freshness")}
    graph.add_node(node_id, "source", "warehouse", name=source["name"], owner=_person(meta.get("owner")),
                   attrs=attrs, aliases=(uid, f"{source.get('source_name')}.{source['name']}"))
    return node_id


def _add_named(graph: ContextGraph, uid: str, item: Mapping[str, Any], node_id: str, kind: str,
               group_owners: Mapping[Any, str | None]) -> str:
    meta = _meta(item)
    attrs = {"dbt_unique_id": uid, "label": item.get("label"), "meta": meta, "type": item.get("type")}
    graph.add_node(node_id, kind, "dbt", name=item.get("label") or item["name"],
                   owner=_owner(item, meta, group_owners), attrs=attrs, aliases=(uid,))
    return node_id


def _add_exposure(graph: ContextGraph, uid: str, exposure: Mapping[str, Any]) -> str:
    meta = _meta(exposure)
    node_id = exposure_node_id(exposure["name"])
    kind = _EXPOSURE_KINDS.get(str(exposure.get("type", "")).lower(), "reader")
    system = str(meta.get("tool") or meta.get("system") or "dbt").lower()
    attrs = {"dbt_unique_id": uid, "type": exposure.get("type"), "maturity": exposure.get("maturity"),
             "criticality": meta.get("criticality"), "url": exposure.get("url"), "meta": meta,
             "owner_email": (exposure.get("owner") or {}).get("email"), "label": exposure.get("label")}
    label = exposure.get("label")
    graph.add_node(node_id, kind, system, name=label or exposure["name"], owner=_person(exposure.get("owner")),
                   attrs=attrs, aliases=(uid,))
    return node_id


def _add_parent_edges(graph: ContextGraph, index: DbtIndex, uid: str, item: Mapping[str, Any],
                      relation: str) -> None:
    child = index.node_ids[uid]
    provenance = Provenance("dbt_manifest", ref=uid)
    for parent_uid in (item.get("depends_on") or {}).get("nodes") or []:
        parent = index.node_ids.get(parent_uid) or _placeholder(graph, index, parent_uid)
        graph.add_edge(parent, child, relation, provenance)


def _placeholder(graph: ContextGraph, index: DbtIndex, uid: str) -> str:
    node_id = f"dbt:{uid}"
    kind = _PLACEHOLDER_KINDS.get(uid.split(".", 1)[0], "dataset")
    graph.add_node(node_id, kind, "dbt", name=uid.rsplit(".", 1)[-1],
                   attrs={"dbt_unique_id": uid, "missing_from_manifest": True}, aliases=(uid,))
    index.node_ids[uid] = node_id
    return node_id


def _attach_test(graph: ContextGraph, index: DbtIndex, uid: str, test: Mapping[str, Any]) -> None:
    attached = test.get("attached_node")
    targets = [attached] if attached else (test.get("depends_on") or {}).get("nodes") or []
    tested = [index.node_ids[t] for t in targets if t in index.node_ids]
    index.tests[uid] = tested
    meta = test.get("test_metadata") or {}
    column = test.get("column_name") or (meta.get("kwargs") or {}).get("column_name")
    for node_id in tested:
        graph.node(node_id).attrs.setdefault("dbt_tests", []).append(test.get("name") or uid)
        if meta.get("name") in ("unique", "not_null") and column:  # key columns, read from the tests
            keys = graph.node(node_id).attrs.setdefault("dbt_key_columns", {})
            keys.setdefault(str(column).strip('"').lower(), []).append(meta["name"])
    if tested:
        # a failing test's own relation (store_failures' `<schema>_dbt_test__audit.<test>`, or the test's
        # unique_id) stands for the node it tests: an incident opened on it belongs to that model/source
        graph.add_alias(uid, tested[0])
        relations = graph.node(tested[0]).attrs.setdefault("dbt_test_relations", {})
        relations[uid] = {"test": uid, "name": test.get("name"), "column": column,
                          "kind": meta.get("name")}
        if test.get("schema") and (test.get("alias") or test.get("name")):
            audit = relation_id_from_parts(test.get("database"), test.get("schema"), test.get("alias") or test.get("name"))
            graph.add_alias(audit, tested[0])
            relations[audit] = relations[uid]


def add_run_results(graph: ContextGraph, run_results: Mapping[str, Any], index: DbtIndex) -> int:
    """Record each node's last status (`dbt_last_run`) and each test's on its tested node
    (`dbt_test_results`). Returns how many results were matched to graph nodes."""
    metadata = run_results.get("metadata") or {}
    matched = 0
    for result in run_results.get("results") or []:
        uid = result.get("unique_id")
        summary = {"status": result.get("status"), "message": result.get("message"),
                   "completed_at": _completed_at(result) or metadata.get("generated_at"),
                   "invocation_id": metadata.get("invocation_id"), "execution_time": result.get("execution_time")}
        if uid in index.node_ids:
            graph.node(index.node_ids[uid]).attrs["dbt_last_run"] = summary
            matched += 1
        elif uid in index.tests:
            name = uid.split(".")[2] if uid.count(".") >= 2 else uid
            for node_id in index.tests[uid]:
                graph.node(node_id).attrs.setdefault("dbt_test_results", {})[name] = summary["status"]
            matched += 1
    return matched


def _completed_at(result: Mapping[str, Any]) -> str | None:
    for timing in result.get("timing") or []:
        if timing.get("name") == "execute":
            return timing.get("completed_at")
    return None
