"""A DAG defined in the domain's own working copy is proposed there only, even when the repo
holding the config file has a copy of the same DAG: a diff applies to one working copy."""

from __future__ import annotations

import subprocess
from pathlib import Path

from dw_assets.config import DomainConfig
from dw_assets.diagnosis.repos import dag_files_for
from tests.support.settings import build_settings

DAG = 'from airflow.sdk import DAG\n\nwith DAG(dag_id="gl_landing") as dag:\n    pass\n'


def _repo(root: Path) -> Path:
    (root / "dags").mkdir(parents=True)
    (root / "dags" / "gl_landing.py").write_text(DAG)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def test_the_domain_repo_wins_over_the_config_repo(tmp_path):
    owners, config_repo = _repo(tmp_path / "owners"), _repo(tmp_path / "config-repo")
    (config_repo / "dw.yaml").write_text("project: x\n")
    settings = build_settings(path=config_repo / "dw.yaml", domains=[
        DomainConfig(name="finance", datasets=["finance.*"], repo=str(owners), dags_path="dags")])
    found = dag_files_for(settings, "gl_landing", "finance.bronze.gl_entries")
    assert [(Path(repo.root).resolve(), path) for repo, path in found] == [(owners.resolve(), "dags/gl_landing.py")]
