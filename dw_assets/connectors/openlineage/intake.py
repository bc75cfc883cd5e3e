"""Turning a received body into an event to store or a rejection to keep: one path for every source.

Pure: parses, validates (structural, plus full JSON Schema when a spec folder is configured) and maps
each dataset to its canonical id. Writes nothing and makes no network call; every source (HTTP
receiver, file folder, Marquez) calls `accept` and hands the result to the event store.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Mapping
from typing import Any

from dw_assets.config import Settings
from dw_assets.connectors.openlineage.event_store import AcceptedEvent, DatasetRef, Rejection
from dw_assets.connectors.openlineage.validation import EventValidator, InvalidEvent, parse_event
from dw_assets.core.identity import IdentityError, canonical_dataset_id

log = logging.getLogger(__name__)

DatasetIdFn = Callable[[str, str], str]
DatasetRefFn = Callable[[str, str, str], DatasetRef]


_RESOLVERS: dict[tuple[tuple[str, str], ...], DatasetIdFn] = {}
_KEPT_RESOLVERS = 8  # one per distinct alias table in the process (a config, a test's)


def dataset_id_resolver(aliases: Mapping[str, str] | None = None) -> DatasetIdFn:
    """(namespace, name) -> canonical dataset id by the project's identity rule and the config's
    aliases. A name the rule cannot parse (an empty part, stray quotes) keeps `namespace/name`,
    lower-cased, so an odd but valid event is still stored and findable. The same aliases give the
    same resolver, its cache kept: each sensor tick asks for one, and the estate's few thousand
    datasets recur in every tick (working their ids out again was ~7% of a tick's CPU)."""
    key = tuple(sorted((aliases or {}).items()))
    resolver = _RESOLVERS.get(key)
    if resolver is None:
        if len(_RESOLVERS) >= _KEPT_RESOLVERS:
            _RESOLVERS.pop(next(iter(_RESOLVERS)))
        resolver = _RESOLVERS[key] = _new_resolver(dict(key))
    return resolver


def _new_resolver(aliases: dict[str, str]) -> DatasetIdFn:

    def resolve(namespace: str, name: str) -> str:
        try:
            return canonical_dataset_id(name, namespace=namespace or None, aliases=aliases)
        except IdentityError:
            return f"{namespace}/{name}".lower() if namespace else name.lower()

    return _bounded_cache(resolve)


_CACHE_ENTRIES = 16384  # a few thousand datasets recur in every feed
_CACHED_CHARS = 512  # longer names are worked out each time: the caches stay a few MB whatever arrives


def _bounded_cache(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn` behind an LRU cache of `_CACHE_ENTRIES`, for arguments of at most `_CACHED_CHARS` in all."""
    cached = functools.lru_cache(maxsize=_CACHE_ENTRIES)(fn)

    def call(*args: str) -> Any:
        return cached(*args) if sum(map(len, args)) <= _CACHED_CHARS else fn(*args)

    call.cache_info = cached.cache_info  # type: ignore[attr-defined]
    return call


def dataset_ref_factory(dataset_id: DatasetIdFn) -> DatasetRefFn:
    """(role, namespace, name) -> DatasetRef, one shared instance per distinct dataset and role."""

    def ref(role: str, namespace: str, name: str) -> DatasetRef:
        return DatasetRef(role, namespace, name, dataset_id(namespace, name))

    return _bounded_cache(ref)


def dataset_refs(event: dict[str, Any], dataset_ref: DatasetRefFn) -> list[DatasetRef]:
    """Every dataset an (already validated) event names, with its role; each (role, dataset id) once."""
    refs: list[DatasetRef] = []
    for role, key in (("input", "inputs"), ("output", "outputs")):
        for ds in event.get(key) or ():
            refs.append(dataset_ref(role, ds["namespace"], ds["name"]))
    if "run" not in event and "job" not in event and isinstance(event.get("dataset"), dict):
        ds = event["dataset"]
        refs.append(dataset_ref("dataset", ds["namespace"], ds["name"]))
    if len(refs) > 1 and len({(r.role, r.dataset_id) for r in refs}) < len(refs):
        unique: dict[tuple[str, str], DatasetRef] = {}
        for r in refs:
            unique.setdefault((r.role, r.dataset_id), r)
        refs = list(unique.values())
    return refs


class EventIntake:
    """Validates and prepares events for the store; shared by all sources of one process."""

    def __init__(self, validator: EventValidator, dataset_id: DatasetIdFn):
        self.validator = validator
        self.dataset_id = dataset_id
        self._dataset_ref = dataset_ref_factory(dataset_id)

    @classmethod
    def from_settings(cls, settings: Settings, *, full_validation: bool | None = None,
                      strict: bool | None = None) -> EventIntake:
        """Full validation follows `openlineage.spec_dir` unless `full_validation` says otherwise;
        refusing events with schema findings follows `openlineage.strict` unless `strict` does."""
        spec_dir = settings.openlineage.spec_dir
        use_full = bool(spec_dir) if full_validation is None else full_validation
        resolved = settings.resolve_path(spec_dir, what="openlineage.spec_dir") if use_full and spec_dir else None
        if resolved is not None and not (resolved / "OpenLineage.json").is_file():
            resolved = None  # configured but absent (e.g. no ../shared): structural checks only
        strict = settings.openlineage.strict if strict is None else strict
        return cls(EventValidator(resolved, strict=strict), dataset_id_resolver(settings.aliases))

    def accept(self, body: bytes, source: str) -> AcceptedEvent | Rejection:
        """Never raises: whatever the body holds, an event to store or a rejection with its reason."""
        try:
            return self.accept_event(parse_event(body), source)
        except InvalidEvent as exc:
            return Rejection(source, str(exc), body)
        except Exception as exc:  # noqa: BLE001 - no body may stop a source or answer 500 (a poison event)
            log.warning("OpenLineage event from %s could not be read: %s: %s", source, type(exc).__name__, exc)
            return Rejection(source, f"$: cannot be read: {type(exc).__name__}: {str(exc)[:300]}", body)

    def accept_event(self, event: dict[str, Any], source: str) -> AcceptedEvent:
        """Raise InvalidEvent for a bad event; else the event ready to store."""
        try:
            kind, event_time, findings = self.validator.check(event)
        except RecursionError:  # jsonschema walks nested values recursively
            raise InvalidEvent([("$", "cannot be checked: nested too deep")]) from None
        return AcceptedEvent.of(event, kind, source, datasets=dataset_refs(event, self._dataset_ref),
                                event_time=event_time, findings=findings)
