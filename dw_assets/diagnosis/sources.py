"""One reader per system for `collect`: the context graph, the state store's lineage tables, Airflow,
the landing zone and the warehouse. Each returns evidence objects and raises on failure (the caller
records the gap). Queries are aggregates only; no table rows are read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from dw_assets.checks.state import accepted_schema
from dw_assets.config import Settings, resolve_env
from dw_assets.connectors.airflow import AirflowNotFoundError, clients_from_settings
from dw_assets.connectors.airflow.api import AirflowApi
from dw_assets.connectors.airflow.models import DagRun
from dw_assets.connectors.dbt import load_artifact, load_run_results, project_paths
from dw_assets.connectors.openlineage.event_store import LineageEventStore
from dw_assets.connectors.warehouse import Warehouse, WarehouseError, quote_identifier
from dw_assets.core import dates
from dw_assets.core.evidence import (
    DatasetSchema,
    FailureEvent,
    GraphNode,
    ModelSource,
    SchemaChange,
    Symptom,
    TaskRun,
    classify_log,
    error_lines,
    type_family,
)
from dw_assets.core.graph import ContextGraph
from dw_assets.core.identity import IdentityError, airflow_task_node_id, canonical_dataset_id
from dw_assets.core.notes import Note
from dw_assets.core.schema_drift import diff_schemas
from dw_assets.diagnosis.repos import repo_for
from dw_assets.lineage.schema_history import SchemaHistory
from dw_assets.store import Store

_STATES = {"COMPLETE": "success", "FAIL": "failed", "ABORT": "failed", "START": "running", "RUNNING": "running"}
_ORCHESTRATION = ("task", "dag", "job", "dbt_invocation")


def dbt_test_evidence(settings: Settings, graph: ContextGraph, reported: str, warehouse: Warehouse | None = None) -> dict[str, Any]:
    """A failing dbt test reported on its own relation (or unique_id): the test, the tested node and
    column, the failing rows' count (run_results) and a sample of their keys (the test's stored
    failures, when `store_failures` kept them). Empty when `reported` is not a test's."""
    try:
        tested = graph.resolve(reported)
    except LookupError:
        return {}
    test = (graph.node(tested).attrs.get("dbt_test_relations") or {}).get(reported) or \
        (graph.node(tested).attrs.get("dbt_test_relations") or {}).get(reported.lower())
    if not test:
        return {}
    out: dict[str, Any] = {"dbt_test": test["name"], "tested": tested, "column": test.get("column"),
                           "test_kind": test.get("kind")}
    paths = project_paths(settings)
    if paths.run_results.exists():
        result = next((r for r in load_artifact(paths.run_results).get("results") or []
                       if r.get("unique_id") == test["test"]), None)
        if result:
            out.update(status=result.get("status"), failures=result.get("failures"), message=result.get("message"))
    if reported != test["test"] and "." in reported:  # the audit relation: sample the failing keys

        wh = warehouse or estate_warehouse(settings)
        with wh.session() as session:
            columns = [c.name for c in session.table_schema(reported)]
            keys = [k for k in (graph.node(tested).attrs.get("dbt_key_columns") or {}) if k in columns
                    and k != (test.get("column") or "").lower()]
            column = next(iter(keys), None) or ("unique_field" if "unique_field" in columns else
                                                (columns[0] if columns else None))
            if column:
                rows = session.query(f"SELECT DISTINCT CAST({quote_identifier(column)} AS VARCHAR) FROM "
                                     f"{wh.relation(reported)} LIMIT 5")[1]
                out["sample_keys"] = {"column": column, "values": [r[0] for r in rows]}
    return out


def dbt_failures(settings: Settings, graph: ContextGraph, datasets: list[str],
                 window: tuple[datetime, datetime]) -> tuple[list[TaskRun], list[FailureEvent]]:
    """Models (seeds, snapshots) in scope whose last dbt build errored, with dbt's own message (the
    database error) from `run_results.json`, as a failed run and its failure: a failed build explains
    itself even when no FAIL event reached us (plain `dbt`, not dbt-ol)."""
    path = project_paths(settings).run_results
    if not path.exists():
        return [], []
    run_results = load_run_results(path)
    generated = (run_results.get("metadata") or {}).get("generated_at")
    invocation = str((run_results.get("metadata") or {}).get("invocation_id") or "dbt")
    wanted, runs, out = set(datasets), [], []
    for result in run_results.get("results") or []:
        uid = str(result.get("unique_id") or "")
        if result.get("status") not in ("error", "runtime error") or uid.startswith(("test.", "unit_test.")):
            continue
        try:
            node_id = graph.resolve(uid)
        except LookupError:
            continue
        timing = [t for t in result.get("timing") or [] if t.get("completed_at")]
        at = _dbt_time(timing[-1]["completed_at"] if timing else generated)
        if node_id in wanted and at is not None and window[0] <= at <= window[1]:
            message = str(result.get("message") or "")
            runs.append(TaskRun("dbt", uid, None, invocation, "failed", _dbt_time(timing[0].get("started_at"))
                                if timing else None, at, outputs=(node_id,), error_message=message))
            out.append(FailureEvent(uid, invocation, at, message, (node_id,), source="dbt run_results"))
    return runs, out


