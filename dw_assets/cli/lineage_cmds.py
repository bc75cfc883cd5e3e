"""dw commands: lineage_cmds."""

from __future__ import annotations

commands: list = []
