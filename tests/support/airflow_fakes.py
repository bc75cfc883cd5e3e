"""A small in-memory Airflow REST API (v1 for Airflow 2, v2 for Airflow 3) with fault injection.

Only what the connector uses: version, JWT login / basic auth, DAGs, DAG runs (filters, order,
paging), one run, task instances, trigger and pause. Every request is recorded (with its raw,
still-encoded path), and `faults` lets a test make the next matching requests misbehave.
Named `airflow_fakes` rather than `fakes` so it cannot clash with another folder's helper module.
"""

from __future__ import annotations

import base64
import contextlib
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Self

import jwt
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

SECRET = "fake-airflow-secret-for-tests-only-0123456789"


def ts(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


@dataclass
class Fault:
    """Answer the next `times` requests whose `METHOD path?query` matches `pattern` with `status`/`body`."""

    pattern: str
    status: int = 500
    body: str | None = None
    times: int = 1
    delay_s: float = 0.0
    expire_tokens: bool = False  # instead of answering, invalidate every issued token first
    passthrough: bool = False  # after the delay, answer as usual (a stall, not an error)


@dataclass
class FakeAirflow:
    major: int = 3
    username: str = "admin"
    password: str = "admin"
    max_page: int = 100
    token_ttl_s: int = 3600
    runs: list[dict[str, Any]] = field(default_factory=list)
    task_instances: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)
    dags: dict[str, dict[str, Any]] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    logins: int = 0
    rejected: int = 0  # requests answered 401 (or `stale_token_status`)
    # what a token the server no longer knows gets: real Airflow 3 answers 403 "Invalid JWT token"
    # after a restart with a new JWT secret; 401 is what a proxy or an older version may send
    stale_token_status: int = 401
    # called with each run a trigger created: a test may finish it and start the runs it feeds
    on_trigger: Callable[[dict[str, Any]], None] | None = None
    _tokens: set[str] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def api(self) -> str:
        return "v2" if self.major >= 3 else "v1"

    def add_dag(self, dag_id: str, *, paused: bool = False) -> None:
        self.dags[dag_id] = {"dag_id": dag_id, "is_paused": paused, "owners": ["airflow"],
                             "tags": [{"name": "demo"}]}

    def add_run(self, dag_id: str, run_id: str, state: str = "success", *, end: datetime | None = None,
                start: datetime | None = None, conf: dict | None = None,
                tasks: dict[str, str] | None = None) -> dict[str, Any]:
        self.dags.setdefault(dag_id, {"dag_id": dag_id, "is_paused": False, "owners": [], "tags": []})
        start = start or (end - timedelta(minutes=1) if end else datetime.now(UTC))
        run = {"dag_id": dag_id, "run_id": run_id, "state": state, "start": start, "end": end,
               "conf": conf or {}, "updated": end or start}
        self.runs.append(run)
        self.task_instances[(dag_id, run_id)] = [
            {"task_id": task_id, "state": task_state, "try_number": 1, "start_date": ts(start),
             "end_date": ts(end), "duration": (end - start).total_seconds() if end else None,
             "operator": "PythonOperator", "map_index": -1, "dag_id": dag_id, "dag_run_id": run_id}
            for task_id, task_state in (tasks or {}).items()]
        return run

    def finish(self, run: dict[str, Any], state: str, end: datetime) -> None:
        run.update(state=state, end=end, updated=end)

    def rotate_secret(self) -> None:
        """As after a restart with a new JWT secret: every token issued so far is refused."""
        with self._lock:
            self._tokens.clear()

    @property
    def writes(self) -> list[tuple[str, str]]:
        """(method, path) of every write to the REST API (a JWT login is not one)."""
        return [(r["method"], r["path"]) for r in self.requests
                if r["method"] in ("POST", "PATCH") and r["path"].startswith("/api/")]

    def request_count(self, pattern: str = ".*") -> int:
        return sum(1 for r in self.requests if re.search(pattern, f"{r['method']} {r['path']}"))

    def _payload(self, run: dict[str, Any]) -> dict[str, Any]:
        base = {"dag_id": run["dag_id"], "dag_run_id": run["run_id"], "state": run["state"],
                "start_date": ts(run["start"]), "end_date": ts(run["end"]), "conf": run["conf"],
                "run_type": "manual", "data_interval_start": None, "data_interval_end": None}
        if self.api == "v2":
            return {**base, "logical_date": None, "run_after": ts(run["start"]), "triggered_by": "rest_api"}
        return {**base, "execution_date": ts(run["start"]), "external_trigger": True}

    def handle(self, request: Request) -> Response:
        raw = request.environ.get("RAW_URI") or request.environ.get("REQUEST_URI") or request.full_path
        entry = {"method": request.method, "path": request.path, "raw": raw.split("?")[0],
                 "args": request.args, "json": request.get_json(silent=True),
                 "auth": request.headers.get("Authorization")}
        with self._lock:
            self.requests.append(entry)
            query = request.query_string.decode()
            fault = self._take_fault(f"{request.method} {request.path}" + (f"?{query}" if query else ""))
        if fault is not None:
            time.sleep(fault.delay_s)
            if fault.expire_tokens:
                self._tokens.clear()
            elif not fault.passthrough:
                return Response(fault.body if fault.body is not None else json.dumps({"detail": "boom"}),
                                status=fault.status, content_type="application/json")
        return self._route(request)

    def _take_fault(self, key: str) -> Fault | None:
        for fault in self.faults:
            if fault.times > 0 and re.search(fault.pattern, key):
                fault.times -= 1
                return fault
        return None

    def _route(self, request: Request) -> Response:
        path, method = request.path, request.method
        if method == "POST" and path == "/auth/token":
            return self._login(request)
        m = re.fullmatch(r"/api/(v1|v2)/(.*)", path)
        if not m or m.group(1) != self.api:
            return _json({"detail": "Not Found"}, 404)
        rest = m.group(2)
        if rest == "version":
            return _json({"version": "3.3.2" if self.major >= 3 else "2.11.0", "git_version": None})
        if not self._authorized(request):
            self.rejected += 1
            if self.major >= 3 and request.headers.get("Authorization", "").startswith("Bearer "):
                return _json({"detail": "Invalid JWT token"}, self.stale_token_status)
            return _json({"detail": "Not authenticated"}, 401)
        routes: list[tuple[str, str, Callable[..., Response]]] = [
            ("GET", r"dags", self._list_dags),
            ("PATCH", r"dags/([^/]+)", self._patch_dag),
            ("GET", r"dags/([^/]+)/dagRuns", self._list_runs),
            ("POST", r"dags/([^/]+)/dagRuns", self._trigger),
            ("GET", r"dags/([^/]+)/dagRuns/([^/]+)", self._get_run),
            ("GET", r"dags/([^/]+)/dagRuns/([^/]+)/taskInstances", self._list_tis),
        ]
        for route_method, pattern, handler in routes:
            hit = re.fullmatch(pattern, rest)
            if hit and route_method == method:
                return handler(request, *hit.groups())
        return _json({"detail": f"no route {method} {path}"}, 404)

    def _login(self, request: Request) -> Response:
        if self.major < 3:
            return _json({"detail": "Not Found"}, 404)
        body = request.get_json(silent=True) or {}
        if body.get("username") != self.username or body.get("password") != self.password:
            return _json({"detail": "Invalid credentials"}, 401)
        self.logins += 1
        token = jwt.encode({"sub": self.username, "n": self.logins,
                            "exp": int(time.time()) + self.token_ttl_s}, SECRET, algorithm="HS256")
        self._tokens.add(token)
        return _json({"access_token": token}, 201)

    def _authorized(self, request: Request) -> bool:
        header = request.headers.get("Authorization", "")
        if self.major >= 3:
            return header.startswith("Bearer ") and header[7:] in self._tokens
        expected = base64.b64encode(f"{self.username}:{self.password}".encode()).decode()
        return header == f"Basic {expected}"

    def _page(self, request: Request, items: list[Any], key: str) -> Response:
        limit = min(int(request.args.get("limit", 100)), self.max_page)
        offset = int(request.args.get("offset", 0))
        return _json({key: items[offset:offset + limit], "total_entries": len(items)})

    def _list_dags(self, request: Request) -> Response:
        return self._page(request, list(self.dags.values()), "dags")

    def _patch_dag(self, request: Request, dag_id: str) -> Response:
        if dag_id not in self.dags:
            return _json({"detail": f"Dag with id: {dag_id} was not found"}, 404)
        self.dags[dag_id]["is_paused"] = bool((request.get_json() or {})["is_paused"])
        return _json(self.dags[dag_id])

    def _list_runs(self, request: Request, dag_id: str) -> Response:
        runs = [r for r in self.runs if dag_id == "~" or r["dag_id"] == dag_id]
        if "end_date_gte" in request.args:
            since = datetime.fromisoformat(request.args["end_date_gte"])
            runs = [r for r in runs if r["end"] is not None and r["end"] >= since]
        if "updated_at_gte" in request.args:
            since = datetime.fromisoformat(request.args["updated_at_gte"])
            runs = [r for r in runs if r["updated"] >= since]
        if request.args.getlist("state"):
            runs = [r for r in runs if r["state"] in request.args.getlist("state")]
        order = request.args.get("order_by", "id")
        field_name = {"end_date": "end", "start_date": "start", "updated_at": "updated"}.get(order.lstrip("-"))
        if field_name:
            epoch = datetime.min.replace(tzinfo=UTC)
            runs = sorted(runs, key=lambda r: r[field_name] or epoch, reverse=order.startswith("-"))
        return self._page(request, [self._payload(r) for r in runs], "dag_runs")

    def _find(self, dag_id: str, run_id: str) -> dict[str, Any] | None:
        return next((r for r in self.runs if r["dag_id"] == dag_id and r["run_id"] == run_id), None)

    def _get_run(self, _request: Request, dag_id: str, run_id: str) -> Response:
        run = self._find(dag_id, run_id)
        return _json(self._payload(run)) if run else _json({"detail": "DagRun not found"}, 404)

    def _list_tis(self, request: Request, dag_id: str, run_id: str) -> Response:
        if self._find(dag_id, run_id) is None:
            return _json({"detail": "DagRun not found"}, 404)
        return self._page(request, self.task_instances[(dag_id, run_id)], "task_instances")

    def _trigger(self, request: Request, dag_id: str) -> Response:
        if dag_id not in self.dags:
            return _json({"detail": f"DAG with dag_id: '{dag_id}' not found"}, 404)
        body = request.get_json() or {}
        allowed = {"logical_date", "conf", "dag_run_id"} if self.api == "v2" else {"conf", "dag_run_id", "logical_date"}
        if set(body) - allowed or (self.api == "v2" and "logical_date" not in body):
            detail = [{"loc": ["body", k], "msg": "Extra inputs are not permitted"} for k in set(body) - allowed]
            return _json({"detail": detail or [{"loc": ["body", "logical_date"], "msg": "Field required"}]}, 422)
        now = datetime.now(UTC)
        run_id = body.get("dag_run_id") or f"manual__{now.isoformat()}"
        if self._find(dag_id, run_id) is not None:
            return _json({"detail": f"DAG Run with run_id: `{run_id}` already exists"}, 409)
        run = self.add_run(dag_id, run_id, "queued", start=now, conf=body.get("conf"))
        if self.on_trigger is not None:
            self.on_trigger(run)
        return _json(self._payload(run))


def _json(payload: Any, status: int = 200) -> Response:
    return Response(json.dumps(payload), status=status, content_type="application/json")


class FakeAirflowServer:
    """One threaded local server whose behaviour is whichever `FakeAirflow` was installed last.

    Starting and stopping a server costs ~0.5 s, so tests share one per module and swap the fake.
    """

    def __init__(self) -> None:
        self.fake = FakeAirflow()
        self._server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
        self._server.expect_request(re.compile(".*")).respond_with_handler(lambda r: self.fake.handle(r))

    @property
    def url(self) -> str:
        return self._server.url_for("").rstrip("/")

    def use(self, fake: FakeAirflow) -> tuple[FakeAirflow, str]:
        self.fake = fake
        return fake, self.url

    def __enter__(self) -> Self:
        self._server.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.clear()
        self._server.stop()


@contextlib.contextmanager
def serve(fake: FakeAirflow) -> Iterator[tuple[FakeAirflow, str]]:
    """Run `fake` on its own local server; yield it with its base url."""
    with FakeAirflowServer() as server:
        yield server.use(fake)
