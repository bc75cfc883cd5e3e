"""Build the demo estate into a DW_HOME from nothing, and the changes the two nights make to it.

`build_estate(home, seed)` writes, deterministically for a seed:
- `landing/`: for each prior month-end 2026-03-31 .. 2026-08-31 its export
  `gl_YYYYMMDD_part0001.csv` and done-marker `gl_YYYYMMDD.done` (file times 00:30 local next day);
- `warehouse/finance.duckdb`: `bronze.gl_entries` loaded from exactly those files (loaded_at 00:45
  local on the day after the export date), 101k..109k rows per month-end, balanced per entity;
- `app/app.duckdb`: `main.orders`, 90 days up to 2026-09-29; `warehouse/lake.duckdb`:
  `main.orders_clean`, the same orders with their load time (01:05 local next day).
It replaces what it owns (the warehouse folder, the app database, the landing zone's GL files) and
leaves the state store, lineage events and the Dagster home to their owners. dbt builds
`warehouse/analytics.duckdb` afterwards (`dw_assets.connectors.dbt.run_dbt(["build"], ...)`).

The nights' changes (`write_gl_export_part`, `write_done_marker`, `load_gl_partition`,
`add_orders_day`, `break_orders_discount`, `copy_orders_to_lake`) are re-exported here.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from dw_assets.demo.gl_ledger import (
    export_files,
    land_history_export,
    load_gl_partition,
    write_done_marker,
    write_gl_export,
    write_gl_export_part,
)
from dw_assets.demo.layout import (
    DEFAULT_SEED,
    HISTORY_EXPORT_DATES,
    NIGHT1_EXPORT_DATE,
    NIGHT2_ORDERS_DAY,
    EstatePaths,
)
from dw_assets.demo.orders import add_orders_day, break_orders_discount, build_orders, copy_orders_to_lake

__all__ = [
    "HISTORY_EXPORT_DATES",
    "NIGHT1_EXPORT_DATE",
    "NIGHT2_ORDERS_DAY",
    "EstatePaths",
    "add_orders_day",
    "break_orders_discount",
    "build_estate",
    "copy_orders_to_lake",
    "export_files",
    "load_gl_partition",
    "write_done_marker",
    "write_gl_export",
    "write_gl_export_part",
]


def _clear_owned(paths: EstatePaths) -> None:
    shutil.rmtree(paths.warehouse_dir, ignore_errors=True)
    for suffix in ("", ".wal"):
        paths.app_db.with_name(paths.app_db.name + suffix).unlink(missing_ok=True)
    if paths.landing.exists():
        for stale in [*paths.landing.glob("gl_*.csv"), *paths.landing.glob("gl_*.done")]:
            stale.unlink()


def build_estate(home: Path | str, seed: int = DEFAULT_SEED) -> EstatePaths:
    """Build (or rebuild) the demo estate in `home`; the same seed gives the same data."""
    paths = EstatePaths.of(home)
    _clear_owned(paths)
    for folder in (paths.warehouse_dir, paths.app_dir, paths.landing, paths.lineage_events,
                   paths.dagster_home):
        folder.mkdir(parents=True, exist_ok=True)
    # written first: the part writers read the estate's seed from it
    paths.manifest.write_text(json.dumps({"seed": seed}, indent=2) + "\n")
    partitions = {d.isoformat(): land_history_export(paths, d, seed) for d in HISTORY_EXPORT_DATES}
    orders = build_orders(paths, seed)
    paths.manifest.write_text(json.dumps(
        {"seed": seed, "gl_partitions": partitions, "orders": orders, "paths": paths.to_dict()},
        indent=2) + "\n")
    return paths
