"""A weekly season read at this year's phase reads its holiday weeks too (_phase_holiday_effect): a target week
holding a holiday, and a target whose aligned past week held one, at the holidays' own effect."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import (
    Point,
    _phase_holiday_effect,
    _season_phase,
    _week_holiday_names,
    forecast,
    judge,
)

START = datetime(2021, 1, 4)  # a Monday
SEASON_WEEKS = 16
PEAK = 12.0  # the season's weeks against the off-season's
FAIR = 0.8  # a week holding the fair's day, against its neighbours

# the season's start moves by weeks between years (with the rains), this year's four weeks after last year's
MOVING = [date(2021, 10, 4), date(2022, 10, 31), date(2023, 10, 2), date(2024, 10, 28)]
# a fair every 17 December, in the season's swing every year (its own holiday of the calendar)
FAIRS = {date(y, 12, 17): "Harvest Fair" for y in range(2021, 2026)}


def _weekly(holidays: dict[date, str], weeks: int = 240, seed: int = 7,
            incident: date | None = None) -> list[Point]:
    """A weekly series: an off-season of 100 and a season of SEASON_WEEKS weeks (ramped in and out over three weeks)
    from each of MOVING, a week holding one of `holidays` x FAIR, 3% noise; the week of `incident` x0.3."""
    rng = random.Random(seed)
    out = []
    for i in range(weeks):
        at = START + timedelta(weeks=i)
        f = 1.0
        for s in MOVING:
            k = (at.date() - s).days // 7
            if 0 <= k < SEASON_WEEKS:
                f = max(f, PEAK * min(1.0, (k + 1) / 3, (SEASON_WEEKS - k) / 3))
        if any(at.date() + timedelta(days=d) in holidays for d in range(7)):
            f *= FAIR
        if incident is not None and at.date() == incident:
            f *= 0.3
        out.append(Point(at, 100 * f * math.exp(rng.gauss(0, 0.03))))
    return out


def _at(points: list[Point], day: date) -> tuple[list[Point], Point]:
    i = next(j for j, q in enumerate(points) if q.at.date() == day)
    return points[i - 156:i], points[i]


def test_a_holiday_week_in_a_moved_season_reads_at_this_years_phase() -> None:
    # the week holding this year's fair, in a season begun four weeks after last year's: by its week of the year
    # (and its holiday's past weeks) it reads last year's season a month further on, and the phase reading used to
    # leave a holiday's week to that reading; now it reads the phase, times the fair's own effect
    cal = HolidayCalendar(dates=FAIRS)
    points = _weekly(FAIRS)
    past, target = _at(points, date(2024, 12, 16))
    read = _season_phase(past, target.at, cal)
    assert read is not None
    assert abs(read[0] - math.log(target.value)) < 0.1, math.exp(read[0]) / target.value
    assert "this week's holidays x0.8" in read[2]
    fc = forecast(past, target.at, calendar_=cal)
    assert judge(fc, target.value).passed, (target.value / fc.baseline, fc.notes)
    assert not judge(fc, target.value * 0.65).passed  # a 35% drop still fails


def test_a_week_whose_aligned_past_week_held_a_holiday_reads_at_this_years_phase() -> None:
    # 6 January 2025 aligns with the week of 11 December 2023 (last year's season began four weeks earlier), which
    # held that year's fair: read without the fair's effect, not refused
    cal = HolidayCalendar(dates=FAIRS)
    points = _weekly(FAIRS)
    past, target = _at(points, date(2025, 1, 6))
    read = _season_phase(past, target.at, cal)
    assert read is not None
    assert abs(read[0] - math.log(target.value)) < 0.1, math.exp(read[0]) / target.value
    fc = forecast(past, target.at, calendar_=cal)
    assert judge(fc, target.value).passed, (target.value / fc.baseline, fc.notes)
    assert not judge(fc, target.value * 0.65).passed


def test_a_holiday_seen_in_one_past_week_is_not_read() -> None:
    # a fair held last year for the first time: one past week is an incident as much as a holiday
    once = {date(2023, 12, 17): "Harvest Fair", date(2024, 12, 17): "Harvest Fair"}
    points = _weekly(once)
    past, target = _at(points, date(2024, 12, 16))
    assert _season_phase(past, target.at, HolidayCalendar(dates=once)) is None


def test_years_that_disagree_beyond_the_hard_ratio_read_nothing() -> None:
    # one past year's aligned week lost most of its rows (a scale unrecorded, in no calendar): the two years read
    # the target 3x apart, and two cannot say which is right
    points = _weekly({}, incident=date(2023, 12, 4))
    past, target = _at(points, date(2024, 12, 30))
    assert _season_phase(past, target.at, HolidayCalendar()) is None
    clean = _weekly({})
    past, target = _at(clean, date(2024, 12, 30))
    assert _season_phase(past, target.at, HolidayCalendar()) is not None


def test_a_holiday_week_on_the_seasons_edge_is_no_reading_of_its_effect() -> None:
    # the fair's past weeks each fell on the season's first week (the weeks either side 12x apart): their mean is
    # no reading of the week without the fair
    week = timedelta(weeks=1)
    fair = datetime(2024, 12, 16)
    cal = HolidayCalendar(dates={date(y, 12, 17): "Harvest Fair" for y in (2021, 2022, 2023, 2024)})
    logs = {}
    for back in (1, 2, 3):
        at = datetime(fair.year - back, 12, 17) - timedelta(days=datetime(fair.year - back, 12, 17).weekday())
        logs.update({at - week: math.log(100), at: math.log(400), at + week: math.log(1200)})

    def names_of(a: datetime) -> tuple[str, ...] | None:
        return _week_holiday_names(a, cal)

    def held(a: datetime) -> bool:
        return a.month == 12 and 11 <= a.day <= 17

    assert _phase_holiday_effect(logs, fair, names_of, held) is None
    flat = {a: math.log(1200) if held(a) else math.log(1500) for a in logs}
    read = _phase_holiday_effect(flat, fair, names_of, held)
    assert read is not None and abs(read[0] - math.log(0.8)) < 1e-9
