"""A state store and settings with two domains, for incident tests."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dw_assets.config import DomainConfig, IncidentsConfig, Settings
from dw_assets.core.signals import Signal
from dw_assets.store import Store
from tests.support.settings import build_settings

T0 = datetime(2026, 10, 1, 4, 5, tzinfo=UTC)


@pytest.fixture
def t0() -> datetime:
    return T0


@pytest.fixture
def settings(dw_home) -> Settings:
    return build_settings(dw_home, incidents=IncidentsConfig(window="24h"),
                          domains=[DomainConfig(name="finance", datasets=["finance.*"], owner="maria.chen"),
                                   DomainConfig(name="revenue", datasets=["lake.*", "analytics.fct_revenue"],
                                                owner="priya.raman")])


@pytest.fixture
def store(settings) -> Store:
    st = Store(settings.state.url)
    yield st
    st.dispose()


@pytest.fixture
def make_signal():
    def make(dataset="finance.bronze.gl_entries", at=T0, key="check:volume_vs_history:gl:2026-09-30",
             kind="check_failed", source="check:volume_vs_history", severity="high", **details) -> Signal:
        return Signal(kind=kind, dataset_id=dataset, observed_at=at, source=source,
                      summary=f"{source} on {dataset}", details={"partition": "2026-09-30", **details},
                      severity=severity, dedupe_key=key)
    return make
