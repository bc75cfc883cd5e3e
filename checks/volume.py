"""Volume vs history: a partition's row count against the same kind of earlier partitions.

One grouped count over the look-back window runs in the warehouse (`GROUP BY partition`), so the
check reads at most a few hundred (partition, rows) pairs whatever the table's size.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import dagster as dg

from checks.common import make_asset_check, parse_partition, target_partition
from checks.state import baseline_exclusions
from dw_assets.config import DatasetChecksConfig, Settings, VolumeCheckConfig
from dw_assets.connectors.warehouse import Warehouse
from dw_assets.core import stats
from dw_assets.core.checks_logic import CheckOutcome, decide_volume
from dw_assets.store import Store


def evaluate_volume(warehouse: Warehouse, store: Store | None, dataset_id: str, cfg: VolumeCheckConfig,
                    partition: str | None = None, now: datetime | None = None) -> CheckOutcome:
    excluded = sorted(baseline_exclusions(store, dataset_id)) if store is not None else []
    relation, column = warehouse.relation(dataset_id), warehouse.column(cfg.partition_column)
    with warehouse.session() as s:
        target = target_partition(s, relation, column, partition)
        if target is None:
            return CheckOutcome(cfg.name, dataset_id, False, "WARN", f"{dataset_id} is empty: no partition to check")
        start = target - timedelta(days=stats.lookback_days(cfg.period, cfg.history, len(excluded)))
        counts = s.rows(f"SELECT {column} AS p, {cfg.metric} AS n FROM {relation} "
                        f"WHERE {column} >= :start AND {column} <= :target GROUP BY {column}",
                        {"start": start, "target": target})
    by_day = {parse_partition(r["p"]): _number(r["n"]) for r in counts if r["p"] is not None}
    skip = [parse_partition(p) for p in excluded]
    chosen = stats.comparable_partitions(target, by_day, cfg.period, cfg.history, skip)
    return decide_volume(dataset_id, target.isoformat(), by_day.get(target, 0),
                         [(d.isoformat(), by_day[d]) for d in chosen], period=cfg.period,
                         lower_ratio=cfg.lower_ratio, upper_ratio=cfg.upper_ratio, mad_k=cfg.mad_k,
                         direction=cfg.direction, min_history=cfg.min_history,
                         excluded=[p for p in excluded if start <= parse_partition(p) < target],
                         name=cfg.name, unit="rows" if cfg.metric.replace(" ", "").lower() == "count(*)" else cfg.metric)


def _number(value: object) -> int | float:
    """Row counts stay integers; a metric (a sum of decimals) becomes a float."""
    number = float(value or 0)
    return int(number) if number.is_integer() else round(number, 2)


def build_checks(settings: Settings, entry: DatasetChecksConfig) -> list[dg.AssetChecksDefinition]:
    cfg = entry.volume
    if cfg is None:
        return []
    description = (f"Rows in the {cfg.partition_column} partition against the median of the previous "
                   f"{cfg.history} {cfg.period} partitions (band: wider of ratio "
                   f"[{cfg.lower_ratio}, {cfg.upper_ratio}] and {cfg.mad_k}*MAD; direction {cfg.direction}).")
    return [make_asset_check(settings, entry.dataset, cfg.name, description,
                             lambda wh, store, partition, now: evaluate_volume(wh, store, entry.dataset, cfg,
                                                                               partition, now))]
