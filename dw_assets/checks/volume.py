"""Volume vs history: a partition's count against what its calendar and history say it should be.

The series is aggregated in the warehouse: one grouped count over the look-back window (`GROUP BY`
the partition bucket, and the `group_by` columns), so Python reads at most `history` points per
group (a few hundred to a few thousand numbers) whatever the table's size; memory is bounded by
points x groups (`max_groups`), never by rows. The model (`dw_assets.core.volume_model`) runs on
those points only.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from datetime import date, datetime, timedelta
from typing import SupportsFloat
from zoneinfo import ZoneInfo

from dw_assets.checks.partitions import as_moment
from dw_assets.checks.state import accepted_partitions, accepted_shapes, baseline_exclusions
from dw_assets.config import HolidaysConfig, VolumeCheckConfig
from dw_assets.connectors.warehouse import Warehouse, WarehouseError, WarehouseSession
from dw_assets.core import stats
from dw_assets.core.checks_logic import CheckOutcome, decide_volume, parse_partition_moment
from dw_assets.core.volume_calendar import HolidayCalendar, hour_label, hour_of_key, hour_start
from dw_assets.core.volume_model import ModelParams
from dw_assets.store import Store

# a group is active when it held rows in one of its latest partitions (a group gone for longer has left), counted in
# its own rounds of rows: a weekly file on a daily table, its rows one partition in seven, looks back three weeks
RECENT_PARTITIONS = 3
DEFAULT_DAYS = {"month_end": 36 * 31, "same_weekday": 52 * 7}


def partition_key(value: object, grain: str, timezone: str = "UTC") -> datetime:
    """A partition key (`2026-09-30`, `2026-09-30T13:00`, a wall-clock hour of `timezone`, with an
    offset for the repeated hour of a 25-hour day) or a DATE as a naive datetime at its start: a
    day, or the hour's start as a naive UTC time."""
    try:
        moment = parse_partition_moment(value) if isinstance(value, str) else value
        if grain == "hour" and isinstance(moment, datetime):
            return hour_of_key(moment, timezone)
        moment = as_moment(moment)
    except ValueError as exc:
        raise WarehouseError(str(exc)) from exc
    return hour_of_key(moment, timezone) if grain == "hour" else \
        moment.replace(hour=0, minute=0, second=0, microsecond=0)


def partition_label(moment: datetime, grain: str, timezone: str = "UTC") -> str:
    """A partition's key: the day, or the hour (a naive UTC start) as a wall-clock hour of `timezone`."""
    return hour_label(moment, timezone) if grain == "hour" else moment.date().isoformat()


def _latest_key(latest: object, grain: str, column_type: str | None, cfg: VolumeCheckConfig) -> datetime:
    """The partition holding the column's newest value: a DATE is its day; a timestamp is an instant
    (aware, or naive in the column's zone), in the check's zone's hour or day."""
    if not isinstance(latest, datetime) or (column_type or "").upper() == "DATE":
        return partition_key(latest, grain, cfg.timezone)
    zone = cfg.column_timezone or cfg.timezone
    instant = latest if latest.tzinfo else latest.replace(tzinfo=ZoneInfo(zone))
    if grain == "hour":
        return hour_start(instant, cfg.timezone)
    local = instant.astimezone(ZoneInfo(cfg.timezone))
    return datetime(local.year, local.month, local.day)


def _day_instant(day: datetime, timezone: str) -> datetime:
    """Local midnight of `day` in `timezone` as a naive UTC time (a daily window's bound)."""
    return day.replace(tzinfo=ZoneInfo(timezone)).astimezone(ZoneInfo("UTC")).replace(tzinfo=None)


def _column_type(session: WarehouseSession, dataset_id: str, column: str) -> str | None:
    """The partition column's type as `table_schema` spells it (None: not found, e.g. an expression)."""
    found = {c.name.lower(): c.data_type for c in session.table_schema(dataset_id)}
    return found.get(column.lower())


def lookback(cfg: VolumeCheckConfig, excluded: int) -> timedelta:
    """How far back the aggregate reads: `history` comparable partitions (plus the excluded ones),
    by default 400 days (a holiday's last occurrence), 36 month-ends, 28 days of hours."""
    if cfg.grain == "hour":
        return timedelta(hours=(cfg.history or 24 * 28) + excluded + 1)
    if cfg.history is not None:
        return timedelta(days=stats.lookback_days(cfg.period or "daily", cfg.history, excluded))
    return timedelta(days=DEFAULT_DAYS.get(cfg.period or "", 400) + excluded)


