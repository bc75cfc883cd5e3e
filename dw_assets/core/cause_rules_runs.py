"""Candidate generators for run- and error-driven causes: failed upstream runs, duplicated loads,
code changes, permission errors and timeouts. Weights live in `dw_assets.core.diagnosis.WEIGHTS`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta

from dw_assets.core.cause_rules import MISSING_DATA, hm, landed_parts, loads_of, scope_of, task_node
from dw_assets.core.causes import Cause, fact
from dw_assets.core.evidence import EvidenceBundle, TaskRun, classify_error


def failed_upstream(ev: EvidenceBundle) -> Iterator[Cause]:
    own = ev.symptom_runs()
    own_dag_runs = {(r.dag_id, r.run_id) for r in own}
    scope = scope_of(ev)
    for run in ev.task_runs:
        if run.state != "failed" or run in own or (run.end and run.end > ev.window[1]):
            continue
        upstream_outputs = [o for o in run.outputs if scope.get(o, -1) >= 1]
        same_dag_run = (run.dag_id, run.run_id) in own_dag_runs
        if not (upstream_outputs or same_dag_run or task_node(ev, run.job) in scope):
            continue
        yield _failed_run_cause(ev, run, upstream_outputs)


def _failed_run_cause(ev: EvidenceBundle, run: TaskRun, upstream_outputs: list[str]) -> Cause:
    facts = [fact("upstream_task_failed", f"{run.job} run {run.run_id} failed at {hm(run.end)} "
                  f"(try {run.try_number})", run.system)]
    if upstream_outputs:
        facts.append(fact("writes_upstream_dataset", f"{run.job} writes {', '.join(upstream_outputs)}", run.system))
    recovered = [r for r in ev.task_runs if r.job == run.job and r.state == "success" and r.start and run.end
                 and run.end < r.start <= ev.symptom.observed_at]
    if recovered:
        facts.append(fact("recovered_before_symptom", f"{run.job} succeeded at {hm(recovered[0].end)}",
                          run.system))
    else:
        facts.append(fact("no_recovery_before_symptom", f"no later successful run of {run.job} before the symptom",
                          run.system))
    if run.max_tries and run.try_number >= run.max_tries:
        facts.append(fact("retries_exhausted", f"all {run.max_tries} tries used", run.system))
    own_error = classify_error(run.error_message or "")
    if own_error.kind not in ("other", "upstream_failed"):
        facts.append(fact("failure_has_specific_error", f"{run.job} failed with a {own_error.kind.replace('_', ' ')}"
                          " error, a more specific cause", run.system))
    explains = None
    sym_err = ev.symptom_error()
    if ev.symptom.kind in MISSING_DATA or (ev.symptom.kind == "failure" and (not sym_err or sym_err.kind == "other")):
        target = ", ".join(upstream_outputs) or "its outputs"
        explains = f"{run.job} failed, so {target} was not refreshed for {ev.symptom.dataset_id or ev.symptom.job}"
    return Cause("failed_upstream_run", task_node(ev, run.job), f"Upstream task {run.job} failed", tuple(facts),
                 (f"a later run of {run.job} succeeded before the symptom", f"{run.job} writes nothing the symptom reads"),
                 explains=explains, details={"dag_id": run.dag_id, "task_id": run.task_id, "run_id": run.run_id,
                                             "conf": dict(run.conf), "depth": ev.depth_of(upstream_outputs[0]) or 1
                                             if upstream_outputs else 1})


def duplicated_load(ev: EvidenceBundle) -> Iterator[Cause]:
    for profile in ev.profiles:
        loads = [r for r in loads_of(ev, profile.dataset_id, profile.partition)
                 if profile.partition in {str(v) for v in r.conf.values()}]
        if profile.duplicate_keys <= 0 and len(loads) < 2:
            continue
        yield _duplicate_cause(ev, profile, loads)


def _duplicate_cause(ev: EvidenceBundle, profile, loads: list[TaskRun]) -> Cause:
    ds, part, sym = profile.dataset_id, profile.partition, ev.symptom
    facts = []
    if profile.duplicate_keys > 0:
        facts.append(fact("duplicate_keys", f"{profile.duplicate_keys:,} rows of {ds} {part} repeat a "
                          f"{profile.key_column} already present", "warehouse"))
    else:
        facts.append(fact("no_duplicate_keys", f"every {profile.key_column} of {ds} {part} is unique", "warehouse"))
    med = sorted(profile.history_rows)[len(profile.history_rows) // 2] if profile.history_rows else None
    if (sym.kind == "volume_high" and sym.dataset_id == ds) or (med and profile.rows > 1.3 * med):
        facts.append(fact("volume_high_on_dataset", f"{ds} {part} holds {profile.rows:,} rows"
                          + (f" against a median of {med:,}" if med else ""), "warehouse"))
    landed = sum(f.rows or 0 for f in landed_parts(ev, profile))
    if landed and profile.rows > 1.05 * landed:
        facts.append(fact("rows_exceed_landed", f"{profile.rows:,} rows against {landed:,} in the landed files",
                          "landing"))
    if len(loads) >= 2:
        facts.append(fact("repeated_load_runs", f"{len(loads)} successful runs of {loads[0].job} for {part}: "
                          + ", ".join(f"{r.run_id} at {hm(r.start)}" for r in loads[:4]), loads[0].system))
    explains = None
    if profile.duplicate_keys > 0 and sym.kind in ("volume_high", "duplicates", "check_failed"):
        explains = f"{profile.duplicate_keys:,} duplicated {profile.key_column} rows in {ds} {part}"
        if len(loads) >= 2:
            explains += f", loaded {len(loads)} times"
    subject = task_node(ev, loads[0].job) if loads else ds
    return Cause("duplicated_load", subject, f"{ds} {part} was loaded more than once", tuple(facts),
                 (f"every {profile.key_column} is unique", "one load run for the partition"),
                 explains=explains, details={"dataset": ds, "partition": part,
                                             "dag_id": loads[0].dag_id if loads else None,
                                             "depth": ev.depth_of(ds) or 0})


def code_change(ev: EvidenceBundle) -> Iterator[Cause]:
    scope = scope_of(ev)
    owners = {m.file_path: (m.node_id, scope.get(m.node_id)) for m in ev.models if m.node_id in scope}
    owners.update({n.file_path: (n.node_id, n.depth) for n in ev.upstream if n.file_path})
    err = ev.symptom_error()
    for commit in ev.commits:
        if commit.authored_at > ev.window[1]:
            continue
        touched = [p for p in commit.paths if p in owners]
        if touched:
            yield _code_change_cause(ev, commit, touched, owners, err)


def _code_change_cause(ev, commit, touched, owners, err) -> Cause:
    node_id, depth = owners[touched[0]]
    facts = [fact("commit_touches_asset", f"{commit.sha[:10]} by {commit.author} at {hm(commit.authored_at)} "
                  f"({commit.message.splitlines()[0] if commit.message else ''!r}) touched {', '.join(touched)}", "git")]
    if depth == 0 or (ev.symptom.job and ev.symptom.job.endswith(node_id.rsplit(".", 1)[-1])):
        facts.append(fact("commit_touches_failing_model", f"{touched[0]} defines the failing asset", "git"))
    if ev.symptom.observed_at - commit.authored_at <= timedelta(days=1):
        facts.append(fact("commit_within_a_day", "committed within a day of the symptom", "git"))
    later = [r for r in ev.producers_of(node_id) if r.state == "success" and r.start
             and commit.authored_at < r.start < ev.symptom.observed_at]
    if later:
        facts.append(fact("success_after_commit", f"{later[0].job} succeeded at {hm(later[0].start)} after it", "git"))
    explains = None
    words = [w for w in (err.column, err.value, err.obj) if w] if err else []
    hit = next((w for w in words if any(re.search(rf"\b{re.escape(w)}\b", line, re.IGNORECASE) for line in commit.changed_lines)),
               None)
    if hit:
        facts.append(fact("change_matches_error", f"the change adds or removes {hit!r}, which the error names", "git"))
        explains = f"commit {commit.sha[:10]} changed the lines that use {hit!r}, named in the error"
    return Cause("code_change", node_id, f"Recent change to {touched[0]}", tuple(facts),
                 ("the asset ran successfully after the commit", "the changed lines do not touch what failed"),
                 explains=explains, details={"sha": commit.sha, "paths": touched, "author": commit.author,
                                             "repo": commit.repo, "depth": depth or 0})


def _errors_in_scope(ev: EvidenceBundle) -> list[tuple[str, str]]:
    """(job, message) for the symptom's own error and failures of jobs in scope."""
    found = []
    if ev.symptom.error_message:
        found.append((ev.symptom.job or ev.symptom.dataset_id or "symptom", ev.symptom.error_message))
    for failure in ev.failures:
        if _in_scope_job(ev, failure.job, failure.outputs):
            found.append((failure.job, failure.message))
    for run in ev.task_runs:
        if run.state == "failed" and run.error_message and _in_scope_job(ev, run.job, run.outputs):
            found.append((run.job, run.error_message))
    return list(dict.fromkeys(found))


