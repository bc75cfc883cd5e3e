"""Assembling the graph of a configured estate: manifest, config, feeds, notes, domain owners."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dw_assets import context_graph
from dw_assets.context_graph import ContextGraphError, FeedEntry, build_context_graph, cached_context_graph
from dw_assets.core.graph import Provenance


def test_build_joins_manifest_config_and_notes(small_settings) -> None:
    g = build_context_graph(small_settings)
    up = g.trace("stg_orders", max_depth=None, include_orchestration=True)
    assert [n.id for n in up.nodes] == ["analytics.stg_orders", "lake.orders_clean",
                                        "airflow:orders_daily.orders_clean", "app.orders"]
    write = next(e for e in up.edges if e.dst == "lake.orders_clean")
    assert [(p.origin, p.ref) for p in write.provenance] == [
        ("config", "airflow.task_outputs.orders_daily.orders_clean")]
    assert g.edges_of("airflow:orders_daily.orders_clean", structure=True)[0].relation == "contains"
    assert g.resolve("orders_asset") == "lake.orders_clean"  # config alias
    # notes are the last word on owners; domains fill what nobody recorded
    assert g.node("exposure:close_review").owner == "finance-controller"
    lake = g.node("lake.orders_clean")
    assert (lake.owner, lake.attrs["owner_from"]) == ("priya.raman", "domain:revenue")
    assert g.node("app.orders").owner == "app-platform"


def test_a_feed_adds_edges(small_settings) -> None:
    seen = {}

    def openlineage_feed(graph, settings, store):
        seen["store"] = store
        graph.add_node("ol:job/orders_clean", "job", "openlineage")
        graph.add_edge("app.orders", "ol:job/orders_clean", "reads", Provenance("openlineage", ref="run-1"))
        graph.add_edge("ol:job/orders_clean", "lake.orders_clean", "writes", Provenance("openlineage", ref="run-1"))

    # the feed runs before notes, so it must create app.orders itself: notes then enrich it
    def app_feed(graph, settings, store):
        graph.add_node("app.orders", "dataset", "app")

    context_graph.FEEDS["a_app"] = FeedEntry(app_feed, None)
    context_graph.FEEDS["b_openlineage"] = FeedEntry(openlineage_feed, None)
    g = build_context_graph(small_settings, store="the-store")
    assert seen["store"] == "the-store"
    edge = {(e.src, e.dst): e for e in g.trace("lake.orders_clean").edges}[("app.orders", "lake.orders_clean")]
    assert {p.origin for p in edge.provenance} == {"openlineage", "note", "config"}
    assert set(edge.via) == {"ol:job/orders_clean", "airflow:orders_daily.orders_clean"}


def test_failing_feed_names_itself(small_settings) -> None:
    def broken(graph, settings, store):
        raise OSError("events folder unreadable")

    context_graph.FEEDS["broken"] = FeedEntry(broken, None)
    with pytest.raises(ContextGraphError, match="feed 'broken' failed: OSError: events folder unreadable"):
        build_context_graph(small_settings)


def test_missing_manifest_is_a_clear_error(small_settings, small_estate: Path) -> None:
    (small_estate.parent / "target" / "manifest.json").unlink()
    with pytest.raises(ContextGraphError, match="manifest.json .*does not exist"):
        build_context_graph(small_settings)


def test_cache_reuses_until_an_input_changes(small_settings, small_estate: Path) -> None:
    first = cached_context_graph(small_settings)
    assert cached_context_graph(small_settings) is first
    notes = small_estate.parent / "notes.yaml"
    os.utime(notes, ns=(notes.stat().st_atime_ns, notes.stat().st_mtime_ns + 1_000_000))
    second = cached_context_graph(small_settings)
    assert second is not first
    version = {"token": 1}
    context_graph.FEEDS["versioned"] = FeedEntry(lambda g, s, st: None, lambda s, st: version["token"])
    third = cached_context_graph(small_settings)
    assert cached_context_graph(small_settings) is third
    version["token"] = 2
    assert cached_context_graph(small_settings) is not third
    context_graph.FEEDS["unversioned"] = FeedEntry(lambda g, s, st: None, None)
    assert cached_context_graph(small_settings) is not cached_context_graph(small_settings)
