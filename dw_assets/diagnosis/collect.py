"""Evidence collectors: read the estate's systems through the connectors and stores, bounded in time
(`Bounds.hours_before` before the symptom, `Bounds.commit_days` for git) and in graph depth
(`Bounds.max_depth` hops upstream, orchestration nodes counted).

Each collector is independent: one that fails (Airflow down, no warehouse file, no repo) leaves a
line in `EvidenceBundle.gaps` naming the system and the error, and diagnosis goes on with the rest.
Everything is read-only: the warehouse connector refuses writes, git runs read-only commands only,
the landing zone is listed and CSV parts are profiled in an in-memory DuckDB.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from dw_assets.config import Settings
from dw_assets.connectors.airflow.api import AirflowApi
from dw_assets.connectors.warehouse import Warehouse
from dw_assets.core.diagnosis import default_window
from dw_assets.core.evidence import Commit, EvidenceBundle, GraphNode, ModelSource, Symptom
from dw_assets.core.graph import ContextGraph
from dw_assets.diagnosis import profiles, sources
from dw_assets.diagnosis.repos import dag_files_for, repo_for
from dw_assets.store import Store


@dataclass(frozen=True)
class Bounds:
    hours_before: float = 48.0
    commit_days: float = 14.0
    max_depth: int = 8  # hops upstream, tasks and DAGs counted
    max_dag_runs: int = 20  # per DAG and Airflow instance
    max_datasets: int = 40


DEFAULT_BOUNDS = Bounds()


class _Gaps(list):
    def guard(self, name: str, fn: Callable[[], Any], default: Any = ()) -> Any:
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001  one system down must not stop the diagnosis: record the gap
            self.append(f"{name}: {type(exc).__name__}: {str(exc)[:300]}")
            return default


def collect_evidence(settings: Settings, store: Store | None, symptom: Symptom, *, graph: ContextGraph | None = None,
                     bounds: Bounds = DEFAULT_BOUNDS, airflow_clients: Mapping[str, AirflowApi] | None = None,
                     warehouse: Warehouse | None = None) -> EvidenceBundle:
    gaps = _Gaps()
    window = default_window(symptom.observed_at, bounds.hours_before)
    if graph is not None:
        root = gaps.guard("context graph", lambda: sources.resolve_root(graph, symptom), None)
        relation = symptom.metrics.get("dbt_test_relation") if isinstance(symptom.metrics, dict) else None
        reported = relation if isinstance(relation, str) else symptom.dataset_id
        if root and reported and (isinstance(relation, str) or (root != reported and not root.startswith("airflow:"))):
            # a dbt test's audit relation stands for the node it tests: its failing rows are evidence
            test = gaps.guard("dbt test", lambda: sources.dbt_test_evidence(settings, graph, reported, warehouse), {})
            symptom = replace(symptom, dataset_id=root, metrics={**symptom.metrics, **({"dbt_test": test}
                                                                                       if test else {})})
    else:
        gaps.append("context graph: not available")
    upstream, notes = gaps.guard("context graph", lambda: sources.graph_scope(graph, symptom, bounds.max_depth),
                                 ([], [])) if graph is not None else ([], [])
    models = gaps.guard("dbt models", lambda: sources.model_sources(settings, graph, upstream, symptom.dataset_id)) \
        if graph is not None else []
    datasets = ([symptom.dataset_id] if symptom.dataset_id else []) + [
        n.node_id for n in upstream if not sources.is_orchestration(n)][:bounds.max_datasets]
    changes = gaps.guard("schema history", lambda: sources.schema_changes(_recorded(store), datasets, window))
    changes = list(changes) + gaps.guard("schema drift", lambda: sources.drift_changes(
        settings, _recorded(store), datasets, changes, window, warehouse))
    schemas = gaps.guard("schemas", lambda: sources.current_schemas(settings, _recorded(store), datasets, changes,
                                                                    warehouse))
    lineage, failures = gaps.guard("openlineage runs", lambda: sources.lineage_runs(settings, _recorded(store), datasets,
                                                                                    window), ([], []))
    if graph is not None:  # a failed dbt build's own error, from run_results.json
        built, broke = gaps.guard("dbt run results", lambda: sources.dbt_failures(settings, graph, datasets, window),
                                  ([], []))
        lineage, failures = list(lineage) + built, list(failures) + broke
    airflow = gaps.guard("airflow", lambda: sources.airflow_runs(settings, graph, symptom, upstream, window,
                                                                bounds.max_dag_runs, airflow_clients))
    landed = gaps.guard("landing zone", lambda: profiles.landed_files(settings, symptom, datasets))
    keys = profiles.key_columns_from_graph(graph, datasets) if graph is not None else {}
    shaped = gaps.guard("warehouse profile", lambda: profiles.profiles(settings, symptom, datasets, changes, warehouse,
                                                                      keys))
    upstream = gaps.guard("dag files", lambda: _with_dag_files(settings, upstream, symptom), upstream)
    commits = gaps.guard("git", lambda: recent_commits(settings, symptom, upstream, models, bounds))
    return EvidenceBundle(symptom, window, tuple(upstream), tuple(changes), tuple(schemas),
                          tuple(airflow) + tuple(lineage), tuple(landed), tuple(shaped), tuple(failures),
                          tuple(commits), tuple(models), tuple(notes), tuple(gaps))


def _dag_id(node: GraphNode) -> str:
    return node.node_id.split(":", 1)[-1].split(".", 1)[0]


def _with_dag_files(settings: Settings, upstream: list[GraphNode], symptom: Symptom) -> list[GraphNode]:
    """Task nodes get the repo-relative path of the file defining their DAG, when one is found."""
    out = []
    for node in upstream:
        if node.kind == "task" and node.system == "airflow" and not node.file_path:
            files = dag_files_for(settings, _dag_id(node), symptom.dataset_id)
            if files:
                node = replace(node, file_path=files[0][1])
        out.append(node)
    return out


def recent_commits(settings: Settings, symptom: Symptom, upstream: list[GraphNode], models: list[ModelSource],
                   bounds: Bounds) -> list[Commit]:
    """Commits in the owning repos touching the scope's model SQL and DAG files."""
    paths_by_repo: dict[str, tuple[Any, set[str]]] = {}
    for model in models:
        repo = repo_for(settings, model.node_id)
        if repo:
            paths_by_repo.setdefault(str(repo.root), (repo, set()))[1].add(model.file_path)
    for node in upstream:
        if node.kind == "task" and node.system == "airflow":
            for repo, path in dag_files_for(settings, _dag_id(node), symptom.dataset_id):
                paths_by_repo.setdefault(str(repo.root), (repo, set()))[1].add(path)
    since = symptom.observed_at - timedelta(days=bounds.commit_days)
    commits: list[Commit] = []
    for repo, paths in paths_by_repo.values():
        commits += repo.recent_commits(sorted(paths), since=since, until=symptom.observed_at)
    return commits


def _recorded(store: Store | None) -> Store:
    """The state store a source reads; without one (`dw report` before anything was recorded) the
    source's gap says so."""
    if store is None:
        raise LookupError("no state store yet (nothing recorded)")
    return store
