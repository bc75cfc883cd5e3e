"""A state database that cannot be used gives one clear error naming the file and what to do.

`preflight(url, write=...)` runs before a command opens the store, so a missing, truncated,
corrupt, read-only or wrong-kind file is reported before anything is written (no journal, no
tables created in the wrong place, no SQLAlchemy traceback). Errors met later (a page that turns
out to be corrupt in the middle of a read, PostgreSQL unreachable) are turned into the same error
by `explain` at the CLI's edge.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

import sqlalchemy as sa

from dw_assets.core.secrets import redact_url

_SQLITE_MAGIC = b"SQLite format 3\x00"


class StateDatabaseError(RuntimeError):
    """The state database cannot be used; the text names it and what to do."""


def sqlite_path(url: str) -> Path | None:
    return Path(url.removeprefix("sqlite:///")) if url.startswith("sqlite:///") else None


def preflight(url: str, *, write: bool) -> None:
    """Raise StateDatabaseError unless the database at `url` looks usable; `write` for commands that
    change it (a missing file is then created by the store; reading one that is missing is an error)."""
    path = sqlite_path(url)
    if path is None:
        return
    where = f"state database {path} (state.url)"
    if path.is_dir():
        raise StateDatabaseError(f"{where} is a directory, not a database file: point state.url at a file")
    if not path.exists():
        if write:
            parent = next((p for p in [path.parent, *path.parent.parents] if p.exists()), None)
            if parent is not None and not os.access(parent, os.W_OK):
                raise StateDatabaseError(f"{where} does not exist and {parent} is not writable: fix its "
                                         "permissions or set state.url to a writable place")
            return
        raise StateDatabaseError(f"{where} does not exist: nothing has been recorded here yet. Check state.url "
                                 "and DW_HOME (the Dagster code location and `dw demo` create it)")
    size = path.stat().st_size
    with path.open("rb") as handle:
        header = handle.read(100)
    if size == 0:
        raise StateDatabaseError(f"{where} is empty (0 bytes): restore it from a backup, or move it away to start "
                                 "a new one")
    if not header.startswith(_SQLITE_MAGIC):
        raise StateDatabaseError(f"{where} is not an SQLite database (corrupt or another kind of file): restore it "
                                 "from a backup, or move it away to start a new one")
    if len(header) < 100:
        raise StateDatabaseError(f"{where} is truncated ({size} bytes, shorter than its header): restore it from "
                                 "a backup")
    page_size = struct.unpack(">H", header[16:18])[0]
    page_size = 65536 if page_size == 1 else page_size
    pages, change, valid_for = (struct.unpack(">I", header[28:32])[0], struct.unpack(">I", header[24:28])[0],
                                struct.unpack(">I", header[92:96])[0])
    if pages and change == valid_for and size < pages * page_size:
        raise StateDatabaseError(f"{where} is truncated ({size} bytes; its header says {pages * page_size}): "
                                 "restore it from a backup")
    if not os.access(path, os.R_OK):
        raise StateDatabaseError(f"{where} is not readable by this user: fix its permissions or run as its owner")
    if not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK):
        # SQLite in WAL mode needs to write beside the file even to read it consistently
        raise StateDatabaseError(f"{where} is read-only for this user (the file or its folder): fix the "
                                 "permissions (chmod u+w) or run as the owner of the deployment")


def explain(exc: sa.exc.SQLAlchemyError, url: str) -> StateDatabaseError:
    """A database error met mid-command, as one sentence naming the database and what to do."""
    original = getattr(exc, "orig", None) or exc
    detail = redact_url(str(original).splitlines()[0]) if str(original) else type(original).__name__
    path = sqlite_path(url)
    where = f"state database {path}" if path else f"state database {redact_url(url)}"
    if path is not None:
        hint = ("restore it from a backup, or move it away to start a new one" if "malformed" in detail
                or "not a database" in detail else "check the file, its permissions and the disk")
    else:
        hint = "check that the server is up, the credentials and state.url"
    return StateDatabaseError(f"{where} could not be used ({detail}): {hint}")
