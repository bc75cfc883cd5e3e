"""Fixtures for the context-graph tests: a config of a small estate written to a tmp folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from dw_assets import context_graph
from dw_assets.config import load_settings
from tests.support.graph_builders import make_manifest

NOTES = {"notes": [
    {"from": "app.orders", "to": "airflow:orders_daily.orders_clean", "relation": "reads",
     "author": "jonas.berg", "source": "DATA-1423", "recorded_at": "2026-05-12",
     "from_node": {"kind": "dataset", "system": "app", "owner": "app-platform"}},
    {"from": "analytics.fct_trial_balance", "to": "exposure:close_review", "relation": "reads",
     "author": "maria.chen", "source": "FIN-CLOSE runbook", "recorded_at": "2026-04-02",
     "to_node": {"kind": "reader", "system": "note", "owner": "finance-controller"}},
]}


@pytest.fixture
def small_estate(tmp_path: Path, dw_home: Path) -> Path:
    """dw.yaml + manifest.json + notes.yaml of a small estate; returns the config path."""
    (tmp_path / "target").mkdir()
    (tmp_path / "target" / "manifest.json").write_text(json.dumps(make_manifest()))
    (tmp_path / "notes.yaml").write_text(yaml.safe_dump(NOTES))
    config = {
        "dbt": {"project_dir": ".", "manifest": "target/manifest.json"},
        "notes": "notes.yaml",
        "airflow": {"task_outputs": {"orders_daily.orders_clean": ["lake.main.orders_clean"]}},
        "aliases": {"orders_asset": "lake.orders_clean"},
        "domains": [{"name": "revenue", "datasets": ["lake.*", "app.*"], "owner": "priya.raman"}],
    }
    path = tmp_path / "dw.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


@pytest.fixture
def small_settings(small_estate: Path):
    return load_settings(small_estate)


@pytest.fixture(autouse=True)
def isolated_feeds(monkeypatch: pytest.MonkeyPatch):
    """Each test starts with no feeds (the OpenLineage feed has its own tests)."""
    monkeypatch.setattr(context_graph, "FEEDS", {})
    monkeypatch.setattr(context_graph, "_cache", {})
