"""Fixtures for the OpenLineage tests: settings, stores, a real receiver, a throwaway PostgreSQL."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from dw_assets.store import Store
from tests.support.ol_samples import free_port


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


