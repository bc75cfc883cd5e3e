"""How far Data Workers may act on its own in one domain: pure rules, no I/O.

Levels (`domains[].autonomy` in the config, L1 by default):

- L0 record: observations are recorded; no incident opens, no plan is proposed.
- L1 observe: incidents open and are explained; plans may be recorded but are never dispatched.
- L2 propose: plans are proposed to the domain's approvers; nothing runs without a named approval.
- L3 trusted classes: a plan of an allowed class (e.g. `reload_partition`) that is reversible, carries
  its undo, and whose class has a clean record in this domain may run without approval; every
  other plan still needs one.
- L4 autonomous: any reversible plan with an undo, scoped to this domain, may run without approval.

The org-wide stop overrides every level: while it is on, nothing is dispatched.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class AutonomyLevel(IntEnum):
    L0 = 0
    L1 = 1
    L2 = 2
    L3 = 3
    L4 = 4

    @classmethod
    def parse(cls, value: str | int | AutonomyLevel) -> AutonomyLevel:
        if isinstance(value, AutonomyLevel):
            return value
        text = str(value).strip().upper()
        if text.isdigit():
            text = f"L{text}"
        try:
            return cls[text]
        except KeyError:
            raise ValueError(f"autonomy level {value!r} is not one of L0, L1, L2, L3, L4") from None


DEFAULT_LEVEL = AutonomyLevel.L1


@dataclass(frozen=True)
class ClassRecord:
    """How earlier plans of one class went in one domain (from the ledger)."""

    verified: int = 0  # plans of this class whose verification passed
    failed: int = 0  # verification failed, undo ran, or the rerun failed

    def is_clean(self, min_verified: int) -> bool:
        return self.failed == 0 and self.verified >= min_verified


@dataclass(frozen=True)
class AutonomyDecision:
    allowed: bool  # may this plan be dispatched at all (given an approval when one is needed)
    needs_approval: bool
    reason: str


def may_open_incidents(level: AutonomyLevel) -> bool:
    return level >= AutonomyLevel.L1


def may_propose(level: AutonomyLevel) -> bool:
    return level >= AutonomyLevel.L2


def dispatch_rule(
    level: AutonomyLevel,
    *,
    plan_class: str,
    reversible: bool,
    has_undo: bool,
    record: ClassRecord,
    trusted_classes: frozenset[str] | set[str],
    min_clean_runs: int,
) -> AutonomyDecision:
    """Whether a plan may be dispatched in a domain at `level`, and whether it needs an approval."""
    if level <= AutonomyLevel.L1:
        name = "record" if level == AutonomyLevel.L0 else "observe"
        return AutonomyDecision(False, True, f"domain autonomy is {level.name} ({name}): plans are never dispatched")
    if level == AutonomyLevel.L2:
        return AutonomyDecision(True, True, "domain autonomy is L2: a named approval is required")
    safe = reversible and has_undo
    if level == AutonomyLevel.L3:
        if plan_class not in trusted_classes:
            return AutonomyDecision(True, True, f"L3: plan class {plan_class!r} is not a trusted class")
        if not safe:
            return AutonomyDecision(True, True, "L3: the plan is not reversible with its undo written first")
        if not record.is_clean(min_clean_runs):
            return AutonomyDecision(
                True, True,
                f"L3: class {plan_class!r} has no clean record yet ({record.verified} verified, "
                f"{record.failed} failed; {min_clean_runs} clean runs needed)",
            )
        return AutonomyDecision(True, False, f"L3: trusted class {plan_class!r} with a clean record")
    if not safe:
        return AutonomyDecision(True, True, "L4: the plan is not reversible with its undo written first")
    return AutonomyDecision(True, False, "L4: autonomous within the domain")
