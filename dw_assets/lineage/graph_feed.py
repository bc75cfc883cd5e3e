"""What OpenLineage events say about the estate's shape, kept compact and fed to the context graph.

Each event yields nodes and edges (pure: `lineage_of_event`): its job, `reads` edges from input
datasets, `writes` edges to outputs, `contains` from the Airflow DAG named by the parent run facet
(when the parent looks like an Airflow DAG; the provider's DAG-run events give the DAG node), and
`feeds` edges between datasets from columnLineage facets (the column map kept on the edge and on
the output node). `sync_graph_tables` folds new
events into two small tables (one row per distinct node and edge, the last run that reported it),
so building the graph costs the estate's size, not the event count. The feed that
`dw_assets.context_graph` calls reads those tables; provenance origin `openlineage`, ref the job.
Writes only `dw_ol_graph_nodes` / `dw_ol_graph_edges` and the cursor `openlineage:graph`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from dw_assets.config import Settings
from dw_assets.connectors.openlineage.event_store import LineageEventStore, StoredEvent, utc
from dw_assets.connectors.openlineage.intake import DatasetIdFn, dataset_id_resolver
from dw_assets.core.graph import ContextGraph, Provenance
from dw_assets.core.identity import STORAGE_SCHEMES, airflow_dag_node_id, airflow_task_node_id
from dw_assets.store import Store, metadata

CONSUMER = "openlineage:graph"
log = logging.getLogger(__name__)

graph_nodes = sa.Table(
    "dw_ol_graph_nodes", metadata,
    sa.Column("node_id", sa.String(1500), primary_key=True),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("system", sa.String(64), nullable=False),
    sa.Column("name", sa.String(1500), nullable=False),
    sa.Column("attrs", sa.Text, nullable=False),
    sa.Column("last_seq", sa.BigInteger, nullable=False),
)
graph_edges = sa.Table(
    "dw_ol_graph_edges", metadata,
    sa.Column("src", sa.String(1500), primary_key=True),
    sa.Column("dst", sa.String(1500), primary_key=True),
    sa.Column("relation", sa.String(16), primary_key=True),
    sa.Column("job", sa.String(1500), nullable=False),
    sa.Column("columns", sa.Text),  # feeds edges: {"out_col": ["in_col", ...]}
    sa.Column("last_run_id", sa.String(36)),
    sa.Column("last_event_time", sa.DateTime(timezone=True), nullable=False),
    sa.Column("last_seq", sa.BigInteger, nullable=False),
)


@dataclass(frozen=True)
class NodeSpec:
    node_id: str
    kind: str
    system: str
    name: str
    attrs: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class EdgeSpec:
    src: str
    dst: str
    relation: str  # reads | writes | contains | feeds
    job: str  # "namespace/name" of the job that reported it
    columns: dict[str, list[str]] | None = None


def _facet(container: Any, key: str) -> dict[str, Any]:
    value = container.get(key) if isinstance(container, dict) else None
    return value if isinstance(value, dict) else {}


def airflow_dag_of_parent(parent: dict[str, Any], known_dags: Iterable[str] = ()) -> str | None:
    """The DAG id a parent run facet points at, when the parent looks like an Airflow DAG (or task):
    the root job of an Airflow parent, a parent in an `airflow` namespace or with jobType integration
    AIRFLOW (a TASK parent names `dag.task`), or a parent whose name is a known DAG id."""
    job = _facet(parent, "job")
    name, namespace = job.get("name"), str(job.get("namespace") or "")
    if not isinstance(name, str) or not name:
        return None
    job_type = _facet(_facet(job, "facets"), "jobType")
    airflowish = namespace.lower().startswith("airflow") or job_type.get("integration") == "AIRFLOW"
    root_job = _facet(_facet(parent, "root"), "job")
    if airflowish and isinstance(root_job.get("name"), str):
        return root_job["name"]
    if airflowish:
        return name.split(".", 1)[0] if job_type.get("jobType") == "TASK" else name
    known = set(known_dags)
    return name if name in known else None


def airflow_dag_job(job: dict[str, Any]) -> str | None:
    """The DAG id when the job is an Airflow DAG (Airflow's provider reports each DAG run as a job
    named by the DAG id with jobType DAG, integration AIRFLOW)."""
    job_type = _facet(_facet(job, "facets"), "jobType")
    name = job.get("name")
    if str(job_type.get("jobType") or "").upper() == "DAG" and job_type.get("integration") == "AIRFLOW" \
            and isinstance(name, str) and name:
        return name
    return None


def _dag_node(dag_id: str) -> NodeSpec:
    return NodeSpec(airflow_dag_node_id(dag_id), "dag", "airflow", dag_id)


def _job_node(job: dict[str, Any], dag_id: str | None) -> NodeSpec:
    namespace, name = job["namespace"], job["name"]
    job_type = _facet(job.get("facets"), "jobType")
    integration = str(job_type.get("integration") or "")
    airflow_task = integration == "AIRFLOW" or namespace.lower().startswith("airflow")
    if airflow_task and dag_id and name.startswith(f"{dag_id}."):
        task_id = name[len(dag_id) + 1:]
        return NodeSpec(airflow_task_node_id(dag_id, task_id), "task", "airflow", name)
    system = integration.lower() or "openlineage"
    attrs = {"openlineage_job": f"{namespace}/{name}"}
    return NodeSpec(f"openlineage:{namespace}/{name}", "job", system, name, attrs)


def _dataset_node(ds: dict[str, Any], dataset_id: DatasetIdFn) -> NodeSpec:
    scheme = ds["namespace"].split("://", 1)[0].lower() if "://" in ds["namespace"] else ""
    system = "landing" if scheme in STORAGE_SCHEMES else "warehouse"
    return NodeSpec(dataset_id(ds["namespace"], ds["name"]), "dataset", system, ds["name"])


def _column_lineage(out: dict[str, Any], out_id: str, dataset_id: DatasetIdFn) -> dict[str, dict[str, list[str]]]:
    """input dataset id -> {output column: [input columns]} from an output's columnLineage facet."""
    by_input: dict[str, dict[str, list[str]]] = {}
    for column, spec in _facet(_facet(out, "facets"), "columnLineage").get("fields", {}).items():
        for src in spec.get("inputFields", []) if isinstance(spec, dict) else []:
            if isinstance(src, dict) and {"namespace", "name", "field"} <= src.keys():
                in_id = dataset_id(src["namespace"], src["name"])
                if in_id != out_id:
                    by_input.setdefault(in_id, {}).setdefault(column, []).append(src["field"])
    return by_input


