"""Which partition a check reads, and what makes two failures of one check the same occurrence.

A checked dataset's grain comes from its checks: an hourly volume check makes it hourly; a volume,
landed files or balance check on a partition column makes it daily; otherwise it is unpartitioned.
Partition keys are the labels the checks already use (`2026-09-30`, `2026-09-30T13:00`), so a key is
what `dw checks run --partition` takes (the Dagster partitions are in `dw_assets.dagster_defs.partitions`).
"""

from __future__ import annotations

import hashlib
import json
from datetime import date, datetime, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

from dw_assets.config import DatasetChecksConfig, Settings
from dw_assets.connectors.warehouse import Warehouse, WarehouseError, WarehouseSession
from dw_assets.core.checks_logic import CheckOutcome, parse_partition_key
from dw_assets.core.dates import as_date
from dw_assets.core.volume_calendar import hour_label, hour_start


def parse_partition(value: Any) -> date:
    """A partition value (DATE, TIMESTAMP or 'YYYY-MM-DD' text) as a date."""
    try:
        return as_date(value)
    except ValueError as exc:
        raise WarehouseError(f"partition value {value!r} is not a date (YYYY-MM-DD)") from exc


Zones = tuple[str, str]  # (the zone a dataset's days are, the zone its naive timestamps were written in)


def target_partition(session: WarehouseSession, relation: str, column: str, requested: str | None,
                     zones: Zones = ("UTC", "UTC")) -> date | None:
    """The requested partition, else the day of the latest value of the partition column in the
    dataset's zone (None: empty table). A timestamp's day is its zone's: 2026-11-02 03:30 UTC is
    2026-11-01 in New York, whatever the session's zone."""
    if requested:
        return parse_partition(requested)
    latest = session.scalar(f"SELECT max({column}) FROM {relation}")
    if isinstance(latest, datetime) and (latest.tzinfo is not None or zones[0] != zones[1]):
        instant = latest if latest.tzinfo else latest.replace(tzinfo=ZoneInfo(zones[1]))
        return instant.astimezone(ZoneInfo(zones[0])).date()
    return parse_partition(latest) if latest is not None else None


def day_filter(warehouse: Warehouse, session: WarehouseSession, dataset_id: str, column_name: str, day: date,
               zones: Zones = ("UTC", "UTC")) -> tuple[str, dict[str, Any]]:
    """(a WHERE condition, its parameters) selecting the daily partition `day`: equality on a DATE
    (or text) column; on a timestamp column the half-open local day in the dataset's zone, so a
    check reads the whole day (`= day` would read its midnight only) and the same rows on every
    engine whatever the session's `TimeZone` (a naive column was written in the second zone)."""
    column = warehouse.column(column_name)
    found = {c.name.lower(): c.data_type for c in session.table_schema(dataset_id)}
    column_type = found.get(column_name.lower()) or ""
    if not column_type.upper().startswith("TIMESTAMP"):
        return f"{column} = :p", {"p": day}
    zone = ZoneInfo(zones[0])
    start, end = (datetime.combine(d, datetime.min.time(), zone).astimezone(ZoneInfo("UTC")).replace(tzinfo=None)
                  for d in (day, day + timedelta(days=1)))
    return (f"{column} >= :start AND {column} < :end",
            dict(warehouse.bounds(start, end, column_type=column_type, column_timezone=zones[1])))


def occurrence(outcome: CheckOutcome) -> str:
    """What makes two failures of one check the same occurrence: the partition, else the newest
    timestamp seen (freshness), else the schema fingerprint, else the facts themselves."""
    meta = outcome.metadata
    for key in ("latest", "fingerprint"):
        if outcome.partition is None and meta.get(key):
            return str(meta[key])
    if outcome.partition:
        return outcome.partition
    facts = json.dumps(meta.get("broken_groups") or outcome.summary, sort_keys=True, default=str)
    return hashlib.sha256(facts.encode()).hexdigest()[:16]


Grain = Literal["day", "hour"]
FORMAT = {"day": "%Y-%m-%d", "hour": "%Y-%m-%dT%H:%M"}


def dataset_grain(entry: DatasetChecksConfig) -> Grain | None:
    if entry.volume is not None:
        return entry.volume.grain
    if entry.landed_files is not None or any(rule.partition_column for rule in entry.balance):
        return "day"
    return None


def partition_column(entry: DatasetChecksConfig) -> str | None:
    """The column the dataset's partitions are read from (the volume check's, else the first other)."""
    if entry.volume is not None:
        return entry.volume.partition_column
    if entry.landed_files is not None:
        return entry.landed_files.partition_column
    return next((rule.partition_column for rule in entry.balance if rule.partition_column), None)


def as_moment(value: object) -> datetime:
    """A partition value from the warehouse (DATE, TIMESTAMP or text) or a partition key, as a naive
    datetime; ValueError naming the value when text is neither a day nor an hour."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=None)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day)
    return parse_partition_key(str(value))


def partition_key(value: object, grain: Grain) -> str:
    """A partition value from the warehouse (DATE, TIMESTAMP or text) as the dataset's partition key."""
    return as_moment(value).strftime(FORMAT[grain])


def check_timezone(entry: DatasetChecksConfig) -> Zones:
    """(the zone a dataset's partitions are days / hours of, the zone its naive timestamps were
    written in): the volume check's, else UTC."""
    if entry.volume is None:
        return "UTC", "UTC"
    return entry.volume.timezone, entry.volume.column_timezone or entry.volume.timezone


def zoned_key(moment: datetime, grain: Grain, entry: DatasetChecksConfig) -> str:
    """A timestamp (aware: an instant; naive: written in the column's zone) as the key of the
    partition holding it, in the dataset's zone, whatever the session's zone was."""
    zone, column_zone = check_timezone(entry)
    instant = moment if moment.tzinfo else moment.replace(tzinfo=ZoneInfo(column_zone))
    if grain == "hour":
        return hour_label(hour_start(instant, zone), zone)
    return instant.astimezone(ZoneInfo(zone)).date().isoformat()


def latest_partition_key(settings: Settings, entry: DatasetChecksConfig,
                         warehouse: Warehouse | None = None) -> str | None:
    """The dataset's newest partition as a partition key (None: unpartitioned, or empty): the
    partition a check with no partition named would evaluate. One aggregate in the warehouse."""
    grain, column = dataset_grain(entry), partition_column(entry)
    if grain is None or column is None:
        return None
    warehouse = warehouse or Warehouse.from_settings(settings)
    latest = warehouse.scalar(f"SELECT max({warehouse.column(column)}) FROM {warehouse.relation(entry.dataset)}")
    if latest is None:
        return None
    try:
        if isinstance(latest, datetime):
            return zoned_key(latest, grain, entry)
        return partition_key(latest, grain)
    except ValueError as exc:
        raise WarehouseError(f"{entry.dataset}.{column}: newest value {latest!r} is not a date or time") from exc
