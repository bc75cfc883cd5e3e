"""Robust baselines for volume checks: median, MAD, the expected band, comparable periods.

Why median + MAD: a history of six month-ends may itself hold one bad load; the median and the
median absolute deviation ignore a single outlier where mean and standard deviation would not.

The expected band is the WIDER of two bands, per side:
- the ratio band `[lower_ratio * baseline, upper_ratio * baseline]`: the tolerance the owner
  configured, and a floor that keeps a very steady history (MAD ~ 0) from flagging a 1% wobble;
- the MAD band `baseline +- k * 1.4826 * MAD` (1.4826 makes MAD comparable to a standard deviation
  for normal data): it widens the band when the history is naturally noisy.
So a value fails only when it is outside both; `Band.lower_source` / `upper_source` say which won.
"""

from __future__ import annotations

import calendar
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from statistics import median as _median
from typing import Literal

MAD_SCALE = 1.4826
Period = Literal["month_end", "same_weekday", "daily"]


def median(values: Sequence[float]) -> float:
    if not values:
        raise ValueError("median of an empty history")
    return float(_median(values))


def mad(values: Sequence[float]) -> float:
    """Median absolute deviation from the median (unscaled)."""
    center = median(values)
    return median([abs(v - center) for v in values])


@dataclass(frozen=True)
class Band:
    baseline: float
    lower: float
    upper: float
    lower_source: Literal["ratio", "mad"]
    upper_source: Literal["ratio", "mad"]
    mad: float

    def contains(self, value: float) -> bool:
        return self.lower <= value <= self.upper


def expected_band(history: Sequence[float], *, lower_ratio: float, upper_ratio: float, mad_k: float) -> Band:
    if not 0 <= lower_ratio <= 1 <= upper_ratio:
        raise ValueError(f"need 0 <= lower_ratio <= 1 <= upper_ratio, got {lower_ratio}, {upper_ratio}")
    if mad_k < 0:
        raise ValueError(f"mad_k must be >= 0, got {mad_k}")
    baseline = median(history)
    spread = mad(history)
    mad_lo, mad_hi = baseline - mad_k * MAD_SCALE * spread, baseline + mad_k * MAD_SCALE * spread
    ratio_lo, ratio_hi = baseline * lower_ratio, baseline * upper_ratio
    return Band(
        baseline=baseline,
        lower=min(ratio_lo, mad_lo),
        upper=max(ratio_hi, mad_hi),
        lower_source="ratio" if ratio_lo <= mad_lo else "mad",
        upper_source="ratio" if ratio_hi >= mad_hi else "mad",
        mad=spread,
    )


def is_month_end(day: date) -> bool:
    return day.day == calendar.monthrange(day.year, day.month)[1]


def comparable_partitions(target: date, candidates: Iterable[date], period: Period, count: int,
                          excluded: Iterable[date] = ()) -> list[date]:
    """The `count` most recent partitions before `target` of the same kind, newest first.

    month_end: a month-end target compares with earlier month-ends, any other day with earlier
    non-month-end days (a close export is not an ordinary day's). same_weekday: the same weekday.
    daily: every earlier partition. Excluded partitions (past confirmed incidents) are skipped and
    do not use up a slot."""
    skip = set(excluded)
    earlier = sorted((d for d in set(candidates) if d < target and d not in skip), reverse=True)
    if period == "month_end":
        want = is_month_end(target)
        chosen = [d for d in earlier if is_month_end(d) == want]
    elif period == "same_weekday":
        chosen = [d for d in earlier if d.weekday() == target.weekday()]
    elif period == "daily":
        chosen = earlier
    else:
        raise ValueError(f"unknown period {period!r}: use month_end, same_weekday or daily")
    return chosen[:count]


def lookback_days(period: Period, count: int, excluded: int = 0) -> int:
    """How far back (in days) the warehouse query must look to find `count` comparable partitions."""
    per = {"month_end": 31, "same_weekday": 7, "daily": 1}[period]
    return per * (count + excluded + 2) + 1


_BLOCKS = "▁▂▃▄▅▆▇█"


def sparkline(values: Sequence[float]) -> str:
    if not values:
        return ""
    lo, hi = min(values), max(values)
    if hi == lo:
        return _BLOCKS[len(_BLOCKS) // 2] * len(values)
    return "".join(_BLOCKS[round((v - lo) / (hi - lo) * (len(_BLOCKS) - 1))] for v in values)
