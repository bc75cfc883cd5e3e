"""Freshness vs SLA: the age of the newest row (`max(timestamp_column)`, one aggregate) against a
`max_age` or a `deadline_cron`, read in the dataset's timezone."""

from __future__ import annotations

from datetime import UTC, datetime

import dagster as dg

from checks.common import make_asset_check
from dw_assets.config import DatasetChecksConfig, FreshnessCheckConfig, Settings
from dw_assets.connectors.warehouse import Warehouse
from dw_assets.core.checks_logic import FRESHNESS, CheckOutcome, decide_freshness
from dw_assets.store import Store


def evaluate_freshness(warehouse: Warehouse, store: Store | None, dataset_id: str, cfg: FreshnessCheckConfig,
                       partition: str | None = None, now: datetime | None = None) -> CheckOutcome:
    latest = warehouse.scalar(f"SELECT max({warehouse.column(cfg.timestamp_column)}) "
                              f"FROM {warehouse.relation(dataset_id)}")
    if latest is not None and not isinstance(latest, datetime):
        latest = datetime.fromisoformat(str(latest))
    return decide_freshness(dataset_id, latest, now or datetime.now(UTC), max_age=cfg.max_age,
                            deadline_cron=cfg.deadline_cron, timezone=cfg.timezone)


def build_checks(settings: Settings, entry: DatasetChecksConfig) -> list[dg.AssetChecksDefinition]:
    cfg = entry.freshness
    if cfg is None:
        return []
    sla = " and ".join(x for x in (f"max age {cfg.max_age}" if cfg.max_age else "",
                                   f"deadline `{cfg.deadline_cron}`" if cfg.deadline_cron else "") if x)
    description = f"Newest {cfg.timestamp_column} against {sla} ({cfg.timezone})."
    return [make_asset_check(settings, entry.dataset, FRESHNESS, description,
                             lambda wh, store, partition, now: evaluate_freshness(wh, store, entry.dataset, cfg,
                                                                                  partition, now))]
