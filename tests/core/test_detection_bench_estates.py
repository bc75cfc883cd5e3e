"""The detection benchmark's fifth-round estates (written blind) generate what their docstrings say:
deterministic per seed, five groups, increasing partitions, the evaluated window and the clean
partitions' kinds set. Generation only: the model is never run here (that is the benchmark's job)."""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import pairwise

import pytest

from benchmarks.detection_bench import ESTATES, GROUPS, HELD_OUT

# each estate and the kinds of clean partitions its evaluated window must hold
FIFTH_ROUND = {
    "journals_au": {"period_end", "period_start", "ordinary"},
    "orders_fr": {"after_incident", "holiday", "summer", "ordinary"},
    "bookings_nl": {"young", "holiday", "ordinary"},
    "subscriptions_ca": {"ramp", "decline", "holiday", "ordinary"},
    "payments_gb_il": {"foreign_holiday", "holiday", "ordinary"},
    "telemetry_chicago_hourly": {"maintenance", "ordinary"},
    "invoices_it_monthly": {"year_turn", "summer", "ordinary"},
    "claims_de_weekly": {"week_53", "holiday", "ordinary"},
    "refunds_se": {"group_at_zero", "holiday", "ordinary"},
    "sellers_pl": {"holiday", "ordinary"},
    "rides_us": {"rain", "holiday", "ordinary"},
}


@pytest.mark.parametrize("name", sorted(FIFTH_ROUND))
def test_fifth_round_estate_generates(name: str) -> None:
    estate = ESTATES[name](1)
    assert estate.name == name
    assert estate.series == ESTATES[name](1).series, "same seed, same series"
    assert estate.series != ESTATES[name](2).series, "another seed, other noise"
    stamps = [at for at, _ in estate.series]
    assert stamps == sorted(set(stamps)), "partitions strictly increasing"
    assert all(len(groups) == GROUPS and min(groups) >= 0 for _, groups in estate.series)
    assert 0 < estate.evaluate_from < len(estate.series) - 20
    assert estate.incidents <= set(stamps)
    evaluated = [at for at in stamps[estate.evaluate_from:] if at not in estate.incidents]
    kinds = {estate.categories.get(at, "ordinary") for at in evaluated}
    assert kinds == FIFTH_ROUND[name], kinds


def test_journals_au_has_business_days_only_and_whole_months() -> None:
    estate = ESTATES["journals_au"](1)
    days = [at.date() for at, _ in estate.series]
    assert all(d.weekday() < 5 and not estate.calendar.name(d) for d in days)
    rest = [days[-1] + timedelta(days=k) for k in range(1, 32)]
    rest = [d for d in rest if d.month == days[-1].month]
    assert all(d.weekday() >= 5 or estate.calendar.name(d) for d in rest), "the last month is whole"


def test_orders_fr_history_holds_unlabelled_incidents() -> None:
    estate = ESTATES["orders_fr"](1)
    first = estate.series[estate.evaluate_from][0]
    assert any(at < first for at in estate.incidents) and any(at >= first for at in estate.incidents)
    zero_days = [at for at, groups in estate.series if sum(groups) == 0]
    assert zero_days and all(at in estate.incidents for at in zero_days)
    assert any(b - a == timedelta(days=1) for a, b in pairwise(zero_days)), "a two-day outage"


def test_payments_gb_il_has_a_small_market() -> None:
    estate = ESTATES["payments_gb_il"](1)
    totals = [sum(g) for g in zip(*(groups for _, groups in estate.series))]
    assert 0.01 <= min(totals) / sum(totals) <= 0.02


def test_sellers_pl_has_a_source_launched_mid_history() -> None:
    estate = ESTATES["sellers_pl"](1)
    zero = [g for g in range(GROUPS) if estate.series[0][1][g] == 0]
    assert len(zero) == 1
    assert all(groups[zero[0]] > 0 for _, groups in estate.series[estate.evaluate_from:])


def test_calendar_shapes_of_the_monthly_weekly_and_hourly_estates() -> None:
    invoices = ESTATES["invoices_it_monthly"](1)
    assert {at.day for at, _ in invoices.series} == {1}
    claims = ESTATES["claims_de_weekly"](1)
    assert all(at.weekday() == 0 for at, _ in claims.series)
    assert any(at.isocalendar()[1] == 53 for at, _ in claims.series[claims.evaluate_from:])
    telemetry = ESTATES["telemetry_chicago_hourly"](1)
    steps = {b - a for (a, _), (b, _) in pairwise(telemetry.series)}
    assert telemetry.grain == "hour" and steps == {timedelta(hours=1)}
    assert telemetry.timezone == "America/Chicago"


