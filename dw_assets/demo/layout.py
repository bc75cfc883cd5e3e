"""Where each part of the demo estate lives inside a DW_HOME, and the estate's calendar.

One place for the layout every component builds to (see the shared brief), so the generator, the
Airflow DAGs' tests and the nights agree on paths and dates.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import duckdb

from dw_assets.core.dates import as_date  # noqa: F401 - the demo modules import it from here

ESTATE_TZ = ZoneInfo("America/New_York")  # naive timestamps in the estate are local to the books
DEFAULT_SEED = 7

HISTORY_EXPORT_DATES: tuple[date, ...] = tuple(
    date(2026, m, d) for m, d in ((3, 31), (4, 30), (5, 31), (6, 30), (7, 31), (8, 31))
)
NIGHT1_EXPORT_DATE = date(2026, 9, 30)
ORDERS_HISTORY_DAYS = 90
ORDERS_HISTORY_END = date(2026, 9, 29)  # the last day in the lake before night 2
NIGHT2_ORDERS_DAY = date(2026, 9, 30)

# The nightly export lands shortly after midnight; the load finishes by 00:45 local.
GL_LANDED_AT = time(0, 30)
GL_LOADED_AT = time(0, 45)
ORDERS_LOADED_AT = time(1, 5)


@dataclass(frozen=True)
class EstatePaths:
    home: Path
    warehouse_dir: Path
    finance_db: Path
    lake_db: Path
    analytics_db: Path
    app_dir: Path
    app_db: Path
    landing: Path
    lineage_events: Path
    state_db: Path
    dagster_home: Path
    manifest: Path  # estate.json: the seed and what was built

    @classmethod
    def of(cls, home: Path | str) -> EstatePaths:
        home = Path(home).expanduser().resolve()
        warehouse = home / "warehouse"
        return cls(
            home=home,
            warehouse_dir=warehouse,
            finance_db=warehouse / "finance.duckdb",
            lake_db=warehouse / "lake.duckdb",
            analytics_db=warehouse / "analytics.duckdb",
            app_dir=home / "app",
            app_db=home / "app" / "app.duckdb",
            landing=home / "landing",
            lineage_events=home / "lineage" / "events",
            state_db=home / "state.db",
            dagster_home=home / "dagster",
            manifest=home / "estate.json",
        )

    def to_dict(self) -> dict[str, str]:
        return {k: str(v) for k, v in asdict(self).items()}


def day_after_at(day: date, at: time) -> datetime:
    """A naive local timestamp on the day after `day` (how the estate stores load times)."""
    return datetime.combine(day + timedelta(days=1), at)


def local_epoch(moment: datetime) -> float:
    """Epoch seconds of a naive estate-local timestamp (for file mtimes)."""
    return moment.replace(tzinfo=ESTATE_TZ).timestamp()


def scalar(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> Any:
    """The single value a query returns (a count, a type name)."""
    row = con.execute(sql, params or []).fetchone()
    if row is None:
        raise LookupError(f"query returned no row: {sql}")
    return row[0]


def estate_seed(home: Path | str, seed: int | None = None) -> int:
    """An explicit seed wins; else the one the estate was built with; else the default."""
    if seed is not None:
        return seed
    manifest = EstatePaths.of(home).manifest
    if manifest.exists():
        return int(json.loads(manifest.read_text()).get("seed", DEFAULT_SEED))
    return DEFAULT_SEED
