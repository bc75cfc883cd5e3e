"""A group's rows back at the level they held before a run of weeks far below it, in no calendar (a region's road
cut, a depot shut for weeks): the shift rule reads the run as the group's level, so the days its rows come back read
4-6x against it, over the hard ratio, until the level window holds more of them than of the run. Where such a dip
(`_dip_before_return`: a week or more, sudden, the hard ratio deep, not accepted as a shift) is the latest run, the
band also reaches the history read with the dip set aside: a return passes, a doubled day back and a drop still fail,
and a spike after a drop its owner accepted as the new level is a spike."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

_WEEK = (1.0, 0.95, 0.95, 1.0, 1.1, 0.8, 0.3)  # Monday first: a six-day week's light Sunday
_START = date(2024, 1, 1)
_DIP_FROM = date(2025, 1, 13)  # a Monday, 378 days in (no estate's dates)
_DIP_DAYS = 18
_DIP = 0.25  # the run's level against the one before it
_NOISE = 0.05


def _region(days: int = 440, dip: float = _DIP, accepted: bool = False, slide: bool = False, peak: float = 1.0,
            seed: int = 7) -> list[Point]:
    """A region's parcels every day (5% noise, the week's shape) from 1 January 2024: `dip` times the level for
    _DIP_DAYS days from _DIP_FROM, then back; the dip's first day accepted by the owner as a shift where `accepted`;
    where `slide`, the level eases down to `dip` over the same days instead (a trend, no sudden start) and stays;
    `peak` times the level for the ten weeks before _DIP_FROM (a summer season's height, which ends there)."""
    rng = random.Random(seed)
    out = []
    for i in range(days):
        d = _START + timedelta(days=i)
        into = (d - _DIP_FROM).days
        if peak != 1.0:
            f = peak if -70 <= into < 0 else 1.0
        elif slide:
            f = 1.0 if into < 0 else max(dip, 1.0 - (1.0 - dip) * into / (2 * _DIP_DAYS))
        else:
            f = dip if 0 <= into < _DIP_DAYS else 1.0
        mean = 2_000.0 * _WEEK[d.weekday()] * f
        at = datetime(d.year, d.month, d.day)
        out.append(Point(at, round(mean * math.exp(rng.gauss(0, _NOISE))), accepted=accepted and into == 0,
                         shift=accepted and into == 0))
    return out


_BACK = _DIP_FROM + timedelta(days=_DIP_DAYS)  # the first day back (a Friday)
# the first day back, the next days, a week and ten days on (the level reads the dip until its window turns)
_DAYS_BACK = [datetime(d.year, d.month, d.day) for d in (_BACK + timedelta(days=k) for k in (0, 1, 3, 6, 10))]


def _read(history: list[Point], at: datetime) -> tuple[float, object]:
    value = next(q.value for q in history if q.at == at)
    return value, forecast([q for q in history if q.at < at], at, calendar_=HolidayCalendar())


def test_the_days_back_at_the_old_level_pass():
    history = _region()
    failed = []
    for at in _DAYS_BACK:
        value, fc = _read(history, at)
        if not judge(fc, value).passed:
            failed.append((at.date(), round(value / fc.baseline, 2), round(fc.upper / fc.baseline, 2)))
    assert not failed
    _, fc = _read(history, _DAYS_BACK[0])
    assert any("may have ended" in n for n in fc.notes), fc.notes


def test_a_doubled_day_back_and_a_drop_still_fail():
    history = _region()
    for at in _DAYS_BACK:
        value, fc = _read(history, at)
        assert not judge(fc, 2 * value).passed, (at, 2 * value / fc.baseline, fc.upper / fc.baseline)
    # a drop inside the dip: its lower edge is the dip's, as before
    at = datetime.combine(_DIP_FROM + timedelta(days=10), datetime.min.time())
    value, fc = _read(history, at)
    assert not judge(fc, 0.4 * value).passed, (0.4 * value / fc.baseline, fc.lower / fc.baseline)


def test_a_spike_after_a_drop_accepted_as_the_new_level_fails():
    history = _region(accepted=True)
    for at in _DAYS_BACK[:2]:
        value, fc = _read(history, at)
        assert not judge(fc, value).passed, (at, value / fc.baseline, fc.upper / fc.baseline)
        assert not any("may have ended" in n for n in fc.notes)


def test_a_slide_down_is_no_dip():
    history = _region(slide=True)
    at = datetime.combine(_DIP_FROM + timedelta(days=2 * _DIP_DAYS + 4), datetime.min.time())
    value, fc = _read(history, at)
    assert not any("may have ended" in n for n in fc.notes), fc.notes
    assert not judge(fc, value / _DIP).passed, (value / _DIP / fc.baseline, fc.upper / fc.baseline)


def test_a_shallow_dip_is_the_level_rules_own():
    # a run at x0.7 is within the hard ratio: the rule leaves it (the shift rule's, as before)
    history = _region(dip=0.7)
    _, fc = _read(history, _DAYS_BACK[0])
    assert not any("may have ended" in n for n in fc.notes), fc.notes


def test_a_doubled_day_after_a_season_s_height_fails():
    # ten weeks at x3 (a crossing's summer) and back to the year's level: a drop from a height that is not the
    # series' own level is no dip, and a doubled day after it is a doubled day
    history = _region(peak=3.0)
    at = datetime.combine(_DIP_FROM + timedelta(days=8), datetime.min.time())
    value, fc = _read(history, at)
    assert not any("may have ended" in n for n in fc.notes), fc.notes
    assert not judge(fc, 2 * value).passed, (2 * value / fc.baseline, fc.upper / fc.baseline)
