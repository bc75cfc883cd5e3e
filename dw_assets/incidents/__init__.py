"""Incident intake and storage: `intake_signal` turns a Signal into an incident (new or joined)."""

from __future__ import annotations

from datetime import datetime

from dw_assets.config import Settings
from dw_assets.core.approvals import parse_duration
from dw_assets.core.incidents import Incident
from dw_assets.core.signals import Signal
from dw_assets.incidents.store import IncidentNotFound, IncidentStore
from dw_assets.store import Store

__all__ = ["IncidentNotFound", "IncidentStore", "intake_signal"]


def intake_signal(settings: Settings, store: Store | IncidentStore, signal: Signal, *,
                  now: datetime | None = None) -> tuple[Incident, bool]:
    """Open an incident for `signal` or join the open one for the same dataset and window
    (`settings.incidents.window`). Returns (incident, created). Idempotent per `dedupe_key`."""
    incidents = store if isinstance(store, IncidentStore) else IncidentStore(store)
    domain = settings.domain_for(signal.dataset_id) if signal.dataset_id else None
    return incidents.intake(signal, window=parse_duration(settings.incidents.window),
                            owner=domain.owner if domain else None, domain=domain.name if domain else None,
                            now=now)
