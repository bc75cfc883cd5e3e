"""Plain-language fix recommendations, for causes no generic transformer can turn into a diff (or
when the transformer found nothing to change in the owner's files)."""

from __future__ import annotations

from typing import Any

from dw_assets.core.fixes import ProposedFix


def _conf(details: dict[str, Any]) -> str:
    conf = details.get("conf") or {}
    return f" with conf {conf}" if conf else ""


def _task(cause: Any) -> str:
    d = cause.details
    return f"{d.get('dag_id')}.{d.get('task_id')}" if d.get("task_id") else str(d.get("dag_id") or cause.subject)


_ADVICE = {
    "split_export_early_release": lambda c: (
        f"Make the sensor of {c.details.get('dag_id') or c.subject} wait for the export's done-marker (or for the "
        f"expected number of parts), then rerun it{_conf(c.details)} so the partition holds every part."),
    "late_upstream": lambda c: (
        f"Rerun {c.details.get('consumer') or c.subject}{_conf(c.details)} now that its input has landed, and make it "
        "wait for its input (a sensor on the upstream run or asset) instead of a fixed schedule."),
    "upstream_type_change": lambda c: (
        f"In the task that writes the first dataset after {c.origin or c.subject}, normalise "
        f"{c.details.get('column')}: map the sentinel values "
        f"{', '.join(map(repr, c.details.get('sentinels') or [])) or '(none seen)'} to NULL and cast back to "
        f"{c.details.get('old_type')}, or ask the source's owner to restore the type."),
    "dropped_column": lambda c: (
        f"{c.subject}.{c.details.get('column')} "
        + (f"is now {c.details.get('new_name')}: update the models that read it"
           if c.details.get("new_name") else "is gone: restore it upstream or remove it from the models that read it")
        + ", then rerun the failed models."),
    "failed_upstream_run": lambda c: (
        f"Fix the failure of {c.details.get('dag_id')}.{c.details.get('task_id') or ''} (run "
        f"{c.details.get('run_id')}), then rerun it{_conf(c.details)}; its downstream runs on the asset event."),
    "duplicated_load": lambda c: (
        f"Make the load of {c.details.get('dataset')} idempotent (replace the partition instead of appending), "
        f"then reload partition {c.details.get('partition')} once."),
    "code_change": lambda c: (
        f"Review commit {str(c.details.get('sha'))[:10]} by {c.details.get('author')} to "
        f"{', '.join(c.details.get('paths') or [])}: the owner reverts or corrects it, then reruns the model."),
    "permission_error": lambda c: (
        f"Restore the grant {c.details.get('job')} needs"
        + (f" on {c.details.get('object')}" if c.details.get("object") else "")
        + " (ask the object's owner), then rerun the failed run."),
    "timeout": lambda c: (
        f"Find why {c.details.get('job')} ran past its limit (data volume, locks, a slow source) before raising "
        "the timeout; then rerun."),
    "missing_input": lambda c: (
        f"{_task(c)} found no input ({c.details.get('object') or c.details.get('error_line')}): make the input "
        f"arrive (ask its producer, check the path the task reads), then rerun {_task(c)}{_conf(c.details)}; a rerun "
        "before the input is there fails the same way."),
    "conversion_error": lambda c: (
        f"{_task(c)} could not convert {c.details.get('value')!r}"
        + (f" to {c.details.get('target_type')}" if c.details.get("target_type") else "")
        + ": map the sentinel to NULL (or reject the rows) in the task or the staging model, merge that, then "
          "rerun; a plain rerun fails the same way."),
    "schema_mismatch": lambda c: (
        f"{_task(c)}'s input no longer has the columns it expects ({c.details.get('error_line')}): align the task or "
        "model with the new schema (or restore the column upstream), then rerun."),
    "duplicate_key": lambda c: (
        f"{_task(c)} inserted keys already present ({c.details.get('object') or 'a unique constraint'}): remove the "
        "rows of the earlier load of the same partition (or make the load replace its partition), then rerun once."),
    "out_of_memory": lambda c: (
        f"{_task(c)} was killed for memory (try {c.details.get('try_number')}): give it more memory or process the "
        "input in smaller batches, then rerun; the owner decides which."),
    "connection_error": lambda c: (
        f"{_task(c)} could not reach a system ({c.details.get('error_line')}): check that host/port/DNS name in the "
        "Airflow connection and the system itself; wait until it answers, then rerun."),
    "quota_exceeded": lambda c: (
        f"{_task(c)} hit a quota or rate limit: wait for the quota to reset (or raise it with the provider), then "
        "rerun; retrying at once fails the same way."),
    "bad_code": lambda c: (
        f"{_task(c)} fails to import or parse ({c.details.get('error_line')}): revert or fix the recent change to its "
        "code, then rerun; escalate to the DAG's owner."),
    "unknown": lambda c: (
        "The evidence did not settle a cause: fill the gaps listed in the diagnosis (unreachable systems, "
        "missing lineage) and diagnose again."),
}


def recommendation_for(cause: Any) -> ProposedFix:
    """Plain-language advice for a cause with no generic transformer (or none that applied)."""
    advice = _ADVICE.get(cause.kind, _ADVICE["unknown"])(cause)
    return ProposedFix(cause.kind, f"Recommendation: {cause.title}", advice, target_asset=cause.origin or cause.subject)
