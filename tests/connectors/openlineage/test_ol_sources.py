"""Event sources: a file-transport folder (incremental, partial lines) and Marquez (paging, cursor)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from werkzeug import Request, Response

from dw_assets.connectors.openlineage import ingest_sources
from dw_assets.connectors.openlineage.event_store import LineageEventStore
from dw_assets.connectors.openlineage.file_source import FileFolderSource
from dw_assets.connectors.openlineage.intake import EventIntake, dataset_id_resolver
from dw_assets.connectors.openlineage.marquez import MarquezError, MarquezSource
from dw_assets.connectors.openlineage.validation import EventValidator
from dw_assets.connectors.retry import RetryPolicy
from dw_assets.store import Store
from tests.support.ol_samples import dataset, make_settings, run_event


def _intake() -> EventIntake:
    return EventIntake(EventValidator(None), dataset_id_resolver())


def _line(i: int, **kw) -> bytes:
    event = run_event(job=f"orders_daily.t{i}", event_time=f"2026-09-01T02:00:{i:02d}Z",
                      outputs=[dataset("lake.main.orders_clean")], **kw)
    return json.dumps(event).encode() + b"\n"


def test_ndjson_is_read_incrementally_and_a_half_written_line_waits(tmp_path: Path, store: Store) -> None:
    folder = tmp_path / "events"
    folder.mkdir()
    ndjson = folder / "airflow.ndjson"
    partial = _line(3)
    ndjson.write_bytes(_line(1) + _line(2) + partial[:40])  # the writer is mid-line
    events, source = LineageEventStore(store), FileFolderSource(folder, max_record_bytes=100_000)

    first = source.ingest(events, _intake())
    assert (first.accepted, first.rejected) == (2, 0)
    assert source.ingest(events, _intake()).accepted == 0  # nothing new, the half line still waits

    with ndjson.open("ab") as fh:
        fh.write(partial[40:] + _line(4))
    second = source.ingest(events, _intake())
    assert (second.accepted, second.duplicates, second.rejected) == (2, 0, 0)
    assert [e.job_name for e in events.read_after(0)] == [f"orders_daily.t{i}" for i in (1, 2, 3, 4)]
    offsets = json.loads(store.get_cursor(source.consumer))["files"]
    assert offsets == {"airflow.ndjson": ndjson.stat().st_size}


def test_one_document_per_file_including_pretty_printed(tmp_path: Path, store: Store) -> None:
    folder = tmp_path / "events"
    folder.mkdir()
    (folder / "ol-20260901-020000.000001.json").write_bytes(_line(1))
    pretty = json.dumps(json.loads(_line(2)), indent=2).encode() + b"\n"  # the file transport's debug mode
    (folder / "ol-20260901-020000.000002.json").write_bytes(pretty)
    growing = json.dumps(json.loads(_line(3)), indent=2).encode()
    (folder / "ol-20260901-020000.000003.json").write_bytes(growing[: len(growing) // 2] + b"\n")
    events, source = LineageEventStore(store), FileFolderSource(folder, max_record_bytes=100_000)
    assert source.ingest(events, _intake()).accepted == 2
    (folder / "ol-20260901-020000.000003.json").write_bytes(growing + b"\n")
    assert source.ingest(events, _intake()).accepted == 1
    assert events.counts() == {"events": 3, "rejected": 0, "with_findings": 0}


def test_bad_lines_are_kept_as_rejects_with_file_and_line(tmp_path: Path, store: Store) -> None:
    folder = tmp_path / "events"
    folder.mkdir()
    bad = json.loads(_line(2))
    bad["run"]["runId"] = "not-a-uuid"
    (folder / "x.ndjson").write_bytes(_line(1) + b"{oops\n" + json.dumps(bad).encode() + b"\n" + b"y" * 3000 + b"\n")
    events = LineageEventStore(store)
    report = FileFolderSource(folder, max_record_bytes=2000).ingest(events, _intake())
    assert (report.accepted, report.rejected) == (1, 3)
    rows = list(reversed(events.rejected()))
    assert [r["source"].rsplit("+", 1)[1] for r in rows] == ["line2", "line3", "line4"]
    assert "not valid JSON" in rows[0]["reason"]
    assert "$.run.runId: 'not-a-uuid' is not a UUID" in rows[1]["reason"]
    assert "exceeds max_body_bytes=2000" in rows[2]["reason"] and rows[2]["body_bytes"] == 3000


def test_many_batches_keep_file_order_count_duplicates_and_rejects(tmp_path: Path, store: Store,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from dw_assets.connectors.openlineage import file_source

    monkeypatch.setattr(file_source, "_BATCH", 4)  # 23 records: six transactions
    folder = tmp_path / "events"
    folder.mkdir()
    lines = [_line(i) for i in range(21)]
    (folder / "a.ndjson").write_bytes(b"".join(lines[:10]) + b"{oops\n" + lines[3])  # a bad line, a repeat
    (folder / "b.ndjson").write_bytes(b"".join(lines[10:]))
    events = LineageEventStore(store)
    report = FileFolderSource(folder, max_record_bytes=100_000).ingest(events, _intake())
    assert (report.accepted, report.duplicates, report.rejected) == (21, 1, 1)
    assert [e.job_name for e in events.read_after(0, limit=100)] == [f"orders_daily.t{i}" for i in range(21)]
    again = FileFolderSource(folder, max_record_bytes=100_000).ingest(events, _intake())
    assert (again.accepted, again.duplicates, again.rejected) == (0, 0, 0)


def test_a_file_that_shrank_is_read_again(tmp_path: Path, store: Store) -> None:
    folder = tmp_path / "events"
    folder.mkdir()
    log = folder / "events.ndjson"
    log.write_bytes(_line(1) + _line(2))
    events, source = LineageEventStore(store), FileFolderSource(folder, max_record_bytes=100_000)
    assert source.ingest(events, _intake()).accepted == 2
    log.write_bytes(_line(3))  # rotated: a new, shorter file under the same name
    assert source.ingest(events, _intake()).accepted == 1


def test_ingest_sources_reads_the_configured_folder(dw_home: Path, store: Store) -> None:
    folder = dw_home / "lineage" / "events"
    folder.mkdir(parents=True)
    (folder / "a.ndjson").write_bytes(_line(1) + _line(2))
    settings = make_settings(dw_home, sources=[{"type": "file", "path": "${DW_HOME}/lineage/events"}])
    report = ingest_sources(settings, store)
    assert report.accepted == 2 and not report.errors
    assert ingest_sources(settings, store).accepted == 0


def _marquez_events(n: int) -> list[dict]:
    return [json.loads(_line(i)) for i in range(n)]


class FakeMarquez:
    """Serves recorded pages of `GET /api/v1/events/lineage` the way Marquez pages them."""

    def __init__(self, events: list[dict], max_limit: int = 100):
        self.events = events
        self.max_limit = max_limit  # a server-side cap on `limit`
        self.requests: list[dict] = []

    def __call__(self, request: Request) -> Response:
        args = request.args
        self.requests.append(dict(args))
        assert args["sortDirection"] == "asc"
        after = datetime.fromisoformat(args["after"]) if "after" in args else None
        before = datetime.fromisoformat(args["before"])
        matching = [e for e in self.events
                    if (after is None or datetime.fromisoformat(e["eventTime"]) > after)
                    and datetime.fromisoformat(e["eventTime"]) < before]
        offset, limit = int(args["offset"]), min(int(args["limit"]), self.max_limit)
        body = {"events": matching[offset:offset + limit], "totalCount": len(matching)}
        return Response(json.dumps(body), content_type="application/json")


def test_marquez_pages_until_done_and_resumes_after_the_last_event(httpserver, store: Store) -> None:
    marquez = FakeMarquez(_marquez_events(7))
    httpserver.expect_request("/api/v1/events/lineage", method="GET").respond_with_handler(marquez)
    events = LineageEventStore(store)
    source = MarquezSource(httpserver.url_for("/"), page_size=3)
    now = datetime(2026, 9, 2, tzinfo=UTC)

    report = source.ingest(events, _intake(), now=now)
    assert report.accepted == 7
    assert [r["offset"] for r in marquez.requests] == ["0", "3", "6"]
    assert all(r["limit"] == "3" and "after" not in r for r in marquez.requests)
    cursor = json.loads(store.get_cursor(source.consumer))
    assert cursor == {"last_event_time": "2026-09-01T02:00:06+00:00"}

    marquez.events += _marquez_events(9)[7:]
    marquez.requests.clear()
    again = source.ingest(events, _intake(), now=now)
    assert (again.accepted, again.duplicates) == (2, 1)  # one second of overlap, deduplicated
    assert marquez.requests[0]["after"] == "2026-09-01T02:00:05.000Z"
    assert events.counts()["events"] == 9


def test_marquez_bad_events_are_rejected_and_errors_keep_the_cursor(httpserver, store: Store) -> None:
    bad = _marquez_events(2)
    bad[1]["run"]["runId"] = "x"
    httpserver.expect_ordered_request("/api/v1/events/lineage").respond_with_json(
        {"events": bad, "totalCount": 2})
    httpserver.expect_ordered_request("/api/v1/events/lineage").respond_with_data("boom", status=500)
    events = LineageEventStore(store)
    source = MarquezSource(httpserver.url_for("/api/v1"), page_size=100, policy=RetryPolicy(attempts=2, backoff_s=0.01))
    report = source.ingest(events, _intake())
    assert (report.accepted, report.rejected) == (1, 1)
    assert "not a UUID" in events.rejected()[0]["reason"]
    cursor = store.get_cursor(source.consumer)
    with pytest.raises(MarquezError, match="500"):
        source.ingest(events, _intake())
    assert store.get_cursor(source.consumer) == cursor


def test_marquez_paging_survives_a_server_side_limit_cap(httpserver, store: Store) -> None:
    marquez = FakeMarquez(_marquez_events(7), max_limit=2)
    httpserver.expect_request("/api/v1/events/lineage").respond_with_handler(marquez)
    report = MarquezSource(httpserver.url_for("/"), page_size=5).ingest(LineageEventStore(store), _intake())
    assert report.accepted == 7
    assert [r["offset"] for r in marquez.requests] == ["0", "2", "4", "6"]


def test_a_failed_write_ends_the_pass_and_keeps_the_cursor(tmp_path: Path, store: Store,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from dw_assets.connectors.openlineage import file_source

    monkeypatch.setattr(file_source, "_BATCH", 3)  # 12 records: four batches, written on the writer thread
    folder = tmp_path / "events"
    folder.mkdir()
    (folder / "a.ndjson").write_bytes(b"".join(_line(i) for i in range(12)))
    events, source = LineageEventStore(store), FileFolderSource(folder, max_record_bytes=100_000)
    real_write, calls = events.write, []

    def failing_second_write(batch):
        calls.append(len(batch.keys))
        if len(calls) == 2:
            raise OSError("disk full")
        return real_write(batch)

    monkeypatch.setattr(events, "write", failing_second_write)
    with pytest.raises(OSError, match="disk full"):
        source.ingest(events, _intake())
    assert store.get_cursor(source.consumer) is None  # nothing is skipped on the next pass
    assert len(calls) <= 3  # at most the batches already queued when the write failed were taken
    monkeypatch.setattr(events, "write", real_write)
    report = source.ingest(events, _intake())
    assert (report.accepted, report.duplicates) == (9, 3)  # the first batch was committed before the failure
    assert [e.job_name for e in events.read_after(0, limit=100)] == [f"orders_daily.t{i}" for i in range(12)]


def test_marquez_5xx_and_a_stall_are_retried_within_one_poll(httpserver, store: Store) -> None:
    import time

    def stall(_request):
        time.sleep(0.6)
        return Response("{}", status=200)

    httpserver.expect_ordered_request("/api/v1/events/lineage").respond_with_data("busy", status=503)
    httpserver.expect_ordered_request("/api/v1/events/lineage").respond_with_handler(stall)
    httpserver.expect_ordered_request("/api/v1/events/lineage").respond_with_json(
        {"events": _marquez_events(2), "totalCount": 2})
    source = MarquezSource(httpserver.url_for("/api/v1"), timeout_s=0.3, policy=RetryPolicy(attempts=4, backoff_s=0.01))
    report = source.ingest(LineageEventStore(store), _intake())
    assert report.accepted == 2 and len(httpserver.log) >= 2
