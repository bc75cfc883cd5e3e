"""The demo estate's data: GL history, landed files, orders, and the nights' changes to them."""

from __future__ import annotations

import hashlib
import json
from datetime import date, datetime, time, timedelta
from pathlib import Path

import duckdb
import pytest

from dw_assets.demo.estate import (
    HISTORY_EXPORT_DATES,
    NIGHT1_EXPORT_DATE,
    NIGHT2_ORDERS_DAY,
    EstatePaths,
    add_orders_day,
    build_estate,
    export_files,
    load_gl_partition,
    write_done_marker,
    write_gl_export,
    write_gl_export_part,
)
from dw_assets.demo.gl_ledger import csv_data_rows


def query(db: Path, sql: str, params: list | None = None) -> list[tuple]:
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql, params or []).fetchall()


def partition_rows(paths: EstatePaths) -> dict[date, int]:
    return dict(query(paths.finance_db, "SELECT export_date, count(*) FROM bronze.gl_entries GROUP BY 1"))


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_history_has_six_month_ends_of_realistic_volume(clean_estate: EstatePaths) -> None:
    rows = partition_rows(clean_estate)
    assert sorted(rows) == list(HISTORY_EXPORT_DATES)
    assert min(rows.values()) >= 100_000
    spread = max(rows.values()) / min(rows.values())
    assert 1.005 < spread < 1.10, f"volumes should differ by a few percent: {rows}"


def test_every_entity_balances_in_every_partition(clean_estate: EstatePaths) -> None:
    per_entity = query(clean_estate.finance_db, """
        SELECT export_date, entity, sum(debit) - sum(credit) FROM bronze.gl_entries GROUP BY ALL""")
    assert {net for _, _, net in per_entity} == {0}
    entities = query(clean_estate.finance_db,
                     "SELECT export_date, count(DISTINCT entity) FROM bronze.gl_entries GROUP BY 1")
    assert all(4 <= n <= 6 for _, n in entities), entities


def test_every_journal_entry_balances(clean_estate: EstatePaths) -> None:
    unbalanced = query(clean_estate.finance_db, """
        SELECT regexp_replace(entry_id, '-[0-9]+$', '') AS journal, count(*) AS lines
        FROM bronze.gl_entries GROUP BY journal
        HAVING sum(debit) <> sum(credit) OR count(*) < 2 OR count(DISTINCT entity) <> 1""")
    assert unbalanced == []


def test_posting_dates_spread_over_their_month(clean_estate: EstatePaths) -> None:
    spans = query(clean_estate.finance_db, """
        SELECT export_date, min(posting_date), max(posting_date), count(DISTINCT posting_date)
        FROM bronze.gl_entries GROUP BY 1""")
    for export_date, first, last, days in spans:
        assert (first, last) == (export_date.replace(day=1), export_date)
        assert days == export_date.day


def test_landed_files_match_the_loaded_partitions(clean_estate: EstatePaths) -> None:
    rows = partition_rows(clean_estate)
    for export_date in HISTORY_EXPORT_DATES:
        files = export_files(clean_estate.landing, export_date)
        assert [f.name for f in files] == [f"gl_{export_date:%Y%m%d}_part0001.csv"]
        assert sum(csv_data_rows(f) for f in files) == rows[export_date]
        marker = json.loads((clean_estate.landing / f"gl_{export_date:%Y%m%d}.done").read_text())
        assert marker["rows"] == rows[export_date]
        assert files[0].read_text().splitlines()[0] == "entry_id,entity,account,posting_date,debit,credit"
    provenance = query(clean_estate.finance_db,
                       "SELECT DISTINCT export_date, source_file, loaded_at FROM bronze.gl_entries")
    assert sorted(provenance) == [
        (d, f"gl_{d:%Y%m%d}_part0001.csv", datetime.combine(d + timedelta(days=1), time(0, 45)))
        for d in HISTORY_EXPORT_DATES
    ]


def test_orders_history_has_a_weekday_pattern(clean_estate: EstatePaths) -> None:
    daily = query(clean_estate.lake_db,
                  "SELECT order_date, isodow(order_date), count(*) FROM main.orders_clean GROUP BY ALL")
    assert len(daily) == 90
    assert max(d for d, _, _ in daily) == date(2026, 9, 29)
    weekday = [n for _, dow, n in daily if dow <= 5]
    weekend = [n for _, dow, n in daily if dow > 5]
    assert sum(weekend) / len(weekend) < 0.6 * sum(weekday) / len(weekday)
    assert 300 <= min(n for *_, n in daily) and max(n for *_, n in daily) <= 5000
    (app_count,) = query(clean_estate.app_db, "SELECT count(*) FROM main.orders")[0]
    assert app_count == sum(n for *_, n in daily)
    types = dict(query(clean_estate.lake_db, "SELECT column_name, data_type FROM information_schema.columns "
                                             "WHERE table_name = 'orders_clean'"))
    assert types["discount"] == "DECIMAL(18,2)" and types["loaded_at"] == "TIMESTAMP"


