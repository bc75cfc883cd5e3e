"""dw commands: governance_cmds."""

from __future__ import annotations

commands: list = []
