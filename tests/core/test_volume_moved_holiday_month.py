"""A monthly series billed in arrears whose moving holiday (a festival dated by the moon, Easter's feasts) leaves part
of its month unbilled, caught up the next month: every past year the festival fell in April (April low, May high),
this year in March. The history cannot tell April's and May's earned effects from the festival's, so the months whose
arrangement of moving holidays (held by the month, or by the month before) differs from their past years' have a band
that also reaches the reading where those effects were the festival's (`_moved_holiday_month`): March as April read,
April as May read, May as a plain May. A drop in the festival's month and a doubled month still fail, and a month
whose festival did not move keeps its band."""

from __future__ import annotations

import math
import random
from datetime import date, datetime

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Forecast, Point, _calendar_months, forecast, judge

_HELD = 0.9  # the festival's month: a tenth of its lines left for the next month
_CAUGHT_UP = 1.1  # the month after it: those lines caught up
_REACH_NOTE = "moving holidays"


def _festival(march_year: int | None) -> dict[date, str]:
    """The festival's days: in April every year, but in March in `march_year`."""
    days = {2019: date(2019, 4, 18), 2020: date(2020, 4, 9), 2021: date(2021, 4, 1), 2022: date(2022, 4, 14),
            2023: date(2023, 4, 27), 2024: date(2024, 4, 11), 2025: date(2025, 4, 17)}
    if march_year is not None:
        days[march_year] = date(march_year, 3, 28)
    return {d: "Spring festival" for d in days.values()}


def _month_ends(first: date, count: int) -> list[date]:
    out = []
    year, month = first.year, first.month
    for _ in range(count):
        nxt = date(year + (month == 12), month % 12 + 1, 1)
        out.append(date.fromordinal(nxt.toordinal() - 1))
        year, month = nxt.year, nxt.month
    return out


def _lines(cal: HolidayCalendar, seed: int = 3) -> list[Point]:
    """Invoice lines per month, dated on its last day, from January 2019: 50,000, x0.9 in the festival's month and
    x1.1 in the month after it, +0.2% a month, 1% noise."""
    rng = random.Random(seed)
    festival = {(d.year, d.month) for d in cal.dates}
    out = []
    for i, end in enumerate(_month_ends(date(2019, 1, 1), 72)):
        before = (end.year, end.month - 1) if end.month > 1 else (end.year - 1, 12)
        value = 50_000.0 * 1.002 ** i * (_HELD if (end.year, end.month) in festival else 1.0) \
            * (_CAUGHT_UP if before in festival else 1.0)
        out.append(Point(datetime(end.year, end.month, end.day), round(value * math.exp(rng.gauss(0, 0.01)))))
    return out


def _judged(pts: list[Point], day: date, cal: HolidayCalendar, scale: float = 1.0) -> tuple[bool, float, Forecast]:
    at = datetime(day.year, day.month, day.day)
    i = next(j for j, q in enumerate(pts) if q.at == at)
    fc = forecast(pts[:i], at, grain="day", calendar_=cal)
    value = pts[i].value * scale
    return judge(fc, value).passed, value / fc.baseline, fc


_MOVED = HolidayCalendar(dates=_festival(2024))


def test_festival_moved_into_march_reads_as_april_did() -> None:
    # (without the reach: 0.90x against a band of about +-5%)
    pts = _lines(_MOVED)
    passed, ratio, fc = _judged(pts, date(2024, 3, 31), _MOVED)
    assert ratio < 0.95, ratio
    assert passed, (ratio, fc.lower / fc.baseline, fc.notes)
    assert any(_REACH_NOTE in n for n in fc.notes), fc.notes


def test_months_after_the_move_read_their_catch_up() -> None:
    # April after the festival's March catches up its lines (1.22x a past April: no festival held, its catch-up
    # in), May has nothing to catch up (0.91x a past May)
    pts = _lines(_MOVED)
    for day, side in ((date(2024, 4, 30), 1), (date(2024, 5, 31), -1)):
        passed, ratio, fc = _judged(pts, day, _MOVED)
        assert (ratio - 1) * side > 0.06, (day, ratio)
        assert passed, (day, ratio, fc.lower / fc.baseline, fc.upper / fc.baseline, fc.notes)


def test_drop_in_the_moved_festivals_month_still_fails() -> None:
    pts = _lines(_MOVED)
    for day, scale in ((date(2024, 3, 31), 0.8), (date(2024, 5, 31), 0.8), (date(2024, 4, 30), 2.0)):
        passed, ratio, _ = _judged(pts, day, _MOVED, scale)
        assert not passed, (day, scale, ratio)


def test_festival_where_it_always_was_keeps_its_band() -> None:
    # the festival in April again: no month's arrangement moved, no reach
    cal = HolidayCalendar(dates=_festival(None))
    pts = _lines(cal)
    for day in (date(2024, 3, 31), date(2024, 4, 30), date(2024, 5, 31)):
        passed, ratio, fc = _judged(pts, day, cal)
        assert passed, (day, ratio)
        assert not any(_REACH_NOTE in n for n in fc.notes), (day, fc.notes)
        assert fc.upper / fc.baseline < 1.1 and fc.lower / fc.baseline > 0.9, (day, fc.lower, fc.upper, fc.baseline)


def test_only_calendar_months_are_read_by_their_days() -> None:
    # lunar months drift through the calendar's months, a quarter holds three: a Gregorian month's days are not
    # their partition's
    ends = [Point(datetime(d.year, d.month, d.day), 1.0) for d in _month_ends(date(2023, 1, 1), 14)]
    firsts = [Point(datetime(2023 + m // 12, m % 12 + 1, 1), 1.0) for m in range(14)]
    lunar = [Point(datetime(2023, 1, 22) + (datetime(2023, 2, 20) - datetime(2023, 1, 22)) * k, 1.0) for k in range(14)]
    assert _calendar_months(ends) and _calendar_months(firsts)
    quarters = [Point(datetime(d.year, d.month, d.day), 1.0) for d in _month_ends(date(2023, 1, 1), 36)[2::3]]
    assert not _calendar_months(lunar) and not _calendar_months(quarters)