def _in_scope_job(ev: EvidenceBundle, job: str, outputs: tuple[str, ...]) -> bool:
    scope = scope_of(ev)
    return job == ev.symptom.job or any(o in scope for o in outputs) or task_node(ev, job) in scope


def permission(ev: EvidenceBundle) -> Iterator[Cause]:
    for job, message in _errors_in_scope(ev):
        err = classify_error(message)
        if err.kind != "permission_denied":
            continue
        facts = [fact("error_is_permission", f"{job} failed: {message.splitlines()[0][:200]}", "openlineage")]
        if err.obj:
            facts.append(fact("error_names_object", f"access to {err.obj} was refused", "openlineage"))
        explains = f"{job} was refused access{' to ' + err.obj if err.obj else ''}, so it could not run"
        yield Cause("permission_error", task_node(ev, job), f"{job} lacks a permission it needs", tuple(facts),
                    ("the same credentials read the object successfully", "the grant did not change"),
                    explains=explains, details={"job": job, "object": err.obj})


def timeout(ev: EvidenceBundle) -> Iterator[Cause]:
    for job, message in _errors_in_scope(ev):
        if classify_error(message).kind != "timeout":
            continue
        yield Cause("timeout", task_node(ev, job), f"{job} timed out",
                    (fact("error_is_timeout", f"{job} failed: {message.splitlines()[0][:200]}", "openlineage"),),
                    ("the run finished within its limit on retry",),
                    explains=f"{job} hit its time limit and stopped", details={"job": job})


