"""The eves of moving feasts pooled over the calendar's moving feasts (`_eves_of_moving_feasts`), and a day off
observed for one holiday next to another's days read as its own holiday's (`HolidayCalendar._observed_for_own_base`)."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import MOVING_EVE, Point, forecast, judge

_START = date(2024, 10, 7)  # a Monday
_WEEK = (0.95, 0.95, 1.0, 1.0, 1.1, 1.2, 0.85)  # Monday first
_EVE = 1.5  # the eve of a moving feast (sweets, gifts), in no calendar
_HOLIDAY = 0.7  # a holiday's day


def _feast_calendar() -> HolidayCalendar:
    """Two moving feasts (a lunar calendar's: ten days or so earlier every year) and a fixed New Day (18 March); in
    2026 the Spring Feast falls on New Day, a Wednesday ("New Day; Spring Feast", as the `holidays` package joins two
    on one day)."""
    dates: dict[date, str] = {}
    for year in range(2023, 2028):
        dates[date(year, 3, 18)] = "New Day"
    for spring in (date(2023, 4, 21), date(2024, 4, 12), date(2025, 4, 2), date(2027, 3, 8)):
        dates[spring] = "Spring Feast"
    dates[date(2026, 3, 18)] = "New Day; Spring Feast"
    for summer in (date(2023, 7, 1), date(2024, 6, 21), date(2025, 6, 11), date(2026, 6, 1), date(2027, 5, 21)):
        dates[summer] = "Summer Feast"
    return HolidayCalendar(dates=dates)


def _eve(day: date, cal: HolidayCalendar) -> bool:
    ahead = cal.name(day + timedelta(days=1)) or ""
    return "Feast" in ahead and not cal.name(day)


def _clean(day: date, cal: HolidayCalendar, eve: float = _EVE) -> float:
    f = 3000.0 * _WEEK[day.weekday()]
    if cal.name(day):
        f *= _HOLIDAY
    elif _eve(day, cal):
        f *= eve
    return f


def _series(until: date, cal: HolidayCalendar, eve: float = _EVE, seed: int = 4) -> list[Point]:
    rng = random.Random(seed)
    out, d = [], _START
    while d < until:
        out.append(Point(datetime(d.year, d.month, d.day), round(_clean(d, cal, eve) * math.exp(rng.gauss(0, 0.04)))))
        d += timedelta(days=1)
    return out


_TARGET = date(2026, 3, 17)  # a Tuesday, the eve of New Day and the Spring Feast on one day


_AT = datetime(_TARGET.year, _TARGET.month, _TARGET.day)


def test_the_eve_of_a_feast_on_another_holidays_day_reads_the_feasts_eves() -> None:
    # the day before "New Day; Spring Feast": its own label's eve was never seen (without the rule it read x1.5 the
    # ordinary Tuesday, above the band); the past Spring and Summer Feasts' eves (x1.5 each, once each) are one pool
    cal = _feast_calendar()

    fc = forecast(_series(_TARGET, cal), _AT, calendar_=cal)
    assert MOVING_EVE in fc.group
    assert judge(fc, _clean(_TARGET, cal)).passed


def test_a_drop_on_a_feasts_eve_still_fails() -> None:
    cal = _feast_calendar()

    fc = forecast(_series(_TARGET, cal), _AT, calendar_=cal)
    assert not judge(fc, 0.5 * _clean(_TARGET, cal)).passed


def test_ordinary_eves_are_no_pool() -> None:
    # a business whose feasts' eves are ordinary days: the eve keeps the calendar's own reading, ordinary
    cal = _feast_calendar()

    fc = forecast(_series(_TARGET, cal, eve=1.0), _AT, calendar_=cal)
    assert MOVING_EVE not in fc.group
    assert judge(fc, _clean(_TARGET, cal, eve=1.0)).passed


def test_a_day_off_observed_next_to_another_holiday_is_its_own_holidays() -> None:
    # Azerbaijan 2026: Eid al-Fitr on Novruz's Saturday, its day off observed on Wednesday 25 March after Novruz's
    # last day: Eid's day off, not Novruz's (the bridge named it "Spring Festival")
    az = HolidayCalendar(country="AZ")
    assert az.identity(date(2026, 3, 25)) == "Eid al-Fitr (observed)"
    # Trinidad 2025: Spiritual Baptist Liberation Day on a Sunday, observed on the Tuesday after Eid al-Fitr's Monday
    assert HolidayCalendar(country="TT").identity(date(2025, 4, 1)) == "Spiritual Baptist Liberation Day (observed)"
    # an observed day next to its own holiday's family keeps the bridge (Nigeria's "Eid al-Fitr Holiday")
    assert HolidayCalendar(country="NG").identity(date(2025, 4, 1)) == "Eid al-Fitr Holiday"


def _az_day(day: date, cal: HolidayCalendar) -> float:
    name = cal.name(day) or ""
    f = 2000.0 * _WEEK[day.weekday()]
    if "Spring Festival" in name:
        f *= 0.6
    elif "Eid" in name:
        f *= 0.8
    elif name:
        f *= 0.85
    return f


def test_eids_day_off_after_novruz_reads_eids_past() -> None:
    # without the rule the day read Novruz's x0.6 and Eid's x0.8 stood 1.33x above it
    cal = HolidayCalendar(country="AZ")
    target = date(2026, 3, 25)
    rng = random.Random(2)
    history, d = [], target - timedelta(days=400)
    while d < target:
        history.append(Point(datetime(d.year, d.month, d.day), round(_az_day(d, cal) * math.exp(rng.gauss(0, 0.04)))))
        d += timedelta(days=1)
    fc = forecast(history, datetime(2026, 3, 25), calendar_=cal)
    assert "Eid al-Fitr" in fc.group
    assert judge(fc, _az_day(target, cal)).passed
    assert not judge(fc, 0.5 * _az_day(target, cal)).passed
