"""What every MCP tool is given and how it says no: the per-call context, the tool spec, the error.

Settings are loaded fresh for every call, so an edited config (an instance pinned read-only, the
org-wide stop, an approver removed) binds the next call of a long-running server, as it binds the
next check of the rerun job.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dw_assets.config import Settings, load_settings
from dw_assets.context_graph import cached_context_graph, feed_names
from dw_assets.core.graph import ContextGraph
from dw_assets.governance.workflow import Governance
from dw_assets.incidents import IncidentStore
from dw_assets.store import Store, open_state

AGENT = "data-workers"  # the identity MCP actions are recorded under: an agent, never an approver


class ToolFailure(Exception):
    """A tool refused or failed; `code` is stable (e.g. a governance RefusalCode), `reason` is for people."""

    def __init__(self, code: str, reason: str):
        super().__init__(f"{code}: {reason}")
        self.code, self.reason = code, reason


@dataclass(frozen=True)
class ToolSpec:
    """One MCP tool. `writes` marks anything that changes state outside this call (the ledger,
    Slack, Airflow); `--read-only` serves only tools with `writes=False`."""

    name: str
    title: str
    description: str
    input_schema: dict[str, Any]
    handler: Callable[..., dict[str, Any]]
    writes: bool = False
    destructive: bool = False
    idempotent: bool = True
    open_world: bool = False

    def annotations(self) -> dict[str, Any]:
        return {"title": self.title, "read_only_hint": not self.writes, "destructive_hint": self.destructive,
                "idempotent_hint": self.idempotent, "open_world_hint": self.open_world}


@dataclass
class ToolContext:
    """Lazily opened handles for one tool call."""

    config_path: str | None
    _cache: dict[str, Any] = field(default_factory=dict)

    @property
    def settings(self) -> Settings:
        if "settings" not in self._cache:
            self._cache["settings"] = load_settings(self.config_path)
        return self._cache["settings"]

    @property
    def store(self) -> Store:
        return open_state(self.settings)

    def graph(self) -> ContextGraph:
        return cached_context_graph(self.settings, store=self.store if feed_names() else None)

    def governance(self) -> Governance:
        return Governance(self.settings, store=self.store)

    def incidents(self) -> IncidentStore:
        return IncidentStore(self.store)
