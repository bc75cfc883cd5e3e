"""The context graph of one configured estate: dbt's manifest, the config, the feeds (OpenLineage
events) and the team's notes, in that order.

Order matters only for owners: a later source's owner replaces an earlier one, so notes (read
last) are the human last word; then nodes still without an owner take their domain's owner
(`domains[].owner` in the config, attribute `owner_from: domain:<name>`).

Feed contract: a feed is `fn(graph, settings, store) -> None` that adds nodes and edges with
`graph.add_node` / `graph.add_edge`, ids built with `dw_assets.core.identity`, provenance origin
`openlineage` or `airflow`. `store` is the state `Store` (or None when the caller has none: a feed
that needs it then adds nothing). A new feed gets one line in `FEEDS`. Its `version(settings,
store)` returns a token that changes when the feed's data changes (e.g. the newest event id);
`cached_context_graph` rebuilds when any token changes, and never caches while a feed has no
`version`. A feed that raises aborts the build with `ContextGraphError` naming the feed: a graph
silently missing a system would mislead every trace.

Incremental refresh: a feed may also have `update(graph, settings, store, since) -> node ids`, which
adds to a graph built at version `since` what changed after it and returns the nodes it touched.
When only such feeds' tokens changed, `cached_context_graph` updates the cached graph in place
(the new events' nodes and edges; domain owners filled for the touched nodes) instead of
rebuilding it: with a day of OpenLineage events on a large estate a rebuild costs seconds per
tick, an update what the new events touched. The result equals a rebuild's up to the order of
edges and of an edge's provenance records (tests/context_graph/test_graph_incremental.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dw_assets.config import REPO_ROOT, Settings, dw_home, resolve_env
from dw_assets.connectors import dbt as dbt_connector
from dw_assets.connectors.dbt import load_artifact
from dw_assets.core.dbt_lineage import add_manifest, add_run_results
from dw_assets.core.graph import ContextGraph, Provenance
from dw_assets.core.identity import airflow_dag_node_id, airflow_task_node_id, canonical_dataset_id
from dw_assets.core.notes import apply_notes, load_notes
from dw_assets.lineage import graph_feed
from dw_assets.store import Store

Feed = Callable[[ContextGraph, Settings, Any], None]
FeedVersion = Callable[[Settings, Any], Any]
FeedUpdate = Callable[[ContextGraph, Settings, Any, Any], set[str]]


class ContextGraphError(RuntimeError):
    """The graph could not be assembled: a missing manifest, a failing feed."""


@dataclass(frozen=True)
class FeedEntry:
    fn: Feed
    version: FeedVersion | None
    update: FeedUpdate | None = None  # see the module docstring: incremental refresh


# every feed, by name (built in name order); tests replace this mapping
FEEDS: dict[str, FeedEntry] = {
    "openlineage": FeedEntry(graph_feed.feed_graph, graph_feed.feed_version, graph_feed.update_graph),
}
_cache: dict[tuple[Any, ...], ContextGraph] = {}
_cache_lock = threading.Lock()
_CACHE_SIZE = 4


def feed_names() -> list[str]:
    return sorted(FEEDS)


def manifest_path(settings: Settings) -> Path:
    return dbt_connector.project_paths(settings).manifest


def run_results_path(settings: Settings) -> Path:
    return dbt_connector.project_paths(settings).run_results


def notes_path(settings: Settings) -> Path | None:
    return settings.resolve_path(settings.notes, what="notes") if settings.notes else None


def checkout_parse_refusal(settings: Settings) -> str | None:
    """Why the manifest must not come from `dbt parse` here, or None: the config names no manifest,
    none exists, and the dbt project is inside this product checkout (the shipped config without
    DW_ESTATE_REPO), where a parse would write into the checkout and cost every Dagster process
    that loads the code location seconds of dbt start-up."""
    paths = dbt_connector.project_paths(settings)
    if settings.dbt.manifest or paths.manifest.exists() or not paths.project_dir.is_relative_to(REPO_ROOT):
        return None
    return (f"no dbt manifest at {paths.manifest}, and the dbt project {paths.project_dir} is inside this "
            f"checkout, where Data Workers never runs `dbt parse`. Run `make demo` first (its home, "
            f"{dw_home()}, then carries a config naming the demo's manifest), or set DW_ESTATE_REPO (or "
            f"dbt.project_dir in {settings.path}) to your estate's dbt repository, or dbt.manifest to its "
            f"manifest.json")


def ensure_manifest(settings: Settings) -> Path:
    """The manifest to read: `dbt.manifest` when configured (used as is), else the project's
    `target/manifest.json`, which the dbt connector refreshes with `dbt parse` when stale."""
    paths = dbt_connector.project_paths(settings)
    if settings.dbt.manifest:
        if not paths.manifest.exists():
            raise ContextGraphError(f"dbt manifest {paths.manifest} (dbt.manifest in {settings.path}) "
                                    f"does not exist: run `dbt parse` or fix the path")
        return paths.manifest
    if not paths.project_dir.is_dir():
        raise ContextGraphError(f"dbt project {paths.project_dir} (dbt.project_dir in {settings.path}) "
                                f"does not exist")
    try:
        return dbt_connector.ensure_manifest(paths.project_dir, paths.profiles_dir, settings=settings)
    except dbt_connector.DbtError as exc:
        raise ContextGraphError(f"no dbt manifest for {paths.project_dir}: {exc}") from exc


def build_context_graph(settings: Settings, *, store: Store | None = None) -> ContextGraph:
    graph = ContextGraph()
    for alias, target in settings.aliases.items():
        graph.add_alias(alias, canonical_dataset_id(target))
    index = add_manifest(graph, load_artifact(ensure_manifest(settings)))
    results = run_results_path(settings)
    if results.exists():
        add_run_results(graph, load_artifact(results), index)
    add_task_outputs(graph, settings.airflow.task_outputs)
    for name, entry in sorted(FEEDS.items()):
        try:
            entry.fn(graph, settings, store)
        except Exception as exc:
            raise ContextGraphError(f"context-graph feed {name!r} failed: {type(exc).__name__}: {exc}") from exc
    notes = notes_path(settings)
    if notes is not None:
        apply_notes(graph, load_notes(notes), notes)
    fill_domain_owners(graph, settings)
    return graph


def add_task_outputs(graph: ContextGraph, task_outputs: dict[str, list[str]]) -> None:
    """`airflow.task_outputs` (`dag_id.task_id: [dataset, ...]`, first dot splits): the tasks that
    write a dataset without saying so in OpenLineage."""
    for key, datasets in task_outputs.items():
        dag_id, _, task_id = key.partition(".")
        if not task_id:
            raise ContextGraphError(f"airflow.task_outputs key {key!r} must be 'dag_id.task_id'")
        dag, task = airflow_dag_node_id(dag_id), airflow_task_node_id(dag_id, task_id)
        graph.add_node(dag, "dag", "airflow", name=dag_id)
        graph.add_node(task, "task", "airflow", name=f"{dag_id}.{task_id}")
        provenance = Provenance("config", ref=f"airflow.task_outputs.{key}")
        graph.add_edge(dag, task, "contains", provenance)
        for dataset in datasets:
            dataset_id = canonical_dataset_id(dataset)
            if dataset_id not in graph:
                graph.add_node(dataset_id, "dataset", "warehouse")
            graph.add_edge(task, dataset_id, "writes", provenance)


def fill_domain_owners(graph: ContextGraph, settings: Settings, node_ids: Iterable[str] | None = None) -> None:
    """Give nodes without an owner their domain's owner: every node, or only `node_ids`."""
    if not settings.domains:
        return
    for node in graph.nodes() if node_ids is None else map(graph.node, node_ids):
        if node.owner or node.is_orchestration:
            continue
        domain = settings.domain_for(node.id)
        if domain and domain.owner:  # through add_node: the graph's owner tables must see it
            graph.add_node(node.id, node.kind, node.system, owner=domain.owner,
                           attrs={"owner_from": f"domain:{domain.name}"})


