"""Diagnose an incident: collect evidence, rank causes, trace the path, propose fixes, record them.

`diagnose_incident` writes `causes`, `path`, `blast_radius` and `proposed_fixes` onto the incident
(and moves an `open` incident to `diagnosed`); `diagnose` does the same work and writes nothing,
which is what `dw report` uses.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from dw_assets.config import Settings
from dw_assets.connectors.airflow.api import AirflowApi
from dw_assets.connectors.warehouse import Warehouse
from dw_assets.context_graph import cached_context_graph
from dw_assets.core.blast_radius import BlastEntry
from dw_assets.core.diagnosis import Diagnosis, rank_causes
from dw_assets.core.evidence import Hop, Symptom, SymptomKind
from dw_assets.core.graph import ContextGraph
from dw_assets.core.incidents import Incident
from dw_assets.diagnosis.collect import DEFAULT_BOUNDS, Bounds, collect_evidence
from dw_assets.diagnosis.propose import open_fix_pull_requests, propose_fixes
from dw_assets.incidents import IncidentStore
from dw_assets.store import Store

_PATH_HIDDEN = frozenset({"job", "dbt_invocation", "dag"})  # collapsed in the path; Airflow tasks are shown
_READERS = frozenset({"dashboard", "reader", "application"})
_SIGNAL_PRIORITY = {"lineage_fail": 0, "airflow_run_failed": 1, "run_missed": 2, "check_failed": 3}


def diagnose(settings: Settings, store: Store | None, symptom: Symptom, *, incident_id: str | None = None, graph: ContextGraph | None = None,
             bounds: Bounds = DEFAULT_BOUNDS, airflow_clients: Mapping[str, AirflowApi] | None = None, warehouse: Warehouse | None = None,
             propose: bool = True) -> Diagnosis:
    graph_gaps: list[str] = []
    if graph is None:
        graph = _graph(settings, store, graph_gaps)
    evidence = collect_evidence(settings, store, symptom, graph=graph, bounds=bounds,
                                airflow_clients=airflow_clients, warehouse=warehouse)
    if graph_gaps:
        evidence = replace(evidence, gaps=tuple(graph_gaps) + evidence.gaps)
    causes = rank_causes(evidence)
    result = Diagnosis(incident_id, evidence.symptom, causes, gaps=list(evidence.gaps))
    if graph is not None and evidence.symptom.dataset_id:
        start = _node_in(graph, causes[0].origin or causes[0].subject)
        result.path = build_path(graph, evidence.symptom.dataset_id, start, bounds.max_depth)
        result.blast_radius = readers_of(graph, start or evidence.symptom.dataset_id, bounds.max_depth)
    if propose:
        result.fixes = propose_fixes(settings, evidence, causes, graph=graph)
    result.evidence = evidence
    return result


def diagnose_incident(settings: Settings, store: Store, incident_id: str, *, persist: bool = True,
                      **kwargs: Any) -> Diagnosis:
    incidents = IncidentStore(store)
    incident = incidents.get(incident_id)
    result = diagnose(settings, store, symptom_from_incident(incident), incident_id=incident_id, **kwargs)
    if persist:  # a recorded diagnosis may open pull requests (opt-in); `dw report` and MCP reads never do
        open_fix_pull_requests(settings, result.fixes, incident_id, store=store)
        incidents.update(incident_id, actor="data-workers", note=f"diagnosed: {result.top.title}",
                         causes=result.causes, path=result.path, blast_radius=result.blast_radius,
                         proposed_fixes=result.fixes)
        if incident.status == "open":
            incidents.transition(incident_id, "diagnosed", actor="data-workers", note=result.top.title)
    return result


def _graph(settings: Settings, store: Store | None, gaps: list[str]) -> ContextGraph | None:
    """The context graph; without the store's feeds when they fail (a read-only or empty store),
    else None: diagnosis still ranks causes from the other systems, and the gap is recorded."""
    for feeds_store in ([store, None] if store is not None else [None]):
        try:
            return cached_context_graph(settings, store=feeds_store)
        except Exception as exc:  # noqa: BLE001  any failing feed or artifact: try without, record it
            gaps.append(f"context graph{' (store feeds)' if feeds_store is not None else ''}: "
                        f"{type(exc).__name__}: {str(exc).splitlines()[0][:300]}")
    return None


def _node_in(graph: ContextGraph, node_id: str | None) -> str | None:
    if not node_id:
        return None
    try:
        return graph.resolve(node_id)
    except LookupError:
        return None


def symptom_from_incident(incident: Incident) -> Symptom:
    """The incident's most telling signal as a Symptom: a failure's error beats a check's numbers."""
    signals = sorted(incident.signals, key=lambda s: (_SIGNAL_PRIORITY.get(s.get("kind") or "", 4), s.get("observed_at")))
    if not signals:
        raise ValueError(f"incident {incident.id} has no signals to diagnose")
    first = signals[0]
    details = first.get("details") or {}
    kind = _symptom_kind(first.get("kind"), details)
    error = next((m for s in signals if (m := _find(s.get("details") or {}, ("error_message", "errorMessage",
                                                                           "message", "error")))), None)
    return Symptom(kind, first.get("dataset_id") or incident.dataset_id,
                   datetime.fromisoformat(str(first["observed_at"])), first.get("summary") or incident.title,
                   partition=details.get("partition") or (incident.evidence or {}).get("partition"),
                   job=_job(first.get("kind"), details), error_message=error,
                   metrics={**(details.get("metrics") or {}),
                            **({"missed_run": details} if first.get("kind") == "run_missed" else {}),
                            **({"dbt_test_relation": test} if (test := _find_test(signals)) else {})})


