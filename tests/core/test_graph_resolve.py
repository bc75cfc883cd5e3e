"""Asset references: exact ids, aliases, labels, unique short names; unknown and ambiguous ones."""

from __future__ import annotations

import pytest

from dw_assets.core.identity import AmbiguousAssetError, UnknownAssetError
from tests.support.graph_builders import night2_graph


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        pytest.param("lake.orders_clean", "lake.orders_clean", id="exact"),
        pytest.param("orders_clean", "lake.orders_clean", id="short-name-prefers-data-over-task"),
        pytest.param("fct_revenue", "analytics.fct_revenue", id="short-name"),
        pytest.param("LAKE.MAIN.ORDERS_CLEAN", "lake.orders_clean", id="canonical-form"),
        pytest.param("revenue_dashboard", "exposure:revenue_dashboard", id="prefixed-id-suffix"),
        pytest.param("Revenue dashboard", "exposure:revenue_dashboard", id="label"),
        pytest.param("orders_daily.orders_clean", "airflow:orders_daily.orders_clean", id="task-suffix"),
        pytest.param("model.shop.fct_revenue", "analytics.fct_revenue", id="alias"),
        pytest.param("airflow://assets/orders", "lake.orders_clean", id="alias-uri"),
    ],
)
def test_resolve(query: str, expected: str) -> None:
    g = night2_graph()
    g.add_alias("model.shop.fct_revenue", "analytics.fct_revenue")
    g.add_alias("airflow://assets/orders", "lake.orders_clean")
    assert g.resolve(query) == expected


def test_ambiguous_short_name_lists_candidates() -> None:
    g = night2_graph()
    g.add_node("finance.orders_clean", "dataset", "warehouse")
    with pytest.raises(AmbiguousAssetError) as err:
        g.resolve("orders_clean")
    assert err.value.candidates == ["finance.orders_clean", "lake.orders_clean"]
    assert "finance.orders_clean, lake.orders_clean" in str(err.value)


def test_unknown_name_lists_near_misses() -> None:
    with pytest.raises(UnknownAssetError) as err:
        night2_graph().resolve("orders_cleaned_v2")
    assert err.value.candidates == []
    with pytest.raises(UnknownAssetError) as err:
        night2_graph().resolve("lake.orders")
    assert "app.orders" in err.value.candidates and "analytics.stg_orders" in err.value.candidates


def test_alias_to_a_missing_node_does_not_resolve() -> None:
    g = night2_graph()
    g.add_alias("gl_entries", "finance.bronze.gl_entries")
    with pytest.raises(UnknownAssetError):
        g.resolve("gl_entries")


def test_nodes_added_after_a_lookup_are_found() -> None:
    g = night2_graph()
    g.resolve("fct_revenue")
    g.add_node("analytics.fct_margin", "model", "dbt")
    assert g.resolve("fct_margin") == "analytics.fct_margin"
