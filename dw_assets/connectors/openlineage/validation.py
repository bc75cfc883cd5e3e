"""Checking OpenLineage events: fast structural checks (the hot path) and full JSON-Schema validation.

Structural checks cover what the rest of Data Workers relies on (times, ids, names, facet envelopes)
and run at a few hundred thousand events per second: a fast pass answers only "valid or not" (no JSON
paths built, URIs already seen remembered); only an event it refuses is walked again by the checker
that names every problem, so the fast pass can never accept what the checker would refuse. Full validation uses the official JSON Schemas
(Draft 2020-12) from a local folder: every file is registered by its `$id` in one
`referencing.Registry`, so a `$ref` never reaches for the network; the event is checked against
`OpenLineage.json#/$defs/<Kind>Event` and each facet against its own file, with a FormatChecker.
It is about 50x slower, so it is optional (enabled when `openlineage.spec_dir` is configured).

Every problem is reported as an `InvalidEvent` whose message names the JSON path (`$.run.runId`).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

import orjson
from jsonschema import Draft202012Validator, FormatChecker
from referencing import Registry, Resource

EventKind = Literal["run", "job", "dataset"]

# The spec's RunEvent.eventType enum (tests pin it against OpenLineage.json).
EVENT_TYPES = frozenset({"START", "RUNNING", "COMPLETE", "ABORT", "FAIL", "OTHER"})

_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_URI_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_MAX_PROBLEMS = 10
# producers and schema URLs repeat in nearly every event: a known-good one costs one set lookup
_URIS_SEEN: set[str] = set()
_URIS_SEEN_MAX = 4096
_URI_CACHED_CHARS = 300  # a bound on that set's memory: a long (fuzzed) URI is checked each time

class InvalidEvent(ValueError):
    """An event that breaks the spec; `problems` are (json path, what is wrong) pairs."""

    def __init__(self, problems: list[tuple[str, str]]):
        self.problems = problems
        super().__init__("; ".join(f"{path}: {what}" for path, what in problems))


def parse_event(body: bytes | str) -> dict[str, Any]:
    """Parse one JSON event; anything but a JSON object is an InvalidEvent."""
    try:
        event = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise InvalidEvent([("$", f"not valid JSON ({exc})")]) from None
    if not isinstance(event, dict):
        raise InvalidEvent([("$", f"expected one event object, got a JSON {type(event).__name__}")])
    return event


def event_kind(event: dict[str, Any]) -> EventKind:
    """RunEvent has a run; JobEvent a job but no run; DatasetEvent a dataset and neither."""
    if "run" in event:
        return "run"
    if "job" in event:
        return "job"
    if "dataset" in event:
        return "dataset"
    raise InvalidEvent([("$", "neither a RunEvent (run, job), a JobEvent (job) nor a DatasetEvent (dataset)")])


def parse_event_time(value: Any) -> datetime:
    """ISO 8601 with an offset (`Z` or `+hh:mm`); a naive time is ambiguous and refused."""
    if not isinstance(value, str):
        raise ValueError("must be an ISO 8601 date-time string")  # noqa: TRY004 - one error type for callers
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{value!r} is not an ISO 8601 date-time") from None
    if parsed.tzinfo is None or "T" not in value.upper():
        raise ValueError(f"{value!r} needs a date, a time and a UTC offset (e.g. 2026-09-01T02:00:00Z)")
    return parsed


class _Checker:
    def __init__(self) -> None:
        self.problems: list[tuple[str, str]] = []

    def add(self, path: str, what: str) -> None:
        if len(self.problems) < _MAX_PROBLEMS:
            self.problems.append((path, what))

    def obj(self, value: Any, path: str) -> bool:
        if isinstance(value, dict):
            return True
        self.add(path, f"must be an object, got {_json_type(value)}")
        return False

    def text(self, parent: dict[str, Any], key: str, path: str, *, uri: bool = False) -> None:
        value = parent.get(key)
        if value is None:
            self.add(f"{path}.{key}", "is required")
        elif not isinstance(value, str) or not value:
            self.add(f"{path}.{key}", f"must be a non-empty string, got {_json_type(value)}")
        elif uri and not _URI_SCHEME.match(value):
            self.add(f"{path}.{key}", f"{value!r} is not a URI (no scheme)")

    def facets(self, parent: dict[str, Any], key: str, path: str) -> None:
        container = parent.get(key)
        if container is None or not self.obj(container, f"{path}.{key}"):
            return
        for name, facet in container.items():
            where = f"{path}.{key}.{name}"
            if self.obj(facet, where):
                self.text(facet, "_producer", where, uri=True)
                self.text(facet, "_schemaURL", where, uri=True)

    def dataset(self, value: Any, path: str, extra_facets: str | None) -> None:
        if not self.obj(value, path):
            return
        self.text(value, "namespace", path)
        self.text(value, "name", path)
        self.facets(value, "facets", path)
        if extra_facets:
            self.facets(value, extra_facets, path)

    def datasets(self, event: dict[str, Any], key: str, extra_facets: str) -> None:
        value = event.get(key)
        if value is None:
            return
        if not isinstance(value, list):
            self.add(f"$.{key}", f"must be an array, got {_json_type(value)}")
            return
        for i, item in enumerate(value):
            self.dataset(item, f"$.{key}[{i}]", extra_facets)


def _is_uri(value: Any) -> bool:
    if type(value) is not str:
        return False
    if value in _URIS_SEEN:
        return True
    if _URI_SCHEME.match(value) is None:
        return False
    if len(_URIS_SEEN) < _URIS_SEEN_MAX and len(value) <= _URI_CACHED_CHARS:
        _URIS_SEEN.add(value)
    return True


def _facets_ok(container: Any) -> bool:
    if container is None:
        return True
    if type(container) is not dict:
        return False
    for facet in container.values():
        if type(facet) is not dict or not _is_uri(facet.get("_producer")) or not _is_uri(facet.get("_schemaURL")):
            return False
    return True


def _named_ok(value: Any, extra_facets: str | None) -> bool:
    """A job or dataset: non-empty namespace and name, well-formed facets."""
    if type(value) is not dict:
        return False
    namespace, name = value.get("namespace"), value.get("name")
    return (type(namespace) is str and namespace != "" and type(name) is str and name != ""
            and _facets_ok(value.get("facets")) and (extra_facets is None or _facets_ok(value.get(extra_facets))))


def _datasets_ok(value: Any, extra_facets: str) -> bool:
    if value is None:
        return True
    if type(value) is not list:
        return False
    for item in value:
        if not _named_ok(item, extra_facets):
            return False
    return True


def _fast_time(value: Any) -> datetime | None:
    if type(value) is not str or ("T" not in value and "t" not in value):
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def _passes_fast(event: dict[str, Any], kind: EventKind) -> bool:
    """True only for an event the detailed checker would accept; False means "ask the checker"."""
    if not _is_uri(event.get("producer")) or not _is_uri(event.get("schemaURL")):
        return False
    if kind == "dataset":
        return _named_ok(event.get("dataset"), None)
    if kind == "run":
        event_type, run = event.get("eventType"), event.get("run")
        if type(event_type) is not str or event_type not in EVENT_TYPES or type(run) is not dict:
            return False
        run_id = run.get("runId")
        if type(run_id) is not str or _UUID.fullmatch(run_id) is None or not _facets_ok(run.get("facets")):
            return False
    return (_named_ok(event.get("job"), None) and _datasets_ok(event.get("inputs"), "inputFacets")
            and _datasets_ok(event.get("outputs"), "outputFacets"))


def check_event(event: dict[str, Any]) -> tuple[EventKind, datetime]:
    """The hot-path checks: the event kind and its parsed eventTime, or InvalidEvent naming every
    problem found."""
    kind = event_kind(event)
    event_time = _fast_time(event.get("eventTime"))
    if event_time is not None and _passes_fast(event, kind):
        return kind, event_time
    _raise_problems(event, kind)
    return kind, parse_event_time(event["eventTime"])  # the checker found nothing the fast pass refused


def check_structure(event: dict[str, Any]) -> EventKind:
    """The hot-path checks; returns the event kind or raises InvalidEvent naming every problem found."""
    return check_event(event)[0]


def _raise_problems(event: dict[str, Any], kind: EventKind) -> None:
    """Walk the event naming every problem (JSON path, what is wrong); raise InvalidEvent if any."""
    c = _Checker()
    try:
        parse_event_time(event.get("eventTime"))
    except ValueError as exc:
        c.add("$.eventTime", "is required" if "eventTime" not in event else str(exc))
    c.text(event, "producer", "$", uri=True)
    c.text(event, "schemaURL", "$", uri=True)
    if kind == "run":
        _check_run(event, c)
    if kind in ("run", "job") and c.obj(event.get("job"), "$.job"):
        c.text(event["job"], "namespace", "$.job")
        c.text(event["job"], "name", "$.job")
        c.facets(event["job"], "facets", "$.job")
    if kind in ("run", "job"):
        c.datasets(event, "inputs", "inputFacets")
        c.datasets(event, "outputs", "outputFacets")
    else:
        c.dataset(event.get("dataset"), "$.dataset", None)
    if c.problems:
        raise InvalidEvent(c.problems)


def _check_run(event: dict[str, Any], c: _Checker) -> None:
    event_type = event.get("eventType")
    if event_type is None:
        c.add("$.eventType", "is required")
    elif not isinstance(event_type, str) or event_type not in EVENT_TYPES:
        c.add("$.eventType", f"{event_type!r} is not one of {', '.join(sorted(EVENT_TYPES))}")
    run = event.get("run")
    if run is None:
        c.add("$.run", "is required")
        return
    if not c.obj(run, "$.run"):
        return
    run_id = run.get("runId")
    if not isinstance(run_id, str) or not _UUID.fullmatch(run_id):
        c.add("$.run.runId", "is required" if run_id is None else f"{run_id!r} is not a UUID")
    c.facets(run, "facets", "$.run")


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}.get(
        type(value), "a number" if isinstance(value, (int, float)) else type(value).__name__
    )


@dataclass(frozen=True)
class _FacetSchema:
    file: str
    validator: Any  # jsonschema validator for the whole facet file: {facet_key: facet}


class FullValidator:
    """JSON-Schema validation against the official spec files in one folder (never the network)."""

    def __init__(self, spec_dir: Path):
        files = [spec_dir / "OpenLineage.json", *sorted((spec_dir / "facets").glob("*.json"))]
        if not files[0].is_file():
            raise FileNotFoundError(f"{files[0]} not found: openlineage.spec_dir must hold OpenLineage.json")
        docs = {path.name: json.loads(path.read_text()) for path in files}
        registry = Registry().with_resources(
            (doc["$id"], Resource.from_contents(doc)) for doc in docs.values()
        )
        core = docs["OpenLineage.json"]
        self.core_id = core["$id"]
        checker = FormatChecker()

        def validator(schema: dict[str, Any]) -> Any:
            return Draft202012Validator(schema, registry=registry, format_checker=checker)

        self._events = {
            kind: validator({"$ref": f"{self.core_id}#/$defs/{name}"})
            for kind, name in (("run", "RunEvent"), ("job", "JobEvent"), ("dataset", "DatasetEvent"))
        }
        self._facets: dict[tuple[str, str], _FacetSchema] = {}
        for name, doc in docs.items():
            if name == "OpenLineage.json":
                continue
            for key, base_types in _facet_base_types(doc).items():
                for base in base_types:
                    self._facets[(base, key)] = _FacetSchema(name, validator(doc))

    def facet_schema_file(self, location_type: str, key: str) -> str | None:
        found = self._facets.get((location_type, key))
        return found.file if found else None

    def validate(self, event: dict[str, Any]) -> None:
        """Raise InvalidEvent with every schema violation (core, then each known facet)."""
        problems = self.findings(event)
        if problems:
            raise InvalidEvent(problems)

    def findings(self, event: dict[str, Any]) -> list[tuple[str, str]]:
        """Every schema violation (core, then each known facet), at most `_MAX_PROBLEMS`; [] for none."""
        kind = event_kind(event)
        problems = [(err.json_path, err.message) for err in self._events[kind].iter_errors(event)]
        for path, base, key, facet in _facets_in(event):
            known = self._facets.get((base, key))
            if known is None:
                continue  # custom facets (dbt_version, airflow...) are only held to the base facet
            for err in known.validator.iter_errors({key: facet}):
                rel = err.json_path.removeprefix("$").removeprefix(f".{key}")
                problems.append((f"{path}{rel}", f"{err.message} (per {known.file})"))
        return [(path, _clip(what)) for path, what in problems[:_MAX_PROBLEMS]]


def _clip(message: str, limit: int = 300) -> str:
    """jsonschema quotes the offending value whole: a finding stays a line, not a copy of the event."""
    return message if len(message) <= limit else f"{message[:limit]}... ({len(message)} characters)"


def _facet_base_types(doc: dict[str, Any]) -> dict[str, set[str]]:
    """For each facet key a file defines, the OpenLineage base facet types it derives from."""
    defs = doc.get("$defs", {})

    def bases(node: Any, seen: frozenset[str]) -> set[str]:
        if not isinstance(node, dict):
            return set()
        found: set[str] = set()
        ref = node.get("$ref", "")
        if "OpenLineage.json#/$defs/" in ref:
            found.add(ref.rsplit("/", 1)[1])
        elif ref.startswith("#/$defs/") and ref not in seen:
            found |= bases(defs.get(ref.rsplit("/", 1)[1]), seen | {ref})
        for combinator in ("allOf", "anyOf", "oneOf"):
            for part in node.get(combinator, []):
                found |= bases(part, seen)
        return found

    return {key: bases(prop, frozenset()) for key, prop in doc.get("properties", {}).items()}


def _facets_in(event: dict[str, Any]):
    """Yield (json path, base facet type, key, facet) for every facet in an event."""

    def each(container: Any, path: str, base: str):
        if isinstance(container, dict):
            for key, facet in container.items():
                yield f"{path}.{key}", base, key, facet

    if isinstance(event.get("run"), dict):
        yield from each(event["run"].get("facets"), "$.run.facets", "RunFacet")
    if isinstance(event.get("job"), dict):
        yield from each(event["job"].get("facets"), "$.job.facets", "JobFacet")
    if isinstance(event.get("dataset"), dict) and "run" not in event and "job" not in event:
        yield from each(event["dataset"].get("facets"), "$.dataset.facets", "DatasetFacet")
    for role, extra, base in (("inputs", "inputFacets", "InputDatasetFacet"),
                              ("outputs", "outputFacets", "OutputDatasetFacet")):
        items = event.get(role)
        for i, ds in enumerate(items if isinstance(items, list) else []):
            if isinstance(ds, dict):
                yield from each(ds.get("facets"), f"$.{role}[{i}].facets", "DatasetFacet")
                yield from each(ds.get(extra), f"$.{role}[{i}].{extra}", base)


@functools.lru_cache(maxsize=4)
def full_validator(spec_dir: str) -> FullValidator:
    """One FullValidator per spec folder per process: building the registry costs ~100 ms."""
    return FullValidator(Path(spec_dir))


class EventValidator:
    """What every source uses: structural checks, plus full validation when a spec folder is given.

    Structural problems (what the rest of Data Workers cannot read: no run id, no event time, no job)
    always refuse an event. Schema findings (a facet that breaks its published schema, such as a
    Spark or BigQuery `dataSource.uri` of `bigquery`) refuse it only when `strict`; otherwise the
    event is accepted and the findings are kept with it, as Marquez accepts what producers send."""

    def __init__(self, spec_dir: str | Path | None = None, *, strict: bool = False):
        self._full = full_validator(str(Path(spec_dir).resolve())) if spec_dir else None
        self.strict = strict

    @property
    def full(self) -> bool:
        return self._full is not None

    def validate(self, event: dict[str, Any]) -> EventKind:
        return self.check(event)[0]

    def check(self, event: dict[str, Any]) -> tuple[EventKind, datetime, list[tuple[str, str]]]:
        """The event kind, its parsed eventTime (the store needs it) and its schema findings; raises
        InvalidEvent for a structural problem, or for any finding when `strict`."""
        kind, event_time = check_event(event)
        findings = self._full.findings(event) if self._full is not None else []
        if findings and self.strict:
            raise InvalidEvent(findings)
        return kind, event_time, findings
