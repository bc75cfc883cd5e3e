"""Volume vs history: a partition's count against what its calendar and history say it should be.

The series is aggregated in the warehouse: one grouped count over the look-back window (`GROUP BY`
the partition bucket, and the `group_by` columns), so Python reads at most `history` points per
group (a few hundred to a few thousand numbers) whatever the table's size; memory is bounded by
points x groups (`max_groups`), never by rows. The model (`dw_assets.core.volume_model`) runs on
those points only.
"""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import datetime, timedelta
from typing import SupportsFloat

from dw_assets.checks.partitions import as_moment
from dw_assets.checks.state import accepted_partitions, baseline_exclusions
from dw_assets.config import VolumeCheckConfig
from dw_assets.connectors.warehouse import Warehouse, WarehouseError
from dw_assets.core import stats
from dw_assets.core.checks_logic import CheckOutcome, decide_volume
from dw_assets.core.volume_model import HolidayCalendar, ModelParams
from dw_assets.store import Store

DEFAULT_DAYS = {"month_end": 36 * 31, "same_weekday": 52 * 7}


def partition_key(value: object, grain: str) -> datetime:
    """A bucket value from the warehouse (DATE, TIMESTAMP or text) as a naive datetime at its start."""
    try:
        moment = as_moment(value)
    except ValueError as exc:
        raise WarehouseError(str(exc)) from exc
    return moment.replace(minute=0, second=0, microsecond=0) if grain == "hour" else \
        moment.replace(hour=0, minute=0, second=0, microsecond=0)


def partition_label(moment: datetime, grain: str) -> str:
    return moment.strftime("%Y-%m-%dT%H:00") if grain == "hour" else moment.date().isoformat()


def lookback(cfg: VolumeCheckConfig, excluded: int) -> timedelta:
    """How far back the aggregate reads: `history` comparable partitions (plus the excluded ones),
    by default 400 days (a holiday's last occurrence), 36 month-ends, 28 days of hours."""
    if cfg.grain == "hour":
        return timedelta(hours=(cfg.history or 24 * 28) + excluded + 1)
    if cfg.history is not None:
        return timedelta(days=stats.lookback_days(cfg.period or "daily", cfg.history, excluded))
    return timedelta(days=DEFAULT_DAYS.get(cfg.period or "", 400) + excluded)


def holiday_calendar(cfg: VolumeCheckConfig) -> HolidayCalendar | None:
    if cfg.holidays is None:
        return None
    return HolidayCalendar(cfg.holidays.country, cfg.holidays.subdiv, dict(cfg.holidays.dates))


def model_params(cfg: VolumeCheckConfig) -> ModelParams:
    return ModelParams(k=cfg.mad_k, floor=math.log(1 + cfg.band_floor), ceiling=-math.log(1 - cfg.band_ceiling),
                       hard_ratio=cfg.hard_ratio, shift_after=cfg.shift_after, lower_ratio=cfg.lower_ratio,
                       upper_ratio=cfg.upper_ratio)


def _comparable(target: datetime, keys: list[datetime], cfg: VolumeCheckConfig) -> list[datetime]:
    earlier = sorted((k for k in keys if k < target), reverse=True)
    if cfg.period and cfg.grain == "day":
        chosen = stats.comparable_partitions(target.date(), [k.date() for k in earlier], cfg.period, len(earlier))
        wanted = set(chosen)
        earlier = [k for k in earlier if k.date() in wanted]
    return earlier[:cfg.history] if cfg.history else earlier


