"""The approvals sensor launches approved plans once, nothing while stopped, and expires requests."""

from __future__ import annotations

import dagster as dg
import pytest
from gov_fakes import CountingAirflow, make_settings, night1_plan

from dw_assets.dagster_defs.plan_view import APPROVALS_KEY
from dw_assets.dagster_defs.rerun import PLAN_PARTITIONS, GovernanceRuntime, rerun_run_config, rerun_tags
from dw_assets.governance.gate import tick_dispatch_id
from dw_assets.governance.launches import approvals_tick
from dw_assets.governance.workflow import Governance
from dw_assets.store import Store
from sensors.approvals import build_definitions


def test_an_approved_plan_is_launched_with_its_tags_and_a_run_key_per_approval(gov, approved):
    plan_id, approval = approved
    tick = approvals_tick(gov)
    assert [(l.plan_id, l.approval_id, l.run_key) for l in tick.launches] == [
        (plan_id, approval.approval_id, f"rerun-{approval.approval_id}")]


def test_nothing_is_launched_while_stopped_and_requests_still_expire(gov, plan, approved, clock):
    other = night1_plan(conf={"export_date": "2026-08-31"})
    gov.propose(other)
    gov.request_approval(other.id)
    gov.stop(by="maria.chen")
    clock.advance(3 * 3600)  # the approval is still valid; the other request expires at +4h from its request
    clock.advance(3600)
    tick = approvals_tick(gov)
    assert tick.launches == [] and tick.stopped and "dw stop by maria.chen" in tick.stopped
    assert [e["plan_id"] for e in tick.expired] == [other.id]


def test_expired_approvals_and_consumed_approvals_are_not_launched(gov, approved, clock):
    _plan_id, approval = approved
    assert gov.ledger.consume(approval.approval_id, run_id="run-1", now=clock())
    assert approvals_tick(gov).launches == []


def test_l3_trusted_class_with_a_clean_record_launches_without_approval(tmp_path, clock):
    base = make_settings(tmp_path)
    finance = base.domains[0].model_copy(update={"autonomy": "L3"})
    gov = Governance(base.model_copy(update={"domains": [finance, base.domains[1]]}),
                     store=Store(base.state.url), clock=clock)
    for day in ("2026-03-31", "2026-04-30", "2026-05-31"):
        earlier = night1_plan(conf={"export_date": day})
        gov.propose(earlier)
        gov.ledger.set_plan_status(earlier.id, "verified", now=clock())
        gov.record("verification", subject=earlier.id, actor="dw-verify", body={"passed": True})
    fresh = night1_plan()
    gov.propose(fresh)
    code_fix = night1_plan(plan_class="code_fix", conf={"export_date": "2026-06-30"})
    gov.propose(code_fix)
    tick = approvals_tick(gov)
    assert [(l.plan_id, l.approval_id) for l in tick.launches] == [(fresh.id, None)]


def test_the_sensor_dispatches_an_l3_plan_in_its_tick_and_requests_its_run_once(tmp_path, clock):
    base = make_settings(tmp_path)
    finance = base.domains[0].model_copy(update={"autonomy": "L3"})
    settings = base.model_copy(update={"domains": [finance, base.domains[1]]})
    gov = Governance(settings, store=Store(base.state.url), clock=clock)
    for day in ("2026-03-31", "2026-04-30", "2026-05-31"):
        earlier = night1_plan("legacy", conf={"export_date": day})
        gov.propose(earlier)
        gov.ledger.set_plan_status(earlier.id, "verified", now=clock())
        gov.record("verification", subject=earlier.id, actor="dw-verify", body={"passed": True})
    fresh = night1_plan("legacy")
    gov.propose(fresh)
    airflow = CountingAirflow(clock=clock, api="v1", downstream={"gl_landing": ["month_end_close"]})
    result = _invoke_approvals_sensor(settings, gov, airflow)
    assert airflow.writes == [("POST", "dags/gl_landing/dagRuns")], "triggered in the tick"
    [request] = result.run_requests
    assert request.run_key == f"rerun-auto-{fresh.id}" and request.tags == rerun_tags(fresh.id, None)
    again = _invoke_approvals_sensor(settings, gov, airflow)  # not taken over yet: launched (same key), not re-sent
    assert [r.run_key for r in again.run_requests] == [request.run_key]
    assert airflow.writes == [("POST", "dags/gl_landing/dagRuns")]


