"""The one retry policy (dw_assets.connectors.retry): what is transient, when it stops (attempts or
the total deadline, whichever first), the idempotency rule, and the final error's text."""

from __future__ import annotations

import urllib.error

import httpx
import pytest

from dw_assets.connectors import retry
from dw_assets.connectors.retry import RetryPolicy, ServiceUnavailable, Transient


class Clock:
    """A fake monotonic clock that `sleep` advances: the deadline logic without waiting."""

    def __init__(self) -> None:
        self.now, self.sleeps = 0.0, []

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds

    def __call__(self) -> float:
        return self.now


def failing(*errors: BaseException, result: str = "ok"):
    queue = list(errors)

    def fn() -> str:
        if queue:
            raise queue.pop(0)
        return result

    return fn


def test_transient_faults_are_retried_with_capped_exponential_backoff():
    clock = Clock()
    policy = RetryPolicy(attempts=6, backoff_s=1.0, max_backoff_s=4.0, deadline_s=100)
    errors = [httpx.ReadTimeout("slow"), httpx.ConnectError("refused"), Transient("answered 503"),
              urllib.error.URLError("down"), TimeoutError("socket")]
    assert retry.call(failing(*errors), system="s", endpoint="e", hint="h", policy=policy, sleep=clock.sleep,
                      clock=clock) == "ok"
    assert clock.sleeps == [1.0, 2.0, 4.0, 4.0, 4.0]


def test_the_total_deadline_stops_retries_before_the_attempts_run_out():
    clock = Clock()
    policy = RetryPolicy(attempts=100, backoff_s=10.0, max_backoff_s=10.0, deadline_s=35.0)
    with pytest.raises(ServiceUnavailable) as err:
        retry.call(failing(*[httpx.ReadTimeout("slow")] * 100), system="warehouse", endpoint="SELECT 1",
                   hint="check the database", policy=policy, sleep=clock.sleep, clock=clock)
    assert err.value.attempts == 4 and clock.now <= 35.0


def test_the_final_error_names_system_endpoint_last_error_and_what_to_do():
    with pytest.raises(ServiceUnavailable) as err:
        retry.call(failing(Transient("answered 500: boom"), Transient("answered 503: busy")),
                   system="marquez at http://m:5000", endpoint="GET /api/v1/events/lineage",
                   hint="check that Marquez is up", policy=RetryPolicy(attempts=2, backoff_s=0), sleep=lambda _s: None)
    assert str(err.value).startswith("marquez at http://m:5000: GET /api/v1/events/lineage failed after 2 attempt(s)")
    assert "last error: answered 503: busy" in str(err.value) and str(err.value).endswith("check that Marquez is up")


def test_non_transient_errors_are_raised_at_once():
    calls = []

    def fn() -> None:
        calls.append(1)
        raise ValueError("bad conf")

    with pytest.raises(ValueError, match="bad conf"):
        retry.call(fn, system="s", endpoint="e", hint="h", sleep=lambda _s: None)
    response = httpx.Response(404, request=httpx.Request("GET", "http://x/"))
    assert retry.transient_error(httpx.HTTPStatusError("nf", request=response.request, response=response)) is None
    assert calls == [1]


def test_a_non_idempotent_call_is_repeated_only_when_it_never_left():
    sleep = []
    assert retry.call(failing(httpx.ConnectError("refused")), system="s", endpoint="POST /x", hint="h",
                      idempotent=False, sleep=sleep.append) == "ok"
    with pytest.raises(ServiceUnavailable, match="not repeated because it is not idempotent"):
        retry.call(failing(httpx.ReadTimeout("lost answer")), system="s", endpoint="POST /x", hint="h",
                   idempotent=False, sleep=sleep.append)
    assert len(sleep) == 1


def test_a_connector_can_raise_its_own_error_type():
    class SlackError(RuntimeError):
        pass

    with pytest.raises(SlackError, match="slack: POST webhook failed after 1 attempt"):
        retry.call(failing(ConnectionResetError("reset")), system="slack", endpoint="POST webhook", hint="h",
                   policy=RetryPolicy(attempts=1), error=SlackError)
