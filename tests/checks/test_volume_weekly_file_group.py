"""A grouped volume check on a daily table one of whose groups lands in a weekly file (its rows on Mondays only,
the six other days empty), on DuckDB through `evaluate_volume`: the group stays a group on its file day though
its latest three partitions are empty, so a missing file fails, and its empty days pass."""

from __future__ import annotations

import duckdb
import pytest

from dw_assets.checks.volume import evaluate_volume
from dw_assets.config import VolumeCheckConfig
from dw_assets.connectors.warehouse import Warehouse

PAYOUTS = "lake.main.payouts"


@pytest.fixture()
def lake(tmp_path):
    """Payouts per day by channel from Monday 2 June 2025 to Sunday 9 November (23 weeks): branches and agents
    every day (Sunday lighter), the cooperatives' weekly file on each Monday (about a week's payouts)."""
    path = tmp_path / "lake.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("""
            CREATE TABLE payouts AS
            SELECT d.day, c.channel,
                   CAST(c.base * (CASE WHEN dayofweek(d.day) = 0 THEN 0.5 ELSE 1 END)
                        * (1 + (CAST(hash(d.day, c.channel) % 7 AS INTEGER) - 3) / 100.0) AS INTEGER) AS amount
            FROM (SELECT unnest(range(DATE '2025-06-02', DATE '2025-11-10', INTERVAL 1 DAY))::DATE AS day) d,
                 (VALUES ('branches', 24000), ('agents', 14000)) c(channel, base)
            UNION ALL
            SELECT d.day, 'coops', CAST(9100 * (1 + (CAST(hash(d.day) % 7 AS INTEGER) - 3) / 100.0) AS INTEGER)
            FROM (SELECT unnest(range(DATE '2025-06-02', DATE '2025-11-10', INTERVAL 7 DAY))::DATE AS day) d
        """)
    return Warehouse("duckdb:///:memory:", {"lake": str(path)})


def _with_monday(warehouse: Warehouse, *, coops: bool) -> None:
    with duckdb.connect(warehouse.attach["lake"]) as con:
        con.execute("INSERT INTO payouts VALUES ('2025-11-10', 'branches', 24100), ('2025-11-10', 'agents', 13900)")
        if coops:
            con.execute("INSERT INTO payouts VALUES ('2025-11-10', 'coops', 9150)")


CFG = VolumeCheckConfig(partition_column="day", metric="sum(amount)", group_by=["channel"])


def test_a_missing_weekly_file_fails_on_its_file_day(lake):
    _with_monday(lake, coops=False)
    out = evaluate_volume(lake, None, PAYOUTS, CFG, "2025-11-10")
    assert out.metadata["groups_checked"] == 3
    assert not out.passed and [g["group"] for g in out.metadata["failed_groups"]] == ["coops"], out.summary


def test_the_weekly_file_on_its_day_and_its_empty_days_pass(lake):
    _with_monday(lake, coops=True)
    monday = evaluate_volume(lake, None, PAYOUTS, CFG, "2025-11-10")
    assert monday.passed and monday.metadata["groups_checked"] == 3, monday.summary
    sunday = evaluate_volume(lake, None, PAYOUTS, CFG, "2025-11-09")
    assert sunday.passed and sunday.metadata["groups_checked"] == 3, sunday.summary
