"""Rules read shapes, not names: the key a duplicate count uses comes from the dbt tests or the
table's own constraints before any `...id` name rule."""

from __future__ import annotations

import duckdb

from dw_assets.connectors.warehouse import Warehouse
from dw_assets.core.graph import ContextGraph
from dw_assets.diagnosis.profiles import key_columns_from_graph, profile_partition


def _warehouse(tmp_path, pk: bool) -> Warehouse:
    path = tmp_path / f"web_{pk}_{len(list(tmp_path.iterdir()))}.duckdb"
    con = duckdb.connect(str(path))
    key = "event_key VARCHAR PRIMARY KEY" if pk else "event_key VARCHAR"
    con.execute(f"CREATE SCHEMA raw; CREATE TABLE raw.events ({key}, user_id BIGINT, day DATE)")
    con.execute("INSERT INTO raw.events VALUES ('a', 1, DATE '2026-03-01'), ('b', 1, DATE '2026-03-01'), "
                "('c', 2, DATE '2026-03-01')")
    con.close()
    return Warehouse("duckdb:///:memory:", {"web": str(path)})


def test_the_tables_primary_key_beats_the_name_rule(tmp_path):
    profile = profile_partition(_warehouse(tmp_path, pk=True), "web.raw.events", "day", "2026-03-01", "daily", 3)
    assert profile.key_column == "event_key" and profile.duplicate_keys == 0  # user_id would have said 1


def test_dbt_tests_declare_the_key(tmp_path):
    graph = ContextGraph()
    graph.add_node("web.raw.events", "source", "warehouse", attrs={"dbt_key_columns": {
        "user_id": ["not_null"], "event_key": ["unique", "not_null"]}})
    keys = key_columns_from_graph(graph, ["web.raw.events", "web.raw.other"])
    assert keys == {"web.raw.events": ("event_key",)}  # not_null alone does not make a key
    profile = profile_partition(_warehouse(tmp_path, pk=False), "web.raw.events", "day", "2026-03-01", "daily", 3,
                                key_columns=keys["web.raw.events"])
    assert profile.key_column == "event_key"
    # without tests or constraints, the name rule is the last resort
    plain = profile_partition(_warehouse(tmp_path, pk=False), "web.raw.events", "day", "2026-03-01", "daily", 3)
    assert plain.key_column == "user_id"
