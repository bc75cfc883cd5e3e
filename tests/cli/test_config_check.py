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


def _check(path, *, env=None):
    return CliRunner().invoke(cli, ["--config", str(path), "config", "check", "--json"], env=env or {})


def test_an_empty_file_is_not_all_defaults(tmp_path):
    empty = tmp_path / "dw.yaml"
    empty.write_text("\n# nothing here\n")
    result = _check(empty)
    assert result.exit_code == 2 and "is empty" in result.output and str(empty) in result.output


def test_a_bad_duration_is_reported_at_its_key(tmp_path):
    bad = tmp_path / "dw.yaml"
    bad.write_text("governance:\n  approval_ttl: soon\nincidents:\n  window: a while\n")
    result = _check(bad)
    assert result.exit_code == 2
    errors = "\n".join(json.loads(result.output)["errors"])
    assert "governance.approval_ttl" in errors and "'soon'" in errors
    assert "incidents.window" in errors and "'a while'" in errors


def test_unset_variables_are_reported_in_every_section(tmp_path, dw_home):
    config = tmp_path / "dw.yaml"
    config.write_text(
        "state:\n  url: ${DW_TEST_STATE_URL}\n"
        "warehouse:\n  url: duckdb:///${DW_TEST_WAREHOUSE}/x.duckdb\n"
        "domains:\n  - name: finance\n    slack:\n      webhook_url: ${DW_TEST_HOOK}\n"
        "openlineage:\n  api_key: ${DW_TEST_OL_KEY}\n"
        "governance:\n  signing_key_file: ${DW_HOME}/k.key\n  demo_key: true\n")
    result = _check(config, env={"DW_HOME": str(dw_home)})
    assert result.exit_code == 0, result.output
    warnings = "\n".join(json.loads(result.output)["warnings"])
    for name, where in (("DW_TEST_STATE_URL", "state.url"), ("DW_TEST_WAREHOUSE", "warehouse.url"),
                        ("DW_TEST_HOOK", "domains[finance].slack.webhook_url"),
                        ("DW_TEST_OL_KEY", "openlineage.api_key")):
        assert name in warnings and where in warnings


def test_a_missing_signing_key_outside_the_demo_is_an_error_naming_the_setting(tmp_path, monkeypatch):
    monkeypatch.delenv("DW_SIGNING_KEY", raising=False)
    config = tmp_path / "dw.yaml"
    config.write_text("project: prod\ngovernance:\n  approval_ttl: 4h\n")
    result = _check(config)
    assert result.exit_code == 2
    errors = json.loads(result.output)["errors"][0]
    assert "DW_SIGNING_KEY" in errors and "governance.signing_key_file" in errors


def test_an_unsupported_warehouse_is_named_at_its_key(tmp_path, dw_home):
    config = tmp_path / "dw.yaml"
    config.write_text("warehouse:\n  url: snowflake://reader:s3cret@acct/estate\n")
    result = _check(config, env={"DW_HOME": str(dw_home)})
    assert result.exit_code == 2
    errors = "\n".join(json.loads(result.output)["errors"])
    assert "warehouse.url" in errors and "'snowflake' is not a supported warehouse" in errors
    assert "postgresql://" in errors and "s3cret" not in errors


def test_a_postgres_warehouse_is_accepted_and_attach_is_flagged(tmp_path, dw_home):
    config = tmp_path / "dw.yaml"
    config.write_text("warehouse:\n  url: postgresql://reader@db:5432/estate\n  attach:\n    lake: lake.duckdb\n"
                      "governance:\n  signing_key_file: ${DW_HOME}/k.key\n  demo_key: true\n")
    result = _check(config, env={"DW_HOME": str(dw_home)})
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["warehouse"] == "postgres"
    assert any("warehouse.attach is DuckDB's only" in w for w in summary["warnings"])
