"""Rows in a partition against the data rows of that date's export files in the landing zone.

A load that read only some of an export's parts (Night 1: part 2 landed after the load) leaves
the partition short of the files; a duplicated load leaves it over. Row counts are CSV records
(minus header rows), read with the csv module, so a quoted field holding a newline is one row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import PurePosixPath
from typing import Any

from dw_assets.core.check_render import table_md
from dw_assets.core.checks_logic import LANDED_FILES, CheckOutcome
from dw_assets.core.evidence import LandedFile


def file_pattern(glob: str, partition: date) -> str:
    """Fill `{partition_compact}` (YYYYMMDD) and `{partition}` (YYYY-MM-DD) into a file glob."""
    try:
        return glob.format(partition_compact=partition.strftime("%Y%m%d"), partition=partition.isoformat())
    except (KeyError, IndexError) as exc:
        raise ValueError(f"file_glob {glob!r}: unknown placeholder {exc}; use {{partition_compact}} "
                         f"or {{partition}}") from exc


def decide_landed_files(dataset_id: str, partition: str, partition_rows: int, files: Sequence[LandedFile], *,
                        pattern: str, rows_by_source: Mapping[str, int] | None = None) -> CheckOutcome:
    """`rows_by_source`: partition rows per `source_file` value, when the table records it."""
    by_name = {PurePosixPath(str(k)).name: v for k, v in (rows_by_source or {}).items()}
    listed = [{"file": f.name, "data_rows": f.rows,
               "mtime": f.arrived_at.isoformat() if f.arrived_at else None,
               "rows_in_partition": by_name.get(f.name) if rows_by_source is not None else None}
              for f in sorted(files, key=lambda f: f.name)]
    file_rows = sum(f.rows or 0 for f in files)
    unlisted = {k: v for k, v in by_name.items() if k not in {f.name for f in files}}
    meta: dict[str, Any] = {"partition_rows": partition_rows, "file_rows": file_rows,
                            "difference": partition_rows - file_rows, "pattern": pattern, "files": listed,
                            "rows_from_other_sources": unlisted}
    md = {"landed_files": table_md(listed, ["file", "data_rows", "rows_in_partition", "mtime"])}
    if not files:
        return CheckOutcome(LANDED_FILES, dataset_id, False, "WARN",
                            f"no landed files match {pattern}: cannot compare {partition_rows:,} partition rows",
                            meta, md, partition)
    if partition_rows == file_rows:
        return CheckOutcome(LANDED_FILES, dataset_id, True, "ERROR",
                            f"{partition}: {partition_rows:,} rows = the {len(files)} landed file(s)", meta, md,
                            partition)
    gap = file_rows - partition_rows
    missing = [f.name for f in files if rows_by_source is not None and not by_name.get(f.name)]
    what = f"{gap:,} rows missing" if gap > 0 else f"{-gap:,} rows more than the files"
    tail = f"; no rows from {', '.join(missing)}" if missing else ""
    return CheckOutcome(LANDED_FILES, dataset_id, False, "ERROR",
                        f"{partition}: {partition_rows:,} rows but the {len(files)} landed file(s) hold "
                        f"{file_rows:,} data rows ({what}){tail}", meta, md, partition)
