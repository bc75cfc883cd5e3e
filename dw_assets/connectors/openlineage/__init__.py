"""OpenLineage: receiving, reading and storing lineage events, and emitting Data Workers' own.

Reads: events POSTed to the receiver (`receiver`), files written by the file transport
(`file_source`), events polled from Marquez (`marquez`). All of them go through one intake
(`intake`: parse, validate, canonical dataset ids) into one event store (`event_store`).
Writes: only Data Workers' own state store, and its own run events to the configured transport
(`emitter`). Nothing here writes to the estate: Marquez is only ever read with GET.
Errors: `InvalidEvent` (a bad event, kept as a reject), `MarquezError`, `ConfigError` for a source
configured without the path or url it needs.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from dw_assets.config import ConfigError, OpenLineageSource, Settings, resolve_env
from dw_assets.connectors.openlineage.event_store import LineageEventStore
from dw_assets.connectors.openlineage.file_source import FileFolderSource, IngestReport
from dw_assets.connectors.openlineage.intake import EventIntake
from dw_assets.connectors.openlineage.marquez import MarquezError, MarquezSource
from dw_assets.connectors.openlineage.validation import InvalidEvent
from dw_assets.store import Store

log = logging.getLogger(__name__)

__all__ = ["IngestReport", "InvalidEvent", "LineageEventStore", "MarquezError", "SourcesReport",
           "build_source", "ingest_sources"]


@dataclass
class SourcesReport:
    reports: list[IngestReport] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # one line per source that could not be read

    @property
    def accepted(self) -> int:
        return sum(r.accepted for r in self.reports)

    def as_dict(self) -> dict:
        return {"sources": [vars(r) for r in self.reports], "errors": self.errors, "accepted": self.accepted}


def build_source(settings: Settings, source: OpenLineageSource) -> FileFolderSource | MarquezSource:
    if source.type == "file":
        if not source.path:
            raise ConfigError("openlineage.sources: a `file` source needs `path` (the events folder)")
        return FileFolderSource(settings.resolve_path(source.path, what="openlineage.sources.path"),
                                max_record_bytes=settings.openlineage.max_body_bytes)
    if not source.url:
        raise ConfigError("openlineage.sources: a `marquez` source needs `url` (e.g. http://127.0.0.1:5000)")
    api_key = resolve_env(source.api_key, what="openlineage.sources.api_key") if source.api_key else None
    return MarquezSource(resolve_env(source.url, what="openlineage.sources.url"), api_key=api_key,
                         namespace=source.namespace)


def ingest_sources(settings: Settings, store: Store, *, intake: EventIntake | None = None) -> SourcesReport:
    """Read every configured source once into the store. A source that fails is reported and the
    others still run; its cursor stays where it was."""
    intake = intake or EventIntake.from_settings(settings)
    events = LineageEventStore(store)
    result = SourcesReport()
    for source in settings.openlineage.sources:
        reader = build_source(settings, source)
        try:
            result.reports.append(reader.ingest(events, intake))
        except (MarquezError, OSError) as exc:
            log.warning("OpenLineage source %s could not be read: %s", source.type, exc)
            result.errors.append(f"{source.type} {source.path or source.url}: {exc}")
    return result