def lineage_of_event(event: dict[str, Any], dataset_id: DatasetIdFn,
                     known_dags: Iterable[str] = ()) -> tuple[list[NodeSpec], list[EdgeSpec]]:
    """Nodes and edges one (validated) RunEvent or JobEvent reports; none for DatasetEvents."""
    job = event.get("job")
    if not isinstance(job, dict):
        return [], []
    if str(_facet(_facet(job, "facets"), "jobType").get("jobType", "")).upper() == "TEST":
        return [], []  # a data test reads a model; its audit relation is not data anyone consumes
    if (dag := airflow_dag_job(job)) is not None:  # the provider's DAG-run events: the DAG itself
        return [_dag_node(dag)], []
    parent = _facet(_facet(event.get("run"), "facets"), "parent")
    dag_id = airflow_dag_of_parent(parent, known_dags) if parent else None
    job_node = _job_node(job, dag_id)
    job_key = f"{job['namespace']}/{job['name']}"
    nodes, edges = [job_node], []
    if dag_id:
        dag_node = _dag_node(dag_id)
        nodes.append(dag_node)
        edges.append(EdgeSpec(dag_node.node_id, job_node.node_id, "contains", job_key))
    for ds in event.get("inputs") or []:
        node = _dataset_node(ds, dataset_id)
        nodes.append(node)
        edges.append(EdgeSpec(node.node_id, job_node.node_id, "reads", job_key))
    for ds in event.get("outputs") or []:
        node = _dataset_node(ds, dataset_id)
        nodes.append(node)
        edges.append(EdgeSpec(job_node.node_id, node.node_id, "writes", job_key))
        for in_id, columns in _column_lineage(ds, node.node_id, dataset_id).items():
            nodes.append(NodeSpec(in_id, "dataset", "warehouse", in_id))
            edges.append(EdgeSpec(in_id, node.node_id, "feeds", job_key, columns))
    return nodes, edges


