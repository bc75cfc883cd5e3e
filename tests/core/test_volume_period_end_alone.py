"""A period end's effect learned on the occasions that show it alone (`_period_ends_alone`). A series open every
day with no period-end effect at all, whose past quarter ends (or months' first days) were mostly holidays, each a
holiday of its own seen once: the holiday and the period end share one residual on those days, the period end's
group is fitted first and takes the holidays' dip, and an ordinary quarter end (first day of a month) then reads far
above its band. Kept apart, the shared days leave the period end's groups: a group left with too few days of its own
reads as the next period's (a quarter's end a month's), never from one day that may be an incident."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

_WEEK = (1.0, 0.95, 0.95, 1.0, 1.1, 1.25, 0.8)  # Monday first (no estate's week)
_HOLIDAY = 0.5  # a holiday halves the day
_NOISE = 0.03
_LEVEL = 2000.0


def _series(start: date, end: date, holidays: dict[date, str], odd: dict[date, float] | None = None,
            seed: int = 3) -> list[Point]:
    """Receipts every day from `start` to `end` (inclusive): the week's shape, x0.5 on the holidays, `odd` days
    moved by their factor (an incident in no calendar), 3% noise; no period-end effect."""
    rng = random.Random(seed)
    out = []
    d = start
    while d <= end:
        f = _WEEK[d.weekday()] * (_HOLIDAY if d in holidays else 1.0) * (odd or {}).get(d, 1.0)
        out.append(Point(datetime(d.year, d.month, d.day), _LEVEL * f * (1 + rng.gauss(0, _NOISE))))
        d += timedelta(days=1)
    return out


def _read(history: list[Point], target: date, cal: HolidayCalendar) -> tuple[float, bool]:
    """The target's ordinary value (its weekday's, no holiday) against the forecast: (ratio to the baseline, passed)."""
    at = datetime(target.year, target.month, target.day)
    fc = forecast(history, at, grain="day", calendar_=cal)
    value = _LEVEL * _WEEK[target.weekday()]
    return value / fc.baseline, judge(fc, value).passed


# three past quarter ends that were holidays, each its own (no estate's calendar), and one that was not
_QUARTER_HOLIDAYS = {date(2024, 3, 31): "Founders' Day", date(2024, 6, 30): "Harvest Day",
                     date(2024, 9, 30): "Charter Day"}
_TARGET_QUARTER = date(2025, 3, 31)


def test_an_ordinary_quarter_end_after_holiday_quarter_ends_reads_as_a_month_end() -> None:
    cal = HolidayCalendar(dates=_QUARTER_HOLIDAYS)
    history = _series(date(2024, 2, 25), _TARGET_QUARTER - timedelta(days=1), _QUARTER_HOLIDAYS)
    ratio, passed = _read(history, _TARGET_QUARTER, cal)
    # (read from the holidays' days, the quarter's end was x0.5: the ordinary day read 2x)
    assert passed, ratio
    assert 0.9 < ratio < 1.1, ratio


def test_one_quarter_end_of_its_own_left_is_not_read_as_the_quarters_effect() -> None:
    # the one quarter end that was no holiday (31 December in a fiscal year ending in June) was an incident's day, x1.5:
    # read from it alone, an ordinary quarter end would read x0.67
    cal = HolidayCalendar(dates=_QUARTER_HOLIDAYS, fiscal_year_end=6)
    odd = {date(2024, 12, 31): 1.5}
    history = _series(date(2024, 2, 25), _TARGET_QUARTER - timedelta(days=1), _QUARTER_HOLIDAYS, odd)
    ratio, passed = _read(history, _TARGET_QUARTER, cal)
    assert passed, ratio
    assert 0.9 < ratio < 1.1, ratio


# the first days of eight months of thirteen were holidays, each its own: a month's turn read from them is x0.5
_FIRSTS = {date(2024, m, 1): f"Feast {m}" for m in (7, 8, 9, 10, 12)} | {
    date(2025, m, 1): f"Feast {m + 12}" for m in (1, 3, 5)}
_TARGET_FIRST = date(2025, 8, 1)


def test_an_ordinary_first_of_the_month_after_holiday_firsts_reads_as_an_ordinary_day() -> None:
    cal = HolidayCalendar(dates=_FIRSTS)
    history = _series(date(2024, 6, 27), _TARGET_FIRST - timedelta(days=1), _FIRSTS)
    ratio, passed = _read(history, _TARGET_FIRST, cal)
    assert passed, ratio
    assert 0.9 < ratio < 1.1, ratio


def test_a_holiday_on_a_quarter_end_reads_the_holiday_and_the_quarter_end() -> None:
    # a quarter's close x1.4 on every quarter end; the same holiday on the last two years' 30 September (x0.5): the
    # target, a third such day, is both (x0.7)
    holidays = {date(y, 9, 30): "Charter Day" for y in (2023, 2024, 2025)}
    cal = HolidayCalendar(dates=holidays, fiscal_year_end=6)
    ends = {date(y, m, d): 1.4 for y in (2023, 2024, 2025) for m, d in ((3, 31), (6, 30), (9, 30), (12, 31))}
    target = date(2025, 9, 30)
    history = _series(date(2024, 8, 26), target - timedelta(days=1), holidays, ends)
    at = datetime(target.year, target.month, target.day)
    fc = forecast(history, at, grain="day", calendar_=cal)
    value = _LEVEL * _WEEK[target.weekday()] * _HOLIDAY * 1.4
    assert judge(fc, value).passed, value / fc.baseline
    assert 0.85 < value / fc.baseline < 1.15, value / fc.baseline
