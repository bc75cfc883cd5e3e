"""Which partition a check reads, and what makes two failures of one check the same occurrence."""

from __future__ import annotations

import hashlib
import json
from datetime import date
from typing import Any

from dw_assets.connectors.warehouse import WarehouseError, WarehouseSession
from dw_assets.core.checks_logic import CheckOutcome
from dw_assets.core.dates import as_date


def parse_partition(value: Any) -> date:
    """A partition value (DATE, TIMESTAMP or 'YYYY-MM-DD' text) as a date."""
    try:
        return as_date(value)
    except ValueError as exc:
        raise WarehouseError(f"partition value {value!r} is not a date (YYYY-MM-DD)") from exc


def target_partition(session: WarehouseSession, relation: str, column: str, requested: str | None) -> date | None:
    """The requested partition, else the latest value of the partition column (None: empty table)."""
    if requested:
        return parse_partition(requested)
    latest = session.scalar(f"SELECT max({column}) FROM {relation}")
    return parse_partition(latest) if latest is not None else None


def occurrence(outcome: CheckOutcome) -> str:
    """What makes two failures of one check the same occurrence: the partition, else the newest
    timestamp seen (freshness), else the schema fingerprint, else the facts themselves."""
    meta = outcome.metadata
    for key in ("latest", "fingerprint"):
        if outcome.partition is None and meta.get(key):
            return str(meta[key])
    if outcome.partition:
        return outcome.partition
    facts = json.dumps(meta.get("broken_groups") or outcome.summary, sort_keys=True, default=str)
    return hashlib.sha256(facts.encode()).hexdigest()[:16]
