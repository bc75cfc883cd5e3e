"""Helpers for the volume model's tests on synthetic weekly series (weeks keyed on their first day)."""
from __future__ import annotations

from datetime import date, timedelta

from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Forecast, ModelParams, Point, forecast, judge


def week_holding(pts: list[Point], day: date) -> int:
    """The index of the week holding `day`."""
    return next(i for i, q in enumerate(pts) if q.at.date() <= day < q.at.date() + timedelta(days=7))


def judged_week(pts: list[Point], i: int, calendar: HolidayCalendar,
                value: float | None = None) -> tuple[bool, Forecast]:
    """Week `i` judged on its four years before (its own value, or `value` in its place), and the forecast."""
    fc = forecast(pts[max(0, i - 4 * 52):i], pts[i].at, grain="day", calendar_=calendar, params=ModelParams())
    return judge(fc, pts[i].value if value is None else value).passed, fc
