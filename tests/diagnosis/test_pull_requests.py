"""Opt-in pull requests for verified fixes: a throwaway owner repo, a bare repo as the host's git
remote, and a fake GitHub / Gitea REST API on 127.0.0.1 (pytest-httpserver)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from dw_assets.config import DomainConfig, GitHostConfig, Settings
from dw_assets.connectors.git import GitRepo
from dw_assets.connectors.git_host import branch_name
from dw_assets.core.blast_radius import BlastEntry
from dw_assets.core.fixes import FileEdit, ProposedFix, unified_diff
from dw_assets.diagnosis.propose import open_fix_pull_requests
from tests.support.settings import build_settings

TOKEN = "s3cret-token-value"
INCIDENT = "INC-20261001-0007"
OWNER_REPO = "acme/dags"
BEFORE = '''from airflow.sensors.filesystem import FileSensor

wait = FileSensor(task_id="wait", filepath="/landing/gl_{{ ds_nodash }}_*.csv")
'''
AFTER = BEFORE.replace("gl_{{ ds_nodash }}_*.csv", "gl_{{ ds_nodash }}.done")
README = "# dags\n"
READERS = [
    {"id": "analytics.fct_trial_balance", "kind": "model", "owner": "maria.chen", "depth": 2, "severity": "high"},
    {"id": "exposure:close_trial_balance", "kind": "dashboard", "owner": "maria.chen", "depth": 3,
     "severity": "critical"},
]


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=Maria Chen", "-c", "user.email=maria@example.com", *args],
                          cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout


@pytest.fixture
def owner(tmp_path: Path) -> Path:
    root = tmp_path / "owner"
    (root / "dags").mkdir(parents=True)
    (root / "dags" / "gl_landing.py").write_text(BEFORE)
    (root / "README.md").write_text(README)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "gl_landing DAG")
    return root


@pytest.fixture
def remote(tmp_path: Path, owner: Path) -> Path:
    bare = tmp_path / "host" / "dags.git"
    bare.parent.mkdir()
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    git(owner, "push", "-q", str(bare), "main")
    return bare


@pytest.fixture
def server() -> Iterator[HTTPServer]:
    srv = HTTPServer(host="127.0.0.1", port=0)
    srv.start()
    try:
        yield srv
    finally:
        srv.clear()
        if srv.is_running():
            srv.stop()


@pytest.fixture
def token_env(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("DW_TEST_PR_TOKEN", TOKEN)
    return "${DW_TEST_PR_TOKEN}"


def make_fix(owner: Path) -> ProposedFix:
    diff = unified_diff([FileEdit("dags/gl_landing.py", BEFORE, AFTER)])
    check = GitRepo(owner).apply_check(diff)
    return ProposedFix("split_export_early_release", "Make gl_landing's sensor wait for the export's done-marker",
                       "The sensor releases on the first part; the marker is written after the last part.",
                       kind="diff", repo=str(owner), paths=["dags/gl_landing.py"], diff=diff, verified=check.ok,
                       check_output=check.output, target_asset="finance.bronze.gl_entries",
                       blast_radius=[BlastEntry.from_dict(r) for r in READERS])


def settings_for(owner: Path, host: GitHostConfig | None) -> Settings:
    return build_settings(domains=[DomainConfig(name="finance", datasets=["finance.*"], repo=str(owner), git_host=host,
                                                autonomy="L2")])


def github(server: HTTPServer, remote: Path, token: str) -> GitHostConfig:
    return GitHostConfig(type="github", api_url=server.url_for("").rstrip("/"), repo=OWNER_REPO, token=token,
                         remote=str(remote))


class FakeHost:
    """Records every request; answers like the host: repo lookup, PR create (201 or 'exists'), PR list."""

    def __init__(self, server: HTTPServer, *, prefix: str = "", create_status: int = 201):
        self.server, self.prefix, self.create_status, self.requests = server, prefix, create_status, []
        self.pr = {"number": 17, "html_url": f"https://git.example/{OWNER_REPO}/pull/17"}
        base = f"{prefix}/repos/{OWNER_REPO}"
        server.expect_request(base, method="GET").respond_with_handler(self.repo)
        server.expect_request(f"{base}/pulls", method="POST").respond_with_handler(self.create)
        server.expect_request(f"{base}/pulls", method="GET").respond_with_handler(self.listing)
        server.expect_request(f"{base}/pulls/main/{branch_name(INCIDENT, make_fix_diff())}",
                              method="GET").respond_with_handler(self.by_head)

    def _record(self, request: Request) -> None:
        self.requests.append((request.method, request.path, dict(request.headers), request.args.to_dict(),
                              request.get_data(as_text=True)))

    def repo(self, request: Request) -> Response:
        self._record(request)
        return Response(json.dumps({"full_name": OWNER_REPO, "permissions": {"push": True}}),
                        content_type="application/json")

    def create(self, request: Request) -> Response:
        self._record(request)
        if self.create_status == 201:
            return Response(json.dumps({**self.pr, "state": "open"}), status=201, content_type="application/json")
        message = ({"message": "Validation Failed", "errors": [{"resource": "PullRequest", "code": "custom",
                                                                 "message": "A pull request already exists for "
                                                                            f"acme:{json.loads(request.data)['head']}."}]}
                   if self.create_status == 422 else {"message": "pull request already exists for these targets"})
        return Response(json.dumps(message), status=self.create_status, content_type="application/json")

    def listing(self, request: Request) -> Response:
        self._record(request)
        return Response(json.dumps([{**self.pr, "head": {"ref": request.args["head"].split(":", 1)[1]}}]),
                        content_type="application/json")

    def by_head(self, request: Request) -> Response:
        self._record(request)
        return Response(json.dumps(self.pr), content_type="application/json")

    def calls(self, method: str) -> list[tuple[Any, ...]]:
        return [r for r in self.requests if r[0] == method]


def make_fix_diff() -> str:
    return unified_diff([FileEdit("dags/gl_landing.py", BEFORE, AFTER)])


def snapshot(repo: Path) -> tuple[str, str, str, str]:
    return (git(repo, "rev-parse", "HEAD"), git(repo, "status", "--porcelain", "--ignored"),
            git(repo, "for-each-ref"), (repo / "dags" / "gl_landing.py").read_text())


def remote_heads(remote: Path) -> dict[str, str]:
    out = git(remote, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads")
    return dict(line.split(" ", 1) for line in out.splitlines())


def assert_branch_holds_exactly_the_fix(remote: Path, branch: str) -> None:
    base = git(remote, "rev-parse", "refs/heads/main").strip()
    assert git(remote, "rev-parse", f"{branch}^").strip() == base
    assert git(remote, "diff", "--name-only", "main", branch).split() == ["dags/gl_landing.py"]
    assert git(remote, "show", f"{branch}:dags/gl_landing.py") == AFTER
    assert git(remote, "show", f"{branch}:README.md") == README
    author = git(remote, "log", "-1", "--format=%an <%ae>|%cn <%ce>", branch).strip()
    assert author == "Data Workers <data-workers@localhost>|Data Workers <data-workers@localhost>"
    message = git(remote, "log", "-1", "--format=%B", branch)
    assert INCIDENT in message and "split_export_early_release" in message
    assert "Blast radius: 2 downstream of finance.bronze.gl_entries" in message and "critical" in message


def test_github_pull_request_from_a_clone_leaves_the_working_copy_alone(owner, remote, server, token_env):
    fake = FakeHost(server)
    fix = make_fix(owner)
    before = snapshot(owner)
    open_fix_pull_requests(settings_for(owner, github(server, remote, token_env)), [fix], INCIDENT)

    branch = branch_name(INCIDENT, fix.diff)
    assert fix.pull_request_error is None
    assert fix.pull_request == {"url": fake.pr["html_url"], "number": 17, "branch": branch}
    assert branch.startswith(f"data-workers/{INCIDENT}-")
    assert_branch_holds_exactly_the_fix(remote, branch)
    assert snapshot(owner) == before
    (_, path, headers, _, body), = fake.calls("POST")
    assert path == f"/repos/{OWNER_REPO}/pulls" and headers["Authorization"] == f"Bearer {TOKEN}"
    payload = json.loads(body)
    assert set(payload) == {"title", "head", "base", "body"}
    assert payload["head"] == branch and payload["base"] == "main" and INCIDENT in payload["title"]
    text = payload["body"]
    assert fix.rationale in text and INCIDENT in text
    for reader in READERS:
        assert f"| `{reader['id']}` | {reader['kind']} | {reader['owner']} | {reader['severity']} |" in text
    assert "git apply --check" in text and "Checking patch dags/gl_landing.py" in text
    assert TOKEN not in json.dumps(fix.to_dict())


def test_the_same_fix_again_returns_the_open_pull_request(owner, remote, server, token_env):
    fake = FakeHost(server)
    settings = settings_for(owner, github(server, remote, token_env))
    first = make_fix(owner)
    open_fix_pull_requests(settings, [first], INCIDENT)
    pushed = remote_heads(remote)

    fake.create_status = 422
    second = make_fix(owner)
    open_fix_pull_requests(settings, [second], INCIDENT)
    assert second.pull_request_error is None
    assert second.pull_request == first.pull_request
    assert remote_heads(remote) == pushed  # the branch was not pushed again
    (_, _, headers, query, _), = fake.calls("GET")[-1:]
    assert query == {"head": f"acme:{first.pull_request['branch']}", "base": "main", "state": "open"}
    assert headers["Authorization"] == f"Bearer {TOKEN}"


def test_without_git_host_nothing_is_pushed_or_sent(owner, remote, server):
    fake = FakeHost(server)
    fix = make_fix(owner)
    before = (snapshot(owner), remote_heads(remote))
    open_fix_pull_requests(settings_for(owner, None), [fix], INCIDENT)
    assert fix.pull_request is None and fix.pull_request_error is None
    assert (snapshot(owner), remote_heads(remote)) == before
    assert fake.requests == [] and list(remote_heads(remote)) == ["refs/heads/main"]


def test_a_refused_token_names_the_host_and_endpoint_and_pushes_nothing(owner, remote, server, token_env):
    server.expect_request(f"/repos/{OWNER_REPO}").respond_with_json({"message": "Bad credentials"}, status=401)
    host = github(server, remote, token_env)
    fix = make_fix(owner)
    open_fix_pull_requests(settings_for(owner, host), [fix], INCIDENT)
    error = fix.pull_request_error or ""
    assert fix.pull_request is None
    assert f"github at {host.api_url}" in error and f"GET {host.api_url}/repos/{OWNER_REPO} answered 401" in error
    assert "Bad credentials" in error and "domains[finance].git_host.token" in error
    assert TOKEN not in error
    assert list(remote_heads(remote)) == ["refs/heads/main"]


def test_an_unset_token_variable_is_named_and_nothing_is_sent(owner, remote, server, monkeypatch):
    monkeypatch.delenv("DW_TEST_PR_TOKEN_UNSET", raising=False)
    fake = FakeHost(server)
    fix = make_fix(owner)
    open_fix_pull_requests(settings_for(owner, github(server, remote, "${DW_TEST_PR_TOKEN_UNSET}")), [fix], INCIDENT)
    assert "DW_TEST_PR_TOKEN_UNSET" in (fix.pull_request_error or "") and fake.requests == []


def test_a_fix_that_no_longer_applies_to_the_remote_base_is_reported(owner, remote, server, token_env, tmp_path):
    FakeHost(server)
    other = tmp_path / "colleague"
    git(tmp_path, "clone", "-q", str(remote), str(other))
    (other / "dags" / "gl_landing.py").write_text(BEFORE.replace("FileSensor(", "FileSensor(mode='reschedule', "))
    git(other, "commit", "-q", "-am", "reschedule")
    git(other, "push", "-q", "origin", "main")
    fix = make_fix(owner)
    open_fix_pull_requests(settings_for(owner, github(server, remote, token_env)), [fix], INCIDENT)
    assert fix.pull_request is None and "does not apply to main" in (fix.pull_request_error or "")
    assert list(remote_heads(remote)) == ["refs/heads/main"]


def test_unverified_fixes_and_the_org_wide_stop_open_nothing(owner, remote, server, token_env):
    fake = FakeHost(server)
    host = github(server, remote, token_env)
    unverified = make_fix(owner)
    unverified.verified = False
    open_fix_pull_requests(settings_for(owner, host), [unverified], INCIDENT)
    assert "does not apply" in (unverified.pull_request_error or "")
    stopped = make_fix(owner)
    settings = settings_for(owner, host).model_copy(update={"governance": Settings().governance.model_copy(
        update={"stop": True})})
    open_fix_pull_requests(settings, [stopped], INCIDENT)
    assert "stop" in (stopped.pull_request_error or "") and stopped.pull_request is None
    assert fake.requests == [] and list(remote_heads(remote)) == ["refs/heads/main"]


def test_an_observe_only_domain_opens_no_pull_request(owner, remote, server, token_env):
    fake = FakeHost(server)
    settings = settings_for(owner, github(server, remote, token_env))
    observe = settings.model_copy(update={"domains": [settings.domains[0].model_copy(update={"autonomy": "L1"})]})
    fix = make_fix(owner)
    open_fix_pull_requests(observe, [fix], INCIDENT)
    assert "L1" in (fix.pull_request_error or "") and fix.pull_request is None
    assert fake.requests == [] and list(remote_heads(remote)) == ["refs/heads/main"]


def test_gitea_pull_request_and_its_409_for_an_open_one(owner, remote, server, token_env):
    fake = FakeHost(server, prefix="/api/v1")
    host = GitHostConfig(type="gitea", api_url=server.url_for("/api/v1"), repo=OWNER_REPO, token=token_env,
                         remote=str(remote))
    settings = settings_for(owner, host)
    fix = make_fix(owner)
    before = snapshot(owner)
    open_fix_pull_requests(settings, [fix], INCIDENT)

    branch = branch_name(INCIDENT, fix.diff)
    assert fix.pull_request == {"url": fake.pr["html_url"], "number": 17, "branch": branch}
    assert_branch_holds_exactly_the_fix(remote, branch)
    assert snapshot(owner) == before
    (_, path, headers, _, body), = fake.calls("POST")
    assert path == f"/api/v1/repos/{OWNER_REPO}/pulls" and headers["Authorization"] == f"token {TOKEN}"
    assert json.loads(body)["head"] == branch

    fake.create_status = 409
    again = make_fix(owner)
    open_fix_pull_requests(settings, [again], INCIDENT)
    assert again.pull_request == fix.pull_request
    assert fake.calls("GET")[-1][1] == f"/api/v1/repos/{OWNER_REPO}/pulls/main/{branch}"
