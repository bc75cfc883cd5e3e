"""The volume model on histories unlike the demo's: calendars, trend, holidays, shifts, hours.

Each test builds its own series with a fixed seed; the behaviours are the ones issue 16 lists.
"""

from __future__ import annotations

import calendar
import itertools
import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import replace
from datetime import date, datetime, timedelta
from statistics import median
from zoneinfo import ZoneInfo

import numpy as np
import pytest

from benchmarks.detection_bench import ESTATES, _lookback, _owned
from dw_assets.core import volume_model
from dw_assets.core.checks_logic import CheckOutcome, decide_volume, parse_partition_moment
from dw_assets.core.volume_calendar import (
    HolidayCalendar,
    carries_closed_days,
    features_of,
    festival_days,
    fortnight_anchors,
    hour_label,
    hour_of_key,
    hour_start,
    lunar_new_year_part,
    near_holiday,
    rolled_anchors,
    rolled_date,
)
from dw_assets.core.volume_fit import _rolling_median, _trailing_medians, reads_level
from dw_assets.core.volume_model import ModelParams, Point, _calendar_days, forecast, judge


def _month_end(year: int, month: int) -> datetime:
    return datetime(year, month, calendar.monthrange(year, month)[1])


def _gl_history(months: int = 30, seed: int = 3, noise: float = 0.03) -> list[Point]:
    """Month-ends, +2%/month, quarter-ends x1.4, year-ends x1.55."""
    rng = random.Random(seed)
    out = []
    for i in range(months):
        at = _month_end(2023 + i // 12, i % 12 + 1)
        lift = 1.55 if at.month == 12 else 1.4 if at.month % 3 == 0 else 1.0
        out.append(Point(at, round(100_000 * 1.02 ** i * lift * math.exp(rng.gauss(0, noise)))))
    return out


def _expected_gl(i: int) -> float:
    at = _month_end(2023 + i // 12, i % 12 + 1)
    return 100_000 * 1.02 ** i * (1.55 if at.month == 12 else 1.4 if at.month % 3 == 0 else 1.0)


def test_a_band_is_a_ratio_and_never_reaches_zero_on_a_quarter_end_history():
    history = _gl_history(noise=0.08)
    target = _month_end(2025, 7)
    fc = forecast(history, target)
    assert fc.lower > 0.5 * fc.baseline  # the ceiling keeps the band from reaching down to zero
    assert not judge(fc, 0).passed and judge(fc, 0).reason == "empty"
    assert not judge(fc, 2.2 * fc.baseline).passed


def test_quarter_and_year_ends_compare_with_their_own_kind_after_the_trend():
    history = _gl_history(months=35)
    year_end = _month_end(2025, 12)  # index 35
    fc = forecast(history, year_end)
    assert fc.group == "year_end" and "period_end" in fc.features
    assert fc.baseline == pytest.approx(_expected_gl(35), rel=0.08)  # two past year-ends, 3% noise
    assert judge(fc, _expected_gl(35)).passed
    assert not judge(fc, 0.5 * _expected_gl(35)).passed
    assert fc.trend_per_step == pytest.approx(1.02, abs=0.01)


def test_the_trend_is_only_used_when_the_history_shows_one():
    flat = [Point(_month_end(2026, m), v) for m, v in zip(range(3, 9), (100_200, 104_100, 98_300, 101_000, 106_000,
                                                                       99_100))]
    fc = forecast(flat, _month_end(2026, 9))
    assert fc.trend_per_step == 1.0


def _orders(days: int = 760, seed: int = 5, shift_at: int | None = None,
            cal: HolidayCalendar | None = None) -> list[Point]:
    """Daily orders: weekday shape, Christmas x0.3 and Black Friday x3 (from config dates)."""
    rng = random.Random(seed)
    shape = [1.0, 1.05, 1.05, 1.1, 1.2, 0.75, 0.6]
    cal = cal or _us_calendar()
    out = []
    for i in range(days):
        d = date(2024, 1, 1) + timedelta(days=i)
        mean = 20_000 * shape[d.weekday()] * (1.4 if shift_at is not None and i >= shift_at else 1.0)
        name = cal.name(d)
        mean *= 3.0 if name == "black_friday" else 0.3 if "Christmas" in name else 1.0
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.03)))))
    return out


def _us_calendar() -> HolidayCalendar:
    return HolidayCalendar(country="US", dates={date(2024, 11, 29): "black_friday", date(2025, 11, 28): "black_friday",
                                                date(2026, 11, 27): "black_friday"})


def test_a_holiday_compares_with_its_own_past():
    cal = _us_calendar()
    history = _orders(cal=cal)
    christmas = datetime(2026, 1, 1) - timedelta(days=7)  # 2025-12-25
    before = [p for p in history if p.at < christmas]
    fc = forecast(before, christmas, calendar_=cal)
    assert "Christmas" in fc.group and "weekday" in fc.features
    assert judge(fc, 0.3 * 20_000 * 1.1).passed  # a Thursday Christmas at 0.3x
    black_friday = datetime(2025, 11, 28)
    fc = forecast([p for p in history if p.at < black_friday], black_friday, calendar_=cal)
    assert judge(fc, 3.0 * 20_000 * 1.2).passed and "black_friday" in fc.group
    assert not judge(fc, 6.0 * 20_000 * 1.2).passed  # a duplicated Black Friday still fails


def test_a_holiday_never_seen_before_is_expected_but_an_empty_day_still_fails():
    cal = HolidayCalendar(dates={date(2024, 6, 3): "stocktake"})
    history = _orders(days=150, cal=cal)[:154]
    target = datetime(2024, 6, 3)
    fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
    assert fc.unseen_holiday == "stocktake" and fc.notes
    assert judge(fc, 0.3 * fc.baseline).passed
    assert not judge(fc, 0).passed


def _closing_days(quiet: float, seed: int = 11) -> tuple[list[Point], HolidayCalendar]:
    """A year and a half of daily loads where the team's listed closing days run at `quiet` of an
    ordinary day (one of them, "inventory", at an ordinary day's volume), and a new closing day,
    "founders_day", first appears on the last day."""
    rng = random.Random(seed)
    dates = {}
    for year in (2024, 2025):
        for month, day, name in ((1, 15, "winter_close"), (4, 10, "spring_close"), (7, 3, "summer_close"),
                                 (9, 16, "harvest_close"), (10, 8, "autumn_close"), (5, 20, "inventory")):
            dates[date(year, month, day)] = name
    dates[date(2025, 6, 12)] = "founders_day"
    cal = HolidayCalendar(dates=dates)
    out = []
    for i in range((date(2025, 6, 12) - date(2024, 1, 1)).days + 1):
        d = date(2024, 1, 1) + timedelta(days=i)
        name = cal.name(d)
        mean = 10_000 * (quiet if name and name != "inventory" else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out, cal


def test_a_holiday_never_seen_behaves_like_the_holidays_seen_so_a_duplicated_one_fails():
    history, cal = _closing_days(quiet=0.5)
    target = datetime(2025, 6, 12)
    clean = history[-1].value
    assert history[-1].at == target
    fc = forecast(history[:-1], target, calendar_=cal)
    assert fc.unseen_holiday == "founders_day"
    assert judge(fc, clean).passed                 # like the other closing days, x0.5
    assert judge(fc, clean / 0.5).passed           # like "inventory", an ordinary day
    # closing days were half a day or an ordinary one: loaded twice at 0.5, it reads as an ordinary
    # day only where a closing day never was one
    history_without_inventory = [p for p in history if cal.name(p.at.date()) != "inventory"]
    cal_without = HolidayCalendar(dates={d: n for d, n in cal.dates.items() if n != "inventory"})
    fc = forecast(history_without_inventory[:-1], target, calendar_=cal_without)
    assert judge(fc, clean).passed
    assert not judge(fc, 2 * clean).passed, fc.notes
    assert not judge(fc, 0).passed


def test_a_level_shift_is_learned_after_n_points_without_a_blind_window():
    history = _orders(days=500, shift_at=495)
    target = history[-1].at + timedelta(days=1)
    fc = forecast(history, target)
    assert fc.shift is not None and fc.shift["ratio"] == pytest.approx(1.4, rel=0.08)
    new_level = 20_000 * 1.4 * [1.0, 1.05, 1.05, 1.1, 1.2, 0.75, 0.6][target.weekday()]
    assert fc.baseline == pytest.approx(new_level, rel=0.08)
    assert not judge(fc, 0.65 * new_level).passed  # a 35% drop on the new level is caught
    assert not judge(fc, 0).passed
    later = forecast(_orders(days=530, shift_at=495), target + timedelta(days=30))  # the level window moved on
    assert later.baseline == pytest.approx(20_000 * 1.4 * [1.0, 1.05, 1.05, 1.1, 1.2, 0.75, 0.6][
        (target + timedelta(days=30)).weekday()], rel=0.08)


def test_before_n_points_the_shift_fails_and_an_accepted_shift_rebaselines_at_once():
    history = _orders(days=482, shift_at=480)  # two points at the new level
    target = history[-1].at + timedelta(days=1)
    fc = forecast(history, target)
    assert fc.shift is None  # two points are not yet a new level (shift_after=3)
    accepted = [Point(p.at, p.value, accepted=True, shift=True) if i == 480 else p for i, p in enumerate(history)]
    fc = forecast(accepted, target)
    assert fc.shift is not None and fc.shift["accepted"]
    new_level = 20_000 * 1.4 * [1.0, 1.05, 1.05, 1.1, 1.2, 0.75, 0.6][target.weekday()]
    assert fc.baseline == pytest.approx(new_level, rel=0.1)
    assert not judge(fc, 0.65 * new_level).passed


def test_hour_of_day_and_weekday_are_inferred_for_an_hourly_series():
    rng = random.Random(11)
    start = datetime(2026, 3, 2)
    history = []
    for i in range(24 * 21):
        at = start + timedelta(hours=i)
        cycle = 1 + 0.8 * math.cos((at.hour - 14) / 24 * 2 * math.pi)
        history.append(Point(at, round(3000 * cycle * (0.7 if at.weekday() >= 5 else 1) * math.exp(rng.gauss(0, 0.04)))))
    night = start + timedelta(hours=24 * 21 + 3)  # a Monday, 03:00
    fc = forecast(history, night, grain="hour")
    assert {"hour_of_day", "weekday"} <= set(fc.features) and "03h" in fc.group
    expected = 3000 * (1 + 0.8 * math.cos((3 - 14) / 24 * 2 * math.pi))
    assert fc.baseline == pytest.approx(expected, rel=0.1)
    assert not judge(fc, 0.65 * expected).passed and judge(fc, expected).passed


def test_configured_groups_are_used_as_given_and_unknown_ones_named():
    history = _orders(days=120)
    target = history[-1].at + timedelta(days=1)
    assert forecast(history, target, compare_by=["weekday"]).features == ["weekday"]
    with pytest.raises(ValueError, match="fortnight"):
        forecast(history, target, compare_by=["fortnight"])


def test_the_band_follows_the_groups_spread_between_floor_and_ceiling():
    rng = random.Random(2)
    days = [datetime(2026, 1, 1) + timedelta(days=i) for i in range(90)]
    steady = [Point(d, round(1000 * math.exp(rng.gauss(0, 0.002)))) for d in days]
    noisy = [Point(d, round(1000 * math.exp(rng.gauss(0, 0.05)))) for d in days]
    wild = [Point(d, round(1000 * math.exp(rng.gauss(0, 0.4)))) for d in days]
    target = days[-1] + timedelta(days=1)
    params = ModelParams()
    widths = [forecast(h, target, params=params).half_width for h in (steady, noisy, wild)]
    assert widths[0] == pytest.approx(params.floor)
    assert params.floor < widths[1] < params.ceiling
    assert widths[2] == pytest.approx(params.ceiling)


def test_hard_rules_fail_unless_accepted_and_the_owner_tolerance_widens_the_band():
    history = _gl_history()
    target = _month_end(2025, 7)
    fc = forecast(history, target)
    assert judge(fc, 1.95 * fc.baseline).reason == "hard_ratio"
    assert judge(fc, 0, accepted=True).passed and judge(fc, 3 * fc.baseline, accepted=True).passed
    tolerant = forecast(history, target, params=ModelParams(lower_ratio=0.5))
    assert tolerant.lower == pytest.approx(0.5 * tolerant.baseline)
    assert judge(fc, 0.6 * fc.baseline, direction="spike").passed


def test_an_empty_partition_is_normal_only_where_its_group_was_empty_before():
    days = [datetime(2026, 1, 5) + timedelta(days=i) for i in range(70)]  # from a Monday
    history = [Point(d, 0 if d.weekday() == 6 else 1000 + (i % 5)) for i, d in enumerate(days)]
    sunday, monday = days[-1] + timedelta(days=(6 - days[-1].weekday()) % 7 or 7), None
    monday = sunday + timedelta(days=1)
    assert judge(forecast(history, sunday, compare_by=["weekday"]), 0).passed
    assert judge(forecast(history, monday, compare_by=["weekday"]), 0).reason == "empty"


def test_the_sorted_window_medians_match_plain_medians():
    rng = random.Random(4)
    values = [rng.gauss(0, 1) for _ in range(60)]
    for half in (1, 3, 7, 40):
        assert _rolling_median(values, half) == pytest.approx(
            [median(values[max(0, i - half):i + half + 1]) for i in range(60)])
    for window in (1, 5, 14, 80):
        assert _trailing_medians(values, window, 3) == pytest.approx(
            [median(values[max(0, i - window):i]) for i in range(3, 60)])


def _daily_noise(days: int, sigma: float, seed: int) -> list[Point]:
    rng = random.Random(seed)
    shape = [1.0, 1.05, 1.05, 1.1, 1.2, 0.75, 0.6]
    return [Point(datetime(2024, 1, 1) + timedelta(days=i),
                  round(20_000 * shape[(datetime(2024, 1, 1) + timedelta(days=i)).weekday()]
                        * math.exp(rng.gauss(0, sigma)))) for i in range(days)]


def test_a_group_of_a_few_points_does_not_pull_the_band_in():
    # weekday x business day of the month: each target's own group holds two to four past points,
    # whose MAD was mostly far below the noise (a 3.4 sd clean day then fell outside the band)
    spreads = []
    for seed in range(6):
        history = _daily_noise(200, 0.04, seed)
        for k in range(4):
            target = history[-1].at + timedelta(days=1 + k)
            spreads.append(forecast(history, target, compare_by=["weekday", "business_day"]).spread)
    # in-sample errors against some 30 fitted effects, and two-point MADs, put it at 0.039 before
    assert 0.04 <= statistics.fmean(spreads) <= 0.05
    assert min(spreads) > 0.6 * 0.04


def _loads(at: datetime, holidays: HolidayCalendar, weekend_business: float = 0.35) -> float:
    """Business hours carry the load, a nightly 02:00 batch runs every day; weekend and holiday
    business hours quiet (a weekday x hour shape)."""
    if at.hour == 2:
        return 9000.0
    business = 8 <= at.hour < 18
    quiet = at.weekday() >= 5 or bool(holidays.name(at.date()))
    return 3000 * (1.0 if business else 0.2) * (weekend_business if business and quiet else 1.0)


def _hours(start: datetime, count: int, mean, seed: int = 8, noise: float = 0.04) -> list[Point]:
    rng = random.Random(seed)
    return [Point(start + timedelta(hours=i), round(mean(start + timedelta(hours=i)) * math.exp(rng.gauss(0, noise))))
            for i in range(count)]


def test_a_holidays_hours_compare_with_the_same_hour_of_its_past_not_the_same_days_earlier_hours():
    """Veterans Day's business hours at x0.35 while its night hours and nightly batch are as
    usual: the night hours do not make it "a day with no effect". Each hour of a holiday is its own
    group, compared with the same hour of a past occurrence once there is one (one occasion: a wider
    band); never seen, it is read from the holiday's hours so far under the hypotheses they fit
    ("a Saturday x1.0" here, not "an ordinary day x1.0")."""
    cal = HolidayCalendar(dates={date(2026, 3, 25): "founders_day"})
    start = datetime(2026, 2, 25)
    history = _hours(start, 24 * 28 + 10, lambda at: _loads(at, cal))  # four weeks and the holiday's first ten hours
    target = datetime(2026, 3, 25, 10)
    fc = forecast(history, target, grain="hour", calendar_=cal)
    assert "founders_day 10h" in fc.group and fc.unseen_holiday == "founders_day 10h"
    assert "Saturday" in fc.notes[-1] and "ordinary" not in fc.notes[-1], fc.notes
    assert judge(fc, _loads(target, cal)).passed  # was flagged: the night hours had taught "no effect"
    assert not judge(fc, 0.6 * _loads(target, cal)).passed and not judge(fc, 0).passed
    # a holiday that lowers every hour alike fits "an ordinary day x0.6"
    def uniform(at: datetime) -> float:
        return 3000 * (1 + 0.8 * math.cos((at.hour - 14) / 24 * 2 * math.pi)) * (0.6 if cal.name(at.date()) else 1.0)
    fc = forecast(_hours(start, 24 * 28 + 11, uniform), datetime(2026, 3, 25, 11), grain="hour", calendar_=cal)
    assert "ordinary day x0.6" in fc.notes[-1], fc.notes
    assert judge(fc, uniform(datetime(2026, 3, 25, 11))).passed
    assert not judge(fc, 0.65 * uniform(datetime(2026, 3, 25, 11))).passed
    # a past occurrence two weeks before: 10:00 compares with that day's 10:00
    twice = HolidayCalendar(dates={date(2026, 3, 11): "founders_day", date(2026, 3, 25): "founders_day"})
    history = _hours(start, 24 * 28 + 10, lambda at: _loads(at, twice))
    fc = forecast(history, target, grain="hour", calendar_=twice)
    assert fc.unseen_holiday is None and fc.baseline == pytest.approx(_loads(target, twice), rel=0.12)
    assert judge(fc, _loads(target, twice)).passed and not judge(fc, 0.6 * _loads(target, twice)).passed
    assert not judge(fc, 3000).passed  # business as usual on that holiday is no longer expected
    batch = forecast(history[:-8], datetime(2026, 3, 25, 2), grain="hour", calendar_=twice)
    assert batch.baseline == pytest.approx(9000, rel=0.12) and not judge(batch, 0.6 * 9000).passed
    ordinary = forecast(history[:24 * 21 + 10], datetime(2026, 3, 18, 10), grain="hour", calendar_=twice)
    # one occasion's effect is as uncertain as one point: the band is about 1.6x wider
    assert fc.half_width > 1.35 * ordinary.half_width


def test_a_holiday_hour_never_seen_is_expected_like_the_weekends_same_hour():
    """Until a holiday's past or its first hours are seen, its hour may be like an ordinary hour or, where the series
    shows its weekends differ, like the weekend's same hour (weekend business hours at x0.15 here,
    quieter than an unseen holiday's usual leeway); a series whose weekends do not differ gets no
    such prior. An empty hour still fails."""
    cal = HolidayCalendar(dates={date(2026, 3, 25): "founders_day"})
    start, target = datetime(2026, 2, 25), datetime(2026, 3, 25, 11)
    # the history ends the evening before: none of the holiday's hours seen yet
    history = _hours(start, 24 * 28, lambda at: _loads(at, cal, weekend_business=0.15))
    fc = forecast(history, target, grain="hour", calendar_=cal)
    assert "weekend" in " ".join(fc.notes), fc.notes
    holiday_value = _loads(target, cal, weekend_business=0.15)  # 450, x0.15 of an ordinary 11:00
    assert judge(fc, holiday_value).passed and judge(fc, 3000).passed and not judge(fc, 0).passed
    # weekends like weekdays: no weekend prior, and x0.15 is below an unseen holiday's leeway
    flat = _hours(start, 24 * 28, lambda at: 3000 * (1 + 0.8 * math.cos((at.hour - 14) / 24 * 2 * math.pi)))
    fc = forecast(flat, target, grain="hour", calendar_=cal)
    assert "weekend" not in " ".join(fc.notes) and fc.unseen_holiday
    assert not judge(fc, 0.15 * fc.baseline).passed and judge(fc, 0.5 * fc.baseline).passed


def _lift_hours(weekend: float, cal: HolidayCalendar, days: int = 28, seed: int = 8) -> list[Point]:
    """A business open 08:00-16:59 only (a ski lift, an excursion boat): an hour's rows peak at noon, its weekend
    days and its holidays run x`weekend` a weekday's (every hour)."""
    rng, start = random.Random(seed), datetime(2026, 2, 25)
    return [Point(at, round(_lift_mean(at, weekend, cal) * math.exp(rng.gauss(0, 0.04))))
            for at in (start + timedelta(days=d, hours=h) for d in range(days) for h in range(8, 17))]


def _lift_mean(at: datetime, weekend: float, cal: HolidayCalendar) -> float:
    off = at.weekday() >= 5 or bool(cal.name(at.date()))
    return 2000 * (1 - abs(at.hour - 12) / 8) * (weekend if off else 1.0)


def test_a_holiday_hour_never_seen_on_a_leisure_series_may_run_like_its_busier_weekend():
    """A leisure business (its weekend hours x1.8 a weekday's: a ski resort) whose four weeks of hours hold no
    holiday: its holiday may run like its weekend (Easter Monday skied like a Saturday) as well as closed-like,
    so at its first hour (no hours so far) the upper side reaches the weekend's same hour and the hard rule
    reads from there. Before, a Saturday-like holiday failed the hard ratio at 1.8x a Wednesday's hour. A
    doubled Saturday-like hour, an empty one and one at a tenth of a weekday's still fail; a series whose
    weekend is quieter keeps its ordinary hour's top."""
    cal = HolidayCalendar(dates={date(2026, 3, 25): "founders_day"})
    target = datetime(2026, 3, 25, 8)  # a Wednesday's first open hour: the history ends the evening before
    fc = forecast(_lift_hours(1.8, cal), target, grain="hour", calendar_=cal)
    weekday, saturday = _lift_mean(datetime(2026, 3, 24, 8), 1.8, cal), _lift_mean(target, 1.8, cal)
    assert judge(fc, saturday).passed and judge(fc, weekday).passed  # the Saturday-like hour failed on main
    assert fc.unseen_holiday == "founders_day 08h" and "weekend runs busier" in " ".join(fc.notes), fc.notes
    assert not judge(fc, 2 * saturday).passed and not judge(fc, 0).passed and not judge(fc, 0.1 * weekday).passed
    assert fc.upper < 1.5 * saturday  # widened no further than the weekend's same hour and its noise
    office = forecast(_lift_hours(0.5, cal), target, grain="hour", calendar_=cal)
    assert "weekend runs busier" not in " ".join(office.notes) and not judge(office, 1.8 * weekday).passed


def test_a_level_shift_the_day_after_a_holiday_is_confirmed_within_hours_on_an_hourly_series():
    """The neighbourhood of a holiday is a daily series' group: on an hourly series its hours
    neither form groups of one (each would explain itself, the new level too) nor hold back the
    shift rule, so a +40% step the morning after a holiday is a new level after a few hours."""
    cal = HolidayCalendar(dates={date(2026, 3, 25): "founders_day"})
    step = datetime(2026, 3, 26, 9)

    def mean(at: datetime) -> float:
        cycle = 1 + 0.8 * math.cos((at.hour - 14) / 24 * 2 * math.pi)
        return 3000 * cycle * (0.7 if at.weekday() >= 5 else 1.0) * (0.6 if cal.name(at.date()) else 1.0) \
            * (1.4 if at >= step else 1.0)

    start = datetime(2026, 2, 26)
    history = _hours(start, 24 * 28 + 15, mean)
    target = datetime(2026, 3, 26, 15)
    fc = forecast(history, target, grain="hour", calendar_=cal)
    assert fc.shift is not None and fc.shift["ratio"] == pytest.approx(1.4, rel=0.06), fc.shift
    assert judge(fc, mean(target)).passed and not judge(fc, 0.65 * mean(target)).passed
    assert "near" not in fc.group


def test_a_weekly_partition_holds_the_holidays_of_its_seven_days():
    cal = HolidayCalendar(country="US")
    rng = random.Random(6)
    weeks = [datetime(2022, 1, 3) + timedelta(weeks=i) for i in range(156)]
    history = []
    for at in weeks:
        christmas = any("Christmas" in cal.name((at + timedelta(days=k)).date()) for k in range(7))
        history.append(Point(at, round(50_000 * (0.55 if christmas else 1.0) * math.exp(rng.gauss(0, 0.04)))))
    target = datetime(2024, 12, 23)  # the week holding Christmas Day 2024
    fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
    assert "Christmas Day" in fc.group
    assert judge(fc, 0.55 * 50_000).passed
    assert not judge(fc, 0.55 * 50_000 * 0.6).passed  # a 40% drop on a Christmas week still fails
    # no calendar: one low week a year does not earn 52 week-of-year effects, so Christmas week
    # looks like a drop (the calendar is how to say it is not)
    plain = forecast([p for p in history if p.at < target], target)
    assert "week:" not in plain.group
    assert not judge(plain, 0.55 * 50_000).passed


def _summer_weeks(years: int = 3, seed: int = 12, one_off: date | None = None) -> list[Point]:
    """Weekly bookings (Monday weeks) whose school-summer weeks (Mondays from 20 July to 31 August)
    run at x1.6, in no calendar; `one_off`: a week at x0.5 once (an event, a fault left in the history)."""
    rng = random.Random(seed)
    out = []
    for i in range(52 * years + 40):
        monday = date(2022, 1, 3) + timedelta(weeks=i)
        mean = 8_000 * (1.6 if date(monday.year, 7, 20) <= monday <= date(monday.year, 8, 31) else 1.0)
        mean *= 0.5 if monday == one_off else 1.0
        out.append(Point(datetime(monday.year, monday.month, monday.day), round(mean * math.exp(rng.gauss(0, 0.03)))))
    return out


def test_a_weekly_season_that_splits_a_month_is_learned_by_its_weeks():
    history = _summer_weeks()
    for target in (datetime(2025, 7, 14), datetime(2025, 7, 28), datetime(2025, 9, 8)):
        # a July week before the summer, one inside it (a week that was August's in past years), the
        # first week after it
        value = next(p.value for p in history if p.at == target)
        fc = forecast([p for p in history if p.at < target], target)
        assert "week_of_year" in fc.features
        assert judge(fc, value).passed, (target, fc.group, value / fc.baseline)
        # a 35% drop in or out of the season fails (52 effects of three years each are uncertain:
        # the band is wider than the noise alone would make it)
        assert not judge(fc, value * 0.65).passed and not judge(fc, value * 2).passed
    # the same weeks without a season: 52 effects do not pay for themselves
    flat = [Point(p.at, p.value / 1.6 if date(p.at.year, 7, 20) <= p.at.date() <= date(p.at.year, 8, 31) else p.value)
            for p in history]
    assert "week_of_year" not in forecast(flat[:-1], flat[-1].at).features


def test_a_week_that_stood_out_in_one_year_only_does_not_move_its_season():
    history = _summer_weeks(one_off=date(2023, 3, 13))  # week 11 of 2023 at x0.5, never again
    target = datetime(2025, 3, 10)  # week 11 of 2025
    value = next(p.value for p in history if p.at == target)
    fc = forecast([p for p in history if p.at < target], target)
    assert "week:11" in fc.group and fc.baseline == pytest.approx(value, rel=0.08)
    assert judge(fc, value).passed
    assert not judge(fc, value * 0.65).passed


def test_a_weekly_spread_reads_each_week_of_the_year_from_its_other_years():
    """52 weeks of the year learned on the two or three years they then judge fit their own noise (a
    week of three years is their median: one of them sits on it exactly). On bookings_gb_weekly's total
    (five groups at 6% noise: about 2.9% on the total) main's errors read 1.2-1.5% and its band +-6%: the
    week after a -20% step, accepted, failed at 0.92x against 0.938-1.066 (seed 2, 11 November 2024)."""
    estate = ESTATES["bookings_gb_weekly"](2)
    stamps = [at for at, _ in estate.series]
    for target, accepted in ((datetime(2024, 9, 2), set()), (datetime(2024, 11, 11), set(estate.shift_at))):
        idx = stamps.index(target)
        past = estate.series[max(0, idx - _lookback(estate)):idx]
        history = [_owned(at, sum(v), accepted, set()) for at, v in past]
        fc = forecast(history, target, grain=estate.grain, calendar_=estate.calendar)
        value = sum(estate.series[idx][1])
        assert "week_of_year" in fc.features
        assert fc.spread > 0.014, (target, fc.spread)  # main: 0.0112 and 0.0120; now 0.0158 and 0.0186
        assert judge(fc, value).passed, (target, value / fc.baseline, fc.lower / fc.baseline)
        assert not judge(fc, value * 0.65).passed
    # a series whose weeks were each seen in one year only has no week read from its other years
    fit = volume_model.SeriesFit([float(i) for i in range(4)], [0.0, 0.1, 0.0, 0.1],
                                 [{"week_of_year": i % 2 + 2 * (i // 2), "holiday": ""} for i in range(4)],
                                 ["week_of_year"], 52, 8)
    assert volume_model._years_out(fit) == {}


def _yearly_cosine(amplitude: float, seed: int = 3, weeks: int = 170) -> list[Point]:
    """Mondays from 3 January 2022: a cosine yearly season of +-amplitude peaking mid-January, 3% noise."""
    rng = random.Random(seed)
    out = []
    for i in range(weeks):
        monday = date(2022, 1, 3) + timedelta(weeks=i)
        season = 1 + amplitude * math.cos(((monday + timedelta(days=3)).timetuple().tm_yday - 15) / 365.25 * 2 * math.pi)
        out.append(Point(datetime(monday.year, monday.month, monday.day),
                         round(10_000 * season * math.exp(rng.gauss(0, 0.03)))))
    return out


def test_a_smooth_yearly_season_of_a_weekly_series_is_taken_out_so_the_band_reflects_noise():
    history = _yearly_cosine(0.2)
    # weeks on the season's slope (late winter into spring, the curve falling ~1.5% a week), where a
    # trailing level lags: the week-of-year model gave bands of +-24% to +-32% and passed a 20% drop
    for target in (datetime(2025, 1, 27), datetime(2025, 3, 3), datetime(2025, 3, 31)):
        value = next(q.value for q in history if q.at == target)
        fc = forecast([q for q in history if q.at < target], target)
        assert any("yearly season" in note for note in fc.notes)
        assert fc.half_width < 0.16, fc.half_width
        assert judge(fc, value).passed
        assert not judge(fc, value * 0.8).passed


def test_a_weekly_series_without_a_yearly_season_keeps_its_forecast(monkeypatch: pytest.MonkeyPatch):
    history = _yearly_cosine(0.0)
    targets = (datetime(2025, 1, 27), datetime(2025, 3, 31))
    with_rule = [forecast([q for q in history if q.at < target], target) for target in targets]
    monkeypatch.setattr(volume_model, "_yearly_season", lambda *args, **kwargs: None)
    without = [forecast([q for q in history if q.at < target], target) for target in targets]
    for a, b in zip(with_rule, without):
        assert not any("yearly season" in note for note in a.notes)
        assert (a.baseline, a.lower, a.upper) == (b.baseline, b.lower, b.upper)


def _business_days(cal: HolidayCalendar, years: int = 2, seed: int = 4, backlog: float = 1.6) -> list[Point]:
    """Weekdays only (no partition on weekends or holidays); the first day after three or more closed
    days carries the backlog."""
    rng = random.Random(seed)
    out, closed = [], 0
    for i in range(365 * years):
        d = date(2024, 1, 1) + timedelta(days=i)
        if d.weekday() >= 5 or cal.name(d):
            closed += 1
            continue
        mean = 8_000 * (backlog if closed >= 3 else 1.0)
        closed = 0
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out


def test_the_first_partition_after_a_closure_compares_with_past_closures():
    # a Friday or Monday off every quarter makes a closure of three days; one week-long closure
    days_off = {date(2024, 2, 19): "day_off", date(2024, 5, 13): "day_off", date(2024, 8, 16): "day_off",
                date(2024, 11, 11): "day_off", date(2025, 2, 17): "day_off", date(2025, 5, 12): "day_off"}
    days_off.update({date(2025, 1, 6) + timedelta(days=k): "winter_break" for k in range(5)})
    cal = HolidayCalendar(dates=days_off)
    history = _business_days(cal)
    after = datetime(2025, 5, 13)  # the Tuesday after a Monday off: three closed days
    fc = forecast([p for p in history if p.at < after], after, calendar_=cal)
    assert "after_3_closed_days" in fc.group
    assert judge(fc, 1.6 * 8_000).passed
    assert not judge(fc, 0.65 * 1.6 * 8_000).passed and not judge(fc, 2 * 1.6 * 8_000).passed
    monday = datetime(2025, 5, 19)  # after an ordinary weekend: the usual closure before a Monday
    fc = forecast([p for p in history if p.at < monday], monday, calendar_=cal)
    assert "closed" not in fc.group and not judge(fc, 1.6 * 8_000).passed
    # a closure of a length never seen (nine days) is judged like the longest shorter one seen (seven)
    longer = [p for p in history if p.at < datetime(2025, 6, 2)]
    target = datetime(2025, 6, 9)
    fc = forecast(longer, target, calendar_=cal)
    assert "after_9_closed_days" in fc.group and judge(fc, 1.6 * 8_000).passed


def _settlements(cal: HolidayCalendar, end: date, seed: int = 3) -> list[Point]:
    """Business-day loads, each carrying every day's activity since the previous load (Saturday x0.8,
    Sunday x0.7, a holiday x0.6): Monday ~2.5x a midweek load."""
    rng = random.Random(seed)
    out, carried = [], 0.0
    d = date(2024, 1, 2)
    while d < end:
        carried += 0.6 if cal.name(d) else 0.8 if d.weekday() == 5 else 0.7 if d.weekday() == 6 else 1.0
        if d.weekday() < 5 and not cal.name(d):
            out.append(Point(datetime(d.year, d.month, d.day), round(30_000 * carried * math.exp(rng.gauss(0, 0.04)))))
            carried = 0.0
        d += timedelta(days=1)
    return out


def test_a_load_carrying_its_closed_days_adds_a_closure_to_the_weekend_it_already_holds():
    # Monday holidays (the Tuesday carries the long weekend), Friday and midweek ones, one Wednesday-
    # Thursday closure (the Friday carries two extra days); then Christmas on a Thursday with Boxing
    # Day: the Monday after carries two extra days on top of the weekend, a closure never seen on a Monday
    days_off = [date(2024, 2, 19), date(2024, 3, 29), date(2024, 5, 20), date(2024, 7, 1), date(2024, 8, 5),
                date(2024, 9, 2), date(2024, 10, 14), date(2024, 12, 25), date(2024, 12, 26), date(2025, 1, 1),
                date(2025, 2, 17), date(2025, 4, 18), date(2025, 5, 19), date(2025, 7, 1), date(2025, 8, 4),
                date(2025, 9, 1), date(2025, 10, 13), date(2025, 12, 25), date(2025, 12, 26)]
    cal = HolidayCalendar(dates={d: "day_off" for d in days_off})
    monday = datetime(2025, 12, 29)
    history = _settlements(cal, monday.date())
    fc = forecast(history, monday, calendar_=cal)
    clean = 30_000 * (0.6 + 0.6 + 0.8 + 0.7 + 1.0)  # Thursday, Friday, the weekend and Monday's own day
    assert judge(fc, clean).passed, (fc.group, fc.baseline)
    assert not judge(fc, 0.65 * clean).passed
    # a Monday merely heavier than the week (a first day back with a bump of its own) carries nothing
    days = [p.at.date() for p in history]
    assert carries_closed_days(days, [math.log(p.value) for p in history])
    shipments = _business_days(cal)
    assert not carries_closed_days([p.at.date() for p in shipments], [math.log(p.value) for p in shipments])


def test_a_closure_never_seen_before_leaves_a_spike_to_the_hard_rule():
    cal = HolidayCalendar()
    history = _business_days(cal, years=1)
    target = history[-1].at + timedelta(days=10)
    fc = forecast(history, target, calendar_=cal)
    assert fc.notes and "closure never seen" in fc.notes[0]
    assert judge(fc, 1.7 * fc.baseline).passed and not judge(fc, 1.95 * fc.baseline).passed
    assert not judge(fc, 0.6 * fc.baseline).passed  # a drop is judged as on any day


def _festival_days(seed: int = 9, years: int = 3) -> tuple[list[Point], HolidayCalendar]:
    """Daily; a config holiday in late April (x0.25) whose three following days are homecoming
    days (x0.55) that no calendar names."""
    festivals = {date(2024, 4, 10): "festival", date(2025, 3, 31): "festival", date(2026, 3, 20): "festival"}
    cal = HolidayCalendar(dates=festivals)
    rng = random.Random(seed)
    out = []
    for i in range(365 * years):
        d = date(2024, 1, 1) + timedelta(days=i)
        mean = 30_000 * (0.25 if d in festivals else 0.55 if any(
            d - timedelta(days=k) in festivals for k in (1, 2, 3)) else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out, cal


def test_a_holidays_neighbourhood_is_a_group_learned_from_past_years():
    history, cal = _festival_days()
    target = datetime(2026, 3, 22)  # two days after the festival
    fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
    assert "near:festival +2d" in fc.group
    assert judge(fc, 0.55 * 30_000).passed
    assert not judge(fc, 0.65 * 0.55 * 30_000).passed  # a 35% drop on a homecoming day still fails
    ordinary = datetime(2026, 2, 10)  # days near no holiday have no such group
    fc = forecast([p for p in history if p.at < ordinary], ordinary, calendar_=cal)
    assert "near:" not in fc.group and judge(fc, 30_000).passed


def test_a_level_shift_does_not_start_in_a_holidays_neighbourhood():
    # the first festival ever seen: three low days after it are no new level, the next day is ordinary
    history, cal = _festival_days(years=1)
    target = datetime(2024, 4, 14)
    fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
    assert fc.shift is None
    assert fc.baseline == pytest.approx(30_000, rel=0.05) and judge(fc, 30_000).passed


def _return_from_excursion(holiday_after: int, seed: int = 3) -> tuple[list[Point], HolidayCalendar, date]:
    """Daily, busy weekends; a month at x0.55 in no calendar (a lunar month held unlucky) ending on the
    returned level, and a holiday x0.35 the history never saw (new to the calendar) `holiday_after` days
    after the first day back, its neighbourhood as busy as any day."""
    rng = random.Random(seed)
    shape = [0.8, 0.75, 0.75, 0.8, 0.95, 1.5, 1.1]
    back = date(2025, 9, 22)
    holiday = back + timedelta(days=holiday_after)
    cal = HolidayCalendar(dates={holiday: "founders_day"})
    out = []
    for i in range(450):
        d = date(2024, 8, 1) + timedelta(days=i)
        mean = 3_000 * shape[d.weekday()] * (0.55 if back - timedelta(days=30) <= d < back else 1.0)
        mean *= 0.35 if d == holiday else 1.0
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out, cal, back


def test_a_calendar_day_neither_confirms_nor_breaks_the_return_from_an_excursion():
    # the return is seen on three ordinary days (the widened reach of the new holiday, whose days are ordinary
    # ones to the fit), then the holiday's neighbourhood, each day a group of one: its days neither confirm the
    # run nor break it, and ten days on the level is the returned one, not the excursion's
    history, cal, back = _return_from_excursion(holiday_after=6)
    target = datetime(back.year, back.month, back.day) + timedelta(days=10)
    fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
    usual = 3_000 * [0.8, 0.75, 0.75, 0.8, 0.95, 1.5, 1.1][target.weekday()]
    assert fc.shift is not None and fc.shift["at"] == back.isoformat() + "T00:00:00"
    assert fc.baseline == pytest.approx(usual, rel=0.08)
    assert judge(fc, usual).passed and not judge(fc, 0.65 * usual).passed


def test_a_holiday_whose_effect_is_within_the_noise_joins_the_ordinary_days():
    rng = random.Random(12)
    days = {date(y, 6, 15): "open_day" for y in (2024, 2025, 2026)}
    days.update({date(y, 9, 15): "closing_day" for y in (2024, 2025, 2026)})
    cal = HolidayCalendar(dates=days)
    history = []
    for i in range(365 * 2 + 200):
        d = date(2024, 1, 1) + timedelta(days=i)
        lift = 0.97 if cal.name(d) == "open_day" else 0.4 if cal.name(d) == "closing_day" else 1.0
        history.append(Point(datetime(d.year, d.month, d.day), round(10_000 * lift * math.exp(rng.gauss(0, 0.06)))))
    open_day, closing_day = datetime(2026, 6, 15), datetime(2026, 9, 15)
    fc = forecast([p for p in history if p.at < open_day], open_day, calendar_=cal)
    assert "open_day" not in fc.group and not fc.notes  # -3% at 6% noise: an ordinary day, its ordinary band
    assert fc.half_width < math.log(1 / 0.7)  # not a band at the ceiling
    fc = forecast([p for p in history if p.at < closing_day], closing_day, calendar_=cal)
    assert "closing_day" in fc.group and judge(fc, 4_000).passed


def test_the_level_is_read_from_ordinary_days_around_a_run_of_holidays():
    # hours from December to mid-January: Christmas, Boxing Day and New Year's Day at 0.6x fill most
    # of the week-long level window; the days between them are ordinary and must not read as "high"
    cal = HolidayCalendar(country="GB")
    rng = random.Random(3)
    start = datetime(2025, 12, 5)
    history = []
    for i in range(24 * 28):
        at = start + timedelta(hours=i)
        cycle = 1 + 0.8 * math.cos((at.hour - 14) / 24 * 2 * math.pi)
        lift = 0.6 if cal.name(at.date()) else 1.0
        history.append(Point(at, round(3000 * cycle * lift * math.exp(rng.gauss(0, 0.03)))))
    target = history[-1].at + timedelta(hours=1)  # 2026-01-02 00:00
    fc = forecast(history, target, grain="hour", calendar_=cal)
    expected = 3000 * (1 + 0.8 * math.cos((0 - 14) / 24 * 2 * math.pi))
    assert fc.baseline == pytest.approx(expected, rel=0.06)
    assert judge(fc, expected).passed and not judge(fc, 0.65 * expected).passed


def test_a_bridge_day_takes_the_name_of_the_recurring_holiday_it_adjoins():
    cal = HolidayCalendar(country="CN")
    # "Day off (substituted from 02/28/2026)": a name seen once, next to Spring Festival across a weekend
    assert "substituted" in cal.name(date(2026, 2, 23))
    assert cal.identity(date(2026, 2, 23)) == cal.identity(date(2025, 2, 3)) == "Chinese New Year (Spring Festival)"
    assert cal.identity(date(2026, 1, 2)) == "New Year's Day"
    assert cal.identity(date(2026, 2, 17)) == cal.name(date(2026, 2, 17))  # a recurring name stays
    assert cal.identity(date(2026, 2, 24)) == ""
    listed = HolidayCalendar(country="CN", dates={date(2026, 2, 24): "stocktake 2026"})
    assert listed.identity(date(2026, 2, 24)) == "stocktake 2026"  # a name from config is the owner's


def test_a_closures_neighbourhood_is_named_after_its_holiday_whatever_its_first_or_last_day_is_called():
    cal = HolidayCalendar(country="KR")
    weekdays = frozenset(range(5))
    # Seollal's last day is "Alternative holiday for Korean New Year" in 2024 (a name two years share),
    # "The second day of Korean New Year" in 2026; its first is "Temporary Public Holiday" in 2025: the
    # days around each closure compare with one another's past all the same
    assert cal.name(date(2024, 2, 12)) != cal.name(date(2026, 2, 18))
    assert "Temporary" in cal.name(date(2025, 1, 27))
    assert near_holiday(date(2024, 2, 13), cal, weekdays) == "Korean New Year +1d"
    assert near_holiday(date(2026, 2, 19), cal, weekdays) == "Korean New Year +1d"
    assert near_holiday(date(2025, 1, 24), cal, weekdays) == "Korean New Year -1d"
    assert near_holiday(date(2026, 2, 13), cal, weekdays) == "Korean New Year -1d"
    # a closure holding two holidays is named after the one with more yearly days (Chuseok's three,
    # National Foundation Day's one, a Saturday between), and the holiday's own group keeps its own name
    assert cal.closure_name(date(2025, 10, 3), weekdays) == "Chuseok"
    assert features_of(datetime(2025, 10, 3), "day", cal)["holiday"] == "National Foundation Day"


def test_an_open_day_splits_two_closures():
    cal, weekdays = HolidayCalendar(country="CN"), frozenset(range(5))
    # a business-day series, 2025: Mid-Autumn Festival fell inside the National Day closure (a weekend
    # between); 2024: working days (and a weekend day worked in exchange, Sunday 29 September) lay
    # between them, two closures
    assert cal.closure_name(date(2025, 10, 6), weekdays) == "National Day"
    assert cal.is_worked_weekend(date(2024, 9, 29))
    assert cal.closure_name(date(2024, 9, 17), weekdays) == "Mid-Autumn Festival"
    assert cal.closure_name(date(2024, 10, 1), weekdays) == "National Day"
    assert near_holiday(date(2024, 9, 18), cal, weekdays) == "Mid-Autumn Festival +1d"
    assert near_holiday(date(2024, 9, 30), cal, weekdays) == "National Day -1d"
    # a series open on Saturdays works the Saturday between National Foundation Day and Chuseok in
    # 2025: two closures, and the days before the first are National Foundation Day's
    korea, every_day = HolidayCalendar(country="KR"), frozenset(range(7))
    assert korea.closure_name(date(2025, 10, 3), every_day) == "National Foundation Day"
    assert korea.closure_name(date(2025, 10, 5), every_day) == "Chuseok"
    assert near_holiday(date(2025, 10, 2), korea, every_day) == "National Foundation Day -1d"


def _working_days(seed: int = 7, rush: float = 1.3, years: int = 3) -> tuple[list[Point], HolidayCalendar]:
    """Monday-to-Friday partitions; a config festival (a different weekday each year) closes the
    series and the three working days before it carry a rush, whatever weekend falls between."""
    festivals = {date(2024, 3, 12): "festival", date(2025, 3, 3): "festival", date(2026, 3, 25): "festival"}
    cal = HolidayCalendar(dates=festivals)
    rng = random.Random(seed)
    open_days = [date(2024, 1, 1) + timedelta(days=i) for i in range(365 * years)]
    open_days = [d for d in open_days if d.weekday() < 5 and not cal.name(d)]
    rushed = {d for f in festivals for d in [o for o in open_days if o < f][-3:]}
    return [Point(datetime(d.year, d.month, d.day), round(8_000 * (rush if d in rushed else 1.0)
                                                         * math.exp(rng.gauss(0, 0.04)))) for d in open_days], cal


def test_a_holidays_neighbourhood_counts_the_series_working_days():
    history, cal = _working_days()
    target = datetime(2026, 3, 20)  # a Friday: three working days before a Wednesday festival, five calendar days
    fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
    assert "near:festival -3d" in fc.group  # the same group as 2025-02-26 (a Wednesday before a Monday festival)
    assert judge(fc, 1.3 * 8_000).passed
    assert not judge(fc, 0.65 * 1.3 * 8_000).passed and not judge(fc, 8_000 * 0.6).passed
    # on a series open every day the neighbourhood is counted in calendar days, as before
    daily, _ = _festival_days()
    fc = forecast([p for p in daily if p.at < datetime(2026, 3, 23)], datetime(2026, 3, 23), calendar_=_festival_days()[1])
    assert "near:festival +3d" in fc.group


def _weekend_launch(days: int, change_at: int, seed: int = 3, step: float = 1.0) -> list[Point]:
    """Daily; Sunday 0.55 -> 0.9 and Saturday 0.8 -> 1.05 from day `change_at` (weekend delivery
    launched), or, with `step`, every day x step from then on (a level shift, not a new shape)."""
    rng = random.Random(seed)
    before, after = [1.0, 1.0, 1.0, 1.05, 1.15, 0.8, 0.55], [1.0, 1.0, 1.0, 1.05, 1.15, 1.05, 0.9]
    out = []
    for i in range(days):
        d = datetime(2024, 1, 1) + timedelta(days=i)
        new = i >= change_at
        shape = (before if step != 1.0 or not new else after)[d.weekday()] * (step if new else 1.0)
        out.append(Point(d, round(25_000 * shape * math.exp(rng.gauss(0, 0.04)))))
    return out


def test_a_weekday_share_that_changes_for_good_is_rebaselined_after_two_occurrences_not_one():
    history = _weekend_launch(406, 385)  # the new shape from Monday 2025-01-20 (day 385); days 391, 398, 405 Sundays
    sundays = [p for p in history if p.at.weekday() == 6 and p.at >= datetime(2025, 1, 20)]
    assert len(sundays) == 3
    one_seen = forecast([p for p in history if p.at < sundays[1].at], sundays[1].at)
    assert not judge(one_seen, 0.9 * 25_000).passed and not one_seen.notes  # one Sunday at 1.6x is no new shape yet
    target = sundays[2].at
    fc = forecast([p for p in history if p.at < target], target)
    assert fc.notes and "Sun share changed" in fc.notes[0]
    new_sunday = 0.9 * 25_000
    assert fc.baseline == pytest.approx(new_sunday, rel=0.1) and judge(fc, new_sunday).passed
    # no blind window: a 35% drop on the re-baselined group, an empty day and a duplicate still fail
    assert not judge(fc, 0.65 * new_sunday).passed
    assert judge(fc, 0).reason == "empty" and not judge(fc, 1.9 * fc.baseline).passed
    monday = forecast(history, target + timedelta(days=1))  # the other days keep their share
    assert monday.group == "Mon"
    assert not monday.notes and judge(monday, 25_000).passed


def test_a_level_shift_is_not_read_as_a_change_of_every_weekdays_share():
    history = _weekend_launch(420, 400, step=0.7)
    target = history[-1].at + timedelta(days=1)
    fc = forecast(history, target)
    assert not any("share changed" in n for n in fc.notes)
    assert fc.baseline == pytest.approx(0.7 * 25_000 * [1.0, 1.0, 1.0, 1.05, 1.15, 0.8, 0.55][target.weekday()], rel=0.08)


def _weekend_switch(days: int, change_at: int, seed: int = 5) -> list[Point]:
    """Daily; the weekend moves for good from day `change_at` (Friday/Saturday -> Saturday/Sunday:
    Friday 0.6 -> 1.1, Sunday 1.05 -> 0.6), 4% noise; the change's first day is a Sunday."""
    rng = random.Random(seed)
    before, after = [1.0, 1.0, 1.0, 1.15, 0.6, 0.8, 1.05], [1.05, 1.0, 1.0, 1.0, 1.1, 0.7, 0.6]
    start = datetime(2024, 1, 1)  # a Monday
    return [Point(start + timedelta(days=i), round(15_000 * (before if i < change_at else after)[i % 7]
                                                   * math.exp(rng.gauss(0, 0.04)))) for i in range(days)]


def _accepted_shape(history: list[Point], at: datetime) -> list[Point]:
    return [Point(q.at, q.value, accepted=True, shape=True) if q.at == at else q for q in history]


def test_an_accepted_shape_change_makes_every_weekday_a_new_regime_from_its_first_occurrence():
    history = _weekend_switch(440, 405)  # day 405 is a Sunday; its Friday is day 410, its next Sunday 412
    change = history[405].at
    assert change.weekday() == 6
    friday, sunday = history[410], history[412]
    marked = _accepted_shape(history, change)
    # without the mark: as before, the first new Friday (1.8x the old one) and second Sunday are flagged
    assert not judge(forecast(history[:410], friday.at), friday.value).passed
    assert not judge(forecast(history[:412], sunday.at), sunday.value).passed
    # with it: the first new Friday (no Friday since the change: its share is unknown) passes with a
    # band as wide as the week's other days reach; empty and a doubled Friday still fail
    fc = forecast(marked[:410], friday.at)
    assert judge(fc, friday.value).passed, (fc.lower, fc.upper, friday.value)
    assert judge(fc, 0).reason == "empty" and judge(fc, 2 * friday.value).reason == "hard_ratio"
    assert any("Fri has not occurred since" in n for n in fc.notes), fc.notes
    # the next Sunday is re-baselined on the one new Sunday (the accepted one): x0.6 the old share
    fc = forecast(marked[:412], sunday.at)
    assert fc.baseline == pytest.approx(0.6 * 15_000, rel=0.12) and judge(fc, sunday.value).passed
    assert any("Sun share is x0.5" in n or "Sun share is x0.6" in n for n in fc.notes), fc.notes
    assert judge(fc, 0).reason == "empty" and not judge(fc, 2 * sunday.value).passed
    assert fc.shift is None  # the change is a shape, not a level
    # a week on, every weekday is on its new share and an ordinary 35% drop fails again
    monday = history[420]
    fc = forecast(marked[:420], monday.at)
    assert judge(fc, monday.value).passed and not judge(fc, 0.65 * monday.value).passed


def test_a_shape_change_accepted_with_a_new_level_combines_both():
    """--shape with --shift: the weekend moves and the level falls x0.75 the same day; only the
    shift, the first new Friday (1.4x an old one at the new level) fails; with both it passes."""
    history = [Point(q.at, round(q.value * (0.75 if i >= 405 else 1.0))) for i, q in enumerate(_weekend_switch(440, 405))]
    friday, monday = history[410], history[413]
    only_shift = [Point(q.at, q.value, accepted=True, shift=True) if i == 405 else q for i, q in enumerate(history)]
    both = [Point(q.at, q.value, accepted=True, shift=True, shape=True) if i == 405 else q for i, q in enumerate(history)]
    assert not judge(forecast(only_shift[:410], friday.at), friday.value).passed
    assert judge(forecast(both[:410], friday.at), friday.value).passed
    fc = forecast(both[:413], monday.at)
    assert judge(fc, monday.value).passed and judge(fc, 0).reason == "empty"


def test_without_an_accepted_shape_the_weekly_model_is_unchanged():
    history = _weekend_switch(440, 405)
    plain = forecast(history[:410], history[410].at)
    accepted = forecast([Point(q.at, q.value, accepted=i == 405) for i, q in enumerate(history[:410])],
                        history[410].at)
    assert (plain.lower, plain.baseline, plain.upper) == (accepted.lower, accepted.baseline, accepted.upper)
    assert not any("weekly pattern" in n for n in plain.notes)


def test_an_accepted_shape_change_does_not_make_the_old_patterns_empty_days_normal():
    """A shop that starts opening on Sundays: its closed (empty) Sundays were the old pattern; after
    the owner accepts the change, an empty Sunday fails."""
    rng = random.Random(9)
    start = datetime(2024, 1, 1)
    shape = [1.0, 1.0, 1.0, 1.1, 1.3, 0.6, 0.8]
    history = [Point(start + timedelta(days=i), 0 if i % 7 == 6 and i < 300
                     else round(4000 * shape[i % 7] * math.exp(rng.gauss(0, 0.04)))) for i in range(320)]
    sunday = next(q.at for q in history[300:] if q.at.weekday() == 6)
    target = sunday + timedelta(days=7)
    assert judge(forecast(history, target), 0).passed  # closed Sundays: empty as usual
    fc = forecast(_accepted_shape(history, sunday), target)
    assert judge(fc, 0).reason == "empty" and judge(fc, 0.8 * 4000).passed


def _payroll(days: int, shift_at: int, seed: int = 2) -> tuple[list[Point], HolidayCalendar]:
    """German daily orders: the first business day of the month x1.35 (payroll), Sundays light, a
    -30% step at `shift_at`."""
    cal = HolidayCalendar(country="DE")
    rng = random.Random(seed)
    shape = [1.1, 1.0, 1.0, 1.0, 1.3, 1.4, 0.15]
    out = []
    for i in range(days):
        d = date(2024, 1, 1) + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        lift = 1.35 if features_of(at, "day", cal)["business_day"] == 1 else 1.0
        hol = 0.5 if cal.name(d) else 1.0
        out.append(Point(at, round(20_000 * shape[d.weekday()] * lift * hol * (0.7 if i >= shift_at else 1.0)
                                   * math.exp(rng.gauss(0, 0.03)))))
    return out, cal


def test_a_payroll_day_keeps_its_effect_on_the_new_level_after_a_shift():
    # 2025-11-03, a Monday and the first business day, 62 days after a -30% step: the step's weeks of
    # transition in the history made the business-day group look not worth it, and payroll read 1.37x
    history, cal = _payroll(672, 610)
    target = datetime(2025, 11, 3)
    fc = forecast(history, target, calendar_=cal)
    assert "business_day=1" in fc.group
    payroll_monday = 20_000 * 1.1 * 1.35 * 0.7
    assert fc.baseline == pytest.approx(payroll_monday, rel=0.08) and judge(fc, payroll_monday).passed
    assert not judge(fc, 0.65 * payroll_monday).passed
    # six days after a step (the shift found and re-baselined), the group keeps its effect too
    history, cal = _payroll(639, 633)  # the step on 2025-09-25
    soon = datetime(2025, 10, 1)  # a Wednesday, business day 1
    fc = forecast(history, soon, calendar_=cal)
    assert fc.shift is not None and "business_day=1" in fc.group
    assert judge(fc, 20_000 * 1.35 * 0.7).passed and not judge(fc, 0.65 * 20_000 * 1.35 * 0.7).passed


def test_a_monthly_series_dated_on_any_day_compares_quarters_and_years_with_their_own_kind():
    # partitions dated on the 1st (date_trunc('month')) or on a pay day: each one is its month's
    rng = random.Random(5)
    firsts = [datetime(2023 + i // 12, i % 12 + 1, 1) for i in range(36)]
    history = [Point(at, round(_expected_gl(i) * math.exp(rng.gauss(0, 0.03)))) for i, at in enumerate(firsts)]
    fc = forecast(history[:35], firsts[35])  # 2025-12-01: December's partition, dated on its first day
    assert fc.group == "year_end"
    assert judge(fc, _expected_gl(35)).passed and not judge(fc, 0.65 * _expected_gl(35)).passed
    fc = forecast(history, datetime(2026, 1, 1))  # January: an ordinary month
    assert fc.group == "month_end" and judge(fc, _expected_gl(36)).passed


def _local_cycle(zone: str, start: datetime, hours: int, seed: int, peak: int = 20) -> list[Point]:
    """UTC hours of users in `zone`: a daily cycle peaking at `peak` local time, 4% noise."""
    rng, tz = random.Random(seed), ZoneInfo(zone)
    out = []
    for i in range(hours):
        at = start + timedelta(hours=i)
        local = at.replace(tzinfo=ZoneInfo("UTC")).astimezone(tz)
        out.append(Point(at, round(2500 * (1 + 0.7 * math.cos((local.hour - peak) / 24 * 2 * math.pi))
                                   * math.exp(rng.gauss(0, 0.04)))))
    return out


def test_a_dst_change_is_no_level_shift_in_the_owners_time_zone():
    """New York's cycle moves one UTC hour when daylight saving ends (2026-11-01 06:00 UTC): in the
    check's zone the hours are the same local hours, no shift is read and clean hours pass; in UTC
    the moved peak is read as a level shift or falls outside its hour's band."""
    series = _local_cycle("America/New_York", datetime(2026, 10, 4), 24 * 35 + 12, seed=5)
    flagged_local, flagged_utc = 0, 0
    for k in range(24 * 31, len(series), 3):  # the days after the change, every third hour
        history, target = series[k - 24 * 28:k], series[k]
        fc = forecast(history, target.at, grain="hour", timezone="America/New_York")
        assert fc.shift is None, (target.at, fc.shift)
        flagged_local += not judge(fc, target.value).passed
        flagged_utc += not judge(forecast(history, target.at, grain="hour"), target.value).passed
    assert flagged_local == 0 and flagged_utc >= 2
    # the group is the local hour: 2026-11-05 01:00 UTC is 20:00 in New York, the peak
    fc = forecast(series[24 * 4:24 * 32 + 1], datetime(2026, 11, 5, 1), grain="hour", timezone="America/New_York")
    assert "20h" in fc.group and not judge(fc, 0.7 * fc.baseline).passed


def test_a_23_and_a_25_hour_day_keep_one_key_per_hour():
    """Sydney's clocks go forward on 2026-10-04 (no 02:00), New York's back on 2026-11-01 (01:00
    twice: the second keyed with its offset, as Dagster keys it); keys go back to the same UTC
    hours, and a zone half an hour off UTC starts its hours at :30 UTC."""
    sydney = [hour_label(datetime(2026, 10, 3, 14) + timedelta(hours=k), "Australia/Sydney") for k in range(3)]
    assert sydney == ["2026-10-04T00:00", "2026-10-04T01:00", "2026-10-04T03:00"]
    ny = [hour_label(datetime(2026, 11, 1, 4) + timedelta(hours=k), "America/New_York") for k in range(4)]
    assert ny == ["2026-11-01T00:00", "2026-11-01T01:00", "2026-11-01T01:00-0500", "2026-11-01T02:00"]
    for zone, labels, first in (("Australia/Sydney", sydney, datetime(2026, 10, 3, 14)),
                                ("America/New_York", ny, datetime(2026, 11, 1, 4))):
        assert [hour_of_key(parse_partition_moment(k), zone) for k in labels] == \
            [first + timedelta(hours=k) for k in range(len(labels))]
    assert hour_start(datetime(2026, 11, 1, 5, 50), "Asia/Kolkata") == datetime(2026, 11, 1, 5, 30)
    assert hour_label(datetime(2026, 11, 1, 5, 30), "Asia/Kolkata") == "2026-11-01T11:00"
    assert hour_label(datetime(2026, 11, 1, 5), None) == "2026-11-01T05:00"


def test_an_hour_of_the_week_shape_is_learned_when_weekday_and_hour_interact():
    """Business hours quiet at weekends while a nightly batch runs every day: no weekday effect
    times an hour effect fits both; the hour of the week does, and only when it pays for its 168
    effects (a plain daily cycle keeps hour and weekday)."""
    rng = random.Random(8)
    start = datetime(2026, 3, 2)

    def mean(at: datetime) -> float:
        if at.hour == 2:
            return 9000.0
        business = 8 <= at.hour < 18
        return 3000 * (1.0 if business else 0.2) * (0.35 if business and at.weekday() >= 5 else 1.0)

    history = [Point(start + timedelta(hours=i), round(mean(start + timedelta(hours=i)) * math.exp(rng.gauss(0, 0.04))))
               for i in range(24 * 28)]
    for target in (start + timedelta(days=33, hours=11), start + timedelta(days=33, hours=2),  # Saturday
                   start + timedelta(days=35, hours=11)):                                      # Monday
        fc = forecast(history, target, grain="hour")
        assert "hour_of_week" in fc.features, fc.features
        assert fc.baseline == pytest.approx(mean(target), rel=0.1), (target, fc.group)
        assert judge(fc, mean(target)).passed and not judge(fc, 0.65 * mean(target)).passed
    plain = [Point(q.at, round(3000 * (1 + 0.8 * math.cos((q.at.hour - 14) / 24 * 2 * math.pi))
                               * math.exp(rng.gauss(0, 0.04)))) for q in history]
    assert "hour_of_week" not in forecast(plain, start + timedelta(days=28, hours=3), grain="hour").features


def _queue_hours(seed: int, monday_morning: float, cal: HolidayCalendar | None = None,
                 backlog: float = 1.0) -> tuple[list[Point], datetime]:
    """A call queue's calls per UTC hour in business hours only (08:00-20:00 weekdays, 09:00-14:00
    Saturdays in New York; closed hours hold no partition), ten weeks, Poisson counts of about a
    hundred (noisier than hour_of_week's effects can pay for), Monday mornings x`monday_morning`;
    closed on `cal`'s holidays, the next business day's morning x`backlog`."""
    cal = cal or HolidayCalendar()
    rng = np.random.default_rng(seed)
    zone = ZoneInfo("America/New_York")
    start, points = datetime(2026, 1, 5, 13), []  # Monday 5 January 08:00 EST

    def mean(local: datetime) -> float:
        shape = 80 + 60 * math.exp(-((local.hour - 10.5) / 2.2) ** 2)
        if local.weekday() == 5:
            return 0.45 * shape  # a Saturday has the weekdays' shape (an interaction of its own otherwise)
        after = cal.is_business_day(local.date()) and any(
            cal.name(local.date() - timedelta(days=k)) for k in (1, 3 if local.weekday() == 0 else 1))
        return shape * (monday_morning if local.weekday() == 0 and local.hour < 12 else 1.0) \
            * (backlog if after and local.hour < 12 else 1.0)

    for i in range(24 * 70):
        at = start + timedelta(hours=i)
        local = at.replace(tzinfo=ZoneInfo("UTC")).astimezone(zone).replace(tzinfo=None)
        if local.weekday() == 6 or cal.name(local.date()) or not (9 <= local.hour < 14 if local.weekday() == 5 else 8 <= local.hour < 20):
            continue
        points.append(Point(at, float(rng.poisson(mean(local) * math.exp(rng.normal(0, 0.04))))))
    return points, start + timedelta(days=70)  # Monday 16 March 09:00 EDT


def test_a_noisy_queue_earns_its_monday_mornings_as_hours_of_the_week():
    """A queue too noisy for hour_of_week's effects to pay for themselves still holds its Monday
    mornings' backlog (x1.45): each such hour stands out of its own weeks (_earned_cells), so an
    ordinary Monday 09:00 passes and a 35% drop fails (main read it as the hour's effect plus
    Monday's, 1.3x its baseline, and the three morning hours after it as a level shift)."""
    history, monday_nine = _queue_hours(3, 1.45)
    fc = forecast(history, monday_nine, grain="hour", timezone="America/New_York")
    usual = (80 + 60 * math.exp(-((9 - 10.5) / 2.2) ** 2)) * 1.45
    assert "Mon 09h" in fc.group, fc.group
    assert fc.baseline == pytest.approx(usual, rel=0.1), fc.group
    assert judge(fc, usual).passed and not judge(fc, 0.65 * usual).passed


def test_a_queue_without_an_hour_of_the_week_shape_earns_none():
    """The same queue without its Monday mornings: no hour of the week stands out, the forecast is
    the hour's and the weekday's."""
    history, monday_nine = _queue_hours(3, 1.0)
    fc = forecast(history, monday_nine, grain="hour", timezone="America/New_York")
    assert "hour_of_week" not in fc.features, fc.features


def test_the_morning_after_a_holiday_is_learned_from_the_past_ones_on_an_hourly_series():
    """A queue closed on holidays carries their backlog into the next business day's morning (x1.3):
    two past ones in the history (MLK Day and Presidents' Day, Mondays), a third on a Wednesday (a
    date of the owner's) is the target's eve: the next morning's 10:00 is expected at x1.3 and passes,
    its afternoon is an ordinary hour (main: 10:00 at 1.3x its baseline). An ordinary Thursday is
    untouched."""
    cal = HolidayCalendar(country="US", dates={date(2026, 3, 11): "Founders' Day"})
    history, monday_nine = _queue_hours(5, 1.0, cal, backlog=1.3)
    thursday = monday_nine - timedelta(days=4)  # 12 March 09:00 EDT
    past = [q for q in history if q.at < thursday + timedelta(hours=1)]
    fc = forecast(past, thursday + timedelta(hours=1), grain="hour", calendar_=cal, timezone="America/New_York")
    usual = (80 + 60 * math.exp(-((10 - 10.5) / 2.2) ** 2)) * 1.3
    assert "near:a holiday 10h +1d" in fc.group, fc.group
    assert fc.baseline == pytest.approx(usual, rel=0.1)
    assert judge(fc, usual).passed
    afternoon = forecast([q for q in history if q.at < thursday + timedelta(hours=6)], thursday + timedelta(hours=6),
                         grain="hour", calendar_=cal, timezone="America/New_York")
    assert "near:" not in afternoon.group, afternoon.group
    # the Thursday before: no holiday the day before, no neighbourhood labelled
    plain = forecast([q for q in history if q.at < thursday - timedelta(days=7, hours=-1)],
                     thursday - timedelta(days=7, hours=-1), grain="hour", calendar_=cal, timezone="America/New_York")
    assert "near_holiday" not in plain.group and "near:" not in plain.group, plain.group


def _pay_days(months: int, seed: int = 4, first_year: int = 2022) -> list[Point]:
    """Monthly payroll lines dated on the last weekday of the month: March x1.2 (the fiscal year's
    bonus), December x1.5, +0.8%/month, 3% noise."""
    rng = random.Random(seed)
    out = []
    for i in range(months):
        at = _month_end(first_year + i // 12, i % 12 + 1)
        while at.weekday() >= 5:
            at -= timedelta(days=1)
        lift = 1.5 if at.month == 12 else 1.2 if at.month == 3 else 1.0
        out.append(Point(at, round(40_000 * 1.008 ** i * lift * math.exp(rng.gauss(0, 0.03)))))
    return out


def test_a_monthly_series_learns_a_month_of_year_effect_seen_at_least_twice():
    history = _pay_days(39)  # 2022-01 .. 2025-03: three Marches, the last one the target
    target, march = history[-1].at, 40_000 * 1.008 ** 38 * 1.2
    fc = forecast(history[:-1], target)
    assert "month:Mar" in fc.group  # March's bonus is March's, not every quarter-end's
    assert judge(fc, march).passed and not judge(fc, 0.8 * march).passed and not judge(fc, 0).passed
    june = forecast(_pay_days(42)[:-1], _pay_days(42)[-1].at)  # a quarter-end without a bonus: no month group
    assert "month:" not in june.group and judge(june, 40_000 * 1.008 ** 41).passed
    once = _pay_days(15, first_year=2024)  # 2024-01 .. 2025-03: one March before the target
    fc = forecast(once[:-1], once[-1].at)
    assert "month:" not in fc.group  # one past occurrence is no season yet


def test_a_day_holding_two_holidays_compares_with_each_parts_past():
    # 2025-10-02 is Dussehra and Mahatma Gandhi's Birthday at once, a name the calendar never held before
    cal = HolidayCalendar(country="IN")
    rng = random.Random(8)
    history = []
    for i in range(400):
        d = date(2024, 8, 28) + timedelta(days=i)
        lift = 0.5 if cal.name(d) else 1.0
        history.append(Point(datetime(d.year, d.month, d.day), round(12_000 * lift * math.exp(rng.gauss(0, 0.04)))))
    target = datetime(2025, 10, 2)
    assert ";" in cal.name(target.date())
    fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
    assert fc.unseen_holiday is None and "holiday:" in fc.group
    assert judge(fc, 6_000).passed
    assert not judge(fc, 12_000).passed  # a duplicated holiday is no ordinary day
    assert not judge(fc, 0.6 * 6_000).passed


def _festive_weeks(years: int, seed: int = 6) -> tuple[list[Point], HolidayCalendar]:
    """Daily, open every day; a config festival (x0.3) whose six days before it carry shopping
    (x1.35), beyond the usual three-day neighbourhood."""
    festivals = {date(2024, 10, 31): "festival", date(2025, 10, 20): "festival", date(2026, 11, 8): "festival"}
    cal = HolidayCalendar(dates=festivals)
    rng = random.Random(seed)
    out = []
    for i in range(365 * years):
        d = date(2024, 1, 1) + timedelta(days=i)
        festive = any(d + timedelta(days=k) in festivals for k in range(1, 7))
        mean = 10_000 * (0.3 if d in festivals else 1.35 if festive else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out, cal


def test_a_holidays_neighbourhood_reaches_as_far_as_its_effect_does():
    history, cal = _festive_weeks(3)
    target = datetime(2026, 11, 3)  # five days before the third festival
    fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
    assert "near:festival -5d" in fc.group  # learned from two past festivals: the effect reaches six days
    assert judge(fc, 13_500).passed and not judge(fc, 10_000).passed and not judge(fc, 0.65 * 13_500).passed
    beyond = datetime(2026, 10, 30)  # nine days before: past the reach, an ordinary day
    fc = forecast([p for p in history if p.at < beyond], beyond, calendar_=cal)
    assert "near:" not in fc.group and judge(fc, 10_000).passed
    # one past festival: how far it reaches is no rule yet; an ordinary day whose band covers both
    once = [p for p in history if datetime(2024, 9, 1) <= p.at < datetime(2025, 10, 15)]
    fc = forecast(once, datetime(2025, 10, 15), calendar_=cal)
    assert "near:" not in fc.group
    assert judge(fc, 13_500).passed and judge(fc, 10_000).passed and not judge(fc, 0.65 * 10_000).passed


def test_a_weekday_share_that_changed_twice_is_judged_on_its_latest_regime():
    # Saturdays 0.5 -> 0.85 (weekend support launched, day 200) -> 0.65 (cut back, day 330)
    rng = random.Random(11)
    history = []
    for i in range(378):
        d = datetime(2024, 1, 1) + timedelta(days=i)
        share = [1.0] * 5 + [0.5 if i < 200 else 0.85 if i < 330 else 0.65, 0.45]
        history.append(Point(d, round(9_000 * share[d.weekday()] * math.exp(rng.gauss(0, 0.04)))))
    target = history[-2].at  # day 376, a Saturday: the seventh since the cut
    assert target.weekday() == 5
    fc = forecast(history[:-2], target)
    assert fc.notes and "Sat share changed" in fc.notes[0]
    assert fc.baseline == pytest.approx(9_000 * 0.65, rel=0.08) and judge(fc, 9_000 * 0.65).passed
    assert not judge(fc, 0.65 * 9_000 * 0.65).passed and judge(fc, 0).reason == "empty"
    sunday = forecast(history[:-1], history[-1].at)  # the Sunday kept its share throughout
    assert not sunday.notes and sunday.baseline == pytest.approx(9_000 * 0.45, rel=0.08)


def _counts(days: int, rows: float, seed: int = 21, clockwork: bool = False) -> list[Point]:
    """A daily table of a few rows: Poisson counts around `rows` (or exactly `rows`, +-1, like
    devices reporting on a schedule)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(days):
        d = datetime(2025, 1, 1) + timedelta(days=i)
        value = rows + rng.integers(-1, 2) if clockwork else rng.poisson(rows)
        out.append(Point(d, float(value)))
    return out


def test_a_table_of_a_few_rows_a_day_is_judged_by_its_counting_noise():
    history = _counts(400, 10)
    target = history[-1].at + timedelta(days=1)
    fc = forecast(history, target)
    # ten rows a day reach 17 (1.7x) or 4 (0.4x) by counting alone every few weeks: not a fault
    assert judge(fc, 17).passed and judge(fc, 4).passed
    assert not judge(fc, 0).passed        # an empty day still fails
    assert not judge(fc, 40).passed       # and four times the rows
    # three rows a day are none one day in twenty: where the history was empty before, so may it be
    sparse = _counts(400, 3, seed=22)
    assert any(p.value == 0 for p in sparse)
    fc = forecast(sparse, target)
    assert judge(fc, 0).passed and fc.empty_is_normal and not judge(fc, 30).passed
    # rows that arrive like clockwork are judged by the usual band: 12 of 29 is a fault
    steady = _counts(400, 29, clockwork=True)
    fc = forecast(steady, target)
    assert not judge(fc, 12).passed and not judge(fc, 58).passed and judge(fc, 29).passed


def test_a_monthly_partition_dated_on_a_holiday_is_its_month_not_the_holiday():
    cal = HolidayCalendar(country="IT")
    rng = random.Random(5)
    history = [Point(datetime(2021 + m // 12, m % 12 + 1, 1), round(50_000 * math.exp(rng.gauss(0, 0.03))))
               for m in range(40)]
    target = datetime(2024, 4, 1)  # Easter Monday 2024
    assert cal.name(target.date())
    fc = forecast(history, target, calendar_=cal)
    assert fc.unseen_holiday is None and "holiday" not in fc.group
    assert judge(fc, 50_000).passed and not judge(fc, 40_000).passed  # a 20% drop fails


def test_a_holiday_never_seen_with_few_holidays_seen_is_left_to_the_hard_rules():
    cal = HolidayCalendar(dates={date(2024, 6, 10): "pentecost_monday"})
    history = _daily_noise(161, 0.03, seed=4)
    target = datetime(2024, 6, 10)
    history = [Point(p.at, p.value) for p in history if p.at < target]
    fc = forecast(history, target, calendar_=cal)
    assert fc.unseen_holiday == "pentecost_monday"
    assert judge(fc, 1.15 * fc.baseline).passed   # busier than an ordinary day: expected
    assert judge(fc, 0.3 * fc.baseline).passed    # or quieter
    assert not judge(fc, 2.0 * fc.baseline).passed and not judge(fc, 0).passed


def _closing_journals(seed: int = 31) -> list[Point]:
    """Journal lines on weekdays only (no partition at weekends): the month's close on its last
    three weekdays x1.6, x2.0, x2.4 (business day 18 to 22 counted from the start)."""
    rng = random.Random(seed)
    days = [date(2024, 1, 1) + timedelta(days=i) for i in range(761)]  # to Friday 30 January 2026
    days = [d for d in days if d.weekday() < 5]
    out = []
    for d in days:
        month = [x for x in days if (x.year, x.month) == (d.year, d.month)]
        from_end = len(month) - 1 - month.index(d)
        mean = 5_000 * ((1.6, 2.0, 2.4)[2 - from_end] if from_end < 3 else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out


def test_a_close_on_the_last_business_days_is_counted_from_the_month_end():
    history = _closing_journals()
    # Friday 30 January 2026 (the 31st is a Saturday): the month's last open day, its busiest
    for target in (datetime(2026, 1, 30), datetime(2026, 1, 28), datetime(2026, 1, 26)):
        value = next(p.value for p in history if p.at == target)
        fc = forecast([p for p in history if p.at < target], target)
        assert "business_day_from_end" in fc.features
        assert judge(fc, value).passed, (target, fc.group, value / fc.baseline)
        assert not judge(fc, value * 0.65).passed
    assert "from the end" in fc.group


def _days_by_month(days: list[date]) -> dict[tuple[int, int], list[date]]:
    """The days of each (year, month), in their order: a generator's places counted from a month's ends."""
    by_month: dict[tuple[int, int], list[date]] = {}
    for d in days:
        by_month.setdefault((d.year, d.month), []).append(d)
    return by_month


def _ledger(seed: int = 32, quarter_close: float = 1.3, year_open: float = 1.0) -> list[Point]:
    """A ledger on weekdays only: accruals on the month's first business day x1.3, the close on its
    last three x1.6, x2.0, x2.4, a quarter's (and year's) close `quarter_close` times heavier on
    all three of its days, and the year's adjustments on January's second to fourth business days
    `year_open` times heavier."""
    rng = random.Random(seed)
    days = [d for d in (date(2024, 1, 1) + timedelta(days=i) for i in range(761)) if d.weekday() < 5]
    by_month = _days_by_month(days)
    out = []
    for d in days:
        month = by_month[(d.year, d.month)]
        position, from_end = month.index(d), len(month) - 1 - month.index(d)
        mean = 5_000.0
        if from_end < 3:
            mean *= (1.6, 2.0, 2.4)[2 - from_end] * (quarter_close if d.month % 3 == 0 else 1.0)
        elif position == 0:
            mean *= 1.3
        elif d.month == 1 and position <= 3:
            mean *= year_open
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out


def test_a_ledger_with_an_opening_and_a_close_counts_business_days_from_the_nearer_end():
    history = _ledger()
    # Thursday 1 January 2026 (no holiday calendar: a business day) opens the month; Friday 30 January
    # (the 31st is a Saturday) closes it. Counted from the end, the opening day is -21 or -23 by
    # month, mixed with mid-month days; counted from the start, the close is day 19 to 23
    for target in (datetime(2026, 1, 1), datetime(2025, 12, 1), datetime(2026, 1, 30)):
        value = next(p.value for p in history if p.at == target)
        fc = forecast([p for p in history if p.at < target], target)
        assert "business_day_edge" in fc.features, fc.features
        assert judge(fc, value).passed, (target, fc.group, value / fc.baseline)
        assert not judge(fc, value * 0.65).passed
    assert "business_day=-1 from the end" in fc.group
    fc = forecast([p for p in history if p.at < datetime(2026, 1, 1)], datetime(2026, 1, 1))
    assert "business_day=1 from the start" in fc.group


def test_a_quarter_close_over_three_days_is_learned_on_each_of_them():
    history = _ledger(quarter_close=1.3)
    # Tuesday 30 September 2025 closes the quarter; Monday 29th and Friday 26th are its close's
    # first two days, each x1.3 over an ordinary month's same day
    for target, label in ((datetime(2025, 9, 29), "near:quarter_end -1d"), (datetime(2025, 9, 26), "near:quarter_end -2d")):
        value = next(p.value for p in history if p.at == target)
        fc = forecast([p for p in history if p.at < target], target)
        assert label in fc.group, fc.group
        assert judge(fc, value).passed, (target, fc.group, value / fc.baseline)
        assert not judge(fc, value * 0.65).passed
    # a new year opens with the old one's adjustments: its first days after the close are a group too
    history = _ledger(year_open=1.25)
    target = datetime(2026, 1, 5)  # Monday, the third business day of 2026 (Thursday 1st, Friday 2nd)
    value = next(p.value for p in history if p.at == target)
    fc = forecast([p for p in history if p.at < target], target)
    assert "near:year_end +3d" in fc.group, fc.group
    assert judge(fc, value).passed and not judge(fc, value * 0.7).passed
    # a ledger whose quarters close like every month: no such group (it must earn its place)
    history = _ledger(quarter_close=1.0)
    fc = forecast([p for p in history if p.at < datetime(2025, 9, 29)], datetime(2025, 9, 29))
    assert "near:" not in fc.group and judge(fc, next(p.value for p in history if p.at == datetime(2025, 9, 29))).passed


def _moves(seed: int = 41, turn: float = 1.35) -> list[Point]:
    """Removals booked every day of the week (weekends x1.5), leases ending with the month: its last three
    calendar days and the next month's first two `turn` times busier, whatever the weekday; 6% noise."""
    rng = random.Random(seed)
    out = []
    for i in range(761):  # 1 January 2024 to 31 January 2026
        d = date(2024, 1, 1) + timedelta(days=i)
        last = calendar.monthrange(d.year, d.month)[1]
        mean = 300.0 * (1.5 if d.weekday() >= 5 else 1.0) * (turn if d.day <= 2 or d.day > last - 3 else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.06)))))
    return out


def test_a_month_turn_on_every_day_of_the_week_is_earned_in_calendar_days():
    history = _moves()
    # a series open every day turns its month on calendar days: Friday 2 January 2026 (its second day), Saturday
    # 3 January 2026 (an ordinary day after it), Thursday 29 (three days before its end) and Wednesday 28 January
    # 2026 (the fourth, ordinary: no group where the history shows no effect). Counted in business days, the
    # turn's weekends join every weekend and neither count from an end earns the rest
    for target, turn in ((datetime(2026, 1, 2), True), (datetime(2025, 11, 29), True),
                         (datetime(2026, 1, 29), True), (datetime(2026, 1, 28), False), (datetime(2026, 1, 3), False)):
        value = next(p.value for p in history if p.at == target)
        fc = forecast([p for p in history if p.at < target], target)
        assert ("near:month_end" in fc.group) == turn, (target, fc.group)
        assert judge(fc, value).passed, (target, fc.group, value / fc.baseline)
        assert not judge(fc, value * 0.65).passed, (target, fc.group)
    # a series whose month turns like any other day earns no such group
    history = _moves(turn=1.0)
    for target in (datetime(2026, 1, 2), datetime(2026, 1, 30)):
        fc = forecast([p for p in history if p.at < target], target)
        assert "near:" not in fc.group, fc.group


def test_a_month_turn_that_showed_no_effect_confirms_a_new_level_like_any_day():
    # orders every day, no month turn, a step of +40% from Saturday 1 November 2025: its first three days are the
    # month's "+1d".."+3d", which showed nothing and joined the ordinary days; they confirm the new level (a
    # calendar day would not: the shift would wait for three days after them), so Wednesday the 5th is judged
    # against it, as it was before the turn was read
    history = _moves(turn=1.0)
    step = datetime(2025, 11, 1)
    history = [Point(p.at, round(p.value * 1.4)) if p.at >= step else p for p in history]
    target = datetime(2025, 11, 5)
    value = next(p.value for p in history if p.at == target)
    fc = forecast([p for p in history if p.at < target], target)
    assert fc.shift is not None and fc.shift["at"] == step.isoformat(), fc.shift
    assert judge(fc, value).passed and not judge(fc, 0.6 * value).passed, value / fc.baseline


def test_a_month_turn_of_a_few_rows_is_not_lost_to_its_one_thin_occurrence():
    # a branch of some forty removals a day, the month's turn x1.35, a stocktake closing it (x0.05, two rows) on
    # five of the history's days before the month's last: the turn's median of thirteen is moved by its typical
    # day's counting, not by the mean of its counting variances, which the closed days' two rows dominate
    closed = {date(2024, 11, 29), date(2025, 1, 30), date(2025, 4, 29), date(2025, 6, 29), date(2025, 9, 29)}
    cal = HolidayCalendar(dates=dict.fromkeys(closed, "stocktake"))
    rng, counts = random.Random(7), np.random.default_rng(7)
    history = []
    for i in range(761):  # 1 January 2024 to 31 January 2026
        d = date(2024, 1, 1) + timedelta(days=i)
        last = calendar.monthrange(d.year, d.month)[1]
        mean = 40.0 * (1.5 if d.weekday() >= 5 else 1.0) * (1.35 if d.day <= 2 or d.day > last - 3 else 1.0)
        mean *= 0.05 if d in closed else 1.0
        history.append(Point(datetime(d.year, d.month, d.day), int(counts.poisson(mean * math.exp(rng.gauss(0, 0.04))))))
    for target in (datetime(2025, 12, 30), datetime(2026, 1, 30)):
        value = next(p.value for p in history if p.at == target)
        fc = forecast([p for p in history if target - timedelta(days=400) <= p.at < target], target, calendar_=cal)
        assert "near:month_end -1d" in fc.group, (target, fc.group)
        assert judge(fc, value).passed and not judge(fc, 2 * value).passed, (target, value / fc.baseline)


def _logins(at: datetime, cal: HolidayCalendar, holiday_business: float = 0.35) -> float:
    """Peaks at 10:00 and 15:00; weekends quiet by day (x0.4) and busier in the evening (x1.3); a
    holiday's business hours at `holiday_business` and its evening x1.2: like a weekend, not exactly."""
    h = at.hour + 0.5
    shape = 0.1 + math.exp(-((h - 10.5) / 2.0) ** 2) + 0.9 * math.exp(-((h - 15.5) / 2.0) ** 2)
    business, evening = 8 <= at.hour < 19, 19 <= at.hour < 23
    if cal.name(at.date()):
        factor = holiday_business if business else 1.2 if evening else 1.0
    elif at.weekday() >= 5:
        factor = 0.4 if business else 1.3 if evening else 1.0
    else:
        factor = 1.0
    return 5000 * shape * factor


def _quiet_hours(start: datetime, count: int, mean, sigma: float = 0.02, seed: int = 11) -> list[Point]:
    """A series' total: five groups' 5% noise sum to about 2%."""
    rng = random.Random(seed)
    return [Point(start + timedelta(hours=i), round(mean(start + timedelta(hours=i)) * math.exp(rng.gauss(0, sigma))))
            for i in range(count)]


def test_a_holiday_like_a_weekend_but_not_exactly_keeps_the_likeness_on_a_quiet_total():
    """Good Friday's business hours x0.35 where a Saturday's are x0.4, its evening x1.2 where a
    Saturday's is x1.3: "a Saturday times a factor" misses its hours by more than 2.5 times a
    total's 2% noise (not a group's 5%). The best likeness is kept with its misfit in the band, so
    the evening is no longer judged as an ordinary evening (x1.2 of one read as a fault)."""
    cal = HolidayCalendar(dates={date(2026, 3, 27): "founders_day"})  # a Friday
    start = datetime(2026, 2, 27)
    target = datetime(2026, 3, 27, 20)
    history = _quiet_hours(start, 24 * 28 + 20, lambda at: _logins(at, cal))
    fc = forecast(history, target, grain="hour", calendar_=cal)
    assert fc.unseen_holiday and "Saturday" in fc.notes[-1] and "ordinary" not in fc.notes[-1], fc.notes
    value = _logins(target, cal)
    assert judge(fc, value).passed  # was above an ordinary evening's band
    assert not judge(fc, 0.5 * value).passed and not judge(fc, 2 * value).passed and not judge(fc, 0).passed


def test_a_holiday_hour_where_the_hypotheses_part_is_judged_as_the_lowest_so_a_duplicate_fails():
    """The holiday's first eight hours are nights, alike on weekdays and weekends: they fit "an
    ordinary day" and "a Saturday" equally, which part at 08:00 (x2.5). A duplicate of a holiday
    that closes like a weekend (x0.35, x0.5 of a weekday's business hour) was inside a band spanning
    both; the hour is now judged as the lowest hypothesis's with the model's widest band. A holiday
    worked as usual is the cost: its first business hour fails, and its next hours fit "an ordinary day"."""
    cal = HolidayCalendar(dates={date(2026, 3, 27): "founders_day"})
    start, target = datetime(2026, 2, 27), datetime(2026, 3, 27, 8)
    for business in (0.35, 0.5):
        history = _quiet_hours(start, 24 * 28 + 8, lambda at, b=business: _logins(at, cal, b))
        fc = forecast(history, target, grain="hour", calendar_=cal)
        assert "part at this hour" in fc.notes[-1], fc.notes
        value = _logins(target, cal, business)
        assert judge(fc, value).passed, (business, value / fc.baseline)
        assert not judge(fc, 2 * value).passed and not judge(fc, 0).passed  # the duplicate passed before
    worked = _quiet_hours(start, 24 * 28 + 9, lambda at: _logins(at, cal, 1.0))
    assert not judge(forecast(worked[:-1], target, grain="hour", calendar_=cal), _logins(target, cal, 1.0)).passed
    fc = forecast(worked, target + timedelta(hours=1), grain="hour", calendar_=cal)
    assert "ordinary day" in fc.notes[-1] and "part" not in fc.notes[-1], fc.notes
    assert judge(fc, _logins(target + timedelta(hours=1), cal, 1.0)).passed


def test_the_first_hour_after_a_closed_day_compares_with_past_ones_whichever_day_was_closed():
    """A series open 09:00-18:00 Monday to Saturday: its first hour carries the night's backlog
    (x1.4) and, after a closed day, a day's (x1.8). After a holiday on a Wednesday, Thursday 09:00
    is no ordinary Thursday 09:00 (it read 1.29x of one): it is the first hour after 39 closed
    hours, learned from the Mondays. A series open every hour has no such group."""
    cal = HolidayCalendar(dates={date(2026, 3, 25): "founders_day"})  # a Wednesday: no partition
    rng = random.Random(12)
    history, previous = [], None
    start = datetime(2026, 2, 23)
    for i in range(24 * 31):
        at = start + timedelta(hours=i)
        if not 9 <= at.hour < 18 or at.weekday() == 6 or cal.name(at.date()):
            continue
        mean = 800 * (0.6 if at.weekday() == 5 else 1.0)
        if at.hour == 9:
            mean *= 1.8 if previous is not None and (at.date() - previous).days > 1 else 1.4
        previous = at.date()
        history.append(Point(at, round(mean * math.exp(rng.gauss(0, 0.03)))))
    target = datetime(2026, 3, 26, 9)  # Thursday, after the holiday
    fc = forecast(history, target, grain="hour", calendar_=cal)
    assert "after_39_closed_hours" in fc.group, fc.group
    assert judge(fc, 800 * 1.8).passed  # was flagged as 1.29x an ordinary Thursday 09:00
    assert not judge(fc, 0.65 * 800 * 1.8).passed and not judge(fc, 2 * 800 * 1.8).passed
    monday = forecast([q for q in history if q.at < datetime(2026, 3, 23, 9)], datetime(2026, 3, 23, 9), grain="hour",
                      calendar_=cal)
    assert "after_39_closed_hours" in monday.group and not judge(monday, 0.65 * 800 * 1.8).passed
    # the hour before the target missing (a past incident kept out of the history) is no closure
    noon = datetime(2026, 3, 24, 13)
    fc = forecast([q for q in history if q.at < noon - timedelta(hours=1)], noon, grain="hour", calendar_=cal)
    assert "after_" not in fc.group and not fc.notes, (fc.group, fc.notes)
    # a series open every hour has no closures: a missing hour there is an outage, not a closure
    flat = _hours(start, 24 * 28, lambda at: 3000 * (1 + 0.8 * math.cos((at.hour - 14) / 24 * 2 * math.pi)))
    assert "after_" not in forecast(flat, start + timedelta(days=28), grain="hour").group
    fc = forecast(flat[:-1], start + timedelta(days=28), grain="hour")
    assert "after_" not in fc.group and not fc.notes, fc.notes


def test_a_holiday_hour_is_read_from_its_hours_so_far_of_the_same_kind():
    """Easter Monday's business hours are a Sunday's x1.25 (x0.5 of a weekday's where a Sunday's
    are x0.4) while its nights are a Sunday's x1.0: one factor for all its hours so far fitted
    neither, and its band sat at the ceiling (a 35% drop at 11:00 passed). The factor for a business
    hour is read from its business hours so far, for a night hour from its nights."""
    cal = HolidayCalendar(dates={date(2026, 3, 30): "founders_day"})  # a Monday
    start = datetime(2026, 3, 2)
    history = _quiet_hours(start, 24 * 28 + 11, lambda at: _logins(at, cal, 0.5))
    target = datetime(2026, 3, 30, 11)
    fc = forecast(history, target, grain="hour", calendar_=cal)
    assert "x1.2" in fc.notes[-1] and "ordinary" not in fc.notes[-1], fc.notes
    value = _logins(target, cal, 0.5)
    assert fc.baseline == pytest.approx(value, rel=0.06)
    assert judge(fc, value).passed and not judge(fc, 0.65 * value).passed and not judge(fc, 2 * value).passed


def test_a_table_a_few_months_old_learns_no_business_day_of_the_month():
    # a hundred days: each business day of the month seen three or four times, 22 effects that
    # would fit the noise and pull the band in (to +-7% for 5% noise on a new bookings table)
    for seed in range(12):  # (seeds 6, 8 and 10 earned one when three occurrences sufficed)
        history = _daily_noise(100, 0.05, seed=seed)
        fc = forecast(history, history[-1].at + timedelta(days=1))
        assert "business_day" not in fc.features and "business_day_from_end" not in fc.features, seed
        assert fc.half_width >= 3 * 0.05


@pytest.mark.parametrize(("year_end", "expected"), [
    (6, {1: "month", 3: "quarter", 6: "year", 9: "quarter", 12: "quarter"}),
    (1, {1: "year", 4: "quarter", 7: "quarter", 10: "quarter", 12: "month", 3: "month"}),
    (12, {3: "quarter", 6: "quarter", 12: "year", 1: "month"}),
])


def test_a_fiscal_year_end_moves_the_year_and_quarter_ends(year_end, expected):
    cal = HolidayCalendar(fiscal_year_end=year_end)
    for month, kind in expected.items():
        assert features_of(_month_end(2026, month), "day", cal)["period_end"] == kind, month
    assert features_of(datetime(2026, 6, 29), "day", cal)["period_end"] == ""  # not a month's end


def test_the_feature_cache_tells_fiscal_years_apart():
    dates: dict[date, str] = {}  # one dates mapping: the calendars differ only in their fiscal year
    june, december = HolidayCalendar(dates=dates, fiscal_year_end=6), HolidayCalendar(dates=dates)
    assert features_of(_month_end(2026, 6), "day", december)["period_end"] == "quarter"
    assert features_of(_month_end(2026, 6), "day", june)["period_end"] == "year"


def test_the_feature_cache_keys_on_what_a_calendar_says_not_where_it_lives():
    # calendars built one after another (a daemon evaluating check after check): a collected
    # calendar's dates mapping leaves its id to the next one's, which must not read its holidays
    day, seasons = datetime(2026, 3, 2), {"Sale": [(date(2026, 11, 20), date(2026, 11, 30))]}
    for i in range(50):
        dates = {day.date(): f"closing day {i}"}
        cal = HolidayCalendar(dates=dates, seasons=seasons)
        assert features_of(day, "day", cal)["holiday"] == f"closing day {i}"
        del cal, dates


def test_a_fiscal_year_end_outside_1_to_12_is_refused():
    with pytest.raises(ValueError, match="fiscal_year_end"):
        HolidayCalendar(fiscal_year_end=13)


def _fiscal_journals(seed: int, year_end: int = 6, until: date = date(2026, 6, 30)) -> list[Point]:
    """Journal lines on weekdays only; the month's last one x2, a fiscal quarter's x1.2 more and the
    fiscal year's (June) x1.5 more."""
    rng = random.Random(seed)
    days = [date(2024, 1, 1) + timedelta(days=i) for i in range((until - date(2024, 1, 1)).days + 1)]
    days = [d for d in days if d.weekday() < 5]
    last = {(d.year, d.month): d for d in days}
    out = []
    for d in days:
        mean = 5_000.0
        if last[(d.year, d.month)] == d:
            offset = (d.month - year_end) % 12
            mean *= 2.0 * (1.5 if offset == 0 else 1.2 if offset % 3 == 0 else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_june_fiscal_year_end_compares_with_past_june_closes(seed):
    history, target = _fiscal_journals(seed), datetime(2026, 6, 30)
    value = history[-1].value
    fiscal = forecast(history[:-1], target, calendar_=HolidayCalendar(fiscal_year_end=6))
    assert fiscal.group == "year_end"
    assert judge(fiscal, value).passed and not judge(fiscal, 0.65 * value).passed
    # with a December year the June close is one more quarter end, mixed with the smaller ones:
    # the band is wide and the same 35% drop passes
    calendar_year = forecast(history[:-1], target)
    assert calendar_year.group == "quarter_end" and judge(calendar_year, 0.65 * value).passed


def test_a_monthly_series_takes_its_fiscal_year_end_from_the_calendar():
    firsts = [datetime(2023 + i // 12, i % 12 + 1, 1) for i in range(42)]
    history = [Point(at, 100_000.0 * (1.5 if at.month == 1 else 1.0)) for at in firsts]
    retail = HolidayCalendar(fiscal_year_end=1)
    assert forecast(history, datetime(2026, 7, 1), calendar_=retail).group == "quarter_end"
    assert forecast(history, datetime(2027, 1, 1), calendar_=retail).group == "year_end"
    assert forecast(history, datetime(2026, 12, 1), calendar_=retail).group == "month_end"


def _two_markets(days: int = 700, seed: int = 13) -> tuple[list[datetime], list[float], list[float]]:
    """Daily payments of a UK business: a GB market on England's holidays (x0.6) and an Israeli one
    on Israel's (x0.3, Friday x0.55, Saturday x0.35), 3% noise."""
    rng = random.Random(seed)
    england, israel = HolidayCalendar(country="GB", subdiv="ENG"), HolidayCalendar(country="IL")
    il_week = [1.05, 1.0, 1.0, 1.1, 0.55, 0.35, 1.1]
    ats, gb, il = [], [], []
    for i in range(days):
        at = datetime(2024, 11, 1) + timedelta(days=i)
        ats.append(at)
        gb.append(round(40_000 * (0.6 if england.name(at.date()) else 1.0) * math.exp(rng.gauss(0, 0.03))))
        il.append(round(2_000 * il_week[at.weekday()] * (0.3 if israel.name(at.date()) else 1.0)
                        * math.exp(rng.gauss(0, 0.03))))
    return ats, gb, il


def test_a_groups_own_calendar_expects_its_holiday():
    ats, _, il = _two_markets()
    target = datetime(2026, 9, 21)  # Yom Kippur, a Monday; Israel's holidays of 2025 are in the history
    i = ats.index(target)
    history = [Point(a, v) for a, v in zip(ats[:i], il[:i])]
    own = forecast(history, target, calendar_=HolidayCalendar(country="IL"))
    england = forecast(history, target, calendar_=HolidayCalendar(country="GB", subdiv="ENG"))
    assert "Yom Kippur" in own.group and judge(own, il[i]).passed
    assert own.baseline < 0.5 * england.baseline  # England's calendar expects an ordinary Monday
    assert not judge(england, il[i]).passed


def _ramadan_orders(start: date, days: int, ramadan: float, late: float, seed: int = 17,
                    cal: HolidayCalendar | None = None, lengths: tuple[int, ...] = (30, 30, 30)
                    ) -> tuple[list[Point], dict[datetime, float]]:
    """Egyptian orders (Friday/Saturday weekend): the 30 days before each Eid al-Fitr x`ramadan`, their
    last ten x`late`, Eid al-Fitr x0.6; 4% noise, +0.02%/day. Also each day's expected value."""
    rng = random.Random(seed)
    cal = cal or HolidayCalendar(country="EG")
    shape = [1.0, 1.0, 1.0, 1.1, 0.8, 0.9, 1.0]
    eids = [date(2024, 4, 10), date(2025, 3, 30), date(2026, 3, 20)]  # the first days in the EG calendar
    out, expected = [], {}
    for i in range(days):
        d = start + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        mean = 10_000 * math.exp(0.0002 * i) * shape[d.weekday()]
        before = [(e - d).days for e, length in zip(eids, lengths) if 0 < (e - d).days <= length]
        mean *= (late if before[0] <= 10 else ramadan) if before else 1.0
        mean *= 0.6 if cal.name(d).startswith("Eid al-Fitr") else 1.0
        expected[at] = mean
        out.append(Point(at, round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out, expected


def test_ramadan_is_a_season_learned_from_the_calendars_eid():
    history, expected = _ramadan_orders(date(2024, 1, 1), 470, ramadan=1.2, late=1.35)
    cal = HolidayCalendar(country="EG")
    # its first days, its middle, its last ten days (apart: x1.35 against x1.2) and the week after Eid
    for target in (datetime(2025, 3, 2), datetime(2025, 3, 12), datetime(2025, 3, 24), datetime(2025, 4, 4)):
        fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
        assert "season" in fc.features
        if target < datetime(2025, 3, 30):
            assert ("season:Ramadan (last ten days)" if target.day >= 20 else "season:Ramadan") in fc.group.split(", ")
            assert abs(fc.baseline / expected[target] - 1) < 0.08, (target, fc.baseline, expected[target])
        assert judge(fc, expected[target]).passed, (target, fc)
        assert not judge(fc, 0.65 * expected[target]).passed, (target, fc)  # a 35% drop on a Ramadan day


def test_an_eid_listed_with_a_gap_is_one_eid():
    # Saudi Arabia's 2024 Eid al-Fitr: 9-12 April, then "(observed)" on Sunday the 14th. Counted back
    # from the 14th, Eid's own days read as Ramadan's last ten, its effect learned net of Ramadan's,
    # and the next Eid (not in Ramadan) was expected 1.35x too low
    cal = HolidayCalendar(country="SA")
    assert cal.season(date(2024, 4, 8))[0] == "Ramadan (last ten days)"
    assert all(cal.season(date(2024, 4, d)) == ("", 0) for d in range(9, 15))
    assert cal.season(date(2024, 3, 10))[0] == "Ramadan"


def test_a_calendar_with_eid_but_no_ramadan_effect_drops_the_season():
    # an Indonesian logistics table whose volume Ramadan does not move: its days stay ordinary days
    history, expected = _ramadan_orders(date(2024, 1, 1), 470, ramadan=1.0, late=1.0)
    target = datetime(2025, 3, 12)
    fc = forecast([p for p in history if p.at < target], target, calendar_=HolidayCalendar(country="EG"))
    assert "season" in fc.features and "Ramadan" not in fc.group and not fc.notes
    assert fc.half_width < math.log(1 / 0.7)  # the ordinary band, not one at the ceiling
    assert not judge(fc, 0.8 * expected[target]).passed


def test_the_first_ramadan_ever_is_not_failed_day_after_day():
    # the history starts after Ramadan 2024: Ramadan 2025 is the first the check sees
    history, _ = _ramadan_orders(date(2024, 5, 1), 345, ramadan=1.2, late=1.35)
    cal = HolidayCalendar(country="EG")
    flagged, first = [], None
    for p in history:
        if not datetime(2025, 2, 28) <= p.at <= datetime(2025, 4, 6):
            continue
        fc = forecast([q for q in history if q.at < p.at], p.at, calendar_=cal)
        if p.at == datetime(2025, 2, 28):
            first = fc
        if not judge(fc, p.value).passed:
            flagged.append(p.at)
    assert len(flagged) <= 1, flagged  # 38 clean days: Ramadan, Eid and the week after
    assert first is not None and any("Ramadan has no past occurrence" in n for n in first.notes)
    assert not judge(first, 0).passed and not judge(first, 2 * first.baseline).passed


def test_a_season_named_in_config_is_learned_like_ramadan():
    school = {"Back to school": [(date(2024, 8, 19), date(2024, 9, 8)), (date(2025, 8, 18), date(2025, 9, 7))]}
    cal = HolidayCalendar(seasons=school)
    rng = random.Random(3)
    history = []
    for i in range(640):
        d = date(2024, 1, 1) + timedelta(days=i)
        lift = 1.3 if cal.season(d)[0] else 1.0
        history.append(Point(datetime(d.year, d.month, d.day), round(8_000 * lift * math.exp(rng.gauss(0, 0.04)))))
    target = datetime(2025, 8, 21)
    fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
    assert "season:Back to school" in fc.group
    assert judge(fc, 8_000 * 1.3).passed and not judge(fc, 0.65 * 8_000 * 1.3).passed
    assert not judge(fc, 8_000).passed  # an ordinary day's volume is a 23% drop in the season


def test_ramadans_first_day_may_be_an_ordinary_day():
    # 30 days in 2024, 29 in 2025: 28 February 2025, 30 days before Eid, is an ordinary day
    history, expected = _ramadan_orders(date(2024, 1, 1), 470, ramadan=1.2, late=1.35, lengths=(30, 29, 30))
    target = datetime(2025, 2, 28)
    fc = forecast([p for p in history if p.at < target], target, calendar_=HolidayCalendar(country="EG"))
    assert "season:Ramadan" in fc.group and any("29" in n for n in fc.notes)
    assert judge(fc, expected[target]).passed and judge(fc, 1.2 * expected[target]).passed
    assert not judge(fc, 0.65 * expected[target]).passed


def _ramp(days: int, centre: int, seed: int = 7, noise: float = 0.02) -> tuple[list[Point], list[float]]:
    """Daily counts with a weekday shape that grow 2.1x along a logistic curve centred on `centre`
    (5% to 95% of the growth in about eleven weeks, +1.5%/day at its steepest); the expected values."""
    rng = random.Random(seed)
    shape = [1.1, 1.05, 1.0, 1.0, 0.95, 0.8, 0.85]
    points, means = [], []
    for i in range(days):
        d = date(2024, 1, 1) + timedelta(days=i)
        mean = 7_000 * math.exp(math.log(2.1) / (1 + math.exp(-0.0785 * (i - centre)))) * shape[d.weekday()]
        means.append(mean)
        points.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, noise)))))
    return points, means


def test_a_ramp_is_followed_by_its_local_trend_and_a_drop_on_it_still_fails():
    points, means = _ramp(days=360, centre=330)
    # the steepest weeks of the ramp: the level window's median lags a week of growth (~11%)
    followed = 0
    for i in range(318, 346, 3):
        fc = forecast(points[:i], points[i].at)
        assert judge(fc, points[i].value).passed, (i, points[i].value / fc.baseline, fc.lower / fc.baseline,
                                                     fc.upper / fc.baseline)
        followed += any("trend of their own" in note for note in fc.notes)
        assert fc.baseline == pytest.approx(means[i], rel=0.08)  # the median alone lags ~11%
        assert not judge(fc, 0.65 * means[i]).passed  # a 35% drop on a ramp day
        assert not judge(fc, 0).passed
    assert followed >= 6  # of 10 (its first days, slower, may not show one yet)
    # a flat history holds no local trend: the level is the window's median, as before
    fc = forecast(points[:200], points[200].at)
    assert not any("trend of their own" in note for note in fc.notes)
    assert fc.trend_per_step == 1.0


def test_a_slow_steady_decline_is_followed_no_further_than_the_band_and_still_fails():
    rng = random.Random(3)
    level, history = 10_000.0, []
    start = date(2025, 1, 1)
    for i in range(224):  # 200 flat days, then a table that loses 2% a day for over three weeks
        mean = level * (0.98 ** max(0, i - 199))
        d = start + timedelta(days=i)
        history.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.02)))))
    # a week into the decline it is a ramp down that began inside the level window (the tenth round:
    # a rollout's or a migration's ramp is followed, down as up; see _onset_ramp), followed no
    # further than the band's half-width below the window's median; a 20% drop on the ninth day
    # and an empty day fail
    early = forecast(history[:208], history[208].at)
    assert any("trend of their own" in note for note in early.notes)
    early_median = median(q.value for q in history[194:208])
    assert early_median * math.exp(-early.half_width) * 0.999 <= early.baseline < early_median
    assert judge(early, level * 0.98 ** 9).passed
    assert not judge(early, 0.8 * level * 0.98 ** 9).passed and not judge(early, 0).passed
    # over three weeks in (the shift rule has had its say), the local trend is followed, but never further than the band's half-width
    # below the level window's median: a point twice the half-width below it fails, and so does an empty one
    fc = forecast(history, history[-1].at + timedelta(days=1))
    assert any("trend of their own" in note for note in fc.notes)
    window_median = median(q.value for q in history[-14:])
    assert fc.baseline >= window_median * math.exp(-fc.half_width) * 0.999
    assert not judge(fc, window_median * math.exp(-2 * fc.half_width) * 0.99).passed
    assert not judge(fc, 0).passed


def _sun_thu_ledger(seed: int = 41) -> tuple[list[Point], HolidayCalendar]:
    """A Riyadh ledger on Saudi business days only (Sunday to Thursday, no holidays): the close on
    the month's last three business days x1.6, x2.0, x2.4; 4% noise."""
    cal = HolidayCalendar(country="SA")
    rng = random.Random(seed)
    days = [d for d in (date(2024, 1, 1) + timedelta(days=i) for i in range(761))
            if d.weekday() not in (4, 5) and not cal.name(d)]
    by_month = _days_by_month(days)
    out = []
    for d in days:
        month = by_month[(d.year, d.month)]
        from_end = len(month) - 1 - month.index(d)
        mean = 5_000.0 * ((1.6, 2.0, 2.4)[2 - from_end] if from_end < 3 else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out, cal


def test_business_days_are_counted_on_the_calendars_own_weekend():
    cal = HolidayCalendar(country="SA")  # Friday and Saturday
    # January 2026 ends on a Saturday: Thursday the 29th is its last business day, Sunday the 4th its
    # second (Thursday the 1st its first)
    last, friday, sunday = (features_of(datetime(2026, 1, d), "day", cal) for d in (29, 30, 4))
    assert last["business_day_from_end"] == -1 and last["business_day_edge"] == -1
    assert friday["business_day"] == -1 and friday["business_day_from_end"] == 0
    assert sunday["business_day"] == 2 and sunday["business_day_edge"] == 2
    # the UAE moved its weekend from Friday-Saturday to Saturday-Sunday on 1 January 2022
    uae = HolidayCalendar(country="AE")
    assert uae.is_weekend(date(2021, 12, 31)) and not uae.is_weekend(date(2022, 1, 7))
    assert uae.is_weekend(date(2022, 1, 9)) and not HolidayCalendar().is_weekend(date(2022, 1, 7))


def test_a_sun_thu_ledgers_close_is_judged_on_its_last_business_days():
    history, cal = _sun_thu_ledger()
    # Thursday 29 January 2026 (the 30th and 31st are the weekend) closes the month at x2.4
    for target in (datetime(2026, 1, 29), datetime(2026, 1, 28), datetime(2026, 1, 27)):
        value = next(p.value for p in history if p.at == target)
        fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
        assert judge(fc, value).passed, (target, fc.group, value / fc.baseline)
        assert not judge(fc, value * 0.65).passed, (target, fc.group)
    assert "business_day=-3 from the end" in fc.group, fc.group


def _expiries(open_weekdays: tuple[int, ...], seed: int = 5) -> list[Point]:
    """Inspections on a station's open days (`open_weekdays`, no holidays) from 2024 to January 2026: certificates
    expire with the month, so its last four open days x1.3 and the first three of the next x0.85; a weekday shape
    (Saturday at half a Wednesday); 5% noise."""
    rng = random.Random(seed)
    week = (1.15, 1.05, 1.0, 1.0, 0.9, 0.5, 0.4)
    days = [d for d in (date(2024, 1, 1) + timedelta(days=i) for i in range(763)) if d.weekday() in open_weekdays]
    by_month = _days_by_month(days)
    out = []
    for d in days:
        month = by_month[(d.year, d.month)]
        position, from_end = month.index(d), len(month) - 1 - month.index(d)
        mean = 600.0 * week[d.weekday()] * (1.3 if from_end < 4 else 0.85 if position < 3 else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.05)))))
    return out


def test_a_series_open_on_saturdays_counts_its_business_days_in_its_own_open_days():
    history = _expiries((0, 1, 2, 3, 4, 5))
    # Saturday 31 January 2026 and Saturday 27 September 2025 are among their months' last four open days: counted
    # Monday to Friday they were no business day at all (an ordinary Saturday's band, a 35% drop inside it)
    for target, place in ((datetime(2026, 1, 31), -1), (datetime(2025, 9, 27), -3)):
        value = next(p.value for p in history if p.at == target)
        fc = forecast([p for p in history if p.at < target], target)
        assert f"business_day={place} from the end" in fc.group, fc.group
        assert judge(fc, value).passed, (target, fc.group, value / fc.baseline)
        assert not judge(fc, value * 0.65).passed, (target, fc.group, value / fc.baseline)


def test_a_place_in_the_months_middle_that_one_past_month_reached_is_read_no_deeper_than_three_do(monkeypatch):
    cal = HolidayCalendar(country="SK")
    # a register outage (x0.3) on 14-19 October 2024; Octobers are the only months with 27 open days Monday to
    # Saturday, so Thursday 16 October 2025, the 14th open day, had one past day at its place: the outage's
    outage = (date(2024, 10, 14), date(2024, 10, 19))
    history = [Point(p.at, round(p.value * 0.3) if outage[0] <= p.at.date() <= outage[1] else p.value)
               for p in _expiries((0, 1, 2, 3, 4, 5)) if not cal.name(p.at.date())]
    target = datetime(2025, 10, 16)
    value = next(p.value for p in history if p.at == target)

    def judged() -> tuple[bool, str]:
        fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
        return judge(fc, value).passed, fc.group

    passed, group = judged()
    assert passed and "business_day=13 from the start" in group, group
    monkeypatch.setattr(volume_model, "MIN_POSITION_MONTHS", 1_000)  # every place read as deep as it falls
    passed, group = judged()
    assert not passed and "business_day=14 from the start" in group, group


def test_a_run_over_the_months_last_open_days_is_not_read_as_a_day_of_the_month_rolled():
    history = _expiries((0, 1, 2, 3, 4))
    # the last four business days explain the run better than a "26th rolled forward" and its next day (which
    # half match it): each of them is read counted from the month's end
    for target in (datetime(2026, 1, 27), datetime(2025, 12, 29), datetime(2025, 10, 28)):
        value = next(p.value for p in history if p.at == target)
        fc = forecast([p for p in history if p.at < target], target)
        assert "from the end" in fc.group and "day:" not in fc.group, fc.group
        assert judge(fc, value).passed, (target, fc.group, value / fc.baseline)
        assert not judge(fc, value * 0.65).passed, (target, fc.group, value / fc.baseline)


def _seollal_orders(rush: float, slow: float, seed: int = 23) -> tuple[list[Point], dict[datetime, float], HolidayCalendar]:
    """Korean orders every day from June 2024: the ten days before Seollal's first holiday day
    x`rush`, Seollal x0.4, the fourteen days after its last x`slow`; other holidays x0.8, weekends
    x0.9; 4% noise, +0.02%/day. Also each day's expected value."""
    cal = HolidayCalendar(country="KR")
    rng = random.Random(seed)
    lifts: dict[date, float] = {}
    # Seollal's closures in the KR calendar (2025's with its temporary holiday on the 27th)
    for first, last in ((date(2025, 1, 27), date(2025, 1, 30)), (date(2026, 2, 16), date(2026, 2, 18))):
        lifts.update({first - timedelta(days=k): rush for k in range(1, 11)})
        lifts.update({last + timedelta(days=k): slow for k in range(1, 15)})
    out, expected = [], {}
    for i in range(640):
        d = date(2024, 6, 1) + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        name = cal.name(d)
        mean = 9_000 * math.exp(0.0002 * i) * (0.9 if d.weekday() >= 5 else 1.0) * lifts.get(d, 1.0)
        mean *= (0.4 if "Korean New Year" in name else 0.8) if name else 1.0
        expected[at] = mean
        out.append(Point(at, round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out, expected, cal


def test_the_weeks_around_lunar_new_year_are_a_season_learned_from_the_calendar():
    history, expected, cal = _seollal_orders(rush=1.25, slow=0.7)
    # the rush's second week, and the slow return's first and second weeks after Seollal 2026
    for target, part in ((datetime(2026, 2, 7), "-2w"), (datetime(2026, 2, 24), "+1w"), (datetime(2026, 2, 27), "+2w")):
        fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
        assert f"season:Lunar New Year {part}" in fc.group.split(", "), (target, fc.group)
        assert judge(fc, expected[target]).passed, (target, fc)
        assert not judge(fc, 0.65 * expected[target]).passed, (target, fc)  # a 35% drop after Seollal
    assert not judge(fc, expected[target] / 0.7).passed  # an ordinary day's volume is no slow return
    assert cal.lunar_new_years(2025) == ((date(2025, 1, 27), date(2025, 1, 30)),)
    assert HolidayCalendar(country="EG").lunar_new_years(2025) == ()  # Sham el-Nessim, "Spring Festival"
    assert HolidayCalendar(country="ID").lunar_new_years(2025) == ()  # Imlek: one day off, no season


def test_a_calendar_with_lunar_new_year_but_no_effect_drops_the_season():
    history, expected, cal = _seollal_orders(rush=1.0, slow=1.0)
    target = datetime(2026, 2, 24)
    fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
    assert "season" in fc.features and "Lunar New Year" not in fc.group and not fc.notes
    assert fc.half_width < math.log(1 / 0.7)  # the ordinary band, not one at the ceiling
    assert not judge(fc, 0.8 * expected[target]).passed


def test_a_weekend_day_worked_in_exchange_is_a_working_day():
    cal = HolidayCalendar(country="CN")
    # Sunday 18 February 2024 was worked for a Spring Festival bridge day off: a business day, and a
    # working day of a Monday-Friday series' neighbourhood (the first day back: Tuesday the 20th is the third)
    assert not cal.is_weekend(date(2024, 2, 18)) and cal.is_weekend(date(2024, 2, 17))
    assert features_of(datetime(2024, 2, 18), "day", cal)["business_day"] > 0
    assert near_holiday(date(2024, 2, 20), cal, frozenset(range(5))) == "Chinese New Year (Spring Festival) +3d"


def test_a_business_day_series_counts_the_weeks_after_lunar_new_year_in_its_working_days():
    cal, weekdays = HolidayCalendar(country="CN"), frozenset(range(5))
    # Spring Festival 2026 closes 15-23 February (the 23rd a bridge day off); Saturday the 28th is
    # worked. A factory's first five working days back are 24-28 February: its "+1w", and Monday
    # 2 March, in the calendar's first week after, is its second
    assert [lunar_new_year_part(date(2026, 2, d), cal, weekdays)[0] for d in (24, 27, 28)] == ["Lunar New Year +1w"] * 3
    assert lunar_new_year_part(date(2026, 3, 2), cal, weekdays)[0] == "Lunar New Year +2w"
    assert cal.season(date(2026, 3, 2))[0] == "Lunar New Year +1w"  # (a series open every day)
    # ten working days before it at most (two weeks of five): Monday 2 February is the eleventh
    assert lunar_new_year_part(date(2026, 2, 3), cal, weekdays)[0] == "Lunar New Year -2w"
    assert lunar_new_year_part(date(2026, 2, 2), cal, weekdays) == ("", 0)


def test_a_fixed_day_of_the_month_rolls_to_the_nearest_business_day():
    sa = HolidayCalendar(country="SA")  # weekend Friday and Saturday
    # Friday 27 June 2025: back to Thursday the 26th, or on to Sunday the 29th
    assert rolled_date(2025, 6, 27, "preceding", sa.is_business_day) == date(2025, 6, 26)
    assert rolled_date(2025, 6, 27, "following", sa.is_business_day) == date(2025, 6, 29)
    # National Day, Tuesday 23 September 2025: a holiday rolls like a weekend
    assert rolled_date(2025, 9, 23, "preceding", sa.is_business_day) == date(2025, 9, 22)
    assert rolled_date(2025, 9, 23, "following", sa.is_business_day) == date(2025, 9, 24)
    # an open day stays where it is
    assert rolled_date(2025, 9, 24, "preceding", sa.is_business_day) == date(2025, 9, 24)
    # the 31st of a short month is its last day, then rolled: 28 February 2026 is a Saturday
    assert rolled_date(2026, 2, 31, "preceding", sa.is_business_day) == date(2026, 2, 26)
    assert rolled_date(2026, 4, 31, "preceding", HolidayCalendar().is_business_day) == date(2026, 4, 30)
    anchors = rolled_anchors(27, "preceding", date(2025, 6, 1), date(2025, 9, 30), sa.is_business_day)
    assert list(anchors) == [date(2025, 6, 26), date(2025, 7, 27), date(2025, 8, 27), date(2025, 9, 25)]
    with pytest.raises(ValueError, match="day of the month 1-31"):
        HolidayCalendar(rolled_days=((32, "preceding"),))
    with pytest.raises(ValueError, match="preceding or following"):
        HolidayCalendar(rolled_days=((27, "nearest"),))


def _payroll_journals(payday: float, seed: int = 21) -> tuple[list[Point], HolidayCalendar]:
    """A journal feed on Saudi business days (Sunday-Thursday, holidays closed) over two years, 4%
    noise, the month's last three business days x1.5, x1.9, x2.4 and, `payday` times, the payroll
    on the 27th or the business day before it."""
    cal = HolidayCalendar(country="SA")
    rng = random.Random(seed)
    days = [d for d in (date(2024, 1, 7) + timedelta(days=i) for i in range(730)) if cal.is_business_day(d)]
    by_month = _days_by_month(days)
    paydays = {rolled_date(y, m, 27, "preceding", cal.is_business_day) for y, m in by_month}
    out = []
    for d in days:
        month = by_month[(d.year, d.month)]
        from_end = len(month) - 1 - month.index(d)
        mean = 4_000.0 * (payday if d in paydays else 1.0)
        if from_end < 3:
            mean *= (1.5, 1.9, 2.4)[2 - from_end]
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out, cal


def test_a_payroll_on_a_fixed_day_rolled_to_a_business_day_is_learned():
    history, cal = _payroll_journals(1.3)
    # Thursday 27 November 2025, and Thursday 25 September 2025 (the 27th a Saturday)
    for target in (datetime(2025, 11, 27), datetime(2025, 9, 25), datetime(2025, 8, 27)):
        value = next(p.value for p in history if p.at == target)
        fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
        assert "day:27 preceding" in fc.group, (target, fc.group)
        assert judge(fc, value).passed, (target, fc.group, value / fc.baseline)
        assert not judge(fc, value / 1.3 * 0.85).passed  # payroll journals missing
    # an ordinary day is no payday
    fc = forecast([p for p in history if p.at < datetime(2025, 11, 20)], datetime(2025, 11, 20), calendar_=cal)
    assert "day:" not in fc.group


def test_no_fixed_day_of_the_month_is_learned_where_none_moves_the_series():
    history, cal = _payroll_journals(1.0)
    for target in [p.at for p in history if p.at >= datetime(2025, 10, 1)][::3]:
        fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
        assert "day:" not in fc.group, (target, fc.group)


def test_a_declared_fixed_day_is_a_group_from_the_start():
    history, _ = _payroll_journals(1.3)
    cal = HolidayCalendar(country="SA", rolled_days=((27, "preceding"),))
    target = datetime(2025, 11, 27)
    value = next(p.value for p in history if p.at == target)
    fc = forecast([p for p in history if p.at < target], target, calendar_=cal,
                  compare_by=["weekday", "business_day_from_end", "holiday", "rolled_day"])
    assert "day:27 preceding" in fc.group and judge(fc, value).passed


def _payday_eve_payouts(eve: float, seed: int = 5) -> tuple[list[Point], HolidayCalendar]:
    """US payouts on business days over two years, 4% noise, the payroll on the 15th (the business day
    before when it is closed) x2 and the business day before it `eve` times (files sent early)."""
    cal = HolidayCalendar(country="US")
    rng = random.Random(seed)
    days = [d for d in (date(2024, 1, 1) + timedelta(days=i) for i in range(730)) if cal.is_business_day(d)]
    months = {(d.year, d.month) for d in days}
    paydays = {rolled_date(y, m, 15, "preceding", cal.is_business_day) for y, m in months}
    eves = {days[days.index(d) - 1] for d in paydays if d in days and days.index(d) > 0}
    out = []
    for d in days:
        mean = 10_000.0 * (2.0 if d in paydays else eve if d in eves else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out, cal


def test_the_business_day_before_a_rolled_payday_earns_its_own_group():
    history, cal = _payday_eve_payouts(1.3)
    # Thursday 13 November 2025 (the 15th a Saturday, paid Friday the 14th), and Tuesday 14 October
    # 2025 (paid Wednesday the 15th): on main both fell in a business day of the month whose other
    # months hold the payday itself
    for target in (datetime(2025, 11, 13), datetime(2025, 10, 14)):
        value = next(p.value for p in history if p.at == target)
        fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
        assert "day:15 preceding -1d" in fc.group, (target, fc.group)
        assert judge(fc, value).passed, (target, fc.group, value / fc.baseline)
        assert not judge(fc, value * 0.65).passed  # a 35% drop on the eve fails


def test_a_payday_without_an_eve_effect_earns_no_neighbour():
    history, cal = _payday_eve_payouts(1.0)
    for target in (datetime(2025, 11, 13), datetime(2025, 10, 14), datetime(2025, 10, 16)):
        fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
        assert "-1d" not in fc.group and "+1d" not in fc.group, (target, fc.group)


def _payroll_provider(seed: int) -> tuple[list[Point], HolidayCalendar]:
    """Three years of US payouts on business days from July 2023, 4% noise, +0.025%/day: the 15th's
    payroll (the business day before when it is closed) x2.2, the month's last business day x2.6,
    the business day before either x1.3, the first day after a holiday closure x1.25."""
    cal = HolidayCalendar(country="US")
    rng = random.Random(seed)
    days = [d for d in (date(2023, 7, 3) + timedelta(days=i) for i in range(1094)) if cal.is_business_day(d)]
    months = {(d.year, d.month) for d in days}
    paydays = {rolled_date(y, m, 15, "preceding", cal.is_business_day) for y, m in months}
    lasts = {max(d for d in days if (d.year, d.month) == ym) for ym in months}
    out: list[Point] = []
    for i, d in enumerate(days):
        after = days[i + 1] if i + 1 < len(days) else None
        lift = 2.2 if d in paydays else 2.6 if d in lasts else 1.3 if after in paydays | lasts else 1.0
        if i and any(cal.name(days[i - 1] + timedelta(days=k)) for k in range(1, (d - days[i - 1]).days)):
            lift *= 1.25
        mean = 10_000.0 * math.exp(0.00025 * (d - days[0]).days) * lift
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out, cal


def test_a_payday_the_business_days_from_the_start_absorb_is_found_against_those_from_the_end():
    history, cal = _payroll_provider(1)
    # 400 business days to April 2026: business days counted from both edges explain the month
    # best, and the 15th is their 10th from the start one month, the 11th the next, so the
    # payday's residuals against them are too small to earn it; against business days counted
    # from the end it is found (without that second search: 'business_day=11 from the start', a false alarm)
    for target in (datetime(2026, 4, 15), datetime(2026, 4, 14)):
        i = next(k for k, q in enumerate(history) if q.at == target)
        fc = forecast(history[max(0, i - 400):i], target, calendar_=cal)
        assert "day:15 preceding" in fc.group, (target, fc.group)
        assert judge(fc, history[i].value).passed, (target, fc.group, history[i].value / fc.baseline)
        assert not judge(fc, history[i].value * 0.8).passed  # a 20% drop fails


def _december_orders(december: float, seed: int = 7, last_day: int = 31) -> list[Point]:
    """Daily orders with a weekday shape and 3% noise; every December (to its `last_day`) at `december`
    x the rest of the year."""
    rng = random.Random(seed)
    shape = [1.0, 1.05, 1.05, 1.1, 1.2, 0.75, 0.6]
    out = []
    for i in range(760):
        d = date(2024, 1, 1) + timedelta(days=i)
        mean = 20_000 * shape[d.weekday()] * (december if d.month == 12 and d.day <= last_day else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.03)))))
    return out


def test_a_daily_series_earns_a_month_of_the_year_that_moves_every_year():
    # December x1.3 every year: the first days of December 2025 are expected at December's level (without
    # a month of the year a daily series' trailing level lags a week: 1-3 December fell above the band)
    history = _december_orders(1.3)
    target = datetime(2025, 12, 2)
    fc = forecast([p for p in history if p.at < target], target)
    assert "month_of_year" in fc.features and "month:Dec" in fc.group
    assert judge(fc, 1.3 * 20_000 * 1.05).passed
    assert not judge(fc, 0.8 * 1.3 * 20_000 * 1.05).passed  # a 20% drop on it still fails
    # ... and after December the level does not lag: 6 January is an ordinary day again
    target = datetime(2026, 1, 6)
    fc = forecast([p for p in history if p.at < target], target)
    assert judge(fc, 20_000 * 1.05).passed and "month_of_year" not in fc.group


def test_a_daily_series_without_a_season_earns_no_month():
    history = _december_orders(1.0)
    target = datetime(2025, 12, 2)
    fc = forecast([p for p in history if p.at < target], target)
    assert "month_of_year" not in fc.features


def test_a_three_week_event_in_one_past_year_earns_no_month():
    # December 2024 is the only past December: its first three weeks at x1.3 are an event, not a
    # month's season (its last days sat at the ordinary level): the whole-month rule and the
    # one-step-error guard both refuse it
    history = _december_orders(1.3, last_day=21)
    target = datetime(2025, 12, 2)
    fc = forecast([p for p in history if p.at < target], target)
    assert "month_of_year" not in fc.features


def test_the_evening_before_a_holiday_passes_where_past_eves_ran_above_and_a_drop_on_it_fails():
    """An hourly series with a daily cycle whose evenings run x1.2 on the eve of a holiday (going
    out before a day off), two holidays (and so two eves) in its five weeks: the next eve's evening
    was flagged (band x0.89-1.13); the band now also covers the eves' x1.2, above only, so a 35% drop
    and a duplicated hour on the eve still fail. A series without an eve effect keeps its band."""
    cal = HolidayCalendar(dates={date(2026, 2, 17): "founders_day", date(2026, 3, 3): "founders_day",
                                 date(2026, 3, 12): "founders_day"})

    def evening(at: datetime, lift: float = 1.2) -> float:
        eve = not cal.name(at.date()) and bool(cal.name(at.date() + timedelta(days=1)))
        return (3000 * (1 + 0.8 * math.cos((at.hour - 20) / 24 * 2 * math.pi)) * (0.7 if cal.name(at.date()) else 1.0)
                * (lift if eve and at.hour >= 18 else 1.0))

    start, target = datetime(2026, 2, 2), datetime(2026, 3, 11, 20)  # Wednesday 20:00, the eve of the third
    hours = int((target - start).total_seconds() // 3600)
    fc = forecast(_hours(start, hours, evening, noise=0.02), target, grain="hour", calendar_=cal)
    assert judge(fc, evening(target)).passed  # was flagged
    assert "eve of founders_day" in fc.notes[-1] and "2 past eve(s)" in fc.notes[-1], fc.notes
    assert not judge(fc, 0.65 * evening(target)).passed and not judge(fc, 2 * evening(target)).passed
    assert fc.lower / fc.baseline > 0.85  # the eves only rose: the band reaches no lower
    plain = _hours(start, hours, lambda at: evening(at, 1.0), noise=0.02)
    fc = forecast(plain, target, grain="hour", calendar_=cal)
    assert not any("eve of" in note for note in fc.notes)
    assert (fc.lower, fc.upper) == pytest.approx((4956.6, 5937.9), abs=0.1)  # as before this rule


def test_the_evening_before_a_holiday_never_seen_may_run_busier_but_a_drop_on_it_fails():
    """Four weeks of hours hold no past eve (the check's default history): the eve's evening may run
    busier (EVE_PRIOR, from EVE_FROM_HOUR local), so x1.2 passes where it was flagged, above only: a
    35% drop and a duplicated hour fail, and its morning and an ordinary evening keep their band."""
    cal = HolidayCalendar(dates={date(2026, 3, 12): "founders_day"})

    def evening(at: datetime, lift: float = 1.2) -> float:
        eve = not cal.name(at.date()) and bool(cal.name(at.date() + timedelta(days=1)))
        return 3000 * (1 + 0.8 * math.cos((at.hour - 20) / 24 * 2 * math.pi)) * (lift if eve and at.hour >= 18 else 1.0)

    start = datetime(2026, 2, 11)
    for hour in (20, 23):
        target = datetime(2026, 3, 11, hour)
        fc = forecast(_hours(start, int((target - start).total_seconds() // 3600), evening, noise=0.02), target,
                      grain="hour", calendar_=cal)
        assert judge(fc, evening(target)).passed  # was flagged
        assert "no past eve seen" in fc.notes[-1], fc.notes
        assert not judge(fc, 0.65 * evening(target)).passed and not judge(fc, 2 * evening(target)).passed
        assert fc.lower / fc.baseline > 0.85
    for target in (datetime(2026, 3, 11, 10), datetime(2026, 3, 10, 20)):
        fc = forecast(_hours(start, int((target - start).total_seconds() // 3600), evening, noise=0.02), target,
                      grain="hour", calendar_=cal)
        assert fc.upper / fc.baseline < 1.2 and not any("eve" in note for note in fc.notes)


def _linear_ramp(move: float, seed: int = 5, days: int = 260, onset: int = 220,
                 length: int = 21) -> tuple[list[Point], list[float]]:
    """Daily counts with a weekday shape and 3% noise whose level moves linearly by `move` (+0.4:
    +40%) over `length` days from day `onset`, then holds (a rollout: not a step, nobody accepts
    it); the expected values."""
    rng = random.Random(seed)
    shape = [1.0, 1.05, 1.05, 1.0, 1.1, 0.75, 0.7]
    points, means = [], []
    for i in range(days):
        d = date(2025, 1, 1) + timedelta(days=i)
        mean = 20_000 * (1 + move * min(max(i - onset + 1, 0), length) / length) * shape[d.weekday()]
        means.append(mean)
        points.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.03)))))
    return points, means


@pytest.mark.parametrize("move", [0.4, -0.3])
def test_a_ramp_that_began_inside_the_level_window_is_followed_and_a_drop_on_it_fails(move: float) -> None:
    """A +40% (or -30%) linear ramp over three weeks: the median of the level window lags it by a
    week's climb and the shift rule re-baselines on a run that is still climbing (main flagged its
    clean days). The hinge (a knot, then a line) follows it from the history alone; a 35% drop on a
    ramp day or in the week after it, an empty day and a doubled one still fail."""
    for seed in (5, 6, 7):
        points, means = _linear_ramp(move, seed=seed)
        for i in range(220, 248):  # its 21 days (main flagged 1 of the 63 up, 10 down) and a week after
            fc = forecast(points[:i], points[i].at)
            assert judge(fc, points[i].value).passed, (seed, i, points[i].value / fc.baseline,
                                                         fc.lower / fc.baseline, fc.upper / fc.baseline)
            assert not judge(fc, 0.65 * means[i]).passed, (seed, i)  # a 35% drop on a ramp day
            assert not judge(fc, 0).passed and not judge(fc, 1.9 * fc.baseline).passed
    # past the ramp's first week its line is followed, and a 20% drop on a ramp day fails too
    points, means = _linear_ramp(move)
    fc = forecast(points[:232], points[232].at)
    assert any("trend of their own" in note for note in fc.notes)
    assert fc.baseline == pytest.approx(means[232], rel=0.06)
    assert not judge(fc, 0.8 * means[232]).passed


def test_a_flat_series_holds_no_ramp_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a ramp the hinge finds none (its slope must stand four standard errors from flat, its
    points' one-step errors mostly on its side): the forecast is identical to the model's without it."""
    points, _ = _linear_ramp(0.0)
    targets = range(200, 260, 4)
    with_hinge = [forecast(points[:i], points[i].at) for i in targets]
    monkeypatch.setattr(volume_model, "_onset_ramp", lambda *args, **kwargs: None)
    assert with_hinge == [forecast(points[:i], points[i].at) for i in targets]
    for i, fc in zip(targets, with_hinge):
        assert not any("trend of their own" in note for note in fc.notes), i
        assert judge(fc, points[i].value).passed


@pytest.mark.parametrize(("target", "group"), [(datetime(2026, 1, 10, 0), None), (datetime(2026, 1, 9, 12), 3)])
def test_a_run_after_an_accepted_shift_is_no_ramp(target: datetime, group: int | None) -> None:
    """The bench's events_hourly: a +31% step accepted at its first hour (2026-01-08 00:00) whose run
    off the old level starts hours later, so the shift rule finds the run unaccepted; a hinge fitted
    across the accepted step read it as a ramp and dropped the new level (1.17x and 1.20x flagged).
    The hinge is not tried across an accepted shift: the shift rule re-baselines as before."""
    estate = ESTATES["events_hourly"](1)
    stamps = [at for at, _ in estate.series]
    idx = stamps.index(target)
    past = estate.series[max(0, idx - _lookback(estate)):idx]
    history = [_owned(at, sum(v) if group is None else v[group], {datetime(2026, 1, 8)}, set()) for at, v in past]
    value = sum(estate.series[idx][1]) if group is None else estate.series[idx][1][group]
    fc = forecast(history, target, grain=estate.grain, calendar_=estate.calendar, timezone=estate.timezone)
    assert fc.shift is not None and judge(fc, value).passed


def test_the_ramp_knot_search_skips_what_cannot_pass_and_a_coarse_first_pass_finds_the_same_ramp(monkeypatch):
    """The knot search fits a robust line per knot (hundreds on 28 days of hours): a history whose
    one-step errors never run one way is spared it, and a long window is searched coarsely, then
    around the best knot. An hourly ramp (+30% over the last four days) is followed as the full
    search follows it; a history with no run keeps its forecast."""
    assert not volume_model._same_side_suffix(list(range(40)), {j: (-1.0) ** j for j in range(40)})
    assert volume_model._same_side_suffix(list(range(40)), {j: (-1.0) ** j if j < 32 else 0.5 for j in range(40)})
    assert not volume_model._same_side_suffix(list(range(40)), {})  # no one-step errors: nothing to test

    def cycle(at: datetime, ramp_from: datetime | None = datetime(2026, 3, 7)) -> float:
        climb = 0.0 if ramp_from is None else min(max((at - ramp_from).total_seconds() / 86400 / 4, 0.0), 1.0)
        return 4000 * (1 + 0.6 * math.cos((at.hour - 15) / 24 * 2 * math.pi)) * (1 + 0.3 * climb)

    start, target = datetime(2026, 2, 9), datetime(2026, 3, 11, 15)
    count = int((target - start).total_seconds() // 3600)
    for mean in (cycle, lambda at: cycle(at, None)):
        history = _hours(start, count, mean, noise=0.02)
        fast = forecast(history, target, grain="hour")
        monkeypatch.setattr(volume_model, "RAMP_KNOTS", 10 ** 6)
        monkeypatch.setattr(volume_model, "_same_side_suffix", lambda idx, errors: True)
        full = forecast(history, target, grain="hour")
        monkeypatch.undo()
        assert fast.baseline == pytest.approx(full.baseline, rel=0.01), (fast.baseline, full.baseline)
        assert (fast.lower, fast.upper) == pytest.approx((full.lower, full.upper), rel=0.01)
    assert judge(forecast(_hours(start, count, cycle, noise=0.02), target, grain="hour"), cycle(target)).passed


def _sale_orders(seed: int = 9) -> list[Point]:
    """Daily orders from 1 January 2024, a weekday shape and 4% noise: a sale over 15-30 June every year at x1.4."""
    rng = random.Random(seed)
    shape = [1.0, 1.05, 1.05, 1.1, 1.2, 0.75, 0.6]
    out = []
    for i in range(700):
        d = date(2024, 1, 1) + timedelta(days=i)
        mean = 20_000 * shape[d.weekday()] * (1.4 if d.month == 6 and d.day >= 15 else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out


@pytest.mark.parametrize("target", [datetime(2025, 7, 1), datetime(2025, 7, 2), datetime(2025, 7, 3)])
def test_the_days_after_a_yearly_sale_do_not_inherit_its_level(target: datetime):
    # the sale's sixteen days are the level window on 1 July; a year earlier the same window stood out
    # the same way and the days after it came back: the level steps back with it (without that the
    # first days of July read 0.66-0.72x, below the band)
    history = [p for p in _sale_orders() if target - timedelta(days=400) <= p.at < target]
    fc = forecast(history, target)
    expected = 20_000 * [1.0, 1.05, 1.05, 1.1, 1.2, 0.75, 0.6][target.weekday()]
    assert judge(fc, expected).passed
    assert not judge(fc, 0.65 * expected).passed  # a 35% drop on it fails
    assert any("a year earlier" in n for n in fc.notes)


def test_a_sale_window_is_still_its_level_on_its_own_last_day():
    # 30 June is the sale's last day: last year's was the sale's too, so the level does not step back yet
    target = datetime(2025, 6, 30)
    history = [p for p in _sale_orders() if target - timedelta(days=400) <= p.at < target]
    fc = forecast(history, target)
    assert judge(fc, 1.4 * 20_000).passed and not any("a year earlier" in n for n in fc.notes)


def _season_orders(seed: int = 7) -> list[Point]:
    """Daily orders from 1 January 2024, a weekday shape and 4% noise: every December x1.25, every January x0.85."""
    rng = random.Random(seed)
    shape = [1.0, 1.05, 1.05, 1.1, 1.2, 0.75, 0.6]
    out = []
    for i in range(760):
        d = date(2024, 1, 1) + timedelta(days=i)
        mean = 20_000 * shape[d.weekday()] * (1.25 if d.month == 12 else 0.85 if d.month == 1 else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out


@pytest.mark.parametrize("target", [datetime(2026, 1, 12), datetime(2026, 1, 20)])
def test_a_low_month_after_a_high_one_earns_its_month(target: datetime):
    # a January (x0.85) after a high December (x1.25), in the 400 days a check reads: January 2025's
    # days before are December's, which stand out themselves, so January compares with the ordinary
    # days after it (without that its sides disagreed, January was not earned and read ~0.72x)
    history = [p for p in _season_orders() if target - timedelta(days=400) <= p.at < target]
    fc = forecast(history, target)
    expected = 0.85 * 20_000 * [1.0, 1.05, 1.05, 1.1, 1.2, 0.75, 0.6][target.weekday()]
    assert "month:Jan" in fc.group
    assert judge(fc, expected).passed
    assert not judge(fc, 0.8 * expected).passed  # a 20% drop on it fails


def _ramp_orders(seed: int) -> list[Point]:
    """Daily subscriptions from 1 January 2024, flat, then a launch that grows the level 2.1x along a
    logistic curve centred on 15 April 2025 (day 470, most of it within eleven weeks); 4% noise."""
    rng = random.Random(seed)
    shape = [1.1, 1.05, 1.0, 1.0, 0.95, 0.8, 0.85]
    out = []
    for i in range(760):
        d = date(2024, 1, 1) + timedelta(days=i)
        grown = 1 / (1 + math.exp(-0.0785 * (i - 470)))
        mean = 7_000 * math.exp(math.log(2.1) * grown) * shape[d.weekday()]
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out


@pytest.mark.parametrize(("seed", "target"), [(5, datetime(2025, 5, 12)), (5, datetime(2025, 5, 20)),
                                              (6, datetime(2025, 5, 8)), (6, datetime(2025, 5, 12))])


def test_a_growth_ramp_earns_no_month_of_the_year(seed: int, target: datetime):
    # the history's first months are flat and a ramp runs through its last: the whole history's trend
    # tilts the flat year, so May 2024 (one side only, the history's start) stood out of June-August's
    # median; against that side's own line carried to May, and with the stricter one-sided threshold,
    # it does not (without the guard, May was earned in all four)
    history = [p for p in _ramp_orders(seed) if target - timedelta(days=400) <= p.at < target]
    fc = forecast(history, target)
    assert "month:" not in fc.group


def _business_hours(weeks: int, seed: int) -> list[Point]:
    """A call centre's calls per UTC hour in New York, open 08:00-20:00 local on weekdays only: the
    warehouse returns no row for a closed hour, so closed hours are absent, not zero."""
    rng = random.Random(seed)
    zone, out = ZoneInfo("America/New_York"), []
    start = datetime(2026, 9, 7, 4)  # Monday 00:00 New York (EDT)
    for i in range(weeks * 7 * 24):
        at = start + timedelta(hours=i)
        local = at.replace(tzinfo=ZoneInfo("UTC")).astimezone(zone)
        if local.weekday() < 5 and 8 <= local.hour < 20:
            out.append(Point(at, float(round(120 * (1.3 if local.hour < 12 else 1.0) * math.exp(rng.gauss(0, 0.05))))))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_a_closed_hour_or_day_is_empty_as_usual_and_an_open_one_still_fails(seed: int):
    history = _business_hours(9, seed)
    end = max(q.at for q in history) + timedelta(hours=1)
    # Saturday 10:00 and a Tuesday night (DST ended on 1 November: the local hours moved in UTC)
    for target in (datetime(2026, 10, 17, 14), datetime(2026, 11, 3, 8), datetime(2026, 11, 7, 16)):
        fc = forecast([q for q in history if q.at < target], target, grain="hour", timezone="America/New_York")
        assert fc.empty_is_normal and judge(fc, 0).reason == "empty_as_usual", target
        assert any(n.startswith("closed as usual") for n in fc.notes)
    # an open hour (Monday 10:00 New York, after the change back to EST: 15:00 UTC) without rows is a failed load
    open_hour = datetime(2026, 11, 2, 15)
    fc = forecast([q for q in history if q.at < open_hour], open_hour, grain="hour", timezone="America/New_York")
    assert not fc.empty_is_normal and judge(fc, 0).reason == "empty" and judge(fc, fc.baseline).passed
    assert end > open_hour
    # a daily series of business days: Saturdays and Sundays are closed as usual, a Monday is not
    days = [Point(datetime(2026, 3, 2) + timedelta(days=i), float(1_000 + 10 * (i % 5)))
            for i in range(180) if (datetime(2026, 3, 2) + timedelta(days=i)).weekday() < 5]
    for target, closed in ((datetime(2026, 8, 29), True), (datetime(2026, 8, 30), True), (datetime(2026, 8, 31), False)):
        fc = forecast([q for q in days if q.at < target], target)
        assert fc.empty_is_normal is closed and judge(fc, 0).passed is closed, target


def test_a_slot_is_closed_only_when_most_of_its_weeks_had_no_rows():
    # Saturdays open three weeks in four: an empty Saturday is a fault; two weeks of history are too
    # few to say a slot is closed; a month-end series has no weekly slots
    days = [Point(datetime(2026, 3, 2) + timedelta(days=i), 1_000.0) for i in range(180)
            if (datetime(2026, 3, 2) + timedelta(days=i)).weekday() < 5
            or ((datetime(2026, 3, 2) + timedelta(days=i)).weekday() == 5 and i % 4 != 0)]
    saturday = datetime(2026, 8, 29)
    assert not forecast([q for q in days if q.at < saturday], saturday).empty_is_normal
    young = [q for q in days if datetime(2026, 8, 15) <= q.at < saturday and q.at.weekday() < 5]
    assert not forecast(young, saturday).empty_is_normal
    month_ends = [Point(datetime(2024 + m // 12, m % 12 + 1, calendar.monthrange(2024 + m // 12, m % 12 + 1)[1]),
                        5_000.0 + 50 * (m % 3)) for m in range(24)]
    fc = forecast(month_ends, datetime(2026, 1, 31))
    assert not fc.empty_is_normal and judge(fc, 0).reason == "empty"


def _us_business_days(open_on_holidays: bool, start: datetime = datetime(2024, 9, 2)) -> list[Point]:
    cal = HolidayCalendar(country="US")
    rng, out, day = random.Random(3), [], start
    while day < datetime(2026, 1, 10):
        if day.weekday() < 5 and (open_on_holidays or not cal.name(day.date())):
            out.append(Point(day, float(round(1_000 * (0.5 if cal.name(day.date()) else 1) * math.exp(rng.gauss(0, 0.04))))))
        day += timedelta(days=1)
    return out


def test_a_holiday_of_a_business_closed_on_holidays_is_empty_as_usual():
    # the table holds no row on the past holidays that fell between open weeks: it closes on them,
    # so an empty Thanksgiving (even one the history never saw) is one of its ordinary partitions
    cal = HolidayCalendar(country="US")
    closed = _us_business_days(open_on_holidays=False)
    for target in (datetime(2025, 11, 27), datetime(2025, 12, 25)):
        fc = forecast([q for q in closed if q.at < target], target, calendar_=cal)
        assert judge(fc, 0).reason == "empty_as_usual" and any("past holidays" in n for n in fc.notes), target
    # the day after is open: empty fails; so does a holiday where the business opens at half volume,
    # and one with fewer than three past holidays to say so
    friday = datetime(2025, 11, 28)
    assert judge(forecast([q for q in closed if q.at < friday], friday, calendar_=cal), 0).reason == "empty"
    opened = _us_business_days(open_on_holidays=True)
    fc = forecast([q for q in opened if q.at < datetime(2025, 11, 27)], datetime(2025, 11, 27), calendar_=cal)
    assert judge(fc, 0).reason == "empty"
    young = [q for q in closed if datetime(2025, 8, 1) <= q.at < datetime(2025, 10, 13)]  # Labor Day only
    assert judge(forecast(young, datetime(2025, 10, 13), calendar_=cal), 0).reason == "empty"


def _flat_weeks(noise: float, n: int = 200, seed: int = 7) -> list[Point]:
    rng = random.Random(seed)
    return [Point(datetime(2022, 1, 3) + timedelta(weeks=i), round(40_000 * math.exp(rng.gauss(0, noise))))
            for i in range(n)]


def test_a_weekly_partition_is_judged_at_the_daily_false_alarm_rate_per_day():
    # a week is judged once where a day is judged seven times: at the same false alarms per day its
    # band is about 3.6 spreads, not 4, and a 20% drop under 4.5% noise mostly fails (35 of 40
    # weeks; 27 at k = 4)
    history = _flat_weeks(0.045)
    targets = history[-40:]
    caught, noted = 0, 0
    for q in targets:
        fc = forecast([h for h in history if h.at < q.at], q.at)
        assert judge(fc, q.value).passed
        caught += not judge(fc, round(q.value * 0.8)).passed
        noted += any("false-alarm rate per day" in note for note in fc.notes)
    assert caught >= 0.8 * len(targets), caught
    assert noted == len(targets)


def test_a_daily_partition_and_a_spread_from_few_errors_keep_the_configured_k():
    days = [Point(datetime(2024, 1, 1) + timedelta(days=i), 1000.0 + (i % 7) * 10) for i in range(120)]
    fc = forecast(days, datetime(2024, 4, 30))
    assert not any("false-alarm rate per day" in note for note in fc.notes)
    # twenty weeks of history: a spread from fewer than BAND_K_MIN_ERRORS one-step errors keeps k
    fc = forecast(_flat_weeks(0.05, n=20), datetime(2022, 1, 3) + timedelta(weeks=20))
    assert not any("false-alarm rate per day" in note for note in fc.notes)


def _small_channel(seed: int, last_year_next_day: float | None) -> tuple[list[Point], HolidayCalendar]:
    """A B2B channel of a few rows a day (Poisson: ~40 on weekdays, ~4 on Sundays), a holiday at
    x0.2 on 2024-09-07 (a Saturday) and 2025-09-07 (a Sunday); the Sunday after last year's
    holiday drew `last_year_next_day` rows (None: its own Poisson draw)."""
    holiday = {date(2024, 9, 7): "independence", date(2025, 9, 7): "independence"}
    cal = HolidayCalendar(dates=holiday)
    means = [40, 38, 36, 36, 33, 9, 4]  # Monday .. Sunday
    rng = np.random.default_rng(seed)
    out = []
    for i in range(400):
        d = date(2024, 8, 4) + timedelta(days=i)
        value = float(rng.poisson(means[d.weekday()] * (0.2 if d in holiday else 1.0)))
        if d == date(2024, 9, 8) and last_year_next_day is not None:
            value = last_year_next_day
        out.append(Point(datetime(d.year, d.month, d.day), value))
    return out, cal


def test_a_neighbourhood_seen_once_on_a_few_rows_is_counting_noise_not_an_effect():
    # last year the day after the holiday was a Sunday of four rows that drew one: x0.25 of its
    # weekday, which a homoscedastic spread (the weekdays' 40 rows) read as the neighbourhood's
    # effect; this year the day after is a Monday, and its usual 45 rows read 4.9x (hard rule)
    history, cal = _small_channel(5, last_year_next_day=1.0)
    target = datetime(2025, 9, 8)
    assert history[-1].at == datetime(2025, 9, 7)
    fc = forecast(history, target, calendar_=cal)
    assert "near" not in fc.group
    assert judge(fc, 45).passed and judge(fc, 36).passed
    assert not judge(fc, 0).passed and not judge(fc, 90).passed and not judge(fc, 12).passed
    # the holiday itself, x0.2 on every occurrence, still stands out of the counting noise
    fc = forecast(history[:-1], datetime(2025, 9, 7), calendar_=cal)
    assert "holiday:independence" in fc.group and judge(fc, 1).passed
    # the same shape at thousands of rows a day: a day after at x0.25 is an effect (counting moves
    # thousands of rows by a few percent), kept as main keeps it
    big = [Point(q.at, q.value * 1000 + (1 if q.value == 0 else 0)) for q in history]
    fc_big = forecast(big, target, calendar_=cal)
    assert "near:independence +1d" in fc_big.group


def test_a_ramp_is_not_carried_over_a_fortnight_of_calendar_days():
    # carnival_br's bulk channel: a Christmas season climbs to 22 December, then the days to New
    # Year are all holidays and their neighbours; the climb was extrapolated over them and New
    # Year's Eve (an ordinary 0.64x of that) failed
    estate = ESTATES["carnival_br"](2)
    at = datetime(2025, 12, 31)
    idx = [a for a, _ in estate.series].index(at)
    past = estate.series[idx - _lookback(estate):idx]
    bulk = max(range(3), key=lambda g: estate.series[idx][1][g])
    history = [_owned(a, g[bulk], set(), set()) for a, g in past]
    fc = forecast(history, at, calendar_=estate.calendar)
    assert not any("trend of their own" in n for n in fc.notes)
    assert judge(fc, estate.series[idx][1][bulk]).passed
    assert not judge(fc, estate.series[idx][1][bulk] * 0.5).passed
    # a ramp whose latest days are ordinary is still followed (see the onset ramp tests above)
    assert volume_model._ramp_unconfirmed([False] * 24 + [True] * 4, 14)
    assert not volume_model._ramp_unconfirmed([False] * 24 + [True, True, False, True], 14)


def _calls_nl(days: int, step_at: int, seed: int = 5) -> list[Point]:
    """Daily API calls with a flat week and a quiet weekend, Dutch holidays x0.65, 4% noise, and a
    +25% step on day `step_at`, accepted by its owner on its first day."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="NL")
    shape = [1.0, 1.0, 1.0, 1.0, 0.95, 0.6, 0.5]
    start = date(2024, 1, 1)
    out = []
    for i in range(days):
        d = start + timedelta(days=i)
        mean = 80_000 * shape[d.weekday()] * (1.25 if i >= step_at else 1.0) * (0.65 if cal.name(d) else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.04))),
                         accepted=i == step_at, shift=i == step_at))
    return out


def test_weeks_after_an_accepted_shift_stay_on_its_level_once_it_leaves_the_level_window():
    # a +25% step accepted on 15 April, Easter and King's Day in the fortnight after it: once the step
    # is older than the level window the points before it are still moved to its level, so neither the
    # level nor the holiday neighbourhoods learned just after it read the step as half old level
    cal = HolidayCalendar(country="NL")
    full = _calls_nl(days=500, step_at=470)
    shape = [1.0, 1.0, 1.0, 1.0, 0.95, 0.6, 0.5]
    for k in range(485, 498):  # 15 to 27 days after the step (Liberation Day's neighbourhood among them)
        target = full[k].at
        if cal.name(target.date()):
            continue
        fc = forecast(full[:k], target, calendar_=cal)
        assert fc.shift is None  # the accepted step is older than the level window
        assert fc.baseline == pytest.approx(80_000 * 1.25 * shape[target.weekday()], rel=0.05), target
        assert judge(fc, full[k].value).passed, target


def test_a_run_read_as_a_ramp_is_not_searched_for_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shift rule's run read as a ramp's climb: the level follows that same hinge (the fit has not
    changed in between), without a second knot search; forecasts are unchanged (the ramp tests above)."""
    real = volume_model._onset_ramp
    calls: list[tuple[bool, bool]] = []

    def counted(*args: object, **kwargs: object) -> tuple[float, float, float, float] | None:
        found = real(*args, **kwargs)  # type: ignore[arg-type]
        calls.append((bool(kwargs.get("not_a_step")), found is not None))
        return found

    monkeypatch.setattr(volume_model, "_onset_ramp", counted)
    read_as_ramp = 0
    for move in (0.4, -0.3):
        points, _ = _linear_ramp(move)
        for i in range(220, 248):
            calls.clear()
            forecast(points[:i], points[i].at)
            if calls and calls[0] == (True, True):
                read_as_ramp += 1
                assert len(calls) == 1, i
    assert read_as_ramp > 0


def _biweekly_payroll(pay: float, seed: int = 7) -> tuple[list[Point], HolidayCalendar]:
    """Ontario business days over two years, 2.5% noise, Mondays x1.1 and Fridays x0.9, a month-end
    batch x1.5 and, `pay` times, a pay run every second Friday (Good Friday 2025 among them: rolled
    to the Thursday before)."""
    cal = HolidayCalendar(country="CA", subdiv="ON")
    rng = random.Random(seed)
    days = [d for d in (date(2024, 1, 1) + timedelta(days=i) for i in range(730)) if cal.is_business_day(d)]
    fridays = [date(2025, 4, 18) + timedelta(weeks=2 * k) for k in range(-40, 40)]
    paydays = set()
    for friday in fridays:
        while not cal.is_business_day(friday):
            friday -= timedelta(days=1)
        paydays.add(friday)
    lasts = {max(d for d in days if (d.year, d.month) == (e.year, e.month)) for e in days}
    out = []
    for d in days:
        mean = 6_000.0 * (1.1, 1.0, 1.0, 1.0, 0.9)[d.weekday()] * (pay if d in paydays else 1.0)
        mean *= 1.5 if d in lasts else 1.0
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.025)))))
    return out, cal


def test_fortnight_anchors_are_every_fourteenth_day_rolled_to_a_business_day():
    cal = HolidayCalendar(country="CA", subdiv="ON")
    phase = date(2025, 4, 4).toordinal() % 14
    days = fortnight_anchors(phase, "preceding", date(2025, 3, 25), date(2025, 5, 5), cal.is_business_day)
    # Good Friday 18 April 2025 rolled back to Thursday the 17th
    assert days == [date(2025, 4, 4), date(2025, 4, 17), date(2025, 5, 2)]
    days = fortnight_anchors(phase, "following", date(2025, 3, 25), date(2025, 5, 5), cal.is_business_day)
    assert days == [date(2025, 4, 4), date(2025, 4, 21), date(2025, 5, 2)]


def test_a_pay_run_every_second_friday_earns_a_fourteen_day_cycle():
    history, cal = _biweekly_payroll(2.2)
    # (on main no group held it: the fit kept "all", every payday flagged and a 20% drop passed)
    # Friday 30 May 2025, and Thursday 17 April 2025 (Good Friday's pay run, the business day before)
    for target in (datetime(2025, 5, 30), datetime(2025, 4, 17)):
        i = next(k for k, q in enumerate(history) if q.at == target)
        fc = forecast(history[max(0, i - 400):i], target, calendar_=cal)
        assert "fortnightly Fri preceding" in fc.group, (target, fc.group)
        assert judge(fc, history[i].value).passed, (target, fc.group, history[i].value / fc.baseline)
        assert not judge(fc, history[i].value * 0.8).passed  # a 20% drop fails
    # the Friday between two pay runs is an ordinary Friday, and a doubled one fails
    target = datetime(2025, 6, 6)
    i = next(k for k, q in enumerate(history) if q.at == target)
    fc = forecast(history[max(0, i - 400):i], target, calendar_=cal)
    assert "fortnightly" not in fc.group, fc.group
    assert judge(fc, history[i].value).passed and not judge(fc, history[i].value * 0.8).passed


def test_no_fourteen_day_cycle_is_earned_where_none_moves_the_series():
    # business days with a weekly shape only, and every day's orders with a weekly shape (alternate
    # weeks differ by noise alone)
    history, cal = _biweekly_payroll(1.0)
    orders = _orders(days=600, seed=3)
    for series, calendar_ in ((history, cal), (orders, _us_calendar())):
        for target in [q.at for q in series[-120:]][::4]:
            i = next(k for k, q in enumerate(series) if q.at == target)
            fc = forecast(series[max(0, i - 400):i], target, calendar_=calendar_)
            assert "fortnightly" not in fc.group, (target, fc.group)


def _nz_weeks(seed: int = 4) -> list[Point]:
    """New Zealand weekly sales (Monday weeks from 2 January 2023), 4% noise; a week holding Anzac Day
    or its observed Monday at x0.7, a week holding Christmas Day x0.6, New Year's Day x1.2."""
    cal = HolidayCalendar(country="NZ")
    rng = random.Random(seed)
    out = []
    for i in range(210):
        monday = date(2023, 1, 2) + timedelta(weeks=i)
        names = " ".join(cal.name(monday + timedelta(days=k)) for k in range(7))
        mean = 20_000 * (0.7 if "Anzac" in names else 1.0) * (0.6 if "Christmas" in names else 1.0)
        mean *= 1.2 if "New Year's Day" in names else 1.0
        out.append(Point(datetime(monday.year, monday.month, monday.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out


def test_an_observed_holiday_never_seen_compares_with_its_base_holidays_past():
    # Anzac Day 2026 is a Saturday: the week after holds "Anzac Day (observed)", a name the history
    # (2023-2025, Anzac Day on weekdays) never saw. It compares with the weeks that held Anzac Day
    # (x0.7), not as a holiday never seen (main: "like one of the holidays seen", a wider band)
    cal = HolidayCalendar(country="NZ")
    history = _nz_weeks()
    target = datetime(2026, 4, 27)
    assert cal.name(date(2026, 4, 27)) == "Anzac Day (observed)"
    value = next(q.value for q in history if q.at == target)
    fc = forecast([q for q in history if q.at < target], target, calendar_=cal)
    assert fc.group == "holiday:Anzac Day" and fc.unseen_holiday is None
    assert judge(fc, value).passed
    assert not judge(fc, round(value * 0.65)).passed


def test_an_observed_holiday_whose_base_was_never_seen_alone_stays_unseen():
    # week 53 of 2026 holds Boxing Day (observed), New Year's Day and the day after: the history's
    # weeks held Boxing Day with Christmas Day, never alone, so the week is still a holiday never seen
    cal = HolidayCalendar(country="NZ")
    history = _nz_weeks()
    target = datetime(2026, 12, 28)
    fc = forecast([q for q in history if q.at < target], target, calendar_=cal)
    assert fc.unseen_holiday is not None and "Boxing Day (observed)" in fc.unseen_holiday


def test_a_yearly_seasons_uncertainty_counts_only_its_change_since_the_level_window():
    # the level is read from the latest eight weeks de-seasoned by the same curve: an error of the
    # curve there moves the level with it, so the band holds only the curve's change to the target
    # (main: the whole prediction variance, (2 x harmonics + 1) / weeks fitted, a band ~3% wider)
    history = _yearly_cosine(0.2)
    pts, target = history[:-1], history[-1].at
    feats = [dict(features_of(q.at, "day", HolidayCalendar(), 7)) for q in pts]
    yearly = volume_model._yearly_season(list(map(float, range(len(pts)))), [math.log(q.value) for q in pts], feats,
                                         [q.at + timedelta(days=3) for q in pts], target + timedelta(days=3),
                                         52, 8, ModelParams())
    assert yearly is not None
    whole = (2 * volume_model.YEARLY_HARMONICS + 1) / (len(pts) - 52)  # every week but the first and last half-year
    assert 0 < yearly[2] < 0.75 * whole, (yearly[2], whole)


def _few_rows(weekend: float, seed: int, rate: float = 9.0, days: int = 400) -> list[Point]:
    """A daily count of a few rows (Poisson, 5% extra noise): `rate` a weekday, x`weekend` on Saturdays and Sundays."""
    rng = np.random.default_rng(seed)
    start = datetime(2024, 1, 1)
    out = []
    for i in range(days):
        at = start + timedelta(days=i)
        lam = rate * (weekend if at.weekday() >= 5 else 1.0) * math.exp(rng.normal(0, 0.05))
        out.append(Point(at, float(rng.poisson(lam))))
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_weekend_of_a_few_rows_earns_its_weekday_beyond_counting_noise(seed: int):
    # refunds_se's reason of nine a day, x0.6 on weekends: counting noise (1/sqrt(9) in log space)
    # keeps the weekday's cut in errors under 20%, so the forecast kept the week's mean (~8) and a
    # Saturday of one refund (a 3% Poisson draw at 5.4) failed under its count tail
    history = _few_rows(0.6, seed)
    target = history[-1].at + timedelta(days=1)
    while target.weekday() != 5:
        history.append(Point(target, float(np.random.default_rng(seed + target.day).poisson(9.0))))
        target += timedelta(days=1)
    fc = forecast(history, target)
    assert "weekday" in fc.features and fc.group == "Sat"
    assert 0.8 * 5.4 < fc.baseline < 1.2 * 5.4
    assert judge(fc, 1).passed and judge(fc, 5).passed


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_flat_count_of_a_few_rows_earns_no_weekday(seed: int):
    # the same count with no weekly shape: its weekday effects are counting noise, none earned
    history = _few_rows(1.0, seed)
    fc = forecast(history, history[-1].at + timedelta(days=1))
    assert "weekday" not in fc.features and fc.group == "all"


def _lift_passes(days: int, seed: int = 5, winter: bool = True) -> list[Point]:
    """A ski resort's daily lift passes from 1 December 2023, no holiday calendar: from 15 December to
    10 March (by the day of the year) weekends are busy (Saturday x1.4), the rest of the year weekdays
    are (Monday x1.2, Saturday x0.75: walkers and school trips); the week's mean is the same in both.
    4% noise. `winter=False`: the off-season shape all year."""
    rng = random.Random(seed)
    season = [0.8, 0.8, 0.8, 0.85, 1.1, 1.4, 1.25]
    rest = [1.2, 1.15, 1.1, 1.05, 0.95, 0.75, 0.8]
    out = []
    for i in range(days):
        d = date(2023, 12, 1) + timedelta(days=i)
        cold = winter and ((d.month, d.day) >= (12, 15) or (d.month, d.day) <= (3, 10))
        out.append(Point(datetime(d.year, d.month, d.day),
                         round(5_000 * (season if cold else rest)[d.weekday()] * math.exp(rng.gauss(0, 0.04)))))
    return out


def _lift_index(day: date) -> int:
    return (day - date(2023, 12, 1)).days


def _lift_forecast(history: list[Point], day: date) -> tuple[volume_model.Forecast, Point]:
    """The forecast for `day` from the 400 days before it (the check's default history)."""
    i = _lift_index(day)
    return forecast(history[max(0, i - 400):i], history[i].at), history[i]


def test_a_weekly_shape_of_a_part_of_the_year_is_read_from_the_same_weeks_a_year_earlier():
    """The first winter Saturday: the latest weeks are still the off-season's, last winter's same weeks
    had busy weekends (main: x1.81 its Saturday, above the band)."""
    history = _lift_passes(600)
    fc, first = _lift_forecast(history, date(2024, 12, 21))
    assert first.at.weekday() == 5
    assert fc.baseline == pytest.approx(5_000 * 1.4, rel=0.1), fc.baseline
    assert judge(fc, first.value).passed, (fc.lower, fc.upper, first.value)
    assert not judge(fc, 0.65 * first.value).passed
    assert any("weekly shape of their own" in n for n in fc.notes), fc.notes
    # a winter Wednesday three weeks on: the weekdays' low share too
    fc, wednesday = _lift_forecast(history, date(2025, 1, 8))
    assert fc.baseline == pytest.approx(5_000 * 0.8, rel=0.1) and judge(fc, wednesday.value).passed


def test_a_season_of_its_own_weekly_shape_ends_with_last_years():
    """The first days after the winter: the level window is all winter weeks, the shape flips back
    (main: the first Saturday x0.56, below the band)."""
    history = _lift_passes(600)
    for day, share in ((date(2025, 3, 11), 1.15), (date(2025, 3, 15), 0.75), (date(2025, 3, 17), 1.2)):
        fc, point = _lift_forecast(history, day)
        assert fc.baseline == pytest.approx(5_000 * share, rel=0.15), (day, fc.baseline)
        assert judge(fc, point.value).passed and not judge(fc, 0.6 * point.value).passed, (day, fc.lower, fc.upper)


def test_an_off_season_weekend_band_is_not_widened_by_last_winters_weekends():
    """Last winter's busy weekends, read as the season's shape, are not the Saturdays' noise: an
    off-season Saturday's band is about the 4% noise's (main: at the ceiling, x0.70-1.43)."""
    history = _lift_passes(600)
    fc, _ = _lift_forecast(history, date(2025, 6, 14))
    assert fc.baseline == pytest.approx(5_000 * 0.75, rel=0.08)
    assert fc.upper / fc.baseline < 1.25 and fc.lower / fc.baseline > 0.8, (fc.lower / fc.baseline, fc.upper / fc.baseline)


_LUNAR_BREAKS = [(date(2024, 2, 8), date(2024, 2, 14)), (date(2025, 1, 25), date(2025, 2, 2)),
                 (date(2026, 2, 14), date(2026, 2, 22))]


def _lunar_new_year_moves(seed: int = 3) -> tuple[list[Point], HolidayCalendar]:
    """Daily, busy weekends; a lunar new year's break x0.05 whose weekdays alone the calendar names (its
    weekends are its neighbourhood), the three weeks before it x1.5 and the week after x0.6, in no calendar.
    The break moves by weeks between years (late January 2025, mid-February 2026)."""
    named = {a + timedelta(days=k): "new_year" for a, b in _LUNAR_BREAKS for k in range((b - a).days + 1)
             if (a + timedelta(days=k)).weekday() < 5}
    rng = random.Random(seed)
    shape = [0.8, 0.75, 0.75, 0.8, 0.95, 1.5, 1.1]
    out = []
    for i in range(780):
        d = date(2024, 1, 1) + timedelta(days=i)
        mean = 3_000 * shape[d.weekday()] * (0.05 if any(a <= d <= b for a, b in _LUNAR_BREAKS) else 1.0)
        mean *= 1.5 if any(0 < (a - d).days <= 21 for a, _ in _LUNAR_BREAKS) else \
            0.6 if any(0 < (d - b).days <= 7 for _, b in _LUNAR_BREAKS) else 1.0
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out, HolidayCalendar(dates=named)


def test_a_holidays_neighbourhood_is_no_weekly_shape_of_its_weeks_a_year_later():
    # the weekends of last year's break (its neighbourhood, x0.05) among its rush's weekdays (x1.5) are the
    # feast's, not a weekly shape of those weeks of the year: a year on, three weeks before this year's rush,
    # a Wednesday is an ordinary Wednesday (main: x1.56 the year's, 1.22x the usual Wednesday)
    history, cal = _lunar_new_year_moves()
    target = datetime(2026, 1, 21)
    fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
    usual = 3_000 * 0.75
    assert not any("weekly shape of their own" in n for n in fc.notes), fc.notes
    assert fc.baseline == pytest.approx(usual, rel=0.08)
    assert judge(fc, usual).passed and not judge(fc, 0.65 * usual).passed


def _without_seasonal_shape(monkeypatch: pytest.MonkeyPatch, history: list[Point], at: datetime) -> volume_model.Forecast:
    with monkeypatch.context() as m:
        m.setattr(volume_model, "_seasonal_shape", lambda *args: None)
        return forecast(history, at)


@pytest.mark.parametrize("day", [date(2024, 12, 21), date(2025, 3, 11), date(2025, 6, 14)])
def test_one_weekly_shape_all_year_earns_no_season(monkeypatch: pytest.MonkeyPatch, day: date):
    history = _lift_passes(600, winter=False)
    fc, point = _lift_forecast(history, day)
    i = _lift_index(day)
    plain = _without_seasonal_shape(monkeypatch, history[max(0, i - 400):i], point.at)
    assert (fc.lower, fc.baseline, fc.upper) == (plain.lower, plain.baseline, plain.upper)
    assert not any("weekly shape of their own" in n for n in fc.notes)


def test_a_weekly_shape_changed_for_good_is_no_season(monkeypatch: pytest.MonkeyPatch):
    """A weekend share changed three weeks ago (not last year): the shape-change rule's, as before."""
    history = _weekend_switch(440, 405)
    for i in (420, 430):
        fc = forecast(history[:i], history[i].at)
        plain = _without_seasonal_shape(monkeypatch, history[:i], history[i].at)
        assert (fc.lower, fc.baseline, fc.upper) == (plain.lower, plain.baseline, plain.upper)


def _filing_days(deadlines: dict[date, str], days: int = 420, seed: int = 16,
                 keeps_week: float | None = None) -> list[Point]:
    """Agents' returns per day: weekdays 1.0, weekends x0.25, and each declared deadline a working day
    at x2 of a weekday's whatever its weekday (a deadline keeps no weekly shape), or `keeps_week` of its
    own weekday's."""
    rng = random.Random(seed)
    out = []
    for i in range(days):
        d = date(2024, 1, 1) + timedelta(days=i)
        f = 1.0 if d.weekday() < 5 else 0.25
        if d in deadlines:
            f = 2.0 if keeps_week is None else keeps_week * f
        out.append(Point(datetime(d.year, d.month, d.day), round(10_000 * f * math.exp(rng.gauss(0, 0.04)))))
    return out


def test_a_calendar_day_seen_once_on_another_weekday_is_also_read_without_the_weekdays_difference():
    """A deadline seen once, on a Sunday (x2 of a weekday, x8 of a Sunday): its effect was learned on
    top of Sunday's, so on a Tuesday it read x8 of a weekday and its ordinary x2 failed at 0.25x. One
    occasion cannot tell whether the week's shape holds on the day: the band also covers the day read
    without the weekdays' difference. Empty still fails, and a day seen on the target's own weekday,
    or on a series whose weekdays are alike, is untouched."""
    sunday, tuesday = date(2024, 2, 25), date(2025, 2, 25)  # (the target's is the history's only occasion)
    assert (sunday.weekday(), tuesday.weekday()) == (6, 1)
    cal = HolidayCalendar(dates={sunday: "filing_deadline", tuesday: "filing_deadline"})
    history = [q for q in _filing_days(cal.dates) if q.at.date() < tuesday][-400:]
    target = datetime(2025, 2, 25)
    fc = forecast(history, target, grain="day", calendar_=cal)
    assert "filing_deadline" in fc.group and fc.unseen_holiday is None
    assert judge(fc, 20_000).passed, (fc.baseline, fc.lower, fc.notes)  # was flagged: 0.25x of x8 a weekday
    assert any("seen once, on another weekday" in n for n in fc.notes), fc.notes
    assert not judge(fc, 0).passed and not judge(fc, 2.0 * fc.baseline).passed  # the hard rules hold


def test_a_calendar_day_seen_once_on_its_own_weekday_keeps_its_band():
    """The same deadline seen once on a Tuesday, judged on a Tuesday: its weekday's effect was learned
    with it, nothing is widened; nor where the day seen once kept its weekday's shape (a quiet Sunday)."""
    before, target_day = date(2024, 2, 27), date(2025, 2, 25)
    assert before.weekday() == target_day.weekday() == 1
    cal = HolidayCalendar(dates={before: "filing_deadline", target_day: "filing_deadline"})
    history = [q for q in _filing_days(cal.dates) if q.at.date() < target_day][-400:]
    fc = forecast(history, datetime(2025, 2, 25), grain="day", calendar_=cal)
    assert not any("seen once, on another weekday" in n for n in fc.notes), fc.notes
    assert judge(fc, 20_000).passed and not judge(fc, 0.5 * 20_000).passed
    # seen once on a Sunday at half a Sunday's (the weekly shape kept, a quiet day): judged on a Tuesday
    # at half a weekday's, its band is untouched and a 35% drop still fails
    sunday = date(2024, 2, 25)
    cal = HolidayCalendar(dates={sunday: "filing_deadline", target_day: "filing_deadline"})
    history = [q for q in _filing_days(cal.dates, keeps_week=0.5) if q.at.date() < target_day][-400:]
    fc = forecast(history, datetime(2025, 2, 25), grain="day", calendar_=cal)
    assert not any("seen once, on another weekday" in n for n in fc.notes), fc.notes
    assert not judge(fc, 0.65 * fc.baseline).passed


def _settlement_days(seed: int, gotobi: float = 1.5, due: float = 3.0, close: float = 2.2) -> tuple[list[Point], HolidayCalendar]:
    """Two years of Japanese corporate transfers on business days from April 2024, 4% noise: the 5th,
    10th, 15th and 20th of the month (the business day before when closed) `gotobi` times, a due day on
    the 12th (the business day after when closed) `due` times, the month's last business day `close`."""
    cal = HolidayCalendar(country="JP")
    rng = random.Random(seed)
    days = [d for d in (date(2024, 4, 1) + timedelta(days=i) for i in range(730)) if cal.is_business_day(d)]
    months = sorted({(d.year, d.month) for d in days})
    settle = {rolled_date(y, m, k, "preceding", cal.is_business_day) for y, m in months for k in (5, 10, 15, 20)}
    dues = {rolled_date(y, m, 12, "following", cal.is_business_day) for y, m in months}
    lasts = {max(d for d in days if (d.year, d.month) == ym) for ym in months}
    out = []
    for d in days:
        lift = (gotobi if d in settle else 1.0) * (due if d in dues else 1.0) * (close if d in lasts else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(50_000 * lift * math.exp(rng.gauss(0, 0.04)))))
    return out, cal


def test_every_settlement_day_of_the_month_that_clears_the_bar_is_earned():
    history, cal = _settlement_days(3, due=1.0)
    # four days of the month at x1.5: on main at most three were earned, and the fourth (here the 20th,
    # Friday 20 February 2026) read x1.5 against an ordinary day's band
    for target in (datetime(2026, 2, 13), datetime(2026, 2, 20)):
        value = next(p.value for p in history if p.at == target)
        fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
        assert "day:" in fc.group and "preceding" in fc.group, (target, fc.group)
        assert judge(fc, value).passed, (target, fc.group, value / fc.baseline)
        assert not judge(fc, 0.8 * 1.5 * 50_000).passed  # a 20% drop fails
    # an ordinary day between them is no settlement day
    fc = forecast([p for p in history if p.at < datetime(2026, 2, 17)], datetime(2026, 2, 17), calendar_=cal)
    assert "day:" not in fc.group


def test_a_due_day_rolled_forward_is_found_where_business_days_from_the_end_took_it():
    # transfers_jp's taxes: due on the 10th (the next business day when closed) x3 and at the month's end
    # x2.5. Business days counted from the end earn their place and take the 10th in part (the 14th
    # from the end one month, the 15th the next), so on main no day of the month was earned: Tuesday
    # 13 January 2026 (the 10th a Saturday, the 12th Coming of Age Day) read x2.8 against
    # "business_day=-14 from the end", and Friday 7 November 2025 x0.34 against "-15 from the end"
    estate = ESTATES["transfers_jp"](1)
    taxes = 4  # the kind at 10% of the transfers in this seed's order
    for at, due in ((datetime(2026, 1, 13), True), (datetime(2025, 11, 7), False)):
        idx = [a for a, _ in estate.series].index(at)
        past = estate.series[idx - _lookback(estate):idx]
        fc = forecast([_owned(a, g[taxes], set(), set()) for a, g in past], at, calendar_=estate.calendar)
        value = estate.series[idx][1][taxes]
        assert ("day:10 following" in fc.group) == due, (at, fc.group)
        assert judge(fc, value).passed, (at, fc.group, value / fc.baseline)
        assert not judge(fc, value * 0.65).passed


def test_no_day_of_the_month_is_earned_beside_a_month_end_close_alone():
    history, cal = _settlement_days(7, gotobi=1.0, due=1.0)
    for target in (datetime(2026, 1, 13), datetime(2026, 2, 20)):
        fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
        assert "day:" not in fc.group, (target, fc.group)


# a region's school breaks (Saturday to Sunday), moving from year to year: the spring break's week
# swaps between ISO weeks 8 and 9, the summer's start rotates
_SCHOOL_BREAKS = {
    "Spring break": [(date(2023, 2, 18), date(2023, 2, 26)), (date(2024, 2, 24), date(2024, 3, 3)),
                     (date(2025, 2, 15), date(2025, 2, 23)), (date(2026, 2, 21), date(2026, 3, 1))],
    "Summer break": [(date(2023, 7, 15), date(2023, 8, 27)), (date(2024, 7, 20), date(2024, 9, 1)),
                     (date(2025, 7, 12), date(2025, 8, 24)), (date(2026, 7, 4), date(2026, 8, 16))],
}


def _school_weeks(seed: int = 5, back: float = 0.8, weeks_back: int = 1) -> list[Point]:
    """A school region's lessons per week (Mondays from 2 January 2023): x0.1 in a week of its own
    breaks, x`back` its first `weeks_back` weeks back, 4% noise."""
    rng = random.Random(seed)
    out = []
    for i in range(200):
        monday = date(2023, 1, 2) + timedelta(weeks=i)
        away = any(first <= monday <= last for spans in _SCHOOL_BREAKS.values() for first, last in spans)
        after = any(last < monday <= last + timedelta(weeks=weeks_back)
                    for spans in _SCHOOL_BREAKS.values() for _, last in spans)
        mean = 20_000 * (0.1 if away else back if after else 1.0)
        out.append(Point(datetime(monday.year, monday.month, monday.day), round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out


def test_a_declared_break_week_is_named_by_its_position_in_the_break():
    cal = HolidayCalendar(breaks=_SCHOOL_BREAKS)
    week = lambda d: str(features_of(datetime(d.year, d.month, d.day), "day", cal, 7)["holiday"])
    assert week(date(2026, 2, 16)) == ""  # its weekend starts the break: most of its days are school days
    assert week(date(2026, 2, 23)) == "Spring break (first week)"
    assert week(date(2026, 3, 2)) == "Spring break (first week back)"
    assert week(date(2026, 7, 6)) == "Summer break (first week)"
    assert week(date(2026, 7, 13)) == week(date(2026, 8, 10)) == "Summer break"
    assert week(date(2026, 8, 17)) == "Summer break (first week back)"
    assert week(date(2026, 9, 7)) == ""
    # a daily series' break days are a season of their own (each year one occasion)
    assert cal.season(date(2026, 7, 20)) == ("Summer break", date(2026, 7, 4).toordinal())


def test_a_declared_break_compares_with_the_regions_past_breaks_not_the_same_week_of_the_year():
    history = _school_weeks()
    cal = HolidayCalendar(breaks=_SCHOOL_BREAKS)
    truth = {q.at: q.value for q in history}
    # 2026's spring break is ISO week 9 (2025's was week 8): the week 8 this year is a school week,
    # week 9 a break; the summer starts a week earlier than 2025's, two earlier than 2024's
    for target in (datetime(2026, 2, 16), datetime(2026, 2, 23), datetime(2026, 3, 2), datetime(2026, 7, 6),
                   datetime(2026, 7, 27), datetime(2026, 8, 17), datetime(2026, 8, 24)):
        fc = forecast([q for q in history if q.at < target], target, calendar_=cal)
        value = truth[target]
        assert judge(fc, value).passed, (target, fc.group, value / fc.baseline)
        assert not judge(fc, value * 0.65).passed, (target, fc.group)
        assert not judge(fc, value * 2).passed, (target, fc.group)


def test_a_break_never_seen_in_the_history_is_expected_not_guessed():
    history = _school_weeks()
    # a break declared only for this year: no past occurrence, so it is judged by the hard rules only
    cal = HolidayCalendar(breaks={"Strike week": [(date(2026, 5, 9), date(2026, 5, 17))]})
    target = datetime(2026, 5, 11)
    fc = forecast([q for q in history if q.at < target], target, calendar_=cal)
    assert fc.unseen_holiday == "Strike week (first week)"
    assert fc.lower <= 0.35 * fc.baseline and fc.upper >= 1.85 * fc.baseline  # the hard rules' width
    assert judge(fc, 0.35 * fc.baseline).passed


def test_breaks_outside_the_history_leave_the_forecast_identical():
    history = _school_weeks()
    far = HolidayCalendar(breaks={"Summer break": [(date(2031, 7, 5), date(2031, 8, 17))]})
    for target in (datetime(2026, 2, 23), datetime(2026, 7, 6)):
        past = [q for q in history if q.at < target]
        with_breaks, without = forecast(past, target, calendar_=far), forecast(past, target, calendar_=HolidayCalendar())
        assert (with_breaks.baseline, with_breaks.lower, with_breaks.upper, with_breaks.group) == \
            (without.baseline, without.lower, without.upper, without.group)


def test_a_first_week_back_never_seen_is_a_school_week():
    history = _school_weeks()
    cal = HolidayCalendar(breaks={**_SCHOOL_BREAKS, "Strike week": [(date(2026, 5, 9), date(2026, 5, 17))]})
    target = datetime(2026, 5, 18)
    assert features_of(target, "day", cal, 7)["holiday"] == "Strike week (first week back)"
    value = next(q.value for q in history if q.at == target)
    fc = forecast([q for q in history if q.at < target], target, calendar_=cal)
    assert "Strike" not in fc.group and fc.unseen_holiday is None
    assert judge(fc, value).passed and not judge(fc, value * 0.65).passed


def test_the_first_two_weeks_after_a_declared_break_are_named_by_their_distance_from_it():
    cal = HolidayCalendar(breaks=_SCHOOL_BREAKS)
    week = lambda d: str(features_of(datetime(d.year, d.month, d.day), "day", cal, 7)["holiday"])
    assert week(date(2026, 3, 2)) == "Spring break (first week back)"
    assert week(date(2026, 3, 9)) == "Spring break (second week back)"
    assert week(date(2026, 8, 24)) == "Summer break (second week back)"
    assert week(date(2026, 3, 16)) == week(date(2026, 8, 31)) == ""  # the third is an ordinary week
    # a daily series' partitions are no break's weeks (its break days are a season)
    assert features_of(datetime(2026, 8, 24), "day", cal)["holiday"] == ""


def test_a_catch_up_in_the_second_week_after_a_break_is_read_from_past_breaks():
    # main read the second week back as an ordinary week: the catch-up passed inside a band widened by it,
    # and so did a 25% drop on it
    # a clinic's appointments: the postponed ones caught up in the first two weeks back
    history = _school_weeks(back=1.25, weeks_back=2)
    cal = HolidayCalendar(breaks=_SCHOOL_BREAKS)
    truth = {q.at: q.value for q in history}
    for target in (datetime(2026, 3, 9), datetime(2026, 8, 24)):
        fc = forecast([q for q in history if q.at < target], target, calendar_=cal)
        assert "(second week back)" in fc.group
        assert judge(fc, truth[target]).passed, (target, truth[target] / fc.baseline)
        assert not judge(fc, truth[target] * 0.75).passed, (target, fc.lower / fc.baseline)


def test_a_restarts_later_week_reads_the_level_as_an_ordinary_week_does():
    # a long break and its weeks back would otherwise leave fewer ordinary weeks than half a year's,
    # and the level would be read from every week, the break's among them
    cal = HolidayCalendar(breaks=_SCHOOL_BREAKS)
    second = features_of(datetime(2026, 8, 24), "day", cal, 7)
    assert second["holiday"] == "Summer break (second week back)"
    assert reads_level(second) and not _calendar_days([second])[0]
    for at in (datetime(2026, 8, 17), datetime(2026, 7, 27)):  # the first week back, a week inside the break
        fv = features_of(at, "day", cal, 7)
        assert not reads_level(fv) and _calendar_days([fv])[0]
    assert reads_level(features_of(datetime(2026, 9, 7), "day", cal, 7))


# two school regions' spring breaks (a table total declares both, named by region), apart until 2026
_TWO_REGIONS = {
    "A Spring break": [(date(2023, 2, 18), date(2023, 2, 26)), (date(2024, 2, 24), date(2024, 3, 3)),
                       (date(2025, 2, 15), date(2025, 2, 23)), (date(2026, 2, 21), date(2026, 3, 1))],
    "B Spring break": [(date(2023, 3, 4), date(2023, 3, 12)), (date(2024, 2, 10), date(2024, 2, 18)),
                       (date(2025, 3, 1), date(2025, 3, 9)), (date(2026, 2, 21), date(2026, 3, 1))],
}


def test_two_breaks_that_never_overlapped_are_not_read_as_the_stronger_one():
    rng = random.Random(8)
    history = []
    for i in range(165):
        monday = date(2023, 1, 2) + timedelta(weeks=i)
        away = [any(a <= monday <= b for a, b in spans) for spans in _TWO_REGIONS.values()]
        mean = 10_000 * sum(0.5 * (0.5 if out else 1.0) for out in away)
        history.append(Point(datetime(monday.year, monday.month, monday.day), round(mean * math.exp(rng.gauss(0, 0.03)))))
    cal = HolidayCalendar(breaks=_TWO_REGIONS)
    target = datetime(2026, 2, 23)  # both regions away at once: x0.5, where either alone was x0.75
    assert features_of(target, "day", cal, 7)["holiday"] == "A Spring break (first week) + B Spring break (first week)"
    value = next(q.value for q in history if q.at == target)
    fc = forecast([q for q in history if q.at < target], target, calendar_=cal)
    assert fc.unseen_holiday == "A Spring break (first week) + B Spring break (first week)"
    assert judge(fc, value).passed, (fc.group, value / fc.baseline)


def _sweet_shop(rush: float, seed: int = 23, days: int = 420) -> tuple[list[Point], dict[datetime, float]]:
    """A London sweet shop's daily sales from September 2024 (England's calendar, which holds no
    Diwali): the ten days before Diwali rise to x`rush` on its eve, Diwali itself part of the way, the
    two days after as far below (x1.6: x1.36, x0.8; x1.0: no Diwali); England's holidays x0.7; 4% noise.
    Diwali's dates come from India's calendar. Also each day's mean."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="GB", subdiv="ENG")
    shape = [0.9, 0.9, 0.95, 1.0, 1.15, 1.3, 0.8]
    diwalis = [d for y in (2024, 2025, 2026) for d in festival_days("Diwali", y)]
    out, expected = [], {}
    for i in range(days):
        d = date(2024, 9, 1) + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        mean = 4_000 * shape[d.weekday()] * (0.7 if cal.name(d) else 1.0)
        for diwali in diwalis:
            k = (diwali - d).days
            mean *= (1 + (rush - 1) * (11 - k) / 10 if 1 <= k <= 10 else 1 + 0.6 * (rush - 1) if k == 0
                     else 1 - (rush - 1) / 3 if -2 <= k < 0 else 1.0)
        expected[at] = mean
        out.append(Point(at, round(mean * math.exp(rng.gauss(0, 0.04)))))
    return out, expected


def test_a_festival_of_another_calendar_is_read_where_the_history_shows_it():
    # Diwali 2024 in the history, 2025's evaluated: England's calendar lacks it, so on main the day
    # after it (x0.8 after a rush to x1.6) was expected at the rush's level and flagged (x0.51);
    # tried from India's calendar and earned, each of its days compares with the same day of its
    # past occurrence ("season:Diwali +1d")
    history, expected = _sweet_shop(rush=1.6)
    cal = HolidayCalendar(country="GB", subdiv="ENG")
    target = datetime(2025, 10, 21)  # the day after Diwali
    past = [p for p in history if p.at < target]
    assert volume_model._earned_festivals(past, cal) == ("Diwali",)
    fc = forecast(past, target, calendar_=cal)
    assert "season:Diwali +1d" in fc.group.split(", "), fc.group
    assert judge(fc, expected[target]).passed, (fc.baseline, expected[target])
    assert not judge(fc, 0.65 * expected[target]).passed  # a 35% drop on it


def test_a_festival_earned_on_one_occasion_widens_the_band_and_leaves_the_centre():
    # the sweet shop without a Diwali rush, but a one-off week at x1.8 inside Diwali 2024's weeks
    # before (a sale, a new tax year: anything that fell there that year). Diwali is earned on that
    # one occasion; on main 2025's same day was expected at x1.85 and a clean day flagged (x0.53).
    # One occasion says the day can move, and which way, not that it will: the centre is an
    # ordinary day's, the band reaches up to x1.85, and a 35% drop still fails
    history, expected = _sweet_shop(rush=1.0)
    (diwali_2024,), (diwali_2025,) = festival_days("Diwali", 2024), festival_days("Diwali", 2025)
    one_off = {diwali_2024 - timedelta(days=k) for k in range(3, 11)}
    history = [Point(p.at, p.value * (1.8 if p.at.date() in one_off else 1.0)) for p in history]
    cal = HolidayCalendar(country="GB", subdiv="ENG")
    day = diwali_2025 - timedelta(days=5)
    target = datetime(day.year, day.month, day.day)
    past = [p for p in history if p.at < target]
    assert volume_model._earned_festivals(past, cal) == ("Diwali",)
    fc = forecast(past, target, calendar_=cal)
    assert judge(fc, expected[target]).passed, (fc.baseline, fc.lower, fc.upper, expected[target])
    assert judge(fc, 1.6 * expected[target]).passed  # its days may move as they did (a doubled day still fails)
    assert not judge(fc, 0.65 * expected[target]).passed


def test_no_festival_is_earned_where_the_history_shows_none():
    # the same shop without a Diwali rush, over seeds: no festival is tried into its seasons
    cal = HolidayCalendar(country="GB", subdiv="ENG")
    for seed in range(6):
        history, _ = _sweet_shop(rush=1.0, seed=seed)
        assert volume_model._earned_festivals(history, cal) == (), seed
    # ... nor on a level that moved for good inside its weeks (x0.7 from 12 October 2025): the days
    # after the step stand out of the weeks before only, which is a shift's case, not a festival's
    history, _ = _sweet_shop(rush=1.0)
    stepped = [Point(p.at, p.value * (0.7 if p.at >= datetime(2025, 10, 12) else 1.0)) for p in history]
    assert volume_model._earned_festivals([p for p in stepped if p.at < datetime(2025, 10, 24)], cal) == ()


def test_a_festival_in_the_estates_own_calendar_is_not_tried_again():
    # India's calendar holds Diwali (its own holiday, with its neighbourhood); Singapore's holds
    # Lunar New Year and Diwali (as Deepavali or Diwali); a calendar lacking both tries both
    window = (date(2024, 6, 1), date(2025, 12, 31))
    assert "Diwali" not in HolidayCalendar(country="IN").festivals_tried(*window)
    assert not {"Diwali", "Lunar New Year"} & set(HolidayCalendar(country="SG").festivals_tried(*window))
    assert {"Diwali", "Lunar New Year"} <= set(HolidayCalendar(country="GB").festivals_tried(*window))
    # an earned festival's days are a season by their offset; the festival's first day is "+0d"
    cal = HolidayCalendar(country="GB", festivals=("Diwali",))
    assert cal.season(date(2025, 10, 19))[0] == "Diwali -1d"
    assert cal.season(date(2025, 10, 20))[0] == "Diwali +0d"
    assert cal.season(date(2025, 10, 1)) == ("", 0)


# a 13-period fiscal year: each point four weeks' takings, dated on the period's closing Sunday; the
# period holding Christmas at x1.4, the one after it (dry January) at x0.7, and the fourth year a
# 53-week one whose last (13th) period holds five weeks
_FOUR_WEEK_SEASON = [1.0, 1.05, 1.1, 1.15, 1.15, 1.1, 1.05, 1.0, 1.0, 1.4, 0.7, 0.9, 0.95]


def _four_weekly(seed: int = 3, noise: float = 0.02) -> list[Point]:
    rng = random.Random(seed)
    points, start = [], date(2022, 4, 2)  # a Saturday: each period runs Saturday to its closing Friday
    for i in range(56):
        position = i % 13
        weeks = 5 if i == 51 else 4  # the 53-week year's last period
        end = start + timedelta(weeks=weeks) - timedelta(days=1)
        value = 280_000 * weeks / 4 * _FOUR_WEEK_SEASON[position] * math.exp(rng.gauss(0, noise))
        points.append(Point(datetime(end.year, end.month, end.day), value))
        start = end + timedelta(days=1)
    return points


def test_a_four_weekly_series_reads_its_year_by_period_not_by_calendar_month():
    # the period after Christmas closes in late January or early February as the years drift, and
    # the Christmas period itself in late December or early January: read by calendar month, January
    # mixes the two (x1.4 and x0.7) and a clean dry January fails
    points = _four_weekly()
    history, (dry,) = points[:49], [points[49]]
    assert _FOUR_WEEK_SEASON[49 % 13] == 0.7
    fc = forecast(history, dry.at)
    assert fc.group == "period of the year"
    assert judge(fc, dry.value).passed
    assert not judge(fc, dry.value * 0.65).passed and not judge(fc, dry.value * 1.5).passed
    # the 53rd week: a period of five weeks is read by its length (x1.25 the rows), not as a spike
    history, (long_period,) = points[:51], [points[51]]
    fc = forecast(history, long_period.at)
    assert judge(fc, long_period.value).passed
    assert not judge(fc, long_period.value * 0.8).passed  # a week's rows missing


def test_a_period_of_the_year_is_read_only_on_a_series_dated_every_whole_number_of_weeks():
    def dated(days: list[int]) -> list[Point]:
        at = datetime(2023, 1, 1)
        out = [Point(at, 1.0)]
        for d in days:
            at += timedelta(days=d)
            out.append(Point(at, 1.0))
        return out

    cycle = volume_model._whole_week_cycle
    assert cycle(dated([28] * 20), 28) == 13
    assert cycle(dated([28] * 19 + [35]), 28) == 13  # a 53rd week
    assert cycle(dated([14] * 40), 14) == 26
    assert cycle(dated([7] * 60), 7) is None  # weekly: its weeks of the year
    assert cycle(dated([31, 28, 31, 30, 31, 30] * 3), 30.5) is None  # month-ends
    assert cycle(dated([28, 28, 35] * 8), 28) is None  # a 4-4-5 calendar: its months
    assert cycle(dated([28] * 19 + [29]), 28) is None  # not whole weeks
    # a month-end series keeps its months' reading, whatever its season
    history = _gl_history()
    fc = forecast(history[:-1], history[-1].at)
    assert "period_of_year" not in fc.features


def _desk_hours(seed: int, holidays: dict[date, str], until: datetime, eve: float = 0.8,
                backlog: float = 1.35) -> tuple[list[Point], HolidayCalendar]:
    """A registration desk's rows per hour (UTC), 08:00-15:00 Sunday to Friday, closed on Saturdays (its
    weekly day off, where the calendar's weekend is Saturday-Sunday) and on `holidays` (no partitions on
    closed days); the first open day after a closure holding an open weekday x`backlog`, the two open
    days before a closure of two open weekdays or more x`eve`. Poisson counts of about 150 an hour."""
    cal = HolidayCalendar(dates=holidays)
    rng = np.random.default_rng(seed)
    first = date(2026, 1, 4)
    days = [first + timedelta(days=k) for k in range((until.date() - first).days + 1)]
    open_days = [d for d in days if d.weekday() != 5 and d not in holidays]
    factor = dict.fromkeys(open_days, 1.0)
    for before, after in itertools.pairwise(open_days):
        closed = [before + timedelta(days=k) for k in range(1, (after - before).days)]
        if any(d.weekday() != 5 for d in closed):
            factor[after] = backlog
        if sum(d.weekday() != 5 for d in closed) >= 2:
            back = [d for d in open_days if d <= before][-2:]
            for d in back:
                factor[d] *= eve
    points = []
    for d in open_days:
        for hour in range(8, 16):
            at = datetime(d.year, d.month, d.day, hour)
            if at >= until:
                return points, cal
            mean = (100 + 80 * math.exp(-((hour - 10) / 2.5) ** 2)) * factor[d]
            points.append(Point(at, float(rng.poisson(mean * math.exp(rng.normal(0, 0.04))))))
    return points, cal


# Friday holidays (the desk's Sunday after them carries the backlog), a Tuesday one, and a closure of
# four open days (Sunday to Wednesday) whose Thursday and Friday before are quieter
_DESK_HOLIDAYS = {date(2026, 1, 16): "Founders' Day", date(2026, 2, 6): "Flag Day", date(2026, 2, 24): "Lantern Day",
                  date(2026, 3, 8): "Festival", date(2026, 3, 9): "Festival", date(2026, 3, 10): "Festival",
                  date(2026, 3, 11): "Festival", date(2026, 3, 27): "Harvest Day"}


def test_the_day_after_a_closure_is_read_from_the_partitions_in_open_days():
    """A desk open Sunday to Friday, closed on Saturdays and its holidays: after a Friday holiday the
    backlog (x1.35) comes on the Sunday, the first open day, which the calendar's Saturday-Sunday
    weekend would call a day off (main: the Sunday unlabelled, 10:00 at ~1.35x its baseline, and the
    past backlogs put on Mondays). The closures are read from the days without partitions: the Sunday
    after Harvest Day (29 March) is the fourth such day, its 10:00 expected at x1.35, and a 35% drop
    fails."""
    target = datetime(2026, 3, 29, 10)
    history, cal = _desk_hours(3, _DESK_HOLIDAYS, target)
    fc = forecast(history, target, grain="hour", calendar_=cal)
    usual = (100 + 80) * 1.35
    assert "near:a holiday 10h +1d" in fc.group, fc.group
    assert fc.baseline == pytest.approx(usual, rel=0.1), fc.group
    assert judge(fc, usual).passed and not judge(fc, 0.65 * usual).passed


def test_a_long_closures_eves_seen_once_are_one_neighbourhood():
    """The two open days before a closure of four open days read x0.6 (people leave before the
    festival); the history holds one such closure (8-11 March), whose two eves are one neighbourhood
    (two days of evidence). Before the next one (12-15 April, from the calendar: its days have no
    partitions yet) the Friday's 10:00 is expected at x0.6 and passes (main: 0.6x below its band at
    0.71x), and an empty hour still fails."""
    holidays = {**_DESK_HOLIDAYS, **{date(2026, 4, 12 + k): "Festival" for k in range(4)}}
    target = datetime(2026, 4, 10, 10)
    history, cal = _desk_hours(4, holidays, target, eve=0.6)
    fc = forecast(history, target, grain="hour", calendar_=cal)
    usual = 100 + 80
    assert judge(fc, 0.6 * usual).passed, (fc.group, fc.lower / usual)
    assert not judge(fc, 0.0).passed
    assert "near:the open days before a long closure -2d" in fc.group, fc.group
    eves = volume_model._long_closure_eves([q.at.date() for q in history], target.date(), cal)
    assert eves is not None and eves[target.date()] == 1 and eves[date(2026, 4, 9)] == 2, eves


def test_a_desk_that_never_closes_an_open_day_reads_the_calendar_as_before():
    """The same desk without holidays: no open weekday ever lacks its partitions, so no closure is read
    from them (the calendar's holidays are, as before) and no long closure's eve is labelled."""
    target = datetime(2026, 3, 29, 10)
    history, cal = _desk_hours(3, {}, target)
    days = [q.at.date() for q in history]
    assert volume_model._after_closure_days(days, target.date()) is None
    assert volume_model._long_closure_eves(days, target.date(), cal) is None
    fc = forecast(history, target, grain="hour", calendar_=cal)
    assert "near:" not in fc.group, fc.group


def _bursty(days: int = 400, seed: int = 6, bursts: bool = True, dips: bool = False) -> list[Point]:
    """Weekday-shaped daily rows with 4% noise; on one day in 30 a customer's backfill
    lifts the day x1.3-1.6 (`bursts`), or it reads x1.4 and x0.7 in turn (`dips`: a misfit, both ways)."""
    rng = random.Random(seed)
    history = _daily_noise(days, 0.04, seed)
    out = []
    for i, q in enumerate(history):
        value = q.value
        if i % 30 == 17:
            if bursts:
                value *= rng.uniform(1.3, 1.6)
            elif dips:
                value *= 1.4 if (i // 30) % 2 else 0.7
        out.append(Point(q.at, round(value)))
    return out


def test_a_history_of_one_day_bursts_widens_the_upper_side_only_and_a_double_still_fails():
    history = _bursty()
    target = history[-1].at + timedelta(days=1)
    fc = forecast(history, target)
    # a backfill like the ones seen passes (main: x1.45 above a band to x1.26); a doubled day and a 25%
    # drop still fail
    assert judge(fc, fc.baseline * 1.45).passed, fc.upper / fc.baseline
    assert any("one-day bursts" in n for n in fc.notes), fc.notes
    assert not judge(fc, fc.baseline * 2.0).passed
    assert not judge(fc, fc.baseline * 0.75).passed


@pytest.mark.parametrize("case", ["no bursts", "both ways"])
def test_no_upper_tail_where_the_history_has_no_bursts_or_errs_both_ways(monkeypatch: pytest.MonkeyPatch, case: str):
    history = _bursty(bursts=False, dips=case == "both ways")
    target = history[-1].at + timedelta(days=1)
    fc = forecast(history, target)
    monkeypatch.setattr(volume_model, "_upper_tail", lambda fit, special: None)
    ref = forecast(history, target)
    assert not any("one-day bursts" in n for n in fc.notes)
    assert (fc.baseline, fc.lower, fc.upper) == (ref.baseline, ref.lower, ref.upper)


def _rollover_weeks(seed: int, dips: bool = False) -> list[Point]:
    """Three years of weekly sales at 3% noise; between five and twelve ordinary weeks apart, a rollover of
    two to five weeks in no calendar climbs to x1.2-x1.5 and is won (sales back at the floor); `dips`: each
    run's weeks read as often below as above (a misfit, both ways)."""
    rng = random.Random(seed)
    lifts, i = [1.0] * 156, 0
    while i < 156:
        i += rng.randint(5, 12)
        run, top = rng.randint(2, 5), rng.uniform(1.2, 1.5)
        for k in range(min(run, 156 - i)):
            lift = 1 + (top - 1) * (k + 1) / run
            lifts[i + k] = 1 / lift if dips and rng.random() < 0.5 else lift
        i += run
    return [Point(datetime(2023, 1, 2) + timedelta(weeks=w), round(100_000 * lifts[w] * math.exp(rng.gauss(0, 0.03))))
            for w in range(156)]


@pytest.mark.parametrize("seed", [1, 5])
def test_upward_bursts_of_a_weekly_series_leave_its_lower_side_to_the_ordinary_weeks(seed: int):
    """The rollovers lift the level window and swell the errors both ways: main's band reached x0.70-0.75 of a
    level above the floor, and a week 25% below the floor passed. Its lower side now reads the ordinary weeks'
    level and noise; the centre and the upper side are the model's (a rollover's week passes as before), and a
    doubled week still fails."""
    history = _rollover_weeks(seed)
    target = history[-1].at
    fc = forecast(history[:-1], target)
    assert not judge(fc, 75_000).passed, (fc.lower, fc.baseline)
    assert any("upward bursts" in n for n in fc.notes), fc.notes
    assert judge(fc, history[-1].value).passed
    assert not judge(fc, 2 * history[-1].value).passed


@pytest.mark.parametrize("seed", [1, 5])
def test_bursts_both_ways_keep_the_band(monkeypatch: pytest.MonkeyPatch, seed: int):
    """A weekly series whose runs err as often below as above is no burst history: its band is the model's to
    the last digit."""
    history = _rollover_weeks(seed, dips=True)
    target = history[-1].at
    fc = forecast(history[:-1], target)
    monkeypatch.setattr(volume_model, "_upward_bursts", lambda fit, special, level_points: None)
    ref = forecast(history[:-1], target)
    assert not any("upward bursts" in n for n in fc.notes)
    assert (fc.baseline, fc.lower, fc.upper) == (ref.baseline, ref.lower, ref.upper)


def _hotline(start: datetime, hours: int, seed: int = 5) -> list[Point]:
    """A line open every hour: a few calls a night (three at 04:00), sixty an hour by day, Poisson."""
    rng = np.random.default_rng(seed)
    night = {1: 5.0, 2: 4.0, 3: 3.0, 4: 3.0, 5: 4.0, 6: 8.0}
    return [Point(start + timedelta(hours=i), float(rng.poisson(night.get((start + timedelta(hours=i)).hour, 60.0))))
            for i in range(hours)]


def test_an_unseen_holiday_hour_of_a_few_calls_is_judged_by_its_counts_not_the_ceiling():
    """A holiday the four weeks of history never held, read from its hours so far: its band was the
    ceiling's 0.70x-1.43x, made for thousands of rows, on a night hour of three calls, so a clean
    night failed every other hour (1.6x, 0.5x, empty: Good Friday on a health hotline). It now
    reaches as far as a clean hour of that size counts, as an ordinary night's does, and the hour's
    past empties are the ordinary hour's; a business hour keeps its band (a double, a half and an
    empty one fail)."""
    cal = HolidayCalendar(dates={date(2026, 3, 30): "founders_day"})
    start = datetime(2026, 3, 2)
    history = _hotline(start, 24 * 28 + 4)
    assert any(q.value == 0 and q.at.hour == 4 for q in history)  # (the ordinary 04:00 was empty before)
    fc = forecast(history, datetime(2026, 3, 30, 4), grain="hour", calendar_=cal)
    assert "founders_day" in fc.group and "hours so far" in fc.notes[-1], (fc.group, fc.notes)
    for calls in (0, 1.6 * fc.baseline, 0.5 * fc.baseline):
        assert judge(fc, calls).passed, calls / fc.baseline  # each failed on main at the ceiling
    assert not judge(fc, 6 * fc.baseline).passed
    day = _hotline(start, 24 * 28 + 11)
    fc = forecast(day, datetime(2026, 3, 30, 11), grain="hour", calendar_=cal)
    assert "hours so far" in fc.notes[-1], fc.notes
    assert judge(fc, 60).passed
    assert not any(judge(fc, v).passed for v in (0, 120, 30))


def test_an_unseen_holiday_hour_of_thousands_of_calls_keeps_the_ceiling():
    """The same night at a hundred times the calls: counting explains no 1.6x, so the band stays the
    ceiling's and the 1.6x hour fails as before."""
    cal = HolidayCalendar(dates={date(2026, 3, 30): "founders_day"})
    history = [Point(q.at, 100 * q.value + 300) for q in _hotline(datetime(2026, 3, 2), 24 * 28 + 4)]
    fc = forecast(history, datetime(2026, 3, 30, 4), grain="hour", calendar_=cal)
    assert "hours so far" in fc.notes[-1], fc.notes
    assert fc.lower / fc.baseline >= 0.69 and fc.upper / fc.baseline <= 1.44
    assert not judge(fc, 1.6 * fc.baseline).passed and not judge(fc, 0).passed


def _quarter_push(push: float, seed: int = 31, days: int = 560) -> tuple[list[Point], dict[datetime, float]]:
    """A B2B seller's signed deals per day on a fiscal year closing in June (quarters closing 30
    September, 31 December, 31 March and 30 June): the quarter's last ten days x`push` with their
    weekends worked (x0.5 of a weekday where ordinary weekends are x0.2), the five days after a close
    x0.8 (x1.0: no push, nothing after); 5% noise, +20% a year. Also each day's mean."""
    rng = random.Random(seed)
    ends = [date(y, m, calendar.monthrange(y, m)[1]) for y in (2024, 2025, 2026) for m in (3, 6, 9, 12)]
    out, expected = [], {}
    for i in range(days):
        d = date(2024, 9, 1) + timedelta(days=i)
        at = datetime(d.year, d.month, d.day)
        to_end = min((e - d).days for e in ends if e >= d)
        since = min((d - e).days for e in ends if e < d) if any(e < d for e in ends) else 99
        weekend = d.weekday() >= 5
        mean = 2_000 * math.exp(math.log(1.2) * i / 365) * (0.2 if weekend else 1.0)
        if push > 1 and to_end < 10:
            mean *= push * (0.5 / 0.2 if weekend else 1.0)
        elif push > 1 and 1 <= since <= 5:
            mean *= 0.8
        expected[at] = mean
        out.append(Point(at, round(mean * math.exp(rng.gauss(0, 0.05)))))
    return out, expected


def test_a_quarter_close_is_read_as_a_season_where_the_history_shows_one():
    # a push over the quarter's last days, its weekends worked: on main the push's Saturday was read as
    # an ordinary Saturday (x0.2) and failed at 3.6x, the second day after the close at the push's level;
    # earned, each day compares with the same week of past closes and the same kind of day
    history, expected = _quarter_push(push=1.4)
    cal = HolidayCalendar(fiscal_year_end=6)
    saturday = datetime(2025, 12, 27)  # four days before the 31 December close
    past = [p for p in history if p.at < saturday]
    assert volume_model._earned_closes(past, cal) == ("Quarter close",)  # (one year close: read as a quarter's)
    fc = forecast(past, saturday, calendar_=cal)
    assert "season:Quarter close -1w (weekend)" in fc.group.split(", "), fc.group
    assert judge(fc, expected[saturday]).passed, (fc.baseline, expected[saturday])
    assert not judge(fc, 0.65 * expected[saturday]).passed  # a 35% drop on it
    after = datetime(2026, 1, 2)  # a Friday, two days after the close (New Year's Day, no holiday here)
    fc = forecast([p for p in history if p.at < after], after, calendar_=cal)
    assert "season:Quarter close +2d" in fc.group.split(", "), fc.group
    assert judge(fc, expected[after]).passed, (fc.baseline, expected[after])
    assert not judge(fc, 2 * expected[after]).passed  # duplicated


def test_no_close_is_earned_where_the_history_shows_none():
    # the same seller without a push: its quarter ends are tried and none is earned, over seeds, and the
    # forecast is the one it would be without the rule
    cal = HolidayCalendar(fiscal_year_end=6)
    for seed in range(3):
        history, _ = _quarter_push(push=1.0, seed=seed)
        assert volume_model._earned_closes(history, cal) == (), seed
    history, _ = _quarter_push(push=1.0)
    # ... nor where one close alone stood out (a December rush before Christmas): a close recurs
    once = [Point(p.at, p.value * (1.5 if date(2024, 12, 20) <= p.at.date() <= date(2024, 12, 31) else 1.0))
            for p in history]
    assert volume_model._earned_closes(once, cal) == ()
    target = datetime(2025, 12, 27)
    fc = forecast([p for p in history if p.at < target], target, calendar_=cal)
    assert "Quarter close" not in fc.group and "season" not in fc.group, fc.group


def test_a_close_season_is_named_by_week_and_kind_of_day():
    # the last two weeks of a fiscal quarter and the week after, a working day by its offset, a weekend day
    # by its week (the close's own day in the "-1w"); the year's
    # close apart; a January fiscal year closes its quarters on 30 April, 31 July, 31 October, 31 January
    cal = HolidayCalendar(fiscal_year_end=1, closes=("Quarter close", "Year close"))
    assert cal.season(date(2026, 4, 30))[0] == "Quarter close +0d"
    assert cal.season(date(2026, 4, 24))[0] == "Quarter close -6d"
    assert cal.season(date(2026, 4, 18))[0] == "Quarter close -2w (weekend)"
    assert cal.season(date(2026, 4, 26))[0] == "Quarter close -1w (weekend)"
    assert cal.season(date(2026, 4, 16)) == ("", 0)
    assert cal.season(date(2026, 5, 1))[0] == "Quarter close +1d"
    assert cal.season(date(2026, 5, 8)) == ("", 0)
    assert cal.season(date(2027, 1, 30))[0] == "Year close -1w (weekend)"
    assert cal.season(date(2026, 4, 20))[1] == cal.season(date(2026, 5, 7))[1]  # one occasion
    assert HolidayCalendar(fiscal_year_end=1).season(date(2026, 4, 30)) == ("", 0)  # not earned: no season
    # a year's close not earned on its own is one of the quarters' closes
    assert HolidayCalendar(fiscal_year_end=1, closes=("Quarter close",)).season(date(2027, 1, 30))[0] \
        == "Quarter close -1w (weekend)"


def _closed_on_holidays(closes: bool, end: date, seed: int = 3) -> tuple[list[Point], HolidayCalendar]:
    """A B2B service's rows per day in Singapore with 5% noise, Saturdays x0.4 and Sundays x0.3; on a
    holiday the business closes to x0.35 whatever the weekday (`closes`), or a holiday is x0.35 of its
    own weekday (a ratio on top)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="SG")
    out, day = [], date(2025, 3, 3)
    while day < end:
        shape = {5: 0.4, 6: 0.3}.get(day.weekday(), 1.0)
        factor = (0.35 if closes else 0.35 * shape) if cal.name(day) else shape
        out.append(Point(datetime(day.year, day.month, day.day), round(4000 * factor * math.exp(rng.gauss(0, 0.05)))))
        day += timedelta(days=1)
    return out, cal


@pytest.mark.parametrize("target", [date(2026, 3, 21), date(2026, 6, 1)])
def test_a_business_closed_on_its_holidays_reads_a_holiday_on_a_light_day_as_the_holidays_level(target: date):
    """Eid al-Fitr 2026 on a Saturday, seen once before on a Monday (x0.35), and Vesak Day observed on
    Monday 1 June 2026, seen on a Monday and the Sunday before: the holiday closes the day once, not on
    top of the weekend's (main: x0.35 times a Saturday's x0.4; the Sunday's ratio averaged in)."""
    history, cal = _closed_on_holidays(True, target)
    fc = forecast(history, datetime(target.year, target.month, target.day), calendar_=cal)
    assert any("read as a level" in n for n in fc.notes), fc.notes
    assert judge(fc, 4000 * 0.35).passed, (fc.baseline, fc.lower, fc.upper)
    assert not judge(fc, 4000 * 0.35 * 2).passed
    assert not judge(fc, 4000 * 0.35 * 0.65).passed


def test_holidays_on_top_of_their_weekday_keep_the_ratio(monkeypatch: pytest.MonkeyPatch):
    """The same service whose holidays are x0.35 of their own weekday: the history's holidays do not fall
    with their weekday's effect, so the band is the ratio's to the last digit."""
    target = date(2026, 3, 21)
    history, cal = _closed_on_holidays(False, target)
    at = datetime(target.year, target.month, target.day)
    fc = forecast(history, at, calendar_=cal)
    monkeypatch.setattr(volume_model, "_holiday_as_level", lambda fit, target_feats, named, target_named="": None)
    ref = forecast(history, at, calendar_=cal)
    assert not any("read as a level" in n for n in fc.notes)
    assert (fc.baseline, fc.lower, fc.upper) == (ref.baseline, ref.lower, ref.upper)
    assert judge(fc, 4000 * 0.35 * 0.4).passed


def _surgery(end: date, seed: int, remembrance_2024: float = 0.05) -> tuple[list[Point], HolidayCalendar]:
    """A hospital's scheduled surgery per day in Argentina from 1 January 2024, 5% noise: weekdays 1.0,
    Saturday x0.2, Sunday x0.05 (closed but for a few), and every holiday x0.05 whatever its weekday;
    the Day of Remembrance 2024, a Sunday, at `remembrance_2024`."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="AR")
    out, day = [], date(2024, 1, 1)
    while day < end:
        factor = 0.05 if cal.name(day) else {5: 0.2, 6: 0.05}.get(day.weekday(), 1.0)
        factor = remembrance_2024 if day == date(2024, 3, 24) else factor
        out.append(Point(datetime(day.year, day.month, day.day), round(2000 * factor * math.exp(rng.gauss(0, 0.05)))))
        day += timedelta(days=1)
    return out, cal


@pytest.mark.parametrize(("seed", "remembrance_2024"), [(1, 0.05), (2, 0.05), (3, 0.05), (1, 0.1)])
def test_a_holiday_seen_only_on_a_closed_day_reads_as_the_holidays_level(seed: int, remembrance_2024: float):
    """The Day of Remembrance fell on a Sunday in 2024 (closed anyway: its one occasion shows no effect,
    or a Sunday's noise, twice its few rows) and on a Monday in 2025: a service that closes on its
    holidays closes on it too (main: read as a plain Monday, 0.05x of its baseline, and a Monday worked
    as usual passed; with the busy Sunday, that Sunday's x2 on a Monday)."""
    target = date(2025, 3, 24)
    history, cal = _surgery(target, seed, remembrance_2024)
    assert cal.name(date(2024, 3, 24)) == cal.name(target) and date(2024, 3, 24).weekday() == 6
    fc = forecast(history, datetime(target.year, target.month, target.day), calendar_=cal)
    assert any("read as a level" in n for n in fc.notes), fc.notes
    assert judge(fc, 2000 * 0.05).passed, (fc.baseline, fc.lower, fc.upper)
    assert not judge(fc, 2000 * 0.05 * 2).passed
    assert not judge(fc, 2000 * 0.05 * 0.65).passed
    assert not judge(fc, 2000).passed


def test_a_holiday_seen_only_inside_a_break_reads_as_the_holidays_level():
    """A school canteen's orders per day (Brazil; school days 1.0, weekends x0.04, the declared summer
    break x0.06, every holiday x0.05): Carnival 2024 fell inside the break (12-13 February), Carnival 2025
    on school days (3-4 March). Its occasions show the break's level, not the holiday's: the Monday is
    read at the level of the holidays seen on school days (main: a plain Monday, 0.05x of its baseline)."""
    rng = random.Random(2)
    carnival = {date(2024, 2, 12): "Carnaval", date(2024, 2, 13): "Carnaval", date(2025, 3, 3): "Carnaval",
                date(2025, 3, 4): "Carnaval"}
    breaks = [(date(2023, 12, 20), date(2024, 2, 14)), (date(2024, 7, 13), date(2024, 7, 28)),
              (date(2024, 12, 20), date(2025, 2, 9))]
    cal = HolidayCalendar(country="BR", dates=carnival, breaks={"Férias escolares": breaks})
    target = date(2025, 3, 3)
    history, day = [], date(2024, 1, 1)
    while day < target:
        factor = (0.04 if day.weekday() >= 5 else 0.06 if any(a <= day <= b for a, b in breaks)
                  else 0.05 if cal.name(day) else 1.0)
        history.append(Point(datetime(day.year, day.month, day.day), round(4000 * factor * math.exp(rng.gauss(0, 0.05)))))
        day += timedelta(days=1)
    fc = forecast(history, datetime(target.year, target.month, target.day), calendar_=cal)
    assert any("read as a level" in n for n in fc.notes), fc.notes
    assert judge(fc, 4000 * 0.05).passed, (fc.baseline, fc.lower, fc.upper)
    assert not judge(fc, 4000 * 0.05 * 2).passed
    assert not judge(fc, 4000 * 0.05 * 0.65).passed


def test_a_holiday_seen_only_on_a_closed_day_keeps_the_weekday_where_holidays_are_ordinary():
    """The same service open on its holidays (they are its weekdays): the Day of Remembrance on a Monday
    is a Monday, and no level is read."""
    target = date(2025, 3, 24)
    rng = random.Random(1)
    cal = HolidayCalendar(country="AR")
    history, day = [], date(2024, 1, 1)
    while day < target:
        factor = {5: 0.2, 6: 0.05}.get(day.weekday(), 1.0)
        history.append(Point(datetime(day.year, day.month, day.day), round(2000 * factor * math.exp(rng.gauss(0, 0.05)))))
        day += timedelta(days=1)
    fc = forecast(history, datetime(target.year, target.month, target.day), calendar_=cal)
    assert not any("read as a level" in n for n in fc.notes), fc.notes
    assert judge(fc, 2000).passed, (fc.baseline, fc.lower, fc.upper)


def _sunday_opening(days: int, opening_at: int, seed: int) -> list[Point]:
    """A bakery chain's receipts per day from Monday 3 June 2024, no holiday calendar: weekdays 1.0,
    Friday x1.05, Saturday x1.3; on Sundays only the centre shops open (x0.6) until day `opening_at`,
    when the neighbourhood shops begin opening on Sunday mornings too (x0.87 from then on). 3% noise."""
    rng = random.Random(seed)
    week = [1.0, 1.0, 1.0, 1.0, 1.05, 1.3]
    out = []
    for i in range(days):
        d = date(2024, 6, 3) + timedelta(days=i)
        f = week[d.weekday()] if d.weekday() < 6 else 0.6 if i < opening_at else 0.87
        out.append(Point(datetime(d.year, d.month, d.day), round(8_000 * f * math.exp(rng.gauss(0, 0.03)))))
    return out


@pytest.mark.parametrize("day", [date(2025, 12, 7), date(2026, 3, 22)])
def test_a_sunday_opening_begun_in_the_history_is_no_season_to_expect_a_year_later(day: date):
    """The Sundays opened from day 307 (6 April 2025): eight months to a year on, the same weeks a year
    earlier held the old Sundays (main: read as a season's weekly shape, x0.70 of the year's Sunday,
    the new Sundays above the band at 1.35-1.5x)."""
    history = _sunday_opening(700, 307, seed=5)
    i = (day - date(2024, 6, 3)).days
    fc = forecast(history[i - 400:i], history[i].at)
    assert fc.group == "Sun" and fc.baseline == pytest.approx(8_000 * 0.87, rel=0.08), fc.baseline
    assert judge(fc, history[i].value).passed, (fc.lower, fc.upper, history[i].value, fc.notes)
    assert not judge(fc, 0.65 * history[i].value).passed and not judge(fc, 2 * history[i].value).passed
    assert not any("weekly shape of their own" in n for n in fc.notes), fc.notes
    assert any("Sun share changed" in n for n in fc.notes), fc.notes


def test_a_season_seen_a_year_ago_is_no_share_changed_once(monkeypatch: pytest.MonkeyPatch):
    """The ski resort's winter weekends: last winter's shape returns to the off-season's after it (or
    comes back this winter), so no weekday's share at the history's start changed once for good where
    a season's shape is read, and the season is still expected."""
    history = _lift_passes(600)
    real, read = volume_model._changed_once, []
    monkeypatch.setattr(volume_model, "_changed_once", lambda *args: read.append(real(*args)) or read[-1])
    for day in (date(2024, 12, 21), date(2025, 3, 11), date(2025, 6, 14)):
        fc, point = _lift_forecast(history, day)
        assert judge(fc, point.value).passed, (day, fc.notes)
    assert read and not any(read), read


def _shop_opening_on_sundays(days: int, opening_at: int, seed: int = 3, sunday_closed: float = 1.0) -> list[Point]:
    """A neighbourhood shop's receipts per day from Monday 3 June 2024: 500 a weekday (5% noise); closed
    on Sundays (no receipts) until day `opening_at`, then open on Sunday mornings (x0.55). With
    `sunday_closed` below one, a Sunday is closed only that often (by chance), before and after."""
    rng = random.Random(seed)
    out = []
    for i in range(days):
        d = date(2024, 6, 3) + timedelta(days=i)
        f = 1.0
        if d.weekday() == 6:
            f = 0.0 if (i < opening_at if sunday_closed >= 1 else rng.random() < sunday_closed) else 0.55
        out.append(Point(datetime(d.year, d.month, d.day), round(500 * f * math.exp(rng.gauss(0, 0.05)))))
    return out


def test_a_weekday_opened_for_good_no_longer_expects_its_old_empty_days():
    """Closed on Sundays for 43 weeks, open on the 10 since (the 11th is the target): an empty Sunday is a missing load now
    (main: "empty as usual", its old closed Sundays a third of them or more)."""
    history = _shop_opening_on_sundays(371, 300)
    target = history[-1]
    assert target.at.weekday() == 6 and target.value > 0
    fc = forecast(history[:-1], target.at)
    assert judge(fc, target.value).passed
    assert not judge(fc, 0).passed and not fc.empty_is_normal


def test_a_weekday_closed_as_ever_or_empty_by_chance_still_expects_empty_days(monkeypatch: pytest.MonkeyPatch):
    real, read = volume_model._opened_for_good, []
    monkeypatch.setattr(volume_model, "_opened_for_good", lambda *args: read.append(real(*args)) or read[-1])
    closed = _shop_opening_on_sundays(371, 10_000)  # closed on every Sunday
    assert judge(forecast(closed[:-1], closed[-1].at), 0).passed
    by_chance = _shop_opening_on_sundays(372, 0, sunday_closed=0.4)  # a Sunday closed two weeks in five
    sundays = [i for i, q in enumerate(by_chance) if q.at.weekday() == 6 and i >= 200]
    for i in sundays[-3:]:
        fc = forecast(by_chance[:i], by_chance[i].at)
        assert judge(fc, 0).passed, (by_chance[i].at, fc.notes)
    assert read and not any(read), read


_FEAST = {date(2022, 4, 14): "Feast", date(2023, 4, 4): "Feast", date(2024, 4, 23): "Feast",
          date(2025, 4, 12): "Feast"}  # a moving festival: a Thursday, two Tuesdays, then a Saturday


def _feast_weeks(cal: HolidayCalendar, lift: float, seed: int = 7, weeks: int = 176,
                 closed: bool = True) -> list[Point]:
    """Weekly orders (Monday weeks, Monday to Friday open, 3% noise) of a shop closed on the calendar's
    holidays (`closed`), its five days before each at x`lift` (the festival meal's shopping)."""
    rng = random.Random(seed)
    out = []
    for i in range(weeks):
        monday = date(2022, 1, 3) + timedelta(weeks=i)
        total = 0.0
        for k in range(7):
            day = monday + timedelta(days=k)
            if cal.is_weekend(day) or (closed and cal.name(day)):
                continue
            total += lift if any(cal.name(day + timedelta(days=j)) for j in range(1, 6)) else 1.0
        out.append(Point(datetime(monday.year, monday.month, monday.day),
                         round(2_000 * total * math.exp(rng.gauss(0, 0.03)))))
    return out


def test_a_week_is_read_by_the_festival_days_and_eves_it_holds():
    # the festival's week held its closed day and some eves in past years (x0.98-1.34); in 2025 it falls
    # on a Saturday and the week holds its five eves and no closed day: x1.9
    cal = HolidayCalendar(dates=_FEAST)
    history = _feast_weeks(cal, 1.9)
    target = datetime(2025, 4, 7)
    value = next(q.value for q in history if q.at == target)
    fc = forecast([q for q in history if q.at < target], target, calendar_=cal)
    assert judge(fc, value).passed  # main: its label indistinct (x0.98-1.34), an ordinary week: 1.95x fails
    assert not judge(fc, value * 0.65).passed
    assert any("holidays and eves it holds" in note for note in fc.notes)


def test_a_weekly_series_whose_holidays_move_nothing_keeps_its_forecast(monkeypatch: pytest.MonkeyPatch):
    cal = HolidayCalendar(dates=_FEAST)
    history = _feast_weeks(cal, 1.0, seed=8, closed=False)  # open on the festival, no rush: ordinary weeks
    target = datetime(2025, 4, 7)
    with_rule = forecast([q for q in history if q.at < target], target, calendar_=cal)
    monkeypatch.setattr(volume_model, "_week_days", lambda *args, **kwargs: None)
    without = forecast([q for q in history if q.at < target], target, calendar_=cal)
    assert not any("holidays and eves it holds" in note for note in with_rule.notes)
    assert (with_rule.baseline, with_rule.lower, with_rule.upper) == (without.baseline, without.lower, without.upper)


def _campaign_days(seasons: dict[str, list[tuple[date, date]]], days: int = 700, seed: int = 19,
                   peak: float = 3.0, after: float = 0.5) -> list[Point]:
    """A shop's orders per day from 2024-01-01: weekdays 1.0, weekends x0.5, 4% noise; each occurrence of
    its configured campaign climbs steadily (log-linear) from x1.1 on its first day to `peak` on its
    last, keeping the weekly shape, and the four weeks after it run `after` (the customers' orders done)."""
    rng = random.Random(seed)
    spans = [span for spans in seasons.values() for span in spans]
    out = []
    for i in range(days):
        d = date(2024, 1, 1) + timedelta(days=i)
        f = 1.0 if d.weekday() < 5 else 0.5
        for first, last in spans:
            if first <= d <= last:
                f *= math.exp(math.log(1.1) + (math.log(peak) - math.log(1.1)) * (d - first).days / (last - first).days)
            elif 1 <= (d - last).days <= 28:
                f *= after
        out.append(Point(datetime(d.year, d.month, d.day), round(10_000 * f * math.exp(rng.gauss(0, 0.04)))))
    return out


_CAMPAIGN = {"Autumn launch": [(date(2024, 9, 2), date(2024, 10, 6)), (date(2025, 9, 8), date(2025, 10, 12))]}


def test_a_configured_season_seen_once_is_read_by_its_offset_in_it():
    """A campaign seen once climbs from x1.1 to x3 over five weeks, then four weeks at x0.5: a
    season-wide effect times the ordinary week reads its last days at its average (main: a 35% drop of
    its last Wednesday passed), and the weeks after as ordinary ones. Read as the occurrence's day at the
    same offset, on this year's weekday and level, its last days and the weeks after (its reach: they
    stood apart a year before) pass, and a 35% drop or a doubled day fails."""
    cal = HolidayCalendar(seasons=_CAMPAIGN)
    history = _campaign_days(_CAMPAIGN)
    for target_day in (date(2025, 10, 8), date(2025, 10, 11), date(2025, 10, 15), date(2025, 10, 30)):
        target = datetime(target_day.year, target_day.month, target_day.day)
        fc = forecast([q for q in history if q.at < target][-400:], target, calendar_=cal)
        value = next(q.value for q in history if q.at == target)
        assert any("Autumn launch, seen once" in n for n in fc.notes), fc.notes
        assert judge(fc, value).passed, (target_day, value / fc.baseline, fc.lower / fc.baseline, fc.upper / fc.baseline)
        assert not judge(fc, 0.65 * value).passed and not judge(fc, 2 * value).passed


def test_a_configured_season_seen_twice_or_never_is_not_read_by_offset():
    """The rule needs one occurrence in the history: none (the first campaign) or two (a longer
    history) leave the model's reading, so do the weeks after a campaign that were ordinary a year
    before, and a calendar without seasons never reaches it."""
    campaigns = {"Autumn launch": [(date(2024, 9, 2), date(2024, 10, 6)), (date(2025, 9, 8), date(2025, 10, 12)),
                                   (date(2026, 9, 7), date(2026, 10, 11))]}
    cal = HolidayCalendar(seasons=campaigns)
    history = _campaign_days(campaigns, days=1100)
    for target in (datetime(2024, 10, 3), datetime(2026, 10, 8)):
        fc = forecast([q for q in history if q.at < target], target, calendar_=cal)
        assert not any("seen once" in n and "Autumn launch" in n for n in fc.notes), fc.notes
    # the weeks after a campaign that were ordinary ones a year before are no reach of it: the model's
    history = _campaign_days(_CAMPAIGN, after=1.0)
    target = datetime(2025, 10, 22)
    fc = forecast([q for q in history if q.at < target][-400:], target, calendar_=HolidayCalendar(seasons=_CAMPAIGN))
    assert not any("days after Autumn launch" in n for n in fc.notes), fc.notes
    plain = _campaign_days({}, days=500)
    fc = forecast(plain[:-1], plain[-1].at, calendar_=HolidayCalendar())
    assert not any("seen once:" in n for n in fc.notes)


def _county_months(seed: int, backfill: float) -> tuple[list[Point], datetime, float]:
    """A fiscal year's monthly series (July x0.66, June's rush x1.6, a quarter's closes x1.15), growing 6%
    a year, 4% noise, its months 8-21 backfilled at `backfill` (unlabelled); the target: the fourth July."""
    rng = random.Random(seed)
    shape = {7: 0.66, 6: 1.6, 8: 0.75, 9: 1.15, 12: 1.15, 3: 1.15, 1: 0.85}
    ends, (y, m) = [], (2021, 7)
    for _ in range(37):
        ends.append(datetime(y, m, calendar.monthrange(y, m)[1]))
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    values = [1000 * 1.06 ** (i / 12) * shape.get(d.month, 1.0) * (backfill if 8 <= i < 22 else 1.0)
              * math.exp(rng.gauss(0, 0.04)) for i, d in enumerate(ends)]
    return [Point(a, v) for a, v in zip(ends[:-1], values[:-1])], ends[-1], values[-1]


def test_month_of_year_read_against_noise_without_a_backfills_catching_up() -> None:
    # the backfill's months in and out are runs of one-step errors the rolling level catches up on:
    # counted as noise they hid July's earned effect (main: July read as an ordinary month, 0.62x)
    hist, target, value = _county_months(22, 0.6)
    fc = forecast(hist, target)
    assert "month:Jul" in fc.group
    assert judge(fc, value).passed
    assert not judge(fc, value * 0.65).passed


def test_month_noise_unchanged_without_a_level_step(monkeypatch: pytest.MonkeyPatch) -> None:
    # no run of gross errors: the month's noise is the series' own, and the forecast is main's
    hist, target, _ = _county_months(22, 1.0)
    ours = forecast(hist, target)
    monkeypatch.setattr(volume_model, "_clipped_noise_sd", volume_model._noise_sd)
    theirs = forecast(hist, target)
    assert (ours.baseline, ours.lower, ours.upper, ours.group) == (theirs.baseline, theirs.lower, theirs.upper, theirs.group)


def _two_regions(days: int = 430) -> tuple[list[tuple[str, list[float]]], dict[str, HolidayCalendar], HolidayCalendar]:
    """Two regions' daily orders (60/40), each on its own summer school break (x0.1): a year ago both
    broke together in July; this year region a breaks in the first half of July, region b in the second."""
    start = date(2024, 6, 1)
    own = {"a": [(date(2024, 7, 1), date(2024, 7, 28)), (date(2025, 7, 1), date(2025, 7, 14))],
           "b": [(date(2024, 7, 1), date(2024, 7, 28)), (date(2025, 7, 15), date(2025, 7, 28))]}
    rng = random.Random(19)
    rows = []
    for i in range(days):
        d = start + timedelta(days=i)
        values = []
        for g, share in (("a", 600.0), ("b", 400.0)):
            level = 0.1 if any(lo <= d <= hi for lo, hi in own[g]) else 1.0
            values.append(share * level * (0.3 if d.weekday() >= 5 else 1.0) * math.exp(rng.gauss(0, 0.04)))
        rows.append((d.isoformat(), values))
    cals = {g: HolidayCalendar(breaks={"Summer break": own[g]}) for g in own}
    total_cal = HolidayCalendar(breaks={"Summer break (a)": own["a"], "Summer break (b)": own["b"]})
    return rows, cals, total_cal


def _decide_total(rows: list[tuple[str, list[float]]], target: str, values: list[float],
                  group_holidays: dict[str, HolidayCalendar] | None, total_cal: HolidayCalendar) -> CheckOutcome:
    past = [(p, v) for p, v in rows if p < target]
    groups = {g: (values[i], [(p, v[i]) for p, v in past]) for i, g in enumerate(("a", "b"))}
    return decide_volume("shop.orders", target, sum(values), [(p, sum(v)) for p, v in past], holidays=total_cal,
                         groups=groups, group_holidays=group_holidays)


def test_total_of_groups_on_their_own_breaks_is_their_sum():
    # 3 July 2025: region a on break, b at school; the total's own past has only July days with both away
    # (0.1x), so it reads this day ~5x high; the sum of the regions' forecasts holds the day's mix
    rows, cals, total_cal = _two_regions()
    target = "2025-07-03"
    clean = dict(rows)[target]
    out = _decide_total(rows, target, clean, cals, total_cal)
    assert out.passed, out.summary
    assert "sum of 2 groups" in out.metadata["comparison_group"]
    dropped = _decide_total(rows, target, [v * 0.65 for v in clean], cals, total_cal)
    assert not dropped.passed and dropped.metadata["verdict"] == "below_band", dropped.summary
    doubled = _decide_total(rows, target, [v * 2 for v in clean], cals, total_cal)
    assert not doubled.passed


def test_total_of_groups_not_read_without_group_calendars():
    # no group keeps a calendar of its own: the total is read from its own past, as before
    rows, _, total_cal = _two_regions()
    target = "2025-06-10"
    out = _decide_total(rows, target, dict(rows)[target], None, total_cal)
    assert out.passed, out.summary
    assert "sum of" not in out.metadata["comparison_group"]


def test_total_read_as_groups_sum_only_with_every_group_forecast_and_a_calendar_of_its_own():
    # one rule for the grouped check and the bench: a group too new to forecast keeps the total's own past
    assert volume_model.reads_total_as_groups_sum(groups=2, forecast=2, own_calendars=1)
    assert not volume_model.reads_total_as_groups_sum(groups=2, forecast=1, own_calendars=1)
    assert not volume_model.reads_total_as_groups_sum(groups=2, forecast=2, own_calendars=0)
    assert not volume_model.reads_total_as_groups_sum(groups=0, forecast=0, own_calendars=0)


def test_total_of_groups_keeps_the_totals_own_past_while_a_group_is_too_new_to_forecast():
    # region b's history is cut to a few days: it is not forecast, so the total is not read as a sum
    rows, cals, total_cal = _two_regions()
    target = "2025-06-10"
    past = [(p, v) for p, v in rows if p < target]
    clean = dict(rows)[target]
    groups = {"a": (clean[0], [(p, v[0]) for p, v in past]), "b": (clean[1], [(p, v[1]) for p, v in past[-2:]])}
    out = decide_volume("shop.orders", target, sum(clean), [(p, sum(v)) for p, v in past], holidays=total_cal,
                        groups=groups, group_holidays=cals)
    assert "sum of" not in out.metadata["comparison_group"], out.metadata["comparison_group"]


def _two_exchanges(seed: int = 5) -> tuple[list[tuple[str, list[float]]], HolidayCalendar, HolidayCalendar]:
    """A broker's orders per local trading hour (09-16, weekdays but the home calendar's holidays) in two
    groups: its home market (x3000) and a link to a market on another calendar (x800), closed on that
    calendar's holidays while home trades, and x1.6 its first day back; 5% noise. Four weeks of history
    hold none of the other calendar's holidays. Returns (local hour key, [home, link]) rows and both
    calendars."""
    rng = random.Random(seed)
    home, other = HolidayCalendar(country="HK"), HolidayCalendar(country="CN")
    rows, d, was_closed = [], date(2025, 9, 1), False
    while d <= date(2025, 10, 10):
        if d.weekday() < 5 and not home.name(d):
            closed = bool(other.name(d))
            for h in range(9, 17):
                shape = 0.3 if h == 16 else 1.0
                link = 0.0 if closed else 1.6 if was_closed else 1.0
                rows.append((f"{d:%Y-%m-%d}T{h:02d}:00", [round(3000 * shape * math.exp(rng.gauss(0, 0.05))),
                                                          round(800 * shape * link * math.exp(rng.gauss(0, 0.05)))]))
            was_closed = closed
        d += timedelta(days=1)
    return rows, home, other


def _decide_exchanges(rows: list[tuple[str, list[float]]], target: str, values: list[float], home: HolidayCalendar,
                      own: dict[str, HolidayCalendar]) -> CheckOutcome:
    past = [(p, v) for p, v in rows if p < target]
    groups = {g: (values[i], [(p, v[i]) for p, v in past]) for i, g in enumerate(("home", "link"))}
    return decide_volume("broker.orders", target, sum(values), [(p, sum(v)) for p, v in past], holidays=home,
                         groups=groups, group_holidays=own, grain="hour", timezone="Asia/Hong_Kong")


def test_a_market_on_its_own_calendar_is_closed_on_its_holiday_never_seen():
    # 2 October 2025: the linked market's holiday, home trades; four weeks of hours hold none of its
    # holidays. Its empty hour is expected (was "empty" on main: a holiday never seen read as an ordinary
    # hour), the total is the home market's alone, and a drop, a double or a missing home market still fail
    rows, home, other = _two_exchanges()
    target = "2025-10-02T10:00"
    clean = dict(rows)[target]
    assert clean[1] == 0
    out = _decide_exchanges(rows, target, clean, home, {"link": other})
    assert out.passed, out.summary
    assert out.metadata["failed_groups"] == []
    assert 0.9 < out.metadata["ratio"] < 1.1, out.summary  # the link adds nothing to the total's baseline
    for values in ([v * 0.65 for v in clean], [v * 2 for v in clean], [0.0, 0.0]):
        assert not _decide_exchanges(rows, target, values, home, {"link": other}).passed, values


def test_a_market_on_its_own_calendar_still_fails_empty_on_an_open_day():
    # the hard rule: nothing says the link is closed on 30 September (both calendars open): empty fails,
    # and the note says what was expected
    rows, home, other = _two_exchanges()
    target = "2025-09-30T10:00"
    clean = dict(rows)[target]
    out = _decide_exchanges(rows, target, [clean[0], 0.0], home, {"link": other})
    assert not out.passed
    assert [(g["group"], g["verdict"]) for g in out.metadata["failed_groups"]] == [("link", "empty")]
    assert "expected" in out.summary


def test_the_first_open_day_after_an_empty_holiday_never_seen_leaves_a_spike_to_the_hard_rule():
    # 9 October 2025: the link's first day back after its week of holidays, orders pent up (x1.6; was
    # "above_band" on main); a double of it still fails
    rows, home, other = _two_exchanges()
    target = "2025-10-09T10:00"
    clean = dict(rows)[target]
    out = _decide_exchanges(rows, target, clean, home, {"link": other})
    assert out.passed, out.summary
    assert not _decide_exchanges(rows, target, [v * 2 for v in clean], home, {"link": other}).passed


def test_a_day_that_opened_late_leaves_its_afternoons_spike_to_the_hard_rule():
    # a storm warning cancelled 10 October's morning (in no calendar): the afternoon carries its orders,
    # x1.5 (was "above_band" on main); a double of it still fails, and so does an ordinary day's spike
    rows, home, other = _two_exchanges()
    rows = [(p, [v[0] * (1.5 if p.startswith("2025-10-10") else 1.0), v[1]]) for p, v in rows
            if not (p.startswith("2025-10-10") and p[11:13] < "13")]
    target = "2025-10-10T14:00"
    clean = dict(rows)[target]
    out = _decide_exchanges(rows, target, clean, home, {"link": other})
    assert out.passed, out.summary
    assert not _decide_exchanges(rows, target, [v * 2 for v in clean], home, {"link": other}).passed
    ordinary = "2025-09-30T14:00"
    assert not _decide_exchanges(rows, ordinary, [v * 1.5 for v in dict(rows)[ordinary]], home, {"link": other}).passed


def _closed_light_weekends(holiday: float, on_top: bool, end: date, seed: int = 5) -> tuple[list[Point], HolidayCalendar]:
    """A South African clinic's bookings per day from 5 July 2024, 4% noise: weekdays 1.0, Saturdays x0.1
    (a morning surgery), Sundays x0.03; a holiday is x`holiday` whatever the weekday, or (`on_top`) x`holiday`
    of its own weekday. The history holds one holiday on a light day (Freedom Day, Sunday 27 April 2025)."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="ZA")
    out, day = [], date(2024, 7, 5)
    while day < end:
        shape = {5: 0.1, 6: 0.03}.get(day.weekday(), 1.0)
        factor = (holiday * shape if on_top else holiday) if cal.name(day) else shape
        out.append(Point(datetime(day.year, day.month, day.day), round(20000 * factor * math.exp(rng.gauss(0, 0.04)))))
        day += timedelta(days=1)
    return out, cal


def test_a_holiday_that_closes_is_not_put_on_top_of_a_light_weekday_seen_closed_once_at_most():
    """National Women's Day on Saturday 9 August 2025 of a business closing to x0.03 on holidays (its Sundays'
    level) and at x0.1 on Saturdays: a closed day cannot close twice, so the Saturday reads at the holiday's
    level (main: x0.03 of a weekday put on a Saturday's x0.1, a forecast of x0.003, and the clean day 10x)."""
    target = date(2025, 8, 9)
    history, cal = _closed_light_weekends(0.03, False, target)
    fc = forecast(history, datetime(target.year, target.month, target.day), calendar_=cal)
    assert judge(fc, 20000 * 0.03).passed, (fc.baseline, fc.lower, fc.upper)
    assert any("closes the series to its lightest days' level" in n for n in fc.notes), fc.notes
    assert not judge(fc, 20000 * 0.03 * 2).passed
    assert not judge(fc, 20000 * 0.03 * 0.65).passed


@pytest.mark.parametrize(("holiday", "on_top"), [(0.03, True), (0.5, False)])
def test_a_holiday_on_top_of_its_weekday_or_one_that_does_not_close_keeps_its_ratio_on_a_light_day(
        holiday: float, on_top: bool, monkeypatch: pytest.MonkeyPatch):
    """The same clinic whose holidays are x0.03 of their own weekday (its one Sunday holiday kept the ratio),
    or x0.5 whatever the weekday (half open, above its Sundays' level): the Saturday keeps main's reading."""
    target = date(2025, 8, 9)
    history, cal = _closed_light_weekends(holiday, on_top, target)
    at = datetime(target.year, target.month, target.day)
    fc = forecast(history, at, calendar_=cal)
    monkeypatch.setattr(volume_model, "_closed_once", lambda fit, target_feats, named: None)
    ref = forecast(history, at, calendar_=cal)
    assert not any("closes the series" in n for n in fc.notes)
    assert (fc.baseline, fc.lower, fc.upper) == (ref.baseline, ref.lower, ref.upper)


def _light_weekends_closing(end: date, close: float = 0.12, seed: int = 7) -> list[Point]:
    """A utility's meter reads per day from 1 November 2024, no holiday calendar, 3% noise: weekdays 1.0,
    Saturdays x0.06 and Sundays x0.02 (special reads: rows every day), and the month's last three business
    days at x`close` (the billing run: re-reads only)."""
    rng = random.Random(seed)
    out, day = [], date(2024, 11, 1)
    while day < end:
        last = calendar.monthrange(day.year, day.month)[1]
        business = [d for d in range(1, last + 1) if date(day.year, day.month, d).weekday() < 5]
        factor = {5: 0.06, 6: 0.02}.get(day.weekday(), close if day.day in business[-3:] else 1.0)
        out.append(Point(datetime(day.year, day.month, day.day), round(30000 * factor * math.exp(rng.gauss(0, 0.03)))))
        day += timedelta(days=1)
    return out


@pytest.mark.parametrize("target", [date(2025, 11, 28), date(2026, 1, 30)])
def test_a_close_on_business_days_counted_from_the_end_falls_on_the_last_business_day_of_a_month_ending_on_a_weekend(
        target: date):
    """Friday 28 November 2025 (the 30th a Sunday) and Friday 30 January 2026 (the 31st a Saturday), the
    billing run's last day: its close is the month's last business day, not its last calendar day (main: the
    calendar's month end took the close's effect on the months ending on a business day, and the last business
    day's own effect was a median of months with and without it: the clean day read 0.2x)."""
    history = _light_weekends_closing(target)
    fc = forecast(history, datetime(target.year, target.month, target.day))
    assert judge(fc, 30000 * 0.12).passed, (fc.baseline, fc.lower, fc.upper)
    assert not judge(fc, 30000 * 0.12 * 2).passed
    assert not judge(fc, 30000 * 0.12 * 0.65).passed


def test_a_series_without_a_month_end_close_keeps_its_calendar_period_ends(monkeypatch: pytest.MonkeyPatch):
    """The same reads without a billing run (x1.0 on the month's last business days): no close to move, so
    the forecast is main's to the last digit."""
    target = date(2025, 11, 28)
    history = _light_weekends_closing(target, close=1.0)
    at = datetime(target.year, target.month, target.day)
    fc = forecast(history, at)
    monkeypatch.setattr(volume_model, "_closes_on_business_days", lambda fit, *args: fit)
    ref = forecast(history, at)
    assert (fc.baseline, fc.lower, fc.upper) == (ref.baseline, ref.lower, ref.upper)
    assert judge(fc, 30000).passed


def _commuter_taps(days: int, seed: int = 21, moved: dict[date, float] | None = None,
                   evening: dict[date, float] | None = None) -> list[Point]:
    """A metro's taps per service hour (06:00-23:59, no partition at night): two commuter peaks on
    weekdays, a flat afternoon at weekends, 4% noise, from Monday 2 March 2026. `moved`: a day's
    factor on every hour; `evening`: a day's factor from 16:00 on."""
    rng = random.Random(seed)
    weekday = [0.35, 0.85, 1.0, 0.6, 0.4, 0.4, 0.45, 0.4, 0.4, 0.45, 0.6, 0.95, 0.9, 0.6, 0.45, 0.35, 0.22, 0.1]
    weekend = [0.12, 0.18, 0.25, 0.3, 0.38, 0.45, 0.5, 0.52, 0.55, 0.55, 0.55, 0.55, 0.5, 0.45, 0.38, 0.3, 0.2, 0.1]
    out = []
    for k in range(days):
        d = date(2026, 3, 2) + timedelta(days=k)
        for h in range(6, 24):
            f = (weekend if d.weekday() >= 5 else weekday)[h - 6] * (moved or {}).get(d, 1.0)
            f *= (evening or {}).get(d, 1.0) if h >= 16 else 1.0
            out.append(Point(datetime(d.year, d.month, d.day, h), 50_000 * f * math.exp(rng.gauss(0, 0.04))))
    return out


# a three-day festival (Monday to Wednesday) the four weeks of hours never held, and a one-day holiday a
# week before it, its next day ordinary
_FESTIVAL = {date(2026, 4, 6) + timedelta(days=k): "Water Festival" for k in range(3)} | {date(2026, 3, 30): "Founders Day"}


def _with_festival(history: list[Point], target: datetime) -> list[Point]:
    """The festival's days at a weekend's x0.5 (a day off), and the hours before `target` only."""
    return [Point(q.at, q.value * 0.5) if q.at.date() in _FESTIVAL else q for q in history if q.at < target]


@pytest.mark.parametrize("case", ["the return", "the evening's exodus"])
def test_a_day_around_a_holiday_never_seen_is_read_from_its_hours_so_far(case: str):
    """The days around a holiday the history never held (four weeks of hours hold no past festival's
    travel): the day after a three-day festival at x0.6 all day (people coming back), or the evening
    before it at x1.3 from 16:00 (leaving town), was read as an ordinary hour and failed hour after hour.
    Its hours so far (the day's, and its latest three) are now read: the band also reaches as far as
    they have moved, on their side only. A 35% drop on the day, an empty hour and a spike at the hard
    ratio still fail."""
    cal = HolidayCalendar(dates=_FESTIVAL)
    if case == "the return":
        day, factor, hour = date(2026, 4, 9), 0.6, 12
        history = _commuter_taps(39, moved={day: factor})
    else:
        day, factor, hour = date(2026, 4, 3), 1.3, 18
        history = _commuter_taps(33, evening={day: factor})
    target = datetime(day.year, day.month, day.day, hour)
    value = next(q.value for q in history if q.at == target)
    fc = forecast(_with_festival(history, target), target, grain="hour", calendar_=cal)
    assert judge(fc, value).passed, (value / fc.baseline, fc.lower / fc.baseline, fc.upper / fc.baseline)  # failed on main
    if case == "the return":
        # one past day after a holiday (31 March) earns no hour groups: the day's hours so far are
        # ordinary hours, read by the level (main: today's hours were half of groups of two members,
        # the baseline x1.7 of the day's, the band widened by the note's reading instead)
        assert fc.baseline == pytest.approx(value, rel=0.15), value / fc.baseline
    else:
        assert any("never seen in the history" in n for n in fc.notes), fc.notes
    assert not judge(fc, value * 0.65).passed if factor < 1 else not judge(fc, fc.baseline * 0.65).passed
    assert not judge(fc, 0).passed and not judge(fc, fc.baseline * fc.hard_ratio).passed


def test_an_ordinary_day_around_a_holiday_never_seen_keeps_its_band(monkeypatch: pytest.MonkeyPatch):
    """The day after the festival run as usual: its hours so far stand within the noise, so its band is
    the ordinary hour's, to the last digit (a drop near a holiday is caught as anywhere else)."""
    cal = HolidayCalendar(dates=_FESTIVAL)
    target = datetime(2026, 4, 9, 12)
    history = _with_festival(_commuter_taps(39), target)
    fc = forecast(history, target, grain="hour", calendar_=cal)
    monkeypatch.setattr(volume_model, "_near_unseen_so_far", lambda *args: None)
    ref = forecast(history, target, grain="hour", calendar_=cal)
    assert (fc.baseline, fc.lower, fc.upper) == (ref.baseline, ref.lower, ref.upper)
    assert not judge(fc, fc.baseline * 0.65).passed


_GYM = [1.15, 1.1, 1.05, 1.0, 0.85, 0.65, 0.4]  # check-ins by weekday, Monday first


def _gym(cal: HolidayCalendar, end: date, seed: int, away: float = 0.7, incident: date | None = None,
         weekdays_only: bool = False) -> list[Point]:
    """A gym's check-ins per day from 1 January 2024 to the day before `end`, open every day (or on weekdays
    only): by weekday, a holiday x0.45, a long weekend's Saturday and Sunday (a weekend joined to a holiday on
    the Monday or Friday) x`away`, members out of town; an `incident` day x0.45 (a feed stopped at noon,
    unlabelled). 4% noise."""
    rng = random.Random(seed)
    out, day = [], date(2024, 1, 1)
    while day < end:
        monday, friday = day + timedelta(days=7 - day.weekday()), day - timedelta(days=day.weekday() - 4)
        long = day.weekday() >= 5 and bool(cal.name(monday) or cal.name(friday))
        f = _GYM[day.weekday()] * (0.45 if cal.name(day) else away if long else 1.0) * (0.45 if day == incident else 1.0)
        if not (weekdays_only and day.weekday() >= 5):
            out.append(Point(datetime(day.year, day.month, day.day), round(3000 * f * math.exp(rng.gauss(0, 0.04)))))
        day += timedelta(days=1)
    return out


@pytest.mark.parametrize("day", [date(2025, 6, 28), date(2025, 11, 16), date(2025, 12, 7)])
def test_a_long_weekends_days_are_read_from_every_long_weekend_whatever_the_holidays_name(day: date):
    """Colombia moves most holidays to a Monday (a puente, some ten a year): its Saturday and Sunday are one
    neighbourhood learned from every long weekend, not a neighbourhood per holiday name learned from the one
    Monday holiday of that name a year before (28 June 2025: Sacred Heart and Saints Peter and Paul on one
    Monday, never seen together; 7 December 2025: the Immaculate Conception fell on a Sunday in 2024).
    Main: a plain Saturday or Sunday, x0.7 below the band."""
    cal = HolidayCalendar(country="CO")
    history = _gym(cal, day, seed=day.toordinal() % 7)
    fc = forecast(history[-400:], datetime(day.year, day.month, day.day), calendar_=cal)
    usual = 3000 * _GYM[day.weekday()]
    assert judge(fc, usual * 0.7).passed, (fc.group, fc.baseline, fc.lower, fc.upper)
    assert "a long weekend" in fc.group, fc.group
    assert not judge(fc, usual * 0.7 * 0.65).passed
    assert not judge(fc, usual * 0.7 * 2).passed


def test_the_day_after_a_long_weekend_is_not_read_from_one_incident_on_that_holidays_day_after():
    """The Tuesday after Columbus Day 2024 held an incident (x0.45, unlabelled, a feed stopped at noon): as
    "Columbus Day +1d" that one day was the neighbourhood, and the Tuesday after Columbus Day 2025 read 2.2x
    (main: hard ratio). Read as the day after a long weekend, pooled over every puente, it is a Tuesday."""
    cal = HolidayCalendar(country="CO")
    day = date(2025, 10, 14)
    history = _gym(cal, day, seed=3, incident=date(2024, 10, 15))
    fc = forecast(history[-400:], datetime(day.year, day.month, day.day), calendar_=cal)
    assert judge(fc, 3000 * _GYM[1]).passed, (fc.group, fc.baseline, fc.lower, fc.upper)
    assert not judge(fc, 3000 * _GYM[1] * 0.65).passed


def test_a_long_weekend_is_no_group_for_a_series_closed_at_weekends_nor_around_easter_or_christmas():
    """A business open on weekdays only has no long weekend's days (its Friday before a Monday holiday keeps
    its holiday's own neighbourhood); weekends near two holidays (Easter, Christmas to New Year) are read by
    their names; a weekend with no holiday beside it is no long weekend."""
    cal = HolidayCalendar(country="CO")
    day = date(2025, 6, 27)  # the Friday before 30 June's puente
    history = _gym(cal, day, seed=4, weekdays_only=True)
    fc = forecast(history[-300:], datetime(day.year, day.month, day.day), calendar_=cal)
    assert "a long weekend" not in fc.group, fc.group
    assert volume_model.long_weekend(date(2025, 6, 28), cal) == "a long weekend +0d"
    assert volume_model.long_weekend(date(2025, 6, 27), cal) == "a long weekend -1d"
    assert volume_model.long_weekend(date(2025, 7, 1), cal) == "a long weekend +1d"
    assert volume_model.long_weekend(date(2025, 4, 19), cal) == ""  # Holy Saturday
    assert volume_model.long_weekend(date(2025, 12, 27), cal) == ""  # after Christmas
    assert volume_model.long_weekend(date(2025, 7, 5), cal) == ""  # a plain weekend


def _feast_with_run_up(days: int, seed: int) -> tuple[list[Point], HolidayCalendar]:
    """A moving feast (11 days earlier the second year, as a lunar one) of four days at x0.2, and three
    weeks before it that rise from x2 to x6 (giving taken ahead of it), in no calendar; ordinary after."""
    rng = random.Random(seed)
    firsts = [date(2024, 6, 16), date(2025, 6, 5)]
    cal = HolidayCalendar(dates={f + timedelta(days=k): "feast" for f in firsts for k in range(4)})
    out = []
    for i in range(days):
        d = date(2024, 1, 1) + timedelta(days=i)
        to_feast = min([(f - d).days for f in firsts if f + timedelta(days=3) >= d] or [99])
        factor = 0.2 if cal.name(d) else 2 + 4 * (21 - to_feast) / 20 if 1 <= to_feast <= 21 else 1.0
        out.append(Point(datetime(d.year, d.month, d.day), round(1000 * factor * math.exp(rng.gauss(0, 0.05)))))
    return out, cal


@pytest.mark.parametrize("after", [1, 2, 5])
def test_the_days_after_a_feast_are_not_read_at_the_level_its_run_up_left(after: int):
    # the three weeks before the feast are in no calendar: the level window read them and carried them
    # into the feast's days and the days after it (0.30-0.43x), as it did on the feast's previous occasion
    target = datetime(2025, 6, 8) + timedelta(days=after)
    for seed in range(3):
        series, cal = _feast_with_run_up((target - datetime(2024, 1, 1)).days, seed)
        fc = forecast(series, target, calendar_=cal)
        assert 0.8 <= fc.baseline / 1000 <= 1.25, (seed, fc.baseline, fc.notes)
        assert judge(fc, 1000).passed


def test_a_feast_day_after_its_run_up_is_read_at_its_own_level():
    target = datetime(2025, 6, 6)
    series, cal = _feast_with_run_up((target - datetime(2024, 1, 1)).days, 1)
    fc = forecast(series, target, calendar_=cal)
    assert judge(fc, 200).passed, (fc.baseline, fc.notes)
    assert not judge(fc, 400).passed  # a doubled feast day still fails


def _after_holiday_labels(extra: dict[date, str]) -> tuple[dict[str, object], list[dict[str, object]], list[datetime]]:
    """The labels _after_holiday_hours gives a US queue's hours (business days 8-18h from 12 January 2026)
    whose target is Tuesday 17 February 10:00, the day after Presidents' Day, with `extra` holidays."""
    cal = HolidayCalendar(country="US", dates=extra)
    target = datetime(2026, 2, 17, 10)
    moments = [datetime(d.year, d.month, d.day, h) for d in (date(2026, 1, 12) + timedelta(days=k) for k in range(37))
               if cal.is_business_day(d) for h in range(8, 18) if datetime(d.year, d.month, d.day, h) < target]
    feats: list[dict[str, object]] = [{} for _ in moments]
    target_feats: dict[str, object] = {}
    volume_model._after_holiday_hours(feats, target_feats, moments, target, cal)
    return target_feats, feats, moments


def test_the_hours_after_a_holiday_are_earned_from_past_days_only():
    """The minimum of days after a holiday (AFTER_HOLIDAY_MIN_DAYS) counts past days, not the target's own:
    with one past such day (after MLK Day) the target's 10:00 would be a group of one past member, so
    nothing is labelled (main counted today's 08-09h as a second day and labelled it). With a second past
    one (an owner's holiday on 14 January), the target and today's earlier hours (the day's hours so far)
    are labelled, as before."""
    target_feats, feats, _ = _after_holiday_labels({})
    assert "near_holiday" not in target_feats and not any("near_holiday" in f for f in feats), target_feats
    target_feats, feats, moments = _after_holiday_labels({date(2026, 1, 14): "Founders' Day"})
    assert target_feats["near_holiday"] == "a holiday 10h +1d"
    labelled = {at.date() for f, at in zip(feats, moments) if "near_holiday" in f}
    assert labelled == {date(2026, 1, 15), date(2026, 1, 20), date(2026, 2, 17)}, labelled


def _beach_weekends(start: date, end: date, seed: int = 5) -> list[Point]:
    """A club's check-ins: Saturdays x0.8, Sundays x0.6 of a weekday, and every January to March (the beach
    season) its weekends at x0.6 of that."""
    rng = random.Random(seed)
    out = []
    for i in range((end - start).days):
        d = start + timedelta(days=i)
        f = [1.0] * 5 + [0.8, 0.6]
        share = f[d.weekday()] * (0.6 if d.weekday() >= 5 and d.month <= 3 else 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), round(5_000 * share * math.exp(rng.gauss(0, 0.04)))))
    return out


def test_a_weekday_share_changed_and_undone_the_same_weeks_a_year_before_is_a_season_over():
    """The beach season's low weekends (January to March) re-baselined the Saturday share, and the first
    Saturday after the season read 1.6x: the same weeks a year before held the same low share and returned
    by this day. Past the last year's season, the Saturday is read on its usual share; inside it, the
    season's share still holds."""
    history = _beach_weekends(date(2024, 3, 1), date(2025, 4, 5))
    after = forecast(history, datetime(2025, 4, 5))
    assert not any("share changed" in n for n in after.notes), after.notes
    assert judge(after, 4_000).passed and not judge(after, 0.6 * 4_000).passed
    inside = forecast(history[:-7], datetime(2025, 3, 29))
    assert judge(inside, 0.6 * 4_000).passed


def _trading_sundays(days: int = 420, seed: int = 6) -> tuple[list[Point], set[date]]:
    """A store chain's receipts per day under a Sunday trading ban: Monday-Saturday open (Saturday x1.45),
    Sundays closed but for online orders (x0.05 of a weekday), except about seven trading Sundays a year (in
    no calendar: the last Sunday of January, April, June and August, the two before Christmas), open at a
    Saturday's level x1.1; 4% noise."""
    rng = random.Random(seed)
    start = date(2024, 1, 1)
    shape = [0.95, 0.9, 0.9, 0.95, 1.1, 1.45, 0.05]
    trading = {date(2024, 1, 28), date(2024, 4, 28), date(2024, 6, 30), date(2024, 8, 25), date(2024, 12, 15),
               date(2024, 12, 22), date(2025, 1, 26)}
    history = []
    for i in range(days):
        d = start + timedelta(days=i)
        f = shape[5] * 1.1 if d in trading else shape[d.weekday()]
        history.append(Point(datetime(d.year, d.month, d.day), round(20_000 * f * math.exp(rng.gauss(0, 0.04)))))
    return history, trading


def test_a_weekday_kept_closed_reads_its_open_occasions_as_a_second_state():
    """A trading Sunday (a Sunday the history holds closed, open on a few occasions) is read against those
    occasions, not failed at 29x the closed Sundays; a closed Sunday still reads as one, and an empty Sunday, a
    doubled one (closed or open) and an open one dropped by 35% still fail."""
    history, trading = _trading_sundays()
    target = datetime(2025, 1, 26)  # the last Sunday of January: a trading Sunday, six before it in the history
    assert target.date() in trading
    past = [q for q in history if q.at < target]
    fc = forecast(past, target)
    open_value = next(q.value for q in history if q.at == target)
    assert judge(fc, open_value).passed and judge(fc, open_value).reason == "open_as_on_occasions"
    assert not judge(fc, 2 * open_value).passed  # a trading Sunday loaded twice
    assert not judge(fc, 0.65 * open_value).passed  # ... or a third of it missing
    assert not judge(fc, 0).passed
    closed = forecast(past[:-7], past[-7].at)  # the Sunday before: closed
    assert judge(closed, past[-7].value).passed and not judge(closed, 2 * past[-7].value).passed
    assert not judge(closed, 0).passed


def test_a_payday_twice_a_weekday_is_no_second_state():
    """A weekday that ran twice its level on a few paydays is one state with a calendar effect: a doubled load
    of that weekday must not pass as one of its "open" occasions (the open band must start above twice the
    usual band's top)."""
    rng = random.Random(3)
    start = date(2024, 1, 1)
    history = []
    for i in range(420):
        d = start + timedelta(days=i)
        f = 2.2 if d.weekday() == 4 and d.day <= 7 else 1.0  # the first Friday of the month: a payday
        history.append(Point(datetime(d.year, d.month, d.day), round(5_000 * f * math.exp(rng.gauss(0, 0.04)))))
    friday = next(q for q in history[400:] if q.at.weekday() == 4 and q.at.day > 7)
    fc = forecast([q for q in history if q.at < friday.at], friday.at)
    assert fc.open_state is None
    assert not judge(fc, 2 * friday.value).passed


def test_a_closed_days_open_occasions_too_near_its_doubled_level_are_no_second_state():
    """Sundays at a quarter of a weekday (reps signing a few forms) and at half of one on every fourth Sunday (a
    push): that open level lies within twice the quiet Sundays' band, so it is no second state, and a quiet
    Sunday loaded twice must still fail."""
    rng = random.Random(5)
    start = date(2024, 1, 1)
    history = []
    for i in range(420):
        d = start + timedelta(days=i)
        f = (0.55 if i % 28 == 6 else 0.25) if d.weekday() == 6 else 1.0
        history.append(Point(datetime(d.year, d.month, d.day), round(8_000 * f * math.exp(rng.gauss(0, 0.04)))))
    sunday = next(q for q in history[400:] if q.at.weekday() == 6 and (q.at.date() - start).days % 28 != 6)
    fc = forecast([q for q in history if q.at < sunday.at], sunday.at)
    assert fc.open_state is None
    assert not judge(fc, 2 * sunday.value).passed


# a six-day shop's hours (08-18h Monday to Saturday, the morning queue at 10h) and its Sunday on mall hours
# (10-17h, peaking at 12-13h, about a quarter of a weekday); a holiday opens on the Sunday's hours, x1.3
_SHOP_WEEKDAY = {8: 0.55, 9: 0.85, 10: 1.0, 11: 0.95, 12: 0.75, 13: 0.8, 14: 0.85, 15: 0.8, 16: 0.7, 17: 0.55,
                 18: 0.35}


_SHOP_SUNDAY = {10: 0.2, 11: 0.26, 12: 0.3, 13: 0.3, 14: 0.28, 15: 0.25, 16: 0.21, 17: 0.15}


def _mall_hours_shop(end: datetime, seed: int = 3) -> tuple[list[Point], HolidayCalendar]:
    """Pay-outs per local hour from Monday 10 November 2025 up to `end` (excluded), Philippine holidays
    (Bonifacio Day on Sunday 30 November, the Immaculate Conception on Monday 8 December): 5% noise on
    some 5,000 rows an hour at the morning peak."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="PH")
    out, day = [], date(2025, 11, 10)
    while datetime(day.year, day.month, day.day) < end:
        mall = day.weekday() == 6 or bool(cal.name(day))
        factor = 1.3 if mall and day.weekday() != 6 else 1.0
        for hour, shape in (_SHOP_SUNDAY if mall else _SHOP_WEEKDAY).items():
            at = datetime(day.year, day.month, day.day, hour)
            if at < end:
                out.append(Point(at, round(5000 * shape * factor * math.exp(rng.gauss(0, 0.05)))))
        day += timedelta(days=1)
    return out, cal


def test_a_day_of_the_week_on_hours_of_its_own_is_not_opened_late_and_its_double_fails():
    """A Sunday on mall hours opens at 10h every week: it is no late opening in no calendar (main read it as
    one, and left its afternoon's spike to the hard rule's 1.9x), and its hours are a shape of their own, so
    a doubled 17h fails (main: 1.7-1.8x passed against a band to 1.90)."""
    target = datetime(2025, 12, 21, 17)
    history, cal = _mall_hours_shop(target)
    fc = forecast(history, target, grain="hour", calendar_=cal)
    clean = 5000 * _SHOP_SUNDAY[17]
    assert judge(fc, clean).passed, (fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not judge(fc, clean * 2).passed, (fc.baseline, fc.lower, fc.upper)
    assert not any("opened at" in n for n in fc.notes), fc.notes


def test_a_holiday_opening_on_a_sundays_hours_is_read_as_a_sunday():
    """The Immaculate Conception (a Monday never seen) opens at 10h, the hour only Sundays open at: it keeps the
    Sunday's mall hours, so its first hours are read as a Sunday's, and a doubled one fails (main read an ordinary
    Monday's 10h with a band of 0.05-1.90 of it: the clean hour at 0.3x, its double at 0.6x passed)."""
    for hour in (10, 11):
        target = datetime(2025, 12, 8, hour)
        history, cal = _mall_hours_shop(target)
        fc = forecast(history, target, grain="hour", calendar_=cal)
        clean = 5000 * _SHOP_SUNDAY[hour] * 1.3
        assert judge(fc, clean).passed, (hour, fc.baseline, fc.lower, fc.upper, fc.notes)
        assert not judge(fc, clean * 2).passed, (hour, fc.baseline, fc.lower, fc.upper)
        assert any("Sunday opens at" in n for n in fc.notes), fc.notes
    # an ordinary Monday's first hour still opens at 08h, read as usual
    target = datetime(2025, 12, 1, 8)
    history, cal = _mall_hours_shop(target)
    fc = forecast(history, target, grain="hour", calendar_=cal)
    assert not any("Sunday opens at" in n for n in fc.notes), fc.notes


def test_a_holidays_hours_so_far_are_read_as_the_sundays_with_its_first_hours_backlog():
    """From its third hour, the holiday opening on Sunday hours is read from its hours so far: each against the
    Sunday's same hour, its first with the closure a Sunday's first hour follows (the night and a morning), so
    the factor is the holiday's x1.3 and a 35% drop at 13h fails (main: an ordinary Monday's 13h or a Sunday's
    read with the weekdays' hour shape, the drop passed against a 0.70 floor)."""
    target = datetime(2025, 12, 8, 13)
    clean = 5000 * _SHOP_SUNDAY[13] * 1.3
    for seed in (1, 2, 5):
        history, cal = _mall_hours_shop(target, seed)
        fc = forecast(history, target, grain="hour", calendar_=cal)
        # (without the Sunday's first-hour backlog its 10h reads as a weekday-shaped 10h: the factor x1.00-1.06)
        assert fc.baseline == pytest.approx(clean, rel=0.12), (seed, fc.baseline, fc.notes)
        assert judge(fc, clean).passed, (seed, fc.baseline, fc.lower, fc.upper, fc.notes)
        assert not judge(fc, clean * 0.65).passed, (seed, fc.baseline, fc.lower, fc.upper, fc.notes)
        assert not judge(fc, clean * 2).passed, (seed, fc.baseline, fc.lower, fc.upper)


def _night_hours_history(start: datetime, end: datetime, mean) -> list[Point]:
    """A night business's hours (open 18:00-03:59, none from 04:00 to 17:59), `mean` per hour, up to `end`."""
    hours = int((end - start).total_seconds() // 3600)
    moments = [start + timedelta(hours=i) for i in range(hours)]
    rng = random.Random(11)
    return [Point(at, round(mean(at) * math.exp(rng.gauss(0, 0.04)))) for at in moments if not 4 <= at.hour < 18]


def _bar_night(at: datetime, cal: HolidayCalendar, eve_opens: bool = True, holiday_factor: float = 0.6) -> float:
    """Card payments of a bar's night: its hours after midnight are the evening's (the night of the day
    before); Friday and Saturday nights x2.3; a holiday's night `holiday_factor`; the eve of a holiday a
    Friday night where `eve_opens`."""
    night = at.date() - timedelta(days=1 if at.hour < 4 else 0)
    shape = {18: 0.4, 19: 0.6, 20: 0.8, 21: 1.0, 22: 1.0, 23: 0.9, 0: 0.7, 1: 0.5, 2: 0.35, 3: 0.2}[at.hour]
    holiday = bool(cal.name(night))
    eve = not holiday and bool(cal.name(night + timedelta(days=1)))
    weekday = 4 if eve and eve_opens else night.weekday()
    return 1000 * shape * (2.3 if weekday in (4, 5) else 1.0) * (holiday_factor if holiday else 1.0)


def test_a_night_business_keeps_its_hours_after_midnight_on_the_evenings_day():
    """A business open from the evening past midnight (a bar, 18:00-03:59): the hours after midnight are
    the night that began the evening before, so a holiday's night runs to its closing at 04:00, and the
    next day's 01h is the holiday's hour (it was read as an ordinary Wednesday's 01h, its x0.6 a drop)."""
    cal = HolidayCalendar(dates={date(2026, 11, 17): "freedom_day"})
    start, target = datetime(2026, 10, 12, 18), datetime(2026, 11, 18, 1)  # the holiday's night, 01h
    history = _night_hours_history(start, target, lambda at: _bar_night(at, cal, eve_opens=False))
    fc = forecast(history, target, grain="hour", calendar_=cal)
    value = _bar_night(target, cal, eve_opens=False)
    assert judge(fc, value).passed, (fc.group, fc.notes, value / fc.baseline)
    assert not judge(fc, 2 * value).passed and not judge(fc, 0).passed
    assert volume_model._night_hours([*range(18, 24), *range(4)] * 7) == 4  # open 18:00-03:59
    assert volume_model._night_hours(list(range(8, 18)) * 7) == 0  # an office's day is its date
    assert volume_model._night_hours(list(range(24)) * 7) == 0  # open every hour
    assert volume_model._night_hours([*range(11, 24), 0] * 7) == 0  # a morning opening: a day's business


def test_the_eve_of_a_holiday_is_read_as_the_night_its_past_eves_ran_like():
    """A bar opens on the eve of a holiday as on a Friday night (x2.3): the history's eve (a Tuesday before a
    Wednesday's holiday) ran so, so this Monday's eve is read as a Friday night, not as a Monday at 2.3x (past the
    hard ratio's double). A doubled eve, or one kept as an ordinary Monday, still fails. A series whose eves
    ran as their own weekday keeps them."""
    cal = HolidayCalendar(dates={date(2026, 10, 28): "independence_day", date(2026, 11, 17): "freedom_day"})
    start, target = datetime(2026, 10, 5, 18), datetime(2026, 11, 16, 20)  # the Monday eve, 20h
    history = _night_hours_history(start, target, lambda at: _bar_night(at, cal))
    fc = forecast(history, target, grain="hour", calendar_=cal)
    value = _bar_night(target, cal)
    assert "Fri" in fc.group, fc.group
    assert judge(fc, value).passed, (fc.group, fc.notes, value / fc.baseline)
    assert not judge(fc, 2 * value).passed and not judge(fc, value / 2).passed and not judge(fc, 0).passed
    # the holiday's own first hour after such an eve: the eve's hours are no level shift
    after = datetime(2026, 11, 17, 18)
    history = _night_hours_history(start, after, lambda at: _bar_night(at, cal))
    fc = forecast(history, after, grain="hour", calendar_=cal)
    assert judge(fc, _bar_night(after, cal)).passed, (fc.group, fc.notes)  # was below the band (a shifted level)
    assert fc.shift is None and not judge(fc, 2 * _bar_night(after, cal)).passed, (fc.shift, fc.notes)
    # eves that ran as their own weekday: no reading
    plain = _night_hours_history(start, target, lambda at: _bar_night(at, cal, eve_opens=False))
    fc = forecast(plain, target, grain="hour", calendar_=cal)
    assert "Mon" in fc.group and judge(fc, _bar_night(target, cal, eve_opens=False)).passed


def test_an_eve_read_as_a_friday_night_keeps_fridays_closed_hours_not_its_own_weekdays():
    """A club open 22:00-03:59 on Thursday to Saturday nights only (x0.6, x1.2, x1.4), and on the eve of a holiday (as on a Friday):
    on a Monday eve read as a Friday night, its 23h is open (empty, the group is missing: it fails; it passed as
    "closed as usual" on a Monday) while its 19h is closed on every Friday too (empty passes)."""
    cal = HolidayCalendar(dates={date(2026, 10, 28): "independence_day", date(2026, 11, 17): "freedom_day"})

    def club(at: datetime) -> float:
        night = at.date() - timedelta(days=1 if at.hour < 4 else 0)
        eve = not cal.name(night) and bool(cal.name(night + timedelta(days=1)))
        opens = (eve or night.weekday() in (3, 4, 5)) and (at.hour >= 22 or at.hour < 4)
        weekday = 4 if eve else night.weekday()
        return 300.0 * {3: 0.6, 4: 1.2, 5: 1.4}[weekday] * (1.3 if at.hour < 4 else 1.0) if opens else 0.0

    start = datetime(2026, 10, 5, 18)
    for hour, empty_passes in ((23, False), (19, True)):
        target = datetime(2026, 11, 16, hour)
        fc = forecast(_night_hours_history(start, target, club), target, grain="hour", calendar_=cal)
        assert judge(fc, 0).passed is empty_passes, (hour, fc.group, fc.notes)
    target = datetime(2026, 11, 16, 23)
    fc = forecast(_night_hours_history(start, target, club), target, grain="hour", calendar_=cal)
    assert judge(fc, 360).passed and not judge(fc, 720).passed, (fc.group, fc.notes)


def _fee_rise_history(end: date, seed: int = 5, sigma: float = 0.03) -> list[Point]:
    """A daily series (working days, a light Saturday, a closed-ish Sunday) from November 2024, its working days
    from 16 December 2024 x1.2 (a fill before a fee rises on 1 January: in no calendar) and the first fortnight
    of January x0.85; Austria's holidays at a tenth."""
    rng, cal = random.Random(seed), HolidayCalendar(country="AT")
    shape = [1.2, 1.0, 0.95, 1.0, 1.05, 0.35, 0.05]
    out, day = [], date(2024, 11, 1)
    while day < end:
        f = 0.1 if cal.name(day) else shape[day.weekday()]
        working = day.weekday() < 5 and not cal.name(day)
        f *= 1.2 if working and day.month == 12 and day.day > 15 else 0.85 if working and day.month == 1 and day.day <= 14 else 1.0
        out.append(Point(datetime(day.year, day.month, day.day), round(20_000 * f * math.exp(rng.gauss(0, sigma)))))
        day += timedelta(days=1)
    return out


def test_the_same_dates_a_year_back_widen_the_band_on_their_side(monkeypatch):
    # the history holds one December fill (16-23 December 2024 x1.2, in no calendar): the same working days a
    # year on read x1.2 against the level, so the upper side reaches that far and a fill day passes; the
    # centre and the lower side are the model's without the rule (a drop fails as before)
    cal = HolidayCalendar(country="AT")
    for target in (date(2025, 12, 16), date(2025, 12, 17), date(2025, 12, 19)):
        history = _fee_rise_history(target)
        at = datetime(target.year, target.month, target.day)
        fc = forecast(history, at, calendar_=cal)
        ordinary = median(q.value for q in history[-28:] if q.at.weekday() == at.weekday())
        assert any("the same dates a year back ran x1.2" in note for note in fc.notes)
        assert judge(fc, 1.25 * ordinary).passed, (target, fc.upper / ordinary)
        if target.day > 16:
            # (the fill's later days: this year's days so far ran high as last year's did, and the level moves
            # that far, see test_the_year_end_lull_moves_the_level_where_this_years_days_so_far_ran_as_last_years;
            # a 35% drop on the fill still fails)
            assert any("this year's days so far ran as theirs did" in note for note in fc.notes), fc.notes
            assert not judge(fc, 1.2 * ordinary * 0.65).passed
            continue
        with monkeypatch.context() as m:
            # (nor the same place in the month a year back: 16 December 2025 and 17 December 2024 are each their
            # month's third Tuesday, which that rule reads too)
            m.setattr(volume_model, "_same_dates_a_year_back", lambda *args: None)
            m.setattr(volume_model, "_same_place_a_year_back", lambda *args: None)
            plain = forecast(history, at, calendar_=cal)
        assert fc.upper > plain.upper * 1.1
        assert (fc.baseline, fc.lower) == pytest.approx((plain.baseline, plain.lower))
        # (the fill's first day: nothing of this year's fill so far, the centre is the level's)
        assert not judge(plain, 1.25 * ordinary).passed


def test_the_same_dates_a_year_back_are_not_read_across_a_moving_feast():
    # a run-up in the week before Easter 2025 (20 April) is no reading for the same dates of 2026 (Easter on
    # 5 April: those weeks a year back were another feast's), nor is a day the calendar names a year back
    cal = HolidayCalendar(country="AT")
    rng = random.Random(2)
    history = [Point(datetime(2025, 1, 1) + timedelta(days=i),
                     round(20_000 * (1.3 if date(2025, 4, 14) <= date(2025, 1, 1) + timedelta(days=i) <= date(2025, 4, 17)
                                     else 1.0) * math.exp(rng.gauss(0, 0.02)))) for i in range(470)]
    target = datetime(2026, 4, 15)
    fit_history = [q for q in history if q.at < target]
    fc = forecast(fit_history, target, calendar_=cal)
    assert not any("the same dates a year back" in note for note in fc.notes)
    assert volume_model._same_dates_a_year_back(volume_model.SeriesFit.__new__(volume_model.SeriesFit), fit_history,
                                                [False] * len(fit_history), target, cal, 14) is None



def _episodes_history(days: int, seed: int, episodes: list[tuple[int, int, float]], sigma: float = 0.03) -> list[Point]:
    """A daily series from Monday 4 March 2024 (a weekday shape, `sigma` noise) whose days [a, b) of each
    `episodes` (a, b, factor) run at `factor`: events in no calendar (a fill, a lull, a school break)."""
    rng = random.Random(seed)
    shape = [1.2, 1.0, 0.95, 1.0, 1.05, 0.6, 0.3]
    start = datetime(2024, 3, 4)
    out = []
    for i in range(days):
        at = start + timedelta(days=i)
        factor = next((m for a, b, m in episodes if a <= i < b), 1.0)
        out.append(Point(at, round(20_000 * shape[at.weekday()] * factor * math.exp(rng.gauss(0, sigma)))))
    return out


# three six-day episodes (Monday to Saturday) in no calendar: a fill x1.2, a lull x0.85, another fill
_EPISODES = [(56, 62, 1.2), (140, 146, 0.85), (210, 216, 1.2)]


def _without_episodes(monkeypatch: pytest.MonkeyPatch, history: list[Point], target: datetime) -> float:
    """The spread the model gives `target` with every error in its own group's (no episode left out)."""
    with monkeypatch.context() as m:
        m.setattr(volume_model, "_episode_errors", lambda *args: set())
        return forecast(history, target).spread


def test_an_episode_in_no_calendar_is_no_noise_of_its_weekday():
    # the three Mondays that fell in the episodes ran 0.15-0.2 off the level: as three of the Monday group's
    # 40-odd errors they took its spread to 0.040-0.049 (3% noise) and a Monday dropped 16% passed. Left out
    # of the Monday's own spread, the band is the Mondays' noise
    spreads = []
    for seed in range(6):
        history = _episodes_history(301, seed, _EPISODES)  # (day 301: a Monday, a year from no episode)
        target = history[-1].at + timedelta(days=1)
        assert target.weekday() == 0
        fc = forecast(history, target)
        spreads.append(fc.spread)
        ordinary = median(q.value for q in history[-28:] if q.at.weekday() == 0)
        assert not judge(fc, 0.84 * ordinary).passed, (seed, fc.lower / ordinary)
        assert judge(fc, ordinary).passed
    assert statistics.fmean(spreads) < 0.036


def test_an_episode_under_way_or_due_again_keeps_its_errors(monkeypatch):
    # the two days before the target ran x1.25 (one more makes an episode: the target may be in it), or the
    # target falls on the dates an episode held a year back (a yearly event in no calendar): the own group's
    # spread keeps every error, as before the rule; four weeks after that anniversary it leaves them out
    start = datetime(2024, 3, 4)
    for seed in range(3):
        under_way = _episodes_history(301, seed, [*_EPISODES, (299, 306, 1.25)])
        target = start + timedelta(days=301)
        assert forecast(under_way, target).spread == pytest.approx(_without_episodes(monkeypatch, under_way, target))
        due = start + timedelta(days=364 + 57)  # (the first episode's Tuesday, a year on)
        a_year_on = _episodes_history(364 + 57, seed, _EPISODES)
        assert forecast(a_year_on, due).spread == pytest.approx(_without_episodes(monkeypatch, a_year_on, due))
        later = due + timedelta(days=28)
        after = _episodes_history(364 + 57 + 28, seed, _EPISODES)
        assert forecast(after, later).spread < 0.9 * _without_episodes(monkeypatch, after, later)


def _gym_year(cal: HolidayCalendar, end: date, seed: int, lull_from: int = 15, lull_years: Sequence[int] = (2024, 2025),
              resolutions: float = 0.0) -> list[Point]:
    """`_gym`'s check-ins (a holiday x0.45, a long weekend's days x0.7) from 1 January 2024 to the day before
    `end`, with what no calendar holds: the year-end lull (from `lull_from` December to New Year's Day x0.7, in
    `lull_years` only) and January's resolutions (+`resolutions` on 2 January fading over 25 days). 4% noise."""
    rng = random.Random(seed)
    out, day = [], date(2024, 1, 1)
    while day < end:
        monday, friday = day + timedelta(days=7 - day.weekday()), day - timedelta(days=day.weekday() - 4)
        long = day.weekday() >= 5 and bool(cal.name(monday) or cal.name(friday))
        f = _GYM[day.weekday()] * (0.45 if cal.name(day) else 0.7 if long else 1.0)
        if day.year in lull_years and day.month == 12 and day.day >= lull_from:
            f *= 0.7
        since = (day - date(day.year, 1, 2)).days
        f *= 1 + resolutions * math.exp(-since / 25) if since >= 0 else 1.0
        out.append(Point(datetime(day.year, day.month, day.day), round(3000 * f * math.exp(rng.gauss(0, 0.04)))))
        day += timedelta(days=1)
    return out


def _storm_branches(zeros_elsewhere: bool = False, seed: int = 3) -> list[Point]:
    """One region's remittance pay-outs per branch hour, 08-18h Monday to Saturday (Sundays closed), from 3
    November 2025, Poisson-like 5% noise: a storm closes the branches from noon on Wednesday 3 December to noon
    the next day, their hours kept as partitions with no rows (the chain's other regions open), and the
    Thursday afternoon carries the pay-outs the closure held back (x1.6). `zeros_elsewhere`: the history also
    holds an empty first hour on every fourth date (a count that reaches zero, not a closure)."""
    rng = random.Random(seed)
    out, day = [], date(2025, 11, 3)
    storm = (datetime(2025, 12, 3, 12), datetime(2025, 12, 4, 12))
    while day <= date(2025, 12, 4):
        for h in range(8, 19) if day.weekday() < 6 else ():
            at = datetime(day.year, day.month, day.day, h)
            factor = 0.0 if storm[0] <= at <= storm[1] else 1.6 if at > storm[1] else 1.0
            if zeros_elsewhere and h == 8 and day.day % 4 == 0:
                factor = 0.0
            out.append(Point(at, round(2000 * (0.6 if h in (8, 18) else 1.0) * factor * math.exp(rng.gauss(0, 0.05)))))
        day += timedelta(days=1)
    return out


def test_a_holiday_kept_on_a_monday_is_no_moving_feast_for_the_same_dates_a_year_back():
    # Colombia's Epiphany falls on 6 January 2025 (a Monday) and on 12 January 2026 (moved to the Monday): a holiday
    # a weekday rule keeps, whose days the year-back reading leaves out anyway; Easter and the lunar feasts move
    # eight days or more. Main: any holiday on another date a year on stopped the rule
    co, at = HolidayCalendar(country="CO"), HolidayCalendar(country="AT")
    assert volume_model._kept_on_a_weekday(date(2025, 1, 6), co)  # Epiphany -> Epiphany (observed) on 12 January
    assert volume_model._kept_on_a_weekday(date(2024, 10, 14), co)  # Columbus Day (observed), a Monday both years
    assert not volume_model._kept_on_a_weekday(date(2025, 4, 21), at)  # Easter Monday: 6 April 2026
    assert not volume_model._kept_on_a_weekday(date(2025, 1, 7), co)  # no holiday


def test_januarys_resolutions_are_read_from_the_same_dates_a_year_back_across_a_monday_holiday():
    # a gym's January runs +40% from the 2nd, fading, every year (in no calendar): the working days around 6
    # January 2025 ran high against the level, and so did this January's days so far. Main: Epiphany moving from
    # 6 to 12 January stopped the year-back reading, and the Tuesday read +31% against a band to +35%...
    cal = HolidayCalendar(country="CO")
    day = date(2026, 1, 7)
    history = _gym_year(cal, day, seed=3, lull_years=(), resolutions=0.4)
    fc = forecast(history[-400:], datetime(day.year, day.month, day.day), calendar_=cal)
    usual = 3000 * _GYM[day.weekday()] * 1.06
    value = usual * (1 + 0.4 * math.exp(-5 / 25))
    assert judge(fc, value).passed, (fc.baseline / usual, fc.lower / usual, fc.upper / usual)
    assert any("the same dates a year back" in note for note in fc.notes), fc.notes
    assert not judge(fc, value * 2).passed


@pytest.mark.parametrize("day", [date(2025, 12, 16), date(2025, 12, 17), date(2025, 12, 19)])
def test_the_year_end_lull_moves_the_level_where_this_years_days_so_far_ran_as_last_years(day: date):
    # the lull from 15 December (x0.7, in no calendar) ran a year back on the same dates, and this year's days
    # since the 15th ran as low: the level moves by last year's error on those dates, so the lull passes and a
    # drop of 35% on it fails. Main: the upper side only, the lull 0.70x against a band from 0.74
    cal = HolidayCalendar(country="CO")
    history = _gym_year(cal, day, seed=day.day)
    at = datetime(day.year, day.month, day.day)
    fc = forecast(history[-400:], at, calendar_=cal)
    usual = median(q.value for q in history[-35:-7] if q.at.weekday() == day.weekday())
    assert judge(fc, usual * 0.7).passed, (fc.baseline / usual, fc.lower / usual, fc.upper / usual)
    assert not judge(fc, usual * 0.7 * 0.65).passed, (fc.baseline / usual, fc.lower / usual, fc.upper / usual)
    assert any("this year's days so far ran as theirs did" in note for note in fc.notes), fc.notes
    assert not judge(fc, usual * 0.7 * 2).passed


def test_the_same_dates_a_year_back_move_no_level_on_their_first_day_nor_on_a_one_off(monkeypatch):
    # the lull's first day has no day of this year's occasion so far (it may be a drop as well as the lull's start),
    # and a lull a year back that this year's days so far did not repeat (a one-off, an incident then) moves
    # nothing: both read as without the rule
    cal = HolidayCalendar(country="CO")
    for day, lull_years in ((date(2025, 12, 15), (2024, 2025)), (date(2025, 12, 18), (2024,))):
        history = _gym_year(cal, day, seed=day.day, lull_years=lull_years)
        at = datetime(day.year, day.month, day.day)
        fc = forecast(history[-400:], at, calendar_=cal)
        assert not any("this year's days so far" in note for note in fc.notes), fc.notes
        with monkeypatch.context() as m:
            m.setattr(volume_model, "_same_dates_so_far", lambda *args: None)
            plain = forecast(history[-400:], at, calendar_=cal)
        assert (fc.baseline, fc.lower, fc.upper) == pytest.approx((plain.baseline, plain.lower, plain.upper))
        assert volume_model._same_dates_so_far is not None


def test_a_group_whose_morning_a_storm_left_empty_opened_late_and_its_afternoon_carries_the_backlog():
    """The reopening afternoon's 15h at x1.6 (main: above_band, the empty morning's partitions read as the day
    opening at 08h as usual): the day opened at 13h, its first partition with rows, so a spike is judged by the
    hard rule only; a double of it still fails, and so does the same x1.6 on an ordinary afternoon."""
    history = _storm_branches()
    target = datetime(2025, 12, 4, 15)
    fc = forecast([q for q in history if q.at < target], target, grain="hour")
    clean = next(q.value for q in history if q.at == target)
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.upper, fc.notes)
    assert any("opened at 13h" in n for n in fc.notes), fc.notes
    assert not judge(fc, 2 * clean).passed
    ordinary = datetime(2025, 12, 2, 15)
    fc_ordinary = forecast([q for q in history if q.at < ordinary], ordinary, grain="hour")
    assert not judge(fc_ordinary, 1.6 * next(q.value for q in history if q.at == ordinary)).passed


def test_an_empty_early_hour_of_a_series_that_sometimes_counts_zero_is_no_late_opening():
    """The same region where the first hour of every fourth date counts zero: an empty first hour there is a
    count, not a closure, so a day is not read as opening late (nor its spike left to the hard rule) for it."""
    history = _storm_branches(zeros_elsewhere=True)
    target = datetime(2025, 11, 28, 15)  # 28 November's 08h counted zero, as every fourth date's does
    fc = forecast([q for q in history if q.at < target], target, grain="hour")
    assert not any("opened at" in n for n in fc.notes), fc.notes
    assert not judge(fc, 1.6 * next(q.value for q in history if q.at == target)).passed


def _payday_branches(surge_until: date, seed: int = 4, surge: float = 1.45) -> list[Point]:
    """The storm's region without its storm: pay-outs per branch hour, 08-18h Monday to Saturday, 5% noise, and
    a surge x`surge` from noon on Monday 1 December 2025 (a payday's pick-ups) through `surge_until`."""
    rng = random.Random(seed)
    out, day = [], date(2025, 11, 3)
    while day <= date(2025, 12, 6):
        for h in range(8, 19) if day.weekday() < 6 else ():
            at = datetime(day.year, day.month, day.day, h)
            factor = surge if datetime(2025, 12, 1, 12) <= at and day <= surge_until else 1.0
            out.append(Point(at, round(2000 * (0.6 if h in (8, 18) else 1.0) * factor * math.exp(rng.gauss(0, 0.05)))))
        day += timedelta(days=1)
    return out


def test_the_morning_after_a_two_day_surge_may_open_at_the_level_before_it():
    """A payday's surge from Monday noon through Tuesday, not accepted as a shift: Wednesday's 08h back at the
    usual level (main: below_band, read against the run's level x1.45) passes; a 35% drop of it still fails."""
    history = _payday_branches(surge_until=date(2025, 12, 2))
    target = datetime(2025, 12, 3, 8)
    fc = forecast([q for q in history if q.at < target], target, grain="hour")
    clean = next(q.value for q in history if q.at == target)
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.shift, fc.notes)
    assert any("may have ended with its days" in n for n in fc.notes), fc.notes
    assert not judge(fc, 0.65 * clean).passed


def test_a_surge_that_carried_into_a_third_day_or_was_accepted_is_not_read_as_ended():
    """`_surge_may_have_ended` on a run the shift rule found from Monday noon: over two days the next day's first
    hour may open at the level before it; over three days, accepted by its owner, or at a later hour of a day
    already open, the run's level stands."""
    history = _payday_branches(surge_until=date(2025, 12, 3))
    local = {q.at: q.at for q in history} | {datetime(2025, 12, 3, 8): datetime(2025, 12, 3, 8),
                                             datetime(2025, 12, 4, 8): datetime(2025, 12, 4, 8)}
    start = next(i for i, q in enumerate(history) if q.at == datetime(2025, 12, 1, 12))

    def ended(target: datetime, accepted: bool = False) -> float | None:
        pts = [q for q in history if q.at < target]
        run = {"index": start, "ratio": 1.45, "accepted": accepted}
        return volume_model._surge_may_have_ended(run, pts, pts, local, target)

    assert ended(datetime(2025, 12, 3, 8)) == 1.45
    assert ended(datetime(2025, 12, 4, 8)) is None
    assert ended(datetime(2025, 12, 3, 8), accepted=True) is None
    assert ended(datetime(2025, 12, 2, 9)) is None


def test_the_morning_after_a_surge_further_off_than_the_band_is_wide_is_read_at_its_level():
    """A two-day surge of x2.5, more than the band's span (upper/lower): between its level and the one before it a
    35% drop from the surge reads as its end, so the next morning's band is main's, the run's level alone."""
    history = _payday_branches(surge_until=date(2025, 12, 2), surge=2.5)
    target = datetime(2025, 12, 3, 8)
    fc = forecast([q for q in history if q.at < target], target, grain="hour")
    assert fc.shift is not None and not fc.shift["accepted"], fc.shift
    assert fc.shift["ratio"] > fc.upper / fc.lower, (fc.shift, fc.lower, fc.upper)
    assert not any("may have ended with its days" in n for n in fc.notes), fc.notes
    assert not judge(fc, next(q.value for q in history if q.at == target)).passed


def _road_hours(seed: int, weekend_morning: float) -> tuple[list[Point], datetime]:
    """A commuter motorway's transactions per UTC hour, open all day, four weeks from Saturday 2 May 2026:
    a day's curve peaking in the afternoon, weekends x0.9, their 06:00-08:59 x`weekend_morning`; Poisson counts
    with 4% extra noise. Returns the history up to Sunday 31 May 06:00 and that hour."""
    rng = np.random.default_rng(seed)
    start = datetime(2026, 5, 2)

    def mean(at: datetime) -> float:
        level = 5 + 110 * math.exp(-((at.hour - 14) / 6.0) ** 2)
        if at.weekday() >= 5:
            level *= 0.9 * (weekend_morning if 6 <= at.hour <= 8 else 1.0)
        return level

    points = [Point(start + timedelta(hours=i), float(rng.poisson(mean(start + timedelta(hours=i))
                                                                  * math.exp(rng.normal(0, 0.04)))))
              for i in range(24 * 29 + 10)]
    return points, start + timedelta(days=29, hours=6)


def test_an_hourly_series_earns_a_weekend_mornings_run_seen_every_week():
    """A commuter motorway's weekend mornings (06:00-08:59 at x0.5) on four weeks of hours: too few weeks for
    each hour of the week's own test (CELL_MIN_WEEKS), but every past weekend put all three hours below the
    week's hour shape (_earned_runs). Sunday 06:00 is read as "Sun 06h" and passes (main: keyed "06h, Sun", read
    at about 0.55x, below its band), and 09:00 after the three low hours is an ordinary hour, not a level shift
    carried into it (main: a shift of about x0.5 after 3, 09:00 read near 2x)."""
    points, sunday_six = _road_hours(7, 0.5)
    history = [q for q in points if q.at < sunday_six]
    fc = forecast(history, sunday_six, grain="hour")
    value = next(q.value for q in points if q.at == sunday_six)
    assert "Sun 06h" in fc.group, fc.group
    assert judge(fc, value).passed
    nine = sunday_six + timedelta(hours=3)
    fc = forecast([q for q in points if q.at < nine], nine, grain="hour")
    assert fc.shift is None, fc.shift
    assert judge(fc, next(q.value for q in points if q.at == nine)).passed


def test_an_hourly_series_without_a_weekend_morning_run_earns_none():
    """The same motorway without its weekend mornings' dip: no run of hours stands out every week, no hour of
    the week is earned."""
    points, sunday_six = _road_hours(7, 1.0)
    fc = forecast([q for q in points if q.at < sunday_six], sunday_six, grain="hour")
    assert "hour_of_week" not in fc.features or "Sun 06h" not in fc.group, fc.group


def _night_hours_with_festival(seed: int, festival: float) -> tuple[list[Point], datetime]:
    """A city centre's parking sessions per UTC hour, four weeks from Saturday 4 July 2026 and a day on: a day's
    curve peaking at noon with an evening shoulder, Thursday to Saturday nights (21:00-02:59) x1.9 (the bars), and
    six nights of a festival in no calendar, Thursday 30 July to Tuesday 4 August (20:00-02:59) x`festival`;
    Poisson counts with 5% extra noise, to Wednesday 12 August. Returns the hours and Monday 10 August 21:00, the
    next Monday's night."""
    rng = np.random.default_rng(seed)
    start = datetime(2026, 7, 4)

    def mean(at: datetime) -> float:
        level = 20 + 380 * math.exp(-((at.hour - 12) / 4.5) ** 2) + 100 * math.exp(-((at.hour - 21) / 2.0) ** 2)
        night = (at - timedelta(hours=6)).date()  # the evening a small hour belongs to
        if at.hour >= 21 or at.hour <= 2:
            level *= 1.9 if night.weekday() in (3, 4, 5) else 1.0
        if date(2026, 7, 30) <= night <= date(2026, 8, 4) and (at.hour >= 20 or at.hour <= 2):
            level *= festival
        return level

    points = [Point(start + timedelta(hours=i), float(rng.poisson(mean(start + timedelta(hours=i))
                                                                  * math.exp(rng.normal(0, 0.05)))))
              for i in range(24 * 40)]
    return points, datetime(2026, 8, 10, 21)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_hourly_series_keeps_a_nights_run_a_festival_broke_once(seed: int):
    """The week after a festival's six nights (x2.2, in no calendar), on four weeks of hours whose Thursday to
    Saturday nights run x1.9: the festival tips the night hours' shape (more than half of their past nights ran
    high), and each other weekday's nights were low on every past week but the festival's. That one night, far
    beyond its hour's other weeks at every hour of the run, is an event, not a doubt on the weekly shape
    (_earned_runs, _odd_day): Monday 21:00 is read as "Mon 21h" and passes (main: keyed "21h, Mon", read at about
    0.6x, below its band); a 35% drop on it still fails."""
    points, monday_night = _night_hours_with_festival(seed, 2.2)
    fc = forecast([q for q in points if q.at < monday_night][-24 * 28:], monday_night, grain="hour")
    value = next(q.value for q in points if q.at == monday_night)
    assert "Mon 21h" in fc.group, fc.group
    assert judge(fc, value).passed, (value / fc.baseline, fc.lower / fc.baseline)
    assert not judge(fc, 0.65 * value).passed



@pytest.mark.parametrize("seed", [2, 3, 4])
def test_an_hourly_series_counts_a_holiday_worked_as_usual_among_a_nights_run_weeks(seed: int):
    """The same city centre with a holiday in its calendar on Wednesday 22 July, worked as usual: four weeks of
    hours then hold three ordinary Wednesdays, too few for a run (CELL_RUN_MIN_WEEKS), though the holiday's night
    sat where theirs did. Its hours count as one more week of the run (_earned_runs' `calendar_hours`):
    Wednesday 12 August 21:00, after the festival, is read as "Wed 21h" and passes (main: keyed "21h", read at
    about 0.6x, below its band); a 35% drop on it still fails."""
    points, _ = _night_hours_with_festival(seed, 2.2)
    wednesday_night = datetime(2026, 8, 12, 21)
    cal = HolidayCalendar(dates={date(2026, 7, 22): "Founders' Day"})
    fc = forecast([q for q in points if q.at < wednesday_night][-24 * 28:], wednesday_night, grain="hour",
                  calendar_=cal)
    value = next(q.value for q in points if q.at == wednesday_night)
    assert "Wed 21h" in fc.group, fc.group
    assert judge(fc, value).passed, (value / fc.baseline, fc.lower / fc.baseline)
    assert not judge(fc, 0.65 * value).passed

_PARCEL_WEEK = [1.0, 1.05, 1.05, 1.0, 1.1, 0.45, 0.12]  # parcels placed by weekday, Monday first: Sunday vans only


def _parcels(cal: HolidayCalendar, end: date, seed: int, backlog: float = 1.35) -> list[Point]:
    """A parcel network's parcels per day from 1 January 2024 to the day before `end`, open every day: by weekday
    (Sunday closed-like), a holiday run like a Sunday and, where it fell Monday to Saturday, the next working day
    (across the Sunday and further holidays) x`backlog`. 4% noise."""
    rng = random.Random(seed)
    out, day = [], date(2024, 1, 1)
    while day < end:
        back, after = day - timedelta(days=1), False
        while not cal.name(day) and (back.weekday() == 6 or cal.name(back)):
            if cal.name(back) and back.weekday() != 6:
                after = True
                break
            back -= timedelta(days=1)
        f = _PARCEL_WEEK[6] if cal.name(day) else _PARCEL_WEEK[day.weekday()] * (backlog if after else 1.0)
        out.append(Point(datetime(day.year, day.month, day.day), round(6000 * f * math.exp(rng.gauss(0, 0.04)))))
        day += timedelta(days=1)
    return out


@pytest.mark.parametrize("day", [date(2025, 3, 12), date(2025, 6, 25), date(2025, 11, 3)])
def test_the_first_working_day_after_a_day_off_is_read_from_every_holidays_day_after(day: date):
    """Lithuania's holidays, each a group of its own seen once a year: the working day after the Restoration of
    Independence (Wednesday 12 March 2025), after St John's (Wednesday 25 June) and after All Saints' and All
    Souls' (Saturday and Sunday, so Monday 3 November) carries the backlog x1.35 as every holiday's next working
    day did, and the history holds a dozen of them. Main: each read from its own holiday's "+1d" (seen once, or
    on another weekday), above the band at 1.35x. A drop on the day and a doubled day still fail."""
    cal = HolidayCalendar(country="LT")
    history = _parcels(cal, day, seed=day.toordinal() % 5)
    fc = forecast(history[-400:], datetime(day.year, day.month, day.day), calendar_=cal)
    busy = 6000 * _PARCEL_WEEK[day.weekday()] * 1.35
    assert judge(fc, busy).passed, (fc.group, busy / fc.baseline, fc.lower / fc.baseline, fc.upper / fc.baseline)
    assert "a day off +1d" in fc.group, fc.group
    assert not judge(fc, busy * 0.65).passed
    assert not judge(fc, busy * 2).passed


def test_a_day_after_a_holiday_on_a_closed_like_day_is_no_day_after_a_day_off():
    """A holiday on the Sunday a parcel network keeps closed-like leaves no backlog (Mother's Day, the first
    Sunday of May in Lithuania), and a working day after an ordinary day is no day after a day off; a worked
    day after a weekend holiday counts across the Sunday."""
    cal = HolidayCalendar(country="LT")
    working = frozenset(range(6))
    assert not volume_model.after_day_off(date(2025, 5, 5), cal, working)  # after Mother's Day (Sun 4 May)
    assert not volume_model.after_day_off(date(2025, 3, 13), cal, working)  # two days after
    assert volume_model.after_day_off(date(2025, 11, 3), cal, working)  # after Sat 1 and Sun 2 November
    assert volume_model.after_day_off(date(2025, 12, 27), cal, working)  # after 24-26 December
    assert not volume_model.after_day_off(date(2025, 12, 25), cal, working)  # a holiday itself


def test_days_after_a_day_off_are_pooled_only_where_their_occurrences_show_a_backlog():
    """The parcel network's days after a day off run x1.35 every time: the pool is earned. A business whose
    holidays leave no backlog (the parcels at x1.0 after a day off) keeps each holiday's own neighbourhood:
    pooled unearned, days after holidays inside a season's episode would join the ordinary days' spread."""
    cal = HolidayCalendar(country="LT")
    end = date(2025, 12, 1)
    working = frozenset(range(6))
    for backlog, pooled in ((1.35, True), (1.0, False)):
        history = _parcels(cal, end, seed=3, backlog=backlog)[-400:]
        feats = [volume_model.features_of(q.at, "day", cal) for q in history]
        for fv in feats:
            fv["after_gap"] = 0
        after = {q.at.date() for q, fv in zip(history, feats)
                 if not fv["holiday"] and volume_model.after_day_off(q.at.date(), cal, working)}
        assert volume_model._days_off_carry_over(history, feats, after, working) is pooled, backlog
    history = _parcels(cal, end, seed=3, backlog=1.0)[-400:]
    fc = forecast(history, datetime(2025, 11, 3), calendar_=cal)
    assert "a day off" not in fc.group, fc.group


def _weeks_ending_saturday(noise: float = 0.02, closing: float = 0.2, seed: int = 4) -> list[Point]:
    """Four years of a five-day business's weeks, Sunday to Saturday, each dated on its Saturday (a week ending
    Saturday): a Belgian holiday closes its day, a fifth of the week (`closing`)."""
    cal = HolidayCalendar(country="BE")
    rng = random.Random(seed)
    out = []
    for i in range(52 * 4):
        saturday = date(2022, 1, 1) + timedelta(weeks=i)
        closed = sum(1 for k in range(7) if cal.name(saturday - timedelta(days=k)))
        mean = 30_000 * (1 - closing * closed)
        out.append(Point(datetime(saturday.year, saturday.month, saturday.day),
                         round(mean * math.exp(rng.gauss(0, noise)))))
    return out


def test_a_week_dated_on_its_last_day_is_read_as_the_seven_days_to_it():
    """A team keying its weeks on their last day (the week ending Saturday): read from its date, the week ending
    Saturday 14 June 2025 holds no holiday and its Whit Monday lands on the week before, so the clean holiday week
    read 0.69 of an ordinary week and failed, and the misread holiday weeks widened every week's band (a 20% drop
    passed). Its moving holidays' weeks say which days it holds."""
    cal = HolidayCalendar(country="BE")
    history = _weeks_ending_saturday()

    def judged(day: datetime, share: float) -> bool:
        fc = forecast([p for p in history if p.at < day], day, calendar_=cal)
        return judge(fc, share * next(p.value for p in history if p.at == day)).passed

    whitsun = datetime(2025, 6, 14)
    assert judged(whitsun, 1.0)
    assert not judged(whitsun, 0.65)  # a 35% drop on it still fails
    assert not judged(datetime(2025, 9, 20), 0.8)  # a 20% drop on an ordinary week fails
    assert volume_model._week_ends_on_key([p for p in history if p.at < whitsun], cal)
    # the same weeks keyed on their first day (Sunday) keep the first-day reading
    sundays = [replace(p, at=p.at - timedelta(days=6)) for p in history]
    assert not volume_model._week_ends_on_key([p for p in sundays if p.at < whitsun], cal)
    # a weekly series with no holiday signal keeps it too
    flat = _weeks_ending_saturday(closing=0.0)
    assert not volume_model._week_ends_on_key([p for p in flat if p.at < whitsun], cal)


def test_a_declared_week_dating_is_read_over_the_inference():
    """An owner who knows the keys (`week_dated_on` on the check) is read as declared: the weeks ending Saturday
    declared as first days are read from their dates (the clean Whitsun week fails as it did before any
    inference), and a year of them, too short for the holiday weeks to tell, declared as last days is read as
    the seven days to each date. A daily series has no week to date: the declaration leaves it as it was."""
    cal = HolidayCalendar(country="BE")
    history = _weeks_ending_saturday()
    whitsun = datetime(2025, 6, 14)
    past = [p for p in history if p.at < whitsun]
    actual = next(p.value for p in history if p.at == whitsun)
    first = forecast(past, whitsun, calendar_=cal, week_dated_on="first_day")
    assert not judge(first, actual).passed
    assert not any("last day" in note for note in first.notes)
    last = forecast(past, whitsun, calendar_=cal, week_dated_on="last_day")
    assert judge(last, actual).passed and any("week_dated_on" in note for note in last.notes)
    # sixty weeks: the inference keeps the first day, the declaration reads the last
    short = [p for p in past if p.at >= whitsun - timedelta(weeks=60)]
    assert not volume_model._week_ends_on_key(short, cal)
    declared = forecast(short, whitsun, calendar_=cal, week_dated_on="last_day")
    inferred = forecast(short, whitsun, calendar_=cal)
    assert any("week_dated_on" in note for note in declared.notes)
    assert not any("last day" in note for note in inferred.notes)
    days = _daily_noise(200, 0.05, 3)
    day = days[-1].at + timedelta(days=1)
    plain, said = forecast(days, day), forecast(days, day, week_dated_on="last_day")
    assert (said.baseline, said.lower, said.upper) == (plain.baseline, plain.lower, plain.upper)
    assert said.notes == plain.notes


_TERM_BREAKS = [(date(2023, 12, 20), date(2024, 2, 14)), (date(2024, 7, 13), date(2024, 7, 28)),
                (date(2024, 12, 14), date(2025, 2, 2)), (date(2025, 7, 12), date(2025, 7, 27)),
                (date(2025, 12, 13), date(2026, 2, 1))]


def _term_time(target: date, seed: int, ramp: Sequence[float] = ()) -> tuple[list[Point], HolidayCalendar]:
    """A school canteen's orders per day from 1 January 2024 to the day before `target` (no public holidays):
    school days 1.0 (Friday x1.15), weekends x0.04, the declared breaks x0.06 on weekdays; July's break a
    week later in 2025 than in 2024. `ramp`: a term's first school days at these factors. 5% noise."""
    rng = random.Random(seed)
    cal = HolidayCalendar(breaks={"School holidays": _TERM_BREAKS})
    history, day, back = [], date(2024, 1, 1), len(ramp)
    while day < target:
        if day.weekday() >= 5:
            factor = 0.04
        elif any(a <= day <= b for a, b in _TERM_BREAKS):
            factor, back = 0.06, 0
        else:
            factor = (1.15 if day.weekday() == 4 else 1.0) * (ramp[back] if back < len(ramp) else 1.0)
            back += 1
        history.append(Point(datetime(day.year, day.month, day.day), round(4000 * factor * math.exp(rng.gauss(0, 0.05)))))
        day += timedelta(days=1)
    return history, cal


@pytest.mark.parametrize("seed", [1, 2])
def test_a_school_week_is_not_read_with_the_shape_of_last_years_break_in_the_same_weeks(seed: int):
    """Monday 7 July 2025 is a school day; the same weeks of 2024 were the July break (a week earlier that
    year), whose week is flat at the light days' level. That is the break's effect, not a weekly shape of
    early July (main: "the same weeks a year earlier held a weekly shape of their own", the Monday read at
    about half a school Monday, the day itself above the band)."""
    target = date(2025, 7, 7)
    history, cal = _term_time(target, seed)
    fc = forecast(history, datetime(target.year, target.month, target.day), calendar_=cal)
    assert judge(fc, 4000).passed, (fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not judge(fc, 4000 * 0.65).passed
    assert not judge(fc, 4000 * 2).passed


@pytest.mark.parametrize("target", [date(2025, 7, 13), date(2025, 7, 19), date(2026, 1, 10)])
def test_a_weekend_inside_a_declared_break_is_read_at_the_breaks_weekends(target: date):
    """A Saturday or Sunday inside a school break: the break's effect (x0.06 of a school day, learned mostly on
    its weekdays) is not put on top of the weekend's x0.04: the break's days on a light weekday are a part of
    the break of their own, learned on its past weekends (nothing). Main: below x0.01 of a school day, the day
    itself at 4x or more."""
    history, cal = _term_time(target, 3)
    fc = forecast(history, datetime(target.year, target.month, target.day), calendar_=cal)
    assert judge(fc, 4000 * 0.04).passed, (fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not judge(fc, 4000 * 0.04 * 2).passed
    assert not judge(fc, 4000 * 0.04 * 0.5).passed
    assert "(light days)" in fc.group or "season" not in fc.group, fc.group


@pytest.mark.parametrize("target", [date(2025, 7, 28), date(2025, 7, 29)])
def test_a_terms_first_days_back_are_read_from_the_past_term_starts(target: date):
    """A term's first school days climb back (x0.6, x0.7, ... as cards are registered): each is compared with
    the same day back after the past breaks (main: a plain Monday, the first day back at 0.6x below the band)."""
    ramp = [0.6, 0.7, 0.8, 0.9, 0.95]
    history, cal = _term_time(target, 4, ramp)
    k = sum(1 for n in range((target - date(2025, 7, 27)).days) if (date(2025, 7, 28) + timedelta(days=n)).weekday() < 5)
    fc = forecast(history, datetime(target.year, target.month, target.day), calendar_=cal)
    assert judge(fc, 4000 * ramp[k - 1]).passed, (fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not judge(fc, 4000 * ramp[k - 1] * 0.65).passed
    assert not judge(fc, 4000 * ramp[k - 1] * 2).passed
    assert fc.group.startswith(f"season:School holidays (day {k} back)"), fc.group


def _laundromat(end: date, seed: int = 1, subdiv: str = "10") -> tuple[list[Point], HolidayCalendar]:
    """A laundromat's cycles per day in Selangor (Malaysia; `subdiv`, the state) from 1 July 2024, 5% noise: Saturdays x1.55 and
    Sundays x1.35 (a day at home), Fridays x1.1; a holiday is a day at home too, x1.35 on a working day and
    nothing more on a weekend day (the weekend's own level); Eid al-Fitr's and the Lunar New Year's days x0.5
    (the cities emptied, no washing): holidays with an event of their own."""
    rng = random.Random(seed)
    cal = HolidayCalendar(country="MY", subdiv=subdiv)
    out, day = [], date(2024, 7, 1)
    while day < end:
        name = cal.name(day)
        factor = {4: 1.1, 5: 1.55, 6: 1.35}.get(day.weekday(), 1.0)
        if name and day.weekday() < 5:
            factor = 1.35
        if "Eid al-Fitr" in name or "Chinese New Year" in name:
            factor *= 0.5
        out.append(Point(datetime(day.year, day.month, day.day), round(3000 * factor * math.exp(rng.gauss(0, 0.05)))))
        day += timedelta(days=1)
    return out, cal


def _small_branch(new_holiday: date, daily: float, seed: int = 5) -> tuple[list[Point], HolidayCalendar]:
    """Daily Poisson counts of a branch of `daily` jobs a day (busy weekends), its holidays x0.35: six a year
    seen in the history, and `new_holiday` new to the calendar on the last day."""
    rng = np.random.default_rng(seed)
    shape = [0.8, 0.75, 0.75, 0.8, 0.95, 1.5, 1.1]
    dates = {date(y, m, d): name for y in (2024, 2025) for m, d, name in
             ((1, 1, "new_year"), (2, 28, "peace_day"), (4, 4, "childrens_day"), (5, 1, "labour_day"),
              (10, 10, "national_day"), (12, 25, "constitution_day"))}
    dates[new_holiday] = "teachers_day"
    cal = HolidayCalendar(dates=dates)
    out = []
    day = date(2024, 1, 1)
    while day <= new_holiday:
        mean = daily * shape[day.weekday()] * (0.35 if day in dates else 1.0)
        out.append(Point(datetime(day.year, day.month, day.day), int(rng.poisson(mean))))
        day += timedelta(days=1)
    return out, cal


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_holiday_on_a_busy_weekend_day_is_the_weekend_day_not_its_ratio_on_top(seed: int):
    """Thaipusam on Sunday 1 February 2026, seen once before on a Tuesday (x1.35): a day at home on a day the
    series already spends at home is that day's level (x1.35), not the holiday's ratio on top of a Sunday's
    (main: x1.35 twice, the day read at 0.7 of its forecast). The history's holidays fall with their day's
    effect once the two feasts with events of their own (Eid, the Lunar New Year) are left out of the slope."""
    target = date(2026, 2, 1)
    history, cal = _laundromat(target, seed)
    assert cal.name(target).startswith("Thaipusam") and target.weekday() == 6
    fc = forecast(history, datetime(target.year, target.month, target.day), calendar_=cal)
    assert any("read as a level" in n for n in fc.notes), fc.notes
    assert 0.85 <= 3000 * 1.35 / fc.baseline <= 1.15, fc.baseline  # main: 0.72-0.83 (the ratio put on a Sunday)
    assert judge(fc, 3000 * 1.35).passed, (fc.baseline, fc.lower, fc.upper)
    assert not judge(fc, 3000 * 1.35 * 0.65).passed
    assert not judge(fc, 3000 * 1.35 * 2).passed


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_holiday_seen_only_on_weekend_days_reads_on_a_working_day_as_the_holidays_there(seed: int):
    """National Day fell on Saturday 31 August 2024 and Sunday 31 August 2025 (each its weekend day's level: no
    effect seen) and is observed on Monday 1 September 2025: a day at home on a working day, at the level of
    the series' holidays on working days (x1.35; main: a plain Monday, the day read at 1.35x of it)."""
    target = date(2025, 9, 1)
    history, cal = _laundromat(target, seed)
    assert cal.name(target) == "National Day (observed)"
    fc = forecast(history, datetime(target.year, target.month, target.day), calendar_=cal)
    assert any("read as a level" in n for n in fc.notes), fc.notes
    assert judge(fc, 3000 * 1.35).passed, (fc.baseline, fc.lower, fc.upper)
    assert not judge(fc, 3000 * 1.35 * 0.65).passed
    assert not judge(fc, 3000 * 1.35 * 2).passed


def test_holidays_with_an_event_of_their_own_are_left_out_of_the_slope():
    """Ten holidays at x1.35 on working days (reading 0), three on weekend days at the weekend's level (ratio 0
    on a reading of 0.3-0.44), and two feasts at x0.5 on working days: the feasts stand off the line the others
    draw and are left out; the others all stay (a clean holiday is never left out for the slope's sake)."""
    reading = np.array([0.0] * 10 + [0.44, 0.30, 0.44] + [0.0, 0.0])
    ratio = np.array([0.30, 0.32, 0.28, 0.31, 0.29, 0.33, 0.27, 0.30, 0.31, 0.29, 0.0, 0.01, -0.02, -0.40, -0.38])
    keep = volume_model._without_own_events(ratio, reading, 0.05)
    assert keep.tolist() == [True] * 13 + [False, False]
    slope = volume_model._holiday_slope(ratio[keep], reading[keep], 0.05)[0]
    assert slope < volume_model.HOLIDAY_CLOSE_SLOPE
    # on a line the feasts would have drawn flat: every holiday's ratio on its weekday (none left out)
    flat = np.array([0.30] * 13 + [0.28, 0.32])
    assert volume_model._without_own_events(flat, reading, 0.05).all()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_feast_with_an_event_of_its_own_keeps_it_on_a_weekend_day(seed: int):
    """Eid al-Fitr on Saturday 21 March 2026, seen once before on a Monday (the cities emptied: x0.5 of a
    holiday's x1.35): a day at home on a Saturday is the Saturday, and the feast's own event (x0.5) on top of it
    (x1.55 x0.5; main: the day read at 0.77-0.82 of its forecast; read as a level alone, at the weekend's
    holidays' level it would be 0.5x, at its own Monday level 1.3x)."""
    target = date(2026, 3, 21)
    history, cal = _laundromat(target, seed)
    assert cal.name(target) == "Eid al-Fitr" and cal.name(date(2025, 3, 31)) == "Eid al-Fitr"
    fc = forecast(history, datetime(target.year, target.month, target.day), calendar_=cal)
    expected = 3000 * 1.55 * 0.5
    assert 0.85 <= expected / fc.baseline <= 1.2, (fc.baseline, expected)
    assert judge(fc, expected).passed, (fc.baseline, fc.lower, fc.upper)
    assert not judge(fc, expected * 0.65).passed


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_holiday_seen_on_a_sunday_and_its_observed_monday_reads_at_its_level_on_a_thursday(seed: int):
    """Johor's Beginning of Ramadan fell on Sunday 2 March 2025 and was observed on the Monday (x1.35 both: a day
    at home, the Sunday's own level): its ratios on their weekdays (0 and +0.3) average to half a holiday's; on
    Thursday 19 February 2026 it is read at its level, a working day's holiday (main: the averaged ratio, the
    day read at 1.18-1.21x of its forecast and a 35% drop passed)."""
    target = date(2026, 2, 19)
    history, cal = _laundromat(target, seed, subdiv="01")
    assert cal.name(target) == "Beginning of Ramadan"
    fc = forecast(history, datetime(target.year, target.month, target.day), calendar_=cal)
    assert any("read as a level" in n for n in fc.notes), fc.notes
    assert judge(fc, 3000 * 1.35).passed, (fc.baseline, fc.lower, fc.upper)
    assert not judge(fc, 3000 * 1.35 * 0.65).passed


def test_a_line_through_feasts_of_unlike_sizes_reads_no_level():
    """orders_sa's fifth group on Wednesday 2 April 2025, Eid al-Fitr's last day: its calendar's holidays are two
    Eids (x0.35 and x0.5 of a day, on days of every reading) and two open days; leaving the open days out as
    events of their own draws a line of slope -3.4 through the Eids, no level's (-1): the ratios are kept (a
    Theil-Sen start without HOLIDAY_LEVEL_SLOPE_MIN read the day at a level x1.11 and flagged it, 0.78x)."""
    est = ESTATES["orders_sa"](1)
    at = datetime(2025, 4, 2)
    idx = [a for a, _ in est.series].index(at)
    shifts = {s for s in est.shift_at if s <= at}
    history = [_owned(a, v[4], shifts, set()) for a, v in est.series[max(0, idx - _lookback(est)):idx]]
    fc = forecast(history, at, calendar_=est.calendar_of(4))
    assert not any("read as a level" in n for n in fc.notes), fc.notes
    assert judge(fc, est.series[idx][1][4]).passed


def _bridge_road(seed: int, bridge_off: bool = True) -> list[Point]:
    """A commuter motorway's transactions per hour (Croatia's calendar, open all day) from Friday 8 May 2026 to
    Friday 5 June: a day's curve peaking in the afternoon, weekends and holidays x0.9 with their 06:00-08:59 at
    x0.5; Friday 5 June, between Thursday's Corpus Christi and the weekend, runs like them where `bridge_off`
    (in no calendar). Poisson counts with 4% extra noise."""
    cal = HolidayCalendar(country="HR")
    rng = np.random.default_rng(seed)
    start = datetime(2026, 5, 8)

    def mean(at: datetime) -> float:
        level = 5 + 110 * math.exp(-((at.hour - 14) / 6.0) ** 2)
        off = at.weekday() >= 5 or bool(cal.name(at.date())) or (bridge_off and at.date() == date(2026, 6, 5))
        return level * 0.9 * (0.5 if 6 <= at.hour <= 8 else 1.0) if off else level

    return [Point(start + timedelta(hours=i), float(rng.poisson(mean(start + timedelta(hours=i))
                                                                * math.exp(rng.normal(0, 0.04)))))
            for i in range(24 * 28 + 10)]


def test_a_bridge_day_between_a_holiday_and_the_weekend_is_read_from_its_own_hours_so_far():
    """Friday 5 June 2026 lies between Corpus Christi and the weekend (_bridge_days): in no calendar, most take it
    off, and its commuters' 06:00 runs at the weekend's x0.5. Read as a holiday never seen, its hours so far fit
    the weekend's as well as an ordinary Friday's, and 06:00 passes (main: an ordinary Friday's 06h, below the
    band at about 0.5x); 09:00, after three low hours, is no level shift (main: a step of about x0.5 after 3,
    09:00 read near 2x). The same day worked as usual passes from 09:00; at 06:00, where the weekend's and a
    Friday's readings part by more than a band, it is judged as the lowest (a day off more often than not), as any
    holiday hour never seen whose hours so far cannot tell them apart."""
    cal = HolidayCalendar(country="HR")
    assert volume_model._bridge_days(cal, date(2026, 5, 25), date(2026, 6, 10)) == {
        date(2026, 6, 5): "Corpus Christi (bridge day)"}
    for off in (True, False):
        points = _bridge_road(3, bridge_off=off)
        for hour in (6, 9):
            target = datetime(2026, 6, 5, hour)
            fc = forecast([q for q in points if q.at < target], target, grain="hour", calendar_=cal)
            value = next(q.value for q in points if q.at == target)
            assert fc.shift is None, (off, hour, fc.shift)
            if not off and hour == 6:
                assert any("judged as the lowest" in note for note in fc.notes), fc.notes
                continue
            assert judge(fc, value).passed, (off, hour, value, fc.baseline, fc.lower, fc.upper, fc.shift, fc.notes)


def test_a_working_day_between_two_working_days_or_the_weekend_alone_is_no_bridge_day():
    """No bridge without a holiday just before it and a day off after it: a Friday before a weekend, a Tuesday
    after a Monday's holiday (a working Wednesday next) are working days as the calendar has them, and a Monday
    before a Tuesday's holiday is that holiday's eve (the eve rules read it), not a bridge."""
    cal = HolidayCalendar(country="HR")
    # Labour Day on Friday 1 May 2026 and Statehood Day on Saturday 30 May: no working day between one and a day off
    assert volume_model._bridge_days(cal, date(2026, 4, 27), date(2026, 5, 31)) == {}
    # Austria's Monday holiday: the Tuesday after is no bridge (the Wednesday is a working day)
    assert volume_model._bridge_days(HolidayCalendar(country="AT"), date(2026, 5, 25), date(2026, 5, 27)) == {}
    # Czechia's 17 November 2026 on a Tuesday: the Monday before is its eve
    assert volume_model._bridge_days(HolidayCalendar(country="CZ"), date(2026, 11, 14), date(2026, 11, 18)) == {}


def test_a_ramp_whose_latest_points_fell_back_to_the_level_before_its_knot_is_not_extrapolated():
    """`tolls_hr_hourly` (seed 1), the A1 to the coast (group 1): Whitsun's tourists (x1.25 from Saturday to
    Monday, in no calendar) at the end of the window put a hinge's line through them, and on Tuesday morning the
    traffic is back at its level. The line's latest points fell back (_ramp_fell_back), so Tuesday 26 May's 06h
    is read at the level, not along the line (main: the ramp extrapolated by the band's half-width, 0.69x below
    the band); a 35% drop of it still fails."""
    estate = ESTATES["tolls_hr_hourly"](1)
    tz, utc = ZoneInfo(estate.timezone or "UTC"), ZoneInfo("UTC")
    at = datetime(2026, 5, 26, 6).replace(tzinfo=tz).astimezone(utc).replace(tzinfo=None)
    idx = [a for a, _ in estate.series].index(at)
    history = [_owned(a, g[1], set(), set()) for a, g in estate.series[max(0, idx - _lookback(estate)):idx]]
    fc = forecast(history, at, grain="hour", calendar_=estate.calendar, timezone=estate.timezone)
    value = estate.series[idx][1][1]
    assert judge(fc, value).passed, (value, fc.baseline, fc.lower, fc.notes)
    assert not any("trend of their own" in n for n in fc.notes), fc.notes
    assert not judge(fc, 0.65 * value).passed


def test_a_ramp_fell_back_only_where_its_latest_points_left_its_line_by_noise_and_half_its_rise():
    """`_ramp_fell_back`: a median two noise sds against the ramp and nearer its flat level than its line; not
    on the line, nor ahead of it, nor within the noise of a steep ramp."""
    assert volume_model._ramp_fell_back(np.array([-0.3, -0.4, -0.2]), 0.4, 0.09)
    assert volume_model._ramp_fell_back(np.array([0.3, 0.4, 0.2]), -0.4, 0.09)  # a falling ramp climbed back
    assert not volume_model._ramp_fell_back(np.array([0.0, -0.05, 0.05]), 0.4, 0.09)
    assert not volume_model._ramp_fell_back(np.array([0.3, 0.4, 0.2]), 0.4, 0.09)
    assert not volume_model._ramp_fell_back(np.array([-0.15, -0.2, -0.1]), 0.4, 0.09)  # within 2 sds
    assert not volume_model._ramp_fell_back(np.array([-0.3, -0.4, -0.2]), 1.2, 0.09)  # not half the rise back


def _visitors(first_sunday: float, month_start: float = 1.0, seed: int = 11, night: float = 1.0) -> list[Point]:
    """A museum's visitors Tuesday to Sunday over 20 months (Mondays shut), 6% noise, weekends busier;
    `first_sunday` times on the first Sunday of each month (free admission, in no calendar), `month_start`
    times on every day from the 1st to the 5th (a month-start run every weekday shares) and `night` times on the
    third Saturday of June (a museum night, in no calendar: 15 June 2024, 21 June 2025)."""
    rng = random.Random(seed)
    shape = [0.0, 0.8, 0.8, 0.9, 1.0, 1.5, 1.4]
    out = []
    for i in range(610):
        d = date(2024, 1, 2) + timedelta(days=i)
        if d.weekday() == 0:
            continue
        mean = 400.0 * shape[d.weekday()] * (first_sunday if d.weekday() == 6 and d.day <= 7 else 1.0)
        mean *= month_start if d.day <= 5 else 1.0
        mean *= night if d.month == 6 and d.weekday() == 5 and 15 <= d.day <= 21 else 1.0
        out.append(Point(datetime(d.year, d.month, d.day), round(mean * math.exp(rng.gauss(0, 0.06)))))
    return out


def _visitors_at(history: Sequence[Point], target: datetime) -> tuple[volume_model.Forecast, float]:
    i = next(k for k, q in enumerate(history) if q.at == target)
    return forecast(history[max(0, i - 400):i], target, calendar_=HolidayCalendar()), history[i].value


def test_a_first_sunday_of_the_month_earns_its_place():
    # free admission on every first Sunday (x2.2, in no calendar): on main no group held it, so each read ~2.2x
    # against a plain Sunday's band (a hard ratio) and a 50% drop on one passed as an ordinary Sunday
    history = _visitors(2.2)
    for target in (datetime(2025, 6, 1), datetime(2025, 7, 6), datetime(2025, 8, 3)):
        fc, value = _visitors_at(history, target)
        assert "1st Sun of the month" in fc.group, (target, fc.group)
        assert judge(fc, value).passed, (target, value / fc.baseline)
        assert not judge(fc, value * 0.65).passed  # a 35% drop fails
    # the Sunday after is an ordinary Sunday again, and a free Sunday's crowd on it fails
    fc, value = _visitors_at(history, datetime(2025, 8, 10))
    assert "of the month" not in fc.group, fc.group
    assert judge(fc, value).passed and not judge(fc, value * 2.2).passed


def test_no_place_in_the_month_is_earned_where_none_moves_the_series():
    # a plain series (its Sundays vary by noise alone), and a month-start run that lifts every weekday of the 1st
    # to the 5th alike (the month's turn, not a weekday's place): no "n-th weekday of the month" is earned
    for series, calendar_ in ((_visitors(1.0), HolidayCalendar()), (_visitors(1.0, month_start=1.5), HolidayCalendar()),
                              (_orders(days=600, seed=3), _us_calendar())):
        for target in [q.at for q in series[-120:]][::12]:
            i = next(k for k, q in enumerate(series) if q.at == target)
            fc = forecast(series[max(0, i - 400):i], target, calendar_=calendar_)
            assert "of the month" not in fc.group, (target, fc.group)


def test_the_place_a_year_back_is_the_same_weekday_at_the_same_place_in_the_month():
    assert volume_model._place_a_year_back(date(2025, 6, 21), 3) == date(2024, 6, 15)  # June's third Saturday
    assert volume_model._place_a_year_back(date(2025, 11, 28), -1) == date(2024, 11, 29)  # November's last Friday
    assert volume_model._place_a_year_back(date(2025, 11, 28), 4) == date(2024, 11, 22)
    assert volume_model.month_positions(date(2025, 11, 28)) == (4, -1)
    assert volume_model.month_positions(date(2025, 6, 21)) == (3,)


def test_a_one_day_event_a_year_back_at_the_same_place_in_the_month_widens_the_upper_side():
    # a museum night on June's third Saturday (x3.4, in no calendar), seen once a year back on another date: on
    # main the night read 3.4x against a plain Saturday (a hard ratio); now the band reaches it, a drop still fails
    history = _visitors(1.0, night=3.4)
    fc, value = _visitors_at(history, datetime(2025, 6, 21))
    assert judge(fc, value).passed, value / fc.baseline
    assert not judge(fc, value / 3.4 * 0.65).passed  # an ordinary Saturday's 35% drop still fails
    # a Saturday a week later is an ordinary Saturday: its band does not reach the night's
    fc, value = _visitors_at(history, datetime(2025, 6, 28))
    assert judge(fc, value).passed and not judge(fc, value * 1.9).passed


def test_a_zero_on_a_holiday_new_to_the_calendar_is_a_count_where_about_a_row_is_expected():
    # four jobs a day: the branch has been empty on ordinary days (e^-3 a Tuesday), never on this new holiday,
    # about a row expected on it: a zero is a count; a branch of sixty jobs a day still fails an empty holiday
    target = date(2025, 9, 29)
    history, cal = _small_branch(target, 4.0)
    assert any(q.value == 0 for q in history[:-1])
    at = datetime(target.year, target.month, target.day)
    fc = forecast(history[:-1], at, calendar_=cal)
    assert fc.unseen_holiday == "teachers_day"
    assert judge(fc, 0).passed, (fc.baseline, fc.notes)
    busy, cal = _small_branch(target, 60.0)
    fc = forecast(busy[:-1], at, calendar_=cal)
    assert judge(fc, 0).reason == "empty"


def test_only_a_holidays_days_are_read_by_their_earlier_occasions():
    # a holiday's day and a declared season's day, each with one earlier occasion whose residual the fit left
    # (x0.3: the season met once in a group's opening weeks): the holiday's level puts its earlier residual
    # back, the season's day keeps its fitted level, and a holiday on its first occasion reads no level
    from types import SimpleNamespace
    feats = [{"holiday": "feast", "season": ""}, {"holiday": "", "season": "fair -3d"}, {"holiday": "", "season": ""},
             {"holiday": "feast", "season": ""}, {"holiday": "", "season": "fair -3d"}, {"holiday": "founders", "season": ""}]
    fit = SimpleNamespace(feats=feats, used=["holiday", "season"], resid=[-0.2, math.log(0.3), 0.0, 0.0, 0.0, 0.0],
                          e=[7.0, 7.0, 7.0, 7.5, 7.6, 7.7])
    levels = volume_model._calendar_levels(fit, [True, True, False, True, True, True], reach=3)
    assert levels[3] == pytest.approx(7.7) and levels[4] == pytest.approx(7.6) and levels[5] is None
