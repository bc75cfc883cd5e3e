"""From a diagnosed incident to a plan: the DAG comes from the graph's nearest Airflow writer, the
conf from that DAG's latest run, what follows from Airflow's asset-triggered runs; code causes carry
their verified diffs; verification covers the incident's dataset and its checked readers."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from dw_assets.config import load_settings
from dw_assets.connectors.airflow.models import DagRun
from dw_assets.core.blast_radius import BlastEntry
from dw_assets.core.causes import Cause
from dw_assets.core.fixes import ProposedFix
from dw_assets.core.graph import ContextGraph, Provenance
from dw_assets.operations.remediation import PlanningError, propose_plan
from tests.support.airflow_doubles import RecordedAirflow

T0 = datetime(2026, 10, 1, 4, 0, tzinfo=UTC)


def _run(dag_id: str, run_id: str, start: datetime, conf: dict, run_type: str = "manual") -> DagRun:
    return DagRun(dag_id=dag_id, run_id=run_id, state="success", logical_date=None, run_after=start,
                  start_date=start, end_date=start + timedelta(minutes=1), conf=conf, run_type=run_type)


def runs_only_client() -> RecordedAirflow:
    """Reads only (a planner must never write to Airflow), by `updated_since` only."""
    return RecordedAirflow(allowed_filters={"updated_since"}, runs=[
        _run("gl_landing", "old", T0 - timedelta(days=30), {"export_date": "2026-08-31"}),
        _run("gl_landing", "bad", T0, {"export_date": "2026-09-30"}),
        _run("month_end_close", "close", T0 + timedelta(minutes=2), {}, "asset_triggered")])


def _graph() -> ContextGraph:
    graph = ContextGraph()
    graph.add_node("airflow:gl_landing.load", "task", "airflow", name="gl_landing.load")
    graph.add_node("finance.bronze.gl_entries", "dataset", "warehouse")
    graph.add_node("analytics.fct_trial_balance", "model", "dbt", owner="maria.chen")
    graph.add_edge("airflow:gl_landing.load", "finance.bronze.gl_entries", "writes", Provenance("config"))
    graph.add_edge("finance.bronze.gl_entries", "analytics.fct_trial_balance", "feeds", Provenance("dbt_manifest"))
    return graph


def _incident(kind: str, fixes: list | None = None, dataset: str = "finance.bronze.gl_entries"):
    return SimpleNamespace(
        id="INC-1", dataset_id=dataset, severity="high", title="volume low", evidence={"observed": 61041},
        causes=[Cause.from_dict({"kind": kind, "title": f"{kind} on gl_landing"})] if kind else [],
        proposed_fixes=[ProposedFix.from_dict(f) for f in fixes or []], signals=[{"details": {"partition": "2026-09-30"}}],
        blast_radius=[BlastEntry("analytics.fct_trial_balance", "model", 1, owner="maria.chen", severity="low")])


FIX = {"kind": "diff", "verified": True, "cause_kind": "upstream_type_change", "repo": "/owners",
       "paths": ["dbt_project/models/staging/stg_orders.sql"], "diff": "diff --git a/x b/x\n"}


def test_a_data_cause_reruns_the_writer_with_the_bad_runs_conf_then_waits_for_followers():
    plan = propose_plan(load_settings(), _incident("split_export_early_release", [dict(FIX, cause_kind="x")]),
                        graph=_graph(), client=runs_only_client(), instance="local", now=T0)
    (step,) = plan.steps
    assert (step.dag_id, step.conf) == ("gl_landing", {"export_date": "2026-09-30"})
    assert [w.dag_id for w in step.wait_for] == ["month_end_close"]
    assert plan.plan_class == "reload_partition" and plan.reversible and plan.diffs == ()
    assert plan.undo and plan.undo.steps[0].conf == {"export_date": "2026-09-30"} and "61041" in plan.undo.description
    refs = {(r.dataset, r.check, r.partition) for r in plan.verification}
    assert ("finance.bronze.gl_entries", "volume_vs_history", "2026-09-30") in refs
    assert ("finance.bronze.gl_entries", "rows_match_landed_files", "2026-09-30") in refs
    assert ("analytics.fct_trial_balance", "balance_debits_equal_credits", None) in refs
    assert not any(r.check == "schema_drift" for r in plan.verification)
    assert plan.blast_radius["affected"][0]["id"] == "analytics.fct_trial_balance"
    assert plan.id == propose_plan(load_settings(), _incident("split_export_early_release", [dict(FIX, cause_kind="x")]),
                                   graph=_graph(), client=runs_only_client(), instance="local", now=T0).id


def test_a_follower_still_running_when_the_plan_is_made_is_waited_for():
    client = runs_only_client()
    running = _run("month_end_close", "close", T0 + timedelta(minutes=2), {}, "asset_triggered")
    client.runs[-1] = replace(running, state="running", end_date=None)
    earlier = _run("entity_variance", "before", T0 - timedelta(hours=1), {}, "asset_triggered")
    client.runs.append(replace(earlier, state="running", end_date=None))  # started before the bad load ended
    plan = propose_plan(load_settings(), _incident("split_export_early_release"), graph=_graph(), client=client,
                        instance="local", now=T0 + timedelta(minutes=3))
    assert [w.dag_id for w in plan.steps[0].wait_for] == ["month_end_close"]


def test_a_code_cause_carries_its_verified_diff_and_an_undo_that_reverts_it():
    unverified = dict(FIX, verified=False, paths=["other.sql"])
    plan = propose_plan(load_settings(), _incident("upstream_type_change", [FIX, unverified]), graph=_graph(),
                        client=runs_only_client(), instance="local", now=T0)
    assert plan.plan_class == "code_fix_then_rerun" and not plan.reversible
    assert [d.path for d in plan.diffs] == ["dbt_project/models/staging/stg_orders.sql"]
    assert plan.diffs[0].owner == "maria.chen" and "revert" in plan.undo.description


def test_what_a_plan_cannot_be_built_from_is_said():
    with pytest.raises(PlanningError, match="no diagnosis"):
        propose_plan(load_settings(), _incident(""), graph=_graph(), client=runs_only_client(), instance="local")
    with pytest.raises(PlanningError, match="no Airflow task writes"):
        propose_plan(load_settings(), _incident("late_upstream", dataset="analytics.fct_trial_balance_x"),
                     graph=_graph_with("analytics.fct_trial_balance_x"), client=runs_only_client(), instance="local")


def _graph_with(node: str) -> ContextGraph:
    graph = _graph()
    graph.add_node(node, "dataset", "warehouse")
    return graph
