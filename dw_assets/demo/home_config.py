"""The demo home's own config, `$DW_HOME/dw.yaml`: the chosen config with the values the demo chose
written in, so `dw ui`, `dagster dev` and every `dw` command on that home reach the demo's Airflow
(its free port and random password), its owners' repo and its files, and nothing points at a default
such as 127.0.0.1:8080 with admin/admin afterwards.

Rule: every `${VAR}` / `${VAR:-default}` whose VAR the demo set (`pinned`) becomes its value; other
references stay (secrets a user sets, e.g. Slack webhooks), with a relative default made absolute;
relative paths under path keys are made absolute against the source config's folder, because the
copy lives elsewhere. The file holds a password: it is written owner-only (0600).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

HOME_CONFIG = "dw.yaml"
_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
# keys whose values the config model resolves as paths relative to the config file (Settings.resolve_path)
_PATH_KEYS = frozenset({"notes", "landing", "repo", "spec_dir", "path", "log_file_path", "project_dir",
                        "profiles_dir", "manifest", "run_results", "executable"})


def _absolute(value: str, base: Path) -> str:
    if not value or "://" in value or "${" in value or Path(value).expanduser().is_absolute():
        return value
    return str((base / value).resolve())


def _pin(value: str, pinned: Mapping[str, str], base: Path, *, is_path: bool) -> str:
    def repl(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        if name in pinned:
            return pinned[name]
        if default is not None and is_path and match.start() == 0:
            return "${" + name + ":-" + _absolute(default, base) + "}"
        return match.group(0)

    out = _ENV_REF.sub(repl, value)
    return _absolute(out, base) if is_path else out


def _walk(node: Any, pinned: Mapping[str, str], base: Path, *, key: str | None = None,
          parent: str | None = None) -> Any:
    if isinstance(node, dict):
        return {k: _walk(v, pinned, base, key=str(k), parent=key) for k, v in node.items()}
    if isinstance(node, list):
        return [_walk(v, pinned, base, key=key, parent=parent) for v in node]
    if isinstance(node, str):
        return _pin(node, pinned, base, is_path=key in _PATH_KEYS or parent == "attach")
    return node


def write_home_config(source: Path, home: Path, pinned: Mapping[str, str], *,
                      dbt_artifacts: Path | None = None, state_url: str | None = None) -> Path:
    """Write `home/dw.yaml` from `source` with `pinned` variables written in; returns its path.
    `dbt_artifacts`: where the demo's dbt writes manifest.json / run_results.json, used unless the
    source config names its own. `state_url`: the state store's URL instead of the source's (a
    deployment's PostgreSQL)."""
    raw = yaml.safe_load(Path(source).read_text()) or {}
    pinned_config = _walk(raw, pinned, Path(source).resolve().parent)
    if state_url is not None:
        pinned_config.setdefault("state", {})["url"] = state_url
    if dbt_artifacts is not None:
        dbt = pinned_config.setdefault("dbt", {})
        dbt.setdefault("manifest", str(dbt_artifacts / "manifest.json"))
        dbt.setdefault("run_results", str(dbt_artifacts / "run_results.json"))
    target = Path(home) / HOME_CONFIG
    header = (f"# Written by `dw demo` from {source}: the demo's Airflow, repo and files are written in.\n"
              "# Owner-only: it holds the demo Airflow's password. Delete the folder to forget it.\n")
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(header + yaml.safe_dump(pinned_config, sort_keys=False))
    return target
