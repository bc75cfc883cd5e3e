"""Pluggable authentication for the Airflow REST API, as `httpx.Auth` flows.

- `BasicAuth`: Airflow 2 with `AIRFLOW__API__AUTH_BACKENDS=airflow.api.auth.backend.basic_auth`.
- `StaticBearer`: a bearer token given as a string (Astro deployment token) or produced by a
  callable (a Google OAuth token for Composer, a custom provider for MWAA); a callable is asked
  again once when Airflow refuses the token (see `token_refused`), so short-lived tokens renew themselves.
- `JwtLogin`: Airflow 3 (`POST /auth/token` {username, password} -> 201 {access_token}); the
  token is renewed shortly before its `exp` claim (read without verifying: only the server can
  verify it, we just need the time) and once more if Airflow refuses it anyway: a 401, or the 403
  "Invalid JWT token" / "Token Expired" Airflow 3 answers after a restart with a new JWT secret.
- `NoAuth`: an open API (a local test instance, or auth done by a proxy in front of Airflow).

Secrets come from `${ENV}` references in the config and are resolved here, when the client is
built, never at import.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from typing import Any

import httpx
import jwt

from dw_assets.config import AirflowInstanceConfig, ConfigError, resolve_env
from dw_assets.connectors.airflow.errors import AirflowAuthError, ServerBusy

AUTH_TYPES = ("basic", "jwt", "bearer", "none")


def token_refused(response: httpx.Response) -> bool:
    """Airflow refused the token itself (not the user's permissions): 401, or a 403 whose detail
    names the token (Airflow 3 answers 403 "Invalid JWT token" for a token signed with an old secret
    and "Token Expired" for an expired one), so a fresh token is worth one more try."""
    if response.status_code == 401:
        return True
    if response.status_code != 403:
        return False
    try:
        response.read()
        text = response.text
    except httpx.HTTPError:
        return False
    return "token" in text.lower()


class NoAuth(httpx.Auth):
    """Send requests as they are."""


class BasicAuth(httpx.BasicAuth):
    """HTTP Basic (Airflow 2's basic_auth backend)."""


class StaticBearer(httpx.Auth):
    """`Authorization: Bearer <token>`; `token` may be a zero-argument callable returning one."""

    requires_response_body = True  # to tell a refused token (renew) from a missing permission

    def __init__(self, token: str | Callable[[], str]):
        self._provider = token if callable(token) else None
        self._token = None if callable(token) else token

    def _current(self, *, refresh: bool = False) -> str:
        if self._provider is not None and (refresh or self._token is None):
            self._token = self._provider()
        assert self._token is not None
        return self._token

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers["Authorization"] = f"Bearer {self._current()}"
        response = yield request
        if token_refused(response) and self._provider is not None:
            request.headers["Authorization"] = f"Bearer {self._current(refresh=True)}"
            yield request


class JwtLogin(httpx.Auth):
    """Airflow 3 simple/FAB auth manager login: trade username+password for a JWT, keep it fresh."""

    requires_response_body = True

    def __init__(self, base_url: str, username: str, password: str, *, instance: str = "airflow",
                 renew_margin_s: float = 60.0):
        self.token_url = base_url.rstrip("/") + "/auth/token"
        self.username = username
        self._password = password
        self.instance = instance
        self.renew_margin_s = renew_margin_s
        self._token: str | None = None
        self._expires_at: float | None = None
        self.logins = 0  # how many tokens were obtained (observable in tests and logs)

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        if self._token is None or self._expiring():
            self._store((yield self._token_request(request)))
        request.headers["Authorization"] = f"Bearer {self._token}"
        response = yield request
        if token_refused(response):
            self._store((yield self._token_request(request)))
            request.headers["Authorization"] = f"Bearer {self._token}"
            yield request

    def _expiring(self) -> bool:
        return self._expires_at is not None and time.time() >= self._expires_at - self.renew_margin_s

    def _token_request(self, for_request: httpx.Request) -> httpx.Request:
        # Requests built inside an auth flow do not inherit the client's timeout: carry it over.
        extensions = {k: v for k, v in for_request.extensions.items() if k == "timeout"}
        return httpx.Request("POST", self.token_url, json={"username": self.username, "password": self._password},
                             extensions=extensions)

    def _store(self, response: httpx.Response) -> None:
        status = response.status_code
        if status >= 500:
            raise ServerBusy(status, "POST /auth/token")
        if status == 404:
            raise AirflowAuthError(
                f"airflow instance {self.instance!r}: POST /auth/token answered 404: this is not Airflow 3 "
                "(no JWT login endpoint): use auth.type basic for Airflow 2, or bearer for a managed Airflow")
        if status not in (200, 201):
            raise AirflowAuthError(
                f"airflow instance {self.instance!r}: POST /auth/token refused user {self.username!r} "
                f"({status}): check airflow.instances[{self.instance}].auth.username/password (a standalone "
                "Airflow 3 writes its passwords to $AIRFLOW_HOME/simple_auth_manager_passwords.json.generated)")
        try:
            token = response.json()["access_token"]
        except (ValueError, KeyError, TypeError) as exc:
            raise AirflowAuthError(
                f"airflow instance {self.instance!r}: POST /auth/token answered {status} without an "
                "access_token: is the url pointing at the Airflow API server?") from exc
        self._token = token
        self._expires_at = _jwt_expiry(token)
        self.logins += 1


def _jwt_expiry(token: str) -> float | None:
    try:
        claims: dict[str, Any] = jwt.decode(token, options={"verify_signature": False})
    except jwt.PyJWTError:
        return None  # opaque token: renew only when Airflow answers 401
    exp = claims.get("exp")
    return float(exp) if isinstance(exp, int | float) else None


def auth_from_config(inst: AirflowInstanceConfig, base_url: str) -> httpx.Auth:
    """Build the auth flow for one configured instance, resolving `${ENV}` references now."""
    where = f"airflow.instances[{inst.name}].auth"
    kind = resolve_env(inst.auth.type, what=f"{where}.type").strip().lower()

    def need(field: str) -> str:
        raw = getattr(inst.auth, field)
        if not raw:
            raise ConfigError(f"{where}.{field} is required for auth type {kind!r}: add it (an ${{ENV}} reference is fine)")
        return resolve_env(raw, what=f"{where}.{field}")

    if kind == "basic":
        return BasicAuth(need("username"), need("password"))
    if kind == "jwt":
        return JwtLogin(base_url, need("username"), need("password"), instance=inst.name)
    if kind == "bearer":
        return StaticBearer(need("token"))
    if kind == "none":
        return NoAuth()
    raise ConfigError(f"{where}.type is {kind!r}: use one of {', '.join(AUTH_TYPES)}")