def cached_context_graph(settings: Settings, *, store: Store | None = None) -> ContextGraph:
    """`build_context_graph`, reused while the manifest, run results, notes, config and every
    feed's version token are unchanged. Treat the returned graph as read-only: it is shared."""
    if any(entry.version is None for entry in FEEDS.values()):
        return build_context_graph(settings, store=store)
    key = _cache_key(settings, store)
    with _cache_lock:
        if key in _cache:
            return _cache[key]
        updated = _update_in_place(key, settings, store)
        if updated is not None:
            return updated
    graph = build_context_graph(settings, store=store)
    with _cache_lock:
        if len(_cache) >= _CACHE_SIZE:
            _cache.pop(next(iter(_cache)))
        _cache[key] = graph
    return graph


def _update_in_place(key: tuple[Any, ...], settings: Settings, store: Store | None) -> ContextGraph | None:
    """The cached graph of the same inputs but older feed versions, brought up to `key` by the
    changed feeds' `update` (called with the cache lock held, so two callers do not both apply
    the same events); None when no such graph is cached or a changed feed cannot update."""
    feeds = dict(key[_FEEDS_AT])
    for old_key in reversed(list(_cache)):
        if old_key[:_FEEDS_AT] != key[:_FEEDS_AT] or old_key[_FEEDS_AT + 1:] != key[_FEEDS_AT + 1:]:
            continue
        old = dict(old_key[_FEEDS_AT])
        changed = [name for name in feeds if old.get(name) != feeds[name]]
        if old.keys() != feeds.keys() or any(FEEDS[name].update is None for name in changed):
            return None
        graph = _cache.pop(old_key)
        touched: set[str] = set()
        for name in sorted(changed):
            update = FEEDS[name].update
            assert update is not None
            try:
                touched |= update(graph, settings, store, old[name])
            except Exception as exc:
                raise ContextGraphError(f"context-graph feed {name!r} failed to update: "
                                        f"{type(exc).__name__}: {exc}") from exc
        fill_domain_owners(graph, settings, touched)
        _cache[key] = graph
        return graph
    return None


_FEEDS_AT = 6  # the feeds' versions in a cache key


def _cache_key(settings: Settings, store: Store | None) -> tuple[Any, ...]:
    def mtime(path: Path | None) -> int | None:
        return path.stat().st_mtime_ns if path is not None and path.exists() else None

    feeds = tuple((name, entry.version(settings, store)) for name, entry in sorted(FEEDS.items())
                  if entry.version is not None)
    return (str(settings.path), settings.model_dump_json(), resolve_env("${DW_HOME}"),
            mtime(manifest_path(settings)), mtime(run_results_path(settings)), mtime(notes_path(settings)),
            feeds, id(store))
