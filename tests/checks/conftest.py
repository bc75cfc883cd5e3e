"""A tiny estate in DuckDB for the check tests, built with SQL in well under a second.

finance.bronze.gl_entries: six month-ends (2026-03-31 .. 2026-08-31, ~1,000 rows each, a few
percent apart, balanced per entity) and 2026-09-30 loaded from part 1 of its export only (58%).
lake.orders_clean: ten weeks of daily orders, weekends lighter than weekdays.
analytics.fct_trial_balance: four entities, E3 out of balance.
landing/: gl_20260930_part0001.csv (580 rows) and part0002.csv (420 rows).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest

from dw_assets.config import (
    BalanceRuleConfig,
    DatasetChecksConfig,
    DomainConfig,
    FreshnessCheckConfig,
    LandedFilesCheckConfig,
    SchemaDriftCheckConfig,
    Settings,
    VolumeCheckConfig,
    WarehouseConfig,
)
from tests.support.settings import build_settings

MONTH_ENDS = {"2026-03-31": 1000, "2026-04-30": 1040, "2026-05-31": 980, "2026-06-30": 1010,
              "2026-07-31": 1060, "2026-08-31": 990}
PART_ROWS = (580, 420)  # 2026-09-30: part 1 loaded, part 2 landed after the load


@dataclass
class FixtureEstate:
    home: Path
    settings: Settings

    @property
    def finance(self) -> Path:
        return self.home / "warehouse" / "finance.duckdb"

    @property
    def lake(self) -> Path:
        return self.home / "warehouse" / "lake.duckdb"

    @property
    def analytics(self) -> Path:
        return self.home / "warehouse" / "analytics.duckdb"

    def write(self, path: Path, sql: str) -> None:
        """Change the fixture (a test's fault injection); closes the writer at once."""
        conn = duckdb.connect(str(path))
        try:
            conn.execute(sql)
        finally:
            conn.close()


def _gl_partition(conn: duckdb.DuckDBPyConnection, export_date: str, rows: int, source_file: str,
                  offset: int = 0) -> None:
    # rows 2k and 2k+1 share an entity and an amount, one debit and one credit: balanced per entity
    conn.execute(f"""
        INSERT INTO bronze.gl_entries
        SELECT 'GL-' || replace('{export_date}', '-', '') || '-' || (i + {offset}),
               'E' || ((i // 2) % 4), '4000',
               DATE '{export_date}' - CAST(i % 28 AS INTEGER),
               CASE WHEN i % 2 = 0 THEN 10 + (i // 2) % 90 ELSE 0 END,
               CASE WHEN i % 2 = 1 THEN 10 + (i // 2) % 90 ELSE 0 END,
               DATE '{export_date}', '{source_file}',
               CAST(DATE '{export_date}' + INTERVAL 1 DAY + INTERVAL 2 HOUR AS TIMESTAMP)
        FROM range({rows}) t(i)""")


def build_fixture_estate(home: Path) -> None:
    wh = home / "warehouse"
    wh.mkdir(parents=True, exist_ok=True)
    conn = duckdb.connect(str(wh / "finance.duckdb"))
    conn.execute("""CREATE SCHEMA bronze; CREATE TABLE bronze.gl_entries (entry_id VARCHAR, entity VARCHAR,
        account VARCHAR, posting_date DATE, debit DECIMAL(18,2), credit DECIMAL(18,2), export_date DATE,
        source_file VARCHAR, loaded_at TIMESTAMP)""")
    for day, rows in MONTH_ENDS.items():
        _gl_partition(conn, day, rows, f"gl_{day.replace('-', '')}_part0001.csv")
    _gl_partition(conn, "2026-09-30", PART_ROWS[0], "gl_20260930_part0001.csv")
    conn.close()

    conn = duckdb.connect(str(wh / "lake.duckdb"))
    conn.execute("""CREATE TABLE orders_clean AS
        SELECT 'O' || d.day || '-' || i AS order_id, d.day::DATE AS order_date, 'C' || (i % 50) AS customer_id,
               CAST(20 + i % 30 AS DECIMAL(18,2)) AS amount, CAST(i % 3 AS DECIMAL(18,2)) AS discount,
               'complete' AS status, CAST(d.day::DATE + INTERVAL 1 DAY AS TIMESTAMP) AS loaded_at
        FROM (SELECT unnest(range(DATE '2026-07-20', DATE '2026-09-28', INTERVAL 1 DAY)) AS day) d,
             range(CASE WHEN dayofweek(d.day) IN (0, 6) THEN 40 ELSE 100 END
                   + CAST(hash(d.day) % 5 AS INTEGER)) t(i)""")
    conn.close()

    conn = duckdb.connect(str(wh / "analytics.duckdb"))
    conn.execute("""CREATE TABLE fct_trial_balance (entity VARCHAR, total_debit DECIMAL(18,2),
        total_credit DECIMAL(18,2));
        INSERT INTO fct_trial_balance VALUES ('E0', 100, 100), ('E1', 250.5, 250.5), ('E2', 10, 10),
        ('E3', 500, 480.25)""")
    conn.close()

    landing = home / "landing"
    landing.mkdir(parents=True, exist_ok=True)
    for n, rows in enumerate(PART_ROWS, start=1):
        lines = ["entry_id,entity,account,posting_date,debit,credit"]
        lines += [f"GL-{n}-{i},E{i % 4},4000,2026-09-{1 + i % 28:02d},1.00,0.00" for i in range(rows)]
        (landing / f"gl_20260930_part{n:04d}.csv").write_text("\n".join(lines) + "\n")


def fixture_settings(home: Path) -> Settings:
    wh = home / "warehouse"
    return build_settings(
        home,
        warehouse=WarehouseConfig(url=f"duckdb:///{wh}/analytics.duckdb",
                                  attach={"finance": str(wh / "finance.duckdb"), "lake": str(wh / "lake.duckdb")}),
        landing=str(home / "landing"),
        checks=[
            DatasetChecksConfig(
                dataset="finance.bronze.gl_entries",
                volume=VolumeCheckConfig(partition_column="export_date", period="month_end", history=6),
                freshness=FreshnessCheckConfig(timestamp_column="loaded_at", max_age="26h", timezone="America/New_York"),
                landed_files=LandedFilesCheckConfig(partition_column="export_date",
                                                    file_glob="gl_{partition_compact}_*.csv"),
                schema_drift=SchemaDriftCheckConfig(source="warehouse")),
            DatasetChecksConfig(dataset="analytics.fct_trial_balance", balance=[BalanceRuleConfig(
                name="debits_equal_credits", group_by=["entity"],
                condition="abs(sum(total_debit) - sum(total_credit)) < 0.005")]),
            DatasetChecksConfig(dataset="lake.orders_clean",
                                volume=VolumeCheckConfig(partition_column="order_date", period="same_weekday"),
                                schema_drift=SchemaDriftCheckConfig(source="warehouse")),
        ],
        domains=[DomainConfig(name="finance", datasets=["finance.*", "analytics.fct_trial_balance"], owner="maria.chen"),
                 DomainConfig(name="revenue", datasets=["lake.*"], owner="priya.raman")],
    )


@pytest.fixture
def estate(dw_home: Path) -> FixtureEstate:
    build_fixture_estate(dw_home)
    return FixtureEstate(dw_home, fixture_settings(dw_home))
