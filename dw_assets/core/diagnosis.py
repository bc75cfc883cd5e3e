"""Ranked causes of an incident, each scored from documented, weighted evidence.

One generator per cause type reads the `EvidenceBundle` and states facts. A fact's weight comes
from `WEIGHTS` (positive: supports, negative: refutes), so the table in docs/diagnosis.md is the
code. Confidence = clamp(PRIOR[kind] + sum of fact weights, 0.01, 0.99); a cause with no
`explains` link (the fact tying it to the symptom: the column the error names is the column whose
type changed; the missing rows' dates are the late file's dates) is capped at UNEXPLAINED_CAP, so
the top cause always explains the symptom when any candidate does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from dw_assets.core import cause_rules, cause_rules_runs
from dw_assets.core.blast_radius import BlastEntry
from dw_assets.core.causes import KIND_ORDER, Cause, fact, jsonable
from dw_assets.core.evidence import EvidenceBundle, Hop, Symptom
from dw_assets.core.fixes import ProposedFix


@dataclass
class Diagnosis:
    """The answer for one incident: ranked causes, the path, the readers, the fixes."""

    incident_id: str | None
    symptom: Symptom
    causes: list[Cause]
    path: list[Hop] = field(default_factory=list)
    blast_radius: list[BlastEntry] = field(default_factory=list)
    fixes: list[ProposedFix] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    evidence: EvidenceBundle | None = None

    @property
    def top(self) -> Cause:
        return self.causes[0]

    def to_dict(self) -> dict[str, Any]:
        return {
            "incident_id": self.incident_id,
            "symptom": jsonable(self.symptom.__dict__),
            "causes": [c.to_dict() for c in self.causes],
            "path": [h.to_dict() for h in self.path],
            "blast_radius": [r.to_dict() for r in self.blast_radius],
            "proposed_fixes": [f.to_dict() for f in self.fixes],
            "gaps": list(self.gaps),
        }


def rank_causes(evidence: EvidenceBundle) -> list[Cause]:
    """Every candidate cause, best first; `unknown` is always among them."""
    generators = cause_rules.GENERATORS + cause_rules_runs.GENERATORS
    candidates = [c.scored() for generate in generators for c in generate(evidence)]
    best: dict[tuple[str, str], Cause] = {}
    for cause in candidates:
        key = (cause.kind, cause.subject)
        if key not in best or cause.confidence > best[key].confidence:
            best[key] = cause
    ranked = list(best.values())
    ranked.append(_unknown(evidence, ranked).scored())
    return sorted(ranked, key=_rank_key)


def _rank_key(cause: Cause) -> tuple:
    return (-cause.confidence, cause.explains is None, cause.details.get("depth", 0), KIND_ORDER.index(cause.kind))


def _unknown(evidence: EvidenceBundle, others: list[Cause]) -> Cause:
    facts = [fact("evidence_gap", gap, "diagnosis") for gap in evidence.gaps[:5]]
    if not any(c.explains and c.confidence >= 0.3 for c in others):
        facts.append(fact("nothing_explains", "no candidate cause explains the symptom with the evidence at hand",
                          "diagnosis"))
    return Cause("unknown", evidence.symptom.dataset_id or evidence.symptom.job or "unknown",
                 "Cause not determined from the evidence collected", tuple(facts),
                 ("any candidate cause above with an explaining link",))


def default_window(observed_at: datetime, hours_before: float = 48.0) -> tuple[datetime, datetime]:
    """Runs and changes in the two days before the symptom (plus a minute for clock skew)."""
    return observed_at - timedelta(hours=hours_before), observed_at + timedelta(minutes=1)
