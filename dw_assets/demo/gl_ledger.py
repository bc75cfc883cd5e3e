"""The finance side of the demo estate: NetSuite-style GL exports and the bronze table they load into.

An export for a month-end is a set of GL lines (`entry_id` = journal number + line number), made
in DuckDB SQL from a seed, so the same seed and export date always give the same file bytes.

- Every journal entry balances (its debit lines equal its credit lines), so each entity balances
  over a whole export.
- About `part_rows_split[0]` (58%) of the regular entries post on days 1..19 and the rest on days
  20..month-end: month-end activity is denser. When an export is split in two parts, part 1 holds
  posting dates up to the 19th and part 2 the rest.
- Three bank transfers per entity are in transit over the 19th: the cash leaves on the 19th (credit
  1000) and reaches the clearing account on the 20th (debit 1010). Each GL line carries its own
  posting date, so these entries straddle the two parts: part 1 alone leaves every entity with more
  credits than debits, and only both parts together balance.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Sequence
from datetime import date, datetime
from pathlib import Path

import duckdb

from dw_assets.demo.layout import (
    GL_LANDED_AT,
    GL_LOADED_AT,
    EstatePaths,
    as_date,
    day_after_at,
    estate_seed,
    local_epoch,
    scalar,
)

CUTOFF_DAY = 19  # the last posting day of part 1 in a two-part export
TRANSFERS_PER_ENTITY = 3
ENTITIES = ("US01", "US02", "UK01", "DE01", "SG01")
_ENTITY_SLOTS = ["US01", "US01", "US01", "US02", "UK01", "UK01", "DE01", "SG01"]  # US01 is biggest
_KIND_SLOTS = ["sale", "sale", "service", "purchase", "purchase", "payment", "receipt", "payroll",
               "accrual", "depreciation"]
_LINES_PER_ENTRY = 2.5  # the mean of n_lines over _KIND_SLOTS
CSV_COLUMNS = {"entry_id": "VARCHAR", "entity": "VARCHAR", "account": "VARCHAR",
               "posting_date": "DATE", "debit": "DECIMAL(18,2)", "credit": "DECIMAL(18,2)"}

GL_ENTRIES_DDL = """
CREATE SCHEMA IF NOT EXISTS bronze;
CREATE TABLE IF NOT EXISTS bronze.gl_entries (
    entry_id VARCHAR, entity VARCHAR, account VARCHAR, posting_date DATE,
    debit DECIMAL(18,2), credit DECIMAL(18,2), export_date DATE, source_file VARCHAR,
    loaded_at TIMESTAMP
);
"""

# kind, lines, account of the line alone on its side, that side, the other side's account(s)
# and the share of the amount on the other side's first line (3-line entries split it).
_GENERATE_SQL = """
CREATE OR REPLACE TEMP TABLE gl_lines AS
WITH kinds(kind, n_lines, single_account, single_side, other_account, split_account, other_share) AS (
    VALUES ('sale', 3, '1200', 'D', '4000', '2300', 0.92),
           ('service', 2, '1200', 'D', '4100', NULL, 1.0),
           ('purchase', 3, '2000', 'C', '6000', '5000', 0.70),
           ('payment', 2, '1000', 'C', '2000', NULL, 1.0),
           ('receipt', 2, '1000', 'D', '1200', NULL, 1.0),
           ('payroll', 3, '1000', 'C', '6100', '6150', 0.88),
           ('accrual', 2, '2100', 'C', '6200', NULL, 1.0),
           ('depreciation', 2, '1500', 'C', '6300', NULL, 1.0)
),
hashed AS (
    -- one hash per entry, sliced into independent 12-bit windows (hashes of related inputs correlate)
    SELECT j, hash($seed, $export_date, j) AS h FROM range($n_entries) r(j)
),
regular AS (
    SELECT j,
           $kind_slots[1 + ((h & 4095) % len($kind_slots))::INT] AS kind,
           $entity_slots[1 + (((h >> 12) & 4095) % len($entity_slots))::INT] AS entity,
           CASE WHEN j < floor($n_entries * $early_share)
                THEN 1 + ((h >> 24) & 4095) % $cutoff
                ELSE $cutoff + 1 + ((h >> 24) & 4095) % (day($export_date) - $cutoff)
           END::INT AS day_no,
           (100 + ((h >> 36) & 16777215) % 2500000)::BIGINT AS cents
    FROM hashed
),
regular_lines AS (
    SELECT r.j, r.entity, l.line + 1 AS line_no, r.day_no AS day_no,
           CASE l.line WHEN 0 THEN k.single_account WHEN 1 THEN k.other_account ELSE k.split_account END
               AS account,
           CASE WHEN l.line = 0 THEN k.single_side WHEN k.single_side = 'D' THEN 'C' ELSE 'D' END AS side,
           CASE WHEN l.line = 0 OR k.n_lines = 2 THEN r.cents
                WHEN l.line = 1 THEN round(r.cents * k.other_share)::BIGINT
                ELSE r.cents - round(r.cents * k.other_share)::BIGINT END AS cents
    FROM regular r JOIN kinds k USING (kind), range(3) l(line)
    WHERE l.line < k.n_lines
),
transfer_lines AS (
    SELECT $n_entries + (e.i - 1) * $transfers + t.k AS j, e.entity, l.line + 1 AS line_no,
           $cutoff + l.line AS day_no,
           CASE l.line WHEN 0 THEN '1000' ELSE '1010' END AS account,
           CASE l.line WHEN 0 THEN 'C' ELSE 'D' END AS side,
           (500000 + hash($seed, $export_date, e.entity, t.k, 'transfer') % 5000000)::BIGINT AS cents
    FROM (SELECT unnest($entities) AS entity, generate_subscripts($entities, 1) AS i) e,
         range($transfers) t(k), range(2) l(line)
)
SELECT printf('JE%s-%06d-%d', strftime($export_date, '%Y%m'), j + 1, line_no) AS entry_id,
       entity, account,
       (date_trunc('month', $export_date) + (day_no - 1) * INTERVAL 1 DAY)::DATE AS posting_date,
       (CASE side WHEN 'D' THEN cents ELSE 0 END * 0.01)::DECIMAL(18,2) AS debit,
       (CASE side WHEN 'C' THEN cents ELSE 0 END * 0.01)::DECIMAL(18,2) AS credit,
       CASE WHEN $parts = 2 AND day_no > $cutoff THEN 2 ELSE 1 END AS part_no
