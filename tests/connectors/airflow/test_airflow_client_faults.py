"""The Airflow connector against a fake Airflow: version probing, auth, paging, retries and faults."""

from __future__ import annotations

import socket
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from dw_assets.config import AirflowInstanceConfig, AuthConfig, ConfigError
from dw_assets.connectors.airflow import (
    AirflowAuthError,
    AirflowClient,
    AirflowConflictError,
    AirflowForbiddenError,
    AirflowNotFoundError,
    AirflowRequestError,
    AirflowResponseError,
    AirflowUnavailableError,
    ReadOnlyError,
    StaticBearer,
    clients_from_settings,
)
from tests.support.airflow_fakes import FakeAirflow, FakeAirflowServer, Fault
from tests.support.settings import build_settings

T0 = datetime(2026, 9, 30, 4, 0, tzinfo=UTC)


def make_client(url: str, major: int = 3, **overrides: Any) -> AirflowClient:
    auth = AuthConfig(type="jwt" if major >= 3 else "basic", username="admin", password="admin")
    fields = {"name": "local", "url": url, "auth": auth, "read_only": False, "timeout_s": 5.0, "retries": 3}
    return AirflowClient(AirflowInstanceConfig(**{**fields, **overrides}), backoff_s=0.01)


@pytest.fixture(scope="module")
def server():
    with FakeAirflowServer() as running:
        yield running


@pytest.fixture
def af3(server):
    return server.use(FakeAirflow(major=3))


@pytest.fixture
def af2(server):
    return server.use(FakeAirflow(major=2))


def test_version_probe_falls_back_to_v1_and_is_cached(af2):
    fake, url = af2
    client = make_client(url, major=2)
    assert (client.api_version, client.airflow_version) == ("v1", "2.11.0")
    client.list_dags()
    client.list_dags()
    assert [r["path"] for r in fake.requests[:2]] == ["/api/v2/version", "/api/v1/version"]
    assert fake.request_count("version") == 2
    assert fake.requests[0]["auth"] is None  # the probe is public: no JWT login against Airflow 2


def test_v2_is_detected_and_runs_are_normalized(af3):
    fake, url = af3
    fake.add_run("gl_landing", "manual__2026-09-30T04:00:00+00:00", end=T0, conf={"export_date": "2026-09-30"},
                 tasks={"wait_for_export": "success", "load": "success"})
    client = make_client(url)
    assert client.api_version == "v2"
    [run] = client.list_dag_runs()
    assert (run.dag_id, run.state, run.end_date, run.conf) == ("gl_landing", "success", T0, {"export_date": "2026-09-30"})
    assert run.triggered_by == "rest_api" and run.run_after is not None and run.logical_date is None
    tis = client.list_task_instances(run.dag_id, run.run_id)
    assert [(t.task_id, t.state, t.map_index) for t in tis] == [("wait_for_export", "success", -1), ("load", "success", -1)]
    raw = fake.requests[-1]["raw"]
    assert "manual__2026-09-30T04%3A00%3A00%2B00%3A00" in raw, raw  # `+` and `:` reach Airflow encoded
    assert client.get_dag_run(run.dag_id, run.run_id) == run


def test_v1_runs_take_logical_date_from_execution_date(af2):
    fake, url = af2
    fake.add_run("orders_daily", "scheduled__2026-10-01T00:00:00+00:00", "failed", end=T0,
                 start=T0 - timedelta(minutes=5))
    [run] = make_client(url, major=2).list_dag_runs("orders_daily", states=["failed"])
    assert run.logical_date == T0 - timedelta(minutes=5) and run.run_after is None and run.duration_s == 300


def test_paging_reaches_the_end_even_when_the_server_caps_the_page(af3):
    fake, url = af3
    fake.max_page = 30
    for i in range(95):
        fake.add_run(f"dag_{i % 3}", f"run_{i:03d}", end=T0 + timedelta(seconds=i))
    runs = make_client(url).list_dag_runs(end_date_since=T0, states=["success", "failed"])
    assert [r.run_id for r in runs] == [f"run_{i:03d}" for i in range(95)]
    pages = [r for r in fake.requests if r["path"].endswith("/dagRuns")]
    assert len(pages) == 4 and pages[0]["args"]["order_by"] == "end_date"
    assert pages[0]["args"].getlist("state") == ["success", "failed"]
    assert pages[0]["args"]["end_date_gte"] == T0.isoformat()


