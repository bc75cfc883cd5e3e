"""Secrets stay secret: passwords in URLs are redacted wherever shown, and every secret file the
harness or the demo writes is 0600."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import httpx
import yaml
from click.testing import CliRunner

from dw_assets.cli import cli
from dw_assets.config import AirflowInstanceConfig, AuthConfig, load_settings
from dw_assets.connectors.airflow import AirflowClient
from dw_assets.core.secrets import redact_url
from dw_assets.governance.keys import load_signing_key
from dw_assets.harness.airflow import AirflowHarness
from dw_assets.secret_files import write_secret

PASSWORD = "hunter2-Z9"


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_redact_url_keeps_the_user_and_drops_the_password():
    assert redact_url(f"http://admin:{PASSWORD}@airflow:8080/api") == "http://admin:***@airflow:8080/api"
    assert redact_url(f"error at postgresql://dw:{PASSWORD}@db/x: refused") == "error at postgresql://dw:***@db/x: refused"
    assert redact_url("http://airflow:8080") == "http://airflow:8080"


def test_dw_airflow_runs_json_never_prints_a_url_password(tmp_path):
    config = tmp_path / "dw.yaml"
    config.write_text(yaml.safe_dump({"airflow": {"instances": [
        {"name": "prod", "url": f"http://admin:{PASSWORD}@127.0.0.1:9", "auth": {"type": "none"},
         "timeout_s": 1, "retries": 0}]}}))
    result = CliRunner().invoke(cli, ["--config", str(config), "airflow", "runs", "--json"])
    assert result.exit_code == 1
    assert PASSWORD not in result.output and PASSWORD not in (result.stderr or "")
    report = json.loads(result.stdout)["instances"][0]
    assert report["url"] == "http://admin:***@127.0.0.1:9" and report["error"]


def test_the_airflow_client_shows_links_and_drafts_without_the_password():
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"dag_runs": [], "total_entries": 0})

    inst = AirflowInstanceConfig(name="prod", url=f"http://admin:{PASSWORD}@airflow.example:8080",
                                 auth=AuthConfig(type="none"), read_only=False, api_version="v2")
    with AirflowClient(inst, transport=httpx.MockTransport(answer)) as client:
        shown = [client.display_url, client.ui_url("gl_landing", "manual__1"),
                 json.dumps(client.trigger_request("gl_landing", {"export_date": "2026-09-30"}))]
    assert all(PASSWORD not in text for text in shown) and "admin:***@" in shown[0]


def test_write_secret_is_0600_even_over_a_readable_file(tmp_path):
    target = tmp_path / "token"
    target.write_text("old")
    target.chmod(0o644)
    write_secret(target, "new")
    assert _mode(target) == 0o600 and target.read_text() == "new"


def test_the_harness_secret_files_are_0600(tmp_path):
    harness = AirflowHarness(3, tmp_path / "af", dw_home_dir=tmp_path / "dw")
    harness._write_config_files()
    for name in ("jwt_secret", "api_secret_key", "webserver_secret_key"):
        harness._secret(name)
    files = [harness.airflow_home / "passwords.json", *(harness.airflow_home / f".{n}" for n in
                                                        ("jwt_secret", "api_secret_key", "webserver_secret_key"))]
    assert all(_mode(f) == 0o600 for f in files), {f.name: oct(_mode(f)) for f in files}


def test_the_demo_makes_its_own_random_key_per_dw_home(tmp_path, monkeypatch):
    monkeypatch.delenv("DW_SIGNING_KEY", raising=False)
    keys = []
    for name in ("one", "two"):
        monkeypatch.setenv("DW_HOME", str(tmp_path / name))
        settings = load_settings()  # the demo estate's config: demo_key: true
        keys.append(load_signing_key(settings))
        key_file = tmp_path / name / "keys" / "signing.key"
        assert _mode(key_file) == 0o600
        assert load_signing_key(settings).key_id == keys[-1].key_id  # kept, not remade
    assert keys[0].key_id != keys[1].key_id
