"""What a pull request changes in the data estate and who reads it: the comment a reviewer sees.

`for_refs(settings, repo, base, head)` reads the changes between two git refs of a repository
holding a dbt project; `for_diff(settings, diff)` reads a unified diff against the estate's own
dbt project (the MCP tool's `prDiff`). Both map changed files to dbt assets and columns
(`changes`), then list every downstream reader with owner and severity (`impact`); `render`
turns the report into the Markdown comment. Read-only throughout: git read commands, `dbt parse`.

For refs, the graph comes from the repository's working tree (parsed with `dbt parse` when its
manifest is stale), which should be at `--head`; the report's `notes` say when it is not.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from dw_assets.config import Settings
from dw_assets.connectors import dbt as dbt_connector
from dw_assets.connectors.dbt import load_artifact
from dw_assets.connectors.git import find_repo
from dw_assets.context_graph import build_context_graph, cached_context_graph, ensure_manifest, feed_names
from dw_assets.core.graph import ContextGraph
from dw_assets.pr_impact.changes import (
    PrImpactError,
    changes_between_refs,
    changes_from_diff,
    head_is_checked_out,
)
from dw_assets.pr_impact.impact import impact_report
from dw_assets.pr_impact.render import render_markdown
from dw_assets.store import Store, open_state

__all__ = ["PrImpactError", "for_diff", "for_refs", "render_markdown"]

_SKIP = {".git", "target", "dbt_packages", "logs", "node_modules", ".venv", "venv", "__pycache__", ".dw_home"}


def dialect_of(settings: Settings) -> str:
    scheme = settings.warehouse.url.split(":", 1)[0].split("+", 1)[0]
    return {"postgresql": "postgres"}.get(scheme, scheme)


def for_refs(settings: Settings, repo: str | Path, base: str, head: str, *, max_depth: int = 10,
             store: Store | None = None) -> dict[str, Any]:
    root, changes = changes_between_refs(repo, base, head)
    project = find_dbt_project(root, [c.path for c in changes])
    prefix = project.relative_to(root).as_posix() if project != root else ""
    notes = []
    if not head_is_checked_out(root, head):
        notes.append(f"the dbt manifest was parsed from the working tree of {root}, which is not at {head}: "
                     f"check out {head} for an exact graph")
    graph, manifest = _project_graph(settings, project, store)
    return impact_report(graph, manifest, changes, prefix, dialect=dialect_of(settings), max_depth=max_depth,
                         base=base, head=head, repo=str(root), dbt_project=prefix or ".", notes=notes)


def for_diff(settings: Settings, diff: str, *, max_depth: int = 10, store: Store | None = None) -> dict[str, Any]:
    """A diff against the estate's dbt project (paths relative to its repo root or to the project)."""
    project = dbt_connector.project_paths(settings).project_dir
    repo = find_repo(project)
    root = repo.root if repo else project

    def read_before(path: str) -> str | None:
        for candidate in (root / path, project / path):
            if candidate.is_file():
                return candidate.read_text()
        return None

    changes = changes_from_diff(diff, read_before)
    prefix = project.resolve().relative_to(root.resolve()).as_posix() if project.resolve() != root.resolve() else ""
    if prefix and not any(c.path.startswith(prefix + "/") for c in changes):
        prefix = ""  # the diff's paths are relative to the project itself
    manifest = load_artifact(ensure_manifest(settings))
    graph = cached_context_graph(settings, store=store)
    return impact_report(graph, manifest, changes, prefix, dialect=dialect_of(settings), max_depth=max_depth,
                         base="(estate working tree)", head="(prDiff applied)", repo=str(root),
                         dbt_project=prefix or ".", notes=[])


def find_dbt_project(root: Path, changed: list[str]) -> Path:
    """The dbt project in the repo holding most of the changed files (the shallowest on a tie)."""
    projects = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP and not d.startswith("."))
        if "dbt_project.yml" in files:
            projects.append(Path(folder))
    if not projects:
        raise PrImpactError(f"no dbt_project.yml in {root}: pr-impact maps changes through a dbt project")

    def score(project: Path) -> tuple[int, int]:
        prefix = "" if project == root else project.relative_to(root).as_posix() + "/"
        return sum(p.startswith(prefix) for p in changed), -len(project.parts)

    return max(projects, key=score)


def _project_graph(settings: Settings, project: Path, store: Store | None) -> tuple[ContextGraph, dict[str, Any]]:
    """The context graph and manifest of `project`, with the config's notes, feeds and domains."""
    profiles = project if (project / "profiles.yml").is_file() else (
        settings.resolve_path(settings.dbt.profiles_dir) if settings.dbt.profiles_dir else project)
    dbt = settings.dbt.model_copy(update={"project_dir": str(project), "profiles_dir": str(profiles),
                                          "manifest": None, "run_results": None})
    scoped = settings.model_copy(update={"dbt": dbt})
    return build_context_graph(scoped, store=store), load_artifact(ensure_manifest(scoped))


def graph_store(settings: Settings) -> Any:
    """The state store, when the graph has feeds that read it (as `dw trace` does)."""
    return open_state(settings) if feed_names() else None
