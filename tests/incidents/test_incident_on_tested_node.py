"""A failing dbt test belongs to what it tests: the incident opened on its audit relation (or its
unique_id) carries the tested model as `dataset_id`, with that model's domain and owner, and keeps the
audit relation as evidence only."""

from __future__ import annotations

from dw_assets import incidents
from dw_assets.core.dbt_lineage import add_manifest
from dw_assets.core.graph import ContextGraph
from dw_assets.diagnosis.service import symptom_from_incident
from dw_assets.incidents import for_tested_node, intake_signal

MANIFEST = {
    "metadata": {}, "sources": {}, "exposures": {},
    "nodes": {
        "model.shop.stg_orders": {"resource_type": "model", "database": "lake", "schema": "main",
                                   "alias": "stg_orders", "name": "stg_orders", "depends_on": {"nodes": []}},
        "test.shop.not_null_stg_orders_order_ref.1a2b": {
            "resource_type": "test", "name": "not_null_stg_orders_order_ref", "database": "lake",
            "schema": "main_dbt_test__audit", "alias": "not_null_stg_orders_order_ref",
            "attached_node": "model.shop.stg_orders", "column_name": "order_ref",
            "test_metadata": {"name": "not_null", "kwargs": {"column_name": "order_ref"}},
            "depends_on": {"nodes": ["model.shop.stg_orders"]}},
    },
}


def _graph() -> ContextGraph:
    graph = ContextGraph()
    add_manifest(graph, MANIFEST)
    return graph


def test_the_audit_relation_maps_to_the_tested_model(settings, make_signal):
    graph = _graph()
    audit = make_signal(dataset="lake.main_dbt_test__audit.not_null_stg_orders_order_ref", kind="lineage_fail",
                        source="openlineage", key="t1", error_message="Got 3 results, configured to fail if != 0")
    mapped = for_tested_node(settings, audit, graph=graph)
    assert mapped.dataset_id == "lake.stg_orders"
    assert mapped.details["dbt_test_relation"] == "lake.main_dbt_test__audit.not_null_stg_orders_order_ref"
    assert mapped.details["dbt_test"] == "not_null_stg_orders_order_ref" and mapped.details["tested_column"] == "order_ref"
    by_id = make_signal(dataset=None, kind="lineage_fail", source="openlineage", key="t2",
                        job_name="test.shop.not_null_stg_orders_order_ref.1a2b")
    assert for_tested_node(settings, by_id, graph=graph).dataset_id == "lake.stg_orders"
    plain = make_signal(dataset="lake.stg_orders", key="t3")
    assert for_tested_node(settings, plain, graph=graph) == plain  # the model itself: nothing to move


def test_the_incident_opens_on_the_model_with_its_domain_and_owner(settings, store, make_signal, monkeypatch):
    monkeypatch.setattr(incidents, "cached_context_graph", lambda *a, **k: _graph())
    audit = make_signal(dataset="lake.main_dbt_test__audit.not_null_stg_orders_order_ref", kind="lineage_fail",
                        source="openlineage", key="t1", error_message="Got 3 results, configured to fail if != 0")
    incident, created = intake_signal(settings, store, audit)
    assert created and incident.dataset_id == "lake.stg_orders"
    assert incident.owner == "priya.raman" and incident.domain == "revenue"  # looked up on the model
    symptom = symptom_from_incident(incident)
    assert symptom.dataset_id == "lake.stg_orders" and symptom.kind == "check_failed"  # a test, not a build
    assert symptom.metrics["dbt_test_relation"] == "lake.main_dbt_test__audit.not_null_stg_orders_order_ref"