def _upsert(store: Store, table: sa.Table, keys: list[str], rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    dialect = postgresql if store.dialect == "postgresql" else sqlite
    stmt = dialect.insert(table)
    values: dict[str, Any] = {c.name: stmt.excluded[c.name] for c in table.columns if c.name not in keys}
    if table is graph_nodes:  # a columnLineage mention names a node by its id: keep a real name
        values["name"] = sa.case((stmt.excluded.name == stmt.excluded.node_id, table.c.name),
                                 else_=stmt.excluded.name)
    stmt = stmt.on_conflict_do_update(index_elements=keys, set_=values)
    with store.engine.begin() as conn:
        conn.execute(stmt, rows)


def known_dag_ids(task_outputs: dict[str, list[str]]) -> set[str]:
    return {key.partition(".")[0] for key in task_outputs}


def is_own_event(stored: StoredEvent, emit_namespace: str) -> bool:
    """Data Workers' own verification runs: not part of the estate's shape, not an estate failure."""
    return stored.job_namespace == emit_namespace and (stored.job_name or "").startswith("data_workers.")


_KEY_CHARS = 1500  # the graph tables' key columns


def _fits(*values: str) -> bool:
    """A value the key columns can hold on every database (PostgreSQL refuses longer ones, and NUL)."""
    return all(len(v) <= _KEY_CHARS and "\x00" not in v for v in values)


def fold_events(store: Store, batch: list[StoredEvent], dataset_id: DatasetIdFn, known_dags: set[str],
                emit_namespace: str | None = None) -> int:
    """Upsert the nodes and edges of `batch` (later events win); returns the edges touched. A node
    or edge whose id no key column can hold (a columnLineage input named by kilobytes) is left out
    with a warning, so one such event cannot stop the feed for every later one."""
    nodes: dict[str, dict[str, Any]] = {}
    edges: dict[tuple[str, str, str], dict[str, Any]] = {}
    for stored in batch:
        if emit_namespace and is_own_event(stored, emit_namespace):
            continue
        found_nodes, found_edges = lineage_of_event(stored.event, dataset_id, known_dags)
        unfit = [n.node_id[:80] for n in found_nodes if not _fits(n.node_id, n.name)]
        unfit += [e.src[:80] for e in found_edges if not _fits(e.src, e.dst, e.job)]
        if unfit:
            log.warning("OpenLineage event %d: %d node or edge ids too long for the graph left out (%s...)",
                        stored.seq, len(unfit), unfit[0])
            found_nodes = [n for n in found_nodes if _fits(n.node_id, n.name)]
            found_edges = [e for e in found_edges if _fits(e.src, e.dst, e.job)]
        for n in found_nodes:
            known = nodes.get(n.node_id)
            name = known["name"] if known and n.name == n.node_id else n.name  # see _upsert
            nodes[n.node_id] = {"node_id": n.node_id, "kind": n.kind, "system": n.system, "name": name,
                                "attrs": n.attrs, "last_seq": stored.seq}
        for e in found_edges:
            edges[(e.src, e.dst, e.relation)] = {
                "src": e.src, "dst": e.dst, "relation": e.relation, "job": e.job, "columns": e.columns,
                "last_run_id": stored.run_id, "last_event_time": utc(stored.event_time), "last_seq": stored.seq}
    # serialised once per row written, not per mention: a batch names the same few thousand
    # nodes and edges again and again
    for row in nodes.values():
        row["attrs"] = json.dumps(row["attrs"], sort_keys=True)
    for row in edges.values():
        row["columns"] = json.dumps(row["columns"], sort_keys=True) if row["columns"] else None
    _upsert(store, graph_nodes, ["node_id"], list(nodes.values()))
    _upsert(store, graph_edges, ["src", "dst", "relation"], list(edges.values()))
    return len(edges)


def sync_graph_tables(settings: Settings, store: Store, *, batch_size: int = 5000) -> int:
    """Fold every event after the `openlineage:graph` cursor into the graph tables; idempotent."""
    events = LineageEventStore(store)
    dataset_id = dataset_id_resolver(settings.aliases)
    known = known_dag_ids(settings.airflow.task_outputs)
    cursor = int(store.get_cursor(CONSUMER) or 0)
    touched = 0
    while batch := events.read_after(cursor, batch_size):
        touched += fold_events(store, batch, dataset_id, known, settings.openlineage.emit_namespace)
        cursor = batch[-1].seq
        store.set_cursor(CONSUMER, str(cursor))
    return touched


def feed_graph(graph: ContextGraph, settings: Settings, store: Store | None,
               sync: Callable[[Settings, Store], int] = sync_graph_tables) -> None:
    """The context-graph feed: nodes and edges OpenLineage reported (see the module docstring)."""
    if store is None:
        return
    sync(settings, store)
    with store.engine.connect() as conn:
        node_rows = conn.execute(sa.select(graph_nodes)).all()
        edge_rows = conn.execute(sa.select(graph_edges).order_by(graph_edges.c.last_seq)).all()
    _add_rows(graph, node_rows, edge_rows)
    column_maps: dict[str, dict[str, list[str]]] = {}
    for row in edge_rows:
        _add_columns(column_maps, row)
    for node_id, columns in column_maps.items():
        graph.node(node_id).attrs["column_lineage"] = columns


def update_graph(graph: ContextGraph, settings: Settings, store: Store | None, since: str | int | None,
                 sync: Callable[[Settings, Store], int] = sync_graph_tables) -> set[str]:
    """Bring a graph this feed filled at version `since` (a `feed_version` token) up to date: the
    table rows that events after `since` touched (`last_seq > since`), applied as `feed_graph`
    applies them, a re-reported edge's OpenLineage provenance replaced (the tables keep the last
    run per edge), and the column map of each output they feed recomputed. Returns the touched
    node ids. Cost grows with the new events' nodes and edges, not with the estate."""
    if store is None:
        return set()
    sync(settings, store)
    since = int(since or 0)
    with store.engine.connect() as conn:
        node_rows = conn.execute(sa.select(graph_nodes).where(graph_nodes.c.last_seq > since)).all()
        edge_rows = conn.execute(sa.select(graph_edges).where(graph_edges.c.last_seq > since)
                                 .order_by(graph_edges.c.last_seq)).all()
        fed = sorted({row.dst for row in edge_rows if row.relation == "feeds"})
        column_rows = [row for chunk in range(0, len(fed), 500) for row in conn.execute(
            sa.select(graph_edges).where(graph_edges.c.relation == "feeds", graph_edges.c.dst.in_(fed[chunk:chunk + 500]))
            .order_by(graph_edges.c.last_seq)).all()]
    _add_rows(graph, node_rows, edge_rows, replace=True)
    column_maps: dict[str, dict[str, list[str]]] = {}
    for row in column_rows:
        _add_columns(column_maps, row)
    for node_id in fed:
        attrs = graph.node(node_id).attrs
        if node_id in column_maps:
            attrs["column_lineage"] = column_maps[node_id]
        else:
            attrs.pop("column_lineage", None)
    return {row.node_id for row in node_rows} | {n for row in edge_rows for n in (row.src, row.dst)}


def _add_rows(graph: ContextGraph, node_rows: Sequence[Any], edge_rows: Sequence[Any], *, replace: bool = False) -> None:
    for row in node_rows:
        if row.node_id not in graph or row.kind != "dataset":  # let dbt's richer model nodes stand
            graph.add_node(row.node_id, row.kind, row.system, name=row.name, attrs=json.loads(row.attrs))
    for row in edge_rows:
        provenance = Provenance("openlineage", source=row.job, ref=row.last_run_id,
                                recorded_at=utc(row.last_event_time))
        if replace:
            graph.replace_provenance(row.src, row.dst, row.relation, "openlineage", provenance)
        else:
            graph.add_edge(row.src, row.dst, row.relation, provenance)


def _add_columns(column_maps: dict[str, dict[str, list[str]]], row: Any) -> None:
    if row.columns:
        for column, inputs in json.loads(row.columns).items():
            column_maps.setdefault(row.dst, {}).setdefault(column, []).extend(f"{row.src}.{c}" for c in inputs)


def feed_version(settings: Settings, store: Store | None) -> int | None:
    """Changes whenever a new event is stored, so the cached graph is brought up to date
    (`update_graph` with the old token)."""
    return LineageEventStore(store).max_seq() if store is not None else None

