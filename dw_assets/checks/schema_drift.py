"""Schema drift: the dataset's current columns against the last accepted ones.

The current schema comes from the warehouse's information_schema, or (source `openlineage`) from
the latest schema facet recorded by the lineage sensor (`dw_dataset_schemas` /
`dw_schema_changes`), falling back to the warehouse when no event has described the dataset.
The first run accepts what it sees; `dw checks accept-schema DATASET` accepts a new shape."""

from __future__ import annotations

from datetime import datetime

from dw_assets.checks.state import accept_schema, accepted_schema
from dw_assets.config import SchemaDriftCheckConfig
from dw_assets.connectors.warehouse import Warehouse
from dw_assets.core.checks_logic import CheckOutcome
from dw_assets.core.schema_diff import decide_schema_drift
from dw_assets.lineage.schema_history import SchemaHistory
from dw_assets.store import Store

Columns = list[tuple[str, str]]


def current_schema(warehouse: Warehouse, store: Store | None, dataset_id: str, source: str) -> tuple[Columns, str]:
    """(columns, where they came from)."""
    if source == "openlineage" and store is not None:
        latest = SchemaHistory(store).latest(dataset_id)
        if latest and latest["columns"]:
            return [(name, t or "") for name, t in latest["columns"].items()], "openlineage"
    return [(c.name, c.data_type) for c in warehouse.table_schema(dataset_id)], "warehouse"


def evaluate_schema_drift(warehouse: Warehouse, store: Store, dataset_id: str, cfg: SchemaDriftCheckConfig,
                          partition: str | None = None, now: datetime | None = None) -> CheckOutcome:
    current, source = current_schema(warehouse, store, dataset_id, cfg.source)
    stored = accepted_schema(store, dataset_id)
    accepted, accepted_at = (stored[0], stored[1].isoformat()) if stored else (None, None)
    outcome = decide_schema_drift(dataset_id, accepted, current, source=source, accepted_at=accepted_at)
    if stored is None and current:
        accept_schema(store, dataset_id, current, actor="data-workers (first sight)")
    return outcome
