"""Freshness vs SLA: the age of the newest row (`max(timestamp_column)`, one aggregate) against a
`max_age` or a `deadline_cron`, read in the dataset's timezone."""

from __future__ import annotations

from datetime import UTC, datetime

from dw_assets.config import FreshnessCheckConfig
from dw_assets.connectors.warehouse import Warehouse
from dw_assets.core.checks_logic import CheckOutcome, decide_freshness
from dw_assets.store import Store


def evaluate_freshness(warehouse: Warehouse, store: Store | None, dataset_id: str, cfg: FreshnessCheckConfig,
                       partition: str | None = None, now: datetime | None = None) -> CheckOutcome:
    latest = warehouse.scalar(f"SELECT max({warehouse.column(cfg.timestamp_column)}) "
                              f"FROM {warehouse.relation(dataset_id)}")
    if latest is not None and not isinstance(latest, datetime):
        latest = datetime.fromisoformat(str(latest))
    return decide_freshness(dataset_id, latest, now or datetime.now(UTC), max_age=cfg.max_age,
                            deadline_cron=cfg.deadline_cron, timezone=cfg.timezone)
