"""Reading OpenLineage file-transport output from a folder, incrementally.

Reads (never writes) every regular file in the folder: NDJSON appended by the file transport
(`append: true`) or one JSON document per file (the default, pretty-printed in debug mode).
Progress is a byte offset per file, kept in the store's cursor `openlineage:file:<folder>` and saved
after every record read in the pass is committed; only complete lines are consumed, so a line still
being written is read on the next pass. A file that shrank (rotated or rewritten) is read again from
0. Bad records are kept as rejects whose source names the place (`file:<path>@<offset>+line<n>`).
Records are stored `_BATCH` to a transaction, written by a thread of their own while the next batch is
read and checked (the store writes a few hundred rows per statement, so the writer holds the GIL
rarely and the B-tree work runs beside the parsing); on SQLite another thread copies the WAL back
into the database meanwhile (see `writer.WalCheckpointer`). When a write fails, reading stops, the
error is raised and the folder's cursor stays where it was. Raises OSError when the folder is
unreadable.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

from dw_assets.connectors.openlineage.event_store import (
    REJECTED_BODY_KEEP,
    AcceptedEvent,
    LineageEventStore,
    Quarantined,
    Rejection,
)
from dw_assets.connectors.openlineage.intake import EventIntake
from dw_assets.connectors.openlineage.writer import WalCheckpointer

log = logging.getLogger(__name__)
_BATCH = 5000  # events per transaction: past a few thousand the commit cost no longer drops


@dataclass(frozen=True)
class IngestReport:
    source: str
    accepted: int = 0
    duplicates: int = 0
    rejected: int = 0

    def __add__(self, other: IngestReport) -> IngestReport:
        return IngestReport(self.source, self.accepted + other.accepted, self.duplicates + other.duplicates,
                            self.rejected + other.rejected)


def _records(data: bytes, at_file_start: bool) -> tuple[list[tuple[int, bytes]], int]:
    """(line number within `data`, record) pairs and how many bytes they consumed."""
    end = data.rfind(b"\n") + 1
    if end == 0:
        return [], 0  # not one complete line yet
    chunk = data[:end]
    if at_file_start and chunk.lstrip()[:2] in (b"{\n", b"{\r"):
        # one pretty-printed document: consume it only once it parses (it may still be growing)
        try:
            json.loads(chunk)
        except ValueError:
            return [], 0
        except RecursionError:  # complete but nested too deep: the intake refuses it with its reason
            pass
        return [(1, chunk)], end
    lines = chunk.split(b"\n")
    return [(i + 1, line) for i, line in enumerate(lines) if line.strip()], end


class FileFolderSource:
    """One folder of event files, read from where the last pass stopped."""

    def __init__(self, folder: Path, *, max_record_bytes: int, read_chunk: int = 8 << 20):
        self.folder = folder
        self.max_record_bytes = max_record_bytes
        self.read_chunk = max(read_chunk, max_record_bytes + 1)
        self.consumer = f"openlineage:file:{folder}"

    def ingest(self, events: LineageEventStore, intake: EventIntake) -> IngestReport:
        """Store every complete new record; after a crash a re-read stores no event twice (content
        hash), though a rejected record may be recorded again."""
        report = IngestReport(f"file:{self.folder}")
        if not self.folder.is_dir():
            log.info("OpenLineage folder %s does not exist yet: nothing to read", self.folder)
            return report
        raw = events.store.get_cursor(self.consumer)
        offsets: dict[str, int] = json.loads(raw)["files"] if raw else {}
        files = sorted(p for p in self.folder.iterdir() if p.is_file() and not p.name.startswith("."))
        with WalCheckpointer.for_store(events.store), _BackgroundWriter(events, report.source) as writer:
            batch = _Batch()
            for path in files:
                try:
                    for where, record in self._new_records(path, offsets):
                        self._prepare(where, record, intake, batch)
                        if batch.size % 32 == 0:
                            # let the writer thread have the GIL it waits for after each statement:
                            # a busy thread otherwise keeps it for the 5 ms switch interval each time
                            time.sleep(0)
                        if batch.size >= _BATCH:
                            writer.put(batch)
                            batch = _Batch()
                except OSError as exc:  # one unreadable file: kept as a reject, the rest of the folder is read
                    log.warning("OpenLineage file %s could not be read: %s", path, exc)
                    batch.rejects.append(Rejection(f"file:{path}@{offsets.get(path.name, 0)}",
                                                   f"file could not be read: {exc}", b""))
                    with contextlib.suppress(OSError):
                        offsets[path.name] = path.stat().st_size  # read again once it changes
            writer.put(batch)
        report += writer.report
        present = {p.name for p in files}
        offsets = {name: off for name, off in offsets.items() if name in present}
        events.store.set_cursor(self.consumer, json.dumps({"files": offsets}, sort_keys=True))
        return report

    def _new_records(self, path: Path, offsets: dict[str, int]):
        """Yield (where, record) for complete records past the file's offset, advancing the offset."""
        start = offsets.get(path.name, 0)
        size = path.stat().st_size
        if size < start:
            log.warning("%s shrank from %d to %d bytes: reading it again from the start", path, start, size)
            start = 0
        with path.open("rb") as fh:
            while start < size:
                fh.seek(start)
                data = fh.read(min(self.read_chunk, size - start))
                records, consumed = _records(data, at_file_start=start == 0)
                if consumed == 0:
                    if len(data) >= self.read_chunk:  # one line longer than any acceptable record
                        yield f"file:{path}@{start}", data
                        consumed = len(data)
                    else:
                        break
                for line_no, record in records:
                    yield f"file:{path}@{start}+line{line_no}", record
                start += consumed
        offsets[path.name] = start

    def _prepare(self, where: str, record: bytes, intake: EventIntake, batch: _Batch) -> None:
        if len(record) > self.max_record_bytes:
            batch.rejects.append(Rejection(where, f"record of {len(record)} bytes exceeds max_body_bytes="
                                           f"{self.max_record_bytes}", record[:REJECTED_BODY_KEEP], len(record)))
            return
        item = intake.accept(record, where)
        if isinstance(item, AcceptedEvent):
            batch.accepted.append(item)
        else:
            batch.rejects.append(item)