def _find_test(signals: list[dict[str, Any]]) -> str | None:
    """The dbt test relation intake moved the incident off (evidence: the failing rows live there)."""
    return next((t for s in signals if isinstance(t := (s.get("details") or {}).get("dbt_test_relation"), str)), None)


def _symptom_kind(signal_kind: str | None, details: dict[str, Any]) -> SymptomKind:
    if details.get("dbt_test_relation"):
        return "check_failed"  # a failing dbt test is a failed check on its model, not a failed build
    if signal_kind in ("lineage_fail", "airflow_run_failed"):
        return "failure"
    if signal_kind == "run_missed":
        return "stale"
    check, metrics = str(details.get("check") or ""), details.get("metrics") or {}
    if check.startswith("volume"):
        ratio = metrics.get("ratio")
        return "volume_high" if ratio is not None and ratio > 1 else "volume_low"
    if check.startswith("freshness"):
        return "stale"
    if check.startswith("rows_match_landed"):
        return "duplicates" if (metrics.get("difference") or 0) > 0 else "volume_low"
    return "check_failed"


def _job(signal_kind: str | None, details: dict[str, Any]) -> str | None:
    job = _find(details, ("job", "job_name"))
    if job:
        return str(job).rsplit("/", 1)[-1]
    failed = details.get("failed_tasks") or {}
    dag_id = details.get("dag_id")
    if signal_kind == "airflow_run_failed" and dag_id and failed:
        return f"{dag_id}.{min(failed)}"
    return None


def _find(details: dict[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        value = details.get(key)
        if isinstance(value, str) and value:
            return value
        if isinstance(value, dict) and isinstance(value.get("name") or value.get("message"), str):
            return value.get("name") or value.get("message")
    return None


def build_path(graph: ContextGraph, symptom_id: str, start: str | None, max_depth: int) -> list[Hop]:
    """Cause -> ... -> symptom (upstream trace), then symptom -> ... -> every reader (downstream)."""
    hops: list[Hop] = []
    if start and start != symptom_id:
        up = graph.trace(symptom_id, "upstream", max_depth=max_depth, include_orchestration=True)
        hops += _chain(graph, up.edges, start, {symptom_id})
    down = graph.trace(symptom_id, "downstream", max_depth=max_depth, include_orchestration=True)
    readers = {n.id for n in down.nodes if n.kind in _READERS} or {n.id for n in down.nodes if n.depth
                                                                    == max((x.depth for x in down.nodes), default=0)}
    for hop in _chain(graph, down.edges, symptom_id, readers, all_targets=True):
        if hop not in hops:
            hops.append(hop)
    return hops


def _chain(graph: ContextGraph, edges: list[Any], start: str, targets: set[str], all_targets: bool = False) -> list[Hop]:
    """Shortest edge chains from start to the target(s), orchestration other than tasks collapsed."""
    out_edges: dict[str, list[Any]] = {}
    for e in edges:
        out_edges.setdefault(e.src, []).append(e)
    parent: dict[str, Any] = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for e in out_edges.get(node, []):
            if e.dst not in parent:
                parent[e.dst] = e
                queue.append(e.dst)
    hops: list[Hop] = []
    for target in sorted(t for t in targets if t in parent):
        chain, node = [], target
        while parent.get(node) is not None:
            chain.append(parent[node])
            node = parent[node].src
        for hop in _collapse(graph, list(reversed(chain))):
            if hop not in hops:
                hops.append(hop)
        if not all_targets:
            break
    return hops


def _collapse(graph: ContextGraph, chain: list[Any]) -> list[Hop]:
    hops: list[Hop] = []
    pending: list[Any] = []
    for edge in chain:
        pending.append(edge)
        if graph.node(edge.dst).kind in _PATH_HIDDEN:
            continue
        src, dst = pending[0].src, edge.dst
        provenance = [p for e in pending for p in e.provenance]
        hops.append(Hop(src, dst, _hop_system(graph, src, dst), ",".join(dict.fromkeys(p.origin for p in provenance)),
                        "; ".join(f"{p.author}: {p.source}" for p in provenance if p.origin == "note")))
        pending = []
    return hops


def _hop_system(graph: ContextGraph, src: str, dst: str) -> str:
    for node_id in (dst, src):
        node = graph.node(node_id)
        if node.kind == "task":
            return node.system
    return graph.node(dst).system


def readers_of(graph: ContextGraph, asset: str, max_depth: int) -> list[BlastEntry]:
    return graph.blast_radius(asset, max_depth=max_depth).entries()