# error class -> (cause kind, what it means, what repairs it); permission and timeout keep their own
# generators above, upstream_failed is the failed upstream run's cause
TASK_ERROR_CAUSES: dict[str, tuple[str, str]] = {
    "missing_input": ("missing_input", "its input was not there"),
    "conversion": ("conversion_error", "a value could not be converted to the type the task expects"),
    "missing_column": ("schema_mismatch", "a column it reads is missing"),
    "schema_mismatch": ("schema_mismatch", "its input's columns no longer match what it writes"),
    "duplicate_key": ("duplicate_key", "it inserted a key that is already there"),
    "out_of_memory": ("out_of_memory", "it ran out of memory and was killed"),
    "connection": ("connection_error", "it could not reach a system it needs (connection or DNS)"),
    "quota": ("quota_exceeded", "a quota or rate limit of a system it uses was exhausted"),
    "bad_code": ("bad_code", "its code does not import or parse"),
}


def task_error(ev: EvidenceBundle) -> Iterator[Cause]:
    """A failed task explained by its own error: the symptom's own failed run counts, and so does any
    failed run in scope that did not recover. The class comes from the failed try's log lines (Airflow)
    or the FAIL event's message (OpenLineage)."""
    own = ev.symptom_runs()
    seen: set[tuple[str, str]] = set()
    for run in sorted(ev.task_runs, key=lambda r: r not in own):
        if run.state != "failed" or not run.error_message or (run.end and run.end > ev.window[1]):
            continue
        if run not in own and not _in_scope_job(ev, run.job, run.outputs):
            continue
        err = classify_error(run.error_message)
        if err.kind not in TASK_ERROR_CAUSES or (run.job, err.kind) in seen:
            continue
        seen.add((run.job, err.kind))
        yield _task_error_cause(ev, run, err, run in own)


