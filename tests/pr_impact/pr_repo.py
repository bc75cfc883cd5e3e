"""Git helpers for the pr-impact tests' throwaway repositories."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
MODEL = "dbt_project/models/intermediate/int_gl_by_entity.sql"
_GIT_ENV = {"GIT_AUTHOR_NAME": "pr author", "GIT_AUTHOR_EMAIL": "author@example.com",
            "GIT_COMMITTER_NAME": "pr author", "GIT_COMMITTER_EMAIL": "author@example.com"}


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], env={**os.environ, **_GIT_ENV}, capture_output=True,
                          text=True, check=True, timeout=60)
    return done.stdout
