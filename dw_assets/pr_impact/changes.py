"""Which dbt assets a change touches, and which of their columns: the input side of pr-impact.

Changes come from two git refs (`git diff --name-status` for the files, `git show REF:path` for
both versions, through the read-only git connector) or from a unified diff alone (the MCP tool's
`prDiff`, applied in memory to the estate's current files with whatthepatch).

A changed file is a dbt asset when a manifest entry names it: `original_file_path` of models,
seeds, snapshots, sources, exposures and the project's macros, `patch_path` of a model's .yml. For
a .yml only the entries whose YAML differs between the two versions count. Paths are matched
relative to the dbt project's folder in the repo; a file no entry names is listed as unmapped.

Columns of a changed model: its SQL with `{{ ref('x') }}` rendered as `x`, `{{ source('a', 'b') }}`
as `a.b` and other Jinja dropped, parsed with sqlglot; the outermost select's output columns are
compared by name and expression (same expression under a new name = renamed). `select *` or SQL
that does not parse leaves the columns unknown (None), never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlglot
import whatthepatch
import yaml
from sqlglot import exp
from whatthepatch.exceptions import WhatThePatchException

from dw_assets.connectors.git import GitError, GitRepo

_REF = re.compile(r"\{\{\s*ref\(([^)]*)\)\s*\}\}")
_SOURCE = re.compile(r"\{\{\s*source\(([^)]*)\)\s*\}\}")
_OTHER_EXPR = re.compile(r"\{\{.*?\}\}", re.DOTALL)
_STATEMENT = re.compile(r"\{%.*?%\}|\{#.*?#\}", re.DOTALL)
_QUOTED = re.compile(r"['\"]([^'\"]+)['\"]")
_GIT_HEADER = re.compile(r"^diff --git a/(\S+) b/(\S+)$", re.MULTILINE)
_YAML_SECTIONS = ("models", "seeds", "snapshots", "exposures", "semantic_models", "metrics", "macros")
_CHANGE_WEIGHT = {"modified": 0, "macro_changed": 1, "added": 2, "removed": 3}
_SECTION_OF = {"model": "models", "seed": "seeds", "snapshot": "snapshots", "exposure": "exposures",
               "semantic_model": "semantic_models", "metric": "metrics", "macro": "macros", "source": "sources"}


class PrImpactError(RuntimeError):
    """A diff, ref or project that cannot be read; the message says which and why."""


@dataclass
class FileChange:
    path: str  # repo-relative, forward slashes (the old path for a deletion)
    status: str  # added | modified | deleted
    before: str | None
    after: str | None


@dataclass
class ChangedAsset:
    unique_id: str
    resource_type: str
    name: str
    change: str  # added | modified | removed | macro_changed
    files: list[str] = field(default_factory=list)
    columns: dict[str, Any] | None = None  # {added, removed, changed, renamed}; None = unknown


class _ReadOnlyRepo(GitRepo):
    """The reads pr-impact needs beyond the connector's own, through its read-only guard."""

    def changed_paths(self, base: str, head: str) -> list[tuple[str, str]]:
        out = self._git("diff", "--name-status", "--no-renames", base, head, "--")
        kinds = {"A": "added", "D": "deleted"}
        return [(kinds.get(status[:1], "modified"), path) for status, _, path in
                (line.partition("\t") for line in out.splitlines() if line.strip())]

    def show(self, ref: str, path: str) -> str | None:
        done = self._run("show", f"{ref}:{path}")
        return done.stdout if done.returncode == 0 else None

    def resolve(self, ref: str) -> str:
        return self._git("rev-parse", "--verify", f"{ref}^{{commit}}").strip()


def changes_between_refs(repo_path: str | Path, base: str, head: str) -> tuple[Path, list[FileChange]]:
    """(repo root, every file that differs between `base` and `head`, with both versions)."""
    try:
        repo = _ReadOnlyRepo(repo_path)
    except GitError as exc:
        raise PrImpactError(f"{repo_path} is not a git repository: {exc}") from exc
    for ref, option in ((base, "--base"), (head, "--head")):
        try:
            repo.resolve(ref)
        except GitError as exc:
            raise PrImpactError(f"{option} {ref!r} is not a commit in {repo.root}: {exc}") from exc
    try:
        changes = [FileChange(path, status, None if status == "added" else repo.show(base, path),
                              None if status == "deleted" else repo.show(head, path))
                   for status, path in repo.changed_paths(base, head)]
    except GitError as exc:
        raise PrImpactError(f"cannot read the changes between {base} and {head} in {repo_path}: {exc}") from exc
    return repo.root, changes


