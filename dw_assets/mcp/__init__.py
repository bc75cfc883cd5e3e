"""Data Workers as an MCP server (`dw mcp`): the same operations as the CLI, as tools for agents.

Read tools (annotated `readOnlyHint: true`): trace_cross_platform_lineage, blast_radius_analysis,
diagnose_incident, list_incidents, get_incident, monitor_metrics, get_receipt, verify_receipts.
Write tools (`readOnlyHint: false`): propose_remediation, request_approval, send_slack_alert, and
trigger_airflow_dag (`destructiveHint: true`), which passes the rerun job's gate. No tool approves.
`--read-only` serves the read tools only. Transports: stdio, and streamable HTTP with an API key.
Tool reference: docs/mcp.md.
"""

from __future__ import annotations
