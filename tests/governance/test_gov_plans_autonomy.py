"""Plans are content-addressed and immutable; autonomy levels decide who must approve."""

from __future__ import annotations

import json

import pytest
from gov_fakes import night1_plan
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from dw_assets.core.autonomy import AutonomyLevel, ClassRecord, dispatch_rule
from dw_assets.core.plans import Plan, PlanError, PlanStep, PlanTampered, load_plan, plan_id_for
from dw_assets.core.receipts import canonical_json


def test_plan_id_is_prefix_plus_16_hex_of_sha256_over_canonical_content():
    import hashlib

    plan = night1_plan()
    expected = hashlib.sha256(canonical_json(plan.content()).encode()).hexdigest()[:16]
    assert plan.id == f"plan-{expected}"
    assert canonical_json({"b": 1, "a": [1, 2]}) == '{"a":[1,2],"b":1}'


def test_same_content_gives_the_same_id_across_rebuilds_and_key_order():
    plan = night1_plan()
    reordered = json.loads(json.dumps(plan.content()), object_pairs_hook=lambda kv: dict(reversed(kv)))
    assert list(reordered) != list(plan.content())
    assert load_plan(reordered, expected_id=plan.id).id == plan.id
    assert night1_plan().id == plan.id


@pytest.mark.parametrize("change", [
    {"conf": {"export_date": "2026-09-29"}},
    {"instance": "legacy"},
    {"proposer": "someone-else"},
    {"domain": "revenue"},
    {"plan_class": "code_fix"},
])
def test_any_change_to_the_content_changes_the_id(change):
    assert night1_plan(**change).id != night1_plan().id


def test_a_stored_plan_edited_after_proposal_is_refused_as_tampered():
    plan = night1_plan()
    content = plan.content()
    content["steps"][0]["conf"]["export_date"] = "2026-08-31"
    with pytest.raises(PlanTampered, match=plan.id):
        load_plan(content, expected_id=plan.id)


def test_plans_are_frozen_and_reject_unknown_fields():
    plan = night1_plan()
    with pytest.raises(ValidationError):
        plan.summary = "changed"  # type: ignore[misc]
    with pytest.raises(PlanError):
        load_plan({**plan.content(), "approved": True})


def test_a_plan_that_runs_anything_must_carry_its_undo():
    with pytest.raises(ValueError, match="undo"):
        Plan(domain="finance", plan_class="reload_partition", proposer="data-workers", summary="x",
             steps=(PlanStep(order=1, airflow_instance="local", dag_id="gl_landing"),))


@given(st.dictionaries(st.text(min_size=1, max_size=8), st.one_of(st.integers(), st.text(max_size=8), st.booleans()),
                       max_size=6))
def test_id_is_stable_for_any_conf_whatever_the_insertion_order(conf):
    forward = night1_plan(conf=conf or {"k": 1})
    backward = night1_plan(conf=dict(reversed(list((conf or {"k": 1}).items()))))
    assert forward.id == backward.id == plan_id_for(json.loads(canonical_json(forward.content())))


def _rule(level: str, **kw):
    args = {"plan_class": "reload_partition", "reversible": True, "has_undo": True, "record": ClassRecord(verified=3),
                "trusted_classes": {"reload_partition"}, "min_clean_runs": 3}
    args.update(kw)
    return dispatch_rule(AutonomyLevel.parse(level), **args)


@pytest.mark.parametrize("level,allowed,needs_approval", [
    ("L0", False, True), ("L1", False, True), ("L2", True, True), ("L3", True, False), ("L4", True, False),
])
def test_levels_for_a_trusted_reversible_class_with_a_clean_record(level, allowed, needs_approval):
    rule = _rule(level)
    assert (rule.allowed, rule.needs_approval) == (allowed, needs_approval), rule.reason


@pytest.mark.parametrize("kw,why", [
    ({"plan_class": "code_fix"}, "not a trusted class"),
    ({"record": ClassRecord(verified=2)}, "no clean record"),
    ({"record": ClassRecord(verified=9, failed=1)}, "no clean record"),
    ({"reversible": False}, "not reversible"),
    ({"has_undo": False}, "not reversible"),
])
def test_l3_still_needs_approval_outside_a_clean_trusted_reversible_class(kw, why):
    rule = _rule("L3", **kw)
    assert rule.allowed and rule.needs_approval and why in rule.reason


def test_l4_needs_approval_only_for_plans_without_undo():
    assert not _rule("L4", plan_class="anything", record=ClassRecord()).needs_approval
    assert _rule("L4", has_undo=False).needs_approval


def test_autonomy_parse_names_bad_levels():
    assert AutonomyLevel.parse("l2") is AutonomyLevel.L2 and AutonomyLevel.parse(3) is AutonomyLevel.L3
    with pytest.raises(ValueError, match="L5"):
        AutonomyLevel.parse("L5")
