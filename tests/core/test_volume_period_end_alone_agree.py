"""A period end's occasions alone must agree before its effect is learned on them (`_alone_agree`, in
`_alone_effects`): a quarter's end whose past occasions on no holiday are an ordinary one and one inside an event in
no calendar (a lockdown's x0.05 on 30 September) reads, on those two alone, the median of x1 and x0.05 (x0.22),
which neither showed, and an ordinary quarter's end then reads 4-5x above it. Where two occasions alone (too few
for their median to outvote one) scatter beyond three of the series' ordinary spreads, the group keeps the effect
learned on all its days; three or more keep their median, which leaves one outlier out by itself."""

from __future__ import annotations

import math
import random
from datetime import date, datetime, timedelta

import numpy as np

from dw_assets.core import volume_fit
from dw_assets.core.volume_calendar import HolidayCalendar
from dw_assets.core.volume_model import Point, forecast, judge

MONTH_END = 0.2  # every month's last day (quarters' too): x1.22
EVENT = math.log(0.05)  # an event in no calendar on one quarter's end: x0.05
N = 400


def _fit(x: list[float], feats: list[dict[str, object]]) -> volume_fit.SeriesFit:
    return volume_fit.SeriesFit([float(i) for i in range(len(x))], x, feats,
                                ["period_end", "holiday", "near_holiday"], lag=7, level_points=28)


def _feats(quarters: set[int], holidays: dict[int, str]) -> list[dict[str, object]]:
    ends = set(range(29, N, 30))
    return [{"day": i, "period_end": "quarter" if i in quarters else "month" if i in ends else "",
             "holiday": holidays.get(i, ""), "near_holiday": ""} for i in range(N)]


def _four_quarters(seed: int) -> tuple[list[float], set[int], dict[int, str]]:
    """A year of 3% noise with every month's end at MONTH_END, four quarter ends, two of them on holidays."""
    rng = random.Random(seed)
    x = [rng.gauss(0, 0.03) for _ in range(N)]
    for i in range(29, N, 30):
        x[i] += MONTH_END
    return x, {59, 149, 239, 329}, {239: "Labour Day", 329: "Christmas Day"}


def test_two_alone_occasions_that_disagree_keep_the_pooled_effect() -> None:
    """Four past quarter ends at the month's end's x1.22: two on holidays the series works through, two alone, one
    of them inside an event in no calendar (x0.05). The two alone read x0.27 between them; they disagree by
    sixty spreads, so the quarter's end keeps its reading on all four (x1.22)."""
    x, quarters, holidays = _four_quarters(23)
    x[149] += EVENT
    fit = _fit(x, _feats(quarters, holidays))
    assert abs(fit.effects["period_end"]["quarter"] - MONTH_END) < 0.08


def test_two_alone_occasions_that_agree_are_still_read_alone() -> None:
    """The same quarters, the two alone at x1.5 within the noise, the two on holidays x0.5: the quarter's end reads
    the two alone (x1.5), as the period-end rule learns it, not the pooled median pulled to the holidays' dips."""
    x, quarters, holidays = _four_quarters(29)
    for i in quarters:
        x[i] += 0.4 - MONTH_END
    for i in holidays:
        x[i] += -1.1
    fit = _fit(x, _feats(quarters, holidays))
    assert abs(fit.effects["period_end"]["quarter"] - 0.4) < 0.08


def test_three_alone_occasions_that_scatter_keep_their_median() -> None:
    """Three past quarter ends alone at x1.0, x1.5 and x2.2 (scattered by tens of spreads, as month ends on different
    weekdays may), two on holidays x0.5: three are enough for their median to outvote one, so the quarter's end
    reads their median (x1.5), as the period-end rule learns it."""
    rng = random.Random(31)
    x = [rng.gauss(0, 0.03) for _ in range(N)]
    quarters = {59, 149, 239, 299, 329}
    holidays = {239: "Labour Day", 329: "Christmas Day"}
    for i in range(29, N, 30):
        x[i] += MONTH_END
    for i, lift in ((59, 0.0), (149, 0.4), (299, 0.8)):
        x[i] += lift - MONTH_END
    for i in holidays:
        x[i] += 0.4 - MONTH_END - 1.1
    fit = _fit(x, _feats(quarters, holidays))
    assert abs(fit.effects["period_end"]["quarter"] - 0.4) < 0.08


def test_alone_agree_reads_the_occasions_spread_against_the_ordinary_spread() -> None:
    """Occasions one day's noise apart agree; one at x0.05 beside one at x1 does not; several points of one day
    (an hourly series' day) are one occasion."""
    feats = [{"day": d} for d in (1, 1, 2, 2, 3)]
    idx = np.arange(5)
    assert volume_fit._alone_agree(np.array([0.01, 0.03, -0.02, 0.0, 0.04]), idx, feats, 0.03)
    assert not volume_fit._alone_agree(np.array([0.0, 0.0, EVENT, EVENT, 0.0]), idx[:4], feats, 0.03)


def _parcels(end: date) -> tuple[list[Point], HolidayCalendar]:
    """A hub's daily parcels on Cameroon's calendar (holidays x0.2; Saturday x0.6, Sunday x0.15), with a lockdown in
    no calendar around 1 October every year (28 September to 2 October, x0.05): of the past quarter ends, 31 March
    2025 was Eid al-Fitr (estimated), 30 June 2025 ordinary and 30 September 2025 inside the lockdown."""
    rng = random.Random(7)
    cal = HolidayCalendar(country="CM")
    week = (1.0, 1.0, 1.0, 1.0, 1.05, 0.6, 0.15)
    pts, day = [], end - timedelta(days=420)
    while day < end:
        value = 900.0 * week[day.weekday()] * (0.2 if cal.name(day) else 1.0)
        if -3 <= (day - date(day.year, 10, 1)).days <= 1:
            value *= 0.05
        pts.append(Point(datetime(day.year, day.month, day.day), value * math.exp(rng.gauss(0, 0.06))))
        day += timedelta(days=1)
    return pts, cal


def test_an_ordinary_quarter_end_after_a_lockdown_quarter_end_passes() -> None:
    """Tuesday 31 March 2026, an ordinary day, passes and reads near x1 (3.6-5.1x without the agreement: the
    quarter's end read at the median of 30 June's x1 and 30 September's x0.05)."""
    pts, cal = _parcels(date(2026, 3, 31))
    fc = forecast(pts, datetime(2026, 3, 31), grain="day", calendar_=cal)
    value = 900.0
    assert judge(fc, value).passed
    assert 0.8 < value / fc.baseline < 1.25
