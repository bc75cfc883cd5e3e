"""The domain, pure Python: the context graph and its walks, dataset identity, notes, incidents and
their lifecycle, check statistics and decisions, causes and their rules, ranking, fixes, plans,
approvals, autonomy and receipts. Imports nothing else of ours, no Dagster, no network, no SQL
(docs/architecture.md; tests/architecture/test_layers.py checks it)."""
