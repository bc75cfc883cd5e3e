"""dw commands: tools_cmds."""

from __future__ import annotations

commands: list = []
