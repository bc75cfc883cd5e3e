"""Reading a calendar date from what warehouses, configs and people hand over."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any


def as_date(value: Any) -> date:
    """A DATE, a TIMESTAMP (its date), or ISO text (`YYYY-MM-DD`, or a timestamp such as
    `2026-09-30 00:00:00`) as a date; ValueError naming the value otherwise."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    text = str(value)
    try:
        return date.fromisoformat(text) if len(text) <= 10 else datetime.fromisoformat(text).date()
    except ValueError as exc:
        raise ValueError(f"not a date: {value!r} (expected YYYY-MM-DD)") from exc