def holiday_calendar(cfg: VolumeCheckConfig, holidays: HolidaysConfig | None = None) -> HolidayCalendar:
    """The check's calendar (or, with `holidays`, a group's): its holidays, and the fiscal year's
    end, which is the business's and so the same for every group."""
    chosen = holidays or cfg.holidays
    rolled = tuple((c.day, c.roll) for c in cfg.calendar_days)
    if chosen is None:
        return HolidayCalendar(fiscal_year_end=cfg.fiscal_year_end, rolled_days=rolled)
    return HolidayCalendar(chosen.country, chosen.subdiv, dict(chosen.dates), fiscal_year_end=cfg.fiscal_year_end,
                           rolled_days=rolled,
                           seasons={name: list(spans) for name, spans in chosen.seasons.items()},
                           breaks={name: list(spans) for name, spans in chosen.breaks.items()})


def group_calendars(cfg: VolumeCheckConfig) -> dict[str, HolidayCalendar]:
    """The groups that follow a calendar of their own (`group_holidays`), by the group's name."""
    return {group: holiday_calendar(cfg, holidays) for group, holidays in cfg.group_holidays.items()}


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
    shapes = accepted_shapes(store, dataset_id) if store is not None else set()
    relation = warehouse.relation(dataset_id)
    column = warehouse.column(cfg.partition_column)
    groups = [warehouse.column(g) for g in cfg.group_by]
    tz, zone = cfg.timezone, cfg.column_timezone or cfg.timezone
    with warehouse.session() as s:
        # the column's type says how its values meet a time zone (an instant, a naive time, a DATE)
        column_type = _column_type(s, dataset_id, cfg.partition_column)
        bucket = warehouse.bucket(cfg.partition_column, cfg.grain, column_type=column_type, timezone=tz,
                                  column_timezone=zone)
        if partition:
            try:
                target = partition_key(partition, cfg.grain, tz)
            except WarehouseError as exc:
                raise WarehouseError(f"--partition {partition!r}: {exc}") from exc
        else:
            latest = s.scalar(f"SELECT max({column}) FROM {relation}")
            if latest is None:
                return CheckOutcome(cfg.name, dataset_id, False, "WARN", f"{dataset_id} is empty: no partition to check")
            try:
                target = _latest_key(latest, cfg.grain, column_type, cfg)
            except WarehouseError as exc:
                raise WarehouseError(f"{dataset_id}.{cfg.partition_column}: newest value {latest!r}: {exc}") from exc
        step = timedelta(hours=1) if cfg.grain == "hour" else timedelta(days=1)
        start, end = target - lookback(cfg, len(excluded)), target + step
        # half-open bounds on the raw column: a timestamp's whole last hour or day is read (a day
        # of a timestamp column is the check's zone's day: its bounds are local midnights)
        if cfg.grain == "day" and (column_type or "").upper() != "DATE" and tz != "UTC":
            bounds = warehouse.bounds(_day_instant(start, tz), _day_instant(end, tz), column_type=column_type,
                                      column_timezone=zone)
        elif (column_type or "").upper() == "DATE":
            bounds = {"start": start, "end": end}
        else:
            bounds = warehouse.bounds(start, end, column_type=column_type, column_timezone=zone)
        where = f"WHERE {column} >= :start AND {column} < :end"
        if groups:
            select = ", ".join(f"{g} AS g{i}" for i, g in enumerate(groups))
            sql = (f"SELECT {bucket} AS p, {select}, {cfg.metric} AS n FROM {relation} {where} "
                   f"GROUP BY {bucket}, {', '.join(groups)}")
        else:
            sql = f"SELECT {bucket} AS p, {cfg.metric} AS n FROM {relation} {where} GROUP BY {bucket}"
        rows = s.rows(sql, bounds)
    skip = {partition_key(p, cfg.grain, tz) for p in excluded}
    totals: dict[datetime, float] = defaultdict(float)
    by_group: dict[str, dict[datetime, float]] = defaultdict(dict)
    for r in rows:
        if r["p"] is None:
            continue
        # an hourly bucket is already the naive UTC start of its local hour (no truncation: a zone
        # half an hour off UTC starts its hours at :30)
        key = as_moment(r["p"]) if cfg.grain == "hour" else partition_key(r["p"], cfg.grain)
        value = _number(r["n"])
        totals[key] += value
        if groups:
            name = "/".join(str(r[f"g{i}"]) for i in range(len(groups)))
            by_group[name][key] = by_group[name].get(key, 0) + value
    chosen = _comparable(target, [k for k in totals if k not in skip], cfg)
    label = {k: partition_label(k, cfg.grain, tz) for k in chosen}
    history = [(label[k], _number(totals[k])) for k in chosen]
    group_inputs = None
    if groups:
        group_inputs = _group_inputs(by_group, chosen, label, target, cfg)
    target_label = partition_label(target, cfg.grain, tz)
    return decide_volume(dataset_id, target_label, _number(totals.get(target, 0)), history,
                         period=cfg.period, direction=cfg.direction, min_history=cfg.min_history,
                         excluded=[p for p in excluded if start <= partition_key(p, cfg.grain, tz) < target],
                         name=cfg.name, grain=cfg.grain, compare_by=cfg.compare_by,
                         holidays=holiday_calendar(cfg), group_holidays=group_calendars(cfg),
                         params=model_params(cfg),
                         accepted={_relabel(p, cfg.grain, tz): shift for p, shift in accepted.items()},
                         shapes={_relabel(p, cfg.grain, tz) for p in shapes},
                         groups=group_inputs, timezone=tz if cfg.grain == "hour" else "UTC",
                         week_dated_on=cfg.week_dated_on,
                         unit="rows" if cfg.metric.replace(" ", "").lower() == "count(*)" else cfg.metric)


