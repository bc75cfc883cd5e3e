"""Moving an incident along as its plan is approved, run and verified (the incidents are helper E's).

The incident lifecycle allows only certain moves (`dw_assets.core.incidents.TRANSITIONS`); a plan
event names the status the incident should reach, and this module walks the shortest legal path
to it through working statuses (never through escalated, dismissed or resolved). An incident that
is missing, final, or already past that point is left alone and the reason returned: governance
never fails because an incident moved on without it.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from dw_assets.core.incidents import TRANSITIONS, IllegalTransition
from dw_assets.incidents.store import IncidentNotFound, IncidentStore
from dw_assets.store import Store

_NEVER_VIA = {"escalated", "dismissed", "resolved"}


def path_to(current: str, target: str, transitions: dict[str, frozenset[str]]) -> list[str] | None:
    """The shortest list of statuses to move through from `current` to `target`, or None."""
    if current == target:
        return []
    queue: deque[tuple[str, list[str]]] = deque([(current, [])])
    seen = {current}
    while queue:
        status, path = queue.popleft()
        for nxt in sorted(transitions.get(status, frozenset())):
            if nxt in seen:
                continue
            if nxt == target:
                return [*path, nxt]
            if nxt not in _NEVER_VIA:
                seen.add(nxt)
                queue.append((nxt, [*path, nxt]))
    return None


def advance_incident(store: Store, incident_id: str | None, target: str, *, actor: str, note: str = "") -> str:
    """Move the incident to `target` if a legal path exists; returns what happened, for logs."""
    if not incident_id:
        return "no incident linked to this plan"

    incidents = IncidentStore(store)
    try:
        current = incidents.get(incident_id).status
    except IncidentNotFound:
        return f"incident {incident_id} not found"
    path = path_to(current, target, TRANSITIONS)
    if path is None:
        return f"incident {incident_id} is {current}: no legal move to {target}, left as is"
    try:
        for status in path:
            incidents.transition(incident_id, status, actor=actor, note=note)
    except IllegalTransition as exc:
        return f"incident {incident_id} moved concurrently: {exc}"
    return f"incident {incident_id}: {current} -> {target}" if path else f"incident {incident_id} already {target}"


def link_run(store: Store, incident_id: str | None, link: dict[str, Any], *, actor: str) -> None:
    if not incident_id:
        return

    try:
        IncidentStore(store).add_run_link(incident_id, link, actor=actor)
    except IncidentNotFound:
        pass
