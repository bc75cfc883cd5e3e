"""The detection benchmark's fifth-round estates (written blind) generate what their docstrings say:
deterministic per seed, five groups, increasing partitions, the evaluated window and the clean
partitions' kinds set. Generation only: the model is never run here (that is the benchmark's job)."""

from __future__ import annotations

from datetime import timedelta
from itertools import pairwise

import pytest

from benchmarks.detection_bench import ESTATES, GROUPS

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
