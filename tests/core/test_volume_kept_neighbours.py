"""An estimated lunar holiday ("Feast (estimated)") is moved a day off its listed date only where its own days show
it: its days around it are read against their weekdays, and neither another holiday nor an event in no calendar (a
lockdown called the week before) among those weekdays, nor a day off observed for a past occasion, tips the choice
(`_as_kept`, `_kept_shift`, `_kept_neighbour`, `_kept_others`, `_kept_explained`)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from datetime import date, datetime, timedelta

import pytest

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, _as_kept, _kept_explained, _kept_others, forecast, judge

_BASE = 900.0
_NOISE = 0.06
_WEEK = (1.0, 1.0, 1.0, 1.0, 1.05, 0.6, 0.15)  # Monday first: a half Saturday, a Sunday counter
_DAY_OFF = 0.2
_PAST = date(2024, 6, 14)  # a Friday: last year's feast, estimated too (every year's date is)
_LISTED = date(2025, 6, 4)  # a Wednesday: this year's, estimated
_NATIONAL_DAY = date(2025, 5, 20)  # a Tuesday: two weeks before the feast's eve
_CALENDAR = HolidayCalendar(dates={_PAST: "Feast (estimated)", _LISTED: "Feast (estimated)", _NATIONAL_DAY: "National Day"})
# the week before the feast (Monday to Thursday) nearly shut, in no calendar
_LOCKDOWN = tuple(date(2025, 5, 26) + timedelta(days=k) for k in range(4))
_LOCKDOWN_FACTOR = 0.05
_SEEDS = range(1, 11)


def _series(seed: int, kept: date, event: Sequence[date] = ()) -> list[Point]:
    """A daily series from May 2024 to June 2025: the feast kept on its listed day in 2024 and on `kept` in 2025,
    National Day a day off, the `event` days nearly shut."""
    rng = random.Random(seed)
    out = []
    day = date(2024, 5, 1)
    while day < date(2025, 7, 1):
        f = _WEEK[day.weekday()]
        f *= _DAY_OFF if day in (_PAST, kept, _NATIONAL_DAY) else 1.0
        f *= _LOCKDOWN_FACTOR if day in event else 1.0
        out.append(Point(datetime(day.year, day.month, day.day), _BASE * f * math.exp(rng.gauss(0, _NOISE))))
        day += timedelta(days=1)
    return out


def _kept_on(points: list[Point], target: date) -> date | None:
    at = datetime(target.year, target.month, target.day)
    cal = _as_kept([q for q in points if q.at < at], at, _CALENDAR)
    return next((d for d in (_LISTED + timedelta(days=k) for k in (-1, 0, 1)) if cal.name(d).startswith("Feast")),
                None)


@pytest.mark.parametrize("seed", _SEEDS)
def test_a_lockdown_the_week_before_leaves_the_feast_on_its_listed_day(seed: int) -> None:
    points = _series(seed, _LISTED, _LOCKDOWN)
    assert _kept_on(points, _LISTED) == _LISTED


@pytest.mark.parametrize("seed", _SEEDS)
def test_a_holiday_among_its_weekdays_leaves_the_feast_on_its_listed_day(seed: int) -> None:
    points = _series(seed, _LISTED)
    for target in (_LISTED, _LISTED + timedelta(days=3)):
        assert _kept_on(points, target) == _LISTED


@pytest.mark.parametrize("seed", _SEEDS)
def test_a_feast_kept_a_day_late_is_still_seen_past_a_lockdown_the_week_before(seed: int) -> None:
    points = _series(seed, _LISTED + timedelta(days=1), _LOCKDOWN)
    assert _kept_on(points, _LISTED + timedelta(days=3)) == _LISTED + timedelta(days=1)


@pytest.mark.parametrize("seed", _SEEDS)
def test_the_feast_day_after_a_lockdown_reads_as_its_past_occasion(seed: int) -> None:
    points = _series(seed, _LISTED, _LOCKDOWN)
    at = datetime(_LISTED.year, _LISTED.month, _LISTED.day)
    fc = forecast([q for q in points if q.at < at], at, grain="day", calendar_=_CALENDAR)
    value = next(q.value for q in points if q.at == at)
    assert "holiday:Feast" in fc.group
    assert judge(fc, value).passed


@pytest.mark.parametrize("seed", _SEEDS)
def test_a_strike_on_the_feasts_eve_leaves_it_on_its_listed_day(seed: int) -> None:
    eve = (_LISTED - timedelta(days=2), _LISTED - timedelta(days=1))
    assert _kept_on(_series(seed, _LISTED, eve), _LISTED) == _LISTED


@pytest.mark.parametrize("seed", _SEEDS)
def test_a_strike_the_days_after_the_feast_leaves_it_on_its_listed_day(seed: int) -> None:
    after = (_LISTED + timedelta(days=1), _LISTED + timedelta(days=2))
    assert _kept_on(_series(seed, _LISTED, after), _LISTED + timedelta(days=3)) == _LISTED


def test_a_day_off_observed_for_a_past_occasion_is_no_day_of_its_run() -> None:
    named = {date(2024, 6, 16): "Feast (estimated)", date(2024, 6, 17): "Feast (observed, estimated)",
             date(2024, 6, 20): "Other Day", _LISTED: "Feast (estimated)"}
    assert set(_kept_others(named, "Feast")) == {date(2024, 6, 17), date(2024, 6, 20)}


def test_a_day_no_alignment_of_the_past_run_explains_is_left_out() -> None:
    shape = {-2: 0.0, -1: 0.1, 0: -1.6, 1: 0.0, 2: 0.0}
    now = {-1: 1.5, 0: -1.5, 1: 0.05}
    assert _kept_explained(now, shape, 0.1) == {0: -1.5, 1: 0.05}
