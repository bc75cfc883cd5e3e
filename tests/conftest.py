"""Fixtures shared by every tier. Each area keeps its own fixtures in its folder's conftest."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared, from $DW_SHARED_DIR (set by scripts/test.sh); tests needing it skip without it."""
    value = os.environ.get("DW_SHARED_DIR")
    if not value or not Path(value).is_dir():
        pytest.skip("DW_SHARED_DIR is not set or missing: these tests read ../shared (scripts/test.sh sets it)")
    return Path(value)


@pytest.fixture
def dw_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An isolated DW_HOME so no test touches the developer's .dw_home."""
    home = tmp_path / "dw_home"
    home.mkdir()
    monkeypatch.setenv("DW_HOME", str(home))
    return home


def _pg_bin() -> Path:
    """Debian's PostgreSQL server binaries (any major); DW_PG_BIN overrides."""
    if os.environ.get("DW_PG_BIN"):
        return Path(os.environ["DW_PG_BIN"])
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


PG_BIN = _pg_bin()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _as_postgres_user(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on a free loopback port (initdb + pg_ctl), stopped at the end."""
    if not (PG_BIN / "initdb").exists():
        pytest.skip(f"no PostgreSQL server binaries in {PG_BIN} (apt-get install postgresql)")
    root = Path(tempfile.mkdtemp(prefix="dw-pg-"))
    data, port = root / "data", _free_port()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")  # initdb refuses to run as root
    subprocess.run(_as_postgres_user([str(PG_BIN / "initdb"), "-D", str(data), "-U", "dw", "--auth=trust",
                                      "-E", "UTF8"]), check=True, capture_output=True, timeout=120)
    options = f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories='' -c fsync=off"
    subprocess.run(_as_postgres_user([str(PG_BIN / "pg_ctl"), "-D", str(data), "-o", options, "-w",
                                      "-t", "60", "-l", str(root / "server.log"), "start"]), check=True, capture_output=True, timeout=120)
    try:
        yield f"postgresql://dw@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(_as_postgres_user([str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "fast", "-w",
                                          "stop"]), check=False, capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def pg_store(postgres_url: str) -> Iterator[Store]:  # noqa: F821
    """A Store on a fresh database of the throwaway cluster."""
    import sqlalchemy as sa

    from dw_assets.store import Store

    db = f"dw_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(postgres_url.replace("postgresql://", "postgresql+psycopg://"),
                             isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f"CREATE DATABASE {db}"))
    admin.dispose()
    store = Store(postgres_url.rsplit("/", 1)[0] + f"/{db}")
    yield store
    store.dispose()
