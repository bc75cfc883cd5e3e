"""The one Airflow seam: the real client (Airflow 2 and 3 alike) and every in-process test double
satisfy `AirflowApi`, the Protocol the planner, dispatch, diagnosis and the sensors take (mypy checks
the services against it; this checks the doubles, which mypy does not read)."""

from __future__ import annotations

import inspect
from datetime import UTC, datetime, timedelta

import pytest

from dw_assets.config import AirflowInstanceConfig, AuthConfig
from dw_assets.connectors.airflow import AirflowApi, AirflowClient
from dw_assets.connectors.airflow.models import DagRun
from tests.support.airflow_doubles import Clock, CountingAirflow, RecordedAirflow

MEMBERS = [name for name in dir(AirflowApi) if not name.startswith("_")]


def _doubles() -> list[object]:
    return [CountingAirflow(Clock()), RecordedAirflow()]


@pytest.mark.parametrize("api", ["v1", "v2"])
def test_the_client_satisfies_the_protocol_for_both_api_versions(api):
    config = AirflowInstanceConfig(name="local", url="http://127.0.0.1:9", auth=AuthConfig(type="none"),
                                   api_version=api)
    with AirflowClient(config) as client:
        assert isinstance(client, AirflowApi) and client.api_version == api


@pytest.mark.parametrize("double", _doubles(), ids=lambda d: type(d).__name__)
def test_each_double_satisfies_the_protocol_with_the_clients_parameters(double):
    assert isinstance(double, AirflowApi)
    for name in MEMBERS:
        ours, theirs = getattr(AirflowClient, name), getattr(type(double), name, None)
        if callable(ours) and callable(theirs):
            wanted = [p for p in inspect.signature(ours).parameters.values() if p.default is inspect.Parameter.empty]
            got = inspect.signature(theirs).parameters
            assert all(p.name in got or any(g.kind is g.VAR_POSITIONAL for g in got.values()) for p in wanted), name


def test_recorded_airflow_reads_as_airflow_filters_and_refuses_writes():
    t0 = datetime(2026, 3, 2, 6, tzinfo=UTC)
    runs = [DagRun(dag_id=d, run_id=r, state=s, logical_date=None, run_after=t0 + timedelta(hours=h),
                   start_date=t0 + timedelta(hours=h), end_date=t0 + timedelta(hours=h, minutes=5) if s != "running"
                   else None, conf={}) for d, r, s, h in (("a", "r1", "success", 0), ("a", "r2", "running", 2),
                                                          ("b", "r1", "failed", 1))]
    airflow = RecordedAirflow(runs=runs)
    assert [r.run_id for r in airflow.list_dag_runs("a")] == ["r1", "r2"]
    assert [(r.dag_id, r.run_id) for r in airflow.list_dag_runs(updated_since=t0 + timedelta(hours=1))] == [
        ("a", "r2"), ("b", "r1")]
    assert [r.run_id for r in airflow.list_dag_runs("a", states=["running"])] == ["r2"]
    assert [r.dag_id for r in airflow.list_dag_runs(end_date_since=t0 + timedelta(minutes=30))] == ["b"]
    assert airflow.get_dag_run("b", "r1").state == "failed"
    with pytest.raises(AssertionError, match="read-only caller triggered"):
        airflow.trigger_dag_run("a")