FROM (SELECT * FROM regular_lines UNION ALL SELECT * FROM transfer_lines)
"""


def compact(export_date: date) -> str:
    return export_date.strftime("%Y%m%d")


def export_file_name(export_date: date, part_no: int) -> str:
    return f"gl_{compact(export_date)}_part{part_no:04d}.csv"


def done_marker_name(export_date: date) -> str:
    return f"gl_{compact(export_date)}.done"


def target_rows(export_date: date, seed: int) -> int:
    """A month-end's GL volume: 101k..109k lines, fixed by seed and date."""
    return random.Random(f"{seed}:{export_date.isoformat()}").randint(101_000, 109_000)


def _check_split(parts: int, part_rows_split: Sequence[float]) -> float:
    if parts not in (1, 2):
        raise ValueError(f"parts must be 1 or 2, got {parts!r}")
    shares = tuple(float(s) for s in part_rows_split)
    if len(shares) != 2 or min(shares) <= 0 or abs(sum(shares) - 1) > 1e-9:
        raise ValueError(f"part_rows_split must be two positive shares summing to 1, got {part_rows_split!r}")
    return shares[0]


def _generate(con: duckdb.DuckDBPyConnection, export_date: date, seed: int, parts: int,
              early_share: float) -> None:
    transfers = TRANSFERS_PER_ENTITY * len(ENTITIES) * 2
    n_entries = round((target_rows(export_date, seed) - transfers) / _LINES_PER_ENTRY)
    con.execute(_GENERATE_SQL, {
        "seed": seed, "export_date": export_date, "n_entries": n_entries, "early_share": early_share,
        "cutoff": CUTOFF_DAY, "transfers": TRANSFERS_PER_ENTITY, "parts": parts,
        "entities": list(ENTITIES), "entity_slots": _ENTITY_SLOTS, "kind_slots": _KIND_SLOTS,
    })


def _sql_str(value: str | Path) -> str:
    return "'" + str(value).replace("'", "''") + "'"


def _copy_part(con: duckdb.DuckDBPyConnection, part_no: int, path: Path) -> None:
    columns = ", ".join(CSV_COLUMNS)
    tmp = path.with_name(path.name + ".tmp")
    con.execute(
        f"COPY (SELECT {columns} FROM gl_lines WHERE part_no = {int(part_no)} "
        f"ORDER BY posting_date, entry_id) TO {_sql_str(tmp)} (FORMAT csv, HEADER true)"
    )
    tmp.replace(path)  # a sensor never sees a half-written export


def _stamp(path: Path, landed_at: datetime | None) -> None:
    if landed_at is not None:
        os.utime(path, (local_epoch(landed_at), local_epoch(landed_at)))


