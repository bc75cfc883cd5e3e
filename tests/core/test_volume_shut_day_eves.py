"""The eves of days an hourly series is shut (_shut_day_eves, _shut_day_eve_hours): each hour of the last open day
before a holiday the series had no partition on is read as that hour on the history's past such eves, pooled over
every holiday it was shut on."""
from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, _shut_day_eves, forecast, judge

START = date(2026, 3, 2)  # a Monday
# three holidays in the history (a Wednesday, a Tuesday, a Thursday), a fourth on the target's next day (a Friday)
HOLIDAYS = {date(2026, 3, 11): "Feast one", date(2026, 3, 24): "Feast two", date(2026, 4, 2): "Feast three",
            date(2026, 4, 10): "Feast four"}
CALENDAR = HolidayCalendar(dates=HOLIDAYS)
TARGET_DAY = date(2026, 4, 9)  # the eve of Feast four
OPEN = range(9, 21)
EVE_LIFT = 1.7  # the afternoon before a shut day (from 14:00)


def _expected(day: date, hour: int, shut_on_holidays: bool = True) -> float:
    """An open hour's rows: a hump towards the evening, busier Fridays and Saturdays, the afternoon before a day the
    shops are shut busier."""
    rows = 40.0 + 260.0 * math.exp(-((hour - 18) / 4.0) ** 2)
    rows *= 1.3 if day.weekday() in (4, 5) else 1.0
    if shut_on_holidays and (day + timedelta(days=1)) in HOLIDAYS and hour >= 14:
        rows *= EVE_LIFT
    return rows


def _series(last: date, shut_on_holidays: bool = True, seed: int = 3) -> list[Point]:
    """Open hours from START to the day before `last` and `last`'s hours before 14:00 (no partition on a holiday
    where the series shuts on them), Poisson-like noise."""
    rng = random.Random(seed)
    points = []
    day = START
    while day <= last:
        if not (shut_on_holidays and day in HOLIDAYS):
            for hour in OPEN:
                if day == last and hour >= 14:
                    break
                mean = _expected(day, hour, shut_on_holidays)
                points.append(Point(datetime(day.year, day.month, day.day, hour),
                                    round(mean * math.exp(rng.gauss(0, 0.04)))))
        day += timedelta(days=1)
    return points


def test_eves_of_shut_holidays_are_read_from_the_partitions() -> None:
    days = sorted({q.at.date() for q in _series(TARGET_DAY)})
    read = _shut_day_eves(days, TARGET_DAY, CALENDAR)
    assert read is not None
    eves, target_eve = read
    assert eves == {date(2026, 3, 10), date(2026, 3, 23), date(2026, 4, 1)}
    assert target_eve
    # a series open on its holidays has no days shut: nothing read
    open_days = sorted({q.at.date() for q in _series(TARGET_DAY, shut_on_holidays=False)})
    assert _shut_day_eves(open_days, TARGET_DAY, CALENDAR) is None


def test_eve_afternoon_before_a_shut_day_is_read_as_past_eves_and_a_drop_fails() -> None:
    history = _series(TARGET_DAY)
    for hour in (15, 18):
        at = datetime(TARGET_DAY.year, TARGET_DAY.month, TARGET_DAY.day, hour)
        fc = forecast(history, at, grain="hour", calendar_=CALENDAR)
        observed = _expected(TARGET_DAY, hour)
        assert f"a day shut {hour:02d}h -1d" in fc.group, (fc.group, fc.notes)
        assert judge(fc, observed).passed, (hour, observed, fc.baseline, fc.lower, fc.upper)
        # a 35% drop on the eve reads as an ordinary afternoon's rows: it fails against the eve's own level
        # (before the rule the eve only widened the band upwards, and the drop passed as an ordinary hour)
        assert not judge(fc, 0.65 * observed).passed, (hour, fc.baseline, fc.lower, fc.upper, fc.group)
        assert not judge(fc, 2 * observed).passed


def test_a_series_open_on_its_holidays_keeps_the_calendars_reading() -> None:
    history = _series(TARGET_DAY, shut_on_holidays=False)
    at = datetime(TARGET_DAY.year, TARGET_DAY.month, TARGET_DAY.day, 15)
    fc = forecast(history, at, grain="hour", calendar_=CALENDAR)
    assert "a day shut" not in fc.group
