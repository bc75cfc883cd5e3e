"""Pull requests for proposed fixes on a Git host (GitHub or Gitea): opt-in, off by default.

Reads: the owner's working copy, once, by `git clone --no-hardlinks --no-checkout` into a temporary
folder; the base branch of `git_host.remote` (`git fetch`, `git ls-remote`); the host's repository
(`GET {api_url}/repos/{owner}/{name}`: token and access checked before anything is pushed) and its
pull requests (`GET .../pulls...`) when one is already open for the branch.
Writes: one new branch `data-workers/<incident>-<diff hash>` on `git_host.remote` (never forced,
never the base, skipped when the branch is there already) and one pull request on the host
(`POST {api_url}/repos/{owner}/{name}/pulls`). Nothing is merged.
How the working copy stays untouched: it is only the source of the clone; the clone's `origin` is
removed before anything is written, every writing git command runs with `-C <clone>`, and the
commit is built with plumbing (`read-tree`, `apply --cached`, `commit-tree`) on the remote's base
branch, so no work tree is checked out and no hook runs. The temporary folder is deleted after.
Secrets: `git_host.token` (and any `${VAR}` in `remote`) is resolved with `resolve_env` here, when
used; it is sent only in the Authorization header and masked out of every message raised.
Errors: `PullRequestsDisabled` (the domain has no `git_host`), `PullRequestError` (git or the host
failed: names the host, the endpoint and what to fix), `ConfigError` (the token's variable unset).
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import httpx

from dw_assets.config import DomainConfig, GitHostConfig, resolve_env
from dw_assets.connectors.git import GitError, PullRequestsDisabled
from dw_assets.core.blast_radius import LEVELS, BlastEntry
from dw_assets.core.fixes import ProposedFix

AUTHOR = ("Data Workers", "data-workers@localhost")
_GIT_TIMEOUT_S = 120
_HTTP_TIMEOUT_S = 30
_MAX_READERS = 50


class PullRequestError(GitError):
    """Opening a pull request failed; the message says where and what to fix."""


def branch_name(incident_id: str, diff: str) -> str:
    """`data-workers/<incident>-<8 hex of the diff>`: the same fix for the same incident, same branch."""
    incident = re.sub(r"[^A-Za-z0-9._-]+", "-", incident_id).strip(".-") or "incident"
    return f"data-workers/{incident}-{hashlib.sha256(diff.encode()).hexdigest()[:8]}"


def open_pull_request(domain_cfg: DomainConfig, repo_path: str | Path, fix: ProposedFix, *,
                      incident_id: str) -> dict[str, Any]:
    """Push the fix as a branch on the remote and open (or find) its pull request:
    `{"url", "number", "branch"}`."""
    host = domain_cfg.git_host
    if host is None:
        raise PullRequestsDisabled(f"pull requests are off for domain {domain_cfg.name}: set "
                                   f"domains[{domain_cfg.name}].git_host to open them")
    if fix.kind != "diff" or not fix.diff:
        raise PullRequestError(f"only diff fixes become pull requests; {fix.title!r} is a {fix.kind}")
    what = f"domains[{domain_cfg.name}].git_host"
    token = resolve_env(host.token, what=f"{what}.token")
    remote = resolve_env(host.remote, what=f"{what}.remote")
    mask = _Mask([token, *_userinfo(remote)])
    branch = branch_name(incident_id, fix.diff)
    api = _HostApi(host, token, what, mask)
    api.check_access()  # a refused token or a wrong repo fails before any branch is pushed
    with tempfile.TemporaryDirectory(prefix="dw-pr-") as tmp:
        git = _CloneGit(Path(tmp) / "clone", remote, mask)
        check = git.push_fix(Path(repo_path), host.base_branch, branch, fix.diff, commit_message(fix, incident_id))
    return api.open(title=f"Data Workers: {fix.title} ({incident_id})", branch=branch,
                    body=pull_request_body(fix, incident_id, host.base_branch, check))


def commit_message(fix: ProposedFix, incident_id: str) -> str:
    readers = fix.blast_radius
    owners = sorted({r.owner for r in readers if r.owner})
    worst = _worst(readers)
    radius = (f"{len(readers)} downstream of {fix.target_asset or 'the changed asset'}"
              + (f", owners {', '.join(owners)}" if owners else "") + (f", worst severity {worst}" if worst else ""))
    return (f"{fix.title}\n\nIncident: {incident_id}\nCause: {fix.cause_kind}\nBlast radius: {radius}\n"
            f"Files: {', '.join(fix.paths)}\n\nProposed by Data Workers; review before merging.\n")


def pull_request_body(fix: ProposedFix, incident_id: str, base: str, check: str) -> str:
    lines = [f"Proposed by Data Workers for incident **{incident_id}** (cause `{fix.cause_kind}`).", "",
             "### Why", "", fix.rationale, "", f"### Blast radius of `{fix.target_asset or '?'}`", ""]
    if fix.blast_radius:
        lines += ["| affected | kind | owner | severity |", "|---|---|---|---|"]
        lines += [f"| `{r.id}` | {r.kind} | {r.owner or 'unowned'} | {r.severity or ''} |"
                  for r in fix.blast_radius[:_MAX_READERS]]
        if len(fix.blast_radius) > _MAX_READERS:
            lines.append(f"\n... and {len(fix.blast_radius) - _MAX_READERS} more")
    else:
        lines.append("No downstream readers known to the context graph.")
    lines += ["", f"### `git apply --check` against `{base}`", "", "```", check or "applies cleanly", "```", "",
              "Data Workers never merges: review, then merge or close."]
    return "\n".join(lines)


class _Mask:
    def __init__(self, secrets: list[str]):
        self.secrets = [s for s in secrets if s and len(s) >= 4]

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "***")
        return re.sub(r"://[^/@\s]+@", "://***@", text)


def _userinfo(url: str) -> list[str]:
    found = re.search(r"://([^/@\s]+)@", url)
    return [found.group(1), *found.group(1).split(":")] if found else []


def _worst(readers: list[BlastEntry]) -> str | None:
    ranked = [r.severity for r in readers if r.severity in LEVELS]
    return max(ranked, key=LEVELS.index) if ranked else None


class _CloneGit:
    """git in the temporary clone only; the working copy is just the clone's source."""

    def __init__(self, clone: Path, remote: str, mask: _Mask):
        self.clone, self.remote, self.mask = clone, remote, mask
        self.env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_AUTHOR_NAME": AUTHOR[0],
                    "GIT_AUTHOR_EMAIL": AUTHOR[1], "GIT_COMMITTER_NAME": AUTHOR[0], "GIT_COMMITTER_EMAIL": AUTHOR[1]}
        self.env.setdefault("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")

    def push_fix(self, source: Path, base: str, branch: str, diff: str, message: str) -> str:
        """The fix committed on the remote's `base` and pushed as `branch`; returns the check output."""
        self.run("clone", "--no-hardlinks", "--no-checkout", "--quiet", str(source), str(self.clone), here=False,
                 fix=f"{source} must be a git working copy")
        self.run("remote", "remove", "origin")  # no way back to the working copy
        self.run("fetch", "--quiet", "--no-tags", self.remote, f"refs/heads/{base}",
                 fix=f"check git_host.remote is reachable and has branch {base} (git_host.base_branch)")
        self.run("read-tree", "FETCH_HEAD")
        check = self.run("apply", "--cached", "--check", "--verbose", "-", stdin=diff,
                         fix=f"the fix does not apply to {base} on the remote: the owner's working copy differs "
                             f"from {base}; push or rebase it, then diagnose again")
        if self.run("ls-remote", "--heads", self.remote, f"refs/heads/{branch}").strip():
            return check.strip()  # pushed before: same incident and same diff hash, same change
        self.run("apply", "--cached", "-", stdin=diff)
        tree = self.run("write-tree").strip()
        sha = self.run("commit-tree", "--no-gpg-sign", tree, "-p", "FETCH_HEAD", "-F", "-", stdin=message).strip()
        self.run("push", "--no-verify", "--quiet", self.remote, f"{sha}:refs/heads/{branch}",
                 fix="check the push credentials of git_host.remote and that branch protection allows "
                     "data-workers/* branches")
        return check.strip()

    def run(self, *args: str, stdin: str | None = None, here: bool = True, fix: str = "") -> str:
        cmd = ["git", *(["-C", str(self.clone)] if here else []), *args]
        try:
            done = subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=False,
                                  timeout=_GIT_TIMEOUT_S, env=self.env)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise PullRequestError(self.mask(f"git {args[0]} for the pull request failed: {exc}")) from exc
        if done.returncode != 0:
            output = (done.stderr or done.stdout).strip()[:800]
            raise PullRequestError(self.mask(f"git {args[0]} (remote {self.remote}) failed: {output}"
                                             + (f"; {fix}" if fix else "")))
        return done.stdout + done.stderr


