"""A series of a few partitions a year (one a quarter) read a year back: the same quarter times the year-over-year
growth, its band from the history's year-over-year errors (episodes and accepted shifts left out), where that band is
narrower than the one-step model's (which crosses the seasons with one point a quarter and sits at its ceiling)."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import ModelParams, Point, _year_back_band, forecast, judge

_SEASON = [1.3, 0.8, 0.7, 1.2]  # a winter-heavy heating-oil distributor's quarters


def _quarter_ends(first_year: int, years: int) -> list[datetime]:
    """Each quarter's last day (31 March, 30 June, 30 September, 31 December)."""
    out = []
    for y in range(first_year, first_year + years):
        for m in (4, 7, 10, 13):
            last = date(y + m // 13, m % 12 or 12, 1) - timedelta(days=1) if m < 13 else date(y, 12, 31)
            out.append(datetime(last.year, last.month, last.day))
    return out


def _litres(noise: float, seed: int = 3, episode: tuple[int, int] | None = (12, 18), shift_at: int | None = None,
            years: int = 10) -> list[Point]:
    """Litres per quarter: a season, +6% a year, `noise` (log sd) per quarter, a closure's quarters at x0.08 in
    `episode` (indices, in no calendar), and from `shift_at` a new depot accepted by the owner (x1.2)."""
    rng = random.Random(seed)
    out = []
    for i, at in enumerate(_quarter_ends(2015, years)):
        v = 50_000.0 * _SEASON[i % 4] * 1.06 ** (i / 4) * math.exp(rng.gauss(0, noise))
        if episode and episode[0] <= i < episode[1]:
            v *= 0.08
        if shift_at is not None and i >= shift_at:
            v *= 1.2
        out.append(Point(at, v, accepted=i == shift_at, shift=i == shift_at))
    return out


def test_a_steady_quarterly_series_catches_a_20_percent_drop_despite_a_closure_in_its_history():
    series, cal = _litres(0.02), HolidayCalendar(country="IE")
    for i in range(len(series) - 6, len(series)):
        fc = forecast(series[:i], series[i].at, grain="day", calendar_=cal)
        # before: one-step errors across the seasons and the closure, the band at the 0.70-1.43 ceiling
        assert fc.lower / fc.baseline > 0.8, (series[i].at, fc.lower / fc.baseline)
        assert judge(fc, series[i].value).passed, (series[i].at, series[i].value / fc.baseline)
        assert not judge(fc, series[i].value * 0.8).passed, series[i].at
        assert any("read a year back" in n for n in fc.notes), fc.notes


def test_a_noisy_quarterly_series_keeps_its_wide_band():
    # year-over-year errors of some 20%: the history does not say a quarter is predictable, nothing is narrowed
    series = _litres(0.15, episode=None)
    assert _year_back_band(series[:-1], series[-1].at, ModelParams()) is not None
    fc = forecast(series[:-1], series[-1].at, grain="day")
    assert not any("read a year back" in n for n in fc.notes), fc.notes
    assert fc.lower / fc.baseline < 0.75


def test_an_accepted_shift_is_carried_into_the_year_back_reading():
    series = _litres(0.02, shift_at=37)
    for i in (38, 39):
        fc = forecast(series[:i], series[i].at, grain="day")
        assert any("accepted shift" in n for n in fc.notes), fc.notes
        # the year-back quarter is before the new depot: without its x1.2 the clean quarter reads 1.2x
        assert abs(series[i].value / fc.baseline - 1) < 0.1, series[i].value / fc.baseline
        assert judge(fc, series[i].value).passed


def test_only_a_regular_series_of_few_partitions_a_year_is_read_so():
    p = ModelParams()
    monthly = [Point(datetime(2018 + m // 12, m % 12 + 1, 1), 1_000.0 * (1 + 0.01 * m)) for m in range(60)]
    assert _year_back_band(monthly, datetime(2023, 1, 1), p) is None
    quarters = _litres(0.02)
    irregular = quarters[:20] + quarters[21:]  # a quarter missing: its index is no longer its season
    assert _year_back_band(irregular[:-1], irregular[-1].at, p) is None
    assert _year_back_band(quarters[:7], quarters[7].at, p) is None  # under two years of clean pairs
    # the target's own quarter a year back in the closure: no reading
    assert _year_back_band(quarters[:20], quarters[20].at, p) is None


def test_a_step_not_yet_accepted_is_left_to_the_level_model():
    # +25% from two quarters back, not accepted: a year back does not hold the new level yet (its quarters
    # would read 1.25x), the one-step model's level follows it
    series = _litres(0.02)
    stepped = [Point(q.at, q.value * (1.25 if i >= 36 else 1.0)) for i, q in enumerate(series)]
    assert _year_back_band(stepped[:38], stepped[38].at, ModelParams()) is None
    assert _year_back_band(series[:38], series[38].at, ModelParams()) is not None


def test_a_storm_quarter_a_year_back_is_no_base_for_the_next_year():
    # the quarter a year before the target fell to x0.75 (a storm, within the hard ratio, in no calendar): read on
    # it, the clean quarter would read 1.33x; the one-step model judges it instead
    series = _litres(0.02)
    stormy = [Point(q.at, q.value * (0.75 if i == 34 else 1.0)) for i, q in enumerate(series)]
    assert _year_back_band(stormy[:38], stormy[38].at, ModelParams()) is None
    assert _year_back_band(series[:38], series[38].at, ModelParams()) is not None
    # the quarters after it are read a year back as before (their own year back was no storm)
    assert _year_back_band(stormy[:39], stormy[39].at, ModelParams()) is not None