@dataclass
class _Batch:
    accepted: list[AcceptedEvent] = field(default_factory=list)
    rejects: list[Rejection] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.accepted) + len(self.rejects)


_DONE = object()


class _BackgroundWriter:
    """Writes batches on a thread of its own, at most two behind the reader. The batch's statement
    parameters are built on the reader's thread (`LineageEventStore.prepare`): the writer thread
    then mostly waits on SQLite, which runs without the GIL. The first failed write ends the pass:
    `put` raises it, as does leaving the `with` block; later batches are not written."""

    def __init__(self, events: LineageEventStore, source: str):
        self.events = events
        self.report = IngestReport(source)
        self._queue: queue.Queue = queue.Queue(maxsize=2)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="openlineage-folder-writer", daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def put(self, batch: _Batch) -> None:
        self._raise_if_failed()
        if batch.size:
            self._queue.put((self.events.prepare(batch.accepted, batch.rejects), len(batch.rejects)))

    def __exit__(self, exc_type: object, *_: object) -> None:
        self._queue.put(_DONE)
        self._thread.join()
        if exc_type is None:
            self._raise_if_failed()

    def _raise_if_failed(self) -> None:
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        while (item := self._queue.get()) is not _DONE:
            if self._error is not None:
                continue  # drain without writing, so the reader never blocks on a full queue
            prepared, rejects = item
            try:
                seqs = self.events.write(prepared)
            except BaseException as exc:  # noqa: BLE001 - handed to the reader's thread
                self._error = exc
                continue
            stored = sum(isinstance(seq, int) for seq in seqs)
            quarantined = sum(isinstance(seq, Quarantined) for seq in seqs)
            self.report += IngestReport(self.report.source, stored, len(seqs) - stored - quarantined,
                                        rejects + quarantined)