def test_server_error_then_success_is_retried(af3):
    fake, url = af3
    fake.add_dag("gl_landing")
    fake.faults.append(Fault(r"GET /api/v2/dags\b", status=500, times=2))
    assert [d.dag_id for d in make_client(url).list_dags()] == ["gl_landing"]
    assert fake.request_count(r"GET /api/v2/dags$") == 3


def test_persistent_server_error_names_instance_endpoint_and_attempts(af3):
    fake, url = af3
    fake.faults.append(Fault(r"dagRuns", status=503, times=99))
    with pytest.raises(AirflowUnavailableError) as err:
        make_client(url, retries=2).list_dag_runs()
    message = str(err.value)
    assert "'local'" in message and "GET /api/v2/dags/~/dagRuns" in message and "3 attempt(s)" in message
    assert fake.request_count("dagRuns") == 3


def test_timeout_is_retried_then_reported(af3):
    fake, url = af3
    fake.faults.append(Fault(r"GET /api/v2/dags\?", status=200, delay_s=1.5, times=2))
    with pytest.raises(AirflowUnavailableError, match=r"ReadTimeout.*timeout 0.3s") as err:
        make_client(url, timeout_s=0.3, retries=1).list_dags()
    assert "ReadTimeout" in str(err.value) and fake.request_count(r"GET /api/v2/dags$") == 2


def test_refused_connection_is_unavailable():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(AirflowUnavailableError, match="cannot connect"):
        make_client(f"http://127.0.0.1:{port}", retries=1).list_dags()


def test_malformed_json_page_is_a_clear_error(af3):
    fake, url = af3
    for i in range(150):
        fake.add_run("gl_landing", f"run_{i}", end=T0 + timedelta(seconds=i))
    fake.faults.append(Fault(r"dagRuns\?.*offset=100", status=200, body="<html>proxy error</html>"))
    with pytest.raises(AirflowResponseError, match=r"GET /api/v2/dags/~/dagRuns answered 200 .*not JSON"):
        make_client(url).list_dag_runs()


def test_expired_jwt_mid_paging_is_renewed_once_and_paging_continues(af3):
    fake, url = af3
    for i in range(250):
        fake.add_run("gl_landing", f"run_{i:03d}", end=T0 + timedelta(seconds=i))
    fake.faults.append(Fault(r"dagRuns\?.*offset=100", expire_tokens=True))
    runs = make_client(url).list_dag_runs()
    assert [r.run_id for r in runs] == [f"run_{i:03d}" for i in range(250)]
    assert fake.logins == 2 and fake.rejected == 1


def test_jwt_is_renewed_before_expiry_without_a_401(af3):
    fake, url = af3
    fake.token_ttl_s = 30  # inside the client's 60 s renewal margin: every request renews first
    client = make_client(url)
    client.list_dags()
    client.list_dags()
    assert fake.logins == 2 and fake.rejected == 0


def test_wrong_password_names_the_login_and_the_fix(af3):
    _, url = af3
    client = make_client(url, auth=AuthConfig(type="jwt", username="admin", password="nope"))
    with pytest.raises(AirflowAuthError, match=r"POST /auth/token refused user 'admin'.*auth.username/password"):
        client.list_dags()


def test_jwt_login_against_airflow_2_says_use_basic(af2):
    _, url = af2
    client = make_client(url, major=2, auth=AuthConfig(type="jwt", username="admin", password="admin"))
    with pytest.raises(AirflowAuthError, match="not Airflow 3.*auth.type basic"):
        client.list_dags()


def test_basic_auth_with_wrong_password_is_a_401_with_a_hint(af2):
    _, url = af2
    client = make_client(url, major=2, auth=AuthConfig(type="basic", username="admin", password="x"))
    with pytest.raises(AirflowAuthError, match=r"GET /api/v1/dags answered 401.*airflow.instances\[local\].auth"):
        client.list_dags()


