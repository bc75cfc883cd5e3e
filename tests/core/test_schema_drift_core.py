"""The pure schema-drift rules (`dw_assets.core.schema_drift`)."""

from __future__ import annotations

import pytest

from dw_assets.core.schema_drift import ColumnChange, diff_schemas, flatten_fields, normalize_type


@pytest.mark.parametrize(("a", "b"), [("decimal(18, 2)", "DECIMAL(18,2)"), ("text", "VARCHAR"),
                                      ("int", "INTEGER"), ("timestamp", "TIMESTAMP")])
def test_spellings_of_one_type_are_equal(a: str, b: str) -> None:
    assert normalize_type(a) == normalize_type(b)


def test_type_change_drop_and_add_are_found_case_insensitively() -> None:
    old = {"order_id": "VARCHAR", "discount": "DECIMAL(18,2)", "legacy_flag": "BOOLEAN"}
    new = {"ORDER_ID": "varchar", "discount": "VARCHAR", "channel": "VARCHAR"}
    assert diff_schemas(old, new) == [
        ColumnChange("channel", "added", None, "VARCHAR"),
        ColumnChange("legacy_flag", "dropped", "BOOLEAN", None),
        ColumnChange("discount", "type_changed", "DECIMAL(18,2)", "VARCHAR"),
    ]
    assert diff_schemas(old, old) == []


def test_an_unknown_type_is_never_a_type_change() -> None:
    assert diff_schemas({"discount": None}, {"discount": "VARCHAR"}) == []
    assert diff_schemas({"discount": "DECIMAL(18,2)"}, {"discount": ""}) == []


def test_nested_fields_are_flattened_with_dots() -> None:
    fields = [{"name": "id", "type": "int64"},
              {"name": "address", "type": "struct", "fields": [{"name": "zip", "type": "string"}, {"name": "x"}]},
              {"type": "no name: ignored"}]
    assert flatten_fields(fields) == {"id": "int64", "address": "struct", "address.zip": "string", "address.x": None}
    assert ColumnChange("address.zip", "type_changed", "string", "int").describe() == "address.zip: string -> int"
