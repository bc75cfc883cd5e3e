"""A daily series' run of days off the level before it, in no calendar, that came back (a transfer tax levied: two
weeks of cash-ins held back at x0.8, then back): the run fills the level window, so the days back at the old level
read 1.2-1.3x against it until the window holds them alone. Where the latest days came back to the level before the
run (`_episode_returned`: a run of three days or more, each off that level by half a band at least, and a day since
that fails against the run's level), the run is an episode, not a new level: its days are read back at the level
before it. A run still going, or one whose owner accepted it as a shift, stays the level; a drop on the day back
still fails. A run the model reads otherwise is left to that reading (`_episode_explained`, `_read_a_year_back`): the
level before it a calendar window's (the days after a season seen once, read against the season's level), or a season's
end the year-back rules already step back to (moved back twice, the level overshoots)."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

import pytest

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, _episode_explained, _month_turn, forecast, judge

_WEEK = (1.05, 1.0, 1.0, 1.0, 1.1, 0.9, 0.6)  # Monday first
_START = date(2024, 1, 1)
_RUN_FROM = date(2025, 2, 3)  # a Monday, 399 days in (no estate's dates)
_RUN_DAYS = 14
_RUN = 0.8  # the run's level against the one before it
_LEVEL = 9_000.0
_NOISE = 0.04


def _region(days_back: int, run: float = _RUN, accepted: bool = False, seed: int = 3) -> list[Point]:
    """A region's cash-ins every day (4% noise, the week's shape) from 1 January 2024: `run` times the level for
    _RUN_DAYS days from _RUN_FROM, then back for `days_back` days (the history ends there); the run's first day
    accepted by its owner as a shift where `accepted`."""
    rng = random.Random(seed)
    out = []
    last = _RUN_FROM + timedelta(days=_RUN_DAYS + days_back - 1)
    d = _START
    while d <= last:
        into = (d - _RUN_FROM).days
        f = run if 0 <= into < _RUN_DAYS else 1.0
        value = _LEVEL * _WEEK[d.weekday()] * f * math.exp(rng.gauss(0, _NOISE))
        at = datetime.combine(d, datetime.min.time())
        out.append(Point(at, float(round(value)), accepted=accepted and d == _RUN_FROM,
                         shift=accepted and d == _RUN_FROM))
        d += timedelta(days=1)
    return out


def _next(history: list[Point]) -> tuple[datetime, float]:
    """The day after the history and its value at the level before the run."""
    at = history[-1].at + timedelta(days=1)
    return at, _LEVEL * _WEEK[at.weekday()]


@pytest.mark.parametrize("days_back", [1, 3])
def test_the_days_after_a_run_that_came_back_read_at_the_level_before_it(days_back: int) -> None:
    history = _region(days_back)
    at, value = _next(history)
    fc = forecast(history, at, grain="day")
    assert judge(fc, value).passed, (fc.baseline, fc.lower, fc.upper, value)
    assert abs(value / fc.baseline - 1) < 0.08, (fc.baseline, value)
    assert any("came back to that level" in note for note in fc.notes), fc.notes


def test_without_the_rule_the_day_back_reads_against_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("dw_assets.core.volume_model._episode_returned", lambda *a, **k: None)
    history = _region(1)
    at, value = _next(history)
    fc = forecast(history, at, grain="day")
    assert value / fc.baseline > 1.15, (fc.baseline, value)


def test_a_run_still_going_is_the_level() -> None:
    history = _region(0)
    at, value = _next(history)
    fc = forecast(history, at, grain="day")
    assert not any("came back to that level" in note for note in fc.notes), fc.notes
    assert abs(_RUN * value / fc.baseline - 1) < 0.08, (fc.baseline, value)


def test_a_run_its_owner_accepted_as_a_shift_is_no_episode() -> None:
    history = _region(1, accepted=True)
    at, _ = _next(history)
    fc = forecast(history, at, grain="day")
    assert not any("came back to that level" in note for note in fc.notes), fc.notes


def test_a_drop_on_the_day_back_still_fails() -> None:
    history = _region(1)
    at, value = _next(history)
    fc = forecast(history, at, grain="day")
    assert not judge(fc, 0.75 * value).passed, (fc.baseline, fc.lower, value)


# a season named in the owner's calendar, seen once (a recent launch's history): 28 days at x1.45 from 20 days in, then
# back at the series' own level (12 days), a day's spike near the season's level, then the target
_SEASON_FROM = date(2025, 1, 26)  # (no estate's dates)
_SEASON_DAYS, _SEASON_UP, _AFTER_DAYS = 28, 1.45, 12


def _launched(seed: int = 3) -> tuple[list[Point], HolidayCalendar]:
    """A series launched 20 days before a season in its owner's calendar, `_SEASON_UP` through it and on its last day,
    at its level otherwise (4% noise)."""
    rng = random.Random(seed)
    start = _SEASON_FROM - timedelta(days=20)
    days = 20 + _SEASON_DAYS + _AFTER_DAYS + 1
    out = []
    for k in range(days):
        d = start + timedelta(days=k)
        up = 20 <= k < 20 + _SEASON_DAYS or k == days - 1
        value = 2_000.0 * _WEEK[d.weekday()] * (_SEASON_UP if up else 1.0) * math.exp(rng.gauss(0, _NOISE))
        out.append(Point(datetime.combine(d, datetime.min.time()), float(round(value))))
    season = (_SEASON_FROM, _SEASON_FROM + timedelta(days=_SEASON_DAYS - 1))
    return out, HolidayCalendar(seasons={"Fair": [season]})


def _at_level(history: list[Point]) -> tuple[datetime, float]:
    """The day after the history and its value at the series' own level (the season's x1.45 out)."""
    at = history[-1].at + timedelta(days=1)
    return at, 2_000.0 * _WEEK[at.weekday()]


def test_the_days_after_a_calendar_season_are_no_episode_below_its_level() -> None:
    history, cal = _launched()
    at, value = _at_level(history)
    fc = forecast(history, at, grain="day", calendar_=cal)
    assert not any("came back to that level" in note for note in fc.notes), fc.notes
    assert judge(fc, value).passed, (fc.baseline, fc.lower, value)


def test_without_the_calendar_window_the_days_after_the_season_read_as_an_episode(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("dw_assets.core.volume_model._episode_explained", lambda *a, **k: False)
    history, cal = _launched()
    at, value = _at_level(history)
    fc = forecast(history, at, grain="day", calendar_=cal)
    assert any("came back to that level" in note for note in fc.notes), fc.notes
    assert not judge(fc, value).passed, (fc.baseline, fc.lower, value)


# a lull in no calendar on the seventh lunar month's dates (eleven or nineteen days off the Gregorian ones a year back)
_LULLS = [(date(2024, 8, 4), date(2024, 9, 2)), (date(2025, 8, 23), date(2025, 9, 21))]
_LULL_DAY = date(2025, 9, 24)  # two days after the second lull


def _lunar(seed: int = 7) -> list[Point]:
    """A daily count of about 2,000, x0.6 in each lull, 4% noise, from 1 January 2024 to the day after `_LULL_DAY`."""
    rng = random.Random(seed)
    out = []
    for k in range((_LULL_DAY - date(2024, 1, 1)).days + 1):
        d = date(2024, 1, 1) + timedelta(days=k)
        lull = 0.6 if any(a <= d <= b for a, b in _LULLS) else 1.0
        value = 2_000.0 * _WEEK[d.weekday()] * lull * math.exp(rng.gauss(0, _NOISE))
        out.append(Point(datetime.combine(d, datetime.min.time()), value))
    return out


def test_a_lunar_season_over_is_the_year_back_rules_not_an_episode() -> None:
    series = _lunar()
    fc = forecast(series[-401:-1], series[-1].at, grain="day", calendar_=HolidayCalendar(country="TW"))
    assert any("as it did a year earlier" in note for note in fc.notes), fc.notes
    assert not any("came back to that level" in note for note in fc.notes), fc.notes
    assert judge(fc, series[-1].value).passed, series[-1].value / fc.baseline


def test_without_the_year_back_test_the_lull_is_read_as_an_episode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("dw_assets.core.volume_model._read_a_year_back", lambda *a, **k: False)
    series = _lunar()
    fc = forecast(series[-401:-1], series[-1].at, grain="day", calendar_=HolidayCalendar(country="TW"))
    assert any("came back to that level" in note for note in fc.notes), fc.notes
    assert not any("as it did a year earlier" in note for note in fc.notes), fc.notes


def _days(first: date, n: int) -> tuple[list[Point], list[dict[str, object]]]:
    """`n` points from `first` with the month's turn each day holds (`_month_turn`) as its feature."""
    days = [first + timedelta(days=k) for k in range(n)]
    return ([Point(datetime.combine(d, datetime.min.time()), 1.0) for d in days],
            [{"near_period_end": _month_turn(d)} for d in days])


def test_a_run_on_the_months_turn_is_the_turns_and_one_across_it_is_not() -> None:
    # (a salaries' turn bigger one month: the turn's days are read from a dozen turns a year, not as an episode)
    pts, feats = _days(date(2025, 3, 1), 60)
    plain = [False] * len(pts)
    turn = [i for i, q in enumerate(pts) if date(2025, 3, 28) <= q.at.date() <= date(2025, 4, 3)]  # 6 of 7 on the turn
    assert _episode_explained(pts, feats, plain, turn[0], turn[-1], HolidayCalendar(), 14)
    # (a fortnight from the 2nd, two of its days on the turn: an episode of its own)
    fortnight = [i for i, q in enumerate(pts) if date(2025, 4, 2) <= q.at.date() <= date(2025, 4, 15)]
    assert not _episode_explained(pts, feats, plain, fortnight[0], fortnight[-1], HolidayCalendar(), 14)
