"""A night's timeline as people read it: real timestamps, who did what, progress on long steps."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TextIO


@dataclass
class TimelineEntry:
    at: datetime
    actor: str
    message: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"at": self.at.isoformat(), "actor": self.actor, "message": self.message, **self.data}


class Timeline:
    """Prints as it goes (to stderr when stdout carries JSON) and keeps every entry."""

    def __init__(self, stream: TextIO | None = None, quiet: bool = False):
        self.entries: list[TimelineEntry] = []
        self.stream = stream or sys.stdout
        self.quiet = quiet

    def say(self, actor: str, message: str, **data: Any) -> TimelineEntry:
        entry = TimelineEntry(datetime.now(UTC), actor, message, data)
        self.entries.append(entry)
        if not self.quiet:
            print(f"{entry.at:%H:%M:%S}  {actor:<14} {message}", file=self.stream, flush=True)
        return entry

    @contextmanager
    def step(self, actor: str, message: str) -> Iterator[None]:
        """A long step: announced, then closed with its duration."""
        started = time.monotonic()
        self.say(actor, f"{message} ...")
        yield
        self.say(actor, f"{message}: done in {time.monotonic() - started:.1f}s")

    def to_list(self) -> list[dict[str, Any]]:
        return [e.to_dict() for e in self.entries]