def test_orders_eg_has_ramadan_before_each_eid() -> None:
    estate = ESTATES["orders_eg"](1)
    assert estate.series == ESTATES["orders_eg"](1).series
    assert estate.series != ESTATES["orders_eg"](2).series
    stamps = [at for at, _ in estate.series]
    assert len(stamps) == 760 and stamps == sorted(set(stamps))
    assert all(len(groups) == GROUPS and min(groups) > 0 for _, groups in estate.series)
    evaluated = stamps[estate.evaluate_from:]
    assert {estate.categories.get(at, "ordinary") for at in evaluated} == {"ramadan", "holiday", "ordinary"}
    # one past Ramadan in the history the first evaluated Ramadan day reads (400 days)
    ramadan = [at for at in stamps if estate.categories.get(at) == "ramadan"]
    first = min(at for at in ramadan if at in evaluated)
    assert any(first - timedelta(days=400) <= at < first - timedelta(days=300) for at in ramadan)
    # Ramadan is above the weeks before it, and its last ten days above its first twenty
    total = {at: sum(groups) for at, groups in estate.series}
    eid = min(at for at in stamps if at.year == 2025 and estate.calendar.name(at.date()).startswith("Eid al-Fitr"))
    days = [eid - timedelta(days=k) for k in range(1, 30)]
    before = [eid - timedelta(days=k) for k in range(40, 68)]
    late, early = days[:10], days[10:]
    mean = lambda ats: sum(total[at] for at in ats) / len(ats)
    assert 1.1 < mean(early) / mean(before) < 1.3
    assert mean(late) / mean(early) > 1.05


# the eighth round (written blind, held out): each estate, its length at least, and the kinds of clean
# partitions its evaluated window must hold
EIGHTH_ROUND = {
    "returns_kr": (700, {"holiday", "after_holiday", "after_shift", "ordinary"}),
    "journals_sa": (600, {"period_end", "payroll", "ramadan", "after_holiday", "ordinary"}),
    "settlements_ca": (600, {"after_holiday", "ordinary"}),
}


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


@pytest.mark.parametrize("name", sorted(EIGHTH_ROUND))
def test_eighth_round_estate_generates(name: str) -> None:
    estate = ESTATES[name](1)
    length, kinds = EIGHTH_ROUND[name]
    assert estate.name == name and name in HELD_OUT
    assert estate.series == ESTATES[name](1).series, "same seed, same series"
    assert estate.series != ESTATES[name](2).series, "another seed, other noise"
    stamps = [at for at, _ in estate.series]
    assert len(stamps) >= length and stamps == sorted(set(stamps))
    assert all(len(groups) == GROUPS and min(groups) > 0 for _, groups in estate.series)
    assert 300 <= estate.evaluate_from < len(stamps) - 200, "a year of history, most of a year evaluated"
    assert {estate.categories.get(at, "ordinary") for at in stamps[estate.evaluate_from:]} == kinds


def test_returns_kr_lunar_holidays_low_then_a_week_of_rising_returns() -> None:
    estate = ESTATES["returns_kr"](1)
    total = {at.date(): sum(groups) for at, groups in estate.series}
    assert all(b - a == timedelta(days=1) for a, b in pairwise(total)), "every day"
    lunar = [d for d in total if any(k in estate.calendar.name(d) for k in ("Korean New Year", "Chuseok"))]
    assert len(lunar) >= 12, "Seollal and Chuseok of three years"
    for day in lunar:  # against the same weekday one and two weeks before (no holiday there)
        before = [total[day - timedelta(weeks=w)] for w in (1, 2) if not estate.calendar.name(day - timedelta(weeks=w))]
        if before and day - timedelta(weeks=2) >= min(total):
            assert total[day] < 0.5 * _mean(before), day
    after = [d for d in total if estate.categories.get(datetime(d.year, d.month, d.day)) == "after_holiday"]
    weeks = [d for d in after if d - timedelta(days=1) not in after]
    assert len(weeks) >= 5
    for first in weeks:  # the week after the closure above the week two weeks before it, rising to its middle
        week = [first + timedelta(days=k) for k in range(7)]
        earlier = [d - timedelta(weeks=3) for d in week]
        assert sum(total[d] for d in week) > 1.2 * sum(total[d] for d in earlier), first
        assert total[week[3]] / total[week[3] - timedelta(weeks=3)] > 1.1 * total[week[0]] / total[week[0] - timedelta(weeks=3)]


def test_returns_kr_step_lands_on_one_carrier_of_unequal_size() -> None:
    estate = ESTATES["returns_kr"](1)
    (shift,) = estate.shift_at
    idx = [at for at, _ in estate.series].index(shift)
    before = [sum(c) for c in zip(*(g for _, g in estate.series[idx - 56:idx]))]
    after = [sum(c) for c in zip(*(g for _, g in estate.series[idx:idx + 56]))]
    assert 1.15 < sum(after) / sum(before) < 1.35, "+25% on the table"
    ratios = sorted(a / b for a, b in zip(after, before))
    assert ratios[-1] > 2.5 and ratios[-2] < 1.1, "the step is one carrier's"
    assert max(before) > 4 * min(before), "carriers of unequal size"
    assert all(estate.categories.get(shift + timedelta(days=k)) == "after_shift" for k in range(1, 28))


