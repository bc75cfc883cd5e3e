"""dw commands: demo_cmds."""

from __future__ import annotations

commands: list = []
