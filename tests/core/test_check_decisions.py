"""Pure check decisions: pass/fail, severity and what the metadata says."""

from __future__ import annotations

import math
import random
from datetime import UTC, date, datetime, timedelta

import pytest

from dw_assets.core.checks_logic import decide_balance, decide_freshness, decide_volume
from dw_assets.core.evidence import LandedFile
from dw_assets.core.landed_files import decide_landed_files, file_pattern
from dw_assets.core.schema_diff import decide_schema_drift
from dw_assets.core.volume_calendar import HolidayCalendar

SIX_MONTH_ENDS = [("2026-03-31", 100_200), ("2026-04-30", 104_100), ("2026-05-31", 98_300),
                  ("2026-06-30", 101_000), ("2026-07-31", 106_000), ("2026-08-31", 99_100)]
BAND = {"period": "month_end", "lower_ratio": 0.8, "upper_ratio": 1.5, "mad_k": 5.0}


def test_partial_load_at_58_percent_fails_with_error():
    out = decide_volume("finance.bronze.gl_entries", "2026-09-30", 58_500, SIX_MONTH_ENDS, **BAND)
    assert not out.passed and out.severity == "ERROR" and out.actionable
    assert out.metadata["ratio"] == pytest.approx(0.58, abs=0.01)
    assert out.metadata["history_points"] == 6
    assert out.metadata["baseline"] == pytest.approx(100_600, rel=0.03)  # a quarter-end, compared with its kind
    assert "58%" in out.summary and "history_chart" in out.markdown
    assert "OUTSIDE band" in out.markdown["history_chart"]


def test_a_normal_month_end_passes():
    out = decide_volume("finance.bronze.gl_entries", "2026-09-30", 102_000, SIX_MONTH_ENDS, **BAND)
    assert out.passed and "inside band" in out.markdown["history_chart"]


def test_too_little_history_warns_and_does_not_pass():
    out = decide_volume("d", "2026-09-30", 58_500, SIX_MONTH_ENDS[:2], min_history=3, **BAND)
    assert not out.passed and out.severity == "WARN" and not out.actionable
    assert "too little history" in out.summary and "need 3" in out.summary


@pytest.mark.parametrize("direction,observed,passed", [
    ("drop", 200_000, True), ("drop", 50_000, False), ("spike", 50_000, True), ("spike", 200_000, False),
    ("both", 200_000, False)], ids=lambda v: str(v))
def test_direction_limits_which_side_fails(direction, observed, passed):
    out = decide_volume("d", "2026-09-30", observed, SIX_MONTH_ENDS, direction=direction, **BAND)
    assert out.passed is passed


NOW = datetime(2026, 10, 1, 12, 0, tzinfo=UTC)


def test_fresh_data_within_max_age_passes_in_dataset_timezone():
    # 02:00 in New York is 06:00 UTC: six hours old at noon UTC
    out = decide_freshness("d", datetime(2026, 10, 1, 2, 0), NOW, max_age="26h", deadline_cron=None,
                           timezone="America/New_York")
    assert out.passed and out.metadata["age_hours"] == 6.0


def test_stale_data_fails_with_its_age():
    out = decide_freshness("d", datetime(2026, 9, 28, 2, 0), NOW, max_age="26h", deadline_cron=None)
    assert not out.passed and out.severity == "ERROR" and "over the 26h limit" in out.summary


def test_deadline_cron_wants_data_landed_since_the_previous_deadline():
    late = decide_freshness("d", datetime(2026, 9, 30, 6, 0, tzinfo=UTC), NOW, max_age=None,
                            deadline_cron="0 7 * * *")
    on_time = decide_freshness("d", datetime(2026, 10, 1, 5, 0, tzinfo=UTC), NOW, max_age=None,
                               deadline_cron="0 7 * * *")
    assert not late.passed and "missing" in late.summary
    assert on_time.passed and on_time.metadata["deadline"].startswith("2026-10-01T07:00")


