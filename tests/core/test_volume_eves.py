"""The eve of a day off (the last working day before a holiday on a working day) pooled over every holiday of the
calendar, where the history's eves agree: cash drawn the day before any day off, each holiday's own eve seen once a
year."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

import pytest

from dw_assets.core import volume_model
from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

# cash withdrawals by weekday (Monday first), open every day: a quieter Sunday, a holiday run like a Sunday
_CASH_WEEK = (1.0, 0.95, 0.95, 1.0, 1.2, 1.1, 0.6)


def _cash(cal: HolidayCalendar, end: date, seed: int, eve: float = 1.3) -> list[Point]:
    """Withdrawals per day from 1 January 2024 to the day before `end`: by weekday, a holiday run like a Sunday,
    and the day before a holiday x`eve` (every day is a working day: the Sunday is not light enough to be
    closed-like). 4% noise."""
    rng = random.Random(seed)
    working = frozenset(range(7))
    out, day = [], date(2024, 1, 1)
    while day < end:
        f = _CASH_WEEK[6] if cal.name(day) else _CASH_WEEK[day.weekday()]
        if volume_model.eve_of_day_off(day, cal, working):
            f *= eve
        out.append(Point(datetime(day.year, day.month, day.day), round(20_000 * f * math.exp(rng.gauss(0, 0.04)))))
        day += timedelta(days=1)
    return out


def test_the_eve_of_a_day_off_is_the_last_working_day_before_a_holiday_on_a_working_day():
    cal = HolidayCalendar(country="CZ")
    working = frozenset(range(6))
    assert volume_model.eve_of_day_off(date(2025, 10, 27), cal, working)  # before Tuesday 28 October
    assert volume_model.eve_of_day_off(date(2025, 5, 7), cal, working)  # before Thursday 8 May
    assert volume_model.eve_of_day_off(date(2025, 11, 15), cal, working)  # Saturday, across the Sunday, to Monday 17
    assert not volume_model.eve_of_day_off(date(2025, 11, 16), cal, working)  # a Sunday, no working day
    assert not volume_model.eve_of_day_off(date(2025, 9, 27), cal, working)  # before Sunday 28 September
    assert not volume_model.eve_of_day_off(date(2025, 10, 26), cal, working)  # two days before
    assert not volume_model.eve_of_day_off(date(2025, 12, 25), cal, working)  # a holiday itself


@pytest.mark.parametrize("day", [date(2025, 10, 27), date(2025, 5, 7)])
def test_the_eve_of_a_day_off_is_read_from_every_holidays_eve(day: date):
    """Czech holidays, each a neighbourhood of its own seen once a year: the eve of 28 October (Monday 27) and of
    8 May (Wednesday 7) draw x1.3 as every holiday's eve did. Main: read from its own holiday's "-1d", seen once,
    above the band. A drop on the eve and a doubled eve still fail."""
    cal = HolidayCalendar(country="CZ")
    history = _cash(cal, day, seed=day.toordinal() % 5)
    fc = forecast(history[-400:], datetime(day.year, day.month, day.day), calendar_=cal)
    busy = 20_000 * _CASH_WEEK[day.weekday()] * 1.3
    assert judge(fc, busy).passed, (fc.group, busy / fc.baseline, fc.lower / fc.baseline, fc.upper / fc.baseline)
    assert "a day off -1d" in fc.group, fc.group
    assert not judge(fc, busy * 0.65).passed
    assert not judge(fc, busy * 2).passed


def test_eves_are_pooled_only_where_the_history_s_eves_agree():
    """A series whose eves are ordinary (x1.0) keeps each holiday's own neighbourhood; one whose eves ran x1.3
    earns the pool."""
    cal = HolidayCalendar(country="CZ")
    end = date(2025, 12, 1)
    working = frozenset(range(7))
    for eve, pooled in ((1.3, True), (1.0, False)):
        history = _cash(cal, end, seed=3, eve=eve)[-400:]
        feats = [volume_model.features_of(q.at, "day", cal) for q in history]
        eves = {q.at.date() for q, fv in zip(history, feats)
                if not fv["holiday"] and volume_model.eve_of_day_off(q.at.date(), cal, working)}
        assert volume_model._eves_agree(history, feats, eves, working) is pooled, eve
    history = _cash(cal, end, seed=3, eve=1.0)[-400:]
    fc = forecast(history, datetime(2025, 10, 27), calendar_=cal)
    assert "a day off" not in fc.group, fc.group


def test_an_eve_with_a_rush_of_its_own_keeps_its_name():
    """Every eve x1.3, and 23 December (the eve of the Czech Christmas Eve holiday) x1.3 again: its own past eves
    stood off the pool by far more than the noise, so it keeps its own neighbourhood (and its own lift) rather than
    the pool's; every other holiday's eve joins the pool."""
    cal = HolidayCalendar(country="CZ")
    day = date(2025, 12, 24)
    history = [Point(q.at, round(q.value * (1.3 if (q.at.month, q.at.day) == (12, 23) else 1.0)))
               for q in _cash(cal, day, seed=2)][-400:]
    working = frozenset(range(7))
    feats = [volume_model.features_of(q.at, "day", cal) for q in history]
    eves = {q.at.date() for q, fv in zip(history, feats)
            if not fv["holiday"] and volume_model.eve_of_day_off(q.at.date(), cal, working)}
    own = volume_model._eves_of_their_own(history, feats, eves, working)
    christmas_eve = next(str(fv["near_holiday"]) for q, fv in zip(history, feats) if q.at.date() == date(2024, 12, 23))
    assert own == {christmas_eve}, own
    # and read so, the day's rush passes where the pool's lift alone would leave it above the band
    target = date(2025, 12, 23)
    past = [q for q in history if q.at.date() < target]
    fc = forecast(past, datetime(target.year, target.month, target.day), calendar_=cal)
    busy = 20_000 * _CASH_WEEK[target.weekday()] * 1.3 * 1.3
    assert judge(fc, busy).passed, (fc.group, busy / fc.baseline, fc.lower / fc.baseline, fc.upper / fc.baseline)
    assert not judge(fc, busy * 0.65).passed