@pytest.mark.parametrize(("status", "kind", "hint"), [
    (403, AirflowForbiddenError, "lacks permission"),
    (404, AirflowNotFoundError, "check that the DAG / run exists"),
    (422, AirflowRequestError, "rejected the request as invalid"),
], ids=["forbidden", "not-found", "unprocessable"])
def test_client_errors_raise_their_own_class_with_endpoint_and_fix(af3, status, kind, hint):
    fake, url = af3
    body = '{"detail": [{"loc": ["query", "limit"], "msg": "bad value"}]}' if status == 422 else None
    fake.faults.append(Fault(r"taskInstances", status=status, body=body))
    with pytest.raises(kind) as err:
        make_client(url).list_task_instances("gl_landing", "manual__x")
    message = str(err.value)
    assert "'local'" in message and "GET /api/v2/dags/gl_landing/dagRuns/manual__x/taskInstances" in message
    assert f"answered {status}" in message and hint in message
    if status == 422:
        assert "query.limit: bad value" in message
    assert fake.request_count("taskInstances") == 1  # 4xx is never retried


def test_unknown_run_is_not_found(af3):
    _, url = af3
    with pytest.raises(AirflowNotFoundError, match="DagRun not found"):
        make_client(url).get_dag_run("gl_landing", "nope")


@pytest.mark.parametrize(("major", "body"), [
    (3, {"logical_date": None, "conf": {"export_date": "2026-09-30"}}),
    (2, {"conf": {"export_date": "2026-09-30"}}),
], ids=["airflow3", "airflow2"])
def test_trigger_sends_the_version_specific_body(server, major, body):
    fake, url = server.use(FakeAirflow(major=major))
    fake.add_dag("gl_landing")
    run = make_client(url, major=major).trigger_dag_run("gl_landing", {"export_date": "2026-09-30"})
    [post] = [r for r in fake.requests if r["method"] == "POST" and "dagRuns" in r["path"]]
    assert post["json"] == body
    assert run.state == "queued" and run.conf == {"export_date": "2026-09-30"}


def test_trigger_is_not_retried_after_a_server_error(af3):
    fake, url = af3
    fake.add_dag("gl_landing")
    fake.faults.append(Fault(r"POST .*/dagRuns", status=500, times=5))
    with pytest.raises(AirflowUnavailableError, match="not idempotent"):
        make_client(url).trigger_dag_run("gl_landing", {})
    assert fake.request_count("POST .*dagRuns") == 1


def test_pause_and_unpause(af3):
    fake, url = af3
    fake.add_dag("gl_landing", paused=True)
    dag = make_client(url).set_paused("gl_landing", False)
    assert dag.is_paused is False and fake.dags["gl_landing"]["is_paused"] is False
    assert fake.requests[-1]["args"]["update_mask"] == "is_paused"


def test_read_only_pin_refuses_writes_before_any_request(af3):
    fake, url = af3
    fake.add_dag("gl_landing")
    client = make_client(url, read_only=True)
    with pytest.raises(ReadOnlyError, match="instance 'local' is pinned read-only"):
        client.trigger_dag_run("gl_landing", {"export_date": "2026-09-30"})
    with pytest.raises(ReadOnlyError, match="pause DAG 'gl_landing'"):
        client.set_paused("gl_landing", True)
    assert fake.requests == [] and client.requests_sent == 0


def test_static_bearer_provider_is_asked_again_once_on_401(af3):
    fake, url = af3
    fake.add_dag("gl_landing")
    login = make_client(url)
    login.list_dags()  # obtain a valid token from the fake through a JWT login
    valid = login.auth._token
    tokens = iter(["stale-token", valid])
    client = AirflowClient(AirflowInstanceConfig(name="astro", url=url, auth=AuthConfig(type="bearer", token="x")),
                           auth=StaticBearer(lambda: next(tokens)), backoff_s=0.01)
    assert [d.dag_id for d in client.list_dags()] == ["gl_landing"]


