"""`dw report`: every failed or flagged run in the window with cause, blast radius and fix, in md,
html and json, and nothing written anywhere."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from dw_assets.config import load_settings
from dw_assets.core.signals import Signal
from dw_assets.diagnosis.report import ReadOnlyStore, build_report, render
from dw_assets.store import Store

REPO = Path(__file__).resolve().parents[2]
ERROR = ('Conversion Error: Could not convert string "N/A" to DECIMAL(18,2) when casting from source column '
         'discount')


def _config(tmp: Path) -> Path:
    """The demo estate's config without Airflow (nothing to reach) and with its own state store."""
    path = tmp / "dw.yaml"
    path.write_text(f"""
project: report-test
state: {{url: "sqlite:///{tmp}/state.db"}}
warehouse: {{url: "duckdb:///{tmp}/missing.duckdb"}}
dbt: {{project_dir: {REPO / 'dbt_project'}, profiles_dir: {REPO / 'dbt_project'}}}
notes: {REPO / 'estate' / 'notes.yaml'}
airflow: {{task_outputs: {{orders_daily.orders_clean: [lake.orders_clean]}}}}
domains:
  - {{name: revenue, datasets: ["app.*", "lake.*", analytics.stg_orders, analytics.fct_revenue],
     owner: priya.raman, fix_location: staging_model}}
""")
    return path


@pytest.fixture
def estate_with_an_incident(tmp_path: Path, dw_home: Path):
    from dw_assets.incidents import intake_signal

    settings = load_settings(_config(tmp_path))
    store = Store(f"sqlite:///{tmp_path}/state.db")
    intake_signal(settings, store, Signal(
        "lineage_fail", "analytics.fct_revenue", datetime(2026, 10, 1, 4, 44, tzinfo=UTC), "openlineage",
        "model.dw_demo.fct_revenue failed", details={"job": "dbt/model.dw_demo.fct_revenue",
                                                     "error_message": ERROR, "run_id": "r1"}))
    store.dispose()
    return settings, tmp_path


def _digest(folder: Path) -> dict[str, str]:
    """Every file's content; SQLite's WAL index (-shm) is a reader's lock table, not data, and a
    read-only reader of a WAL database may leave an empty -wal."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())
            if p.is_file() and not p.name.endswith("-shm") and not (p.name.endswith("-wal") and not p.stat().st_size)}


def test_report_lists_the_incident_with_cause_radius_and_fix_and_writes_nothing(estate_with_an_incident):
    settings, folder = estate_with_an_incident
    before = _digest(folder)
    report = build_report(settings, datetime(2026, 9, 1, tzinfo=UTC), until=datetime(2026, 10, 2, tzinfo=UTC),
                          airflow_clients={})
    assert _digest(folder) == before
    assert report["count"] == 1
    item = report["items"][0]
    assert item["source"] == "incident" and item["dataset"] == "analytics.fct_revenue"
    assert item["cause"]["kind"] in {"upstream_type_change", "unknown"}  # no schema history recorded here
    assert {"exposure:revenue_dashboard"} <= {r["id"] for r in item["blast_radius"]}
    assert item["fix"] is not None


@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_report_renders_every_format(estate_with_an_incident, fmt):
    settings, _ = estate_with_an_incident
    report = build_report(settings, datetime(2026, 9, 1, tzinfo=UTC), until=datetime(2026, 10, 2, tzinfo=UTC),
                          airflow_clients={})
    text = render(report, fmt)
    if fmt == "json":
        assert json.loads(text)["items"][0]["ref"].startswith("INC-")
    elif fmt == "html":
        assert text.startswith("<!doctype html>") and "fct_revenue failed" in text and "<script" not in text
    else:
        assert text.startswith("# Failed and flagged runs") and "- cause (" in text


def test_read_only_store_refuses_writes(estate_with_an_incident):
    import sqlalchemy as sa

    _, folder = estate_with_an_incident
    store = ReadOnlyStore(f"sqlite:///{folder}/state.db")
    with pytest.raises(sa.exc.OperationalError, match="readonly"), store.engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE x (a int)"))


def test_dw_report_command(estate_with_an_incident):
    from dw_assets.cli import cli

    _, folder = estate_with_an_incident
    result = CliRunner().invoke(cli, ["--config", str(folder / "dw.yaml"), "report", "--since", "2026-09-01",
                                      "--until", "2026-10-02", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["count"] == 1
    bad = CliRunner().invoke(cli, ["--config", str(folder / "dw.yaml"), "report", "--since", "last week"])
    assert bad.exit_code == 2 and "not a date" in bad.output
