"""Small purpose-built graphs and dbt manifests for the graph tests."""

from __future__ import annotations

from typing import Any

from dw_assets.core.graph import ContextGraph, Provenance

DBT = Provenance("dbt_manifest")
OL = Provenance("openlineage", ref="job:orders")
CONFIG = Provenance("config", ref="airflow.task_outputs")


def night2_graph() -> ContextGraph:
    """app.orders -> [task] -> lake.orders_clean -> [dbt job] -> stg_orders -> fct_revenue -> dashboard."""
    g = ContextGraph()
    g.add_node("app.orders", "dataset", "app", owner="app-platform")
    g.add_node("airflow:orders_daily", "dag", "airflow")
    g.add_node("airflow:orders_daily.orders_clean", "task", "airflow")
    g.add_node("lake.orders_clean", "dataset", "warehouse")
    g.add_node("job:dbt.stg_orders", "job", "openlineage")
    g.add_node("analytics.stg_orders", "model", "dbt", owner="priya.raman")
    g.add_node("analytics.fct_revenue", "model", "dbt", owner="priya.raman")
    g.add_node("exposure:revenue_dashboard", "dashboard", "tableau", name="Revenue dashboard",
               owner="priya.raman", attrs={"maturity": "high"})
    note = Provenance("note", author="jonas.berg", source="DATA-1423")
    g.add_edge("airflow:orders_daily", "airflow:orders_daily.orders_clean", "contains", CONFIG)
    g.add_edge("app.orders", "airflow:orders_daily.orders_clean", "reads", note)
    g.add_edge("airflow:orders_daily.orders_clean", "lake.orders_clean", "writes", CONFIG)
    g.add_edge("lake.orders_clean", "job:dbt.stg_orders", "reads", OL)
    g.add_edge("job:dbt.stg_orders", "analytics.stg_orders", "writes", OL)
    g.add_edge("lake.orders_clean", "analytics.stg_orders", "feeds", DBT)
    g.add_edge("analytics.stg_orders", "analytics.fct_revenue", "feeds", DBT)
    g.add_edge("analytics.fct_revenue", "exposure:revenue_dashboard", "reads", DBT)
    return g


def chain_graph(n: int, *, cycle: bool = False) -> ContextGraph:
    """d0 -> d1 -> ... -> d{n-1} (and d{n-1} -> d0 when cycle)."""
    g = ContextGraph()
    for i in range(n):
        g.add_node(f"w.d{i}", "dataset", "warehouse")
    for i in range(n - 1):
        g.add_edge(f"w.d{i}", f"w.d{i + 1}", "feeds", DBT)
    if cycle:
        g.add_edge(f"w.d{n - 1}", "w.d0", "feeds", DBT)
    return g


def _model(project: str, name: str, deps: list[str], **extra: Any) -> dict[str, Any]:
    node = {"resource_type": "model", "name": name, "alias": name, "database": "analytics", "schema": "main",
            "unique_id": f"model.{project}.{name}", "depends_on": {"nodes": deps}, "config": {"meta": {}},
            "meta": {}, "tags": [], "original_file_path": f"models/{name}.sql"}
    node.update(extra)
    return node


def make_manifest() -> dict[str, Any]:
    """A manifest with every resource type the graph maps: sources, seeds, models (group and meta
    owners), a snapshot, a test, a semantic model, a metric, exposures of three types, groups."""
    p = "shop"
    nodes = {
        f"seed.{p}.fx": {"resource_type": "seed", "name": "fx", "alias": "fx", "database": "analytics",
                         "schema": "main", "depends_on": {"nodes": []}},
        f"model.{p}.stg_gl": _model(p, "stg_gl", [f"source.{p}.finance.gl_entries"], group="finance"),
        f"model.{p}.fct_tb": _model(p, "fct_tb", [f"model.{p}.stg_gl", f"seed.{p}.fx"], group="finance",
                                    alias="fct_trial_balance", config={"materialized": "table", "meta": {}}),
        f"model.{p}.stg_orders": _model(p, "stg_orders", [f"source.{p}.lake.orders_clean"],
                                        meta={"owner": "priya.raman"}),
        f"snapshot.{p}.tb_snap": {**_model(p, "tb_snap", [f"model.{p}.fct_tb"]), "resource_type": "snapshot",
                                  "schema": "snapshots"},
        f"test.{p}.not_null_fct_tb_entity.abc": {"resource_type": "test", "name": "not_null_fct_tb_entity",
                                                 "attached_node": f"model.{p}.fct_tb",
                                                 "depends_on": {"nodes": [f"model.{p}.fct_tb"]}},
    }
    sources = {
        f"source.{p}.finance.gl_entries": {"resource_type": "source", "name": "gl_entries", "source_name": "finance",
                                           "database": "finance", "schema": "bronze", "identifier": "gl_entries",
                                           "meta": {"owner": "maria.chen"}},
        f"source.{p}.lake.orders_clean": {"resource_type": "source", "name": "orders_clean", "source_name": "lake",
                                          "database": "lake", "schema": "main", "identifier": "orders_clean"},
    }
    exposures = {
        f"exposure.{p}.close_tb": {"name": "close_tb", "label": "Close: Trial Balance", "type": "dashboard",
                                   "maturity": "high", "owner": {"name": "maria.chen", "email": "m@x"},
                                   "meta": {"tool": "Tableau", "criticality": "critical"},
                                   "depends_on": {"nodes": [f"model.{p}.fct_tb"]}},
        f"exposure.{p}.close_review": {"name": "close_review", "type": "analysis", "maturity": "medium",
                                       "owner": {"email": "controller@x"}, "config": {"meta": {}},
                                       "depends_on": {"nodes": [f"model.{p}.fct_tb", f"metric.{p}.revenue"]}},
        f"exposure.{p}.billing_app": {"name": "billing_app", "type": "application", "owner": {"name": "ops"},
                                      "depends_on": {"nodes": [f"model.{p}.ghost"]}},
    }
    semantic_models = {
        f"semantic_model.{p}.orders_sm": {"name": "orders_sm", "depends_on": {"nodes": [f"model.{p}.stg_orders"]},
                                          "config": {"meta": {}}, "group": "revenue"},
    }
    metrics = {
        f"metric.{p}.revenue": {"name": "revenue", "label": "Revenue", "type": "simple",
                                "depends_on": {"nodes": [f"semantic_model.{p}.orders_sm"]}, "meta": {}},
    }
    groups = {
        f"group.{p}.finance": {"name": "finance", "owner": {"name": "maria.chen", "email": "m@x"}},
        f"group.{p}.revenue": {"name": "revenue", "owner": {"email": "rev@x"}},
    }
    return {"metadata": {"dbt_version": "1.11.0", "invocation_id": "inv-1"}, "nodes": nodes, "sources": sources,
            "exposures": exposures, "metrics": metrics, "semantic_models": semantic_models, "groups": groups}
