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
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import zlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from dw_assets.config import Settings, resolve_env
from dw_assets.connectors.openlineage.event_store import (
    REJECTED_BODY_KEEP,
    AcceptedEvent,
    LineageEventStore,
    Rejection,
)
from dw_assets.connectors.openlineage.intake import EventIntake
from dw_assets.connectors.openlineage.writer import BatchingWriter
from dw_assets.store import Store


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


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _first_chunk(request: Request, wait_s: float = 1.0) -> bytes:
    """What has already arrived of a body we will not read (for the reject record); never waits long."""
    try:
        chunk = await asyncio.wait_for(anext(request.stream()), wait_s)
    except (TimeoutError, StopAsyncIteration, ClientDisconnect):
        return b""
    return chunk[:REJECTED_BODY_KEEP]


async def _read_capped(request: Request, limit: int) -> bytes:
    """The body, or _TooLarge as soon as it passes `limit` bytes (the rest is never read)."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > limit:
        head = await _first_chunk(request)
        raise _TooLarge(head, int(declared), f"Content-Length {declared} exceeds max_body_bytes={limit}")
    parts: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            head = b"".join([*parts, chunk])[:REJECTED_BODY_KEEP]
            raise _TooLarge(head, size, f"body grew past max_body_bytes={limit} (stopped reading at {size})")
        parts.append(chunk)
    return b"".join(parts)


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
    """POST /api/v1/lineage; the batching writer is attached for the app's lifespan."""

    def __init__(self, options: ReceiverOptions, intake: EventIntake):
        self.options = options
        self.intake = intake
        self.writer: BatchingWriter | None = None
        self._auth = f"Bearer {options.api_key}".encode() if options.api_key else None

    async def _store(self, item: AcceptedEvent | Rejection) -> int | None:
        if self.writer is None:
            raise RuntimeError("the receiver's writer is not running (app lifespan not started)")
        return await self.writer.submit_async(item)

    async def _body(self, request: Request) -> bytes:
        body = await _read_capped(request, self.options.max_body_bytes)
        encoding = request.headers.get("content-encoding", "identity").strip().lower()
        if encoding == "gzip":
            return _gunzip(body, self.options.max_body_bytes)
        if encoding not in ("identity", ""):
            raise _BadBody(body, f"Content-Encoding {encoding!r} is not supported (send gzip or none)")
        return body

    async def handle(self, request: Request) -> Response:
        if self._auth is not None and not hmac.compare_digest(
                request.headers.get("authorization", "").encode(), self._auth):
            return _error(401, "missing or wrong API key (send Authorization: Bearer <key>)")
        source = f"http:{request.client.host if request.client else 'unknown'}"
        refusal = 400
        try:
            item = self.intake.accept(await self._body(request), source)
        except ClientDisconnect:
            return Response(status_code=400)  # the client left mid-body: no event was delivered
        except _TooLarge as exc:
            item, refusal = Rejection(source, exc.why, exc.head, exc.received), 413
        except _BadBody as exc:
            item = Rejection(source, exc.why, exc.body)
        try:
            await self._store(item)
        except Exception as exc:  # noqa: BLE001 - the writer logged it; the client may retry
            return _error(503, f"could not store the event: {type(exc).__name__}")
        if isinstance(item, Rejection):
            return _error(refusal, item.reason)
        return Response(status_code=201)


def create_app(settings: Settings, store: Store, *, intake: EventIntake | None = None,
               options: ReceiverOptions | None = None, batch_delay_s: float = 0.002) -> Starlette:
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

    return Starlette(routes=[Route("/api/v1/lineage", endpoint.handle, methods=["POST"]),
                             Route("/api/v1/health", health, methods=["GET"])], lifespan=lifespan)


def serve(settings: Settings, store: Store, *, host: str | None = None, port: int | None = None,
          full_validation: bool | None = None) -> None:
    """Run the receiver in the foreground until interrupted."""
    import uvicorn

    app = create_app(settings, store, intake=EventIntake.from_settings(settings, full_validation=full_validation))
    uvicorn.run(app, host=host or settings.openlineage.receiver_host,
                port=port or settings.openlineage.receiver_port, log_level="warning", access_log=False)