class _HostApi:
    """The host's pulls endpoint; GitHub and Gitea take the same fields, and differ in auth and in
    how they say a pull request for the branch is already open (GitHub 422, Gitea 409)."""

    def __init__(self, host: GitHostConfig, token: str, what: str, mask: _Mask):
        self.host, self.what, self.mask = host, what, mask
        self.endpoint = f"{host.api_url.rstrip('/')}/repos/{host.repo}/pulls"
        auth = f"Bearer {token}" if host.type == "github" else f"token {token}"
        accept = "application/vnd.github+json" if host.type == "github" else "application/json"
        self.headers = {"Authorization": auth, "Accept": accept, "User-Agent": "data-workers"}
        if host.type == "github":
            self.headers["X-GitHub-Api-Version"] = "2022-11-28"

    def check_access(self) -> None:
        url = self.endpoint.removesuffix("/pulls")
        resp = self._call("GET", url)
        if resp.status_code != 200:
            raise self._error("GET", url, resp)
        found = _json(resp)
        permissions = (found.get("permissions") if isinstance(found, dict) else None) or {}
        if permissions.get("push") is False:
            raise PullRequestError(f"{self.host.type} at {self.host.api_url}: GET {url}: the token may not push "
                                   f"to {self.host.repo}; give it write access (or pick the token of a writer)")

    def open(self, *, title: str, branch: str, body: str) -> dict[str, Any]:
        payload = {"title": title, "head": branch, "base": self.host.base_branch, "body": body}
        resp = self._call("POST", self.endpoint, json=payload)
        if resp.status_code == 201:
            return self._pr(_json(resp), branch)
        if resp.status_code in (409, 422) and "already exist" in resp.text.lower():
            existing = self._existing(branch)
            if existing:
                return existing
        raise self._error("POST", self.endpoint, resp)

    def _existing(self, branch: str) -> dict[str, Any] | None:
        if self.host.type == "github":
            owner = self.host.repo.split("/", 1)[0]
            url, params = self.endpoint, {"head": f"{owner}:{branch}", "base": self.host.base_branch, "state": "open"}
        else:
            url, params = f"{self.endpoint}/{self.host.base_branch}/{branch}", {}
        resp = self._call("GET", url, params=params)
        if resp.status_code == 404:
            return None
        if resp.status_code != 200:
            raise self._error("GET", url, resp)
        found = _json(resp)
        found = found[0] if isinstance(found, list) and found else found
        return self._pr(found, branch) if isinstance(found, dict) and found.get("number") else None

    def _call(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        try:
            return httpx.request(method, url, headers=self.headers, timeout=_HTTP_TIMEOUT_S, **kwargs)
        except httpx.HTTPError as exc:
            raise PullRequestError(self.mask(f"{self.host.type} at {self.host.api_url}: {method} {url} failed: "
                                             f"{exc}; check {self.what}.api_url")) from exc

    def _pr(self, data: Any, branch: str) -> dict[str, Any]:
        url = (data.get("html_url") or data.get("url")) if isinstance(data, dict) else None
        if not url or data.get("number") is None:
            raise PullRequestError(f"{self.host.type} at {self.host.api_url}: {self.endpoint} answered without "
                                   f"number/html_url; is {self.what}.api_url the API root?")
        return {"url": url, "number": int(data["number"]), "branch": branch}

    def _error(self, method: str, url: str, resp: httpx.Response) -> PullRequestError:
        hints = {
            401: f"the token was refused: check the variable {self.what}.token names holds a valid token",
            403: f"the token may not open pull requests on {self.host.repo}: give it pull-request write access",
            404: f"{self.host.repo} is not at {self.host.api_url} or the token cannot see it: check "
                 f"{self.what}.repo and {self.what}.api_url",
            409: "a conflicting pull request exists: close it or check the branch",
            422: f"check that {self.what}.base_branch exists and the branch was pushed to {self.host.repo}",
        }
        hint = hints.get(resp.status_code, "retry later; if it persists check the host's status")
        return PullRequestError(self.mask(f"{self.host.type} at {self.host.api_url}: {method} {url} answered "
                                          f"{resp.status_code}: {_message(resp)}; {hint}"))


def _json(resp: httpx.Response) -> Any:
    try:
        return resp.json()
    except ValueError:
        return None


def _message(resp: httpx.Response) -> str:
    try:
        data = resp.json()
    except ValueError:
        return resp.text.strip()[:300] or resp.reason_phrase
    if not isinstance(data, dict):
        return str(data)[:300]
    details = [e.get("message") for e in data.get("errors") or [] if isinstance(e, dict) and e.get("message")]
    return "; ".join(filter(None, [str(data.get("message") or ""), *details]))[:300] or resp.reason_phrase
