"""Incident intake and storage: `intake_signal` turns a Signal into an incident (new or joined)."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from dw_assets.config import Settings
from dw_assets.context_graph import cached_context_graph
from dw_assets.core.approvals import parse_duration
from dw_assets.core.graph import ContextGraph
from dw_assets.core.identity import IdentityError, airflow_task_node_id, canonical_dataset_id
from dw_assets.core.incidents import Incident
from dw_assets.core.signals import Signal
from dw_assets.incidents.store import IncidentNotFound, IncidentStore
from dw_assets.store import Store

__all__ = ["IncidentNotFound", "IncidentStore", "intake_signal"]

log = logging.getLogger(__name__)
RELATED_DEPTH = 6


def intake_signal(settings: Settings, store: Store | IncidentStore, signal: Signal, *,
                  now: datetime | None = None) -> tuple[Incident, bool]:
    """Open an incident for `signal` or join the open one for the same dataset and window
    (`settings.incidents.window`). Returns (incident, created). Idempotent per `dedupe_key`."""
    incidents = store if isinstance(store, IncidentStore) else IncidentStore(store)
    window = parse_duration(settings.incidents.window)
    signal = for_tested_node(settings, with_dataset(settings, signal))
    same_run = _same_run_incident(incidents, signal, window)
    if same_run is not None:
        note = f"{signal.summary} (joined: the same run failed, already in {same_run.id})"
        return incidents.join(same_run.id, signal, window=window, now=now, note=note), False
    related = _related_open_incident(settings, incidents, signal, window)
    if related is not None:
        note = f"{signal.summary} (joined: {signal.dataset_id} is on the lineage of {related.dataset_id})"
        return incidents.join(related.id, signal, window=window, now=now, note=note), False
    domain = settings.domain_for(signal.dataset_id) if signal.dataset_id else None
    return incidents.intake(signal, window=parse_duration(settings.incidents.window),
                            owner=domain.owner if domain else None, domain=domain.name if domain else None,
                            now=now)


def _run_keys(details: dict[str, Any]) -> set[str]:
    """What names the run a failure came from: Airflow's (DAG, run id), also as Airflow's OpenLineage
    provider reports it, and OpenLineage's run, parent run and root run (the DAG run, for the
    provider and the dbt-ol runs under its tasks)."""
    keys = set()
    if details.get("dag_id") and details.get("run_id"):
        keys.add(f"airflow:{details['dag_id']}:{details['run_id']}")
    if details.get("airflow_dag_id") and details.get("airflow_run_id"):  # a FAIL from Airflow's provider
        keys.add(f"airflow:{details['airflow_dag_id']}:{details['airflow_run_id']}")
    for key in ("run_id", "parent_run_id", "root_run_id"):
        if details.get(key) and not details.get("dag_id"):
            keys.add(f"run:{details[key]}")
    return keys


def _same_run_incident(incidents: IncidentStore, signal: Signal, window: timedelta) -> Incident | None:
    """An open incident holding a failure of the same run: one failed run writing two unrelated datasets
    is one fault, so its signals make one incident."""
    keys = _run_keys(signal.details or {})
    if not keys or signal.kind == "check_failed":
        return None
    for incident in incidents.list(status=("open", "diagnosed", "awaiting_approval", "remediating")):
        if not incident.window_start - window <= signal.observed_at <= incident.window_end:
            continue
        if any(keys & _run_keys(s.get("details") or {}) for s in incident.signals if s.get("kind") != "check_failed"):
            return incident
    return None


def _related_open_incident(settings: Settings, incidents: IncidentStore, signal: Signal,
                           window: timedelta) -> Incident | None:
    """An open incident, in the window, about a dataset upstream or downstream of the signal's:
    one cause shows up as symptoms on several datasets (a short partition, then an unbalanced trial
    balance built from it), and people should get one incident for it, not one per symptom."""
    if not signal.dataset_id:
        return None
    candidates = [i for i in incidents.list(status=("open", "diagnosed", "awaiting_approval", "remediating"))
                  if i.dataset_id and i.dataset_id != signal.dataset_id
                  and i.window_start - window <= signal.observed_at <= i.window_end]
    if not candidates:
        return None
    try:
        graph = cached_context_graph(settings)
        reached = {n.id for n in graph.trace(signal.dataset_id, direction="both", max_depth=RELATED_DEPTH).nodes}
    except Exception as exc:  # noqa: BLE001  without a graph, intake still works by dataset
        log.warning("intake: no context graph to relate %s to open incidents: %s", signal.dataset_id, exc)
        return None
    related = [i for i in candidates if i.dataset_id in reached]
    return min(related, key=lambda i: i.created_at) if related else None


def with_dataset(settings: Settings, signal: Signal, graph: ContextGraph | None = None) -> Signal:
    """A failure that names no dataset (a FAIL event without outputs) gets the dataset its job writes:
    `airflow.task_outputs` first, then the job's task node's outputs in the context graph. One fault
    then has one incident on its dataset (with owner and plan) instead of a `source:` incident."""
    if signal.dataset_id:
        return signal
    details = signal.details or {}
    jobs = [str(details.get(k)).rsplit("/", 1)[-1] for k in ("job_name", "job") if details.get(k)]
    dag_id, failed = details.get("dag_id"), details.get("failed_tasks") or {}
    jobs += [f"{dag_id}.{t}" for t in sorted(failed)] if dag_id else []
    for job in dict.fromkeys(jobs):
        found = _written_by(settings, job, graph)
        if found:
            return replace(signal, dataset_id=found[0],
                           details={**details, "dataset_from_job": job, "job_outputs": found})
    return signal


def for_tested_node(settings: Settings, signal: Signal, graph: ContextGraph | None = None) -> Signal:
    """A failing dbt test reported on its own relation (store_failures' `<schema>_dbt_test__audit.<test>`)
    or its unique_id belongs to the model or source it tests (the manifest's `attached_node`, else
    `depends_on`): the incident opens there, so domain, owner and blast radius are the tested node's,
    and the audit relation stays in the signal as evidence (`dbt_test_relation`)."""
    details = signal.details or {}
    candidates = [c for c in (signal.dataset_id, details.get("job_name"), details.get("dbt_test")) if isinstance(c, str)]
    if not candidates:
        return signal
    try:
        if graph is None:
            graph = cached_context_graph(settings)
        for reported in candidates:
            try:
                tested = graph.resolve(reported)
            except LookupError:
                continue
            relations = graph.node(tested).attrs.get("dbt_test_relations") or {}
            test = relations.get(reported) or relations.get(reported.lower())
            if tested != reported and test:
                return replace(signal, dataset_id=tested, details={
                    **details, "dbt_test_relation": reported, "dbt_test": test["name"], "dbt_test_id": test["test"],
                    "tested_column": test.get("column")})
    except Exception as exc:  # noqa: BLE001  without a graph the signal keeps the relation it named
        log.warning("intake: cannot map %s to the node its dbt test tests: %s", signal.dataset_id, exc)
    return signal


def _written_by(settings: Settings, job: str, graph: ContextGraph | None) -> list[str]:
    mapped = settings.airflow.task_outputs.get(job) or []
    try:
        if mapped:
            return [canonical_dataset_id(d, aliases=settings.aliases) for d in mapped]
    except IdentityError:
        pass
    if "." not in job:
        return []
    try:
        if graph is None:
            graph = cached_context_graph(settings)
        dag_id, task_id = job.split(".", 1)
        node = airflow_task_node_id(dag_id, task_id)
        if node not in graph:
            return []
        return sorted(e.dst for e in graph.edges_of(node) if e.src == node and graph.node(e.dst).kind not in
                      ("task", "dag", "job", "dbt_invocation"))
    except Exception as exc:  # noqa: BLE001  without a graph the signal keeps its source subject
        log.warning("intake: cannot map job %s to a dataset: %s", job, exc)
        return []
