"""Structural checks and full JSON-Schema validation of OpenLineage events."""

from __future__ import annotations

import copy
import json
import socket
from pathlib import Path

import pytest

from dw_assets.connectors.openlineage.validation import (
    EVENT_TYPES,
    EventValidator,
    FullValidator,
    InvalidEvent,
    check_structure,
    parse_event,
)
from tests.support.ol_samples import dataset, event_with_facet, facet_examples, run_event

# (id, mutate(event), the JSON path the error must name)
MALFORMED = [
    ("no-eventTime", lambda e: e.pop("eventTime"), "$.eventTime"),
    ("naive-eventTime", lambda e: e.update(eventTime="2026-09-01T02:00:00"), "$.eventTime"),
    ("date-only-eventTime", lambda e: e.update(eventTime="2026-09-01"), "$.eventTime"),
    ("numeric-eventTime", lambda e: e.update(eventTime=1756692000), "$.eventTime"),
    ("bad-eventType", lambda e: e.update(eventType="DONE"), "$.eventType"),
    ("no-eventType", lambda e: e.pop("eventType"), "$.eventType"),
    ("no-producer", lambda e: e.pop("producer"), "$.producer"),
    ("producer-not-uri", lambda e: e.update(producer="my producer"), "$.producer"),
    ("no-schemaURL", lambda e: e.pop("schemaURL"), "$.schemaURL"),
    ("runId-not-uuid", lambda e: e["run"].update(runId="run-42"), "$.run.runId"),
    ("runId-number", lambda e: e["run"].update(runId=42), "$.run.runId"),
    ("run-not-object", lambda e: e.update(run="r"), "$.run"),
    ("no-job-name", lambda e: e["job"].pop("name"), "$.job.name"),
    ("empty-job-namespace", lambda e: e["job"].update(namespace=""), "$.job.namespace"),
    ("inputs-not-array", lambda e: e.update(inputs={}), "$.inputs"),
    ("output-without-name", lambda e: e["outputs"][0].pop("name"), "$.outputs[0].name"),
    ("output-namespace-number", lambda e: e["outputs"][0].update(namespace=5), "$.outputs[0].namespace"),
    ("facet-without-producer", lambda e: e["outputs"][0]["facets"]["schema"].pop("_producer"),
     "$.outputs[0].facets.schema._producer"),
    ("facet-without-schemaURL", lambda e: e["run"]["facets"]["parent"].pop("_schemaURL"),
     "$.run.facets.parent._schemaURL"),
    ("facet-not-object", lambda e: e["job"]["facets"].update(sql="SELECT 1"), "$.job.facets.sql"),
    ("facets-not-object", lambda e: e["run"].update(facets=[]), "$.run.facets"),
]


def _valid_event() -> dict:
    parent = {"_producer": "https://x.example", "_schemaURL": "https://x.example/ParentRunFacet.json",
              "run": {"runId": "0b2b5a52-3c3c-4a1a-9b2b-c1b95c24ff11"},
              "job": {"namespace": "airflow://local", "name": "orders_daily"}}
    return run_event(outputs=[dataset("lake.main.orders_clean", schema={"fields": [{"name": "discount"}]})],
                     inputs=[dataset("app.main.orders", "duckdb:///w/app.duckdb")], run_facets={"parent": parent})


def test_event_types_are_the_specs_enum(spec_dir: Path) -> None:
    core = json.loads((spec_dir / "OpenLineage.json").read_text())
    enum = core["$defs"]["RunEvent"]["allOf"][1]["properties"]["eventType"]["enum"]
    assert EVENT_TYPES == set(enum)


def test_a_valid_event_passes_structural_and_full_validation(spec_dir: Path) -> None:
    event = _valid_event()
    assert check_structure(event) == "run"
    EventValidator(spec_dir, strict=True).validate(event)


@pytest.mark.parametrize(("mutate", "path"), [(m, p) for _, m, p in MALFORMED], ids=[i for i, _, _ in MALFORMED])
def test_structural_checks_name_the_json_path(mutate, path: str) -> None:
    event = _valid_event()
    mutate(event)
    with pytest.raises(InvalidEvent) as err:
        check_structure(event)
    assert any(p == path for p, _ in err.value.problems), err.value.problems
    assert path in str(err.value)


