"""dw commands: incident_cmds."""

from __future__ import annotations

commands: list = []
