"""The checks on the real demo estate (helper-built, `dw_assets.demo.estate`) with its own config
(`estate/dw.yaml`): night 1's partial load is flagged, the full reload passes."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from dw_assets.checks.runner import run_dataset_checks
from dw_assets.config import load_settings
from dw_assets.demo import estate as demo
from dw_assets.incidents import IncidentStore
from dw_assets.store import Store

MORNING_AFTER = datetime(2026, 10, 1, 13, 0, tzinfo=UTC)  # 09:00 in New York


@pytest.fixture(scope="module")
def demo_home(tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("demo_estate")
    demo.build_estate(home)
    demo.write_gl_export_part(home, "2026-09-30", 1, landed_at=datetime(2026, 10, 1, 0, 2))
    demo.load_gl_partition(home / "warehouse" / "finance.duckdb", home / "landing", "2026-09-30",
                           loaded_at=datetime(2026, 10, 1, 0, 10))
    demo.write_gl_export_part(home, "2026-09-30", 2, landed_at=datetime(2026, 10, 1, 0, 34))
    return home


@pytest.fixture
def settings(demo_home, monkeypatch):
    monkeypatch.setenv("DW_HOME", str(demo_home))
    return load_settings()


def _by_check(runs):
    return {r.outcome.check: r for r in runs}


def test_night_one_partial_load_is_flagged_and_opens_an_incident(settings, demo_home):
    store = Store(f"sqlite:///{demo_home}/state-night1.db")
    runs = _by_check(run_dataset_checks(settings, "finance.bronze.gl_entries", now=MORNING_AFTER, store=store))
    volume = runs["volume_vs_history"].outcome
    assert not volume.passed and volume.severity == "ERROR" and volume.partition == "2026-09-30"
    assert volume.metadata["ratio"] == pytest.approx(0.58, abs=0.02) and volume.metadata["history_points"] == 6
    assert runs["freshness_sla"].outcome.passed
    files = runs["rows_match_landed_files"].outcome
    assert not files.passed and [f["rows_in_partition"] for f in files.metadata["files"]][1] is None
    (incident,) = IncidentStore(store).list()
    assert incident.owner == "maria.chen" and incident.severity == "high"
    assert runs["volume_vs_history"].incident_id == incident.id
    store.dispose()


def test_each_prior_month_end_passes_against_its_own_history(settings, demo_home):
    store = Store(f"sqlite:///{demo_home}/state-history.db")
    verdicts = {}
    for day in demo.HISTORY_EXPORT_DATES[3:]:  # the first three have fewer than min_history month-ends before
        runs = _by_check(run_dataset_checks(settings, "gl_entries", partition=day.isoformat(), record=False,
                                            store=store, only={"volume_vs_history", "rows_match_landed_files"}))
        verdicts[day] = {name: r.outcome.passed for name, r in runs.items()}
    assert all(all(v.values()) for v in verdicts.values()), verdicts
    store.dispose()