def test_journals_sa_sunday_to_thursday_closes_and_ramadan() -> None:
    estate = ESTATES["journals_sa"](1)
    days = [at.date() for at, _ in estate.series]
    assert all(d.weekday() not in (4, 5) and not estate.calendar.name(d) for d in days), "no rows Fri, Sat, holidays"
    assert {d.weekday() for d in days} == {6, 0, 1, 2, 3}
    assert not any(d.year == 2026 and d.month == 3 and 19 <= d.day <= 24 for d in days), "Eid al-Fitr 2026 a gap"
    total = {at: sum(groups) for at, groups in estate.series}
    kind = {at: estate.categories.get(at, "ordinary") for at in total}
    last = {}
    for at in total:  # each month's last business day
        last[(at.year, at.month)] = at
    year_end = [total[at] for (y, m), at in last.items() if m == 12]
    quarter = [total[at] for (y, m), at in last.items() if m in (3, 6, 9)]
    month = [total[at] for (y, m), at in last.items() if m % 3]
    ordinary = _mean([v for at, v in total.items() if kind[at] == "ordinary"])
    assert 2.0 < _mean(month) / ordinary < 3.0
    assert _mean(quarter) > 1.2 * _mean(month) and _mean(year_end) > 1.2 * _mean(quarter)
    # Ramadan (in no calendar) about x0.8 of the ordinary days of the two months before it
    ramadan = [at for at in total if kind[at] == "ramadan" and at.year == 2025]
    first = min(ramadan)
    before = [v for at, v in total.items() if kind[at] == "ordinary" and first - timedelta(days=60) <= at < first]
    assert 0.72 < _mean([total[at] for at in ramadan]) / _mean(before) < 0.88
    assert not any(estate.calendar.name(at.date()) for at in ramadan)


def test_settlements_ca_monday_carries_the_weekend_and_a_holiday_monday_moves_it() -> None:
    estate = ESTATES["settlements_ca"](1)
    days = [at.date() for at, _ in estate.series]
    assert all(d.weekday() < 5 and not estate.calendar.name(d) for d in days)
    total = {at.date(): sum(groups) for at, groups in estate.series}
    ordinary = {d for d in total if datetime(d.year, d.month, d.day) not in estate.categories}
    midweek = _mean([total[d] for d in ordinary if d.weekday() == 2])
    monday = _mean([total[d] for d in ordinary if d.weekday() == 0])
    tuesday = _mean([total[d] for d in ordinary if d.weekday() == 1])
    assert 2.2 < monday / midweek < 2.8 and 0.9 < tuesday / midweek < 1.1
    # Victoria Day, Labour Day, Thanksgiving...: no Monday load, the Tuesday carries four days
    mondays_off = [min(total) + timedelta(days=k) for k in range((max(total) - min(total)).days)]
    mondays_off = [d for d in mondays_off if d.weekday() == 0 and estate.calendar.name(d)]
    moved = [d + timedelta(days=1) for d in mondays_off if not estate.calendar.name(d + timedelta(days=1))]
    assert len(moved) >= 12 and all(d in total and d - timedelta(days=1) not in total for d in moved)
    assert 2.7 < _mean([total[d] for d in moved]) / midweek < 3.6
    assert all(estate.categories.get(datetime(d.year, d.month, d.day)) == "after_holiday" for d in moved)


@pytest.mark.parametrize("name, changes", [("orders_sa", 1), ("orders_br", 1), ("tickets_weekend", 2)])
def test_estates_whose_weekly_pattern_changes_say_where(name: str, changes: int) -> None:
    """`shape_at` holds each day the generator changed its weekday shares, inside the evaluated
    window (where the simulated owner accepts the first flag after it), and the days after it are
    categorised as such; estates whose week never changes have none."""
    estate = ESTATES[name](1)
    first_evaluated = estate.series[estate.evaluate_from][0]
    assert len(estate.shape_at) == changes and all(at >= first_evaluated for at in estate.shape_at)
    days = {at for at, _ in estate.series}
    for at in estate.shape_at:
        assert at in days and estate.categories.get(at + timedelta(days=1)) in ("after_shape_change", "holiday")
    assert not ESTATES["orders_eg"](1).shape_at and not ESTATES["orders_us"](1).shape_at


def test_orders_vn_holds_the_weeks_around_tet() -> None:
    estate = ESTATES["orders_vn"](1)
    assert estate.series == ESTATES["orders_vn"](1).series and estate.series != ESTATES["orders_vn"](2).series
    stamps = [at for at, _ in estate.series]
    assert stamps == sorted(set(stamps)) and all(len(groups) == GROUPS for _, groups in estate.series)
    evaluated = stamps[estate.evaluate_from:]
    kinds = {estate.categories.get(at, "ordinary") for at in evaluated}
    assert kinds == {"lunar_new_year", "holiday", "ordinary"}, kinds
    # a past Tet in the history, one in the evaluated window, each with at least a week either side
    for part in (stamps[:estate.evaluate_from], evaluated):
        season = [at for at in part if estate.categories.get(at) == "lunar_new_year"]
        assert len(season) >= 14 and max(season) - min(season) > timedelta(days=20)
    tet = [at for at in evaluated if "Lunar New Year" in estate.calendar.name(at.date())]
    total = {at: sum(groups) for at, groups in estate.series}
    before, after = tet[0] - timedelta(days=1), tet[-1] + timedelta(days=1)
    assert total[before] > total[after] * 1.6  # the rush against the first day back
