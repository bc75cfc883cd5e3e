"""A bad state database (corrupt, truncated, read-only, a directory, missing) gives one clear error
naming the file and what to do, writes nothing, and never shows a SQLAlchemy traceback."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from gov_fakes import night1_plan

from dw_assets.cli import cli
from dw_assets.governance.workflow import Governance
from dw_assets.store import Store

COMMANDS = [("receipts", "verify"), ("approvals", "list"), ("plans", "list"), ("stop", "--as", "maria.chen")]


@pytest.fixture
def deployment(tmp_path, settings):
    """A config and a real state database with a plan, a request and an approval, checkpointed."""
    gov = Governance(settings, store=Store(settings.state.url))
    plan = night1_plan()
    gov.propose(plan)
    gov.request_approval(plan.id)
    gov.approve(plan.id, "maria.chen")
    gov.store.dispose()
    db = Path(settings.state.url.removeprefix("sqlite:///"))
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()
    config = tmp_path / "dw.yaml"
    config.write_text(yaml.safe_dump(settings.model_dump(mode="json", exclude={"path"})))
    return config, db


def _snapshot(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(folder.iterdir()) if p.name != "receipts.witness"}


def _check(config: Path, db: Path, expected: str) -> None:
    for command in COMMANDS:
        before = _snapshot(db.parent)
        result = CliRunner().invoke(cli, ["--config", str(config), *command])
        assert result.exit_code == 2, (command, result.output)
        assert str(db) in result.output and expected in result.output, (command, result.output)
        assert "Traceback" not in result.output and "sqlalchemy" not in result.output.lower()
        assert len(result.output.strip().splitlines()) == 1, result.output
        assert _snapshot(db.parent) == before, f"{command} wrote to the folder of a bad database"


def test_a_corrupt_database(deployment):
    config, db = deployment
    data = bytearray(db.read_bytes())
    data[:16] = os.urandom(16)
    db.write_bytes(bytes(data))
    _check(config, db, "not an SQLite database")


def test_a_truncated_database(deployment):
    config, db = deployment
    with db.open("r+b") as handle:
        handle.truncate(db.stat().st_size // 2)
    _check(config, db, "truncated")


def test_an_empty_file(deployment):
    config, db = deployment
    db.write_bytes(b"")
    _check(config, db, "empty")


def test_a_directory(deployment):
    config, db = deployment
    db.unlink()
    db.mkdir()
    _check(config, db, "is a directory")


def test_a_missing_database_for_reading(deployment):
    config, db = deployment
    db.unlink()
    for command in COMMANDS[:3]:
        result = CliRunner().invoke(cli, ["--config", str(config), *command])
        assert result.exit_code == 2 and "does not exist" in result.output and str(db) in result.output
        assert not db.exists()


def test_a_corrupt_schema_page_met_mid_command_is_one_sentence(deployment):
    config, db = deployment
    data = bytearray(db.read_bytes())
    data[100:4096] = b"\xa5" * (4096 - 100)  # the header survives; the schema page after it does not
    db.write_bytes(bytes(data))
    for command in COMMANDS[:3]:
        result = CliRunner().invoke(cli, ["--config", str(config), *command])
        assert result.exit_code == 2 and str(db) in result.output and "malformed" in result.output, result.output
        assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_a_read_only_database(deployment, monkeypatch):
    """Root (the test machine) ignores file modes, so this user is told the file is not writable."""
    config, db = deployment
    real_access = os.access

    def access(path, mode, **kw):
        if mode & os.W_OK and Path(path) in (db, db.parent):
            return False
        return real_access(path, mode, **kw)

    monkeypatch.setattr("dw_assets.store.preflight.os.access", access)
    _check(config, db, "read-only")
