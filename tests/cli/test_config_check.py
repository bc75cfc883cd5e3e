"""`dw config check` names the file, key and fix for each problem."""

from __future__ import annotations

import json

from click.testing import CliRunner

from dw_assets.cli import cli


def test_demo_config_is_valid():
    result = CliRunner().invoke(cli, ["config", "check", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["ok"] and summary["domains"] == {"finance": "L2", "revenue": "L2"}


def test_bad_config_names_file_key_and_fix(tmp_path):
    bad = tmp_path / "dw.yaml"
    bad.write_text("airflow:\n  instances:\n    - name: x\n      urll: http://127.0.0.1:1\n")
    result = CliRunner().invoke(cli, ["--config", str(bad), "config", "check"])
    assert result.exit_code == 2
    assert str(bad) in result.output
    assert "airflow.instances.0.urll: remove it or check its spelling" in result.output
    assert "airflow.instances.0.url: add it" in result.output
