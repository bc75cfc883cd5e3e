"""`dw pr-impact` on a real git repository and the real dbt project (parsed with `dbt parse`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pr_repo import MODEL, git

pytestmark = pytest.mark.dbt

DW = str(Path(sys.executable).parent / "dw")


def pr_impact(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DW_CONFIG"}  # the demo estate's config and notes
    return subprocess.run([DW, "pr-impact", "--repo", str(repo), *args], env=env, capture_output=True, text=True,
                          timeout=600, check=False)


def test_markdown_comment_names_readers_owners_and_the_changed_column(pr_repo: Path, dw_home: Path) -> None:
    done = pr_impact(pr_repo, "--base", "HEAD~1", "--head", "HEAD")
    assert done.returncode == 0, done.stderr
    comment = done.stdout
    assert "`analytics.int_gl_by_entity` (model, owner maria.chen) | modified — **breaking**" in comment
    assert "renamed `line_count` → `entry_count`" in comment and "added `posting_days`" in comment
    assert "| low | fct_trial_balance (`analytics.fct_trial_balance`) | model | maria.chen | 1 | `line_count` |" \
        in comment
    assert "Close: Trial Balance (`exposure:close_trial_balance`) | dashboard | maria.chen" in comment
    assert "Close: Entity Variance (`exposure:close_entity_variance`) | dashboard | maria.chen" in comment
    assert "09:00 close review (`exposure:close_review_0900`) | reader | finance-controller" in comment
    assert "**Severity: CRITICAL**" in comment
    assert "- **maria.chen**:" in comment and "- **finance-controller**: `exposure:close_review_0900`" in comment


def test_json_report_is_stable(pr_repo: Path, dw_home: Path) -> None:
    done = pr_impact(pr_repo, "--base", "main~1", "--head", "main", "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert set(report) == {"base", "head", "repo", "dbt_project", "notes", "severity", "reader_count", "owners",
                           "changed_files", "assets", "unmapped_files"}
    assert report["changed_files"] == [{"path": MODEL, "status": "modified"}]
    assert report["dbt_project"] == "dbt_project" and report["unmapped_files"] == []
    (asset,) = report["assets"]
    assert set(asset) == {"unique_id", "name", "resource_type", "change", "files", "columns", "id", "owner",
                          "breaking", "severity", "severity_reason", "downstream"}
    assert asset["columns"] == {"added": ["posting_days"], "removed": [], "changed": [],
                                "renamed": [{"from": "line_count", "to": "entry_count"}]}
    downstream = {d["id"]: d for d in asset["downstream"]}
    assert set(downstream) == {"analytics.fct_trial_balance", "exposure:close_trial_balance",
                               "exposure:close_entity_variance", "exposure:close_review_0900"}
    assert downstream["analytics.fct_trial_balance"]["reads_columns"] == ["line_count"]
    assert set(downstream["exposure:close_review_0900"]) == {"id", "kind", "system", "name", "owner", "depth",
                                                             "severity", "path", "reads_columns"}
    assert report["owners"]["finance-controller"] == ["exposure:close_review_0900"]
    # the second run reuses the manifest the first parsed (same working tree)
    assert report["notes"] == []


def test_yaml_only_change_counts_the_entries_that_changed(pr_repo: Path, tmp_path: Path, dw_home: Path) -> None:
    clone = tmp_path / "clone"
    git(pr_repo, "worktree", "add", "-q", "-b", "doc-change", str(clone), "main")
    try:
        exposures = clone / "dbt_project" / "models" / "exposures.yml"
        exposures.write_text(exposures.read_text().replace("maturity: medium", "maturity: high"))
        (clone / "README.md").write_text("notes for reviewers\n")
        git(clone, "add", ".")
        git(clone, "commit", "-q", "-m", "close_entity_variance is now high maturity")
        done = pr_impact(clone, "--base", "HEAD~1", "--head", "HEAD", "--format", "json")
    finally:
        git(pr_repo, "worktree", "remove", "--force", str(clone))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [a["id"] for a in report["assets"]] == ["exposure:close_entity_variance"]
    assert report["assets"][0]["columns"] is None and report["assets"][0]["downstream"] == []
    assert report["unmapped_files"] == ["README.md"]


def test_bad_refs_and_repositories_are_named(pr_repo: Path, tmp_path: Path, dw_home: Path) -> None:
    bad_ref = pr_impact(pr_repo, "--base", "no-such-branch", "--head", "HEAD")
    assert bad_ref.returncode == 1 and "--base 'no-such-branch' is not a commit" in bad_ref.stderr
    not_git = pr_impact(tmp_path, "--base", "HEAD~1", "--head", "HEAD")
    assert not_git.returncode == 1 and "is not a git repository" in not_git.stderr
