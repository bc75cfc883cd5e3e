"""A weekly season whose timing moves between years is read at this year's phase (_season_phase)."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, _season_phase, forecast, judge

START = datetime(2021, 1, 4)  # a Monday
SEASON_WEEKS = 16
PEAK = 12.0  # the season's weeks against the off-season's


def _weekly(starts: list[date], weeks: int, seed: int = 7) -> list[Point]:
    """A weekly series: an off-season of 100 and a season of SEASON_WEEKS weeks (ramped in and out over two weeks)
    from each of `starts`, 3% noise."""
    rng = random.Random(seed)
    out = []
    for i in range(weeks):
        at = START + timedelta(weeks=i)
        f = 1.0
        for s in starts:
            k = (at.date() - s).days // 7
            if 0 <= k < SEASON_WEEKS:
                f = max(f, PEAK * min(1.0, (k + 1) / 3, (SEASON_WEEKS - k) / 3))
        out.append(Point(at, 100 * f * math.exp(rng.gauss(0, 0.03))))
    return out


# the season's start moves by weeks between years (with the rains), this year's four weeks after last year's
MOVING = [date(2021, 10, 4), date(2022, 10, 31), date(2023, 10, 2), date(2024, 10, 28)]
# the same season on the same week of the year every year (a school term)
FIXED = [date(2021, 10, 4), date(2022, 10, 3), date(2023, 10, 2), date(2024, 9, 30)]


def _at(points: list[Point], day: date) -> tuple[list[Point], Point]:
    i = next(j for j, q in enumerate(points) if q.at.date() == day)
    return points[i - 156:i], points[i]


def test_a_moved_season_reads_its_weeks_at_this_years_phase() -> None:
    # this year's season's last weeks, begun four weeks after last year's: by their week of the year they read as
    # last year's weeks after its end (the off-season), some twelve times lower
    points = _weekly(MOVING, 240)
    for day in (date(2025, 1, 13), date(2025, 1, 20), date(2025, 1, 27)):
        past, target = _at(points, day)
        fc = forecast(past, target.at)
        assert judge(fc, target.value).passed, (day, target.value / fc.baseline, fc.notes)
        assert not judge(fc, target.value * 0.65).passed, day  # a 35% drop still fails
        assert any("timing moves between years" in n for n in fc.notes)


def test_the_season_after_a_late_end_reads_as_off_season() -> None:
    # the weeks after this year's (late) season ended: last year's, a month earlier, was over long before
    points = _weekly(MOVING, 240)
    past, target = _at(points, date(2025, 2, 24))
    fc = forecast(past, target.at)
    assert judge(fc, target.value).passed, (target.value / fc.baseline, fc.notes)
    assert not judge(fc, target.value * 2.0).passed


def test_a_season_that_keeps_its_dates_is_not_read_by_phase() -> None:
    points = _weekly(FIXED, 220)
    for day in (date(2024, 10, 21), date(2024, 11, 18), date(2025, 1, 27)):
        past, target = _at(points, day)
        assert _season_phase(past, target.at, HolidayCalendar()) is None, day


def test_one_past_year_is_not_enough() -> None:
    # two years of history hold this year's window at every lag for one past year only
    points = _weekly(MOVING, 220)
    i = next(j for j, q in enumerate(points) if q.at.date() == date(2024, 11, 18))
    past = points[i - 90:i]
    assert _season_phase(past, points[i].at, HolidayCalendar()) is None


def test_a_flat_window_sets_no_phase() -> None:
    # deep in the off-season the latest half-year holds no edge: any lag reads it alike, nothing is read
    points = _weekly(MOVING, 220)
    past, target = _at(points, date(2024, 9, 23))
    assert _season_phase(past, target.at, HolidayCalendar()) is None