def test_env_references_resolve_when_clients_are_built(af3, monkeypatch):
    _, url = af3
    inst = AirflowInstanceConfig(name="local", url="${FAKE_AF_URL}",
                                 auth=AuthConfig(type="${FAKE_AF_AUTH:-jwt}", username="admin", password="${FAKE_AF_PW}"))
    settings = build_settings(airflow={"instances": [inst]})
    monkeypatch.delenv("FAKE_AF_URL", raising=False)
    with pytest.raises(ConfigError, match=r"airflow.instances\[local\].url needs environment variable \$\{FAKE_AF_URL\}"):
        clients_from_settings(settings)
    monkeypatch.setenv("FAKE_AF_URL", url)
    monkeypatch.setenv("FAKE_AF_PW", "admin")
    assert clients_from_settings(settings)["local"].api_version == "v2"
    monkeypatch.setenv("FAKE_AF_AUTH", "kerberos")
    with pytest.raises(ConfigError, match="auth.type is 'kerberos': use one of basic, jwt, bearer, none"):
        clients_from_settings(settings)


def test_invalid_jwt_403_after_a_new_secret_renews_the_token(af3):
    """Airflow 3 restarted with a new JWT secret answers 403 "Invalid JWT token": log in again."""
    fake, url = af3
    fake.stale_token_status = 403
    fake.add_dag("gl_landing")
    client = make_client(url)
    client.list_dags()
    fake.rotate_secret()
    assert [d.dag_id for d in client.list_dags()] == ["gl_landing"]
    assert fake.logins == 2 and fake.rejected == 1


def test_a_token_refused_even_after_a_fresh_login_says_so(af3):
    fake, url = af3
    fake.faults.append(Fault(r"GET /api/v2/dags\?", status=403, body='{"detail": "Invalid JWT token"}', times=2))
    with pytest.raises(AirflowForbiddenError, match="refused the token even after a fresh login.*jwt_secret"):
        make_client(url).list_dags()
    assert fake.logins == 2  # one renewal, not a loop


def test_a_stall_is_retried_and_the_read_succeeds(af3):
    fake, url = af3
    fake.add_dag("gl_landing")
    fake.faults.append(Fault(r"GET /api/v2/dags\?", status=200, delay_s=1.0, times=1))
    assert [d.dag_id for d in make_client(url, timeout_s=0.3).list_dags()] == ["gl_landing"]
    assert fake.request_count(r"GET /api/v2/dags$") == 2


def test_retries_stop_at_the_total_deadline(af3):
    fake, url = af3
    fake.faults.append(Fault(r"dagRuns", status=502, times=999))
    client = AirflowClient(AirflowInstanceConfig(name="local", url=url, retries=100, deadline_s=0.5,
                                                 auth=AuthConfig(type="jwt", username="admin", password="admin")),
                           backoff_s=0.05, max_backoff_s=0.2)
    with pytest.raises(AirflowUnavailableError, match=r"GET /api/v2/dags/~/dagRuns failed after \d+ attempt") as err:
        client.list_dag_runs()
    assert "answered 502" in str(err.value) and "deadline 0.5s" in str(err.value)
    assert 2 <= fake.request_count("dagRuns") < 10


def test_a_trigger_with_its_own_run_id_survives_a_lost_answer_without_a_second_run(af3):
    fake, url = af3
    fake.add_dag("gl_landing")
    # Airflow starts the run but answers too late for the client; the repeat gets 409 and reads it back
    fake.faults.append(Fault(r"POST .*/dagRuns$", delay_s=1.0, passthrough=True, times=1))
    run = make_client(url, timeout_s=0.4).trigger_dag_run("gl_landing", {"export_date": "2026-09-30"},
                                                         run_id="dw__run-1__1")
    assert run.run_id == "dw__run-1__1" and run.conf == {"export_date": "2026-09-30"}
    assert [r["run_id"] for r in fake.runs] == ["dw__run-1__1"]
    assert fake.request_count("POST .*dagRuns") >= 2
    with pytest.raises(AirflowConflictError):  # the same id with another conf is a real conflict
        make_client(url).trigger_dag_run("gl_landing", {"export_date": "2026-10-31"}, run_id="dw__run-1__1")
