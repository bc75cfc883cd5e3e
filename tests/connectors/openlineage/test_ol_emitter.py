"""Data Workers' own verification runs as OpenLineage events, through openlineage-python."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dw_assets.config import ConfigError
from dw_assets.connectors.openlineage.emitter import (
    Assertion,
    ParentRun,
    VerificationEmitter,
    resolve_transport_config,
)
from dw_assets.connectors.openlineage.event_store import LineageEventStore
from dw_assets.connectors.openlineage.receiver import create_app
from dw_assets.connectors.openlineage.validation import FullValidator, check_structure
from dw_assets.store import Store
from tests.support.ol_samples import free_port, make_settings

PARENT = ParentRun("airflow://local", "orders_daily", "manual__2026-09-02T06:00:00+00:00")
RESULTS = [
    Assertion("lake.orders_clean", "volume", True, name="volume_vs_history", expected="~10400", actual="10391"),
    Assertion("lake.orders_clean", "schema_drift", True, column="discount"),
    Assertion("analytics.fct_revenue", "not_null", False, column="discount", severity="error"),
]


def _file_emitter(dw_home: Path, **kw) -> tuple[VerificationEmitter, Path]:
    out = dw_home / "lineage" / "events" / "data-workers.ndjson"
    settings = make_settings(dw_home, emit_transport={"type": "file", "log_file_path": "${DW_HOME}/lineage/events/"
                                                      "data-workers.ndjson", "append": True})
    return VerificationEmitter(settings, **kw), out


def _emitted(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_every_emitted_event_validates_against_the_official_schemas(dw_home: Path, spec_dir: Path) -> None:
    emitter, out = _file_emitter(dw_home)
    run, started = emitter.start("lake.orders_clean", datasets=["lake.orders_clean", "analytics.fct_revenue"],
                                 parent=PARENT)
    passed, _ = emitter.start("lake.orders_clean", parent=PARENT)
    assert started.delivered
    assert emitter.finish(run, RESULTS).event_type == "FAIL"
    assert emitter.finish(passed, RESULTS[:2]).event_type == "COMPLETE"
    assert emitter.finish(passed, [], error="warehouse unreachable").event_type == "FAIL"
    events = _emitted(out)
    assert [e["eventType"] for e in events] == ["START", "START", "FAIL", "COMPLETE", "FAIL"]
    validator = FullValidator(spec_dir)
    facet_files = set()
    for event in events:
        check_structure(event)
        validator.validate(event)  # core RunEvent + each facet against its own file, with formats
        for place, facets in (("RunFacet", event["run"]["facets"]), ("JobFacet", event["job"]["facets"])):
            facet_files |= {validator.facet_schema_file(place, k) for k in facets}
        for ds in event["inputs"]:
            facet_files |= {validator.facet_schema_file("InputDatasetFacet", k) for k in ds.get("inputFacets", {})}
    assert None not in facet_files  # every facet has a schema of its own it was validated against
    assert {"ParentRunFacet.json", "ProcessingEngineRunFacet.json", "ErrorMessageRunFacet.json",
            "JobTypeJobFacet.json", "DataQualityAssertionsDatasetFacet.json"} <= facet_files


def test_the_events_say_what_was_verified_and_for_which_run(dw_home: Path) -> None:
    emitter, out = _file_emitter(dw_home)
    run, _ = emitter.start("lake.orders_clean", datasets=["lake.orders_clean", "analytics.fct_revenue"],
                           parent=PARENT)
    emitter.finish(run, RESULTS)
    start, fail = _emitted(out)
    assert start["run"]["runId"] == fail["run"]["runId"] == run.run_id
    assert fail["job"] == {"namespace": "data-workers", "name": "data_workers.verify.lake.orders_clean",
                           "facets": fail["job"]["facets"]}
    job_type = fail["job"]["facets"]["jobType"]
    assert (job_type["processingType"], job_type["integration"], job_type["jobType"]) == (
        "BATCH", "DATA_WORKERS", "VERIFICATION")
    parent = fail["run"]["facets"]["parent"]
    assert parent["job"] == {"namespace": "airflow://local", "name": "orders_daily", "facets": {}}
    assert parent["run"]["runId"] == PARENT.run_uuid  # the estate's uuid5 of the DAG run
    assert fail["run"]["facets"]["processing_engine"]["name"] == "data-workers"
    assert "analytics.fct_revenue not_null (discount)" in fail["run"]["facets"]["errorMessage"]["message"]
    lake, analytics = fail["inputs"]
    assert lake["namespace"] == f"duckdb://{dw_home}/warehouse/lake.duckdb" and lake["name"] == "lake.main.orders_clean"
    assert analytics["name"] == "analytics.main.fct_revenue"
    assertions = lake["inputFacets"]["dataQualityAssertions"]["assertions"]
    assert [(a["assertion"], a["success"], a.get("column")) for a in assertions] == [
        ("volume", True, None), ("schema_drift", True, "discount")]
    assert assertions[0]["expected"] == "~10400" and assertions[0]["actual"] == "10391"
    assert "inputFacets" not in start["inputs"][0] or not start["inputs"][0]["inputFacets"]


def test_a_backend_that_is_down_never_fails_the_verification(dw_home: Path, store: Store, run_server) -> None:
    port = free_port()  # nothing listens here
    settings = make_settings(dw_home, emit_transport={"type": "http", "url": f"http://127.0.0.1:{port}",
                                                      "timeout": 2})
    waits: list[float] = []
    emitter = VerificationEmitter(settings, retries=3, backoff_s=0.1, sleep=waits.append)
    run, started = emitter.start("lake.orders_clean", parent=PARENT)
    finished = emitter.finish(run, RESULTS[:1])
    assert not started.delivered and started.attempts == 4 and "ConnectionError" in started.error
    assert waits == [0.1, 0.2, 0.4] * 2  # backoff per event
    assert finished.spooled_to == dw_home / "lineage" / "spool" / "verification-events.ndjson"
    assert [json.loads(x)["eventType"] for x in finished.spooled_to.read_text().splitlines()] == ["START", "COMPLETE"]

    with run_server(create_app(settings, store)) as server:
        later = make_settings(dw_home, emit_transport={"type": "http", "url": server.url})
        assert VerificationEmitter(later).flush_spool() == 2
    assert finished.spooled_to.read_text() == ""
    assert [e.event_type for e in reversed(LineageEventStore(store).query(run_id=run.run_id))] == ["START", "COMPLETE"]


def test_transport_config_env_references_are_resolved(monkeypatch: pytest.MonkeyPatch, dw_home: Path) -> None:
    monkeypatch.setenv("OL_KEY", "k3y")
    config = {"type": "http", "url": "${OL_URL:-http://127.0.0.1:5055}", "auth": {"type": "api_key",
                                                                                  "apiKey": "${OL_KEY}"}}
    assert resolve_transport_config(config) == {"type": "http", "url": "http://127.0.0.1:5055",
                                                "auth": {"type": "api_key", "apiKey": "k3y"}}
    with pytest.raises(ConfigError, match="OL_MISSING"):
        resolve_transport_config({"url": "${OL_MISSING}"})
    with pytest.raises(ConfigError, match="emit_transport cannot be used"):
        VerificationEmitter(make_settings(dw_home, emit_transport={"type": "http"}))
    silent = VerificationEmitter(make_settings(dw_home))
    _, outcome = silent.start("lake.orders_clean")
    assert not outcome.delivered and "no openlineage.emit_transport" in outcome.error
