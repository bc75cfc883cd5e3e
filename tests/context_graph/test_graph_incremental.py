"""The cached context graph follows new OpenLineage events incrementally and ends up equal to a rebuild."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dw_assets import context_graph
from dw_assets.connectors.openlineage.event_store import LineageEventStore
from dw_assets.connectors.openlineage.intake import EventIntake
from dw_assets.context_graph import FeedEntry, build_context_graph, cached_context_graph
from dw_assets.core.graph import ContextGraph
from dw_assets.lineage import graph_feed
from dw_assets.lineage.processing import process_new_events
from dw_assets.store import Store

LAKE, APP = "duckdb:///estate/lake.duckdb", "duckdb:///estate/app.duckdb"
FACET = {"_producer": "https://example.com/tests", "_schemaURL": "https://openlineage.io/spec/facets/x.json"}


def _event(n: int, job: str, inputs: list[str], outputs: list[str], *, dag: str | None = None,
           columns: dict[str, str] | None = None, state: str = "COMPLETE") -> dict[str, Any]:
    """A run event of `job` reading `inputs` (app tables) and writing `outputs` (lake tables); with
    `dag`, an Airflow task of that DAG; `columns` maps an output column to an input column of the
    first input (a columnLineage facet on every output)."""
    run: dict[str, Any] = {"runId": f"00000000-0000-4000-8000-{n:012d}", "facets": {}}
    job_facets: dict[str, Any] = {}
    if dag:
        run["facets"]["parent"] = {**FACET, "run": {"runId": f"00000000-0000-4000-9000-{n:012d}"},
                                   "job": {"namespace": "airflow://estate", "name": dag}}
        job_facets["jobType"] = {**FACET, "processingType": "BATCH", "integration": "AIRFLOW", "jobType": "TASK"}
    out_facets = {"columnLineage": {**FACET, "fields": {out: {"inputFields": [
        {"namespace": APP, "name": inputs[0], "field": src}]} for out, src in columns.items()}}} if columns else {}
    return {"eventType": state, "eventTime": f"2026-09-01T02:{n // 60:02d}:{n % 60:02d}Z",
            "producer": "https://example.com/tests", "schemaURL":
            "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
            "run": run, "job": {"namespace": "airflow://estate" if dag else "spark", "name": job, "facets": job_facets},
            "inputs": [{"namespace": APP, "name": name} for name in inputs],
            "outputs": [{"namespace": LAKE, "name": name, "facets": out_facets} for name in outputs]}


def _store_events(settings: Any, store: Store, events: list[dict[str, Any]]) -> None:
    intake = EventIntake.from_settings(settings)
    LineageEventStore(store).append_many([intake.accept_event(e, "test") for e in events])


def _snapshot(graph: ContextGraph) -> tuple[dict[str, Any], dict[tuple[str, str, str], frozenset[Any]]]:
    """Every node with its fields and attributes; every edge with the set of its provenance records."""
    return ({n.id: n.to_dict() for n in graph.nodes()},
            {(e.src, e.dst, e.relation): frozenset(e.provenance) for e in graph.edges()})


@pytest.fixture
def state(dw_home: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{dw_home}/state.db")
    s.ensure_schema()
    yield s
    s.dispose()


def test_new_events_update_the_cached_graph_to_what_a_rebuild_gives(small_settings, state: Store,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    builds: list[int] = []

    def feed(graph: ContextGraph, settings: Any, store: Any) -> None:
        builds.append(1)
        graph_feed.feed_graph(graph, settings, store)

    monkeypatch.setitem(context_graph.FEEDS, "openlineage",
                        FeedEntry(feed, graph_feed.feed_version, graph_feed.update_graph))
    _store_events(small_settings, state, [
        _event(1, "orders_daily.orders_clean", ["app.main.orders"], ["lake.main.orders_clean"], dag="orders_daily",
               columns={"discount": "discount"}),
        _event(2, "refresh_customers", ["app.main.customers"], ["lake.main.customers"]),
    ])
    first = cached_context_graph(small_settings, store=state)
    assert builds == [1]
    before = first.trace("lake.customers", "upstream").node_ids()

    # the sensor's pass folds the next events into the graph tables; then the graph catches up
    _store_events(small_settings, state, [
        # re-reported by a new run, with a different column map: provenance and columns replaced
        _event(3, "orders_daily.orders_clean", ["app.main.orders"], ["lake.main.orders_clean"], dag="orders_daily",
               columns={"amount": "amount"}),
        _event(4, "refresh_customers", ["app.main.customers", "app.main.regions"], ["lake.main.customers"]),
        _event(5, "build_revenue", ["app.main.orders"], ["lake.main.revenue", "lake.main.revenue_daily"],
               dag="finance_nightly"),
    ])
    process_new_events(small_settings, state, intake=lambda *args: None, ingest=False)
    second = cached_context_graph(small_settings, store=state)
    # events the sensor has not processed yet: the feed folds them itself
    _store_events(small_settings, state, [
        _event(6, "publish_revenue", ["app.main.fx"], ["lake.main.revenue"], columns={"total": "rate"}),
        _event(7, "refresh_customers", ["app.main.customers"], ["lake.main.customers"], state="FAIL"),
    ])
    third = cached_context_graph(small_settings, store=state)

    assert first is second is third and builds == [1]  # updated in place, never rebuilt
    assert cached_context_graph(small_settings, store=state) is third
    rebuilt = build_context_graph(small_settings, store=state)
    assert _snapshot(third) == _snapshot(rebuilt)
    assert third.node("lake.orders_clean").attrs["column_lineage"] == {"amount": ["app.orders.amount"]}
    assert third.node("lake.revenue").owner == "priya.raman"  # the domain's owner, filled for new nodes
    [writes] = [e for e in third.edges_of("lake.customers") if e.relation == "writes"]
    [provenance] = writes.provenance
    assert provenance.ref == "00000000-0000-4000-8000-000000000007"
    upstream = third.trace("lake.customers", "upstream").node_ids()
    assert "app.regions" in upstream and set(before) < set(upstream)
    for asset in ("app.orders", "lake.revenue", "lake.customers"):
        for direction in ("upstream", "downstream"):
            ours, theirs = third.trace(asset, direction), rebuilt.trace(asset, direction)
            assert sorted(ours.node_ids()) == sorted(theirs.node_ids())
            assert sorted(ours.edges) == sorted(theirs.edges)
        assert (sorted(a.id for a in third.blast_radius(asset).affected)
                == sorted(a.id for a in rebuilt.blast_radius(asset).affected))


def test_a_changed_input_other_than_the_feeds_still_rebuilds(small_settings, small_estate: Path, state: Store,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(context_graph.FEEDS, "openlineage",
                        FeedEntry(graph_feed.feed_graph, graph_feed.feed_version, graph_feed.update_graph))
    _store_events(small_settings, state, [_event(1, "refresh_customers", ["app.main.customers"],
                                                 ["lake.main.customers"])])
    first = cached_context_graph(small_settings, store=state)
    notes = small_estate.parent / "notes.yaml"
    notes.write_text(notes.read_text() + "\n")
    _store_events(small_settings, state, [_event(2, "refresh_customers", ["app.main.customers"],
                                                 ["lake.main.customers_v2"])])
    second = cached_context_graph(small_settings, store=state)
    assert second is not first and "lake.customers_v2" in second