def test_every_problem_is_reported_at_once() -> None:
    event = _valid_event()
    event["run"]["runId"] = "x"
    event["job"].pop("namespace")
    with pytest.raises(InvalidEvent) as err:
        check_structure(event)
    assert {p for p, _ in err.value.problems} == {"$.run.runId", "$.job.namespace"}


@pytest.mark.parametrize(("body", "what"), [(b"{not json", "not valid JSON"), (b"[1, 2]", "expected one event"),
                                            (b"", "not valid JSON"), (b'"text"', "expected one event")])
def test_parse_event_refuses_what_is_not_one_object(body: bytes, what: str) -> None:
    with pytest.raises(InvalidEvent, match=what):
        parse_event(body)


def test_dataset_and_job_events_are_recognised(spec_dir: Path) -> None:
    base = {"eventTime": "2026-09-01T02:00:00Z", "producer": "https://x.example",
            "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent"}
    dataset_event = {**base, "dataset": dataset("lake.main.orders_clean", schema={"fields": []})}
    job_event = {**base, "job": {"namespace": "n", "name": "j"}, "inputs": [], "outputs": []}
    validator = EventValidator(spec_dir, strict=True)
    assert validator.validate(dataset_event) == "dataset"
    assert validator.validate(job_event) == "job"
    bad = copy.deepcopy(dataset_event)
    bad["dataset"].pop("namespace")
    with pytest.raises(InvalidEvent, match=r"\$\.dataset\.namespace"):
        check_structure(bad)


def test_the_specs_full_example_event_is_valid(spec_dir: Path) -> None:
    event = json.loads((spec_dir / "tests" / "example_full_event.json").read_text())
    assert EventValidator(spec_dir, strict=True).validate(event) == "run"


def test_every_spec_facet_example_validates_in_place(spec_dir: Path) -> None:
    validator = FullValidator(spec_dir)
    examples = facet_examples(spec_dir)
    assert len(examples) > 40
    for name, example in examples:
        event = event_with_facet(spec_dir, name.split("/")[0], example)
        check_structure(event)
        validator.validate(event)
        for key in example:  # the facet really was checked against its own file
            places = [b for b in ("RunFacet", "JobFacet", "DatasetFacet", "InputDatasetFacet", "OutputDatasetFacet")
                      if validator.facet_schema_file(b, key) == f"{name.split('/')[0]}.json"]
            assert places, f"{name}: no schema registered for facet {key!r}"


def test_a_facet_is_held_to_its_own_schema(spec_dir: Path) -> None:
    event = _valid_event()
    event["run"]["facets"]["errorMessage"] = {"_producer": "https://x.example",
                                             "_schemaURL": "https://x.example/e.json", "programmingLanguage": 3}
    check_structure(event)  # the base facet envelope is fine
    with pytest.raises(InvalidEvent) as err:
        FullValidator(spec_dir).validate(event)
    paths = {p for p, _ in err.value.problems}
    assert "$.run.facets.errorMessage" in paths  # 'message' is required
    assert "$.run.facets.errorMessage.programmingLanguage" in paths
    assert "ErrorMessageRunFacet.json" in str(err.value)


def test_full_validation_checks_formats(spec_dir: Path) -> None:
    event = _valid_event()
    event["run"]["facets"]["parent"]["run"]["runId"] = "not-a-uuid"
    with pytest.raises(InvalidEvent, match=r"\$\.run\.facets\.parent\.run\.runId"):
        FullValidator(spec_dir).validate(event)
    event = _valid_event()
    event["eventTime"] = "2026-13-45T99:00:00Z"
    with pytest.raises(InvalidEvent, match=r"\$\.eventTime"):
        FullValidator(spec_dir).validate(event)