def _relabel(partition: str, grain: str, timezone: str = "UTC") -> str:
    try:
        return partition_label(partition_key(partition, grain, timezone), grain, timezone)
    except WarehouseError:
        return partition


def _group_inputs(by_group: dict[str, dict[datetime, float]], chosen: list[datetime], label: dict[datetime, str],
                  target: datetime, cfg: VolumeCheckConfig) -> dict[str, tuple[float, list[tuple[str, float]]]]:
    """Each group active in the latest comparable partitions, with its own series; a group absent
    from a partition counts 0 there (one entity missing is the fault this is for). The largest
    `max_groups` by recent volume. A group on a calendar of its own is active by its latest partitions
    that are no holiday of that calendar: a market closed for a week of its holidays (hours or days
    without rows) is still a group, expected empty, not one that left."""
    calendars = group_calendars(cfg)

    def recent(group: str) -> list[datetime]:
        own = calendars.get(group)
        # a label's first ten characters are its local day, for a day or an hour (`partition_label`)
        days = (k for k in chosen if own is None or not own.name(date.fromisoformat(label[k][:10])))
        return list(itertools.islice(days, RECENT_PARTITIONS * _row_cadence(by_group[group], chosen)))

    latest = {g: recent(g) for g in by_group}
    active = {g: sum(series.get(k, 0) for k in latest[g]) for g, series in by_group.items()
              if any(series.get(k) for k in latest[g])}
    keep = sorted(active, key=lambda g: -active[g])[:cfg.max_groups]
    out = {}
    for g in keep:
        series = by_group[g]
        first = min(series)
        out[g] = (_number(series.get(target, 0)), [(label[k], _number(series.get(k, 0))) for k in chosen if k >= first])
    return out


def _row_cadence(series: dict[datetime, float], chosen: list[datetime]) -> int:
    """How many of the compared partitions apart a group's rows land as a rule (the median gap between its
    partitions with rows): 1 for a group with rows in every partition, even one that stopped or shuts for a season
    (its many one-partition gaps outvote the long one); 7 for a weekly file on a daily table, whose six empty days
    are no sign that it left."""
    held = [i for i, k in enumerate(chosen) if series.get(k)]
    gaps = [later - earlier for earlier, later in itertools.pairwise(held)]
    return max(1, int(stats.median(gaps))) if gaps else 1


def _number(value: SupportsFloat | str | None) -> int | float:
    """Row counts stay integers; a metric (a sum of decimals) becomes a float."""
    number = float(value or 0)
    return int(number) if number.is_integer() else round(number, 2)
