"""`dw checks run|accept-schema` and `dw incidents list|show` on the fixture estate."""

from __future__ import annotations

import json

import pytest
import yaml
from click.testing import CliRunner

from dw_assets.cli import cli

AS_OF = "2026-10-01T12:00:00+00:00"  # the morning after the fixture's Sept 30 load


@pytest.fixture
def dw(estate, tmp_path):
    config = tmp_path / "dw.yaml"
    config.write_text(yaml.safe_dump(estate.settings.model_dump(mode="json")))

    def run(*args: str, code: int = 0):
        result = CliRunner().invoke(cli, ["--config", str(config), *args], catch_exceptions=False)
        assert result.exit_code == code, result.output
        return result.output

    return run


def test_checks_run_reports_failures_and_opens_an_incident(dw):
    payload = json.loads(dw("checks", "run", "gl_entries", "--as-of", AS_OF, "--json", code=1))
    results = {r["check"]: r for r in payload["results"]}
    assert payload["dataset"] == "finance.bronze.gl_entries"
    assert not results["volume_vs_history"]["passed"] and results["volume_vs_history"]["severity"] == "ERROR"
    assert results["volume_vs_history"]["metadata"]["ratio"] == pytest.approx(0.58, abs=0.01)
    incident_id = results["volume_vs_history"]["incident_id"]
    assert incident_id and results["rows_match_landed_files"]["incident_id"] == incident_id

    listed = json.loads(dw("incidents", "list", "--json"))
    assert [i["id"] for i in listed] == [incident_id] and listed[0]["owner"] == "maria.chen"
    assert json.loads(dw("incidents", "list", "--status", "resolved", "--json")) == []

    shown = json.loads(dw("incidents", "show", incident_id, "--json"))
    for key in ("causes", "path", "blast_radius", "proposed_fixes", "evidence", "signals", "history", "plan_id",
                "run_links", "status", "severity", "owner", "window_start", "window_end", "trigger_kind"):
        assert key in shown
    assert shown["causes"] == [] and shown["status"] == "open"
    assert {s["source"] for s in shown["signals"]} == {"check:volume_vs_history", "check:rows_match_landed_files"}

    human = dw("incidents", "show", incident_id)
    assert incident_id in human and "causes: none yet" in human


def test_checks_run_for_a_partition_and_without_recording(dw):
    out = dw("checks", "run", "finance.bronze.gl_entries", "--partition", "2026-08-31", "--no-record",
             "--as-of", AS_OF)
    assert "PASS  volume_vs_history" in out and "PASS  freshness_sla" in out
    assert "WARN  rows_match_landed_files" in out  # no August export left in the landing zone
    assert "no incidents" in dw("incidents", "list")


def test_accept_schema_makes_a_drifted_schema_pass(dw, estate):
    dw("checks", "run", "lake.orders_clean")  # first sight accepts the schema
    estate.write(estate.lake, "ALTER TABLE orders_clean ALTER discount TYPE VARCHAR")
    assert "FAIL  schema_drift" in dw("checks", "run", "lake.orders_clean", code=1)
    accepted = json.loads(dw("checks", "accept-schema", "lake.orders_clean", "--as", "priya.raman", "--json"))
    assert {"name": "discount", "type": "VARCHAR"} in accepted["columns"]
    assert "PASS  schema_drift" in dw("checks", "run", "lake.orders_clean")


def test_unknown_incident_and_status_are_explained(dw):
    assert "no incident with id" in dw("incidents", "show", "INC-19990101-0000", code=1)
    assert "unknown status" in dw("incidents", "list", "--status", "closed", code=2)