def head_is_checked_out(repo_root: Path, head: str) -> bool:
    repo = _ReadOnlyRepo(repo_root)
    return repo.resolve("HEAD") == repo.resolve(head)


def changes_from_diff(diff: str, read_before: Callable[[str], str | None]) -> list[FileChange]:
    """The files a unified diff touches; the new text is the diff applied to `read_before(path)`."""
    try:
        patches = list(whatthepatch.parse_patch(diff))
    except WhatThePatchException as exc:
        raise PrImpactError(f"prDiff is not a unified diff: {exc}") from exc
    changes = []
    for patch in patches:
        old, new = _patch_paths(patch)
        if old is None and new is None:
            continue
        before = read_before(old) if old else None
        after = None
        if new:
            try:
                after = "\n".join(whatthepatch.apply_diff(patch, before or "")) + "\n"
            except WhatThePatchException:
                after = None  # the diff does not apply to the estate's current file: columns unknown
        status = "added" if old is None else "deleted" if new is None else "modified"
        changes.append(FileChange(new or old or "", status, before, after))
    if not changes and diff.strip():
        raise PrImpactError("prDiff holds no file changes: pass a unified diff (e.g. `git diff main...HEAD`)")
    return changes


def _patch_paths(patch: Any) -> tuple[str | None, str | None]:
    header = _GIT_HEADER.search(patch.text or "")
    lines = (patch.text or "").splitlines()
    deleted = any(ln.startswith("+++ /dev/null") for ln in lines) or "deleted file mode" in (patch.text or "")
    added = any(ln.startswith("--- /dev/null") for ln in lines) or "new file mode" in (patch.text or "")
    if header:
        old, new = header.group(1), header.group(2)
    elif patch.header:
        old = _strip_prefix(patch.header.old_path, "a/")
        new = _strip_prefix(patch.header.new_path, "b/")
    else:
        return None, None
    return (None if added else old), (None if deleted else new)


def _strip_prefix(path: str | None, prefix: str) -> str | None:
    if not path or path == "/dev/null":
        return None
    return path.removeprefix(prefix)


def render_jinja(sql: str) -> str:
    """dbt SQL as plain SQL: refs and sources become relation names, other Jinja is dropped."""
    def ref(m: re.Match[str]) -> str:
        names = [q.group(1) for a in m.group(1).split(",") if "=" not in a and (q := _QUOTED.search(a))]
        return names[-1] if names else "__ref__"

    def source(m: re.Match[str]) -> str:
        return ".".join(_QUOTED.findall(m.group(1))[:2]) or "__source__"

    sql = _STATEMENT.sub("", _SOURCE.sub(source, _REF.sub(ref, sql)))
    return _OTHER_EXPR.sub(lambda m: "" if "config(" in m.group() else "__jinja__", sql)


def model_columns(sql: str, dialect: str = "duckdb") -> dict[str, str] | None:
    """Output column -> its expression, from the outermost select; None when unknowable."""
    try:
        tree = sqlglot.parse_one(render_jinja(sql), read=dialect)
    except sqlglot.errors.SqlglotError:
        return None
    if not isinstance(tree, exp.Query):
        return None
    columns: dict[str, str] = {}
    for projection in tree.selects:
        if isinstance(projection, exp.Star) or (isinstance(projection, exp.Column) and projection.is_star):
            return None
        columns[projection.alias_or_name.lower()] = projection.unalias().sql(dialect)
    return columns


def compare_columns(before: Mapping[str, str] | None, after: Mapping[str, str] | None) -> dict[str, Any] | None:
    if before is None or after is None:
        return None
    added = [c for c in after if c not in before]
    removed = [c for c in before if c not in after]
    renamed = []
    for old in list(removed):
        twin = next((new for new in added if after[new] == before[old] and after[new] != new), None)
        if twin:
            renamed.append({"from": old, "to": twin})
            removed.remove(old)
            added.remove(twin)
    changed = [c for c in after if c in before and after[c] != before[c]]
    return {"added": added, "removed": removed, "changed": changed, "renamed": renamed}


