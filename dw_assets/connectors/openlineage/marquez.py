"""Polling a Marquez (or Marquez-compatible) backend for the OpenLineage events it received.

Reads `GET <url>/api/v1/events/lineage?after=&before=&limit=&offset=&sortDirection=asc`, which answers
`{"events": [...], "totalCount": n}`, paging by offset until `totalCount` (a short page only ends
it when the total is missing: servers may cap `limit`). The window
is (last event time seen, now]; `after` is moved back one second and the overlap deduplicated by the
event store (content hash), so events sharing the cursor's timestamp are not lost. An event whose
eventTime is older than the cursor when it reaches Marquez is not seen (Marquez filters on eventTime).
Writes nothing to Marquez: only GET requests are ever sent. Timeouts, connection errors and 5xx are
retried under the shared policy (`connectors.retry`); then, or on a 4xx or a response of the wrong
shape, `MarquezError` is raised and the cursor stays where it was.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import httpx
import orjson

from dw_assets.connectors import retry
from dw_assets.connectors.openlineage.event_store import (
    REJECTED_BODY_KEEP,
    AcceptedEvent,
    LineageEventStore,
    Quarantined,
    Rejection,
)
from dw_assets.connectors.openlineage.file_source import IngestReport
from dw_assets.connectors.openlineage.intake import EventIntake
from dw_assets.connectors.openlineage.validation import InvalidEvent, parse_event_time

_OVERLAP = timedelta(seconds=1)


class MarquezError(RuntimeError):
    """Marquez could not be read (HTTP error, unreachable, unexpected response)."""


def _iso(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class MarquezSource:
    def __init__(self, url: str, *, page_size: int = 100, timeout_s: float = 30.0,
                 client: httpx.Client | None = None, api_key: str | None = None,
                 namespace: str | None = None, policy: retry.RetryPolicy = retry.DEFAULT_POLICY):
        self.policy = policy
        self.namespace = namespace  # when set, only events of jobs (or datasets) in this namespace
        base = url.rstrip("/")
        self.base = base if base.endswith("/api/v1") else f"{base}/api/v1"
        self.page_size = page_size
        self.consumer = f"openlineage:marquez:{self.base}"
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = client or httpx.Client(timeout=timeout_s, headers=headers)

    def ingest(self, events: LineageEventStore, intake: EventIntake, *, now: datetime | None = None) -> IngestReport:
        cursor = events.store.get_cursor(self.consumer)
        last = datetime.fromisoformat(json.loads(cursor)["last_event_time"]) if cursor else None
        before = now or datetime.now(UTC)
        report = IngestReport(f"marquez:{self.base}")
        newest = last
        offset = 0
        while True:
            page, total = self._page(last - _OVERLAP if last else None, before, offset)
            batch_report, page_newest = self._store(page, offset, events, intake)
            report += batch_report
            if page_newest and (newest is None or page_newest > newest):
                newest = page_newest
            offset += len(page)
            # a server may cap `limit` below page_size: only a known total (or an empty page) ends it
            if not page or (offset >= total if total is not None else len(page) < self.page_size):
                break
        if newest and newest != last:
            events.store.set_cursor(self.consumer, json.dumps({"last_event_time": newest.isoformat()}))
        return report

    def _page(self, after: datetime | None, before: datetime, offset: int) -> tuple[list, int | None]:
        params: dict[str, str | int] = {"before": _iso(before), "limit": self.page_size, "offset": offset, "sortDirection": "asc"}
        if after:
            params["after"] = _iso(after)
        url = f"{self.base}/events/lineage"

        def get() -> httpx.Response:
            resp = self._client.get(url, params=params)
            resp.raise_for_status()
            return resp

        try:
            body = retry.call(get, system=f"Marquez at {self.base}", endpoint=f"GET {url}", policy=self.policy,
                              error=MarquezError, hint="check that Marquez is up; the cursor stays and the "
                                                       "next poll reads from it").json()
        except (httpx.HTTPError, ValueError) as exc:
            raise MarquezError(f"GET {url} failed: {exc}") from exc
        if not isinstance(body, dict) or not isinstance(body.get("events"), list):
            raise MarquezError(f"GET {url} answered without an `events` list: {str(body)[:200]}")
        total = body.get("totalCount")
        return body["events"], int(total) if isinstance(total, (int, float)) else None

    def _store(self, page: list, offset: int, events: LineageEventStore,
               intake: EventIntake) -> tuple[IngestReport, datetime | None]:
        accepted: list[AcceptedEvent] = []
        rejects: list[Rejection] = []
        newest: datetime | None = None
        for i, event in enumerate(page):
            where = f"marquez:{self.base}#{offset + i}"
            try:
                if not isinstance(event, dict):
                    raise InvalidEvent([("$", "expected one event object")])
                if self.namespace and _namespace_of(event) != self.namespace:
                    continue
                accepted.append(intake.accept_event(event, where))
                event_time = parse_event_time(event["eventTime"])
                newest = event_time if newest is None or event_time > newest else newest
            except InvalidEvent as exc:
                rejects.append(Rejection(where, str(exc), _raw(event)))
        seqs = events.append_many(accepted, rejects)
        stored = sum(isinstance(seq, int) for seq in seqs)
        quarantined = sum(isinstance(seq, Quarantined) for seq in seqs)
        return IngestReport(f"marquez:{self.base}", stored, len(seqs) - stored - quarantined,
                            len(rejects) + quarantined), newest


def _raw(event: object) -> bytes:
    """The event as JSON for the reject record; past orjson's 255 levels of nesting, its repr."""
    try:
        return orjson.dumps(event)
    except orjson.JSONEncodeError:
        try:
            return repr(event)[:REJECTED_BODY_KEEP].encode("utf-8", "replace")
        except RecursionError:
            return b"(nested too deep to keep)"


def _namespace_of(event: dict) -> str | None:
    for key in ("job", "dataset"):
        if isinstance(event.get(key), dict):
            return event[key].get("namespace")
    return None
