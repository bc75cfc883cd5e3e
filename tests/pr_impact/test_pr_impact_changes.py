"""The pure side of pr-impact: Jinja rendering, output columns, diffs, and file-to-asset mapping."""

from __future__ import annotations

import difflib

import pytest

from dw_assets.pr_impact.changes import (
    FileChange,
    PrImpactError,
    changes_from_diff,
    compare_columns,
    map_changes,
    model_columns,
    render_jinja,
)


def diff_of(path: str, before: str | None, after: str | None) -> str:
    old, new = (f"a/{path}" if before is not None else "/dev/null"), (f"b/{path}" if after is not None else "/dev/null")
    body = "".join(difflib.unified_diff((before or "").splitlines(True), (after or "").splitlines(True), old, new))
    mode = "new file mode 100644\n" if before is None else "deleted file mode 100644\n" if after is None else ""
    return f"diff --git a/{path} b/{path}\n{mode}{body}"


@pytest.mark.parametrize(("sql", "expected"), [
    pytest.param("select * from {{ ref('stg') }}", "select * from stg", id="ref"),
    pytest.param("select * from {{ ref('pkg', 'stg', v=2) }}", "select * from stg", id="ref-package-version"),
    pytest.param("select * from {{ source('lake', 'orders') }}", "select * from lake.orders", id="source"),
    pytest.param("{{ config(materialized='table') }}select 1", "select 1", id="config-dropped"),
    pytest.param("select {{ var('x') }} as x{% if true %}, 2 as y{% endif %}", "select __jinja__ as x, 2 as y",
                 id="other-jinja"),
])
def test_render_jinja(sql: str, expected: str) -> None:
    assert render_jinja(sql) == expected


def test_model_columns_from_the_outermost_select() -> None:
    sql = ("with b as (select * from {{ ref('int') }})\n"
           "select b.entity, sum(b.total_debit) as total_debit, count(*) as n from b group by 1")
    assert model_columns(sql) == {"entity": "b.entity", "total_debit": "SUM(b.total_debit)", "n": "COUNT(*)"}
    assert model_columns("select a from x union all select b from y") == {"a": "a"}


@pytest.mark.parametrize("sql", [
    pytest.param("select * from {{ ref('x') }}", id="star"),
    pytest.param("select t.*, 1 as one from t", id="qualified-star"),
    pytest.param("select from where (", id="does-not-parse"),
])
def test_unknowable_columns_are_none(sql: str) -> None:
    assert model_columns(sql) is None


def test_compare_columns_finds_renames_changes_and_removals() -> None:
    before = {"a": "x.a", "n": "COUNT(*)", "total": "SUM(x.v)", "gone": "x.g"}
    after = {"a": "x.a", "rows": "COUNT(*)", "total": "SUM(x.v) * 2", "new": "x.new"}
    assert compare_columns(before, after) == {"added": ["new"], "removed": ["gone"], "changed": ["total"],
                                              "renamed": [{"from": "n", "to": "rows"}]}
    assert compare_columns(None, after) is None


def test_changes_from_a_diff_apply_to_the_current_files() -> None:
    files = {"models/m.sql": "select\n  a,\n  b\nfrom t\n", "models/old.sql": "select 1 as one\n"}
    diff = (diff_of("models/m.sql", files["models/m.sql"], "select\n  a as aa,\n  b\nfrom t\n")
            + diff_of("models/new.sql", None, "select 2 as two\n")
            + diff_of("models/old.sql", files["models/old.sql"], None))
    changes = {c.path: c for c in changes_from_diff(diff, files.get)}
    assert changes["models/m.sql"].status == "modified" and "a as aa" in changes["models/m.sql"].after
    assert (changes["models/new.sql"].status, changes["models/new.sql"].after) == ("added", "select 2 as two\n")
    assert (changes["models/old.sql"].status, changes["models/old.sql"].after) == ("deleted", None)


def test_a_diff_that_does_not_apply_leaves_the_new_text_unknown() -> None:
    diff = diff_of("models/m.sql", "select a from t\n", "select b from t\n")
    (change,) = changes_from_diff(diff, lambda _path: "select something_else from t\n")
    assert change.after is None


def test_text_that_is_not_a_diff_is_refused() -> None:
    with pytest.raises(PrImpactError, match="no file changes"):
        changes_from_diff("please review my model", lambda _path: None)


MANIFEST = {
    "metadata": {"project_name": "shop"},
    "nodes": {
        "model.shop.orders": {"unique_id": "model.shop.orders", "resource_type": "model", "name": "orders",
                              "original_file_path": "models/orders.sql", "patch_path": "shop://models/schema.yml",
                              "depends_on": {"macros": ["macro.shop.cents"]}},
        "model.shop.items": {"unique_id": "model.shop.items", "resource_type": "model", "name": "items",
                             "original_file_path": "models/items.sql", "patch_path": "shop://models/schema.yml"},
        "test.shop.not_null": {"unique_id": "test.shop.not_null", "resource_type": "test", "name": "not_null",
                               "original_file_path": "models/schema.yml"},
    },
    "sources": {"source.shop.app.orders": {"unique_id": "source.shop.app.orders", "resource_type": "source",
                                           "name": "orders", "source_name": "app",
                                           "original_file_path": "models/sources.yml"}},
    "exposures": {},
    "macros": {"macro.shop.cents": {"unique_id": "macro.shop.cents", "resource_type": "macro", "name": "cents",
                                    "package_name": "shop", "original_file_path": "macros/cents.sql"},
               "macro.dbt.run": {"unique_id": "macro.dbt.run", "resource_type": "macro", "name": "run",
                                 "package_name": "dbt", "original_file_path": "macros/run.sql"}},
}


def test_map_changes_to_assets() -> None:
    schema_before = "models:\n  - name: orders\n    description: a\n  - name: items\n    description: b\n"
    schema_after = "models:\n  - name: orders\n    description: a\n  - name: items\n    description: changed\n"
    changes = [
        FileChange("proj/models/orders.sql", "modified", "select id, amount from t", "select id, amount, tax from t"),
        FileChange("proj/models/schema.yml", "modified", schema_before, schema_after),
        FileChange("proj/macros/cents.sql", "modified", "{% macro cents() %}1{% endmacro %}", "{% macro cents() %}2"),
        FileChange("proj/models/items.sql", "deleted", "select 1 as x", None),
        FileChange("docs/readme.md", "modified", "a", "b"),
    ]
    assets, unmapped = map_changes(changes, MANIFEST, "proj")
    by_id = {a.unique_id: a for a in assets}
    assert set(by_id) == {"model.shop.orders", "model.shop.items", "macro.shop.cents"}
    assert by_id["model.shop.orders"].columns == {"added": ["tax"], "removed": [], "changed": [], "renamed": []}
    assert by_id["model.shop.items"].change == "removed"
    assert by_id["model.shop.items"].files == ["proj/models/schema.yml", "proj/models/items.sql"]
    assert by_id["macro.shop.cents"].change == "macro_changed"
    assert unmapped == ["docs/readme.md"]
