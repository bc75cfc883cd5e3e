"""Incidents: one per thing going wrong with a dataset, and the lifecycle it moves through.

    open -> diagnosed -> awaiting_approval -> remediating -> verifying -> resolved
    any non-final state -> escalated (a person takes over)
    open | diagnosed | awaiting_approval | escalated -> dismissed (not a real problem)

plus the shortcuts listed in `TRANSITIONS` (a rejected plan goes back to diagnosed, a failed
verification back to remediating, an incident that cleared by itself may be resolved from open).
`resolved` and `dismissed` are final: a recurrence opens a new incident. Every transition is kept
with its actor, time and note; an illegal one raises `IllegalTransition`.

Ids are `INC-YYYYMMDD-XXXX`: the UTC day it opened and the second of that day in base 36, so ids
are short, never change, and sort by opening time (a collision takes the next free value).
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from dw_assets.core.blast_radius import BlastEntry
from dw_assets.core.causes import Cause
from dw_assets.core.evidence import Hop
from dw_assets.core.fixes import ProposedFix
from dw_assets.core.signals import Signal

Status = Literal["open", "diagnosed", "awaiting_approval", "remediating", "verifying", "resolved",
                 "escalated", "dismissed"]
Severity = Literal["low", "medium", "high", "critical"]

STATUSES: tuple[str, ...] = ("open", "diagnosed", "awaiting_approval", "remediating", "verifying", "resolved",
                             "escalated", "dismissed")
FINAL: frozenset[str] = frozenset({"resolved", "dismissed"})
TRANSITIONS: dict[str, frozenset[str]] = {
    "open": frozenset({"diagnosed", "escalated", "dismissed", "resolved"}),
    "diagnosed": frozenset({"awaiting_approval", "escalated", "dismissed", "resolved"}),
    "awaiting_approval": frozenset({"remediating", "diagnosed", "escalated", "dismissed"}),
    "remediating": frozenset({"verifying", "diagnosed", "escalated"}),
    "verifying": frozenset({"resolved", "remediating", "diagnosed", "escalated"}),
    "escalated": frozenset({"diagnosed", "awaiting_approval", "remediating", "verifying", "resolved", "dismissed"}),
    "resolved": frozenset(),
    "dismissed": frozenset(),
}
SEVERITIES: tuple[str, ...] = ("low", "medium", "high", "critical")
DEFAULT_SEVERITY: dict[str, str] = {"check_failed": "high", "lineage_fail": "high", "airflow_run_failed": "medium"}
_B36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class IllegalTransition(ValueError):
    """A lifecycle move the state machine does not allow; the message lists the legal ones."""


@dataclass(frozen=True)
class Transition:
    from_status: str | None  # None for the opening entry
    to_status: str
    actor: str
    at: datetime
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "at": self.at.isoformat()}


@dataclass(frozen=True)
class Incident:
    id: str
    subject: str  # the dataset id, or `source:<source>` when the signal named no dataset
    dataset_id: str | None
    trigger_kind: str
    title: str
    status: str
    severity: str
    owner: str | None
    domain: str | None
    window_start: datetime
    window_end: datetime
    created_at: datetime
    updated_at: datetime
    signals: list[dict[str, Any]] = field(default_factory=list)
    evidence: dict[str, Any] = field(default_factory=dict)
    # the recorded diagnosis, as typed records (the incident store converts them to and from its JSON)
    causes: list[Cause] = field(default_factory=list)  # ranked, best first
    path: list[Hop] = field(default_factory=list)
    blast_radius: list[BlastEntry] = field(default_factory=list)
    proposed_fixes: list[ProposedFix] = field(default_factory=list)
    plan_id: str | None = None
    run_links: list[dict[str, Any]] = field(default_factory=list)
    history: list[Transition] = field(default_factory=list)

    @property
    def is_final(self) -> bool:
        return self.status in FINAL

    @property
    def top_cause(self) -> Cause | None:
        return self.causes[0] if self.causes else None

    def to_dict(self) -> dict[str, Any]:
        """The stored shape (what `dw incidents show --json` and MCP print)."""
        records: dict[str, list[Any]] = {
            "causes": [c.to_dict() for c in self.causes], "path": [h.to_dict() for h in self.path],
            "blast_radius": [e.to_dict() for e in self.blast_radius],
            "proposed_fixes": [f.to_dict() for f in self.proposed_fixes]}
        out = {f.name: records[f.name] if f.name in records else copy.deepcopy(getattr(self, f.name))
               for f in fields(self) if f.name != "history"}
        for key in ("window_start", "window_end", "created_at", "updated_at"):
            out[key] = getattr(self, key).isoformat()
        out["history"] = [t.to_dict() for t in self.history]
        return out


def incident_id(opened_at: datetime, bump: int = 0) -> str:
    at = opened_at.astimezone(UTC)
    n = at.hour * 3600 + at.minute * 60 + at.second + bump
    digits = ""
    for _ in range(4):
        n, r = divmod(n, 36)
        digits = _B36[r] + digits
    return f"INC-{at:%Y%m%d}-{digits}"


def subject_of(signal: Signal) -> str:
    return signal.dataset_id or f"source:{signal.source}"


def signal_severity(signal: Signal) -> str:
    return signal.severity or DEFAULT_SEVERITY.get(signal.kind, "medium")


def max_severity(a: str, b: str) -> str:
    return max(a, b, key=SEVERITIES.index)


def signal_record(signal: Signal) -> dict[str, Any]:
    return {"kind": signal.kind, "dataset_id": signal.dataset_id, "observed_at": signal.observed_at.isoformat(),
            "source": signal.source, "summary": signal.summary, "severity": signal_severity(signal),
            "dedupe_key": signal.dedupe_key, "details": signal.details}


def open_incident(signal: Signal, *, id: str, owner: str | None, domain: str | None, window: timedelta,
                  now: datetime) -> Incident:
    _require_aware(signal.observed_at, "signal.observed_at")
    return Incident(
        id=id, subject=subject_of(signal), dataset_id=signal.dataset_id, trigger_kind=signal.kind,
        title=signal.summary, status="open", severity=signal_severity(signal), owner=owner, domain=domain,
        window_start=signal.observed_at, window_end=signal.observed_at + window, created_at=now, updated_at=now,
        signals=[signal_record(signal)], evidence=_evidence_from(signal, {}),
        history=[Transition(None, "open", signal.source, now, signal.summary)],
    )


def joins(incident: Incident, signal: Signal, window: timedelta) -> bool:
    """Same subject, not final, and observed within `window` of the incident's signals."""
    return (not incident.is_final and incident.subject == subject_of(signal)
            and incident.window_start - window <= signal.observed_at <= incident.window_end)


