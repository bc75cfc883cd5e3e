"""Governance: the approval ledger, the receipt chain, the dispatch gate and verification.

`workflow.Governance` is the entry point for actions (propose, request, approve, reject, expire,
stop, resume); `gate.check_dispatch` / `gate.authorize_launch` stand in front of every Airflow
write; `receipt_log.ReceiptLog` keeps the signed hash chain; `verification.verify_plan` proves a
plan worked. The rules themselves are pure and live in `dw_assets.core` (autonomy, plans,
approvals, receipts).
"""
