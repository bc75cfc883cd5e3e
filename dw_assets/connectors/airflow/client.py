"""One `AirflowClient` per configured Airflow instance, over httpx.

Transport rules, in one place: every request has the instance's timeout; reads (and the idempotent
PATCH) are retried with `retry.call` (exponential backoff, `retries`, a total `deadline_s`) on 5xx,
timeouts and refused connections; a trigger
(POST, not idempotent) is retried only when the connection was never made, so a retry can never
start a second run, unless the caller chose the run id (`trigger_dag_run(run_id=...)`): then a
repeat is safe (Airflow answers 409 for the second) and it is retried like a read. 4xx answers raise the `AirflowError` subclass for their status at once.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any, Self
from urllib.parse import quote

import httpx

from dw_assets.config import AirflowInstanceConfig, Settings, resolve_env
from dw_assets.connectors import retry
from dw_assets.connectors.airflow import errors as E
from dw_assets.connectors.airflow.auth import auth_from_config, token_refused
from dw_assets.connectors.airflow.models import Dag, DagRun, TaskInstance, parse_items
from dw_assets.connectors.retry import RETRY_STATUSES as _RETRY_STATUSES
from dw_assets.connectors.retry import RetryPolicy, Transient
from dw_assets.core.secrets import redact_url

LOG_MAX_CHARS = 64_000  # of a task log kept for diagnosis: the tail, where the error is
_HINTS = {
    401: "check the credentials in airflow.instances[{name}].auth (Airflow 2 also needs "
         "AIRFLOW__API__AUTH_BACKENDS=airflow.api.auth.backend.basic_auth)",
    403: "the user is authenticated but lacks permission for this endpoint: give it a role that may "
         "(Viewer to read, Op or Admin to trigger or pause)",
    404: "check that the DAG / run exists on this instance (ids are case-sensitive; a new DAG appears "
         "only after the DAG processor has parsed its file)",
    409: "a DAG run with that id already exists: list the runs before triggering again",
}
# the audit log's `extra` is the request's JSON body (Airflow 3) or a repr of its fields (Airflow 2)
_PAUSED_TRUE = re.compile(r"""['"]?is_paused['"]?\s*[:=]\s*['"]?true""", re.IGNORECASE)
_TOKEN_HINT = ("Airflow refused the token even after a fresh login: check that every Airflow API server "
               "of {name} shares one [api_auth] jwt_secret, and that its clock is right")
_DEFAULT_HINT = "Airflow rejected the request as invalid: check the DAG id, conf and parameters"


def _classify(exc: BaseException) -> str | None:
    """Transient faults of one request: what `retry.call` may repeat."""
    if isinstance(exc, E.ServerBusy):  # a 5xx from the token endpoint inside the auth flow
        return str(exc)
    if isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout):
        return f"cannot connect ({type(exc).__name__}: {exc})"
    return retry.transient_error(exc)


def _segment(value: str) -> str:
    """Quote one path segment: run ids hold `+` and `:`, which must reach Airflow encoded."""
    return quote(value, safe="~")


def _when(value: datetime) -> str:
    if value.tzinfo is None:
        raise ValueError(f"time filter {value!r} has no timezone: pass an aware datetime (UTC)")
    return value.astimezone(UTC).isoformat()


def _detail(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return response.text[:200]
    detail = body.get("detail", body) if isinstance(body, dict) else body
    if isinstance(detail, list):  # FastAPI validation errors: [{loc, msg, type}, ...]
        return "; ".join(f"{'.'.join(map(str, d.get('loc', [])))}: {d.get('msg')}" if isinstance(d, dict)
                         else str(d) for d in detail)
    return str(detail)[:300]


class AirflowClient:
    """Reads runs and task instances of one Airflow; triggers and pauses unless pinned read-only."""

    def __init__(self, config: AirflowInstanceConfig, *, auth: httpx.Auth | None = None,
                 transport: httpx.BaseTransport | None = None, backoff_s: float = 0.5,
                 max_backoff_s: float = 8.0, page_size: int = 100):
        self.config = config
        self.name = config.name
        self.base_url = resolve_env(config.url, what=f"airflow.instances[{config.name}].url").rstrip("/")
        self.display_url = redact_url(self.base_url)  # what messages, links and drafts show (no password)
        self.auth = auth if auth is not None else auth_from_config(config, self.base_url)
        self.backoff_s, self.max_backoff_s, self.page_size = backoff_s, max_backoff_s, page_size
        self.policy = RetryPolicy(attempts=max(1, config.retries + 1), backoff_s=backoff_s,
                                  max_backoff_s=max_backoff_s, deadline_s=config.deadline_s)
        self.requests_sent = 0
        self._http = httpx.Client(base_url=self.base_url, auth=self.auth, timeout=config.timeout_s,
                                  transport=transport, headers={"Accept": "application/json"},
                                  event_hooks={"request": [self._count]})
        self._api: str | None = None if config.api_version == "auto" else config.api_version
        self._airflow_version: str | None = None

    def _count(self, _request: httpx.Request) -> None:
        self.requests_sent += 1

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _send(self, method: str, path: str, *, idempotent: bool = True, **kwargs: Any) -> httpx.Response:
        def attempt() -> httpx.Response:
            response = self._http.request(method, path, **kwargs)
            if response.status_code in _RETRY_STATUSES:
                raise Transient(f"answered {response.status_code}: {_detail(response)}")
            return response

        return retry.call(
            attempt, system=f"airflow instance {self.name!r}", endpoint=f"{method} {path}", policy=self.policy,
            idempotent=idempotent, classify=_classify, error=E.AirflowUnavailableError,
            hint=f"check that Airflow is up at {self.display_url} (timeout {self.config.timeout_s}s, retries "
                 f"{self.config.retries}, deadline {self.config.deadline_s:g}s); the next poll tries again")

    def _raise_for_status(self, response: httpx.Response, method: str, path: str) -> None:
        status = response.status_code
        if status < 400:
            return
        kind = {401: E.AirflowAuthError, 403: E.AirflowForbiddenError, 404: E.AirflowNotFoundError,
                409: E.AirflowConflictError}.get(status, E.AirflowRequestError)
        hint = _HINTS.get(status, _DEFAULT_HINT)
        if status == 403 and token_refused(response):
            hint = _TOKEN_HINT
        hint = hint.format(name=self.name)
        raise kind(f"airflow instance {self.name!r}: {method} {path} answered {status} "
                   f"({_detail(response)}): {hint}")

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self._send(method, path, **kwargs)
        self._raise_for_status(response, method, path)
        try:
            return response.json()
        except ValueError as exc:
            raise E.AirflowResponseError(
                f"airflow instance {self.name!r}: {method} {path} answered {response.status_code} with a body "
                f"that is not JSON ({response.text[:120]!r}): is the url pointing at the Airflow API?") from exc

    def _probe(self) -> None:
        for api in ("v2", "v1") if self._api is None else (self._api,):
            path = f"/api/{api}/version"
            response = self._send("GET", path, auth=None)  # public on stock Airflow
            if response.status_code in (401, 403):  # a proxy or managed Airflow guards it
                response = self._send("GET", path)
            if response.status_code == 404:
                continue
            self._raise_for_status(response, "GET", path)
            try:
                self._airflow_version = str(response.json()["version"])
            except (ValueError, KeyError, TypeError) as exc:
                raise E.AirflowResponseError(
                    f"airflow instance {self.name!r}: GET {path} did not return Airflow's version JSON: "
                    f"check that {self.display_url} is the Airflow webserver / API server root") from exc
            self._api = api
            return
        raise E.AirflowNotFoundError(
            f"airflow instance {self.name!r}: neither /api/v2/version nor /api/v1/version exists at "
            f"{self.display_url}: set airflow.instances[{self.name}].url to the Airflow root (no /api suffix)")

    @property
    def api_version(self) -> str:
        """`v2` (Airflow 3) or `v1` (Airflow 2), probed once and cached."""
        if self._api is None:
            self._probe()
        assert self._api is not None
        return self._api

    @property
    def airflow_version(self) -> str | None:
        if self._airflow_version is None:
            self._probe()
        return self._airflow_version

    def _path(self, *segments: str) -> str:
        return f"/api/{self.api_version}/" + "/".join(_segment(s) for s in segments)

    def _paged(self, path: str, key: str, params: dict[str, Any]) -> Iterator[dict[str, Any]]:
        offset = 0
        while True:
            page = self._json("GET", path, params={**params, "limit": self.page_size, "offset": offset})
            items = page.get(key) if isinstance(page, dict) else None
            if not isinstance(items, list):
                raise E.AirflowResponseError(
                    f"airflow instance {self.name!r}: GET {path} (offset {offset}) has no {key!r} list: "
                    "is the url pointing at the Airflow API?")
            yield from items
            offset += len(items)
            total = page.get("total_entries")
            # A server may cap `limit` below ours, so a short page alone does not mean the end.
            if not items or (isinstance(total, int) and offset >= total):
                return

    def list_dags(self) -> list[Dag]:
        path = self._path("dags")
        return parse_items(Dag, list(self._paged(path, "dags", {})), f"GET {path}")

    def iter_dag_runs(self, dag_id: str = "~", *, updated_since: datetime | None = None,
                      end_date_since: datetime | None = None, states: Iterable[str] | None = None,
                      order_by: str = "end_date") -> Iterator[DagRun]:
        """Runs of one DAG (or all: `~`) matching the filters, page by page, to the end."""
        params: dict[str, Any] = {"order_by": order_by}
        if updated_since is not None:
            params["updated_at_gte"] = _when(updated_since)
        if end_date_since is not None:
            params["end_date_gte"] = _when(end_date_since)
        if states:
            params["state"] = list(states)
        path = self._path("dags", dag_id, "dagRuns")
        for item in self._paged(path, "dag_runs", params):
            yield from parse_items(DagRun, [item], f"GET {path}")

    def list_dag_runs(self, dag_id: str = "~", **filters: Any) -> list[DagRun]:
        return list(self.iter_dag_runs(dag_id, **filters))

    def get_dag_run(self, dag_id: str, run_id: str) -> DagRun:
        path = self._path("dags", dag_id, "dagRuns", run_id)
        return parse_items(DagRun, [self._json("GET", path)], f"GET {path}")[0]

    def list_task_instances(self, dag_id: str, run_id: str) -> list[TaskInstance]:
        path = self._path("dags", dag_id, "dagRuns", run_id, "taskInstances")
        return parse_items(TaskInstance, list(self._paged(path, "task_instances", {})), f"GET {path}")

    def task_log(self, dag_id: str, run_id: str, task_id: str, try_number: int, *, map_index: int = -1,
                 max_chars: int = LOG_MAX_CHARS) -> str:
        """The log of one try of a task instance as text, its last `max_chars` characters (errors sit at
        the end). Airflow 3 answers structured lines (`event`, `level`, `error_detail`), Airflow 2 one
        string; both come back as plain lines. Read-only."""
        if try_number < 1:
            raise E.AirflowRequestError(f"airflow instance {self.name!r}: try_number must be >= 1 (got {try_number}) "
                                        f"for the log of {dag_id}.{task_id} in {run_id}")
        path = self._path("dags", dag_id, "dagRuns", run_id, "taskInstances", task_id, "logs", str(try_number))
        params: dict[str, Any] = {"full_content": "true"}
        if map_index >= 0:
            params["map_index"] = map_index
        payload = self._json("GET", path, params=params, headers={"Accept": "application/json"})
        content = payload.get("content") if isinstance(payload, dict) else payload
        text = log_text(content)
        return text[-max_chars:] if max_chars and len(text) > max_chars else text

    def pause_event(self, dag_id: str, *, limit: int = 50) -> tuple[str | None, datetime | None] | None:
        """Who paused a DAG and when, from Airflow's audit log (`GET /eventLogs`): the newest entry of
        the DAG whose request set `is_paused` true (Airflow 3 `patch_dag`, Airflow 2 `api.patch_dag`
        or the UI's `paused`). None when the log holds no such entry (paused at creation, or the
        entries were pruned). Read-only."""
        path = self._path("eventLogs")
        page = self._json("GET", path, params={"dag_id": dag_id, "order_by": "-when", "limit": limit})
        for entry in (page.get("event_logs") if isinstance(page, dict) else None) or []:
            event, extra = str(entry.get("event") or ""), str(entry.get("extra") or "")
            if entry.get("dag_id") not in (None, dag_id) or not ("patch_dag" in event or "paused" in event):
                continue
            if _PAUSED_TRUE.search(extra):
                when = entry.get("when")
                return entry.get("owner") or None, datetime.fromisoformat(when) if isinstance(when, str) else None
        return None

    def ui_url(self, dag_id: str, run_id: str) -> str:
        """Where a person sees the run in Airflow's own UI."""
        if self.api_version == "v2":
            return f"{self.display_url}/dags/{_segment(dag_id)}/runs/{_segment(run_id)}"
        return f"{self.display_url}/dags/{_segment(dag_id)}/grid?dag_run_id={_segment(run_id)}"

    def _refuse_if_read_only(self, action: str) -> None:
        if self.config.read_only:
            raise E.ReadOnlyError(
                f"instance {self.name!r} is pinned read-only: refusing to {action} (nothing was sent); "
                f"set airflow.instances[{self.name}].read_only: false to allow writes")

    def trigger_request(self, dag_id: str, conf: dict[str, Any] | None = None) -> dict[str, Any]:
        """The exact request a trigger sends: what a drafted run hands to the DAG owner."""
        body: dict[str, Any] = {"conf": dict(conf or {})}
        if self.api_version == "v2":
            body = {"logical_date": None, **body}  # required by Airflow 3, null = "now"
        path = self._path("dags", dag_id, "dagRuns")
        return {"instance": self.name, "method": "POST", "url": self.display_url + path, "path": path, "json": body}

    def trigger_dag_run(self, dag_id: str, conf: dict[str, Any] | None = None, *,
                        run_id: str | None = None) -> DagRun:
        """Start a run. With a caller-chosen `run_id` the POST is repeatable, so it is retried like a
        read: a repeat whose first attempt took effect answers 409 and the run (same conf) is read back."""
        self._refuse_if_read_only(f"trigger DAG {dag_id!r}")
        request = self.trigger_request(dag_id, conf)
        body = {**request["json"], "dag_run_id": run_id} if run_id else request["json"]
        try:
            payload = self._json("POST", request["path"], json=body, idempotent=run_id is not None)
        except E.AirflowConflictError:
            if run_id is None:
                raise
            existing = self.get_dag_run(dag_id, run_id)
            if (existing.conf or {}) != dict(conf or {}):
                raise
            return existing
        return parse_items(DagRun, [payload], f"POST {request['path']}")[0]

    def set_paused(self, dag_id: str, paused: bool) -> Dag:
        self._refuse_if_read_only(f"{'pause' if paused else 'unpause'} DAG {dag_id!r}")
        path = self._path("dags", dag_id)
        payload = self._json("PATCH", path, params={"update_mask": "is_paused"}, json={"is_paused": paused})
        return parse_items(Dag, [payload], f"PATCH {path}")[0]


