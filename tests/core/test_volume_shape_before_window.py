"""The bench's owner accepts a weekly shape change made before the evaluated window in the history, as the
estates that declare one say: the model's history carries the mark on the change's first partition."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from benchmarks import detection_bench
from benchmarks.detection_bench import Estate, accepted_before_window, run_estate
from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import ModelParams, Point


def _estate(shape_days: list[int], days: int = 40, evaluate_from: int = 36) -> Estate:
    """Daily, two groups; a weekend that moves for good on each of `shape_days` (Friday light before the
    first, Sunday light after it)."""
    start = datetime(2024, 1, 1)
    first = min(shape_days, default=days)
    series = []
    for i in range(days):
        at = start + timedelta(days=i)
        light = 4 if i < first else 6  # Friday before the move, Sunday after it
        value = 300.0 if at.weekday() == light else 1_000.0
        series.append((at, [0.6 * value, 0.4 * value]))
    shapes = [start + timedelta(days=d) for d in shape_days]
    return Estate("weekend_moved", "day", series, evaluate_from, HolidayCalendar(country="US"), shape_at=shapes)


def test_a_shape_change_before_the_window_is_accepted_on_its_first_partition() -> None:
    estate = _estate([20, 37])
    # the one before the window (day 20) is the owner's already; the one inside it (day 37) waits for its flag
    assert accepted_before_window(estate) == {datetime(2024, 1, 21)}
    assert accepted_before_window(_estate([])) == set()


def test_the_models_history_carries_the_mark_of_a_change_before_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    marks: list[list[datetime]] = []
    real = detection_bench.forecast

    def recording(history: list[Point], target: datetime, **kwargs: object):  # type: ignore[no-untyped-def]
        marks.append([q.at for q in history if q.shape])
        return real(history, target, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(detection_bench, "forecast", recording)
    run_estate(_estate([20]), ModelParams(), stride=4)
    assert marks and all(m == [datetime(2024, 1, 21)] for m in marks), marks
