"""What every `dw` command group shares: the config on click's context (loaded on first use) and
the stable JSON output. A module of its own so the groups import it, not the `cli` package that
merges them."""

from __future__ import annotations

import json
from typing import Any

import click

from dw_assets.config import Settings, load_settings


class DwContext:
    """Carried on click's context: the config path, loaded on first use (not at import)."""

    def __init__(self, config_path: str | None):
        self.config_path = config_path
        self._settings: Settings | None = None

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            self._settings = load_settings(self.config_path)
        return self._settings


pass_dw = click.make_pass_decorator(DwContext)


def emit_json(payload: Any) -> None:
    """Stable JSON: sorted keys, ISO dates, two-space indent."""
    click.echo(json.dumps(payload, indent=2, sort_keys=True, default=str))
