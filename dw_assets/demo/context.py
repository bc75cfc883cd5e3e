"""What one `dw demo` run carries from step to step, and git as the estate's owners run it."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dw_assets.demo.timeline import Timeline

OWNER_IDENTITY = ("estate-owners", "owners@example.com")


@dataclass
class DemoOptions:
    nights: list[str]
    airflow_major: int = 3
    approve_as: str | None = None
    keep_airflow: bool = False
    config_path: str | None = None


@dataclass
class DemoContext:
    options: DemoOptions
    home: Path
    repo: Path
    timeline: Timeline
    harness: Any = None
    receiver: Any = None  # LineageReceiver: where the estate's OpenLineage events arrive
    estate: Any = None  # EstateActor
    settings: Any = None
    store: Any = None
    driver: Any = None
    summary: dict[str, Any] = field(default_factory=dict)


def git(repo: Path, *args: str, author: tuple[str, str] = OWNER_IDENTITY, date: str | None = None) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": author[0], "GIT_AUTHOR_EMAIL": author[1],
           "GIT_COMMITTER_NAME": author[0], "GIT_COMMITTER_EMAIL": author[1]}
    if date:
        env.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env).stdout
