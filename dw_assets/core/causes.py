"""A cause and the facts it rests on, scored from documented weights.

A fact's weight comes from `WEIGHTS` (positive: supports, negative: refutes), so the table in
docs/diagnosis.md is the code. Confidence = clamp(PRIOR[kind] + sum of fact weights, 0.01, 0.99);
a cause with no `explains` link (the fact tying it to the symptom) is capped at UNEXPLAINED_CAP.
The cause rules (`cause_rules`, `cause_rules_runs`) state facts; `diagnosis` ranks the causes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

UNEXPLAINED_CAP = 0.45

PRIOR: dict[str, float] = {
    "split_export_early_release": 0.05,
    "upstream_type_change": 0.05,
    "dropped_column": 0.05,
    "failed_upstream_run": 0.05,
    "late_upstream": 0.05,
    "duplicated_load": 0.05,
    "code_change": 0.05,
    "permission_error": 0.05,
    "timeout": 0.05,
    # a failed task explained by its own error (the failed try's log or FAIL event)
    "missing_input": 0.05,
    "conversion_error": 0.05,
    "schema_mismatch": 0.05,
    "duplicate_key": 0.05,
    "out_of_memory": 0.05,
    "connection_error": 0.05,
    "quota_exceeded": 0.05,
    "bad_code": 0.05,
    "did_not_run": 0.05,
    "unknown": 0.10,
}

WEIGHTS: dict[str, float] = {
    # split export + early sensor release
    "volume_low_on_dataset": 0.15,
    "multi_part_export": 0.10,
    "part_after_release": 0.25,
    "parts_missing_from_partition": 0.20,
    "late_part_covers_gap": 0.20,
    "marker_after_release": 0.05,
    "no_part_after_release": -0.50,
    "partition_has_every_part": -0.30,
    # column type change / dropped or renamed column
    "column_type_changed": 0.30,
    "column_dropped": 0.30,
    "origin_further_upstream": 0.05,
    "error_is_conversion": 0.15,
    "error_is_missing_column": 0.15,
    "error_names_column": 0.25,
    "error_value_fits_change": 0.10,
    "model_casts_column": 0.15,
    "model_references_column": 0.10,
    "non_castable_values": 0.10,
    "error_names_other_column": -0.35,
    "error_of_other_kind": -0.15,
    "depth_penalty": -0.03,  # per hop beyond the first
    # failed upstream run
    "upstream_task_failed": 0.35,
    "writes_upstream_dataset": 0.10,
    "no_recovery_before_symptom": 0.10,
    "retries_exhausted": 0.05,
    "recovered_before_symptom": -0.35,
    "failure_has_specific_error": -0.10,
    # late upstream
    "upstream_updated_after_consumer_started": 0.35,
    "all_parts_after_release": 0.35,
    "symptom_is_missing_data": 0.15,
    "consumer_reran_after_update": -0.30,
    # duplicated load
    "duplicate_keys": 0.30,
    "volume_high_on_dataset": 0.15,
    "rows_exceed_landed": 0.15,
    "repeated_load_runs": 0.20,
    "no_duplicate_keys": -0.40,
    # code change
    "commit_touches_asset": 0.25,
    "commit_touches_failing_model": 0.10,
    "change_matches_error": 0.30,
    "commit_within_a_day": 0.05,
    "success_after_commit": -0.30,
    # permission error / timeout
    "error_is_permission": 0.55,
    "error_names_object": 0.10,
    "error_is_timeout": 0.45,
    # failed task, classified from its own error
    "task_error_classified": 0.40,
    "error_is_symptoms_own": 0.10,
    "error_in_failed_try_log": 0.05,
    "same_error_every_try": 0.05,
    "commit_touches_failing_task": 0.10,
    # the load did not run
    "expected_run_missing": 0.60,
    "last_run_before_due": 0.05,
    "dag_paused": 0.05,
    # unknown
    "evidence_gap": 0.03,
    "nothing_explains": 0.20,
}

KIND_ORDER = list(PRIOR)


@dataclass(frozen=True)
class Fact:
    code: str
    text: str
    source: str
    weight: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "text": self.text, "source": self.source, "weight": round(self.weight, 3)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Fact:
        return cls(str(data.get("code") or ""), str(data.get("text") or ""), str(data.get("source") or ""),
                   float(data.get("weight") or 0.0))


def fact(code: str, text: str, source: str, times: float = 1.0) -> Fact:
    """A fact weighted from the table: `times` scales it (the depth penalty per hop)."""
    return Fact(code, text, source, WEIGHTS[code] * times)


@dataclass(frozen=True)
class Cause:
    kind: str
    subject: str  # graph node the cause sits on (dataset, task, model file)
    title: str
    facts: tuple[Fact, ...]
    would_refute: tuple[str, ...]
    explains: str | None = None
    origin: str | None = None  # where the path starts, when further upstream than the subject
    details: dict[str, Any] = field(default_factory=dict)
    confidence: float = 0.0
    confirmed: bool = False  # a person confirmed it (an incident's stored cause; never set by ranking)

    def scored(self) -> Cause:
        raw = PRIOR[self.kind] + sum(f.weight for f in self.facts)
        value = min(max(raw, 0.01), 0.99)
        if not self.explains:
            value = min(value, UNEXPLAINED_CAP)
        return replace(self, confidence=round(value, 3))

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "subject": self.subject, "origin": self.origin or self.subject,
            "title": self.title, "confidence": self.confidence, "explains": self.explains,
            "evidence": [f.to_dict() for f in self.facts if f.weight >= 0],
            "refuting": [f.to_dict() for f in self.facts if f.weight < 0],
            "would_refute": list(self.would_refute), "details": jsonable(self.details),
            **({"confirmed": True} if self.confirmed else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | Cause) -> Cause:
        """A cause as an incident stores it (`to_dict`'s shape; rows written by earlier builds may lack
        keys, and mark a confirmed cause `confirmed: true` or `status: confirmed`)."""
        if isinstance(data, Cause):
            return data
        subject = str(data.get("subject") or "")
        facts = tuple(Fact.from_dict(f) for key in ("evidence", "refuting") for f in data.get(key) or ())
        confidence = data.get("confidence")
        return cls(
            kind=str(data.get("kind") or ""), subject=subject, title=str(data.get("title") or ""),
            facts=facts, would_refute=tuple(str(r) for r in data.get("would_refute") or ()),
            explains=data.get("explains"), origin=None if data.get("origin") in (None, subject) else data["origin"],
            details=dict(data.get("details") or {}),
            confidence=float(confidence) if isinstance(confidence, (int, float)) else 0.0,
            confirmed=bool(data.get("confirmed") or data.get("status") == "confirmed"))

    @property
    def evidence(self) -> tuple[Fact, ...]:
        """The facts for it (weight >= 0), as stored under `evidence`."""
        return tuple(f for f in self.facts if f.weight >= 0)


def jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [jsonable(v) for v in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value
