"""A holiday never seen in the history (a one-off day off the owner adds to the calendar: an election, a day of
mourning): its neighbours borrow what the series' other holidays' neighbours show, pooled over every holiday of the
calendar, where those agree (`_eves_of_days_off`, `_days_after_days_off`), and keep the unseen holiday's own
neighbourhood (no effect learned) where they do not. The thirty-ninth round's `cashins_ci` election reads the second
case: its other holidays' eves and days after are ordinary days, so the election's stocking up and the days after it
are the event's own."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core import volume_model
from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

# cash-ins by weekday (Monday first), open every day: a holiday run like a Sunday
_WEEK = (1.0, 0.95, 0.95, 1.0, 1.2, 1.1, 0.6)
_ONE_OFF = date(2025, 6, 11)  # a Wednesday, a week or more from every Czech holiday
_NAME = "Presidential election"


def _series(cal: HolidayCalendar, end: date, seed: int, eve: float, after: float) -> list[Point]:
    """Cash-ins per day from 1 January 2024 to the day before `end`, on `cal`'s holidays: by weekday, a holiday run
    like a Sunday, the eve of a day off x`eve` and the first working day after one x`after`. 4% noise."""
    rng = random.Random(seed)
    working = frozenset(range(7))
    out, day = [], date(2024, 1, 1)
    while day < end:
        f = _WEEK[6] if cal.name(day) else _WEEK[day.weekday()]
        if volume_model.eve_of_day_off(day, cal, working):
            f *= eve
        if volume_model.after_day_off(day, cal, working):
            f *= after
        out.append(Point(datetime(day.year, day.month, day.day), round(20_000 * f * math.exp(rng.gauss(0, 0.04)))))
        day += timedelta(days=1)
    return out


def _forecast(day: date, eve: float, after: float, seed: int = 1) -> volume_model.Forecast:
    """`day`'s forecast on the Czech calendar with the one-off day added, its history generated without it (the day
    off declared at short notice: no past occasion) and with every holiday's eve and day after as given."""
    history = _series(HolidayCalendar(country="CZ"), day, seed, eve, after)[-400:]
    cal = HolidayCalendar(country="CZ", dates={_ONE_OFF: _NAME})
    return forecast(history, datetime(day.year, day.month, day.day), calendar_=cal)


def test_the_one_off_day_off_is_never_seen_in_the_history():
    cal = HolidayCalendar(country="CZ", dates={_ONE_OFF: _NAME})
    assert cal.name(_ONE_OFF) == _NAME
    assert not any(cal.name(date(y, _ONE_OFF.month, _ONE_OFF.day)) for y in (2024,))
    working = frozenset(range(7))
    assert volume_model.eve_of_day_off(_ONE_OFF - timedelta(days=1), cal, working)
    assert volume_model.after_day_off(_ONE_OFF + timedelta(days=1), cal, working)


def test_an_unseen_holiday_s_eve_borrows_every_holiday_s_eve():
    """Every holiday's eve ran x1.3: the one-off day's eve, never seen, is read in the pool ("a day off -1d") and
    passes at x1.3; a drop on it and a doubled eve still fail."""
    day = _ONE_OFF - timedelta(days=1)
    fc = _forecast(day, eve=1.3, after=1.0)
    busy = 20_000 * _WEEK[day.weekday()] * 1.3
    assert "a day off -1d" in fc.group, fc.group
    assert judge(fc, busy).passed, (busy / fc.baseline, fc.lower / fc.baseline, fc.upper / fc.baseline)
    assert not judge(fc, busy * 0.65).passed
    assert not judge(fc, busy * 2).passed


def test_an_unseen_holiday_s_day_after_borrows_every_holiday_s_day_after():
    """Every holiday's first working day after ran x0.75 (everyone home): the one-off day's, never seen, is read in
    the pool ("a day off +1d") and passes at x0.75; a 35% drop on it still fails."""
    day = _ONE_OFF + timedelta(days=1)
    fc = _forecast(day, eve=1.0, after=0.75)
    quiet = 20_000 * _WEEK[day.weekday()] * 0.75
    assert "a day off +1d" in fc.group, fc.group
    assert judge(fc, quiet).passed, (quiet / fc.baseline, fc.lower / fc.baseline, fc.upper / fc.baseline)
    assert not judge(fc, quiet * 0.65).passed


def test_where_the_other_holidays_neighbours_are_ordinary_nothing_is_borrowed():
    """Every holiday's eve and day after ordinary (x1.0): the one-off day's neighbours keep its own neighbourhood,
    with no effect learned, and an ordinary day passes on them."""
    for day in (_ONE_OFF - timedelta(days=1), _ONE_OFF + timedelta(days=1)):
        fc = _forecast(day, eve=1.0, after=1.0)
        assert "a day off" not in fc.group, fc.group
        assert judge(fc, 20_000 * _WEEK[day.weekday()]).passed, (fc.lower / fc.baseline, fc.upper / fc.baseline)
