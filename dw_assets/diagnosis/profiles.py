"""The partition's own shape and the landing zone's files, for diagnosis.

Partition profile (in the warehouse, aggregates only): rows, rows per source-file column, min/max
of every DATE column against the period's expected range, repeated keys, rows of the previous
comparable partitions, and a few values of a column that became text which no number reads.
Landing zone (any fsspec URL; config `checks[].landed_files`): the export's parts and done-marker
with their arrival times (mtime); local CSV parts are profiled in an in-memory DuckDB (rows and
date ranges), bounded in count and size.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, timedelta
from typing import Any

import fsspec

from dw_assets.config import DatasetChecksConfig, Settings
from dw_assets.connectors.warehouse import Warehouse, quote_identifier, relation_parts
from dw_assets.connectors.warehouse import quote_identifier as q
from dw_assets.core.evidence import LandedFile, PartitionProfile, SchemaChange, Symptom
from dw_assets.core.graph import ContextGraph
from dw_assets.core.landed_files import file_pattern
from dw_assets.core.stats import Period, comparable_partitions
from dw_assets.diagnosis.sources import as_date, estate_warehouse, string_changes, utc_from_epoch

MAX_FILES = 20
MAX_PROFILED_BYTES = 500_000_000
_DATE_TYPES = ("DATE",)
# what a DOUBLE cast reads: decimals, exponents, inf / nan (lower-cased and trimmed first)
_NUMBER = r"^[-+]?((\d+\.?\d*|\.\d+)(e[-+]?\d+)?|inf|infinity|nan)$"


def _check_configs(settings: Settings, datasets: list[str]) -> dict[str, DatasetChecksConfig]:
    """The checks entries of the given (graph) dataset ids, keyed by the configured id."""
    entries = (settings.check_entry(d, suffix=False) for d in datasets)
    return {e.dataset: e for e in entries if e is not None}


def landed_files(settings: Settings, symptom: Symptom, datasets: list[str]) -> list[LandedFile]:
    out: list[LandedFile] = []
    partition = symptom.partition
    part = as_date(partition) if partition else None
    for dataset, check in _check_configs(settings, datasets).items():
        if check.landed_files is None or part is None or partition is None:
            continue
        landing = check.landed_files.landing or settings.landing
        pattern = file_pattern(check.landed_files.file_glob, part)
        out += _list_landing(str(settings.resolve_path(landing, what="landing")), pattern, dataset,
                             partition, check.landed_files.file_glob)
    return out


def _list_landing(landing: str, pattern: str, dataset: str, partition: str, glob: str) -> list[LandedFile]:
    fs, root = fsspec.core.url_to_fs(landing)
    root = root.rstrip("/")
    parts = sorted(fs.glob(f"{root}/{pattern}"))[:MAX_FILES]
    stem = pattern.split("*", 1)[0].rstrip("_-.")
    markers = [p for p in sorted(fs.glob(f"{root}/{stem}.*")) if p not in parts][:MAX_FILES]
    local = fs.protocol in ("file", ("file", "local")) or "file" in (fs.protocol if isinstance(fs.protocol, tuple)
                                                                     else (fs.protocol,))
    out = []
    for path, is_marker in [(p, False) for p in parts] + [(m, True) for m in markers]:
        info = fs.info(path)
        mtime = info.get("mtime") or info.get("created")
        if hasattr(mtime, "timestamp"):
            mtime = mtime.timestamp()
        rows: int | None = None
        ranges: dict[str, tuple[date, date]] = {}
        if local and not is_marker and path.endswith(".csv") and (info.get("size") or 0) <= MAX_PROFILED_BYTES:
            rows, ranges = _profile_csv(path)
        out.append(LandedFile(path.rsplit("/", 1)[-1], utc_from_epoch(float(mtime or 0)), rows, ranges, is_marker,
                              dataset, partition, glob, path=path, size=info.get("size")))
    return out


def _profile_csv(path: str) -> tuple[int | None, dict[str, tuple[date, date]]]:
    # lazy: duckdb loads only for a DuckDB warehouse
    import duckdb

    con = duckdb.connect(":memory:")
    try:
        source = f"read_csv({duckdb_literal(path)})"
        described = con.execute(f"DESCRIBE SELECT * FROM {source}").fetchall()
        dates = [r[0] for r in described if str(r[1]).upper() in _DATE_TYPES]
        selects = ["count(*)"] + [f"min({quote_identifier(c)}), max({quote_identifier(c)})" for c in dates]
        row = con.execute(f"SELECT {', '.join(selects)} FROM {source}").fetchone()
    finally:
        con.close()
    if row is None:  # an aggregate always returns its one row
        raise RuntimeError(f"duckdb returned no row counting {path}")
    ranges = {c: (row[1 + 2 * i], row[2 + 2 * i]) for i, c in enumerate(dates) if row[1 + 2 * i] is not None}
    return int(row[0]), ranges


def duckdb_literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def key_columns_from_graph(graph: ContextGraph, datasets: list[str]) -> dict[str, tuple[str, ...]]:
    """dataset -> its key columns as its dbt tests declare them: a `unique` column (with `not_null`
    first); `not_null` alone does not make a key."""
    out: dict[str, tuple[str, ...]] = {}
    for dataset in datasets:
        node = graph.node(dataset) if graph is not None and dataset in graph else None
        tests = (node.attrs.get("dbt_key_columns") or {}) if node else {}
        ranked = sorted((c for c in tests if "unique" in tests[c]), key=lambda c: ("not_null" not in tests[c], c))
        if ranked:
            out[dataset] = tuple(ranked)
    return out


def profiles(settings: Settings, symptom: Symptom, datasets: list[str], changes: list[SchemaChange],
             warehouse: Warehouse | None = None, keys: dict[str, tuple[str, ...]] | None = None) -> list[PartitionProfile]:
    wh = warehouse or estate_warehouse(settings)
    out = []
    odd_columns = string_changes(changes)
    for dataset, check in _check_configs(settings, datasets).items():
        spec = check.volume or check.landed_files
        if spec is None or not symptom.partition:
            continue
        period: Period = (check.volume.period if check.volume else None) or "daily"
        history = (check.volume.history if check.volume else None) or 6
        out.append(profile_partition(wh, dataset, spec.partition_column, symptom.partition, period, history,
                                     odd_columns.get(dataset, set()), key_columns=(keys or {}).get(dataset, ())))
    profiled = {p.dataset_id for p in out}
    for dataset, columns in odd_columns.items():
        if dataset not in profiled and dataset in datasets:
            out.append(_odd_values_only(wh, dataset, columns))
    return out


def constraint_keys(session: Any, wh: Any, dataset: str) -> tuple[str, ...]:
    """The table's declared primary key / unique columns (DuckDB's catalog, else information_schema)."""
    catalog, schema, table = relation_parts(dataset, wh.flavor.default_schema)
    if wh.is_duckdb:
        sql = ("SELECT constraint_column_names FROM duckdb_constraints() WHERE constraint_type IN "
               "('PRIMARY KEY', 'UNIQUE') AND lower(table_name) = :t AND lower(schema_name) = :s"
               + (" AND lower(database_name) = :c" if catalog else "") + " ORDER BY constraint_type")
        params = {"t": table, "s": schema or "main", **({"c": catalog} if catalog else {})}
        rows = session.query(sql, params)[1]
        return tuple(str(c) for c in rows[0][0]) if rows and len(rows[0][0]) == 1 else ()
    rows = session.query(
        "SELECT k.column_name FROM information_schema.table_constraints c JOIN information_schema.key_column_usage k "
        "ON c.constraint_name = k.constraint_name AND c.table_schema = k.table_schema WHERE c.constraint_type IN "
        "('PRIMARY KEY', 'UNIQUE') AND lower(c.table_name) = :t AND lower(c.table_schema) = :s", {"t": table,
                                                                                                  "s": schema})[1]
    return (str(rows[0][0]),) if len(rows) == 1 else ()


def profile_partition(wh: Any, dataset: str, partition_column: str, partition: str, period: Period, history: int,
                      odd_columns: Collection[str] = frozenset(), key_columns: tuple[str, ...] = ()) -> PartitionProfile:
    rel = wh.relation(dataset)
    with wh.session() as s:
        columns = {c.name: c.data_type.upper() for c in s.table_schema(dataset)}
        if not columns:
            raise LookupError(f"{dataset} has no columns in the warehouse (missing table?)")
        pc = wh.column(partition_column)
        where = f"{pc} = CAST(:p AS DATE)"
        dates = [c for c, t in columns.items() if t.startswith("DATE") and c != partition_column]
        # the key: what the dbt tests declare, else the table's own constraint, else a column named like an id
        lower = {c.lower(): c for c in columns}
        key = next((lower[k.lower()] for k in key_columns if k.lower() in lower and k.lower() != partition_column.lower()),
                   None)
        if key is None:
            try:
                key = next((lower[k.lower()] for k in constraint_keys(s, wh, dataset) if k.lower() in lower), None)
            except Exception:  # noqa: BLE001  a catalog without constraint views: fall back to the name rule
                key = None
        key = key or next((c for c in columns if c.lower().endswith("id")), None)
        selects = ["count(*) AS n"] + [f"min({q(c)}), max({q(c)})" for c in dates]
        if key:
            selects.append(f"count(*) - count(DISTINCT {q(key)})")
        row = s.query(f"SELECT {', '.join(selects)} FROM {rel} WHERE {where}", {"p": partition})[1][0]
        ranges = {c: (lo, hi) for i, c in enumerate(dates)
                  if (lo := as_date(row[1 + 2 * i])) is not None and (hi := as_date(row[2 + 2 * i])) is not None}
        file_col = next((c for c, t in columns.items() if "file" in c.lower() and ("CHAR" in t or "TEXT" in t
                                                                                 or "STRING" in t)), None)
        by_file = {}
        if file_col:
            by_file = {str(k): int(v) for k, v in s.query(
                f"SELECT {q(file_col)}, count(*) FROM {rel} WHERE {where} GROUP BY 1 ORDER BY 1 LIMIT 200",
                {"p": partition})[1]}
        past = s.query(f"SELECT {pc}, count(*) FROM {rel} WHERE {pc} < CAST(:p AS DATE) GROUP BY 1 "
                       f"ORDER BY 1 DESC LIMIT 400", {"p": partition})[1]
        odd = {c: _odd_values(s, wh, rel, c) for c in odd_columns if c in columns}
    target = as_date(partition)
    return PartitionProfile(dataset, partition_column, partition, int(row[0]), by_file, ranges,
                            _expected_range(target, period), key, int(row[-1]) if key else 0,
                            _comparable(target, past, period, history), odd)


def _odd_values(session: Any, wh: Any, rel: str, column: str) -> tuple[str, ...]:
    """Up to ten distinct values of a text column that no number reads: the sentinels to handle."""
    col = q(column)
    text = f"CAST({col} AS VARCHAR)"
    # DuckDB's TRY_CAST is the reader's own rule; engines without it (PostgreSQL) use a number's pattern
    unreadable = f"TRY_CAST({text} AS DOUBLE) IS NULL" if wh.is_duckdb else \
        f"NOT regexp_matches(lower(trim({text})), '{_NUMBER}')"
    rows = session.query(f"SELECT DISTINCT {text} FROM {rel} WHERE {col} IS NOT NULL AND {unreadable} "
                         f"ORDER BY 1 LIMIT 10")[1]
    return tuple(sorted(str(r[0]) for r in rows))


def _odd_values_only(wh: Any, dataset: str, columns: set[str]) -> PartitionProfile:
    rel = wh.relation(dataset)
    with wh.session() as s:
        present = {c.name for c in s.table_schema(dataset)}
        rows = int(s.scalar(f"SELECT count(*) FROM {rel}") or 0)
        odd = {c: _odd_values(s, wh, rel, c) for c in columns if c in present}
    return PartitionProfile(dataset, "", "*", rows, non_castable=odd)


def _expected_range(target: date | None, period: str) -> tuple[date, date] | None:
    if target is None:
        return None
    if period == "month_end":
        return target.replace(day=1), target
    return target, target


def _comparable(target: date | None, past: list[tuple], period: Period, count: int) -> tuple[int, ...]:
    if target is None:
        return ()
    counts = {day: int(n) for d, n in past if (day := as_date(d))}
    chosen = comparable_partitions(target, list(counts), period, count)
    return tuple(counts[d] for d in chosen)


__all__ = ["landed_files", "profile_partition", "profiles", "timedelta"]
