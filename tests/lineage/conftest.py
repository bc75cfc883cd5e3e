"""Fixtures for the OpenLineage tests: settings, stores, a real receiver, a throwaway PostgreSQL."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from ol_samples import free_port

from dw_assets.store import Store

PG_BIN = Path(os.environ.get("DW_PG_BIN", "/usr/lib/postgresql/15/bin"))


@pytest.fixture
def spec_dir(shared_dir: Path) -> Path:
    path = shared_dir / "openlineage-spec"
    if not (path / "OpenLineage.json").is_file():
        pytest.skip(f"{path} holds no OpenLineage.json")
    return path


@pytest.fixture
def store(dw_home: Path) -> Iterator[Store]:
    s = Store(f"sqlite:///{dw_home}/state.db")
    s.ensure_schema()
    yield s
    s.dispose()


class RunningServer:
    def __init__(self, app: Any):
        import uvicorn

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", access_log=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> RunningServer:  # noqa: PYI034
        self.thread.start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/api/v1/health", timeout=2).status_code == 200:
                    return self
            time.sleep(0.05)
        raise RuntimeError(f"receiver on {self.url} did not become healthy in 30 s")

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(30)


@pytest.fixture
def run_server():
    """`with run_server(app) as server:` — uvicorn on a free loopback port in a thread."""
    return RunningServer


def _as_postgres_user(cmd: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on a free loopback port (initdb + pg_ctl), stopped at the end."""
    if not (PG_BIN / "initdb").exists():
        pytest.skip(f"no PostgreSQL server binaries in {PG_BIN} (apt-get install postgresql)")
    root = Path(tempfile.mkdtemp(prefix="dw-pg-"))
    data, port = root / "data", free_port()
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
def pg_store(postgres_url: str) -> Iterator[Store]:
    """A Store on a fresh database of the throwaway cluster."""
    db = f"dw_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(postgres_url.replace("postgresql://", "postgresql+psycopg://"),
                             isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f"CREATE DATABASE {db}"))
    admin.dispose()
    store = Store(postgres_url.rsplit("/", 1)[0] + f"/{db}")
    yield store
    store.dispose()