def _invoke_approvals_sensor(settings, gov, airflow) -> dg.SensorResult:
    """One direct invocation of dw_approvals: the SensorResult as returned, before instance-side resolution."""
    runtime = GovernanceRuntime(settings, governance=gov, client_for=lambda _name: airflow)
    defs = build_definitions(settings, runtime=runtime)
    sensor = defs.resolve_sensor_def("dw_approvals")
    with dg.instance_for_test() as instance:
        context = dg.build_sensor_context(instance=instance, definitions=defs, resources={"dw_governance": runtime})
        return sensor(context)


def test_the_dagster_sensor_emits_run_requests_and_verification_partitions(settings, gov, approved, clock, airflow):
    plan_id, approval = approved
    verifying = night1_plan(conf={"export_date": "2026-07-31"})
    gov.propose(verifying)
    gov.ledger.set_plan_status(verifying.id, "verifying", now=clock())
    result = _invoke_approvals_sensor(settings, gov, airflow)
    requests = {r.run_key: r for r in result.run_requests}
    rerun = requests[f"rerun-{approval.approval_id}"]
    assert rerun.job_name == "rerun_airflow_dag"
    assert rerun.tags["dw/approval_id"] == approval.approval_id and rerun.tags["dw/plan_id"] == plan_id
    assert "plan_id" not in rerun.run_config["ops"]["authorize_plan"]["config"]  # the tag carries it, once
    verify = requests[f"verify-{verifying.id}"]
    assert verify.job_name == "verify_remediation" and verify.partition_key == verifying.id
    assert result.dynamic_partitions_requests[0].partition_keys == [verifying.id]


def test_the_sensor_tick_through_dagsters_evaluation_path(settings, gov, approved, airflow):
    _plan_id, approval = approved
    runtime = GovernanceRuntime(settings, governance=gov, client_for=lambda _name: airflow)
    defs = build_definitions(settings, runtime=runtime)
    sensor = defs.resolve_sensor_def("dw_approvals")
    with dg.instance_for_test() as instance:
        context = dg.build_sensor_context(instance=instance, definitions=defs, resources={"dw_governance": runtime})
        result = sensor.evaluate_tick(context)
    assert [r.run_key for r in result.run_requests] == [f"rerun-{approval.approval_id}"]
    gov.stop(by="omar.haddad")
    with dg.instance_for_test() as instance:
        context = dg.build_sensor_context(instance=instance, definitions=defs, resources={"dw_governance": runtime})
        result = sensor.evaluate_tick(context)
    assert result.run_requests == [] and "org-wide stop" in result.skip_message


def test_a_launch_refused_by_the_stop_is_launched_again_after_resume(gov, airflow, approved):
    from dw_assets.core.approvals import Refusal
    from dw_assets.governance.dispatch import PlanRun

    plan_id, approval = approved
    first = approvals_tick(gov).launches[0].run_key
    gov.stop(by="maria.chen")  # the run was already queued in Dagster when the stop came
    runner = PlanRun(gov=gov, client_for=lambda _n: airflow, plan_id=plan_id, approval_id=approval.approval_id,
                     run_id="queued-run")
    with pytest.raises(Refusal, match="org-wide stop"):
        runner.authorize()
    assert airflow.requests == [] and approvals_tick(gov).launches == []
    gov.resume(by="maria.chen")
    [again] = approvals_tick(gov).launches
    assert again.approval_id == approval.approval_id and again.run_key != first


