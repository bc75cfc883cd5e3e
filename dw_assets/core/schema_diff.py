"""The schema-drift check's decision: the current columns of a dataset against the accepted ones.

What counts as a change (case-insensitive names, type spellings normalised, unknown types never a
type change) is `dw_assets.core.schema_drift.diff_schemas`, shared with the lineage sensor. Here:
how bad it is. A dropped column or a type change breaks readers (ERROR); an added column rarely
does (WARN).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from dw_assets.core.check_render import table_md
from dw_assets.core.checks_logic import SCHEMA_DRIFT, CheckOutcome, Severity
from dw_assets.core.schema_drift import diff_schemas, normalize_type

Schema = Sequence[tuple[str, str]]  # (column, type) in ordinal order


def schema_fingerprint(schema: Schema) -> str:
    canon = ";".join(f"{n.lower()}:{normalize_type(t) or ''}" for n, t in schema)
    return hashlib.sha256(canon.encode()).hexdigest()[:16]


def decide_schema_drift(dataset_id: str, accepted: Schema | None, current: Schema, *, source: str,
                        accepted_at: str | None = None) -> CheckOutcome:
    """`accepted` None means first sight: the caller stores `current` as the accepted schema."""
    meta: dict[str, Any] = {"source": source, "columns": len(current), "accepted_at": accepted_at,
                            "fingerprint": schema_fingerprint(current) if current else None}
    if not current:
        return CheckOutcome(SCHEMA_DRIFT, dataset_id, False, "ERROR",
                            f"{dataset_id}: no columns found ({source}); the relation is missing", meta)
    if accepted is None:
        return CheckOutcome(SCHEMA_DRIFT, dataset_id, True, "ERROR",
                            f"{dataset_id}: first sight, {len(current)} columns accepted as the baseline",
                            {**meta, "accepted_now": True})
    changes = diff_schemas(dict(accepted), dict(current))
    rows = [{"column": c.column, "change": c.change, "old_type": c.old_type, "new_type": c.new_type} for c in changes]
    kinds = {c.change for c in changes}
    meta.update(changes=rows, **{k: sum(1 for c in changes if c.change == k) for k in ("added", "dropped",
                                                                                        "type_changed")})
    if not changes:
        return CheckOutcome(SCHEMA_DRIFT, dataset_id, True, "ERROR",
                            f"{dataset_id}: schema matches the accepted one ({len(current)} columns)", meta)
    severity: Severity = "ERROR" if kinds & {"dropped", "type_changed"} else "WARN"
    return CheckOutcome(SCHEMA_DRIFT, dataset_id, False, severity,
                        f"{dataset_id}: schema drifted from the accepted one: "
                        + "; ".join(c.describe() for c in changes)
                        + f" (accept with `dw checks accept-schema {dataset_id}`)",
                        meta, {"schema_changes": table_md(rows)})
