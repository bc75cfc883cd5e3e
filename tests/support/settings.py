"""The one settings builder for tests: `Settings` built in code, the state database in a test's
own folder (never the repo's `.dw_home`), every other section as given."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dw_assets.config import Settings


def build_settings(home: Path | str | None = None, **sections: Any) -> Settings:
    """`home`: the folder whose `state.db` (SQLite) holds the state; None keeps the default state
    URL (for tests that never open the store). `sections`: any other top-level field of `dw.yaml`,
    as a config model or plain data, validated as a loaded file is (dataset ids canonicalised)."""
    state = {"state": {"url": f"sqlite:///{home}/state.db"}} if home is not None else {}
    return Settings.model_validate({**state, **sections})
