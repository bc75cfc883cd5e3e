"""What incident intake receives: one observation that something is wrong.

Producers (asset checks, the OpenLineage sensor, the Airflow sensor) build a `Signal`; incident
intake (`dw_assets.incidents`) opens an incident or joins the open one for the same dataset and
time window. Kept in the core so producers do not depend on how incidents are stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

SignalKind = Literal["check_failed", "lineage_fail", "airflow_run_failed", "run_missed"]


@dataclass(frozen=True)
class Signal:
    kind: SignalKind
    dataset_id: str | None  # canonical dataset id (dw_assets.core.identity), when known
    observed_at: datetime  # timezone-aware
    source: str  # e.g. "check:volume", "openlineage", "airflow:local"
    summary: str  # one line a person can read
    # run ids, error message, check metadata (scrubbed facts only, never table rows)
    details: dict[str, Any] = field(default_factory=dict)
    severity: Literal["low", "medium", "high", "critical"] | None = None
    # what makes two signals the same occurrence (e.g. the OpenLineage runId, the Airflow run id,
    # the check name + partition); intake stores each key once
    dedupe_key: str | None = None
