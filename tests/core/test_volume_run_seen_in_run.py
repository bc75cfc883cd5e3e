"""A later day of a holiday run the history never held before it (a festival of several days under one calendar name),
whose hour was seen on enough days for an effect of its own, every one of them an earlier day of the same run: the
hour's effect is then the run's earlier days only, no past occasion of the day. The day is read as its own day until
its hours show it is like them (_run_seen_only_in_run, through _run_day_own_hours), so a run's last days at another
level (a water festival's afternoons x0.25, then the extended days at x0.8) are read from their own hours so far, not
at the festival's afternoon; a day that keeps the run's shape is still read from its earlier days' same hours."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import ModelParams, Point, _run_seen_only_in_run, forecast, judge

_START = date(2026, 3, 2)  # a Monday: four weeks of hours before the run
_RUN = [date(2026, 3, 30) + timedelta(days=k) for k in range(6)]  # Monday to Saturday, one name
_CAL = HolidayCalendar(dates={d: "Water Festival" for d in _RUN})
# transfers by local hour: a day's shape (10:00 = 1); Saturdays x0.9, Sundays x0.75
_HOURS = [0.04, 0.03, 0.02, 0.02, 0.05, 0.2, 0.5, 0.75, 0.9, 0.95, 1.0, 0.95, 0.85, 0.9, 0.95, 0.95, 0.9, 0.95,
          1.0, 0.9, 0.7, 0.45, 0.25, 0.1]
_PEAK = 2000.0
_SPLASH = 4  # the run's first four days: afternoons (09:00-17:59) x0.25, other hours x0.6
_LATER = 0.8  # the run's later days: every hour x0.8


def _festival(at: datetime, nights_kept: bool = False) -> float:
    if at.date() not in _RUN:
        return 1.0
    if _RUN.index(at.date()) < _SPLASH or (nights_kept and not 9 <= at.hour < 18):
        return 0.25 if 9 <= at.hour < 18 else 0.6
    return _LATER


def _ordinary(at: datetime) -> float:
    week = 0.9 if at.weekday() == 5 else 0.75 if at.weekday() == 6 else 1.0
    return _PEAK * _HOURS[at.hour] * week


def _transfers(until: datetime, seed: int = 11, nights_kept: bool = False,
               burst: datetime | None = None) -> list[Point]:
    """Hourly transfers up to `until`; `nights_kept`: the later days' hours outside 09:00-17:59 at the festival's
    x0.6 (only their daytime parts from the run); `burst`: one hour at x3.2 (the later days' daytime level)."""
    rng = random.Random(seed)
    out, at = [], datetime(_START.year, _START.month, _START.day)
    while at < until:
        mean = _ordinary(at) * _festival(at, nights_kept) * math.exp(rng.gauss(0, 0.04)) * (3.2 if at == burst else 1)
        out.append(Point(at, float(max(0, round(mean + math.sqrt(mean) * rng.gauss(0, 1))))))
        at += timedelta(hours=1)
    return out


def _at(day: int, hour: int) -> datetime:
    d = _RUN[day]
    return datetime(d.year, d.month, d.day, hour)


def _read_as_own_day(fc: object) -> bool:
    return any("no past occasion of this day" in n for n in getattr(fc, "notes", []))


def test_a_later_day_at_another_level_is_read_from_its_own_hours() -> None:
    # the fifth day (x0.8 all day) at noon: its 12h was seen on the four festival days (x0.25), all of the same run;
    # read at them, the clean hour failed at 3.2x (the hard ratio)
    at = _at(4, 12)
    fc = forecast(_transfers(at), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _ordinary(at) * _LATER
    assert _read_as_own_day(fc), fc.notes
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)


def test_faults_on_a_later_day_still_fail() -> None:
    # read from its own hours so far, the band is the usual one around them: a doubled hour, a drop of 35% and an
    # empty hour fail
    at = _at(5, 14)
    fc = forecast(_transfers(at), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _ordinary(at) * _LATER
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not judge(fc, 2 * clean).passed, (clean, fc.upper, fc.notes)
    assert not judge(fc, 0.65 * clean).passed, (clean, fc.lower, fc.notes)
    assert not judge(fc, 0.0).passed, fc.notes


def test_a_day_that_keeps_the_runs_shape_is_read_from_its_earlier_days() -> None:
    # the fourth festival day's afternoon (x0.25, as on the three days before): its hours so far read the earlier
    # days' same hours, so the hour keeps its own effect, and a doubled afternoon hour still fails
    at = _at(3, 13)
    fc = forecast(_transfers(at), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _ordinary(at) * 0.25
    assert not _read_as_own_day(fc), fc.notes
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not judge(fc, 2 * clean).passed, (clean, fc.upper, fc.notes)


def test_a_later_day_whose_latest_hours_parted_is_read_from_its_own_hours() -> None:
    # the fifth day's nights as the festival's (x0.6), its daytime x0.8 from 09h: at 13h the median of its gaps to
    # the earlier days' same hours is the nights' (none), but its latest hours (10h-12h) each ran 3.2x theirs
    at = _at(4, 13)
    fc = forecast(_transfers(at, nights_kept=True), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _ordinary(at) * _LATER
    assert _read_as_own_day(fc), fc.notes
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not judge(fc, 2 * clean).passed, (clean, fc.upper, fc.notes)


def test_one_latest_hour_off_the_run_is_no_parting() -> None:
    # the fourth festival day with one afternoon hour (12h) at x3.2 (a burst, a load duplicated): the next hour is
    # still read from the earlier days' same hour, and a doubled afternoon hour there fails
    at = _at(3, 13)
    fc = forecast(_transfers(at, burst=_at(3, 12)), at, grain="hour", calendar_=_CAL, params=ModelParams())
    clean = _ordinary(at) * 0.25
    assert not _read_as_own_day(fc), fc.notes
    assert judge(fc, clean).passed, (clean, fc.baseline, fc.lower, fc.upper, fc.notes)
    assert not judge(fc, 2 * clean).passed, (clean, fc.upper, fc.notes)


def _feats(days: list[int], today: int) -> tuple[list[dict[str, object]], list[str]]:
    """The history's festival hours: each earlier day's noon (`days`) and today's 08h so far (`today`)."""
    feats: list[dict[str, object]] = [{"day": d, "hour_of_day": 12} for d in days] + [{"day": today, "hour_of_day": 8}]
    return feats, ["Water Festival 12h"] * len(days) + ["Water Festival 08h"]


def test_a_run_with_a_past_occasion_keeps_its_hours_own_effects() -> None:
    # with no day of the name before the run and noon seen on its three earlier days, the run's hours are returned
    # (read as its own day until they show it is like them); with a day of the name weeks before (a past occasion),
    # or noon seen on two earlier days only (_holiday_days_so_far's), the rule does not open
    feats, named = _feats([100, 101, 102], 103)
    assert _run_seen_only_in_run(feats, named, "Water Festival 12h", 103) == [0, 1, 2, 3]
    feats, named = _feats([60, 100, 101, 102], 103)
    assert _run_seen_only_in_run(feats, named, "Water Festival 12h", 103) == []
    feats, named = _feats([101, 102], 103)
    assert _run_seen_only_in_run(feats, named, "Water Festival 12h", 103) == []
