"""Governance fixtures: an isolated state store, a settings object with two domains, the night-1
plan, a controllable clock and a counting Airflow double (helpers live in gov_fakes)."""

from __future__ import annotations

from pathlib import Path

import pytest
from gov_fakes import Clock, CountingAirflow, make_settings, night1_plan  # this folder is on sys.path

from dw_assets.config import Settings
from dw_assets.core.plans import Plan
from dw_assets.governance.workflow import Governance
from dw_assets.store import Store


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    monkeypatch.delenv("DW_TEST_FINANCE_WEBHOOK", raising=False)
    return make_settings(tmp_path)


@pytest.fixture
def gov(settings: Settings, clock: Clock) -> Governance:
    return Governance(settings, store=Store(settings.state.url), clock=clock)


@pytest.fixture
def plan() -> Plan:
    return night1_plan()


@pytest.fixture
def airflow(clock: Clock) -> CountingAirflow:
    """Airflow 3 in draft mode whose owner triggers the drafted night-1 run when it is first awaited."""
    fake = CountingAirflow(clock=clock, downstream={"gl_landing": ["month_end_close"]}, owner_triggers=True)
    fake.expect_owner_run("gl_landing", {"export_date": "2026-09-30"})
    return fake


@pytest.fixture
def approved(gov: Governance, plan: Plan):
    """The plan proposed, requested and approved by maria.chen: (plan_id, approval)."""
    gov.propose(plan)
    gov.request_approval(plan.id)
    return plan.id, gov.approve(plan.id, "maria.chen", "checked the two parts")
