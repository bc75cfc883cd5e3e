"""A group not launched yet: every partition of its history empty (a district a delivery app has not opened in, a
product line set up before its first sale). Empty is all it has ever been, so an empty partition passes on every
weekday and holiday, rows fail as its launch (for its owner to accept), and a total over it reads the open groups."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, _not_launched, forecast, judge, total_of_groups

_START = datetime(2024, 1, 1)  # a Monday
_DAYS = 400
# a country's calendar: holidays and their neighbourhoods are labels an empty group's days were once read by
_CALENDAR = HolidayCalendar(country="GB")


def _never_counted(days: int = _DAYS) -> list[Point]:
    return [Point(_START + timedelta(days=i), 0.0) for i in range(days)]


def _district(days: int = _DAYS) -> list[Point]:
    """An open district's orders per day, ~1,000, quieter on Sundays."""
    return [Point(_START + timedelta(days=i), 600.0 if (_START + timedelta(days=i)).weekday() == 6 else 1_000.0)
            for i in range(days)]


def test_a_never_counted_group_is_not_launched() -> None:
    assert _not_launched(_never_counted()) == _START
    # one row ever counted is a series of its own, read as usual
    history = _never_counted()
    history[200] = Point(history[200].at, 3.0)
    assert _not_launched(history) is None
    assert _not_launched([]) is None


def test_empty_passes_on_every_weekday_and_holiday() -> None:
    history = _never_counted()
    # a fortnight of weekdays, and the days around Christmas and New Year (holidays and their neighbours)
    targets = [_START + timedelta(days=_DAYS + k) for k in range(14)]
    targets += [datetime(2025, 12, 23) + timedelta(days=k) for k in range(12)]
    for target in targets:
        fc = forecast([q for q in history if q.at < target] or history, target, grain="day", calendar_=_CALENDAR)
        verdict = judge(fc, 0.0)
        assert verdict.passed and verdict.reason == "empty_as_usual", (target, fc.group)
        assert fc.closed and any("not launched" in n for n in fc.notes)


def test_its_first_rows_fail_as_a_launch() -> None:
    fc = forecast(_never_counted(), _START + timedelta(days=_DAYS), grain="day", calendar_=_CALENDAR)
    verdict = judge(fc, 250.0)
    assert not verdict.passed and verdict.reason == "hard_ratio"


def test_a_total_over_it_reads_the_open_groups() -> None:
    target = _START + timedelta(days=_DAYS)  # a Monday
    open_ = forecast(_district(), target, grain="day", calendar_=_CALENDAR)
    waiting = forecast(_never_counted(), target, grain="day", calendar_=_CALENDAR)
    total = forecast([Point(q.at, q.value) for q in _district()], target, grain="day", calendar_=_CALENDAR)
    combined = total_of_groups(total, [open_, waiting])
    assert abs(combined.baseline - open_.baseline) < 1e-6
    assert judge(combined, 1_000.0).passed
    assert not judge(combined, 0.0).passed


def test_hourly_never_counted_hours_pass_empty() -> None:
    start = datetime(2025, 3, 3)
    history = [Point(start + timedelta(hours=h), 0.0) for h in range(28 * 24)]
    for h in range(0, 48, 5):
        target = start + timedelta(hours=28 * 24 + h)
        verdict = judge(forecast(history, target, grain="hour", timezone="Europe/London"), 0.0)
        assert verdict.passed and verdict.reason == "empty_as_usual"


def test_launch_date_is_named() -> None:
    fc = forecast(_never_counted(), _START + timedelta(days=_DAYS), grain="day")
    assert fc.group == f"empty since {date(2024, 1, 1):%Y-%m-%d} (not launched)"