def evaluate_volume(warehouse: Warehouse, store: Store | None, dataset_id: str, cfg: VolumeCheckConfig,
                    partition: str | None = None, now: datetime | None = None) -> CheckOutcome:
    excluded = sorted(baseline_exclusions(store, dataset_id)) if store is not None else []
    accepted = accepted_partitions(store, dataset_id) if store is not None else {}
    relation = warehouse.relation(dataset_id)
    bucket = warehouse.bucket(cfg.partition_column, cfg.grain)
    column = warehouse.column(cfg.partition_column)
    groups = [warehouse.column(g) for g in cfg.group_by]
    with warehouse.session() as s:
        if partition:
            try:
                target = partition_key(partition, cfg.grain)
            except WarehouseError as exc:
                raise WarehouseError(f"--partition {partition!r}: {exc}") from exc
        else:
            latest = s.scalar(f"SELECT max({column}) FROM {relation}")
            if latest is None:
                return CheckOutcome(cfg.name, dataset_id, False, "WARN", f"{dataset_id} is empty: no partition to check")
            target = partition_key(latest, cfg.grain)
        step = timedelta(hours=1) if cfg.grain == "hour" else timedelta(days=1)
        start, end = target - lookback(cfg, len(excluded)), target + step
        # half-open bounds on the raw column: a timestamp's whole last hour or day is read
        where = f"WHERE {column} >= :start AND {column} < :end"
        bounds = {"start": start, "end": end}
        if groups:
            select = ", ".join(f"{g} AS g{i}" for i, g in enumerate(groups))
            group_cols = ", ".join(f"g{i}" for i in range(len(groups)))
            sql = (f"SELECT {bucket} AS p, {select}, {cfg.metric} AS n FROM {relation} {where} "
                   f"GROUP BY {bucket}, {', '.join(groups)}")
            del group_cols
        else:
            sql = f"SELECT {bucket} AS p, {cfg.metric} AS n FROM {relation} {where} GROUP BY {bucket}"
        rows = s.rows(sql, bounds)
    skip = {partition_key(p, cfg.grain) for p in excluded}
    totals: dict[datetime, float] = defaultdict(float)
    by_group: dict[str, dict[datetime, float]] = defaultdict(dict)
    for r in rows:
        if r["p"] is None:
            continue
        key = partition_key(r["p"], cfg.grain)
        value = _number(r["n"])
        totals[key] += value
        if groups:
            name = "/".join(str(r[f"g{i}"]) for i in range(len(groups)))
            by_group[name][key] = by_group[name].get(key, 0) + value
    chosen = _comparable(target, [k for k in totals if k not in skip], cfg)
    label = {k: partition_label(k, cfg.grain) for k in chosen}
    history = [(label[k], _number(totals[k])) for k in chosen]
    group_inputs = None
    if groups:
        group_inputs = _group_inputs(by_group, chosen, label, target, cfg)
    target_label = partition_label(target, cfg.grain)
    return decide_volume(dataset_id, target_label, _number(totals.get(target, 0)), history,
                         period=cfg.period, direction=cfg.direction, min_history=cfg.min_history,
                         excluded=[p for p in excluded if start <= partition_key(p, cfg.grain) < target],
                         name=cfg.name, grain=cfg.grain, compare_by=cfg.compare_by,
                         holidays=holiday_calendar(cfg), params=model_params(cfg),
                         accepted={_relabel(p, cfg.grain): shift for p, shift in accepted.items()},
                         groups=group_inputs,
                         unit="rows" if cfg.metric.replace(" ", "").lower() == "count(*)" else cfg.metric)


def _relabel(partition: str, grain: str) -> str:
    try:
        return partition_label(partition_key(partition, grain), grain)
    except WarehouseError:
        return partition


def _group_inputs(by_group: dict[str, dict[datetime, float]], chosen: list[datetime], label: dict[datetime, str],
                  target: datetime, cfg: VolumeCheckConfig) -> dict[str, tuple[float, list[tuple[str, float]]]]:
    """Each group active in the latest comparable partitions, with its own series; a group absent
    from a partition counts 0 there (one entity missing is the fault this is for). The largest
    `max_groups` by recent volume."""
    recent = chosen[:3]
    active = {g: sum(series.get(k, 0) for k in recent) for g, series in by_group.items()
              if any(series.get(k) for k in recent)}
    keep = sorted(active, key=lambda g: -active[g])[:cfg.max_groups]
    out = {}
    for g in keep:
        series = by_group[g]
        first = min(series)
        out[g] = (_number(series.get(target, 0)), [(label[k], _number(series.get(k, 0))) for k in chosen if k >= first])
    return out


def _number(value: SupportsFloat | str | None) -> int | float:
    """Row counts stay integers; a metric (a sum of decimals) becomes a float."""
    number = float(value or 0)
    return int(number) if number.is_integer() else round(number, 2)
