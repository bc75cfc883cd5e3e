"""Fixtures shared by every tier. Each area keeps its own fixtures in its folder's conftest."""

from __future__ import annotations

import os
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
