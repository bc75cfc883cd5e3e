"""A declared season that began inside an hourly history with no earlier occasion (_season_own_hours): its hours
read against its own earlier days' shape, not against the weeks before it alone."""
from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, declared_season, forecast, judge

SEASON_FIRST = date(2026, 3, 2)  # a Monday
CALENDAR = HolidayCalendar(seasons={"Festival month": [(SEASON_FIRST, date(2026, 3, 31))]})


def _ordinary(hour: int, day: date) -> float:
    """An ordinary day's rows at `hour`: a daytime hump, quieter weekends."""
    shape = 200.0 + 1800.0 * math.exp(-((hour - 13) / 4.0) ** 2)
    return shape * (0.7 if day.weekday() >= 5 else 1.0)


def _season(hour: int, day: date) -> float:
    """The season's day: nights out three times busier, a dead hour at sunset."""
    factor = 3.0 if hour >= 21 or hour <= 1 else 0.1 if hour == 18 else 1.0
    return _ordinary(hour, day) * factor


def _series(season_days: int, seed: int = 7) -> list[Point]:
    """Five weeks of ordinary hours, then `season_days` days of the season's."""
    rng = random.Random(seed)
    points = []
    day = SEASON_FIRST - timedelta(days=35)
    while day < SEASON_FIRST + timedelta(days=season_days):
        for hour in range(24):
            mean = (_season if day >= SEASON_FIRST else _ordinary)(hour, day)
            points.append(Point(datetime(day.year, day.month, day.day, hour), mean * math.exp(rng.gauss(0, 0.03))))
        day += timedelta(days=1)
    return points


def test_declared_season_names_configured_seasons_and_ramadan_only() -> None:
    assert declared_season(date(2026, 3, 10), CALENDAR) == ("Festival month", SEASON_FIRST)
    assert declared_season(date(2026, 2, 10), CALENDAR) is None
    jordan = HolidayCalendar(country="JO")
    name, first = declared_season(date(2026, 3, 15), jordan) or ("", date.min)
    assert name == "Ramadan" and first < date(2026, 3, 1)


def test_season_hours_read_against_its_own_earlier_days() -> None:
    history = _series(season_days=4)
    target_day = SEASON_FIRST + timedelta(days=4)  # a Friday: its own earlier days are working days
    midnight = datetime.combine(target_day, datetime.min.time())
    night = midnight.replace(hour=22)
    # the day's ordinary hours after the night out, the dead hour at sunset, the night: each as on its earlier days
    # (read against the weeks before it alone, the night's x3 is a new level and the day's hours x0.33)
    for at in (midnight.replace(hour=12), midnight.replace(hour=18), night):
        fc = forecast(history, at, grain="hour", calendar_=CALENDAR)
        observed = _season(at.hour, target_day)
        assert judge(fc, observed).passed, (at, observed, fc.baseline, fc.lower, fc.upper, fc.notes)
        assert "Festival month" in fc.group
        # a duplicated or an empty hour of the season still fails
        assert not judge(fc, 2 * observed).passed
        assert not judge(fc, 0).passed
    # a drop of 35% at the night's busy hour fails against the night's own level
    fc = forecast(history, night, grain="hour", calendar_=CALENDAR)
    assert not judge(fc, 0.65 * _season(22, target_day)).passed


def test_first_day_and_no_season_keep_the_ordinary_reading() -> None:
    history = _series(season_days=0)
    at = datetime.combine(SEASON_FIRST, datetime.min.time()).replace(hour=12)
    fc = forecast(history, at, grain="hour", calendar_=CALENDAR)
    assert "Festival month" not in fc.group
    plain = forecast(history, at, grain="hour", calendar_=HolidayCalendar())
    assert fc.baseline == plain.baseline


def test_first_weekend_of_the_season_reaches_both_readings() -> None:
    history = _series(season_days=5)  # Monday to Friday of the season: working days only
    saturday = SEASON_FIRST + timedelta(days=5)
    at = datetime.combine(saturday, datetime.min.time()).replace(hour=12)
    fc = forecast(history, at, grain="hour", calendar_=CALENDAR)
    plain = forecast(history, at, grain="hour", calendar_=HolidayCalendar())
    assert "Festival month" in fc.group
    # its weekend is unknown yet: as an ordinary Saturday's noon or as its working days' noon moved to a Saturday
    assert fc.lower <= min(plain.lower, _season(12, saturday) * 0.9)
    assert fc.upper >= plain.upper
    assert judge(fc, _season(12, saturday)).passed
    assert not judge(fc, 0).passed


def test_an_earlier_occasion_in_the_history_leaves_the_season_to_the_model() -> None:
    earlier = HolidayCalendar(seasons={"Festival month": [(SEASON_FIRST - timedelta(days=30),
                                                            SEASON_FIRST - timedelta(days=25)),
                                                           (SEASON_FIRST, date(2026, 3, 31))]})
    history = _series(season_days=4)
    at = datetime.combine(SEASON_FIRST + timedelta(days=4), datetime.min.time()).replace(hour=12)
    assert "Festival month" not in forecast(history, at, grain="hour", calendar_=earlier).group
