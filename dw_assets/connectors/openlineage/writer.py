"""A background writer that batches events into the store, so each request waits for a shared commit.

One thread drains a queue: it takes whatever arrived (up to `max_batch`), waiting at most `max_delay_s`
for more once the first item is in, and writes the batch in one transaction. When nothing arrives for
`index_when_idle_s` and events wait to be indexed, it indexes them (`LineageEventStore.index_pending`).
Each submitter gets a future resolved only after the commit, so an HTTP 201 means the event is
durably stored (SQLite WAL with synchronous=NORMAL: durable across a process crash; a power loss may
drop the last commits).
Writes only through `LineageEventStore`; database errors are set on the futures of that batch.

On SQLite a second thread copies committed WAL pages back into the database every `checkpoint_every_s`
(a PASSIVE checkpoint: it never blocks the writer). The writer's own automatic checkpoint still runs
every ~10,000 pages of WAL and is what lets the WAL start over, but it then finds nearly every page
copied already, so commits (and the requests waiting on them) rarely wait for that copy and its fsyncs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections import defaultdict
from concurrent.futures import Future
from typing import Any

import sqlalchemy as sa

from dw_assets.connectors.openlineage.event_store import AcceptedEvent, LineageEventStore, Rejection
from dw_assets.store import Store

log = logging.getLogger(__name__)
_STOP = object()


class BatchingWriter:
    def __init__(self, store: LineageEventStore, *, max_batch: int = 500, max_delay_s: float = 0.002,
                 checkpoint_every_s: float = 0.5, index_when_idle_s: float = 0.25):
        self.store = store
        self.max_batch = max_batch
        self.max_delay_s = max_delay_s
        self.index_when_idle_s = index_when_idle_s
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="openlineage-writer", daemon=True)
        self._thread.start()
        self._checkpointer = WalCheckpointer.for_store(store.store, checkpoint_every_s)

    def submit(self, item: AcceptedEvent | Rejection) -> Future:
        """Future of the stored `seq` (None for a duplicate or a rejection), set after the commit."""
        future: Future = Future()
        self._queue.put((item, future))
        return future

    def submit_async(self, item: AcceptedEvent | Rejection) -> asyncio.Future:
        """`submit` for an event loop: a batch's futures are resolved with one wake-up of the loop."""
        future = asyncio.get_running_loop().create_future()
        self._queue.put((item, future))
        return future

    def close(self, timeout: float = 10.0) -> None:
        """Flush what is queued, then stop the thread."""
        self._queue.put(_STOP)
        self._thread.join(timeout)
        self._checkpointer.close(timeout)

    def _run(self) -> None:
        stopping = False
        while not stopping:
            try:
                first = self._queue.get(timeout=self.index_when_idle_s if self.store.pending else None)
            except queue.Empty:
                self._index_pending()
                continue
            batch = [first]
            deadline = time.monotonic() + self.max_delay_s
            while len(batch) < self.max_batch:
                remaining = deadline - time.monotonic()
                try:
                    batch.append(self._queue.get(timeout=remaining) if remaining > 0 else self._queue.get_nowait())
                except queue.Empty:
                    break
            if any(entry is _STOP for entry in batch):
                stopping = True
                batch = [entry for entry in batch if entry is not _STOP]
            if batch:
                self._write(batch)

    def _index_pending(self) -> None:
        """Quiet for a moment: bring the job and dataset lookups up to date (the store also does it
        itself every `index_every` events, so this only shortens what queries scan as pending)."""
        try:
            self.store.index_pending()
        except Exception:  # the events are stored; the next write or pause retries
            log.exception("indexing pending OpenLineage events failed")

    def _write(self, batch: list[tuple[AcceptedEvent | Rejection, Any]]) -> None:
        accepted = [(item, fut) for item, fut in batch if isinstance(item, AcceptedEvent)]
        rejects = [(item, fut) for item, fut in batch if isinstance(item, Rejection)]
        try:
            seqs = self.store.append_many([item for item, _ in accepted], [item for item, _ in rejects])
        except Exception as exc:  # the submitters answer 503; nothing is silently dropped
            log.exception("writing %d OpenLineage events failed", len(batch))
            _resolve([(fut, None, exc) for _, fut in batch])
            return
        _resolve([(fut, seq, None) for (_, fut), seq in zip(accepted, seqs, strict=True)]
                 + [(fut, None, None) for _, fut in rejects])


class WalCheckpointer(contextlib.AbstractContextManager):
    """PASSIVE checkpoints of a SQLite WAL database from a thread of their own (nothing on other
    databases): a checkpoint is one long sqlite3 call that releases the GIL, so it really runs
    beside the writing thread. The writer's automatic checkpoint still bounds the WAL and lets it
    start over; it then finds nearly every page copied already."""

    def __init__(self, engine: sa.Engine | None, every_s: float = 0.5):
        self.engine = engine
        self.every_s = every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(engine,), name="openlineage-checkpointer",
                                        daemon=True)
        if engine is not None:
            self._thread.start()

    @classmethod
    def for_store(cls, store: Store, every_s: float = 0.5) -> WalCheckpointer:
        return cls(store.engine if store.dialect == "sqlite" and every_s > 0 else None, every_s)

    def close(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _run(self, engine: sa.Engine) -> None:
        while not self._stop.wait(self.every_s):
            try:
                with engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except sa.exc.SQLAlchemyError as exc:  # the writer's own checkpoints still bound the WAL
                log.warning("background WAL checkpoint failed: %s", exc)


def _set(outcomes: list[tuple[Any, Any, BaseException | None]]) -> None:
    for fut, result, exc in outcomes:
        if fut.done():  # an asyncio future whose request was cancelled (client gone)
            continue
        if exc is not None:
            fut.set_exception(exc)
        else:
            fut.set_result(result)


def _resolve(outcomes: list[tuple[Any, Any, BaseException | None]]) -> None:
    """Thread futures directly; asyncio futures in one call per loop (each call wakes the loop)."""
    by_loop: dict[asyncio.AbstractEventLoop, list] = defaultdict(list)
    threaded: list[tuple[Any, Any, BaseException | None]] = []
    for outcome in outcomes:
        (by_loop[outcome[0].get_loop()] if isinstance(outcome[0], asyncio.Future) else threaded).append(outcome)
    _set(threaded)
    for loop, items in by_loop.items():
        try:
            loop.call_soon_threadsafe(_set, items)
        except RuntimeError:  # the loop is closed: nobody waits for these any more
            log.debug("event loop closed before %d OpenLineage acknowledgements", len(items))
