"""The governance commands: plans show/request, approve/reject, approvals list, stop/resume, receipts."""

from __future__ import annotations

import json
import sqlite3

import pytest
import yaml
from click.testing import CliRunner
from gov_fakes import night1_plan

from dw_assets.cli import cli
from dw_assets.governance.workflow import Governance
from dw_assets.store import Store


@pytest.fixture
def config(tmp_path, settings):
    path = tmp_path / "dw.yaml"
    path.write_text(yaml.safe_dump(settings.model_dump(mode="json", exclude={"path"})))
    return path


@pytest.fixture
def dw(config):
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(cli, ["--config", str(config), *args], catch_exceptions=False)

    return invoke


@pytest.fixture
def proposed(settings):
    plan = night1_plan()
    Governance(settings, store=Store(settings.state.url)).propose(plan)
    return plan


def test_plans_show_json_has_the_plan_and_its_hash(dw, proposed):
    result = dw("plans", "show", proposed.id, "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.output)
    assert payload["plan_id"] == proposed.id and payload["status"] == "proposed"
    assert payload["plan"]["steps"][0]["dag_id"] == "gl_landing" and payload["approvals"] == []
    human = dw("plans", "show", proposed.id)
    assert "gl_landing" in human.output and "undo:" in human.output
    assert dw("plans", "show", "plan-0000000000000000").exit_code == 2


def test_request_approve_and_list(dw, proposed):
    requested = dw("plans", "request", proposed.id, "--json")
    assert requested.exit_code == 0 and json.loads(requested.output)["status"] == "open"
    refused = dw("approve", proposed.id, "--as", "data-workers", "--json")
    assert refused.exit_code == 3 and json.loads(refused.stdout)["code"] == "agent_identity"
    approved = dw("approve", proposed.id, "--as", "maria.chen", "--note", "both parts", "--json")
    assert approved.exit_code == 0, approved.output
    record = json.loads(approved.output)
    assert record["approval_id"].startswith("apr-") and record["approver"] == "maria.chen"
    listing = json.loads(dw("approvals", "list", "--json").output)
    assert listing["requests"][0]["status"] == "approved"
    assert listing["decisions"][0]["approval_id"] == record["approval_id"]
    assert record["approval_id"] in dw("approvals", "list").output


def test_reject(dw, proposed):
    dw("plans", "request", proposed.id)
    result = dw("reject", proposed.id, "--as", "omar.haddad", "--note", "wait for the marker")
    assert result.exit_code == 0 and "rejected" in result.output


def test_stop_and_resume_are_recorded(dw, settings):
    assert "ON" in dw("stop", "--reason", "close freeze", "--as", "maria.chen").output
    gov = Governance(settings, store=Store(settings.state.url))
    assert gov.ledger.stop_state().on and gov.ledger.stop_state().reason == "close freeze"
    assert "OFF" in dw("resume", "--as", "maria.chen").output
    assert not gov.ledger.stop_state().on
    assert [r.action for r in gov.receipts.list()][-2:] == ["stop", "resume"]


def test_receipts_verify_list_show_and_tamper_detection(dw, proposed, settings):
    dw("plans", "request", proposed.id)
    dw("approve", proposed.id, "--as", "maria.chen")
    ok = dw("receipts", "verify", "--json")
    verified = json.loads(ok.output)
    assert ok.exit_code == 0 and verified.pop("key_id") and verified == {"ok": True, "count": 3,
                                                                         "first_bad_seq": None, "problem": None}
    listed = json.loads(dw("receipts", "list", "--json").output)
    assert [r["action"] for r in listed] == ["plan_proposed", "approval_requested", "approval_approved"]
    shown = json.loads(dw("receipts", "show", "3", "--json").output)
    assert shown["body"]["approver"] == "maria.chen" and len(shown["hash"]) == 64
    con = sqlite3.connect(settings.state.url.removeprefix("sqlite:///"))
    con.execute("UPDATE dw_receipts SET record = replace(record, 'maria.chen', 'mallory') WHERE seq = 3")
    con.commit()
    con.close()
    broken = dw("receipts", "verify")
    assert broken.exit_code == 1 and "record 3" in broken.output


def test_stop_works_without_a_signing_key(dw, config, settings, monkeypatch):
    raw = yaml.safe_load(config.read_text())
    raw["governance"]["signing_key_file"] = str(config.parent / "no-such.key")
    config.write_text(yaml.safe_dump(raw))
    result = dw("stop", "--reason", "incident", "--as", "maria.chen")
    assert result.exit_code == 0 and "ON" in result.output and "no signed receipt" in result.output
    assert Governance(settings, store=Store(settings.state.url)).ledger.stop_state().on
    refused = dw("approve", "plan-0000000000000000", "--as", "maria.chen")
    assert refused.exit_code == 2 and "governance.signing_key_file" in refused.output


def test_keys_generate_and_a_verify_only_host(dw, config, proposed, tmp_path, monkeypatch):
    made = dw("keys", "generate", str(tmp_path / "new.key"))
    assert made.exit_code == 0 and (tmp_path / "new.key").stat().st_mode & 0o777 == 0o600
    assert dw("keys", "generate", str(tmp_path / "new.key")).exit_code == 2  # never overwritten
    public = dw("keys", "show").output.split("public key: ")[1].split()[0]
    raw = yaml.safe_load(config.read_text())
    raw["governance"].update(signing_key_file=None, public_key=public)  # this host holds no private key
    config.write_text(yaml.safe_dump(raw))
    verified = dw("receipts", "verify", "--json")
    assert verified.exit_code == 0 and json.loads(verified.output)["ok"]
    assert dw("approve", proposed.id, "--as", "maria.chen").exit_code == 2  # and so cannot sign
    raw["governance"]["public_key"] = made.output.split("governance.public_key): ")[1].split()[0]
    config.write_text(yaml.safe_dump(raw))
    wrong = dw("receipts", "verify", "--json")
    assert wrong.exit_code == 1 and "deployment's" in json.loads(wrong.output)["problem"]


def test_no_json_output_holds_the_private_key(dw, proposed, settings):
    import base64
    from pathlib import Path

    from cryptography.hazmat.primitives import serialization

    pem = Path(settings.governance.signing_key_file).read_text()
    key = serialization.load_pem_private_key(pem.encode(), password=None)
    raw = key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())
    secrets = ["".join(line for line in pem.splitlines() if not line.startswith("-----")),
               base64.b64encode(raw).decode(), raw.hex()]
    dw("plans", "request", proposed.id)
    outputs = [dw("approve", proposed.id, "--as", "maria.chen", "--json").output]
    for args in (("receipts", "list"), ("receipts", "verify"), ("receipts", "show", "1"), ("approvals", "list"),
                 ("plans", "show", proposed.id), ("config", "check")):
        result = dw(*args, "--json")
        assert result.exit_code == 0, (args, result.output)
        outputs.append(result.output)
    outputs.append(dw("keys", "show").output)
    assert all(secret not in "\n".join(outputs) for secret in secrets)