def log_text(content: Any) -> str:
    """Airflow's log payload as plain lines: a string (Airflow 2; older 2.x wrap it as a repr of
    `[(host, text)]`), or a list of structured messages / strings (Airflow 3)."""
    if content is None:
        return ""
    if isinstance(content, str):
        if content.startswith(("[('", '[("')):
            try:
                pairs = ast.literal_eval(content)
                return "\n".join(str(text) for _host, text in pairs)
            except (ValueError, SyntaxError, TypeError):
                return content
        return content
    lines = []
    for item in content if isinstance(content, list) else [content]:
        if not isinstance(item, dict):
            lines.append(str(item))
            continue
        head = " ".join(str(item[k]) for k in ("timestamp", "level") if item.get(k))
        event = item.get("event") or ""
        lines.append(f"{head} {event}".strip() if head else str(event))
        for detail in item.get("error_detail") or []:
            if isinstance(detail, dict):
                lines.append(f"{detail.get('exc_type', 'Error')}: {detail.get('exc_value', '')}")
    return "\n".join(lines)


def clients_from_settings(settings: Settings, **kwargs: Any) -> dict[str, AirflowClient]:
    """A client per configured instance; `${ENV}` references in url/auth are resolved now."""
    return {inst.name: AirflowClient(inst, **kwargs) for inst in settings.airflow.instances}