def _task_error_cause(ev: EvidenceBundle, run: TaskRun, err, own: bool) -> Cause:
    kind, meaning = TASK_ERROR_CAUSES[err.kind]
    line = (run.error_message or "?").splitlines()[0][:300]  # task_error passes failed runs with a message
    facts = [fact("task_error_classified", f"{run.job} try {run.try_number} ({run.run_id}) failed: {line}",
                  run.system)]
    if run.log_lines:
        facts.append(fact("error_in_failed_try_log", f"from the log of try {run.try_number}: "
                          + " | ".join(run.log_lines[-3:])[:400], run.system))
    if own:
        facts.append(fact("error_is_symptoms_own", f"{run.job} is the run the incident is about", run.system))
    tries = [r for r in ev.task_runs if r.job == run.job and r.state == "failed" and r.error_message
             and classify_error(r.error_message).kind == err.kind]
    if len(tries) >= 2:
        facts.append(fact("same_error_every_try", f"{len(tries)} failed runs of {run.job} with the same error",
                          run.system))
    recovered = [r for r in ev.task_runs if r.job == run.job and r.state == "success" and r.start and run.end
                 and run.end < r.start <= ev.symptom.observed_at]
    if recovered:
        facts.append(fact("recovered_before_symptom", f"{run.job} succeeded at {hm(recovered[0].end)}", run.system))
    node = ev.node(task_node(ev, run.job))
    if err.kind == "bad_code" and node and node.file_path and any(node.file_path in c.paths for c in ev.commits):
        facts.append(fact("commit_touches_failing_task", f"a recent commit changed {node.file_path}", "git"))
    explains = None
    if own or ev.symptom.kind in MISSING_DATA or not ev.symptom_error():
        explains = f"{run.job} failed because {meaning}: {line}"
    return Cause(kind, task_node(ev, run.job), f"{run.job} failed: {meaning}", tuple(facts),
                 (f"the log of {run.job}'s failed try shows another error first",
                  f"a later run of {run.job} succeeded with the same input"),
                 explains=explains,
                 details={"dag_id": run.dag_id, "task_id": run.task_id, "run_id": run.run_id, "try_number":
                          run.try_number, "error_class": err.kind, "error_line": line, "log_lines": list(run.log_lines),
                          "object": err.obj, "column": err.column, "value": err.value, "conf": dict(run.conf),
                          "system": run.system, "depth": 0 if own else 1})


def did_not_run(ev: EvidenceBundle) -> Iterator[Cause]:
    """The load did not run: a missed or stuck scheduled run (the missed-runs sensor's signal), or a
    stale dataset whose writers have no run in the window at all."""
    missed = ev.symptom.metrics.get("missed_run") if isinstance(ev.symptom.metrics, dict) else None
    if missed:
        dag_id = missed.get("dag_id") or ev.symptom.job or "?"
        last = missed.get("last_run") or {}
        verb = "did not run" if missed.get("kind") == "missed" else "did not finish"
        facts = [fact("expected_run_missing", f"{dag_id} ({missed.get('schedule')}) was due at "
                      f"{missed.get('expected_at')} and {verb}", "airflow")]
        paused = ""
        if missed.get("paused") and missed.get("kind") == "missed":  # the reason it did not run
            who = "".join(f" {k} {missed[f'paused_{k}']}" for k in ("by", "at") if missed.get(f"paused_{k}"))
            paused = f": the DAG is paused{f' (paused{who})' if who else ''}"
            facts.append(fact("dag_paused", f"{dag_id} is paused in Airflow{f' (paused{who})' if who else ''}",
                              "airflow"))
        if last:
            facts.append(fact("last_run_before_due", f"its last run {last.get('run_id')} ({last.get('state')}) "
                              f"started {last.get('start')}", "airflow"))
        yield Cause("did_not_run", task_node(ev, dag_id), f"The load did not run: {dag_id} {verb}{paused}",
                    tuple(facts), (f"a run of {dag_id} started after {missed.get('expected_at')}",),
                    explains=f"{dag_id} was due at {missed.get('expected_at')} and {verb}{paused}, so nothing it "
                             "writes was refreshed",
                    details={"dag_id": dag_id, "expected_at": missed.get("expected_at"), "kind": missed.get("kind"),
                             "schedule": missed.get("schedule"), "last_run": last, "depth": 1,
                             "paused": bool(missed.get("paused")), "paused_by": missed.get("paused_by"),
                             "paused_at": missed.get("paused_at")})
        return
    sym = ev.symptom
    if sym.kind not in ("stale", "volume_low") or not sym.dataset_id or any(g.startswith("airflow") for g in ev.gaps):
        return  # without Airflow's runs, "no run" would only mean "not read"
    writers = [n for n in ev.upstream if n.kind == "task" and n.system == "airflow" and sym.dataset_id in n.feeds]
    for writer in writers:
        job = writer.node_id.split(":", 1)[-1]
        if any(r.job == job for r in ev.task_runs):
            continue
        no_run = (fact("expected_run_missing", f"no run of {job} in the {ev.window[0]:%Y-%m-%d %H:%M} - "
                       f"{ev.window[1]:%Y-%m-%d %H:%M} window, and it writes {sym.dataset_id}", "airflow"),)
        explains = f"{job} did not run, so {sym.dataset_id} was not refreshed" if sym.kind == "stale" else None
        yield Cause("did_not_run", writer.node_id, f"The load did not run: no run of {job}", no_run,
                    (f"a run of {job} in the window",), explains=explains,
                    details={"dag_id": job.split(".", 1)[0], "task_id": job.split(".", 1)[-1], "depth": writer.depth})


GENERATORS = [failed_upstream, duplicated_load, code_change, permission, timeout, task_error, did_not_run]
