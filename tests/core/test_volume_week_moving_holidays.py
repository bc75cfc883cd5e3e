"""A weekly series' week before a moving holiday's week holds its eves (see _weeks_before_moving_holidays).

A carnival, dated by Easter (its Tuesday a holiday of the calendar, from mid-February to early March), fills its
weekend and the days before it, which fall in the week before the holiday's: that week is no week of the year
(Carnival moves over a month), and no label named it. A fixed-date holiday keeps the week before it as its week of
the year, which holds it every year.
"""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dateutil.easter import easter

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, _moving_holidays, forecast, judge

FIRST = datetime(2021, 1, 4)  # a Monday: weeks keyed on it
WEEKS = 225  # to April 2025
EVE_LIFT, HOLIDAY_LIFT = 1.5, 1.2  # the week before Carnival Tuesday's (its weekend), and the holiday's own
HISTORY = 156  # three years of weeks, as a weekly check reads them


def _carnival_tuesday(year: int) -> date:
    return easter(year) - timedelta(days=47)


CALENDAR = HolidayCalendar(dates={**{_carnival_tuesday(y): "Carnival" for y in range(2020, 2027)},
                                  **{date(y, 6, 10): "Founders Day" for y in range(2020, 2027)}})


def _lift(at: datetime) -> float:
    days = {(at + timedelta(days=k)).date() for k in range(7)}
    ahead = {(at + timedelta(days=7 + k)).date() for k in range(3)}
    carnivals = {_carnival_tuesday(y) for y in (at.year - 1, at.year, at.year + 1)}
    return HOLIDAY_LIFT if days & carnivals else EVE_LIFT if ahead & carnivals else 1.0


def _season(at: datetime) -> float:
    """A yearly season the week of the year earns: six summer weeks x1.6, December's weeks x1.3."""
    week = (at + timedelta(days=3)).isocalendar().week
    return 1.6 if 27 <= week < 33 else 1.3 if week >= 50 else 1.0


def _series(seed: int) -> list[Point]:
    rng = random.Random(seed)
    return [Point(at, 2000.0 * 1.03 ** (i / 52) * _season(at) * _lift(at) * math.exp(rng.gauss(0, 0.03)))
            for i, at in enumerate(FIRST + timedelta(weeks=i) for i in range(WEEKS))]


def _history(points: list[Point], target: datetime) -> list[Point]:
    return [q for q in points if q.at < target][-HISTORY:]


def _week_before_carnival(points: list[Point], year: int) -> Point:
    tuesday = _carnival_tuesday(year)
    return next(q for q in points if 7 <= (tuesday - q.at.date()).days < 14)


def test_the_week_before_a_moving_holiday_reads_as_its_past_weeks_before() -> None:
    """2025's carnival weekend (x1.5) falls in ISO week 9, which held it in no year of the history (2022: week 8,
    2023: 7, 2024: 6): read as its week of the year it is some 1.4-1.6x of it. Read as the past weeks before
    Carnival Tuesday's, it passes; the same week without its weekend's lift (a third of it lost) fails."""
    for seed in (1, 2, 3):
        points = _series(seed)
        week = _week_before_carnival(points, 2025)
        fc = forecast(_history(points, week.at), week.at, grain="day", calendar_=CALENDAR)
        assert "Carnival -1w" in fc.group, (seed, fc.group)
        assert judge(fc, week.value).passed, (seed, week.value / fc.baseline, fc.upper / fc.baseline, fc.group)
        assert not judge(fc, week.value / EVE_LIFT).passed, (seed, fc.lower / fc.baseline, fc.group)


def test_a_week_of_the_year_that_held_the_carnival_weekend_once_reads_as_ordinary() -> None:
    """2025's ordinary weeks 7 and 8 (its carnival weekend is week 9's) held the weekend in 2023 and 2022, Carnival
    Tuesday in 2024 and 2023 (the holiday's label, read apart): their week of the year learned the weekend's lift
    as its own (read 0.81-0.86x). Read apart from it, the week's baseline is within 10% of it, and a 20% drop fails."""
    for seed in (1, 2, 3):
        points = _series(seed)
        for key in (date(2025, 2, 10), date(2025, 2, 17)):
            week = next(q for q in points if q.at.date() == key)
            assert _lift(week.at) == 1.0
            fc = forecast(_history(points, week.at), week.at, grain="day", calendar_=CALENDAR)
            assert judge(fc, week.value).passed, (seed, key, week.value / fc.baseline, fc.group)
            assert 0.9 < week.value / fc.baseline < 1.1, (seed, key, week.value / fc.baseline, fc.group)
            assert not judge(fc, 0.8 * week.value).passed, (seed, key, fc.lower / fc.baseline, fc.group)


def test_only_a_holiday_whose_date_moves_over_a_week_between_years_is_moving() -> None:
    """Carnival moves with Easter; Founders Day (10 June), like an observed day a day or two off a fixed date or
    New Year observed on 31 December, does not."""
    days = [date(2021, 1, 1) + timedelta(days=k) for k in range(4 * 365)]
    cal = HolidayCalendar(dates={**CALENDAR.dates, date(2021, 12, 31): "New Year", date(2023, 1, 2): "New Year"})
    assert _moving_holidays(days, cal) == {"Carnival"}
