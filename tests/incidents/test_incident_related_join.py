"""One cause, several symptoms: a downstream dataset failing in the same window joins the open
incident of its upstream dataset instead of opening a second one (lineage from the context graph)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from dw_assets.config import load_settings
from dw_assets.core.signals import Signal
from dw_assets.incidents import IncidentStore, intake_signal
from dw_assets.store import Store

pytestmark = pytest.mark.dbt  # the graph needs the demo dbt project's manifest (dbt parse once)

T0 = datetime(2026, 10, 1, 6, 0, tzinfo=UTC)


def _signal(dataset: str, minutes: int, key: str) -> Signal:
    return Signal(kind="check_failed", dataset_id=dataset, observed_at=T0 + timedelta(minutes=minutes),
                  source="check:test", summary=f"{dataset} failed", dedupe_key=key)


def test_downstream_symptom_joins_and_unrelated_dataset_opens_its_own(dw_home):
    settings = load_settings()
    store = Store(f"sqlite:///{dw_home}/state.db")
    first, created = intake_signal(settings, store, _signal("finance.bronze.gl_entries", 0, "a"))
    assert created
    joined, created = intake_signal(settings, store, _signal("analytics.fct_trial_balance", 5, "b"))
    assert not created and joined.id == first.id
    assert joined.dataset_id == "finance.bronze.gl_entries" and len(joined.signals) == 2
    again, created = intake_signal(settings, store, _signal("analytics.fct_trial_balance", 6, "b"))
    assert not created and len(again.signals) == 2  # same dedupe key: stored once
    other, created = intake_signal(settings, store, _signal("lake.orders_clean", 7, "c"))
    assert created and other.id != first.id
    assert len(IncidentStore(store).list(status="open")) == 2
