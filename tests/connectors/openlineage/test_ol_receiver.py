"""The OpenLineage HTTP receiver: Starlette TestClient for the contract, a real uvicorn for the rest."""

from __future__ import annotations

import gzip
import json
import socket
import time
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from dw_assets.connectors.openlineage.event_store import REJECTED_BODY_KEEP, LineageEventStore
from dw_assets.connectors.openlineage.receiver import ReceiverOptions, create_app
from dw_assets.store import Store
from tests.support.ol_samples import dataset, event_with_facet, facet_examples, make_settings, run_event

LIMIT = 50_000


def _event(**kw) -> dict:
    return run_event(inputs=[dataset("app.main.orders", "duckdb:///w/app.duckdb")],
                     outputs=[dataset("lake.main.orders_clean")], **kw)


def _app(dw_home: Path, store: Store, *, spec_dir: Path | None = None, api_key: str | None = None):
    settings = make_settings(dw_home, spec_dir=str(spec_dir) if spec_dir else None, max_body_bytes=LIMIT)
    return create_app(settings, store, options=ReceiverOptions(max_body_bytes=LIMIT, api_key=api_key))


def _malformed_corpus() -> list[tuple[str, dict, bytes, int, str]]:
    """(id, headers, body, status, words the reason must hold)."""
    good = _event()

    def mutated(fn) -> bytes:
        event = json.loads(json.dumps(good))
        fn(event)
        return json.dumps(event).encode()

    return [
        ("bad-json", {}, b'{"eventType": "START", ', 400, "not valid JSON"),
        ("json-array", {}, b"[]", 400, "expected one event object"),
        ("empty-body", {}, b"", 400, "not valid JSON"),
        ("missing-run-and-job", {}, mutated(lambda e: (e.pop("run"), e.pop("job"))), 400, "neither a RunEvent"),
        ("missing-eventTime", {}, mutated(lambda e: e.pop("eventTime")), 400, "$.eventTime"),
        ("missing-job-name", {}, mutated(lambda e: e["job"].pop("name")), 400, "$.job.name"),
        ("non-uuid-runId", {}, mutated(lambda e: e["run"].update(runId="scheduled__2026")), 400, "not a UUID"),
        ("runId-wrong-type", {}, mutated(lambda e: e["run"].update(runId=7)), 400, "$.run.runId"),
        ("outputs-wrong-type", {}, mutated(lambda e: e.update(outputs="lake.orders_clean")), 400, "$.outputs"),
        ("eventType-unknown", {}, mutated(lambda e: e.update(eventType="FINISHED")), 400, "$.eventType"),
        ("facet-without-producer", {}, mutated(lambda e: e["outputs"][0]["facets"].update(
            schema={"_schemaURL": "https://x.example/s", "fields": []})), 400, "schema._producer: is required"),
        ("bad-gzip", {"Content-Encoding": "gzip"}, b"\x1f\x8b\x08\x00garbage", 400, "not valid gzip"),
        ("truncated-gzip", {"Content-Encoding": "gzip"}, gzip.compress(json.dumps(good).encode())[:40], 400,
         "not valid gzip"),
        ("unknown-encoding", {"Content-Encoding": "br"}, b"{}", 400, "not supported"),
        ("oversized", {}, b"{" + b" " * (LIMIT + 10) + b"}", 413, "exceeds max_body_bytes"),
        ("gzip-bomb", {"Content-Encoding": "gzip"}, gzip.compress(b" " * (LIMIT * 20)), 413, "inflates past"),
    ]


def test_an_event_is_stored_and_acknowledged_with_201(dw_home: Path, store: Store) -> None:
    with TestClient(_app(dw_home, store)) as client:
        resp = client.post("/api/v1/lineage", json=_event())
        assert resp.status_code == 201 and resp.content == b""
        assert client.get("/api/v1/health").json() == {"status": "ok"}
    assert LineageEventStore(store).counts() == {"events": 1, "rejected": 0, "with_findings": 0}


def test_gzip_bodies_and_duplicates(dw_home: Path, store: Store) -> None:
    event = _event()
    body = json.dumps(event).encode()
    with TestClient(_app(dw_home, store)) as client:
        assert client.post("/api/v1/lineage", content=gzip.compress(body),
                           headers={"Content-Encoding": "gzip", "Content-Type": "application/json"}).status_code == 201
        assert client.post("/api/v1/lineage", content=body).status_code == 201  # the same event again
    assert LineageEventStore(store).counts()["events"] == 1


