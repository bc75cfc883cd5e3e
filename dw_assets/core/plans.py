"""Remediation plans: immutable, content-addressed proposals. Pure.

A plan's id is `plan-` + the first 16 hex digits of SHA-256 over the canonical JSON of its content
(sorted keys, no whitespace). An approval binds to that id, so any change to a step, a conf, the
undo or a diff makes a different plan that needs its own approval; a stored plan whose content no
longer hashes to its id is refused as tampered (`load_plan`).

A plan that runs anything carries its undo from the start: the undo is part of the hashed content,
so it is written (and approved) before the first step runs.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from dw_assets.core.receipts import canonical_json


class PlanError(ValueError):
    """A plan that cannot be built or loaded, with what was wrong."""


class PlanTampered(PlanError):
    """Stored content no longer hashes to the plan's id."""


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DownstreamWait(_Frozen):
    """A run that follows a step without us triggering it (e.g. `month_end_close` on the asset event)."""

    dag_id: str
    airflow_instance: str | None = None  # default: the step's instance
    via: str = ""  # why it follows, e.g. "asset gl_entries"


class PlanStep(_Frozen):
    order: int = Field(ge=1)
    airflow_instance: str
    dag_id: str
    conf: dict[str, Any] = {}
    wait_for: tuple[DownstreamWait, ...] = ()
    description: str = ""


class PlanUndo(_Frozen):
    description: str  # e.g. "restore export_date=2026-09-30 from snapshot ..."
    steps: tuple[PlanStep, ...] = ()  # e.g. rerun with the previous conf
    snapshot: str | None = None  # where the pre-change state is kept, when a snapshot was taken


class PlanDiff(_Frozen):
    repo: str
    path: str
    diff: str  # unified diff, `git apply --check`-able on the owner's repo
    owner: str | None = None


class VerificationRef(_Frozen):
    """A check to run after the plan, by dataset and check name (executed by the checks runner)."""

    dataset: str
    check: str  # a check name, e.g. "rows_match_landed_files", "balance_debits_equal_credits"
    partition: str | None = None  # e.g. "2026-09-30"; None checks the latest partition
    expect: str = ""  # what passing means, for people


class Plan(_Frozen):
    domain: str
    plan_class: str  # e.g. "reload_partition", "code_fix"
    proposer: str
    summary: str
    incident_id: str | None = None
    cause: str = ""
    trigger: str = ""  # what opened the incident, e.g. "check:volume on finance.bronze.gl_entries"
    steps: tuple[PlanStep, ...] = ()
    undo: PlanUndo | None = None
    reversible: bool = False
    diffs: tuple[PlanDiff, ...] = ()
    blast_radius: dict[str, Any] = {}
    verification: tuple[VerificationRef, ...] = ()
    proposed_at: datetime | None = None

    @model_validator(mode="after")
    def _steps_are_ordered_and_undoable(self) -> Plan:
        orders = [s.order for s in self.steps]
        if len(set(orders)) != len(orders):
            raise ValueError(f"plan steps need distinct `order` values, got {orders}")
        if self.steps and self.undo is None:
            raise ValueError("a plan that runs anything must carry its undo, written before the first step")
        return self

    def content(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    @property
    def id(self) -> str:
        return plan_id_for(self.content())

    def ordered_steps(self) -> list[PlanStep]:
        return sorted(self.steps, key=lambda s: s.order)

    def step_matching(self, instance: str, dag_id: str, conf: Mapping[str, Any]) -> PlanStep | None:
        """The step that would write exactly this (instance, DAG, conf), if the plan holds one."""
        wanted = canonical_json(dict(conf))
        for step in self.steps:
            if step.airflow_instance == instance and step.dag_id == dag_id and canonical_json(step.conf) == wanted:
                return step
        return None

    def describe(self) -> str:
        lines = [f"{self.id} [{self.plan_class}] {self.summary}", f"  domain {self.domain}, proposed by {self.proposer}"]
        if self.incident_id:
            lines.append(f"  incident {self.incident_id}")
        if self.cause:
            lines.append(f"  cause: {self.cause}")
        for step in self.ordered_steps():
            waits = ", then ".join(f"{w.dag_id} ({w.via})" if w.via else w.dag_id for w in step.wait_for)
            lines.append(f"  {step.order}. {step.airflow_instance}: {step.dag_id} conf={canonical_json(step.conf)}"
                         + (f"; then waits for {waits}" if waits else ""))
        if self.undo:
            lines.append(f"  undo: {self.undo.description}")
        for diff in self.diffs:
            lines.append(f"  diff: {diff.repo}:{diff.path} (owner {diff.owner or 'unknown'})")
        return "\n".join(lines)


def plan_id_for(content: Mapping[str, Any]) -> str:
    return "plan-" + hashlib.sha256(canonical_json(content).encode("utf-8")).hexdigest()[:16]


def load_plan(content: Mapping[str, Any] | str, expected_id: str | None = None) -> Plan:
    """Rebuild a stored plan; raise PlanTampered when its content no longer hashes to `expected_id`."""
    data = json.loads(content) if isinstance(content, str) else dict(content)
    if expected_id is not None and plan_id_for(data) != expected_id:
        raise PlanTampered(f"stored plan {expected_id} does not hash to its id any more: it was changed after it "
                           f"was proposed (now {plan_id_for(data)})")
    try:
        plan = Plan.model_validate(data)
    except ValidationError as exc:
        raise PlanError(f"stored plan {expected_id or '(no id)'} is not a valid plan: {exc}") from exc
    if expected_id is not None and plan.id != expected_id:
        raise PlanTampered(f"stored plan {expected_id} hashes to {plan.id} once normalised: refused as tampered")
    return plan
