"""Both nights played on the demo estate (estate builder, a tmp DW_HOME) and diagnosed through the
real collectors: context graph from the dbt manifest and notes, warehouse profile, landing zone,
schema history in the state store, the incident store. Airflow is not started: its absence is a gap."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from dw_assets.config import load_settings
from dw_assets.core.signals import Signal
from dw_assets.store import Store

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.dbt  # the context graph may run `dbt parse` for a fresh manifest


def _plays():
    spec = importlib.util.spec_from_file_location("fault_injection_diagnosis_plays",
                                                  REPO / "scripts" / "fault_injection_diagnosis.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _incident(settings, store, signal: Signal) -> str:
    from dw_assets.incidents import intake_signal

    incident, _ = intake_signal(settings, store, signal)
    return incident.id


def test_night1_on_the_estate_is_diagnosed_and_recorded(dw_home: Path):
    from dw_assets.diagnosis.service import diagnose_incident
    from dw_assets.incidents import IncidentStore

    settings, store = load_settings(), Store(f"sqlite:///{dw_home}/state.db")
    symptom = _plays()._night1(dw_home, settings, store)
    incident_id = _incident(settings, store, Signal(
        "check_failed", symptom.dataset_id, symptom.observed_at, "check:volume_vs_history",
        "finance.bronze.gl_entries 2026-09-30 holds 58% of its history",
        details={"check": "volume_vs_history", "partition": "2026-09-30", "metrics": {"ratio": 0.58}}))
    result = diagnose_incident(settings, store, incident_id, airflow_clients={})
    top = result.top
    assert top.kind == "split_export_early_release"
    assert "2026-09-19" in top.explains and "gl_20260930_part0002.csv" in top.explains
    assert result.path[0].source == "airflow:gl_landing.load"
    assert result.path[0].target == "finance.bronze.gl_entries"
    readers = {r.id: r.owner for r in result.blast_radius}
    assert {"exposure:close_trial_balance", "exposure:close_entity_variance", "exposure:close_review_0900"} <= set(readers)
    assert readers["analytics.fct_trial_balance"] == "maria.chen"
    diff = next(f for f in result.fixes if f.kind == "diff")
    assert diff.verified, diff.check_output
    assert set(diff.paths) == {"estate/dags/airflow2/gl_landing.py", "estate/dags/airflow3/gl_landing.py"}
    assert diff.blast_radius and diff.target_asset == "airflow:gl_landing.load"
    stored = IncidentStore(store).get(incident_id)
    assert stored.status == "diagnosed"
    assert stored.causes[0].kind == "split_export_early_release"
    assert stored.path and stored.blast_radius and stored.proposed_fixes[0].diff


def test_night2_on_the_estate_ranks_the_type_change_and_walks_the_story_path(dw_home: Path):
    from dw_assets.diagnosis.service import diagnose

    settings, store = load_settings(), Store(f"sqlite:///{dw_home}/state.db")
    symptom = _plays()._night2(dw_home, settings, store)
    assert "N/A" in symptom.error_message  # DuckDB's own error on the broken lake table
    result = diagnose(settings, store, symptom, airflow_clients={})
    top = result.top
    assert (top.kind, top.origin, top.details["column"]) == ("upstream_type_change", "app.orders", "discount")
    chain = [result.path[0].source] + [h.target for h in result.path]
    assert chain[:7] == ["app.orders", "airflow:orders_daily.orders_clean", "lake.orders_clean",
                         "analytics.stg_orders", "analytics.fct_revenue", "exposure:revenue_dashboard",
                         "reader:finance_leadership"]
    labels = {(h.source, h.target): (h.system, h.provenance) for h in result.path}
    assert labels[("app.orders", "airflow:orders_daily.orders_clean")] == ("airflow", "note")
    noted = {(n.from_, n.to): n for n in result.evidence.notes}  # the team notes, as core.notes.Note
    assert noted[("app.orders", "airflow:orders_daily.orders_clean")].author
    assert labels[("airflow:orders_daily.orders_clean", "lake.orders_clean")][1] == "config"
    assert "dbt_manifest" in labels[("lake.orders_clean", "analytics.stg_orders")][1]
    fix = next(f for f in result.fixes if f.kind == "diff")
    assert fix.paths == ["dbt_project/models/staging/stg_orders.sql"] and fix.verified, fix.check_output
    assert "try_cast(discount as decimal(18, 2))" in fix.diff and "'N/A'" in fix.diff
    assert {"analytics.fct_revenue", "exposure:revenue_dashboard"} <= {b.id for b in fix.blast_radius}