def test_api_key_is_required_when_configured(dw_home: Path, store: Store) -> None:
    with TestClient(_app(dw_home, store, api_key="s3cret")) as client:
        assert client.post("/api/v1/lineage", json=_event()).status_code == 401
        wrong = client.post("/api/v1/lineage", json=_event(), headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401 and "API key" in wrong.json()["error"]
        ok = client.post("/api/v1/lineage", json=_event(), headers={"Authorization": "Bearer s3cret"})
        assert ok.status_code == 201
    assert LineageEventStore(store).counts() == {"events": 1, "rejected": 0, "with_findings": 0}  # refused requests are not kept


def test_malformed_events_are_refused_with_a_reason_and_all_kept(dw_home: Path, store: Store) -> None:
    corpus = _malformed_corpus()
    with TestClient(_app(dw_home, store)) as client:
        for name, headers, body, status, words in corpus:
            resp = client.post("/api/v1/lineage", content=body, headers=headers)
            assert resp.status_code == status, (name, resp.text)
            assert words in resp.json()["error"], (name, resp.json())
    rejected = LineageEventStore(store).rejected(limit=100)
    assert len(rejected) == len(corpus)
    reasons = [r["reason"] for r in reversed(rejected)]
    for (name, _, _, _, words), reason in zip(corpus, reasons, strict=True):
        assert words in reason, (name, reason)
    assert LineageEventStore(store).counts()["events"] == 0


def test_a_stream_growing_past_the_limit_is_cut_off(dw_home: Path, store: Store) -> None:
    def chunks():  # no Content-Length: chunked transfer
        yield b'{"eventType": "START", "pad": "'
        for _ in range(20):
            yield b"x" * 10_000

    with TestClient(_app(dw_home, store)) as client:
        resp = client.post("/api/v1/lineage", content=chunks())
    assert resp.status_code == 413 and "grew past" in resp.json()["error"]
    [row] = LineageEventStore(store).rejected()
    assert row["truncated"] and row["body"].startswith(b'{"eventType": "START"')
    assert len(row["body"]) <= REJECTED_BODY_KEEP < row["body_bytes"]


def _raw_post_headers(port: int, length: int, first: bytes) -> bytes:
    """Send headers announcing `length` bytes and only `first`; return what the server answers."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"POST /api/v1/lineage HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n%s" % (length, first))
        data = b""
        deadline = time.monotonic() + 30
        while b"\r\n\r\n" not in data and time.monotonic() < deadline:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        return data


@pytest.mark.openlineage
def test_real_server_accepts_the_spec_examples_and_openlineage_python(
        dw_home: Path, store: Store, spec_dir: Path, run_server) -> None:
    from openlineage.client import OpenLineageClient
    from openlineage.client.event_v2 import Job, Run, RunEvent, RunState
    from openlineage.client.transport.http import HttpConfig, HttpTransport

    examples = facet_examples(spec_dir)
    with run_server(_app(dw_home, store, spec_dir=spec_dir, api_key="k3y")) as server:
        headers = {"Authorization": "Bearer k3y"}
        full = json.loads((spec_dir / "tests" / "example_full_event.json").read_text())
        with httpx.Client(base_url=server.url, headers=headers, timeout=30) as http:
            assert http.post("/api/v1/lineage", json=full).status_code == 201
            for name, example in examples:
                resp = http.post("/api/v1/lineage", json=event_with_facet(spec_dir, name.split("/")[0], example))
                assert resp.status_code == 201, (name, resp.text)
        config = HttpConfig.from_dict({"url": server.url, "auth": {"type": "api_key", "apiKey": "k3y"},
                                       "compression": "gzip"})
        client = OpenLineageClient(transport=HttpTransport(config))
        sent = RunEvent(eventType=RunState.START, eventTime="2026-09-02T02:00:00+00:00",
                        run=Run(runId="0195f1d8-7d5a-7000-8000-000000000001"),
                        job=Job(namespace="airflow://local", name="orders_daily.orders_clean"))
        client.emit(sent)  # raises on any non-2xx answer
        # a body announced as oversized is refused from its headers, before the rest is sent
        answer = _raw_post_headers(server.port, 50_000_000, b'{"eventType": "START"')
    assert answer.startswith(b"HTTP/1.1 401")  # without the key it is not even looked at
    events = LineageEventStore(store)
    assert events.counts()["events"] == 1 + len(examples) + 1
    assert events.query(job="orders_daily.orders_clean", limit=5)[0].event_type == "START"


@pytest.mark.openlineage
def test_real_server_refuses_an_announced_oversized_body_without_reading_it(
        dw_home: Path, store: Store, run_server) -> None:
    with run_server(_app(dw_home, store)) as server:
        answer = _raw_post_headers(server.port, 50_000_000, b'{"eventType": "START", "pad": "' + b"x" * 1000)
        assert httpx.get(f"{server.url}/api/v1/health").status_code == 200
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    [row] = LineageEventStore(store).rejected()
    assert row["body_bytes"] == 50_000_000 and row["truncated"]
    assert row["body"].startswith(b'{"eventType": "START"') and len(row["body"]) < 100_000


def test_other_methods_and_paths_still_get_starlettes_answers(dw_home: Path, store: Store) -> None:
    with TestClient(_app(dw_home, store)) as client:
        assert client.get("/api/v1/lineage").status_code == 405
        assert client.post("/api/v1/lineage/other", json=_event()).status_code == 404
        assert client.post("/api/v1/lineage", json=_event()).status_code == 201
    assert LineageEventStore(store).counts() == {"events": 1, "rejected": 0, "with_findings": 0}


def test_a_client_leaving_mid_body_gets_400_and_nothing_is_kept(dw_home: Path, store: Store) -> None:
    import asyncio

    app = _app(dw_home, store)
    messages = [{"type": "http.request", "body": b'{"eventType": ', "more_body": True}, {"type": "http.disconnect"}]
    sent: list[dict] = []

    async def receive() -> dict:
        return messages.pop(0)

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/v1/lineage", "headers": [], "client": ("10.0.0.1", 1)}
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 400 and sent[1]["body"] == b""
    assert LineageEventStore(store).counts() == {"events": 0, "rejected": 0, "with_findings": 0}


def test_a_body_in_several_chunks_is_put_together(dw_home: Path, store: Store) -> None:
    body = json.dumps(_event()).encode()

    def chunks():  # chunked transfer, under the limit
        for i in range(0, len(body), 100):
            yield body[i:i + 100]

    with TestClient(_app(dw_home, store)) as client:
        assert client.post("/api/v1/lineage", content=chunks()).status_code == 201
    [stored] = LineageEventStore(store).read_after(0)
    assert stored.event == json.loads(body)
