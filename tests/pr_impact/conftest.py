"""A throwaway git repository holding a copy of the demo's dbt project, with one pull request on
top: `int_gl_by_entity` renames `line_count` to `entry_count` and adds `posting_days`."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pr_repo import MODEL, REPO_ROOT, git


@pytest.fixture(scope="session")
def pr_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("pr_repo")
    shutil.copytree(REPO_ROOT / "dbt_project", repo / "dbt_project", ignore=shutil.ignore_patterns("target", "logs"))
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "base: the close models")
    model = repo / MODEL
    before = model.read_text()
    after = before.replace("count(*) as line_count,", "count(*) as entry_count,\n    count(distinct posting_date) as posting_days,")
    assert after != before, "the fixture's edit no longer matches int_gl_by_entity.sql"
    model.write_text(after)
    git(repo, "commit", "-q", "-am", "rename line_count to entry_count, add posting_days")
    return repo
