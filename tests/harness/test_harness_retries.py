"""The demo's side of Airflow (harness + estate actor) on a busy machine, against a fake Airflow that
stalls, drops answers and fails with 5xx: every call retries under the harness's policy, a trigger
whose answer was lost is repeated without starting a second run, and what finally fails names the
system, the endpoint, the last error and where to look."""

from __future__ import annotations

from urllib.parse import urlsplit

import httpx
import pytest

from dw_assets.connectors.retry import RetryPolicy, ServiceUnavailable
from dw_assets.demo.estate_actor import EstateActor
from dw_assets.harness import airflow as harness_module
from dw_assets.harness.airflow import AirflowHarness
from tests.support.airflow_fakes import FakeAirflow, FakeAirflowServer, Fault


@pytest.fixture(scope="module")
def server():
    with FakeAirflowServer() as running:
        yield running


@pytest.fixture
def fast_policy(monkeypatch):
    """The harness's policy, scaled down: 0.4 s stalls count as timeouts, backoff in tens of ms."""
    monkeypatch.setattr(harness_module, "HTTP_TIMEOUT", httpx.Timeout(0.4, connect=0.4))
    monkeypatch.setattr(harness_module, "HTTP_POLICY", RetryPolicy(attempts=4, backoff_s=0.05, max_backoff_s=0.2,
                                                                   deadline_s=10.0))


@pytest.fixture
def estate(server, tmp_path, fast_policy):
    fake, url = server.use(FakeAirflow(major=3))
    fake.add_dag("gl_landing")
    harness = AirflowHarness(3, tmp_path / "airflow", port=urlsplit(url).port, dw_home_dir=tmp_path / "home",
                             password=fake.password)
    return fake, harness, EstateActor(harness)


def test_a_stalled_read_is_retried(estate):
    fake, _, actor = estate
    fake.add_run("gl_landing", "manual__1")
    fake.faults.append(Fault(r"GET .*/dagRuns/manual__1$", delay_s=1.0, passthrough=True, times=2))
    assert actor.run("gl_landing", "manual__1")["state"] == "success"
    assert fake.request_count(r"GET .*/dagRuns/manual__1$") == 3


def test_server_errors_on_login_and_reads_are_retried(estate):
    fake, _, actor = estate
    fake.faults += [Fault(r"POST /auth/token", status=503, times=2), Fault(r"GET .*/dagRuns\?", status=500, times=2)]
    assert actor.runs("gl_landing") == []
    assert fake.logins == 1 and fake.request_count(r"GET .*/dagRuns$") == 3


def test_a_trigger_whose_answer_was_lost_starts_exactly_one_run(estate):
    fake, _, actor = estate
    # the first POST is handled, but too slowly for the client: its answer never arrives
    fake.faults.append(Fault(r"POST .*/dagRuns$", delay_s=1.0, passthrough=True, times=1))
    run = actor.trigger("gl_landing", {"export_date": "2026-09-30"})
    assert run["conf"] == {"export_date": "2026-09-30"} and run["dag_run_id"].startswith("manual__")
    assert [r["run_id"] for r in fake.runs] == [run["dag_run_id"]]
    assert fake.request_count(r"POST .*/dagRuns$") >= 2


def test_an_airflow_that_stays_down_is_named_with_endpoint_last_error_and_log(estate):
    fake, harness, actor = estate
    fake.faults.append(Fault(r"GET .*/dagRuns\?", status=502, times=99))
    with pytest.raises(ServiceUnavailable) as err:
        actor.runs("gl_landing")
    message = str(err.value)
    assert f"Airflow 3 (harness) at {harness.url}" in message and "GET " in message and "/dagRuns" in message
    assert "4 attempt(s)" in message and "answered 502" in message and str(harness.log_path) in message
