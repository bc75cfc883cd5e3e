"""A route that delivers on its own weekdays only (Mondays and Thursdays, zero on its other days; the table works
Monday to Saturday, no partition on Sundays) whose holiday's delivery moves to its next working day. Where that day
is one of its own delivery days (the Monday after a Thursday-to-Saturday run of holidays, as after Holy Week) it
holds two deliveries: the series' own past days a delivery moved onto, two at least, each holding a whole moved
delivery, say so (`_carried_file_rows`), and the day is read as its own delivery plus the moved one."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

_START = date(2024, 1, 1)  # a Monday
_LEVEL = 6_500.0  # the route's cases on a delivery day
_DAYS = (0, 3)  # Mondays and Thursdays
_HOLY = {date(2024, 3, 28): "Maundy Thursday", date(2024, 3, 29): "Good Friday", date(2024, 3, 30): "Holy Saturday",
         date(2025, 4, 17): "Maundy Thursday", date(2025, 4, 18): "Good Friday", date(2025, 4, 19): "Holy Saturday"}
# Thursdays off: the delivery moves to the Friday, a day the route never delivers on
_OTHER = {date(2024, 5, 2): "Spring Thursday", date(2024, 12, 26): "Boxing Thursday"}
_TARGET = datetime(2025, 4, 21)  # the Monday after the second Holy Week: its own delivery and Thursday's


def _route(holidays: dict[date, str], moved_share: float = 1.0, seed: int = 7) -> list[Point]:
    """The route's cases per working day (Monday to Saturday) before _TARGET and on it: its level on its delivery
    days, a holiday's delivery (`moved_share` of it) on the next working day."""
    rng = random.Random(seed)
    out, d = [], _START
    while d <= _TARGET.date():
        if d.weekday() != 6:
            files = float(d.weekday() in _DAYS and d not in holidays)
            back = d - timedelta(days=1)
            while back.weekday() == 6 or back in holidays:
                files += moved_share * (back in holidays and back.weekday() in _DAYS)
                back -= timedelta(days=1)
            if d in holidays:
                files = 0.0
            out.append(Point(datetime.combine(d, datetime.min.time()),
                             float(round(_LEVEL * files * math.exp(rng.gauss(0, 0.05))))))
        d += timedelta(days=1)
    return out


def _read(holidays: dict[date, str], moved_share: float = 1.0) -> tuple[float, object]:
    series = _route(holidays, moved_share)
    assert series[-1].at == _TARGET
    return series[-1].value, forecast(series[:-1], _TARGET, grain="day", calendar_=HolidayCalendar(dates=holidays))


def test_the_row_day_a_holidays_delivery_moved_onto_holds_two_deliveries() -> None:
    value, fc = _read({**_HOLY, **_OTHER})
    assert value > 1.8 * _LEVEL  # its own delivery and Maundy Thursday's
    verdict = judge(fc, value)
    assert verdict.passed, (verdict, fc)
    assert any("a holiday's file moved onto" in n for n in fc.notes)


def test_a_drop_or_the_moved_delivery_missing_still_fails() -> None:
    value, fc = _read({**_HOLY, **_OTHER})
    assert not judge(fc, 0.65 * value).passed
    assert not judge(fc, value / 2).passed  # its own delivery only: the moved one lost
    assert not judge(fc, 0.0).passed


def test_one_past_occasion_is_not_enough() -> None:
    # the first Holy Week alone in the history: one past day a delivery moved onto, nothing learned
    value, fc = _read(_HOLY)
    assert not any("a holiday's file moved onto" in n for n in fc.notes)
    assert not judge(fc, value).passed


def test_holidays_whose_deliveries_were_lost_teach_nothing() -> None:
    # the holidays' deliveries never came back (a moved share of none): the Monday holds its own delivery only
    value, fc = _read({**_HOLY, **_OTHER}, moved_share=0.0)
    assert not any("a holiday's file moved onto" in n for n in fc.notes)
    assert judge(fc, value).passed
