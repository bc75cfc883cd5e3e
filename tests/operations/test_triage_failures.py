"""Triage never sticks: an error on one incident is recorded on it and retried with backoff; the
others are triaged, and the sensor's tick does not fail."""

from __future__ import annotations

from datetime import timedelta

import dagster as dg
import pytest

from dw_assets.incidents import IncidentStore, intake_signal
from dw_assets.operations import triage
from sensors.incident_triage import SENSOR_NAME, build_definitions


@pytest.fixture
def two_incidents(settings, store, make_signal, t0):
    bad, _ = intake_signal(settings, store, make_signal(dataset="finance.bronze.gl_entries", key="a"))
    good, _ = intake_signal(settings, store, make_signal(dataset="lake.orders_clean", key="b"))
    return bad, good


def _flaky(bad_id: str, calls: list[str]):
    def fake(settings, store, incident_id, **kwargs):
        calls.append(incident_id)
        if incident_id == bad_id:
            raise LookupError("unknown dataset analytics_dbt_test__audit.not_null_x")
        return {"incident_id": incident_id, "actions": ["diagnosed"]}
    return fake


def test_one_failing_incident_is_marked_and_retried_with_backoff(settings, store, two_incidents, t0, monkeypatch):
    bad, good = two_incidents
    calls: list[str] = []
    monkeypatch.setattr(triage, "triage_incident", _flaky(bad.id, calls))

    results = triage.triage_open_incidents(settings, store, now=t0)
    by_id = {r["incident_id"]: r for r in results}
    assert by_id[good.id] == {"incident_id": good.id, "actions": ["diagnosed"]}
    marked = IncidentStore(store).get(bad.id).evidence["triage_failed"]
    assert marked["attempts"] == 1 and "LookupError: unknown dataset" in marked["reason"]
    assert marked["retry_at"] == (t0 + timedelta(minutes=1)).isoformat()

    # before retry_at: not tried again; after it: tried, and the backoff doubles
    triage.triage_open_incidents(settings, store, now=t0 + timedelta(seconds=30))
    assert calls.count(bad.id) == 1
    triage.triage_open_incidents(settings, store, now=t0 + timedelta(minutes=2))
    marked = IncidentStore(store).get(bad.id).evidence["triage_failed"]
    assert calls.count(bad.id) == 2 and marked["attempts"] == 2
    assert marked["retry_at"] == (t0 + timedelta(minutes=4)).isoformat()

    # the cause goes away: the next attempt succeeds and the mark is cleared
    monkeypatch.setattr(triage, "triage_incident", lambda s, st, i, **kw: {"incident_id": i, "actions": []})
    triage.triage_open_incidents(settings, store, now=t0 + timedelta(minutes=5))
    assert "triage_failed" not in IncidentStore(store).get(bad.id).evidence


def test_backoff_is_capped():
    assert triage.retry_delay(1) == timedelta(minutes=1)
    assert triage.retry_delay(3) == timedelta(minutes=4)
    assert triage.retry_delay(30) == triage.RETRY_MAX


def test_the_sensor_tick_succeeds_when_one_incident_fails(settings, store, two_incidents, monkeypatch):
    bad, _ = two_incidents
    monkeypatch.setattr(triage, "triage_incident", _flaky(bad.id, []))
    defs = build_definitions(settings)
    with dg.instance_for_test() as instance:
        result = defs.resolve_sensor_def(SENSOR_NAME)(dg.build_sensor_context(instance=instance, definitions=defs))
    assert isinstance(result, dg.SkipReason)
    assert f"triage failed for {bad.id}" in result.skip_message and "triaged 1 incident(s)" in result.skip_message
