"""A holiday of several days under one name, on an hourly series (a long weekend's Wednesday to Friday): from its
second day on, an hour whose same hour the history held on one or two past days only is read from the holiday's
hours together (its earlier days' and today's so far, "an ordinary day times a factor"), not from that one or two
past hours, which cannot tell the holiday's effect from an incident or a burst on that hour."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import (
    HOLIDAY_HOUR_OWN_DAYS,
    ModelParams,
    Point,
    _holiday_days_so_far,
    forecast,
    judge,
)

_START = date(2026, 3, 2)  # a Monday: four weeks of hours before the holiday
_FIRST = date(2026, 3, 25)  # a Wednesday: the holiday's three days, one name
_NAME = "Founders' Weekend"
_CAL = HolidayCalendar(dates={_FIRST + timedelta(days=k): _NAME for k in range(3)})
# a pharmacy chain's tickets by local hour, round the clock: an evening peak, quiet nights; Saturdays x0.9,
# Sundays x0.7; the holiday's days x0.65 at every hour (the city away)
_HOURS = [0.15, 0.1, 0.08, 0.07, 0.08, 0.15, 0.35, 0.6, 0.85, 0.9, 0.85, 0.8, 0.8, 0.75, 0.7, 0.75, 0.85, 0.95,
          1.0, 0.95, 0.8, 0.6, 0.4, 0.25]
_PEAK = 1500.0
_HOLIDAY = 0.65


def _expected(at: datetime) -> float:
    day = at.date()
    week = 0.9 if day.weekday() == 5 else 0.7 if day.weekday() == 6 else 1.0
    return _PEAK * _HOURS[at.hour] * week * (_HOLIDAY if _CAL.name(day) else 1.0)


def _tickets(until: datetime, odd_hour: datetime | None = None, odd: float = 1.0, seed: int = 3) -> list[Point]:
    """Hourly tickets up to `until`, `odd_hour` (one hour of the holiday's first day) at `odd` times its clean value."""
    rng = random.Random(seed)
    out, at = [], datetime(_START.year, _START.month, _START.day)
    while at < until:
        mean = _expected(at) * (odd if at == odd_hour else 1.0) * math.exp(rng.gauss(0, 0.04))
        out.append(Point(at, float(max(0, round(mean + math.sqrt(mean) * rng.gauss(0, 1))))))
        at += timedelta(hours=1)
    return out


def _noon(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 12)


def test_an_incident_on_the_first_days_hour_is_not_the_holidays_effect_at_that_hour() -> None:
    # the first day's noon lost most of its tickets (a till down: x0.35 of its holiday level); the second day's
    # clean noon, at the holiday's x0.65, read against that one hour failed above the band
    at = _noon(_FIRST + timedelta(days=1))
    fc = forecast(_tickets(at, _noon(_FIRST), 0.35 / _HOLIDAY), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _expected(at)
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)
    assert any("too few past days for an effect of its own" in n for n in fc.notes), fc.notes
    assert not judge(fc, 0.65 * clean).passed, (clean, fc.lower, fc.notes)  # a 35% drop still fails
    assert not judge(fc, 2 * clean).passed, (clean, fc.upper, fc.notes)  # and a duplicated load


def test_an_hour_whose_one_past_day_ran_as_usual_still_reads_the_holidays_factor() -> None:
    # the first day's noon ran as an ordinary noon (x1.0, a burst): its hour's effect was within the noise and set
    # aside, so the second day's clean noon, at x0.65, read as an ordinary noon failed below the band
    at = _noon(_FIRST + timedelta(days=1))
    fc = forecast(_tickets(at, _noon(_FIRST), 1 / _HOLIDAY), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _expected(at)
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not judge(fc, 0.65 * clean).passed, (clean, fc.lower, fc.notes)
    assert not judge(fc, 2 * clean).passed, (clean, fc.upper, fc.notes)


def _labels(days: list[date], hours: range) -> tuple[list[dict[str, object]], list[str]]:
    feats, named = [], []
    for day in days:
        for hour in hours:
            feats.append({"day": day.toordinal()})
            named.append(f"{_NAME} {hour:02d}h" if _CAL.name(day) else "")
    return feats, named


def test_the_holidays_first_day_and_an_hour_seen_often_keep_their_own_reading() -> None:
    before = [_FIRST - timedelta(days=1)]
    # the first day: no earlier day of the holiday, read as a holiday never seen (from its own hours so far)
    feats, named = _labels(before + [_FIRST], range(12))
    assert _holiday_days_so_far(feats, named, f"{_NAME} 12h", _FIRST.toordinal()) == []
    # the second day: every hour of the holiday so far, the first day's and today's
    feats, named = _labels(before + [_FIRST, _FIRST + timedelta(days=1)], range(12))
    pooled = _holiday_days_so_far(feats, named, f"{_NAME} 12h", (_FIRST + timedelta(days=1)).toordinal())
    assert pooled == list(range(12, 36))
    # an hour the history held on HOLIDAY_HOUR_OWN_DAYS past days is a group of its own
    days = [_FIRST + timedelta(days=k) for k in range(HOLIDAY_HOUR_OWN_DAYS + 1)]
    feats, named = _labels(days, range(13))
    assert _holiday_days_so_far(feats, named, f"{_NAME} 12h", days[-1].toordinal()) == []
    # an ordinary hour is no holiday's
    assert _holiday_days_so_far(feats, named, "", days[-1].toordinal()) == []


def test_a_festival_whose_hours_keep_a_shape_of_their_own_keeps_each_hours_group() -> None:
    # a water festival: its mornings x0.5 and its afternoons x2 of an ordinary day's, the same on each of its days;
    # one factor fits none of its hours, so its second day's afternoon reads as the first day's same hour
    def festival(at: datetime) -> float:
        base = _PEAK * _HOURS[at.hour] * (0.9 if at.weekday() == 5 else 0.7 if at.weekday() == 6 else 1.0)
        return base * ((0.5 if at.hour < 13 else 2.0) if _CAL.name(at.date()) else 1.0)

    at = datetime(_FIRST.year, _FIRST.month, _FIRST.day + 1, 15)
    rng = random.Random(7)
    history, moment = [], datetime(_START.year, _START.month, _START.day)
    while moment < at:
        mean = festival(moment) * math.exp(rng.gauss(0, 0.04))
        history.append(Point(moment, float(round(mean + math.sqrt(mean) * rng.gauss(0, 1)))))
        moment += timedelta(hours=1)
    fc = forecast(history, at, grain="hour", calendar_=_CAL, params=ModelParams())
    assert judge(fc, festival(at)).passed, (festival(at), fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not any("too few past days" in n for n in fc.notes), fc.notes
    assert not judge(fc, 0.65 * festival(at)).passed
