"""Incident intake and storage: `intake_signal` turns a Signal into an incident (new or joined)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from dw_assets.config import Settings
from dw_assets.core.approvals import parse_duration
from dw_assets.core.incidents import Incident
from dw_assets.core.signals import Signal
from dw_assets.incidents.store import IncidentNotFound, IncidentStore
from dw_assets.store import Store

__all__ = ["IncidentNotFound", "IncidentStore", "intake_signal"]

log = logging.getLogger(__name__)
RELATED_DEPTH = 6


def intake_signal(settings: Settings, store: Store | IncidentStore, signal: Signal, *,
                  now: datetime | None = None) -> tuple[Incident, bool]:
    """Open an incident for `signal` or join the open one for the same dataset and window
    (`settings.incidents.window`). Returns (incident, created). Idempotent per `dedupe_key`."""
    incidents = store if isinstance(store, IncidentStore) else IncidentStore(store)
    window = parse_duration(settings.incidents.window)
    related = _related_open_incident(settings, incidents, signal, window)
    if related is not None:
        note = f"{signal.summary} (joined: {signal.dataset_id} is on the lineage of {related.dataset_id})"
        return incidents.join(related.id, signal, window=window, now=now, note=note), False
    domain = settings.domain_for(signal.dataset_id) if signal.dataset_id else None
    return incidents.intake(signal, window=parse_duration(settings.incidents.window),
                            owner=domain.owner if domain else None, domain=domain.name if domain else None,
                            now=now)


def _related_open_incident(settings: Settings, incidents: IncidentStore, signal: Signal,
                           window: timedelta) -> Incident | None:
    """An open incident, in the window, about a dataset upstream or downstream of the signal's:
    one cause shows up as symptoms on several datasets (a short partition, then an unbalanced trial
    balance built from it), and people should get one incident for it, not one per symptom."""
    if not signal.dataset_id:
        return None
    candidates = [i for i in incidents.list(status=("open", "diagnosed", "awaiting_approval", "remediating"))
                  if i.dataset_id and i.dataset_id != signal.dataset_id
                  and i.window_start - window <= signal.observed_at <= i.window_end]
    if not candidates:
        return None
    try:
        from dw_assets.context_graph import cached_context_graph

        graph = cached_context_graph(settings)
        reached = {n.id for n in graph.trace(signal.dataset_id, direction="both", max_depth=RELATED_DEPTH).nodes}
    except Exception as exc:  # noqa: BLE001  without a graph, intake still works by dataset
        log.warning("intake: no context graph to relate %s to open incidents: %s", signal.dataset_id, exc)
        return None
    related = [i for i in candidates if i.dataset_id in reached]
    return min(related, key=lambda i: i.created_at) if related else None