def test_freshness_without_rows_or_sla_is_explicit():
    assert not decide_freshness("d", None, NOW, max_age="1h", deadline_cron=None).passed
    with pytest.raises(ValueError, match="max_age or deadline_cron"):
        decide_freshness("d", NOW, NOW, max_age=None, deadline_cron=None)
    with pytest.raises(ValueError, match="not a valid cron"):
        decide_freshness("d", NOW, NOW, max_age=None, deadline_cron="every day")


def test_balance_lists_broken_groups_with_their_sums():
    broken = [{"entity": "E3", "sum(total_debit)": 500.0, "sum(total_credit)": 480.25}]
    out = decide_balance("analytics.fct_trial_balance", "debits_equal_credits", "abs(...) < 0.005", ["entity"],
                         broken=broken, broken_count=1, groups_checked=4)
    assert not out.passed and out.severity == "ERROR"
    assert out.metadata["broken_groups"] == broken and "E3" in out.summary
    assert "480.25" in out.markdown["broken_groups"]


def test_balance_with_no_groups_warns():
    out = decide_balance("d", "r", "c", ["entity"], broken=[], broken_count=0, groups_checked=0)
    assert not out.passed and out.severity == "WARN"


def test_landed_files_mismatch_names_the_missing_file():
    files = [LandedFile("gl_20260930_part0001.csv", None, 580), LandedFile("gl_20260930_part0002.csv", None, 420)]
    out = decide_landed_files("d", "2026-09-30", 580, files, pattern="gl_20260930_*.csv",
                              rows_by_source={"gl_20260930_part0001.csv": 580})
    assert not out.passed and out.severity == "ERROR"
    assert "420 rows missing" in out.summary and "gl_20260930_part0002.csv" in out.summary
    assert [f["rows_in_partition"] for f in out.metadata["files"]] == [580, None]


def test_landed_files_match_passes_and_no_files_warns():
    files = [LandedFile("a.csv", None, 10), LandedFile("b.csv", None, 5)]
    assert decide_landed_files("d", "p", 15, files, pattern="*").passed
    none = decide_landed_files("d", "p", 15, [], pattern="gl_x_*.csv")
    assert not none.passed and none.severity == "WARN"


def test_file_pattern_fills_both_placeholders_and_rejects_unknown_ones():
    from datetime import date

    assert file_pattern("gl_{partition_compact}_*.csv", date(2026, 9, 30)) == "gl_20260930_*.csv"
    assert file_pattern("{partition}/x.csv", date(2026, 9, 30)) == "2026-09-30/x.csv"
    with pytest.raises(ValueError, match="unknown placeholder"):
        file_pattern("gl_{date}.csv", date(2026, 9, 30))


ACCEPTED = [("order_id", "VARCHAR"), ("amount", "DECIMAL(18,2)"), ("discount", "DECIMAL(18,2)"), ("status", "VARCHAR")]


def test_schema_drift_lists_type_change_drop_and_add_and_ignores_spelling():
    current = [("order_id", "text"), ("amount", "decimal(18, 2)"), ("discount", "VARCHAR"), ("channel", "VARCHAR")]
    out = decide_schema_drift("lake.orders_clean", ACCEPTED, current, source="warehouse")
    assert {(c["column"], c["change"]) for c in out.metadata["changes"]} == {
        ("discount", "type_changed"), ("status", "dropped"), ("channel", "added")}
    assert out.metadata["type_changed"] == out.metadata["dropped"] == out.metadata["added"] == 1
    assert "accept-schema lake.orders_clean" in out.summary


def test_schema_drift_severity_depends_on_the_change():
    changed = decide_schema_drift("d", ACCEPTED, [(n, "VARCHAR" if n == "discount" else t) for n, t in ACCEPTED],
                                  source="warehouse")
    added = decide_schema_drift("d", ACCEPTED, [*ACCEPTED, ("channel", "VARCHAR")], source="warehouse")
    first = decide_schema_drift("d", None, ACCEPTED, source="warehouse")
    assert not changed.passed and changed.severity == "ERROR" and "discount" in changed.summary
    assert not added.passed and added.severity == "WARN"
    assert first.passed and first.metadata["accepted_now"]
    assert not decide_schema_drift("d", ACCEPTED, [], source="warehouse").passed