def test_same_seed_same_estate(clean_estate: EstatePaths, dw_home: Path) -> None:
    rebuilt = build_estate(dw_home, seed=7)
    assert partition_rows(rebuilt) == partition_rows(clean_estate)
    name = f"gl_{HISTORY_EXPORT_DATES[-1]:%Y%m%d}_part0001.csv"
    assert sha256(rebuilt.landing / name) == sha256(clean_estate.landing / name)
    other = write_gl_export(dw_home / "other_seed", HISTORY_EXPORT_DATES[-1], seed=8)[0]
    assert csv_data_rows(other) != partition_rows(clean_estate)[HISTORY_EXPORT_DATES[-1]]


def test_split_export_part_one_holds_the_month_to_the_19th(clean_estate: EstatePaths, dw_home: Path) -> None:
    part1, part2 = write_gl_export(dw_home, NIGHT1_EXPORT_DATE, parts=2, seed=7)
    assert (part1.name, part2.name) == ("gl_20260930_part0001.csv", "gl_20260930_part0002.csv")
    history_mean = sum(partition_rows(clean_estate).values()) / len(HISTORY_EXPORT_DATES)
    share = csv_data_rows(part1) / history_mean
    assert 0.55 <= share <= 0.61, share
    finance = dw_home / "finance.duckdb"
    only_part1 = dw_home / "landing_part1"
    only_part1.mkdir()
    (only_part1 / part1.name).write_bytes(part1.read_bytes())
    assert load_gl_partition(finance, only_part1, NIGHT1_EXPORT_DATE) == csv_data_rows(part1)
    (last_posting,) = query(finance, "SELECT max(posting_date) FROM bronze.gl_entries")[0]
    assert last_posting == date(2026, 9, 19)
    unbalanced_entities = "SELECT entity FROM bronze.gl_entries GROUP BY 1 HAVING sum(debit) <> sum(credit)"
    assert len(query(finance, unbalanced_entities)) == 5, "part 1 alone must leave every entity unbalanced"
    both = load_gl_partition(finance, dw_home / "landing", NIGHT1_EXPORT_DATE)
    assert both == csv_data_rows(part1) + csv_data_rows(part2)
    assert query(finance, unbalanced_entities) == []
    assert query(finance, "SELECT DISTINCT export_date FROM bronze.gl_entries") == [(NIGHT1_EXPORT_DATE,)]


def test_parts_can_land_one_at_a_time(dw_home: Path) -> None:
    together = write_gl_export(dw_home / "together", "2026-09-30", parts=2, seed=7)
    first = write_gl_export_part(dw_home, "2026-09-30", 1, seed=7, landed_at=datetime(2026, 10, 1, 0, 2))
    assert export_files(dw_home / "landing", NIGHT1_EXPORT_DATE) == [first]
    second = write_gl_export_part(dw_home, "2026-09-30", 2, seed=7, landed_at=datetime(2026, 10, 1, 0, 34))
    assert [sha256(first), sha256(second)] == [sha256(p) for p in together]
    assert second.stat().st_mtime - first.stat().st_mtime == 32 * 60
    marker = json.loads(write_done_marker(dw_home, NIGHT1_EXPORT_DATE).read_text())
    assert [p["file"] for p in marker["parts"]] == [first.name, second.name]
    assert marker["rows"] == csv_data_rows(first) + csv_data_rows(second)


def test_night2_release_turns_discount_into_text(night_estate) -> None:
    paths = night_estate.paths
    assert len(night_estate.na_order_ids) == 5
    na_rows = query(paths.app_db, "SELECT order_date, status FROM main.orders WHERE discount = 'N/A'")
    assert na_rows == [(NIGHT2_ORDERS_DAY, "completed")] * 5
    for db, table in ((paths.app_db, "orders"), (paths.lake_db, "orders_clean")):
        (kind,) = query(db, "SELECT data_type FROM information_schema.columns "
                            "WHERE table_name = ? AND column_name = 'discount'", [table])[0]
        assert kind == "VARCHAR"
    (lake_na,) = query(paths.lake_db, "SELECT count(*) FROM main.orders_clean WHERE discount = 'N/A'")[0]
    assert lake_na == 5
    (history_loaded,) = query(paths.lake_db, "SELECT loaded_at FROM main.orders_clean "
                                             "WHERE order_date = DATE '2026-09-29' LIMIT 1")[0]
    assert history_loaded == datetime(2026, 9, 30, 1, 5), "the copy keeps earlier rows' load times"


@pytest.mark.parametrize("call, message", [
    (lambda h: write_gl_export(h, "2026-09-30", parts=3), "parts must be 1 or 2"),
    (lambda h: write_gl_export(h, "2026-09-30", parts=2, part_rows_split=(0.7, 0.7)), "part_rows_split"),
    (lambda h: write_gl_export_part(h, "2026-09-30", 3), "part_no must be between 1 and 2"),
    (lambda h: write_gl_export(h, "30/09/2026"), "not a date: '30/09/2026'"),
    (lambda h: write_done_marker(h, "2026-09-30"), "no export files for 2026-09-30"),
    (lambda h: load_gl_partition(h / "f.duckdb", h, "2026-09-30"), "no gl_20260930_*.csv files"),
    (lambda h: add_orders_day(h, "2026-09-30"), "build the estate first"),
], ids=["three-parts", "bad-split", "bad-part-no", "bad-date", "marker-without-files", "load-without-files",
        "orders-without-estate"])
def test_bad_input_says_what_was_wrong(dw_home: Path, call, message: str) -> None:
    with pytest.raises((ValueError, FileNotFoundError), match=message.replace("*", r"\*")):
        call(dw_home)
