"""One retry policy for every call to an external system (Airflow, OpenLineage backends, the
warehouse, Slack, the demo's own Airflow): a transient fault never ends a job on its own.

Transient means a timeout, a connection that could not be made or was dropped, or a 5xx / 429
answer. Those are retried with exponential backoff (capped) until the attempts or the total
deadline run out, whichever comes first; anything else (a 4xx, a bad answer) is raised at once.
The final error names the system, the endpoint, the last error and what to do.

Written here rather than with tenacity/stamina: the rule is a dozen lines, and the callers need the
same error text and the idempotency rule (a non-idempotent request is retried only when it never
left this process) in both an httpx transport and plain function calls.
"""

from __future__ import annotations

import socket
import time
import urllib.error
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import httpx

T = TypeVar("T")
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH"})


@dataclass(frozen=True)
class RetryPolicy:
    """`attempts` in all (1 = no retry); waits `backoff_s`, doubling up to `max_backoff_s`; never
    starts an attempt past `deadline_s` after the first one began."""

    attempts: int = 5
    backoff_s: float = 0.5
    max_backoff_s: float = 8.0
    deadline_s: float = 180.0

    def delay(self, attempt: int) -> float:
        """The wait after failed attempt number `attempt` (1-based)."""
        return min(self.max_backoff_s, self.backoff_s * 2 ** (attempt - 1))

    def with_(self, **changes: Any) -> RetryPolicy:
        return replace(self, **changes)


DEFAULT_POLICY = RetryPolicy()


class Transient(Exception):
    """Raise inside a retried call to say "this failed, but may work if tried again"."""


class ServiceUnavailable(RuntimeError):
    """A system stayed unreachable (or kept answering 5xx) through every retry."""

    def __init__(self, system: str, endpoint: str, last_error: str, hint: str, *, attempts: int,
                 elapsed_s: float):
        self.system, self.endpoint, self.last_error, self.hint = system, endpoint, last_error, hint
        self.attempts, self.elapsed_s = attempts, elapsed_s
        super().__init__(f"{system}: {endpoint} failed after {attempts} attempt(s) over {elapsed_s:.0f}s "
                         f"(last error: {last_error}): {hint}")


def describe(exc: BaseException) -> str:
    text = str(exc) or "no answer"
    return f"{type(exc).__name__}: {text}"


def transient_error(exc: BaseException) -> str | None:
    """A description of `exc` when it is a transient fault, else None (it must not be retried)."""
    if isinstance(exc, Transient):
        return str(exc)
    if isinstance(exc, httpx.TransportError):  # timeouts, refused / dropped connections, protocol errors
        return describe(exc)
    if isinstance(exc, httpx.HTTPStatusError) and exc.response.status_code in RETRY_STATUSES:
        return f"answered {exc.response.status_code}"
    if isinstance(exc, urllib.error.HTTPError):  # slack-sdk's webhook client and urllib callers
        return f"answered {exc.code}" if exc.code in RETRY_STATUSES else None
    if isinstance(exc, urllib.error.URLError | TimeoutError | socket.timeout | ConnectionError):
        return describe(exc)
    return None


def never_sent(exc: BaseException) -> bool:
    """True when the request cannot have reached the server, so even a POST may be repeated."""
    return isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout | httpx.PoolTimeout | ConnectionRefusedError)


def call(fn: Callable[[], T], *, system: str, endpoint: str, hint: str, policy: RetryPolicy = DEFAULT_POLICY,
         idempotent: bool = True, classify: Callable[[BaseException], str | None] = transient_error,
         error: Callable[[str], BaseException] | None = None, sleep: Callable[[float], None] = time.sleep,
         clock: Callable[[], float] = time.monotonic) -> T:
    """`fn()` with `policy`'s retries on transient faults. A non-idempotent call is retried only when
    the fault shows the request was never sent. `error`, when given, builds the final exception from
    the message (a connector's own error type); else `ServiceUnavailable` is raised."""
    started = clock()
    attempt, last = 0, ""
    while True:
        attempt += 1
        try:
            return fn()
        except Exception as exc:
            why = classify(exc)
            if why is None:
                raise
            last = why
            retry = idempotent or never_sent(exc)
            wait = policy.delay(attempt)
            if not retry or attempt >= policy.attempts or clock() + wait - started > policy.deadline_s:
                if not retry:
                    hint = ("it was not repeated because it is not idempotent and may have taken effect: "
                            f"check before repeating it; {hint}")
                failure = ServiceUnavailable(system, endpoint, last, hint, attempts=attempt,
                                             elapsed_s=clock() - started)
                if error is not None:
                    raise error(str(failure)) from exc
                raise failure from exc
            sleep(wait)


class RetryTransport(httpx.BaseTransport):
    """An httpx transport that applies a `RetryPolicy` to every request of a client: idempotent
    methods on any transient fault or 5xx/429, others only when never sent, unless the request
    carries `extensions={"dw_idempotent": True}` (e.g. a trigger with a client-chosen run id)."""

    def __init__(self, system: str, hint: str, *, policy: RetryPolicy = DEFAULT_POLICY,
                 inner: httpx.BaseTransport | None = None, sleep: Callable[[float], None] = time.sleep):
        self.system, self.hint, self.policy, self._sleep = system, hint, policy, sleep
        self._inner = inner or httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        idempotent = request.method in _IDEMPOTENT_METHODS or bool(request.extensions.get("dw_idempotent"))

        def attempt() -> httpx.Response:
            response = self._inner.handle_request(request)
            if response.status_code in RETRY_STATUSES and idempotent:
                response.read()
                response.close()
                raise Transient(f"answered {response.status_code}: {response.text[:200]}")
            return response

        endpoint = f"{request.method} {request.url.copy_with(query=None)}"
        return call(attempt, system=self.system, endpoint=endpoint, hint=self.hint, policy=self.policy,
                    idempotent=idempotent, sleep=self._sleep)

    def close(self) -> None:
        self._inner.close()
