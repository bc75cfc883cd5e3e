"""Git, read-only: the owner's working copy that fixes are proposed against.

Reads: the repository root, recent commits touching given paths (`git log`), the lines a commit
changed in those paths (`git show`), tracked files (`git ls-files`), and whether a diff applies
(`git apply --check`, which reads the work tree and writes nothing).
Writes: nothing. Read-only is enforced before any process starts: `_git` runs only the
subcommands in `_READ_ONLY` (and `apply` only with `--check`); `commit`, `push`, `merge` and any
other subcommand raise `GitWriteRefused`.
Pull requests are not opened from here: `dw_assets.connectors.git_host` (opt-in, `domains[].git_host`)
works in a temporary clone and raises `PullRequestsDisabled` when the domain has no host (the default).
Errors: `GitError` (not a repository, git failed, a bad argument), `GitWriteRefused`,
`PullRequestsDisabled`.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from dw_assets.core.evidence import Commit

_READ_ONLY = frozenset({"rev-parse", "log", "show", "ls-files", "apply", "diff", "status", "cat-file"})
_FIELD, _RECORD = "\x1f", "\x1e"
_TIMEOUT_S = 30


class GitError(RuntimeError):
    """A git problem; the message names the repository and the command."""


class GitWriteRefused(GitError):
    pass


class PullRequestsDisabled(GitError):
    pass


@dataclass(frozen=True)
class ApplyCheck:
    ok: bool
    output: str


class GitRepo:
    """A read-only handle on one working copy."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if not self.path.is_dir():
            raise GitError(f"git repository {self.path} does not exist")
        self.root = Path(self._git("rev-parse", "--show-toplevel").strip())

    def _git(self, *args: str, stdin: str | None = None) -> str:
        done = self._run(*args, stdin=stdin)
        if done.returncode != 0:
            raise GitError(f"git {' '.join(args[:3])} in {self.path} failed: {done.stderr.strip()[:500]}")
        return done.stdout

    def _run(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        if not args or args[0] not in _READ_ONLY or (args[0] == "apply" and "--check" not in args):
            raise GitWriteRefused(f"refused: `git {' '.join(args[:2])}` is not a read-only command "
                                  f"(Data Workers never commits, pushes or merges in {self.path})")
        env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"}
        try:
            return subprocess.run(["git", "-C", str(self.path), *args], check=False, input=stdin, capture_output=True,
                                  text=True, timeout=_TIMEOUT_S, env=env)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise GitError(f"git {args[0]} in {self.path} failed: {exc}") from exc

    def commit(self, *_args: object, **_kwargs: object) -> None:
        raise GitWriteRefused(f"refused: Data Workers never commits in {self.path}; the owner does")

    def push(self, *_args: object, **_kwargs: object) -> None:
        raise GitWriteRefused(f"refused: Data Workers never pushes from {self.path}")

    def relative(self, path: str | Path) -> str:
        """A path relative to the repository root, forward slashes (as diffs and `git log` want)."""
        p = Path(path)
        p = p.resolve() if p.is_absolute() else (self.root / p).resolve()
        try:
            return p.relative_to(self.root.resolve()).as_posix()
        except ValueError as exc:
            raise GitError(f"{path} is outside the repository {self.root}") from exc

    def recent_commits(self, paths: list[str], since: datetime, until: datetime | None = None,
                       max_count: int = 20, max_lines: int = 80) -> list[Commit]:
        """Commits touching `paths` (repo-relative) in the window, newest first, with changed lines."""
        if not paths:
            return []
        args = ["log", f"--max-count={max_count}", f"--since={since.isoformat()}",
                f"--format={_RECORD}%H{_FIELD}%an{_FIELD}%aI{_FIELD}%s", "--name-only"]
        if until:
            args.append(f"--until={until.isoformat()}")
        out = self._git(*args, "--", *paths)
        commits = []
        for record in filter(None, (r.strip("\n") for r in out.split(_RECORD))):
            header, _, names = record.partition("\n")
            sha, author, when, subject = header.split(_FIELD, 3)
            touched = tuple(n for n in names.splitlines() if n.strip())
            commits.append(Commit(str(self.root), sha, author, datetime.fromisoformat(when), subject, touched,
                                  self.changed_lines(sha, list(touched), max_lines)))
        return commits

    def changed_lines(self, sha: str, paths: list[str], max_lines: int = 80) -> tuple[str, ...]:
        out = self._git("show", "--format=", "--unified=0", sha, "--", *paths)
        lines = [ln[1:] for ln in out.splitlines()
                 if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]
        return tuple(lines[:max_lines])

    def read(self, path: str) -> str:
        return (self.root / path).read_text()

    def tracked(self, path: str) -> bool:
        return bool(self._git("ls-files", "--", path).strip())

    def apply_check(self, diff: str) -> ApplyCheck:
        """Would the diff apply to the work tree as it is? Reads only."""
        if not diff.strip():
            return ApplyCheck(False, "empty diff")
        done = self._run("apply", "--check", "--verbose", "-", stdin=diff)
        return ApplyCheck(done.returncode == 0, (done.stdout + done.stderr).strip()[:2000])


def find_repo(start: str | Path) -> GitRepo | None:
    """The working copy holding `start`, or None when it is not in one."""
    try:
        return GitRepo(start if Path(start).is_dir() else Path(start).parent)
    except GitError:
        return None
