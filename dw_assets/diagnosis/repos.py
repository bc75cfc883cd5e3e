"""Which git working copy owns an asset, and which files in it define a DAG.

The owning repo is `domains[].repo` of the asset's domain (relative to the config file), else the
repository holding the config file (the estate). DAG files are found by parsing Python files under
`domains[].dags_path` (else the whole repo, bounded) for `DAG(dag_id=...)`, `DAG("...")` or
`@dag(dag_id=...)`: no file naming convention is assumed.
"""

from __future__ import annotations

import ast
import os
from functools import lru_cache
from pathlib import Path

from dw_assets.config import Settings
from dw_assets.connectors.git import GitRepo, find_repo

_SKIP_DIRS = {".git", ".venv", "venv", "node_modules", ".cache", "__pycache__", "target", "dbt_packages", "logs",
              ".dw_home", "site-packages"}
MAX_PY_FILES = 3000


def repo_for(settings: Settings, dataset_id: str | None) -> GitRepo | None:
    domain = settings.domain_for(dataset_id) if dataset_id else None
    if domain and domain.repo:
        return _repo(str(settings.resolve_path(domain.repo, what=f"domains[{domain.name}].repo")))
    return _default_repo(str(settings.base_dir))


@lru_cache(maxsize=16)
def _repo(path: str) -> GitRepo:
    return GitRepo(path)


@lru_cache(maxsize=4)
def _default_repo(base_dir: str) -> GitRepo | None:
    return find_repo(base_dir)


def dag_files_for(settings: Settings, dag_id: str, dataset_hint: str | None = None) -> list[tuple[GitRepo, str]]:
    """(repo, repo-relative path) of every file defining `dag_id`, the hinted domain's repo first."""
    places: list[tuple[GitRepo, str]] = []
    domains = sorted(settings.domains, key=lambda d: d is not (settings.domain_for(dataset_hint)
                                                               if dataset_hint else None))
    for domain in domains:
        repo = _repo(str(settings.resolve_path(domain.repo))) if domain.repo else \
            _default_repo(str(settings.base_dir))
        if repo:
            places.append((repo, domain.dags_path or ""))
    default = _default_repo(str(settings.base_dir))
    if default:
        places.append((default, ""))
    # the first repo (the hinted domain's, then the others) that defines the DAG owns it: a diff
    # must apply to one working copy, so files of the same DAG in another repo are not mixed in
    for repo, folder in dict.fromkeys(places):
        paths = sorted(set(_dag_index(str(repo.root), folder).get(dag_id, ())))
        if paths:
            return [(repo, path) for path in paths]
    return []


@lru_cache(maxsize=16)
def _dag_index(root: str, folder: str) -> dict[str, tuple[str, ...]]:
    index: dict[str, list[str]] = {}
    base = Path(root) / folder
    seen = 0
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = [d for d in dirnames if d not in _SKIP_DIRS and not d.startswith(".")]
        for name in filenames:
            if not name.endswith(".py"):
                continue
            seen += 1
            if seen > MAX_PY_FILES:
                break
            path = Path(dirpath) / name
            for dag_id in dag_ids_in(path):
                index.setdefault(dag_id, []).append(path.relative_to(root).as_posix())
    return {k: tuple(sorted(v)) for k, v in index.items()}


def dag_ids_in(path: Path) -> list[str]:
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError):
        return []
    if "DAG" not in text and "@dag" not in text:
        return []
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    ids = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in ("DAG", "dag"):
            ids += _dag_id(node)
        if isinstance(node, ast.FunctionDef):
            for deco in node.decorator_list:
                if isinstance(deco, ast.Call) and _name(deco.func) == "dag":
                    ids += _dag_id(deco) or [node.name]
                elif _name(deco) == "dag":
                    ids.append(node.name)
    return list(dict.fromkeys(ids))


def _dag_id(call: ast.Call) -> list[str]:
    for kw in call.keywords:
        if kw.arg == "dag_id" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
            return [kw.value.value]
    if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        return [call.args[0].value]
    return []


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""
