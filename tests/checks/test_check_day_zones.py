"""Balance and landed-files checks on a timestamp partition column read the dataset's days in its
zone (the volume check's `timezone`), on DuckDB, whatever the session's `TimeZone`."""

from __future__ import annotations

from datetime import date

import duckdb
import fsspec
import pytest

from dw_assets.checks.balance import evaluate_balance
from dw_assets.checks.landed_files import evaluate_landed_files
from dw_assets.config import BalanceRuleConfig, LandedFilesCheckConfig
from dw_assets.connectors.warehouse import Warehouse

NEW_YORK = ("America/New_York", "America/New_York")


@pytest.fixture()
def lake(tmp_path):
    """A GL whose New York day 2026-11-01 balances only with its late-evening credit (03:30 UTC the
    next day), as an instant (`TIMESTAMPTZ`) and as naive New York wall-clock times (`TIMESTAMP`)."""
    path = tmp_path / "lake.duckdb"
    rows = [("A", 100, 0, "2026-11-01 14:00:00-05"), ("A", 0, 100, "2026-11-01 22:30:00-05"),
            ("B", 40, 40, "2026-11-01 09:00:00-05"), ("B", 1, 1, "2026-11-01 21:00:00-05"),
            ("A", 5, 0, "2026-10-31 23:30:00-04")]
    with duckdb.connect(str(path)) as con:
        con.execute("SET TimeZone = 'Pacific/Auckland'")  # the session's zone must not matter
        con.execute("CREATE TABLE gl (entity VARCHAR, debit INT, credit INT, posted_at TIMESTAMPTZ, local_at TIMESTAMP)")
        for entity, debit, credit, at in rows:
            con.execute("INSERT INTO gl VALUES (?, ?, ?, ?::TIMESTAMPTZ, (?::TIMESTAMPTZ AT TIME ZONE 'America/New_York'))",
                        [entity, debit, credit, at, at])
    return Warehouse("duckdb:///:memory:", {"lake": str(path)})


@pytest.mark.parametrize("column", ["posted_at", "local_at"])
def test_a_balance_rule_reads_the_whole_local_day_of_a_timestamp_column(lake, column):
    rule = BalanceRuleConfig(name="debits_equal_credits", group_by=["entity"],
                             condition="sum(debit) = sum(credit)", partition_column=column)
    out = evaluate_balance(lake, None, "lake.main.gl", rule, zones=NEW_YORK)
    # the newest stamp (03:30 UTC on 2026-11-02) is New York's 2026-11-01, and its whole day balances
    assert out.partition == "2026-11-01" and out.passed, out.summary
    assert out.metadata["groups_checked"] == 2
    # days in UTC: the credit falls on the next day, the first day is broken for entity A (naive
    # stamps written in New York read as New York's, whatever the days' zone)
    utc = evaluate_balance(lake, None, "lake.main.gl", rule, "2026-11-01", zones=("UTC", NEW_YORK[1]))
    assert not utc.passed and utc.metadata["broken_groups"][0]["entity"] == "A"
    # the evening before (New York's 2026-10-31) holds only its own row
    assert not evaluate_balance(lake, None, "lake.main.gl", rule, "2026-10-31", zones=NEW_YORK).passed


def test_landed_files_count_the_local_day_of_a_timestamp_column(lake, tmp_path):
    fs = fsspec.filesystem("memory")
    fs.pipe(f"/landing-{tmp_path.name}/gl_20261101_1.csv", b"entity,debit\nA,100\nA,0\nB,40\nB,1\n")
    cfg = LandedFilesCheckConfig(partition_column="posted_at", file_glob="gl_{partition_compact}_*.csv")
    out = evaluate_landed_files(lake, None, "lake.main.gl", cfg, f"memory://landing-{tmp_path.name}",
                                zones=NEW_YORK)
    assert out.partition == "2026-11-01" and out.passed, out.summary
    assert out.metadata["file_rows"] == 4
    # a day in UTC counts the evening before's 23:30 and leaves out this evening's last two rows
    utc = evaluate_landed_files(lake, None, "lake.main.gl", cfg, f"memory://landing-{tmp_path.name}",
                                partition=date(2026, 11, 1).isoformat())
    assert not utc.passed
