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

_HOME_KEY = pytest.StashKey[Path]()
_REPO_HOME_KEY = pytest.StashKey[dict[str, tuple[int, int]]]()

REPO_ROOT = Path(__file__).resolve().parent.parent
REPO_DW_HOME = REPO_ROOT / ".dw_home"
# Variables a test run keeps from the caller's shell: where the shared inputs and built venvs are.
# Every other DW_* variable (a user's DW_CONFIG, DW_AIRFLOW_URL, DW_RECEIPT_KEY...) is dropped so no
# test reads a developer's config, credentials or home.
_KEPT_DW_VARS = {"DW_SHARED_DIR", "DW_OPENLINEAGE_SPEC_DIR", "DW_AIRFLOW_VENVS", "DW_PG_BIN", "DW_DBT_BIN_DIR"}


def _fingerprint(folder: Path) -> dict[str, tuple[int, int]]:
    """(mtime, size) per file under `folder`: enough to tell that a run wrote there."""
    if not folder.is_dir():
        return {}
    found = {}
    for path in folder.rglob("*"):
        try:
            stat = path.stat()
        except OSError:
            continue
        found[str(path.relative_to(folder))] = (stat.st_mtime_ns, stat.st_size)
    return found


def pytest_configure(config: pytest.Config) -> None:
    """Isolate the whole run before anything is imported: its own DW_HOME, the shipped config."""
    for name in [n for n in os.environ if n.startswith("DW_") and n not in _KEPT_DW_VARS]:
        del os.environ[name]
    session_home = Path(tempfile.mkdtemp(prefix="dw-test-home-"))
    os.environ["DW_HOME"] = str(session_home)
    os.environ["DW_CONFIG"] = str(REPO_ROOT / "estate" / "dw.yaml")
    config.stash[_HOME_KEY] = session_home
    config.stash[_REPO_HOME_KEY] = _fingerprint(REPO_DW_HOME)


def _needs_airflow(item: pytest.Item) -> bool:
    """A test that starts a real Airflow (the pool's in tests/airflow, or the demo's) and so needs its venv."""
    in_folder = any(Path(str(item.path)).is_relative_to(REPO_ROOT / "tests" / f) for f in ("airflow", "e2e"))
    return in_folder or any(item.get_closest_marker(m) for m in ("airflow", "e2e"))


@pytest.hookimpl(trylast=True)  # after pytest groups items by their parametrized session fixtures
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The `neighbours` tier (the demo and the daemon night beside two more Airflows and another
    daemon, ~16 min) runs only when asked for by marker (`make test-load`): it has not yet passed often
    enough on this shared machine to gate every CI run.

    The tests that need an Airflow run last, in the order pytest gave them: scripts/test.sh builds the
    Airflow venvs in the background meanwhile, so on a clean machine their ~5 minutes of pip overlap
    the tests that need no Airflow instead of holding up the first Airflow test."""
    if "neighbours" not in (config.getoption("markexpr") or ""):
        kept = [item for item in items if item.get_closest_marker("neighbours") is None]
        if len(kept) != len(items):
            config.hook.pytest_deselected(items=[item for item in items if item not in kept])
            items[:] = kept
    items.sort(key=_needs_airflow)  # stable: each part keeps pytest's order


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run if any test touched the repo's .dw_home (the demo's and the user's home)."""
    before = session.config.stash.get(_REPO_HOME_KEY, None)
    if before is None:
        return
    after = _fingerprint(REPO_DW_HOME)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    if changed:
        shown = ", ".join(changed[:10]) + (" ..." if len(changed) > 10 else "")
        print(f"\nFAILED isolation: tests wrote under {REPO_DW_HOME}: {shown}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    shutil.rmtree(session.config.stash.get(_HOME_KEY, ""), ignore_errors=True)


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
