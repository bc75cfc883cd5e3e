"""Credentials inside URLs, kept out of everything printed, logged or stored. Pure.

`postgresql://app:s3cret@db/app` and `http://admin:pw@airflow:8080` are valid config values (a
user may put credentials in a URL), so every place that shows a URL shows `redact_url(url)`:
the password becomes `***`, the user name stays (it says which account is meant).
"""

from __future__ import annotations

import re

REDACTED = "***"
_URL_PASSWORD = re.compile(r"(?P<scheme>[a-z][a-z0-9+.-]*://)(?P<user>[^:/@\s]*):(?P<pw>[^@/\s]*)@", re.IGNORECASE)


def redact_url(text: str) -> str:
    """`text` with the password of every URL in it replaced by `***` (a URL or a whole message)."""
    return _URL_PASSWORD.sub(lambda m: f"{m['scheme']}{m['user']}:{REDACTED}@", text)
