"""The dataset identity rule: one canonical id whatever system reported the dataset."""

from __future__ import annotations

import pytest

from dw_assets.core.identity import (
    IdentityError,
    airflow_dag_node_id,
    airflow_task_node_id,
    canonical_dataset_id,
    relation_id_from_parts,
)


@pytest.mark.parametrize(
    ("name", "namespace", "expected"),
    [
        pytest.param("finance.bronze.gl_entries", None, "finance.bronze.gl_entries", id="three-part"),
        pytest.param("lake.main.orders_clean", None, "lake.orders_clean", id="main-elided"),
        pytest.param("lake.orders_clean", None, "lake.orders_clean", id="two-part-kept"),
        pytest.param('"LAKE"."MAIN"."Orders_Clean"', None, "lake.orders_clean", id="quoted-upper"),
        pytest.param("Analytics.Main.FCT_REVENUE", None, "analytics.fct_revenue", id="upper"),
        pytest.param('"my.db".main.t', None, '"my.db".t', id="dotted-quoted-part"),
        pytest.param("lake.main.orders_clean", "duckdb:///home/x/lake.duckdb", "lake.orders_clean",
                     id="openlineage-duckdb"),
        pytest.param("app.public.orders", "postgres://db:5432", "app.public.orders", id="openlineage-postgres"),
        pytest.param("landing/gl_20260930_part0001.csv", "s3://estate-bucket", 
                     "s3://estate-bucket/landing/gl_20260930_part0001.csv", id="storage-namespace"),
        pytest.param("postgres://db:5432/app/public/orders", None, "app.public.orders", id="airflow-postgres-uri"),
        pytest.param("duckdb:///w/finance.duckdb/bronze/gl_entries", None, "finance.bronze.gl_entries",
                     id="duckdb-uri"),
        pytest.param("duckdb:///w/lake.duckdb/orders_clean", None, "lake.orders_clean", id="duckdb-uri-main"),
        pytest.param("S3://Bucket/Key.csv", None, "s3://Bucket/Key.csv", id="uri-scheme-lowered-path-kept"),
    ],
)
def test_canonical_dataset_id(name: str, namespace: str | None, expected: str) -> None:
    assert canonical_dataset_id(name, namespace) == expected


def test_aliases_map_other_names_and_are_canonicalised() -> None:
    aliases = {"gl_entries": "FINANCE.BRONZE.GL_ENTRIES", "airflow://x/orders": "lake.main.orders_clean"}
    assert canonical_dataset_id("gl_entries", aliases=aliases) == "finance.bronze.gl_entries"
    assert canonical_dataset_id("GL_ENTRIES", aliases=aliases) == "finance.bronze.gl_entries"
    assert canonical_dataset_id("airflow://x/orders", aliases=aliases) == "lake.orders_clean"
    assert canonical_dataset_id("orders", namespace="airflow://x", aliases=aliases) == "lake.orders_clean"


@pytest.mark.parametrize("bad", ["", "   ", "a..b", "a.", '"unterminated'])
def test_malformed_names_raise(bad: str) -> None:
    with pytest.raises(IdentityError):
        canonical_dataset_id(bad)


def test_relation_from_dbt_parts_and_orchestration_ids() -> None:
    assert relation_id_from_parts("analytics", "main", "fct_revenue") == "analytics.fct_revenue"
    assert relation_id_from_parts(None, "Bronze", "GL") == "bronze.gl"
    assert airflow_dag_node_id("gl_landing") == "airflow:gl_landing"
    assert airflow_task_node_id("orders_daily", "orders_clean") == "airflow:orders_daily.orders_clean"
