"""Files that hold secrets (keys, passwords, tokens) are readable by their owner only.

Written through `write_secret`, never `Path.write_text`: the file is created with mode 0600 (and
an existing one is set back to 0600 before it is rewritten), so there is no moment at which
another user can read it.
"""

from __future__ import annotations

import os
from pathlib import Path

SECRET_MODE = 0o600


def write_secret(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, SECRET_MODE)
    try:
        os.fchmod(fd, SECRET_MODE)
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)
    return path
