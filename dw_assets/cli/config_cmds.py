"""dw commands: config_cmds."""

from __future__ import annotations

commands: list = []
