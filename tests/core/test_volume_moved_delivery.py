"""A route that delivers on its own weekdays only (Tuesdays and Fridays, zero on its other days; the table works
Monday to Saturday, no partition on Sundays) whose holiday's delivery moves to its next working day. A Friday
holiday's delivery lands on the Saturday (a day the calendar counts as the weekend): the Monday after is one of the
route's ordinary empty Mondays, not the moved delivery's day (`_moved_file_landed`). Where nothing landed between the
holiday and the Monday, the Monday is still read as the moved file's day."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

_START = date(2024, 1, 1)  # a Monday
_LEVEL = 5_800.0  # the route's cases on a delivery day
_DAYS = (1, 4)  # Tuesdays and Fridays
# Fridays off (and one Tuesday): each delivery moves to the next working day, Saturday included
_HOLIDAYS = {date(2024, 3, 1): "Spring Friday", date(2024, 6, 18): "Summer Tuesday",
             date(2024, 11, 1): "Autumn Friday", date(2025, 5, 2): "Labour Friday"}
_CAL = HolidayCalendar(dates=_HOLIDAYS)
_LAST = date(2025, 5, 4)  # the Sunday after the last Friday holiday: the history ends on its Saturday


def _route(last: date, saturday_moves: bool = True, seed: int = 3) -> list[Point]:
    """The route's cases per working day (Monday to Saturday) from _START up to `last`: its level on its delivery
    days, a holiday's delivery on the next working day (the Saturday where `saturday_moves`, else the Monday)."""
    rng = random.Random(seed)
    out, d = [], _START
    while d <= last:
        if d.weekday() != 6:
            due = d.weekday() in _DAYS and d not in _HOLIDAYS
            back = d - timedelta(days=1)
            while back.weekday() == 6 or back in _HOLIDAYS or not saturday_moves and back.weekday() == 5:
                due += back in _HOLIDAYS and back.weekday() in _DAYS
                back -= timedelta(days=1)
            if not saturday_moves and d.weekday() == 5:
                due = False
            out.append(Point(datetime.combine(d, datetime.min.time()),
                             float(round(_LEVEL * due * math.exp(rng.gauss(0, 0.05))))))
        d += timedelta(days=1)
    return out


def _monday_after(history: list[Point]) -> datetime:
    return history[-1].at + timedelta(days=2)


def test_the_monday_after_a_friday_holiday_whose_delivery_landed_on_saturday_is_empty_as_usual() -> None:
    history = _route(_LAST)
    assert history[-1].at.date() == date(2025, 5, 3) and history[-1].value > 0  # the moved delivery, Saturday
    fc = forecast(history, _monday_after(history), grain="day", calendar_=_CAL)
    verdict = judge(fc, 0.0)
    assert verdict.passed and verdict.reason == "empty_as_usual", (fc.group, fc.baseline)
    assert fc.closed and "no rows as usual" in fc.group


def test_rows_on_that_monday_read_as_a_delivery_on_a_day_it_never_lands() -> None:
    history = _route(_LAST)
    fc = forecast(history, _monday_after(history), grain="day", calendar_=_CAL)
    assert not judge(fc, _LEVEL).passed


def test_the_monday_stays_the_moved_deliverys_day_where_nothing_landed_on_saturday() -> None:
    # a table that does not work Saturdays for this route: the Friday holiday's delivery lands on the Monday, read
    # as a row day (its delivery passes, its absence fails)
    history = _route(_LAST, saturday_moves=False)
    assert history[-1].value == 0.0
    fc = forecast(history, _monday_after(history), grain="day", calendar_=_CAL)
    assert not fc.closed
    assert judge(fc, _LEVEL).passed
    assert judge(fc, 0.0).reason == "empty"


def test_rows_on_one_of_its_own_weekdays_do_not_stop_the_walk_back() -> None:
    # rows on one of the route's own weekdays between the holiday and the target are that day's delivery: a
    # route delivering Fridays and Saturdays still carries a Friday holiday's delivery to the Monday
    rng = random.Random(4)
    holidays = {date(2024, 3, 1), date(2024, 11, 1), date(2025, 5, 2)}
    history, d = [], _START
    while d <= date(2025, 5, 3):
        if d.weekday() != 6:
            due = (d.weekday() in (4, 5) and d not in holidays) + (d.weekday() == 0 and d - timedelta(days=3)
                                                                   in holidays)
            history.append(Point(datetime.combine(d, datetime.min.time()),
                                 float(round(_LEVEL * due * math.exp(rng.gauss(0, 0.05))))))
        d += timedelta(days=1)
    cal = HolidayCalendar(dates={h: "Friday off" for h in holidays})
    fc = forecast(history, _monday_after(history), grain="day", calendar_=cal)
    assert not fc.closed
    assert judge(fc, _LEVEL).passed