def _dbt_time(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    at = datetime.fromisoformat(value)
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def resolve_root(graph: ContextGraph, symptom: Symptom) -> str:
    for candidate in (symptom.dataset_id, f"airflow:{symptom.job}" if symptom.job else None, symptom.job):
        if candidate:
            try:
                return graph.resolve(candidate)
            except LookupError:
                continue
    raise LookupError(f"neither {symptom.dataset_id!r} nor job {symptom.job!r} is in the context graph")


def graph_scope(graph: ContextGraph, symptom: Symptom, max_depth: int) -> tuple[list[GraphNode], list[Note]]:
    """Everything upstream of the symptom (orchestration nodes included, each a hop) and the notes
    recorded on those edges."""
    trace = graph.trace(resolve_root(graph, symptom), "upstream", max_depth=max_depth, include_orchestration=True)
    feeds: dict[str, list[str]] = {}
    for edge in trace.edges:
        feeds.setdefault(edge.src, []).append(edge.dst)
    nodes = [GraphNode(n.id, n.kind, n.system, n.depth, owner=n.owner, feeds=tuple(feeds.get(n.id, ())))
             for n in trace.nodes if n.direction != "root"]
    # a note's provenance is the note itself (author, source, date): read it back as the record
    notes = [Note.model_validate({"from": e.src, "to": e.dst, "relation": e.relation, "author": p.author,
                                  "source": p.source, "recorded_at": p.recorded_at})
             for e in trace.edges for p in e.provenance if p.origin == "note"]
    return nodes, notes


def model_sources(settings: Settings, graph: ContextGraph, upstream: list[GraphNode], root: str | None) -> list[ModelSource]:
    """The SQL of every dbt model in scope, from the manifest's original_file_path."""
    project = project_paths(settings).project_dir
    depths = {n.node_id: n.depth for n in upstream}
    if root:
        depths[root] = 0
    models = []
    for node_id, depth in depths.items():
        node = graph.node(node_id) if node_id in graph else None
        rel = node.attrs.get("path") if node is not None and node.system == "dbt" else None
        if node is None or not rel or not str(rel).endswith(".sql"):
            continue
        path = project / rel
        if not path.exists():
            continue
        repo = repo_for(settings, node_id)
        shown = repo.relative(path) if repo else str(path)
        models.append(ModelSource(node_id, node.name, shown, path.read_text(), depth))
    return models


def schema_changes(store: Store, datasets: list[str], window: tuple[datetime, datetime]) -> list[SchemaChange]:
    history = SchemaHistory(store)
    changes = []
    for dataset in datasets:
        for row in history.changes(dataset, limit=50):
            if window[0] <= row["event_time"] <= window[1]:
                changes.append(SchemaChange(dataset, row["column"], row["change"], row["event_time"],
                                            row["old_type"], row["new_type"], run_id=row["run_id"]))
    return changes


def drift_changes(settings: Settings, store: Store, datasets: list[str], known: list[SchemaChange],
                  window: tuple[datetime, datetime], warehouse: Warehouse | None = None) -> list[SchemaChange]:
    """Column changes the warehouse itself shows: its information_schema now against the schema the
    schema-drift check accepted. A newly adopted estate has no OpenLineage schema history yet, but the
    check's first run took a baseline, so a BIGINT -> VARCHAR change is evidence from day one."""
    seen = {(c.dataset_id, c.column.lower(), c.change) for c in known}
    out = []
    for dataset in datasets[:15]:
        accepted = accepted_schema(store, dataset)
        if not accepted:
            continue
        live = _live_schema(settings, dataset, warehouse)
        if live is None:
            continue
        columns, accepted_at = accepted
        at = min(max(accepted_at, window[0]), window[1])  # changed after the baseline; when exactly is unknown
        for change in diff_schemas(dict(columns), live.columns):
            if change.change == "added" or (dataset, change.column.lower(), change.change) in seen:
                continue
            out.append(SchemaChange(dataset, change.column, change.change, at, change.old_type, change.new_type,
                                    source=f"schema_drift ({live.source} information_schema vs accepted)"))
    return out


def current_schemas(settings: Settings, store: Store, datasets: list[str], changes: list[SchemaChange],
                    warehouse: Warehouse | None = None) -> list[DatasetSchema]:
    """Schemas of the datasets a changed column may have come from: the latest schema facet, and the
    live schema from the warehouse or the application database, for tracing a change to its origin."""
    if not changes:
        return []

    history, out = SchemaHistory(store), []
    for dataset in datasets[:15]:
        latest = history.latest(dataset)
        if latest:
            out.append(DatasetSchema(dataset, {k: v or "" for k, v in latest["columns"].items()}, "openlineage"))
        live = _live_schema(settings, dataset, warehouse)
        if live:
            out.append(live)
    return out


def _live_schema(settings: Settings, dataset: str, warehouse: Warehouse | None) -> DatasetSchema | None:
    catalog = dataset.split(".", 1)[0]
    candidates = []
    if settings.app_database and Path(settings.app_database.rsplit("/", 1)[-1]).stem == catalog:
        candidates.append((Warehouse(resolve_env(settings.app_database, what="app_database")), "app database"))

    wh = warehouse or estate_warehouse(settings)
    if catalog in wh.attach or (wh.is_duckdb and not candidates) or catalog == getattr(wh, "database", None):
        candidates.append((wh, "warehouse"))

    for source, label in candidates:
        try:
            with source.session() as session:
                columns = session.table_schema(dataset)
        except WarehouseError:
            columns = []  # this catalog is not in that database: try the next one
        if columns:
            return DatasetSchema(dataset, {c.name: c.data_type for c in columns}, label)
    return None


def lineage_runs(settings: Settings, store: Store, datasets: list[str],
                 window: tuple[datetime, datetime]) -> tuple[list[TaskRun], list[FailureEvent]]:
    """Runs reported over OpenLineage that read or wrote a dataset in scope, and their FAIL errors."""
    events_by_run: dict[str, list[Any]] = {}
    lineage = LineageEventStore(store)
    for dataset in datasets:
        for stored in lineage.query(dataset_id=dataset, since=window[0], limit=200):
            if stored.run_id and stored.event_time <= window[1]:
                events_by_run.setdefault(stored.run_id, []).append(stored)
    runs, failures = [], []
    for run_id, run_events in events_by_run.items():
        run, failure = _lineage_run(settings, run_id, {s.seq: s for s in run_events}.values())
        runs.append(run)
        if failure:
            failures.append(failure)
    return runs, failures


def _lineage_run(settings: Settings, run_id: str, stored) -> tuple[TaskRun, FailureEvent | None]:
    ordered = sorted(stored, key=lambda s: (s.event_time, s.seq))
    last = next((s for s in reversed(ordered) if s.event_type in ("COMPLETE", "FAIL", "ABORT")), ordered[-1])
    start = next((s.event_time for s in ordered if s.event_type == "START"), ordered[0].event_time)
    event = last.event
    job = last.job_name or "?"
    parent = ((event.get("run") or {}).get("facets") or {}).get("parent") or {}
    dag = (parent.get("job") or {}).get("name")
    dag_id, task_id = (dag, job[len(dag) + 1:]) if dag and job.startswith(dag + ".") else (job, None)
    outputs = tuple(event_dataset_ids(settings, event.get("outputs")))
    inputs = tuple(event_dataset_ids(settings, event.get("inputs")))
    message = (((event.get("run") or {}).get("facets") or {}).get("errorMessage") or {}).get("message")
    state = _STATES.get(last.event_type or "", "running")
    run = TaskRun("openlineage", dag_id, task_id, run_id, state, start,
                  last.event_time if state != "running" else None, outputs=outputs, inputs=inputs,
                  error_message=message)
    failure = FailureEvent(job, run_id, last.event_time, message or "", outputs) if state == "failed" else None
    return run, failure


def event_dataset_ids(settings: Settings, datasets: Any) -> list[str]:
    """The canonical ids of an OpenLineage event's `inputs` or `outputs` (names that do not parse are left out)."""
    out = []
    for ds in datasets or []:
        try:
            out.append(canonical_dataset_id(ds.get("name", ""), ds.get("namespace"), settings.aliases))
        except IdentityError:
            continue
    return out


def airflow_runs(settings: Settings, graph: ContextGraph | None, symptom: Symptom, upstream: list[GraphNode],
                 window: tuple[datetime, datetime], max_runs: int, clients: Mapping[str, AirflowApi] | None) -> list[TaskRun]:
    """Task instances of the DAGs in scope (upstream tasks and the symptom's own DAG) in the window."""
    if not settings.airflow.instances:
        return []

    dag_ids = {n.node_id.split(":", 1)[-1].split(".", 1)[0] for n in upstream if n.kind in ("task", "dag")
               and n.system == "airflow"}
    if symptom.job:
        dag_ids.add(symptom.job.split(".", 1)[0])
    owned = clients is None
    clients = clients if clients is not None else clients_from_settings(settings)
    runs: list[tuple[Any, TaskRun]] = []  # with the client that read each, for its log
    try:
        for dag_id in sorted(dag_ids):
            for client in clients.values():
                try:
                    dag_runs = client.list_dag_runs(dag_id, end_date_since=window[0])
                except AirflowNotFoundError:
                    continue
                for dag_run in sorted(dag_runs, key=lambda r: r.start_date or window[0])[-max_runs:]:
                    runs += [(client, r) for r in _task_runs(graph, settings, client, dag_run, window)]
        return _with_failed_logs(runs)
    finally:
        if owned:
            for client in clients.values():
                client.close()


MAX_LOGS = 6  # failed tries whose logs are read per diagnosis, newest first


def _with_failed_logs(runs: list[tuple[Any, TaskRun]]) -> list[TaskRun]:
    """Each failed try (the newest MAX_LOGS) gets its own error lines from its log, read through the
    Airflow API; a log that cannot be read leaves the run as it was and says so in its message."""
    failed = sorted((i for i, (_, r) in enumerate(runs) if r.state == "failed" and r.try_number >= 1),
                    key=lambda i: runs[i][1].end or runs[i][1].start or datetime.min.replace(tzinfo=UTC),
                    reverse=True)[:MAX_LOGS]
    out = [r for _, r in runs]
    for i in failed:
        client, run = runs[i]
        try:
            text = client.task_log(run.dag_id, run.run_id, run.task_id, run.try_number)
        except Exception as exc:  # noqa: BLE001  a missing log is a gap on that run, not a failed diagnosis
            out[i] = replace(run, error_message=f"(log of try {run.try_number} not readable: "
                                                f"{type(exc).__name__}: {str(exc)[:200]})")
            continue
        lines = error_lines(text)
        _, line = classify_log(lines)  # the line that names the failure is the run's error
        out[i] = replace(run, error_message=line, log_lines=lines)
    return out


def _task_runs(graph: ContextGraph | None, settings: Settings, client: AirflowApi, dag_run: DagRun, window) -> list[TaskRun]:
    if dag_run.start_date and dag_run.start_date > window[1]:
        return []
    out = []
    for ti in client.list_task_instances(dag_run.dag_id, dag_run.run_id):
        outputs, inputs = _task_io(graph, settings, dag_run.dag_id, ti.task_id)
        out.append(TaskRun("airflow", dag_run.dag_id, ti.task_id, dag_run.run_id, ti.state or "none",
                           ti.start_date, ti.end_date, try_number=ti.try_number, conf=dict(dag_run.conf or {}),
                           outputs=outputs, inputs=inputs))
    return out


def _task_io(graph: ContextGraph | None, settings: Settings, dag_id: str, task_id: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    outputs = {canonical_dataset_id(d) for d in settings.airflow.task_outputs.get(f"{dag_id}.{task_id}", [])}
    inputs: set[str] = set()
    node = airflow_task_node_id(dag_id, task_id)
    if graph is not None and node in graph:
        for edge in graph.edges_of(node):
            if edge.src == node:
                outputs.add(edge.dst)
            else:
                inputs.add(edge.src)
    return tuple(sorted(outputs)), tuple(sorted(inputs))


def utc_from_epoch(value: float) -> datetime:
    return datetime.fromtimestamp(value, tz=UTC)


def as_date(value: Any) -> date | None:
    """`dw_assets.core.dates.as_date`, or None for a value that is not a date."""
    try:
        return dates.as_date(value)
    except ValueError:
        return None


def is_orchestration(node: GraphNode) -> bool:
    return node.kind in _ORCHESTRATION


def string_changes(changes: list[SchemaChange]) -> dict[str, set[str]]:
    """dataset -> columns that became strings: where odd values are worth sampling."""
    out: dict[str, set[str]] = {}
    for c in changes:
        if c.change == "type_changed" and type_family(c.new_type) == "string":
            out.setdefault(c.dataset_id, set()).add(c.column)
    return out


def estate_warehouse(settings: Settings) -> Any:
    """The configured warehouse; before dbt has built its own file, the attached catalogs alone
    (a fresh estate's bronze and lake tables can be profiled before any model exists)."""
    wh = Warehouse.from_settings(settings)
    main = [p for name, p in wh._duckdb_files() if name not in wh.attach] if wh.is_duckdb else []
    if main and not main[0].exists():
        return Warehouse("duckdb:///:memory:", wh.attach)
    return wh
