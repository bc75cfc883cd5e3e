"""The OpenLineage HTTP receiver: an ASGI app compatible with the OpenLineage HTTP transport and Marquez.

Reads: `POST /api/v1/lineage`, one event per request, optionally gzip-compressed
(`Content-Encoding: gzip`), optionally behind an API key (`Authorization: Bearer <key>`, as
openlineage-python's `api_key` auth sends it). Answers 201 once the event is committed (a duplicate
is stored once and still gets 201), 400 `{"error": reason}` for a bad event, 401 for a wrong key,
413 for a body over `max_body_bytes` (refused from its Content-Length, or as soon as the stream grows
past the limit, without reading the rest), 503 when the store cannot be written.
Writes: only the event store (accepted events; rejects with their reason and at most the first
64 KiB of the body). Unauthenticated requests are not stored, so they cannot fill the store.
`GET /api/v1/health` answers `{"status": "ok"}`.

`POST /api/v1/lineage` is answered by a plain ASGI callable in front of the Starlette app (which
keeps health, lifespan, 404/405 and everything else): at thousands of requests a second Starlette's
middleware stack, routing and Request/Response objects cost more CPU than checking the event.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import hmac
import os
import zlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

import orjson
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from dw_assets.config import Settings, resolve_env
from dw_assets.connectors.openlineage.event_store import (
    REJECTED_BODY_KEEP,
    AcceptedEvent,
    LineageEventStore,
    Quarantined,
    Rejection,
)
from dw_assets.connectors.openlineage.intake import EventIntake
from dw_assets.connectors.openlineage.writer import BatchingWriter
from dw_assets.store import Store

LINEAGE_PATH = "/api/v1/lineage"


@dataclass(frozen=True)
class ReceiverOptions:
    max_body_bytes: int
    api_key: str | None = None


class _TooLarge(Exception):
    def __init__(self, head: bytes, received: int, why: str):
        self.head, self.received, self.why = head, received, why


class _BadBody(Exception):
    def __init__(self, body: bytes, why: str):
        self.body, self.why = body, why


class _ClientGone(Exception):
    """The client disconnected before the whole body arrived."""


async def _answer(send: Send, status: int, error: str | None = None) -> None:
    body = orjson.dumps({"error": error}) if error is not None else b""
    headers = [(b"content-length", b"%d" % len(body))]
    if body:
        headers.append((b"content-type", b"application/json"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _first_chunk(receive: Receive, wait_s: float = 1.0) -> bytes:
    """What has already arrived of a body we will not read (for the reject record); never waits long."""
    try:
        message = await asyncio.wait_for(receive(), wait_s)
    except TimeoutError:
        return b""
    return message.get("body", b"")[:REJECTED_BODY_KEEP] if message["type"] == "http.request" else b""


async def _read_capped(receive: Receive, declared: bytes | None, limit: int) -> bytes:
    """The body, or _TooLarge as soon as it passes `limit` bytes (the rest is never read);
    _ClientGone if the client disconnects first."""
    if declared and declared.isdigit() and int(declared) > limit:
        head = await _first_chunk(receive)
        raise _TooLarge(head, int(declared), f"Content-Length {declared.decode()} exceeds max_body_bytes={limit}")
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            raise _ClientGone
        chunk = message.get("body", b"")
        if chunk:
            size += len(chunk)
            if size > limit:
                head = b"".join([*parts, chunk])[:REJECTED_BODY_KEEP]
                raise _TooLarge(head, size, f"body grew past max_body_bytes={limit} (stopped reading at {size})")
            parts.append(chunk)
        if not message.get("more_body", False):
            return parts[0] if len(parts) == 1 else b"".join(parts)


def _gunzip(body: bytes, limit: int) -> bytes:
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflater.decompress(body, limit + 1)
    except zlib.error as exc:
        raise _BadBody(body, f"body is not valid gzip ({exc})") from None
    if len(out) > limit:
        raise _TooLarge(body, len(body), f"gzip body inflates past max_body_bytes={limit}")
    if not inflater.eof:
        raise _BadBody(body, "body is not valid gzip (truncated stream)")
    return out


class _LineageEndpoint:
    """POST /api/v1/lineage as an ASGI app; the batching writer is attached for the app's lifespan."""

    def __init__(self, options: ReceiverOptions, intake: EventIntake):
        self.options = options
        self.intake = intake
        self.writer: BatchingWriter | None = None
        self._auth = f"Bearer {options.api_key}".encode() if options.api_key else None

    async def _store(self, item: AcceptedEvent | Rejection) -> int | Quarantined | None:
        if self.writer is None:
            raise RuntimeError("the receiver's writer is not running (app lifespan not started)")
        return await self.writer.submit_async(item)

    async def _body(self, receive: Receive, headers: dict[bytes, bytes]) -> bytes:
        body = await _read_capped(receive, headers.get(b"content-length"), self.options.max_body_bytes)
        encoding = headers.get(b"content-encoding", b"identity").strip().lower()
        if encoding == b"gzip":
            return _gunzip(body, self.options.max_body_bytes)
        if encoding not in (b"identity", b""):
            raise _BadBody(body, f"Content-Encoding {encoding.decode('latin-1')!r} is not supported "
                                 "(send gzip or none)")
        return body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope["headers"])  # ASGI header names are lower-case bytes
        if self._auth is not None and not hmac.compare_digest(headers.get(b"authorization", b""), self._auth):
            await _answer(send, 401, "missing or wrong API key (send Authorization: Bearer <key>)")
            return
        client = scope.get("client")
        source = f"http:{client[0] if client else 'unknown'}"
        refusal = 400
        try:
            item = self.intake.accept(await self._body(receive, headers), source)
        except _ClientGone:
            await _answer(send, 400)  # the client left mid-body: no event was delivered
            return
        except _TooLarge as exc:
            item, refusal = Rejection(source, exc.why, exc.head, exc.received), 413
        except _BadBody as exc:
            item = Rejection(source, exc.why, exc.body)
        try:
            stored = await self._store(item)
        except Exception as exc:  # noqa: BLE001 - the writer logged it; the client may retry
            await _answer(send, 503, f"could not store the event: {type(exc).__name__}")
            return
        if isinstance(item, Rejection):
            await _answer(send, refusal, item.reason)
        elif isinstance(stored, Quarantined):  # the store refused it alone: kept as a reject
            await _answer(send, 400, stored.reason)
        else:
            await _answer(send, 201)


