"""What Data Workers does with an open incident, without Dagster: `triage` (by the domain's autonomy
level: record, diagnose, or also plan and ask for approval) with `propose_for_incident`, the one way
an incident gets a plan (the triage sensor, MCP), and `remediation` (planning: the DAG to rerun, its
conf, what follows, the undo, the diffs and the checks that prove it worked). Runs nothing in the
estate: dispatch belongs to the gated rerun job (`governance.dispatch`)."""