def add_signal(incident: Incident, signal: Signal, *, window: timedelta, now: datetime) -> Incident:
    return replace(
        incident,
        signals=[*incident.signals, signal_record(signal)],
        severity=max_severity(incident.severity, signal_severity(signal)),
        window_start=min(incident.window_start, signal.observed_at),
        window_end=max(incident.window_end, signal.observed_at + window),
        evidence=_evidence_from(signal, incident.evidence),
        updated_at=now,
    )


def transition(incident: Incident, to: str, *, actor: str, at: datetime, note: str = "") -> Incident:
    if to not in STATUSES:
        raise IllegalTransition(f"unknown status {to!r}: use one of {', '.join(STATUSES)}")
    if not actor or not actor.strip():
        raise IllegalTransition(f"{incident.id}: a transition needs a named actor")
    allowed = TRANSITIONS[incident.status]
    if to not in allowed:
        legal = ", ".join(sorted(allowed)) or "none (final state)"
        raise IllegalTransition(f"{incident.id}: cannot go from {incident.status} to {to}; legal: {legal}")
    step = Transition(incident.status, to, actor.strip(), at, note)
    return replace(incident, status=to, updated_at=at, history=[*incident.history, step])


def _evidence_from(signal: Signal, evidence: dict[str, Any]) -> dict[str, Any]:
    """Latest facts per source (e.g. `check:volume_vs_history`), plus the partition when named."""
    merged = {**evidence, signal.source: signal.details}
    partition = signal.details.get("partition")
    if partition and "partition" not in merged:
        merged["partition"] = partition
    return merged


def _require_aware(value: datetime, what: str) -> None:
    if value.tzinfo is None:
        raise ValueError(f"{what} must be timezone-aware, got {value!r}")


def utcnow() -> datetime:
    return datetime.now(UTC)
