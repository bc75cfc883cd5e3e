"""A failing dbt test belongs to the node it tests: its audit relation and unique_id resolve there,
and the tested node carries its key columns (from unique / not_null tests)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dw_assets.core.dbt_lineage import add_manifest
from dw_assets.core.graph import ContextGraph

MANIFEST = Path(__file__).resolve().parents[2] / "dbt_project" / "target" / "manifest.json"


@pytest.fixture(scope="module")
def manifest() -> dict:
    return json.loads(MANIFEST.read_text())


@pytest.fixture(scope="module")
def graph(manifest) -> ContextGraph:
    g = ContextGraph()
    add_manifest(g, manifest)
    return g


def _tests(manifest):
    return [n for n in manifest["nodes"].values() if n["resource_type"] == "test" and n.get("attached_node")]


def test_audit_relation_and_unique_id_resolve_to_the_tested_node(graph, manifest):
    tests = _tests(manifest)
    assert tests
    for test in tests:
        tested = graph.resolve(test["attached_node"])
        audit = f"{test['database']}.{test['schema']}.{test['alias']}"
        assert graph.resolve(audit) == tested, audit
        assert graph.resolve(test["unique_id"]) == tested
        # tracing from the audit relation works (what triage and planning do)
        assert graph.trace(audit, "upstream", max_depth=2).nodes


def test_key_columns_come_from_unique_and_not_null_tests(graph, manifest):
    for test in _tests(manifest):
        meta = test.get("test_metadata") or {}
        if meta.get("name") in ("unique", "not_null") and test.get("column_name"):
            keys = graph.node(graph.resolve(test["attached_node"])).attrs["dbt_key_columns"]
            assert meta["name"] in keys[test["column_name"].lower()]