def write_gl_export_part(home: Path, export_date: date | str, part_no: int, parts: int = 2,
                         part_rows_split: Sequence[float] = (0.58, 0.42), seed: int | None = None,
                         landed_at: datetime | None = None) -> Path:
    """Write one part of an export into the landing zone (mtime = `landed_at`, local, if given)."""
    export_date = as_date(export_date)
    early_share = _check_split(parts, part_rows_split)
    if not 1 <= part_no <= parts:
        raise ValueError(f"part_no must be between 1 and {parts}, got {part_no!r}")
    landing = EstatePaths.of(home).landing
    landing.mkdir(parents=True, exist_ok=True)
    path = landing / export_file_name(export_date, part_no)
    with duckdb.connect() as con:
        _generate(con, export_date, estate_seed(home, seed), parts, early_share)
        _copy_part(con, part_no, path)
    _stamp(path, landed_at)
    return path


def write_gl_export(home: Path, export_date: date | str, parts: int = 1,
                    part_rows_split: Sequence[float] = (0.58, 0.42), seed: int | None = None,
                    landed_at: datetime | None = None) -> list[Path]:
    """Write every part of an export (no done-marker: see `write_done_marker`)."""
    export_date = as_date(export_date)
    early_share = _check_split(parts, part_rows_split)
    landing = EstatePaths.of(home).landing
    landing.mkdir(parents=True, exist_ok=True)
    paths = [landing / export_file_name(export_date, n) for n in range(1, parts + 1)]
    with duckdb.connect() as con:
        _generate(con, export_date, estate_seed(home, seed), parts, early_share)
        for part_no, path in enumerate(paths, start=1):
            _copy_part(con, part_no, path)
            _stamp(path, landed_at)
    return paths


def export_files(landing: Path, export_date: date | str) -> list[Path]:
    """The parts of an export present in the landing zone, in part order."""
    return sorted(Path(landing).glob(f"gl_{compact(as_date(export_date))}_*.csv"))


def csv_data_rows(path: Path) -> int:
    with open(path, "rb") as fh:
        return max(sum(1 for _ in fh) - 1, 0)


def write_done_marker(home: Path, export_date: date | str, landed_at: datetime | None = None) -> Path:
    """Write `gl_YYYYMMDD.done`: a JSON list of the parts present and their data rows."""
    export_date = as_date(export_date)
    landing = EstatePaths.of(home).landing
    files = export_files(landing, export_date)
    if not files:
        raise FileNotFoundError(f"no export files for {export_date} in {landing}: write them first")
    rows = [csv_data_rows(f) for f in files]
    parts = [{"file": f.name, "rows": n} for f, n in zip(files, rows, strict=True)]
    body = {"export_date": export_date.isoformat(), "parts": parts, "rows": sum(rows)}
    marker = landing / done_marker_name(export_date)
    marker.write_text(json.dumps(body, indent=2) + "\n")
    _stamp(marker, landed_at)
    return marker


def load_gl_partition(finance_db: Path, landing: Path, export_date: date | str,
                      loaded_at: datetime | None = None) -> int:
    """Replace the `export_date` partition of bronze.gl_entries with the export files present.

    The reference for what the `gl_landing` DAG's load task does (it keeps its own copy, since
    Airflow runs without this package). Returns the partition's row count.
    """
    export_date = as_date(export_date)
    files = export_files(landing, export_date)
    if not files:
        raise FileNotFoundError(f"no gl_{compact(export_date)}_*.csv files in {landing}")
    loaded_at = loaded_at or datetime.now().replace(microsecond=0)
    columns = "{" + ", ".join(f"'{c}': '{t}'" for c, t in CSV_COLUMNS.items()) + "}"
    Path(finance_db).parent.mkdir(parents=True, exist_ok=True)
    with duckdb.connect(str(finance_db)) as con:
        con.execute(GL_ENTRIES_DDL)
        con.execute("BEGIN TRANSACTION")
        con.execute("DELETE FROM bronze.gl_entries WHERE export_date = ?", [export_date])
        con.execute(
            "INSERT INTO bronze.gl_entries SELECT entry_id, entity, account, posting_date, debit, credit, "
            "?::DATE, parse_filename(filename), ?::TIMESTAMP "
            f"FROM read_csv(?, header = true, columns = {columns}, filename = true)",
            [export_date, loaded_at, [str(f) for f in files]],
        )
        con.execute("COMMIT")
        return int(scalar(con, "SELECT count(*) FROM bronze.gl_entries WHERE export_date = ?", [export_date]))


def land_history_export(paths: EstatePaths, export_date: date, seed: int) -> int:
    """A prior month-end as it happened: one part and its done-marker landed at 00:30, loaded at 00:45."""
    landed = day_after_at(export_date, GL_LANDED_AT)
    write_gl_export(paths.home, export_date, parts=1, seed=seed, landed_at=landed)
    write_done_marker(paths.home, export_date, landed_at=landed)
    return load_gl_partition(paths.finance_db, paths.landing, export_date,
                             loaded_at=day_after_at(export_date, GL_LOADED_AT))
