"""A day whose usual service hours are shut in no calendar (a marathon's road closure on the first Sunday of each
month): the hours next to the closure are read against the past days shut alike; shut for the first time, its first
hour after may carry a backlog; an hour missing alone is no closure: _closure_hours_read, _day_closure in
volume_model."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_model import (
    Point,
    _day_closure,
    _usual_hours,
    forecast,
    judge,
)

_START = datetime(2025, 3, 31)  # a Monday; the first Sundays: 6 April (in the history) and 4 May (the target's)
_HOURS = range(6, 22)  # service hours, 06:00-21:59: no rows, no partition outside
_SHUT = range(9, 12)  # the first Sunday's race: no service 09:00-11:59, no partition
_AROUND = {7: 0.6, 8: 0.6, 12: 2.0, 13: 1.4}  # few out before the roads shut, everyone after they open


def _first_sunday(d: date) -> bool:
    return d.weekday() == 6 and d.day <= 7


def _clean(at: datetime, race: bool = True) -> float:
    weekday = 1000.0 + 60.0 * at.hour if at.weekday() < 5 else 700.0 + 20.0 * at.hour
    return weekday * (_AROUND.get(at.hour, 1.0) if race and _first_sunday(at.date()) else 1.0)


def _series(until: datetime, *, races: bool = True, skip: set[datetime] | None = None, seed: int = 5) -> list[Point]:
    """Hourly points before `until` (the target day's closure, if any, as it ran so far)."""
    rng = random.Random(seed)
    out, at = [], _START
    while at < until:
        race = races or at.date() == until.date()
        shut = race and _first_sunday(at.date()) and at.hour in _SHUT
        if at.hour in _HOURS and not shut and at not in (skip or set()):
            out.append(Point(at, round(_clean(at, race) * math.exp(rng.gauss(0, 0.03)))))
        at += timedelta(hours=1)
    return out


def test_the_hour_after_a_closure_seen_before_reads_as_it_ran_then() -> None:
    target = datetime(2025, 5, 4, 12)  # the race day's first hour after the roads reopen (x2 a Sunday's 12h)
    fc = forecast(_series(target), target, grain="hour")
    assert any("shut" in n and "past day(s) shut alike" in n for n in fc.notes)
    clean = _clean(target)
    assert judge(fc, clean).passed
    assert abs(fc.baseline / clean - 1) < 0.1
    assert not judge(fc, clean * 0.65).passed  # a 35% drop of the hour after a closure still fails
    assert not judge(fc, clean * 2).passed
    assert not judge(fc, 0.0).passed


def test_the_hour_before_a_closure_ahead_reads_as_the_past_closure_days() -> None:
    target = datetime(2025, 5, 4, 7)  # before the roads shut: x0.6, as on 6 April's
    fc = forecast(_series(target), target, grain="hour")
    assert any("the closure ahead" in n for n in fc.notes)
    clean = _clean(target)
    assert judge(fc, clean).passed
    assert not judge(fc, clean * 0.65).passed
    assert not judge(fc, clean * 2).passed  # a double of the quiet hour is an ordinary Sunday's: it still fails


def test_a_day_at_another_place_in_the_month_is_read_as_its_weekday() -> None:
    target = datetime(2025, 5, 11, 7)  # the second Sunday: no race ahead
    fc = forecast(_series(target), target, grain="hour")
    assert not any("shut" in n for n in fc.notes)
    assert judge(fc, _clean(target)).passed


def test_a_closure_never_seen_lets_its_first_hour_after_carry_a_backlog() -> None:
    target = datetime(2025, 5, 4, 12)  # the first race: the history's first Sundays ran as usual
    fc = forecast(_series(target, races=False), target, grain="hour")
    assert any("a closure never seen before" in n for n in fc.notes)
    sunday = _clean(target, race=False)
    assert judge(fc, sunday * 1.7).passed  # the backlog after the closure (beyond the hard ratio, the hard rule's)
    assert not judge(fc, sunday * 0.65).passed  # a 35% drop of the hour after a closure still fails
    assert not judge(fc, 0.0).passed
    assert not judge(fc, sunday * 2.5).passed  # the hard rule still judges a spike


def test_an_hour_missing_alone_is_no_closure() -> None:
    missing = datetime(2025, 5, 6, 10)  # a Tuesday's 10h lost (an outage): no run of usual hours
    target = missing + timedelta(hours=1)
    pts = _series(target, skip={missing})
    had_rows = {q.at for q in pts}
    usual = _usual_hours(had_rows, {a.date() for a in had_rows if a.date() < target.date()})
    assert _day_closure(target.date(), had_rows, usual, target.hour) is None
    assert _day_closure(date(2025, 4, 6), had_rows, usual) == (9, 11)
    fc = forecast(pts, target, grain="hour")
    assert not any("shut" in n for n in fc.notes)
    assert not judge(fc, 0.0).passed
    assert judge(fc, _clean(target)).passed
