"""One pass of the OpenLineage sensor, without Dagster: ingest, then act on the events not yet seen.

For each stored event after the consumer cursor, in arrival order: fold it into the context
graph's tables (`graph_feed`), compare each written dataset's schema facet with the last one
(`schema_history`, recording added / dropped / retyped columns), hand FAIL run events to incident
intake as `lineage_fail` signals, and describe the datasets it reports as observations (the sensor
turns those into `AssetObservation`s). The cursor moves only after all of that succeeded, so a
failing pass is retried from the same place; each step is idempotent (upserts, unique keys, the
signal's dedupe key), so a retried event changes nothing twice. Data Workers' own verification
events (job `data_workers.*` in `openlineage.emit_namespace`) are stored but not acted on.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dw_assets.config import Settings
from dw_assets.connectors.openlineage import SourcesReport, ingest_sources
from dw_assets.connectors.openlineage.event_store import LineageEventStore, StoredEvent
from dw_assets.connectors.openlineage.intake import DatasetIdFn, dataset_id_resolver
from dw_assets.core.schema_drift import flatten_fields
from dw_assets.core.signals import Signal
from dw_assets.lineage.graph_feed import CONSUMER as GRAPH_CONSUMER
from dw_assets.lineage.graph_feed import fold_events, is_own_event, known_dag_ids
from dw_assets.lineage.schema_history import SchemaHistory, SchemaObservation
from dw_assets.store import Store

log = logging.getLogger(__name__)
CONSUMER = "openlineage:sensor"
SignalIntake = Callable[[Settings, Store, Signal], object]
_NO_SCHEMA_CHANGE_STATES = {"FAIL", "ABORT"}  # a failed write did not change the table


# dbt-ol's job types whose COMPLETE event means the dataset was rebuilt (tests and SQL statements are not)
DBT_BUILDS = {"MODEL", "SEED", "SNAPSHOT"}


@dataclass(frozen=True)
class DatasetObservation:
    dataset_id: str
    event_seq: int
    event_time: datetime
    metadata: dict[str, Any]
    materialized: bool = False  # a dbt model (seed, snapshot) that a finished dbt run rebuilt


@dataclass
class ProcessResult:
    ingest: SourcesReport | None = None
    events: int = 0
    cursor_before: int = 0
    cursor_after: int = 0
    schema_changes: list[dict[str, Any]] = field(default_factory=list)
    signals: list[Signal] = field(default_factory=list)
    signals_delivered: int = 0
    observations: list[DatasetObservation] = field(default_factory=list)
    graph_edges: int = 0


def _job_key(stored: StoredEvent) -> str | None:
    return f"{stored.job_namespace}/{stored.job_name}" if stored.job_name else None


def schema_observations(stored: StoredEvent, dataset_id: DatasetIdFn) -> list[SchemaObservation]:
    """Schema facets of the datasets an event wrote (outputs, or a DatasetEvent's dataset)."""
    ev = stored.event
    if stored.kind == "dataset":
        datasets = [ev["dataset"]]
    elif stored.event_type in _NO_SCHEMA_CHANGE_STATES:
        datasets = []
    else:
        datasets = ev.get("outputs") or []
    found = []
    for ds in datasets:
        schema = (ds.get("facets") or {}).get("schema")
        if isinstance(schema, dict) and isinstance(schema.get("fields"), list):
            found.append(SchemaObservation(dataset_id(ds["namespace"], ds["name"]), flatten_fields(schema["fields"]),
                                           stored.event_time, stored.seq, stored.run_id, _job_key(stored)))
    return found


def _run_facets(event: dict[str, Any]) -> dict[str, Any]:
    facets = (event.get("run") or {}).get("facets") if isinstance(event.get("run"), dict) else None
    return facets if isinstance(facets, dict) else {}


def _linked(facet: Any, key: str) -> dict[str, Any]:
    value = facet.get(key) if isinstance(facet, dict) else None
    return value if isinstance(value, dict) else {}


def root_run_id(event: dict[str, Any], run_id: str | None) -> str | None:
    """The run at the top of the event's hierarchy: the parent facet's root (the Airflow provider and
    dbt-ol name the DAG run there), else the parent, else the run itself (a DAG run has no parent)."""
    parent = _linked(_run_facets(event), "parent")
    for link in (_linked(parent, "root"), parent):
        found = _linked(link, "run").get("runId")
        if isinstance(found, str) and found:
            return found
    return run_id


def failed_tasks_reported(event: dict[str, Any]) -> bool:
    """A DAG-run FAIL of Airflow's provider whose `airflowState` facet lists a failed task: that task's
    own FAIL event carries the error (the DAG run's says only e.g. "task_failure")."""
    job_type = _linked(_linked((event.get("job") or {}), "facets"), "jobType")
    if str(job_type.get("jobType") or "").upper() != "DAG":
        return False
    states = _linked(_linked(_run_facets(event), "airflowState"), "tasksState")
    return any(state in ("failed", "upstream_failed") for state in states.values())


def airflow_run_of(event: dict[str, Any]) -> dict[str, str]:
    """The Airflow DAG run an event of Airflow's provider reports (`airflow` facet of a task event,
    `airflowDagRun` of a DAG-run event), as `airflow_dag_id` / `airflow_run_id`: incident intake then
    joins this failure with the Airflow runs sensor's signal for the same run."""
    facets = _run_facets(event)
    dag_run = _linked(_linked(facets, "airflow"), "dagRun") or _linked(_linked(facets, "airflowDagRun"), "dagRun")
    dag_id, run_id = dag_run.get("dag_id"), dag_run.get("run_id")
    if isinstance(dag_id, str) and isinstance(run_id, str) and dag_id and run_id:
        return {"airflow_dag_id": dag_id, "airflow_run_id": run_id}
    return {}


def fail_signal(stored: StoredEvent, dataset_id: DatasetIdFn) -> Signal | None:
    """A FAIL run event as a `lineage_fail` signal for incident intake (keyed by the run id). A task's
    FAIL from Airflow's provider carries the task's error in its errorMessage facet; the DAG run's FAIL
    that follows it is not a second signal (`failed_tasks_reported`)."""
    if stored.kind != "run" or stored.event_type != "FAIL" or failed_tasks_reported(stored.event):
        return None
    ev = stored.event
    facets = _run_facets(ev)
    error = _linked(facets, "errorMessage")
    message = error.get("message") if isinstance(error.get("message"), str) else None
    outputs = [dataset_id(d["namespace"], d["name"]) for d in ev.get("outputs") or []]
    job = _job_key(stored)
    summary = f"{stored.job_name} failed" + (f": {message.strip().splitlines()[0][:300]}" if message else "")
    parent = _linked(facets, "parent")
    details = {"run_id": stored.run_id, "job": job, "job_name": stored.job_name, "event_seq": stored.seq,
               "error_message": message, "outputs": outputs,
               "inputs": [dataset_id(d["namespace"], d["name"]) for d in ev.get("inputs") or []],
               "parent": parent.get("job"), "parent_run_id": _linked(parent, "run").get("runId"),
               "root_run_id": root_run_id(ev, stored.run_id), **airflow_run_of(ev)}
    return Signal(kind="lineage_fail", dataset_id=outputs[0] if outputs else None, observed_at=stored.event_time,
                  source="openlineage", summary=summary, details=details, severity="high",
                  dedupe_key=f"openlineage:{stored.run_id}:FAIL")


def dbt_build(stored: StoredEvent) -> bool:
    """A dbt-ol COMPLETE event of a model, seed or snapshot (its jobType facet says so)."""
    job_type = ((stored.event.get("job") or {}).get("facets") or {}).get("jobType") or {}
    return (stored.kind == "run" and stored.event_type == "COMPLETE"
            and str(job_type.get("integration", "")).upper() == "DBT"
            and str(job_type.get("jobType", "")).upper() in DBT_BUILDS)


def dataset_observations(stored: StoredEvent, dataset_id: DatasetIdFn,
                         started: dict[str, datetime] | None = None) -> list[DatasetObservation]:
    """What a DatasetEvent, or a finished run's outputs, say about each dataset. A dbt build's
    outputs are materializations, with the dbt invocation and, when its START is known, the time."""
    ev = stored.event
    if stored.kind == "dataset":
        datasets = [ev["dataset"]]
    elif stored.kind == "run" and stored.event_type in ("COMPLETE", "FAIL"):
        datasets = ev.get("outputs") or []
    else:
        return []
    built = dbt_build(stored)
    run_facets = (ev.get("run") or {}).get("facets") or {}
    found = []
    for ds in datasets:
        meta: dict[str, Any] = {"openlineage_namespace": ds["namespace"], "openlineage_name": ds["name"],
                                "event_time": stored.event_time.isoformat()}
        if stored.kind == "run":
            meta.update(job=_job_key(stored), run_id=stored.run_id, event_type=stored.event_type)
        if built:
            invocation = (run_facets.get("dbt_run") or {}).get("invocation_id")
            if invocation:
                meta["dbt_invocation_id"] = str(invocation)
            start = (started or {}).get(str(stored.run_id))
            if start is not None:
                meta["seconds"] = round((stored.event_time - start).total_seconds(), 3)
        stats = (ds.get("outputFacets") or {}).get("outputStatistics") or {}
        if isinstance(stats.get("rowCount"), int):
            meta["row_count"] = stats["rowCount"]
        schema = (ds.get("facets") or {}).get("schema") or {}
        if isinstance(schema.get("fields"), list):
            meta["columns"] = flatten_fields(schema["fields"])
        found.append(DatasetObservation(dataset_id(ds["namespace"], ds["name"]), stored.seq, stored.event_time, meta,
                                        materialized=built))
    return found


def _deliver(settings: Settings, store: Store, signals: list[Signal], intake: SignalIntake) -> int:
    for signal in signals:
        intake(settings, store, signal)
    return len(signals)


def process_new_events(settings: Settings, store: Store, *, intake: SignalIntake, ingest: bool = True,
                       limit: int = 2000, consumer: str = CONSUMER) -> ProcessResult:
    """Ingest the configured sources (when `ingest`), then act on up to `limit` new events; FAIL
    signals go to `intake` (incident intake, `dw_assets.incidents.intake_signal`, which sits above
    this package: it relates incidents through the context graph that this package feeds)."""
    result = ProcessResult(ingest=ingest_sources(settings, store) if ingest else None)
    with collector_paused():
        _act(settings, store, result, intake, limit, consumer)
    return result


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for one pass. A pass allocates a few hundred objects
    per event (parsed events, rows, observations) that live until it ends, so the collector ran
    often and each of its full passes rescanned everything else in the process (the code server's
    cached context graph: 100k+ objects): ~25% of a tick's CPU on the large-estate benchmark,
    for garbage that reference counting frees anyway. Cycles made meanwhile are collected once the
    collector is back on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _act(settings: Settings, store: Store, result: ProcessResult, intake: SignalIntake, limit: int,
         consumer: str) -> None:
    events = LineageEventStore(store)
    dataset_id = dataset_id_resolver(settings.aliases)
    result.cursor_before = result.cursor_after = int(store.get_cursor(consumer) or 0)
    batch = events.read_after(result.cursor_before, limit)
    if not batch:
        return
    history = SchemaHistory(store)
    started = {str(e.run_id): e.event_time for e in batch if e.kind == "run" and e.event_type == "START"}
    observed = [(stored, obs) for stored in batch for obs in schema_observations(stored, dataset_id)]
    for (stored, obs), changes in zip(observed, history.observe_many([obs for _, obs in observed])):
        for change in changes:
            result.schema_changes.append({"dataset_id": obs.dataset_id, "column": change.column,
                                          "change": change.change, "old_type": change.old_type,
                                          "new_type": change.new_type, "run_id": stored.run_id,
                                          "job": obs.job, "event_time": stored.event_time})
    for stored in batch:
        if is_own_event(stored, settings.openlineage.emit_namespace):
            continue  # our own verification runs: the verification flow already acts on them
        if (signal := fail_signal(stored, dataset_id)) is not None:
            result.signals.append(signal)
        result.observations.extend(dataset_observations(stored, dataset_id, started))
    result.signals = without_covered_parents(result.signals)
    result.graph_edges = fold_events(store, batch, dataset_id, known_dag_ids(settings.airflow.task_outputs),
                                     settings.openlineage.emit_namespace)
    result.signals_delivered = _deliver(settings, store, result.signals, intake)
    result.events = len(batch)
    result.cursor_after = batch[-1].seq
    store.set_cursor(consumer, str(result.cursor_after))
    if int(store.get_cursor(GRAPH_CONSUMER) or 0) == result.cursor_before:
        store.set_cursor(GRAPH_CONSUMER, str(result.cursor_after))  # graph tables already hold these


def without_covered_parents(signals: list[Signal]) -> list[Signal]:
    """Drop a FAIL that names no dataset when a related failed run names one: one failure, one signal,
    on the dataset that broke. Related: its parent or child (dbt-ol reports one model failure three
    times: the `dbt-run-*` parent, the model with its output, and the model's SQL statement as a child)
    or a run under the same root (the Airflow task that ran dbt-ol fails too, with the DAG run as the
    root of both)."""
    with_data = [s for s in signals if s.dataset_id]
    linked_to_data = {s.details.get(k) for s in with_data for k in ("run_id", "parent_run_id", "root_run_id")}
    linked_to_data.discard(None)

    def covered(s: Signal) -> bool:
        return any(s.details.get(k) in linked_to_data for k in ("run_id", "parent_run_id", "root_run_id"))

    return [s for s in signals if s.dataset_id or not covered(s)]