def test_a_verifying_plan_waits_for_its_rerun_run_and_is_verified_by_the_sensor_only_if_that_run_ended(
        settings, gov, plan, clock):
    """The rerun run verifies itself; the sensor's verify run is the fallback once that run is over."""
    gov.propose(plan)
    gov.ledger.set_plan_status(plan.id, "verifying", now=clock())  # Airflow done, the run verifying now
    runtime = GovernanceRuntime(settings, governance=gov)
    defs = build_definitions(settings, runtime=runtime)
    sensor = defs.resolve_sensor_def("dw_approvals")
    with dg.instance_for_test() as instance:
        rerun = instance.create_run_for_job(defs.resolve_job_def("rerun_airflow_dag"),
                                            run_config=rerun_run_config(), tags=rerun_tags(plan.id, None))
        instance.handle_run_event(rerun.run_id, dg.DagsterEvent(
            event_type_value=dg.DagsterEventType.RUN_START.value, job_name=rerun.job_name))
        assert instance.get_run_by_id(rerun.run_id).status == dg.DagsterRunStatus.STARTED

        def verify_requests() -> list[str]:
            context = dg.build_sensor_context(instance=instance, definitions=defs,
                                              resources={"dw_governance": runtime})
            return [r.run_key for r in sensor(context).run_requests if r.job_name == "verify_remediation"]

        assert verify_requests() == []  # that run verifies the plan in a moment: no second run
        instance.report_run_failed(instance.get_run_by_id(rerun.run_id))  # it crashed before verifying
        assert verify_requests() == [f"verify-{plan.id}"]


def test_a_rerun_whose_run_failed_before_its_first_op_is_launched_again_a_bounded_number_of_times(
        settings, gov, approved, clock, airflow):
    """A launch that timed out or a worker that died leaves the approval unused: the next tick
    launches it under a new key (Dagster skips a key it has launched), at most three times; a run
    refused for good by the gate is not launched again."""
    plan_id, approval = approved
    runtime = GovernanceRuntime(settings, governance=gov, client_for=lambda _name: airflow)
    defs = build_definitions(settings, runtime=runtime)
    sensor = defs.resolve_sensor_def("dw_approvals")
    job = defs.resolve_job_def("rerun_airflow_dag")
    with dg.instance_for_test() as instance:
        def rerun_keys() -> list[str]:
            context = dg.build_sensor_context(instance=instance, definitions=defs,
                                              resources={"dw_governance": runtime})
            return [r.run_key for r in sensor(context).run_requests if r.job_name == "rerun_airflow_dag"]

        def failed_before_starting(run_key: str) -> None:
            run = instance.create_run_for_job(job, run_config=rerun_run_config(),
                                              tags={**rerun_tags(plan_id, approval.approval_id),
                                                    "dagster/run_key": run_key})
            instance.report_run_failed(run)

        first = f"rerun-{approval.approval_id}"
        assert rerun_keys() == [first]
        running = instance.create_run_for_job(job, run_config=rerun_run_config(),
                                              tags={**rerun_tags(plan_id, approval.approval_id),
                                                    "dagster/run_key": first})
        assert rerun_keys() == [first]  # going: the same key, which Dagster does not launch twice
        instance.report_run_failed(running)
        assert rerun_keys() == [f"{first}-relaunch1"]
        failed_before_starting(f"{first}-relaunch1")
        failed_before_starting(f"{first}-relaunch2")
        assert rerun_keys() == [f"{first}-relaunch3"]
        failed_before_starting(f"{first}-relaunch3")
        assert rerun_keys() == []  # three relaunches failed too: left to a person
        gov.ledger.record_refusal(code="not_in_plan", reason="a step outside the plan", now=clock(),
                                  plan_id=plan_id, approval_id=approval.approval_id)
        assert rerun_keys() == [first]  # refused for good: no new key, nothing Dagster would launch again


def test_a_plan_the_tick_dispatches_at_once_keeps_its_launchpad_partition_and_approvals_record(
        settings, gov, approved, airflow):
    """An approval that arrives before any tick saw its plan waiting: the tick dispatches it at once, and
    the plan still gets its `dw_plans` partition (the Launchpad's way to launch it again) and a
    dw/approvals record, as when the dispatch was the run's."""
    plan_id, approval = approved
    result = _invoke_approvals_sensor(settings, gov, airflow)
    assert gov.ledger.get_approval(approval.approval_id).used_by == tick_dispatch_id(approval.approval_id)
    added = [key for request in result.dynamic_partitions_requests
             if request.partitions_def_name == PLAN_PARTITIONS for key in request.partition_keys]
    assert added == [plan_id]
    (event,) = result.asset_events
    assert event.asset_key == APPROVALS_KEY and event.description.startswith("1 plan")
