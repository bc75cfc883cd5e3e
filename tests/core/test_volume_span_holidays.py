"""A series of multi-day partitions (fortnights keyed on their first day) whose days after the key hold a moving
holiday the key day's label never names: read against the partition a year back, where the holiday sat elsewhere,
its shut days are learned per day and the partition holding them is expected short by their share, not read as an
ordinary one (see _span_holidays). A holiday on the same date every year sits in the same place of the year and is
left to the place's reading."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

import pytest

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import ModelParams, Point, _span_holidays, forecast, judge

_START = datetime(2022, 1, 6)  # a Thursday: fortnights keyed on their first day
_FORTNIGHTS = 96
SEASON = 0.0
# a three-day feast moving eleven to thirteen days earlier a year (a lunar calendar's), never on a key day
_FEAST = [date(2022, 5, 3), date(2023, 4, 22), date(2024, 4, 9), date(2025, 3, 29)]


def _keys() -> list[datetime]:
    return [_START + timedelta(days=14 * i) for i in range(_FORTNIGHTS)]


def _calendar(fixed: bool = False) -> HolidayCalendar:
    """The feast's three days each year (or, `fixed`, three days on the same dates every year)."""
    firsts = [date(y, 4, 22) for y in range(2022, 2026)] if fixed else _FEAST
    return HolidayCalendar(dates={d + timedelta(days=k): "Feast" for d in firsts for k in range(3)})


def _series(cal: HolidayCalendar, seed: int) -> list[Point]:
    """Sales per fortnight, ~100,000 with a yearly season of +-15% and 2.5% noise; the stores shut on the
    feast's days, so a fortnight holding them sells 11/14 of an ordinary one."""
    rng = random.Random(seed)
    out = []
    for at in _keys():
        shut = sum(1 for k in range(14) if cal.name(at.date() + timedelta(days=k)))
        season = 1 + SEASON * math.sin(2 * math.pi * at.timetuple().tm_yday / 365.25)
        out.append(Point(at, round(100_000.0 * season * (14 - shut) / 14 * math.exp(rng.gauss(0, 0.025)))))
    return out


def _target(cal: HolidayCalendar) -> int:
    """The 2025 fortnight holding the feast's first day (never its key day)."""
    return next(i for i, at in enumerate(_keys()) if at.year == 2025 and any(
        cal.name(at.date() + timedelta(days=k)) for k in range(1, 14)))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_fortnight_holding_a_moving_feast_after_its_key_day_passes_and_its_drop_fails(seed: int) -> None:
    cal = _calendar()
    pts = _series(cal, seed)
    i = _target(cal)
    assert not cal.name(pts[i].at.date())  # the key day is no holiday: the label names nothing
    fc = forecast(pts[:i], pts[i].at, grain="day", calendar_=cal, params=ModelParams())
    clean = pts[i].value
    assert judge(fc, clean).passed, (clean / fc.baseline, fc.lower / fc.baseline, fc.upper / fc.baseline)
    assert not judge(fc, clean * 0.65).passed
    assert any("after its key day" in note for note in fc.notes)


def test_the_feast_is_read_per_day_from_the_years_it_moved() -> None:
    cal = _calendar()
    pts = _series(cal, 1)
    i = _target(cal)
    read = _span_holidays(pts[:i], [math.log(q.value) for q in pts[:i]], [{"holiday": ""}] * i, pts[i].at, cal, 14)
    assert read is not None
    _, effect, _ = read
    assert math.exp(effect) == pytest.approx(11 / 14, abs=0.04)


def test_a_holiday_on_the_same_dates_every_year_is_left_to_the_place_of_the_year() -> None:
    cal = _calendar(fixed=True)
    pts = _series(cal, 1)
    i = _target(cal)
    assert _span_holidays(pts[:i], [math.log(q.value) for q in pts[:i]], [{"holiday": ""}] * i, pts[i].at, cal,
                          14) is None