class ReceiverApp:
    """The ASGI app: the lineage POST straight to its endpoint, everything else to Starlette."""

    def __init__(self, endpoint: _LineageEndpoint, starlette: Starlette):
        self.endpoint = endpoint
        self.starlette = starlette

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and scope["path"] == LINEAGE_PATH:
            await self.endpoint(scope, receive, send)
        else:
            await self.starlette(scope, receive, send)


def create_app(settings: Settings, store: Store, *, intake: EventIntake | None = None,
               options: ReceiverOptions | None = None, batch_delay_s: float = 0.002) -> ReceiverApp:
    """The receiver app; its batching writer starts and stops with the app's lifespan."""
    ol = settings.openlineage
    options = options or ReceiverOptions(
        max_body_bytes=ol.max_body_bytes,
        api_key=resolve_env(ol.api_key, what="openlineage.api_key") if ol.api_key else None,
    )
    endpoint = _LineageEndpoint(options, intake or EventIntake.from_settings(settings))
    events = LineageEventStore(store)

    async def health(_: Request) -> Response:
        return JSONResponse({"status": "ok"})

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        endpoint.writer = BatchingWriter(events, max_delay_s=batch_delay_s)
        try:
            yield
        finally:
            endpoint.writer.close()
            endpoint.writer = None

    starlette = Starlette(routes=[Route(LINEAGE_PATH, endpoint, methods=["POST"]),  # e.g. 405 for a GET
                                  Route("/api/v1/health", health, methods=["GET"])], lifespan=lifespan)
    return ReceiverApp(endpoint, starlette)


def _large_buffers_to_their_own_mappings(threshold: int = 256 * 1024) -> None:
    """glibc raises its mmap threshold to the largest block freed (up to 32 MB): after a few large
    bodies, later ones are carved from the heap, which fragments and keeps its peak. A fixed
    threshold keeps every buffer over 256 KB (bodies, their canonical JSON) in a mapping of its own,
    given back when freed: part of the receiver's memory bound (docs/openlineage.md). Linux/glibc only;
    MALLOC_MMAP_THRESHOLD_ in the environment wins."""
    if os.environ.get("MALLOC_MMAP_THRESHOLD_"):
        return
    name = ctypes.util.find_library("c")
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(name).mallopt(-3, threshold)  # -3: M_MMAP_THRESHOLD


def serve(settings: Settings, store: Store, *, host: str | None = None, port: int | None = None,
          full_validation: bool | None = None, strict: bool | None = None) -> None:
    """Run the receiver in the foreground until interrupted: uvicorn with httptools and uvloop
    (uvicorn[standard]), no access log (a line per event would cost more than the event)."""
    intake = EventIntake.from_settings(settings, full_validation=full_validation, strict=strict)
    app = create_app(settings, store, intake=intake)
    _large_buffers_to_their_own_mappings()
    gc.freeze()  # what is loaded by now is never garbage: full collections then only walk new objects
    uvicorn.run(app, host=host or settings.openlineage.receiver_host, port=port or settings.openlineage.receiver_port,
                log_level="warning", access_log=False)
