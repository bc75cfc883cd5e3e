"""Rows vs landed files: the partition's row count against the data rows of that date's export
files in the landing zone (a local folder or any fsspec URL). Each file is read as CSV, streamed
record by record (quoted newlines, BOM, gzip); the partition side is one count (and one count per `source_file` when the table
records where each row came from)."""

from __future__ import annotations

import csv
import io
import sys
from datetime import UTC, datetime
from pathlib import PurePosixPath
from typing import Any

import fsspec

from dw_assets.checks.partitions import Zones, day_filter, target_partition
from dw_assets.config import LandedFilesCheckConfig, Settings, resolve_env
from dw_assets.connectors.warehouse import Warehouse
from dw_assets.core.checks_logic import LANDED_FILES, CheckOutcome
from dw_assets.core.evidence import LandedFile
from dw_assets.core.landed_files import decide_landed_files, file_pattern
from dw_assets.store import Store


def count_data_rows(fs: Any, path: str, header_rows: int) -> int:
    """CSV records in one file, minus its header rows: the csv module reads it, so a quoted field
    holding newlines is one record; a BOM is dropped (utf-8-sig) and `.gz` files are decompressed.
    Streamed: one record at a time, one file at a time."""
    compression = "gzip" if path.endswith(".gz") else None
    records = 0
    with fs.open(path, "rb", compression=compression) as raw:
        text = io.TextIOWrapper(raw, encoding="utf-8-sig", errors="replace", newline="")
        try:
            for row in csv.reader(text):
                if row:  # a blank line is not a record
                    records += 1
        except csv.Error as exc:
            raise ValueError(f"{path}: not readable as CSV at record {records + 1}: {exc}") from exc
    return max(records - header_rows, 0)


def _mtime(info: dict[str, Any]) -> datetime | None:
    value = info.get("mtime") or info.get("LastModified") or info.get("last_modified") or info.get("created")
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, (int, float)):
        return datetime.fromtimestamp(value, tz=UTC)
    return None


csv.field_size_limit(min(sys.maxsize, 2**31 - 1))  # a long quoted text field is still one field


def landed_files(landing: str, pattern: str, header_rows: int) -> list[LandedFile]:
    fs, root = fsspec.core.url_to_fs(landing)
    out = []
    for path in sorted(fs.glob(f"{root.rstrip('/')}/{pattern}")):
        info = fs.info(path)
        if info.get("type") == "directory":
            continue
        out.append(LandedFile(PurePosixPath(path).name, _mtime(info), count_data_rows(fs, path, header_rows),
                              path=path, size=info.get("size")))
    return out


def evaluate_landed_files(warehouse: Warehouse, store: Store | None, dataset_id: str, cfg: LandedFilesCheckConfig,
                          landing: str, partition: str | None = None, now: datetime | None = None, *,
                          zones: Zones = ("UTC", "UTC")) -> CheckOutcome:
    """`zones`: the dataset's (`check_timezone`): a timestamp partition column's days are its zone's."""
    relation, column = warehouse.relation(dataset_id), warehouse.column(cfg.partition_column)
    with warehouse.session() as s:
        target = target_partition(s, relation, column, partition, zones)
        if target is None:
            return CheckOutcome(LANDED_FILES, dataset_id, False, "WARN", f"{dataset_id} is empty: no partition to check")
        condition, params = day_filter(warehouse, s, dataset_id, cfg.partition_column, target, zones)
        rows = int(s.scalar(f"SELECT count(*) FROM {relation} WHERE {condition}", params))
        by_source = None
        source = next((c.name for c in s.table_schema(dataset_id) if c.name.lower() == "source_file"), None)
        if source:
            quoted = warehouse.column(source)
            grouped = s.rows(f"SELECT {quoted} AS f, count(*) AS n FROM {relation} WHERE {condition} "
                             f"GROUP BY {quoted}", params)
            by_source = {str(r["f"]): int(r["n"]) for r in grouped}
    pattern = file_pattern(cfg.file_glob, target)
    files = landed_files(landing, pattern, cfg.header_rows)
    return decide_landed_files(dataset_id, target.isoformat(), rows, files, pattern=pattern, rows_by_source=by_source)


def landing_url(settings: Settings, cfg: LandedFilesCheckConfig) -> str:
    raw = cfg.landing or settings.landing
    value = resolve_env(raw, what="landing")
    return value if "://" in value else str(settings.resolve_path(raw, what="landing"))
