"""dw commands: airflow_cmds."""

from __future__ import annotations

commands: list = []
