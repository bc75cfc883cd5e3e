"""The run is isolated from the developer's home and config (see tests/conftest.py)."""

from __future__ import annotations

import os
from pathlib import Path

from dw_assets.config import REPO_ROOT, dw_home, load_settings, resolve_env


def test_the_default_home_is_a_temporary_folder_not_the_repos() -> None:
    home = dw_home().resolve()
    assert home != (REPO_ROOT / ".dw_home").resolve()
    assert not home.is_relative_to(REPO_ROOT)


def test_the_config_is_the_shipped_one_with_paths_in_the_test_home() -> None:
    settings = load_settings()
    assert Path(os.environ["DW_CONFIG"]) == REPO_ROOT / "estate" / "dw.yaml"
    assert resolve_env(settings.state.url) == f"sqlite:///{dw_home()}/state.db"


def test_no_caller_variables_leak_in() -> None:
    kept = {"DW_SHARED_DIR", "DW_OPENLINEAGE_SPEC_DIR", "DW_AIRFLOW_VENVS", "DW_PG_BIN", "DW_DBT_BIN_DIR", "DW_HOME",
            "DW_CONFIG"}
    assert {name for name in os.environ if name.startswith("DW_")} <= kept
