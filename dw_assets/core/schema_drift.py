"""Schema drift: what changed between two observations of a dataset's columns.

Pure functions over plain data (an OpenLineage schema facet's `fields`, or any name -> type map),
so the warehouse check and the lineage sensor share one definition of "a column changed".
Nested fields are flattened with dots (`address.zip`). Types are compared after normalising their
spelling with sqlglot's DuckDB dialect (`decimal(18, 2)` == `DECIMAL(18,2)`, `text` == `VARCHAR`); a
field observed without a type is "type unknown" and never reported as a type change (dbt-ol's facets
list documented columns, often typeless). Change kinds match `dw_assets.core.evidence.SchemaChange`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from sqlglot import exp
from sqlglot.errors import ParseError

ChangeKind = Literal["added", "dropped", "type_changed"]

@dataclass(frozen=True)
class ColumnChange:
    column: str
    change: ChangeKind
    old_type: str | None
    new_type: str | None

    def describe(self) -> str:
        if self.change == "type_changed":
            return f"{self.column}: {self.old_type} -> {self.new_type}"
        if self.change == "added":
            return f"{self.column}: added ({self.new_type or 'type unknown'})"
        return f"{self.column}: dropped (was {self.old_type or 'type unknown'})"


def normalize_type(value: Any) -> str | None:
    if value is None or not str(value).strip():
        return None
    return _normalize(" ".join(str(value).split()))


@functools.lru_cache(maxsize=1024)
def _normalize(text: str) -> str:
    try:
        return exp.DataType.build(text, dialect="duckdb").sql("duckdb").upper()
    except (ParseError, ValueError):
        return text.replace(" ", "").upper()


def flatten_fields(fields: Iterable[Mapping[str, Any]], prefix: str = "") -> dict[str, str | None]:
    """Column path -> type as written, from an OpenLineage `SchemaDatasetFacet.fields` list."""
    columns: dict[str, str | None] = {}
    for f in fields:
        name = f.get("name")
        if not isinstance(name, str):
            continue
        path = f"{prefix}{name}"
        columns[path] = f.get("type") if isinstance(f.get("type"), str) else None
        nested = f.get("fields")
        if isinstance(nested, list):
            columns.update(flatten_fields(nested, f"{path}."))
    return columns


def diff_schemas(old: Mapping[str, str | None], new: Mapping[str, str | None]) -> list[ColumnChange]:
    """Changes from `old` to `new`, columns matched case-insensitively, in a stable order."""
    old_by_key = {name.lower(): (name, t) for name, t in old.items()}
    new_by_key = {name.lower(): (name, t) for name, t in new.items()}
    changes: list[ColumnChange] = []
    for key, (name, new_type) in new_by_key.items():
        if key not in old_by_key:
            changes.append(ColumnChange(name, "added", None, new_type))
            continue
        old_type = old_by_key[key][1]
        a, b = normalize_type(old_type), normalize_type(new_type)
        if a is not None and b is not None and a != b:
            changes.append(ColumnChange(name, "type_changed", old_type, new_type))
    for key, (name, old_type) in old_by_key.items():
        if key not in new_by_key:
            changes.append(ColumnChange(name, "dropped", old_type, None))
    return sorted(changes, key=lambda c: (c.change, c.column.lower()))
