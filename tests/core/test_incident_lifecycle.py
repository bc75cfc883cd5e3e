"""The incident state machine: legal paths, shortcuts, final states, recorded transitions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from dw_assets.core import incidents as core
from dw_assets.core.incidents import IllegalTransition
from dw_assets.core.signals import Signal

AT = datetime(2026, 10, 1, 4, 5, 6, tzinfo=UTC)


def _incident() -> core.Incident:
    signal = Signal("check_failed", "finance.bronze.gl_entries", AT, "check:volume_vs_history", "low volume",
                    {"partition": "2026-09-30"}, "high", "k1")
    return core.open_incident(signal, id=core.incident_id(AT), owner="maria.chen", domain="finance",
                              window=timedelta(hours=24), now=AT)


def test_ids_are_short_stable_and_sort_by_opening_time():
    first, later = core.incident_id(AT), core.incident_id(AT + timedelta(minutes=1))
    assert first == "INC-20261001-0BCI"  # 04:05:06 is second 14706 of the day, 0BCI in base 36
    assert first < later
    assert core.incident_id(AT, bump=1) > first and core.incident_id(AT) == first
    assert core.incident_id(datetime(2026, 10, 1, 23, 59, 59, tzinfo=UTC)) > later


def test_the_happy_path_records_every_step():
    inc = _incident()
    for to in ("diagnosed", "awaiting_approval", "remediating", "verifying", "resolved"):
        inc = core.transition(inc, to, actor="maria.chen", at=AT, note=f"to {to}")
    assert inc.status == "resolved" and inc.is_final
    assert [t.to_status for t in inc.history] == ["open", "diagnosed", "awaiting_approval", "remediating",
                                                  "verifying", "resolved"]
    assert inc.history[-1].from_status == "verifying" and inc.history[-1].note == "to resolved"


@pytest.mark.parametrize("path", [["dismissed"], ["escalated", "diagnosed"], ["diagnosed", "awaiting_approval",
                                  "diagnosed"], ["diagnosed", "awaiting_approval", "remediating", "verifying",
                                  "remediating"], ["resolved"]], ids=lambda p: "->".join(p))
def test_legal_shortcuts(path):
    inc = _incident()
    for to in path:
        inc = core.transition(inc, to, actor="omar.haddad", at=AT)
    assert inc.status == path[-1]


@pytest.mark.parametrize("path,bad", [([], "remediating"), ([], "verifying"), (["diagnosed"], "verifying"),
                                      (["dismissed"], "open"), (["resolved"], "diagnosed"), ([], "closed")],
                         ids=lambda v: str(v))
def test_illegal_transitions_raise_and_name_the_legal_ones(path, bad):
    inc = _incident()
    for to in path:
        inc = core.transition(inc, to, actor="a", at=AT)
    with pytest.raises(IllegalTransition, match="legal|unknown status"):
        core.transition(inc, bad, actor="a", at=AT)


def test_a_transition_needs_an_actor():
    with pytest.raises(IllegalTransition, match="named actor"):
        core.transition(_incident(), "diagnosed", actor=" ", at=AT)


def test_signals_join_within_the_window_only():
    inc, window = _incident(), timedelta(hours=24)
    near = Signal("lineage_fail", "finance.bronze.gl_entries", AT + timedelta(hours=3), "openlineage", "x")
    far = Signal("lineage_fail", "finance.bronze.gl_entries", AT + timedelta(hours=30), "openlineage", "x")
    other = Signal("lineage_fail", "lake.orders_clean", AT, "openlineage", "x")
    assert core.joins(inc, near, window) and not core.joins(inc, far, window) and not core.joins(inc, other, window)
    joined = core.add_signal(inc, Signal("airflow_run_failed", "finance.bronze.gl_entries", AT, "airflow:local",
                                         "y", severity="critical"), window=window, now=AT)
    assert joined.severity == "critical" and len(joined.signals) == 2
    assert not core.joins(core.transition(inc, "dismissed", actor="a", at=AT), near, window)


def test_open_incident_requires_aware_times():
    with pytest.raises(ValueError, match="timezone-aware"):
        core.open_incident(Signal("check_failed", "d", datetime(2026, 10, 1), "s", "x"), id="INC-1", owner=None,
                           domain=None, window=timedelta(hours=1), now=AT)