def test_schemas_are_never_fetched_from_the_network(spec_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*_args, **_kwargs):
        raise AssertionError("schema validation tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    validator = FullValidator(spec_dir)
    for name, example in facet_examples(spec_dir):
        validator.validate(event_with_facet(spec_dir, name.split("/")[0], example))


def _mutations() -> list[tuple[str, dict]]:
    """The malformed corpus plus odd-but-valid and odd-and-invalid shapes the fast pass must judge
    exactly like the detailed checker."""
    out = []
    for name, mutate, _ in MALFORMED:
        event = _valid_event()
        mutate(event)
        out.append((name, event))
    odd = [
        ("null-facets", lambda e: e["run"].update(facets=None)),
        ("null-inputs", lambda e: e.update(inputs=None)),
        ("no-inputs-key", lambda e: e.pop("inputs")),
        ("eventType-list", lambda e: e.update(eventType=["START"])),
        ("runId-with-newline", lambda e: e["run"].update(runId=e["run"]["runId"] + "\n")),
        ("lowercase-t-time", lambda e: e.update(eventTime="2026-09-01t02:00:00+02:00")),
        ("space-separated-time", lambda e: e.update(eventTime="2026-09-01 02:00:00Z")),
        ("producer-empty", lambda e: e.update(producer="")),
        ("input-not-object", lambda e: e["inputs"].append("app.orders")),
        ("input-facets-not-object", lambda e: e["inputs"][0].update(inputFacets=[])),
        ("output-facet-bad-schemaURL", lambda e: e["outputs"][0]["facets"]["schema"].update(_schemaURL="nope")),
        ("job-not-object", lambda e: e.update(job="orders_daily")),
        ("job-name-bool", lambda e: e["job"].update(name=True)),
    ]
    for name, mutate in odd:
        event = _valid_event()
        mutate(event)
        out.append((name, event))
    return out


def _detailed_verdict(event: dict) -> str:
    from dw_assets.connectors.openlineage.validation import _raise_problems, event_kind

    try:
        _raise_problems(event, event_kind(event))
    except InvalidEvent as exc:
        return str(exc)
    return "ok"


@pytest.mark.parametrize(("name", "event"), _mutations(), ids=[n for n, _ in _mutations()])
def test_the_fast_pass_and_the_detailed_checker_agree(name: str, event: dict) -> None:
    """The hot path answers from the fast pass; it must accept exactly what the checker accepts
    and, when it refuses, report the checker's own problems."""
    expected = _detailed_verdict(event)
    try:
        check_structure(event)
        verdict = "ok"
    except InvalidEvent as exc:
        verdict = str(exc)
    assert verdict == expected, name


def test_odd_values_are_refused_not_crashed_on() -> None:
    event = _valid_event()
    event["eventType"] = ["START"]  # unhashable: once a TypeError (HTTP 500) instead of a reason
    with pytest.raises(InvalidEvent, match=r"\$\.eventType"):
        check_structure(event)
    event = _valid_event()
    event["run"]["runId"] += "\n"
    with pytest.raises(InvalidEvent, match=r"\$\.run\.runId"):
        check_structure(event)


def test_check_event_hands_back_the_parsed_event_time() -> None:
    from datetime import UTC, datetime, timedelta, timezone

    from dw_assets.connectors.openlineage.validation import check_event

    event = _valid_event()
    event["eventTime"] = "2026-09-01T04:00:00.250+02:00"
    kind, at = check_event(event)
    assert kind == "run"
    assert at == datetime(2026, 9, 1, 2, 0, 0, 250000, tzinfo=UTC)
    assert at.utcoffset() == timedelta(hours=2) and at.tzinfo == timezone(timedelta(hours=2))


def test_schema_findings_are_handed_back_and_refuse_only_when_strict(spec_dir: Path) -> None:
    event = run_event(outputs=[dataset("bigquery-public-data.samples.shakespeare", "bigquery",
                                       dataSource={"name": "bigquery", "uri": "bigquery"})])
    kind, _, findings = EventValidator(spec_dir).check(event)
    assert kind == "run" and [path for path, _ in findings] == ["$.outputs[0].facets.dataSource.uri"]
    with pytest.raises(InvalidEvent, match=r"dataSource\.uri"):
        EventValidator(spec_dir, strict=True).check(event)
    assert EventValidator(None, strict=True).check(event)[2] == []  # structural checks only: nothing to find
