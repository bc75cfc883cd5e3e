"""A monthly series of a business closed on its holidays (invoice lines by the month's working days) whose spring
festival (three working days, Thursday, Friday and the Monday after) fell in April every past year and in March this
year, a March that already holds a festival of its own (a one-day feast on a weekday, at another date each year).
No month of the year held the March's new arrangement in the past, so `_moved_holiday_month` has no month to read it
as, and the band held March at its past years' working days: 0.86x failed. `_moved_working_days` lets the band reach
as far as the holidays the month holds on its working days beyond (or short of) every past year's move it: March down
by its three lost days, April up by the three it gained. A drop of a fifth beyond them, and a doubled month, still
fail, and a month whose holidays are those of its past years keeps its band."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Forecast, Point, forecast, judge

_NOTE = "holiday(s) on its working days"
# the one-day feast in March, a weekday each year (no estate's dates)
_FEAST = [date(2019, 3, 12), date(2020, 3, 19), date(2021, 3, 9), date(2022, 3, 16), date(2023, 3, 8),
          date(2024, 3, 13), date(2025, 3, 11)]
# the spring festival's Thursday each year: in April, but in March in 2023
_SPRING = [date(2019, 4, 11), date(2020, 4, 16), date(2021, 4, 8), date(2022, 4, 21), date(2023, 3, 23),
           date(2024, 4, 11), date(2025, 4, 10)]


def _calendar() -> HolidayCalendar:
    days = {d: "Feast" for d in _FEAST}
    for thursday in _SPRING:
        for k in (0, 1, 4):  # Thursday, Friday and the Monday after
            days[thursday + timedelta(days=k)] = "Spring festival"
    return HolidayCalendar(dates=days)


def _month_ends(first: date, count: int) -> list[date]:
    out = []
    year, month = first.year, first.month
    for _ in range(count):
        nxt = date(year + (month == 12), month % 12 + 1, 1)
        out.append(date.fromordinal(nxt.toordinal() - 1))
        year, month = nxt.year, nxt.month
    return out


def _lines(cal: HolidayCalendar, seed: int = 2) -> list[Point]:
    """Invoice lines per month from January 2020: 500 a working day (weekdays but holidays), +0.2% a month, 1%
    noise."""
    rng = random.Random(seed)
    out = []
    for i, end in enumerate(_month_ends(date(2020, 1, 1), 60)):
        days = [date(end.year, end.month, d) for d in range(1, end.day + 1)]
        working = sum(1 for d in days if d.weekday() < 5 and not cal.name(d))
        value = 500.0 * working * 1.002 ** i * math.exp(rng.gauss(0, 0.01))
        out.append(Point(datetime(end.year, end.month, end.day), round(value)))
    return out


def _judged(pts: list[Point], day: date, cal: HolidayCalendar, scale: float = 1.0) -> tuple[bool, float, Forecast]:
    at = datetime(day.year, day.month, day.day)
    i = next(j for j, q in enumerate(pts) if q.at == at)
    fc = forecast(pts[max(0, i - 36):i], at, grain="day", calendar_=cal)
    value = pts[i].value * scale
    return judge(fc, value).passed, value / fc.baseline, fc


def test_festival_moved_into_a_month_with_its_own_reaches_its_lost_days() -> None:
    cal = _calendar()
    pts = _lines(cal)
    passed, ratio, fc = _judged(pts, date(2023, 3, 31), cal)
    assert ratio < 0.9, ratio
    assert passed, (ratio, fc.lower / fc.baseline, fc.notes)
    assert any(_NOTE in n for n in fc.notes), fc.notes


def test_month_that_lost_the_festival_reaches_its_gained_days() -> None:
    cal = _calendar()
    pts = _lines(cal)
    passed, ratio, fc = _judged(pts, date(2023, 4, 30), cal)
    assert ratio > 1.08, ratio
    assert passed, (ratio, fc.upper / fc.baseline, fc.notes)


def test_drops_and_doubles_still_fail() -> None:
    cal = _calendar()
    pts = _lines(cal)
    assert not _judged(pts, date(2023, 3, 31), cal, scale=0.8)[0]
    assert not _judged(pts, date(2023, 4, 30), cal, scale=2.0)[0]


def test_month_with_its_usual_holidays_keeps_its_band() -> None:
    cal = _calendar()
    pts = _lines(cal)
    for day in (date(2023, 5, 31), date(2024, 3, 31)):
        passed, _, fc = _judged(pts, day, cal)
        assert passed and not any(_NOTE in n for n in fc.notes), (day, fc.notes)
