"""The end of a started service's log, for the errors that say why it did not come up."""

from pathlib import Path


def log_tail(path: Path, lines: int) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log written)"