def test_a_group_with_its_own_calendar_is_forecast_with_it_and_the_total_keeps_the_checks():
    england, israel = HolidayCalendar(country="GB", subdiv="ENG"), HolidayCalendar(country="IL")
    days = [datetime(2026, 6, 1) + timedelta(days=i) for i in range(113)]  # to Monday 21 September (Yom Kippur)
    gb = [(f"{d:%Y-%m-%d}", 40_000 + 300 * (i % 3)) for i, d in enumerate(days)]
    il = [(f"{d:%Y-%m-%d}", round((1_000 if israel.name(d.date()) else 3_000) + 20 * (i % 3))) for i, d in
          enumerate(days)]
    total = [(p, a + b) for (p, a), (_, b) in zip(gb, il)]
    groups = {"GB": (gb[-1][1], gb[:-1]), "IL": (il[-1][1], il[:-1])}
    args = ("payments", "2026-09-21", total[-1][1], total[:-1])
    plain = decide_volume(*args, holidays=england, groups=groups)
    assert not plain.passed and [g["group"] for g in plain.metadata["failed_groups"]] == ["IL"]
    own = decide_volume(*args, holidays=england, groups=groups, group_holidays={"IL": israel, "FR": israel})
    assert own.passed, own.summary
    assert own.metadata["group_calendars"] == {"IL": "IL"} and own.metadata["group_calendars_unmatched"] == ["FR"]
    # with a group on a calendar of its own, the total is read as the sum of its groups' forecasts (the
    # Israeli holiday held there); without, from its own past
    assert "sum of 2 groups" in own.metadata["comparison_group"]
    assert "sum of" not in plain.metadata["comparison_group"]
    assert own.metadata["baseline"] < plain.metadata["baseline"]


def _receipts_under_a_sunday_ban(days: int = 391, seed: int = 6) -> list[tuple[str, float]]:
    """A store chain's receipts per day from 1 January 2024: Monday-Saturday open (Saturday x1.45), Sundays
    closed but for online orders (x0.05), except six trading Sundays (in no calendar) open at a Saturday's
    level x1.1; 4% noise."""
    rng = random.Random(seed)
    shape = [0.95, 0.9, 0.9, 0.95, 1.1, 1.45, 0.05]
    trading = {date(2024, 1, 28), date(2024, 4, 28), date(2024, 6, 30), date(2024, 8, 25), date(2024, 12, 15),
               date(2024, 12, 22)}
    out = []
    for i in range(days):
        d = date(2024, 1, 1) + timedelta(days=i)
        f = shape[5] * 1.1 if d in trading else shape[d.weekday()]
        out.append((d.isoformat(), float(round(20_000 * f * math.exp(rng.gauss(0, 0.04))))))
    return out


def test_a_closed_weekday_open_as_on_its_occasions_shows_the_band_it_was_judged_by():
    """A trading Sunday passes against its open occasions: the summary, the metadata and the chart show
    their baseline and band (its ratio is to them), not the closed Sundays' band the value is 29x over."""
    history = _receipts_under_a_sunday_ban()
    out = decide_volume("retail.receipts", "2025-01-26", 32_000, history)
    assert out.passed and out.metadata["verdict"] == "open_as_on_occasions"
    meta = out.metadata
    assert meta["expected_lower"] <= 32_000 <= meta["expected_upper"], meta["expected_band"]
    assert meta["baseline"] == pytest.approx(32_000 / meta["ratio"], rel=1e-3)  # the ratio is to that baseline
    assert meta["baseline"] > 20_000  # an open day's level, not a closed Sunday's ~1,000
    assert f"baseline {meta['baseline']:,.0f}" in out.summary and "open as on its past open occasions" in out.summary
    assert "inside band" in out.markdown["history_chart"]
    # a closed Sunday keeps the forecast's own band
    closed = decide_volume("retail.receipts", "2025-01-19", 1_000, history[:-7])
    assert closed.passed and closed.metadata["verdict"] == "inside" and closed.metadata["baseline"] < 2_000
