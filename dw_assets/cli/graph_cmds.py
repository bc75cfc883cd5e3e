"""dw commands: graph_cmds."""

from __future__ import annotations

commands: list = []
