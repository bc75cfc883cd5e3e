"""Robust baseline math: median/MAD, the wider-of band, comparable partitions."""

from __future__ import annotations

from datetime import date

import pytest

from dw_assets.core import stats


def test_median_and_mad_ignore_one_outlier():
    history = [100, 102, 98, 101, 99, 10]
    assert stats.median(history) == 99.5
    assert stats.mad(history) == pytest.approx(1.5)


def test_median_of_empty_history_is_an_error():
    with pytest.raises(ValueError, match="empty"):
        stats.median([])


def test_steady_history_uses_the_ratio_band():
    band = stats.expected_band([1000, 1000, 1000], lower_ratio=0.8, upper_ratio=1.5, mad_k=5)
    assert (band.lower, band.upper) == (800, 1500)
    assert band.lower_source == band.upper_source == "ratio"


def test_noisy_history_widens_the_band_with_mad():
    band = stats.expected_band([500, 1000, 1500, 1000, 700], lower_ratio=0.8, upper_ratio=1.5, mad_k=3)
    # MAD = 300, 3 * 1.4826 * 300 = 1334: wider than the ratio band on both sides
    assert band.lower == pytest.approx(1000 - 3 * stats.MAD_SCALE * 300)
    assert band.upper == pytest.approx(1000 + 3 * stats.MAD_SCALE * 300)
    assert band.lower_source == band.upper_source == "mad"
    assert band.contains(1000) and not band.contains(2400)


@pytest.mark.parametrize("lower,upper", [(1.2, 1.5), (0.8, 0.9), (-0.1, 1.5)], ids=["lower>1", "upper<1", "negative"])
def test_band_rejects_inverted_ratios(lower, upper):
    with pytest.raises(ValueError, match="lower_ratio"):
        stats.expected_band([1, 2, 3], lower_ratio=lower, upper_ratio=upper, mad_k=5)


def test_month_end_target_compares_with_earlier_month_ends_only():
    days = [date(2026, m, d) for m, d in [(3, 31), (4, 30), (5, 15), (5, 31), (6, 30), (7, 31), (8, 31), (9, 10)]]
    chosen = stats.comparable_partitions(date(2026, 9, 30), days, "month_end", 3)
    assert chosen == [date(2026, 8, 31), date(2026, 7, 31), date(2026, 6, 30)]


def test_mid_month_target_compares_with_other_ordinary_days():
    days = [date(2026, 8, 31), date(2026, 9, 10), date(2026, 9, 11)]
    assert stats.comparable_partitions(date(2026, 9, 12), days, "month_end", 5) == [date(2026, 9, 11),
                                                                                    date(2026, 9, 10)]


def test_same_weekday_skips_other_days_and_excluded_ones():
    days = [date(2026, 9, d) for d in range(1, 29)]
    target = date(2026, 9, 28)  # a Monday
    chosen = stats.comparable_partitions(target, days, "same_weekday", 3, excluded=[date(2026, 9, 14)])
    assert chosen == [date(2026, 9, 21), date(2026, 9, 7)]


def test_daily_takes_the_previous_partitions_newest_first():
    days = [date(2026, 9, d) for d in range(1, 6)]
    assert stats.comparable_partitions(date(2026, 9, 6), days, "daily", 2) == [date(2026, 9, 5), date(2026, 9, 4)]


def test_unknown_period_is_named_in_the_error():
    with pytest.raises(ValueError, match="weekly"):
        stats.comparable_partitions(date(2026, 9, 6), [], "weekly", 2)  # type: ignore[arg-type]


def test_lookback_covers_history_plus_excluded_periods():
    assert stats.lookback_days("month_end", 6) >= 6 * 31
    assert stats.lookback_days("same_weekday", 6, excluded=2) >= 8 * 7


def test_sparkline_spans_low_to_high():
    assert stats.sparkline([1, 2, 3]) == "▁▅█"
    assert stats.sparkline([5, 5]) == "▅▅"
    assert stats.sparkline([]) == ""
