"""`dw lineage ...` against a config file in a temporary DW_HOME."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from click.testing import CliRunner

from dw_assets.cli import cli
from tests.support.ol_samples import dataset, run_event


def _config(dw_home: Path) -> Path:
    path = dw_home / "dw.yaml"
    path.write_text(yaml.safe_dump({
        "state": {"url": "sqlite:///${DW_HOME}/state.db"},
        "openlineage": {"sources": [{"type": "file", "path": "${DW_HOME}/lineage/events"}]},
    }))
    return path


def _schema(discount: str) -> dict:
    return {"fields": [{"name": "order_id", "type": "VARCHAR"}, {"name": "discount", "type": discount}]}


def _write_events(dw_home: Path) -> None:
    folder = dw_home / "lineage" / "events"
    folder.mkdir(parents=True)
    lines = [
        run_event(event_time="2026-09-01T06:00:00Z", outputs=[dataset("lake.main.orders_clean",
                                                                      schema=_schema("DECIMAL(18,2)"))]),
        run_event(event_time="2026-09-02T06:00:00Z", outputs=[dataset("lake.main.orders_clean",
                                                                      schema=_schema("VARCHAR"))]),
        run_event(job="gl_landing.load", event_time="2026-09-30T05:00:00Z",
                  outputs=[dataset("finance.bronze.gl_entries", "duckdb:///w/finance.duckdb")]),
    ]
    (folder / "airflow.ndjson").write_text("".join(json.dumps(e) + "\n" for e in lines) + '{"broken": \n')


def _run(config: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--config", str(config), "lineage", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_ingest_events_rejected_and_schema_changes(dw_home: Path) -> None:
    config = _config(dw_home)
    _write_events(dw_home)
    report = json.loads(_run(config, "ingest", "--json"))
    assert report["accepted"] == 3 and report["sources"][0]["rejected"] == 1 and report["errors"] == []

    rows = json.loads(_run(config, "events", "--json"))
    assert [r["job_name"] for r in rows] == ["gl_landing.load", "orders_daily.orders_clean",
                                             "orders_daily.orders_clean"]
    assert rows[0]["outputs"] == ["finance.bronze.gl_entries"]
    assert set(rows[0]) == {"seq", "event_time", "event_type", "kind", "run_id", "job_namespace", "job_name",
                            "source", "inputs", "outputs", "findings"}
    assert len(json.loads(_run(config, "events", "--dataset", "orders_clean", "--json"))) == 2  # a unique suffix
    assert len(json.loads(_run(config, "events", "--dataset", "lake.main.orders_clean", "--json"))) == 2
    assert len(json.loads(_run(config, "events", "--job", "gl_landing.load", "--json"))) == 1
    assert len(json.loads(_run(config, "events", "--since", "2026-09-02T00:00:00+00:00", "--json"))) == 2
    assert "gl_landing.load" in _run(config, "events")

    [rejected] = json.loads(_run(config, "rejected", "--json"))
    assert "not valid JSON" in rejected["reason"] and rejected["body"].startswith('{"broken"')

    from dw_assets.config import load_settings
    from dw_assets.incidents import intake_signal
    from dw_assets.lineage.processing import process_new_events
    from dw_assets.store import open_store

    settings = load_settings(config)
    process_new_events(settings, open_store(f"sqlite:///{dw_home}/state.db"), intake=intake_signal, ingest=False)
    [change] = json.loads(_run(config, "schema-changes", "--dataset", "lake.orders_clean", "--json"))
    assert (change["column"], change["change"], change["old_type"], change["new_type"]) == (
        "discount", "type_changed", "DECIMAL(18,2)", "VARCHAR")
    assert "discount" in _run(config, "schema-changes")


def test_a_bad_since_is_explained(dw_home: Path) -> None:
    result = CliRunner().invoke(cli, ["--config", str(_config(dw_home)), "lineage", "events", "--since", "yesterday"])
    assert result.exit_code == 2 and "not an ISO 8601 time" in result.output