def changed_column_names(columns: Mapping[str, Any] | None) -> list[str]:
    """Columns a downstream reader may break on: removed, changed, and the old names of renames."""
    if not columns:
        return []
    return [*columns["removed"], *columns["changed"], *(r["from"] for r in columns["renamed"])]


def _yaml_entries(text: str | None) -> dict[tuple[str, str], Any] | None:
    if text is None:
        return {}
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError:
        return None
    if not isinstance(data, dict):
        return None
    out: dict[tuple[str, str], Any] = {}
    for section in _YAML_SECTIONS:
        for item in data.get(section) or []:
            if isinstance(item, dict) and item.get("name"):
                out[(section, str(item["name"]))] = item
    for src in data.get("sources") or []:
        shared = {k: v for k, v in src.items() if k != "tables"}
        for table in src.get("tables") or []:
            out[("sources", f"{src.get('name')}.{table.get('name')}")] = {"source": shared, "table": table}
    return out


def _yaml_key(entry: Mapping[str, Any]) -> tuple[str, str]:
    kind = entry.get("resource_type", "")
    name = f"{entry.get('source_name')}.{entry['name']}" if kind == "source" else entry["name"]
    return _SECTION_OF.get(kind, kind), name


def _manifest_files(manifest: Mapping[str, Any]) -> dict[str, list[Mapping[str, Any]]]:
    """Project-relative file -> the manifest entries defined (or documented) there."""
    files: dict[str, list[Mapping[str, Any]]] = {}
    project = (manifest.get("metadata") or {}).get("project_name")
    for section in ("nodes", "sources", "exposures", "metrics", "semantic_models", "macros"):
        for entry in (manifest.get(section) or {}).values():
            if entry.get("resource_type") == "test" or (section == "macros" and entry.get("package_name") != project):
                continue
            for path in {entry.get("original_file_path"), (entry.get("patch_path") or "").split("://", 1)[-1]}:
                if path:
                    files.setdefault(path, []).append(entry)
    return files


def map_changes(changes: Iterable[FileChange], manifest: Mapping[str, Any], project_prefix: str, *,
                dialect: str = "duckdb") -> tuple[list[ChangedAsset], list[str]]:
    """(changed assets, changed paths that name no dbt asset)."""
    files = _manifest_files(manifest)
    assets: dict[str, ChangedAsset] = {}
    unmapped = []
    for change in changes:
        rel = _project_relative(change.path, project_prefix)
        entries = files.get(rel) if rel is not None else None
        if rel is None or not entries:
            unmapped.append(change.path)
            continue
        for entry in _touched_entries(change, rel, entries):
            kind = _change_kind(change, rel, entry)
            asset = assets.setdefault(entry["unique_id"], ChangedAsset(
                entry["unique_id"], entry["resource_type"], entry["name"], kind))
            asset.change = max(asset.change, kind, key=_CHANGE_WEIGHT.__getitem__)  # a deleted .sql beats its .yml
            asset.files.append(change.path)
            if rel.endswith(".sql") and entry["resource_type"] in ("model", "snapshot"):
                asset.columns = compare_columns(
                    model_columns(change.before, dialect) if change.before is not None else {},
                    model_columns(change.after, dialect) if change.after is not None else {})
    return list(assets.values()), unmapped


def _project_relative(path: str, prefix: str) -> str | None:
    prefix = prefix.strip("/")
    if not prefix:
        return path
    return path[len(prefix) + 1:] if path.startswith(prefix + "/") else None


def _touched_entries(change: FileChange, rel: str, entries: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    if not rel.endswith((".yml", ".yaml")):
        return entries
    before, after = _yaml_entries(change.before), _yaml_entries(change.after)
    if before is None or after is None:
        return entries  # unreadable YAML: every entry of the file counts
    differ = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    return [e for e in entries if _yaml_key(e) in differ]


def _change_kind(change: FileChange, rel: str, entry: Mapping[str, Any]) -> str:
    if entry["resource_type"] == "macro":
        return "macro_changed"
    defining = entry.get("original_file_path") == rel
    if defining and change.status == "deleted":
        return "removed"
    if defining and change.status == "added":
        return "added"
    return "modified"
