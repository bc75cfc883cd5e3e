"""From a diagnosed incident to a remediation plan: which DAG to rerun, with which conf, in what
order, what follows on its own, how to undo it, which diffs the owner must merge first, and which
checks prove it worked.

The rules are about the estate's shape, never its names:
- the DAG to rerun is the one whose task is the nearest Airflow writer upstream of the incident's
  dataset in the context graph (a task that writes it, or writes one of its ancestors);
- its conf is the conf of that DAG's latest run in the incident window (what produced the bad data);
- what follows is every DAG run that Airflow started on an asset/dataset event after that run;
- a cause that lives in code (a type change, a dropped column, a model change) puts the verified
  diffs into the plan: they must be merged before the rerun can succeed. Otherwise the plan only
  reruns, and the diffs stay separate proposals for their owners;
- verification is every configured check on the incident's dataset (at its partition) and on the
  datasets in its blast radius that have checks;
- a plan is checked against its cause: a cause a plain rerun would hit again (a failed task's input,
  code, credentials, quota...) makes a `fix_then_rerun` plan whose step runs only after the fix
  (never autonomous); a load that appends (read from its SQL/code, or from the table's history) is
  never simply rerun: its partition is emptied first (`dedupe_then_reload`), and the undo says what
  the step really does (replace vs append).
"""

from __future__ import annotations

import ast
import logging
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dw_assets.checks.runner import runners
from dw_assets.config import Settings
from dw_assets.connectors.airflow.api import AirflowApi
from dw_assets.connectors.airflow.models import DagRun
from dw_assets.core.blast_radius import BlastEntry
from dw_assets.core.causes import Cause
from dw_assets.core.graph import ContextGraph
from dw_assets.core.incidents import Incident
from dw_assets.core.load_mode import LoadModeFinding, mode_from_code, mode_from_history
from dw_assets.core.plans import DownstreamWait, Plan, PlanDiff, PlanStep, PlanUndo, VerificationRef
from dw_assets.diagnosis.repos import dag_files_for

log = logging.getLogger(__name__)

CODE_CAUSES = {"upstream_type_change", "dropped_column", "code_change"}
# causes a plain rerun meets again: the fix (or the wait) comes before the rerun
FIX_FIRST = CODE_CAUSES | {"missing_input", "conversion_error", "schema_mismatch", "duplicate_key", "out_of_memory",
                           "connection_error", "quota_exceeded", "bad_code", "permission_error", "timeout"}
DUPLICATE_CAUSES = {"duplicated_load", "duplicate_key"}
PROPOSER = "data-workers"


class PlanningError(RuntimeError):
    """The incident lacks what a plan needs (no diagnosis, no Airflow writer upstream)."""


class NoInstanceError(PlanningError):
    """No Airflow instance is configured to rerun on."""


def _top_cause(incident: Incident) -> Cause:
    if not incident.causes:
        raise PlanningError(f"incident {incident.id} has no diagnosis yet: run `dw incidents diagnose {incident.id}`")
    return incident.causes[0]


def writer_task(graph: ContextGraph, dataset_id: str, max_depth: int = 8) -> str | None:
    """The nearest upstream Airflow task node (`airflow:{dag}.{task}`) of a dataset."""
    trace = graph.trace(dataset_id, direction="upstream", max_depth=max_depth, include_orchestration=True)
    for node in trace.nodes:
        if node.kind == "task" and node.system == "airflow":
            return node.id
    return None


def _dag_of(task_node: str) -> str:
    return task_node.removeprefix("airflow:").split(".", 1)[0]


def _latest_run(client: AirflowApi, dag_id: str, since: datetime | None) -> DagRun | None:
    runs = [r for r in client.list_dag_runs(dag_id) if since is None or (r.start_date and r.start_date >= since)]
    runs.sort(key=lambda r: r.start_date or datetime.min.replace(tzinfo=UTC))
    return runs[-1] if runs else None


def _followers(client: AirflowApi, after: datetime | None, exclude: str) -> list[DownstreamWait]:
    """DAGs Airflow started on an asset (dataset) event after the rerun DAG's run ended: ended, running or
    still queued. A plan is often made while the follower still runs (the checks fail on the writer's
    data before the downstream DAG ends), and a rerun that did not wait for it would be verified early."""
    if after is None:
        return []
    waits: dict[str, DownstreamWait] = {}
    # updated_at covers a run that started, ended or changed state since; end_date alone misses a running one
    for run in client.list_dag_runs("~", updated_since=after):
        kind = (run.run_type or "").lower()
        if run.dag_id == exclude or not ("asset" in kind or "dataset" in kind):
            continue
        began = run.start_date or run.run_after
        if (run.end_date is not None and run.end_date >= after) or (began is not None and began >= after):
            waits.setdefault(run.dag_id, DownstreamWait(dag_id=run.dag_id, via=f"{kind} run after {exclude}"))
    return list(waits.values())


def _partition(incident: Incident) -> str | None:
    for signal in incident.signals:
        details = signal.get("details") or {}
        for key in ("partition", "partition_key"):
            if details.get(key):
                return str(details[key])
    return None


def verification_refs(settings: Settings, incident: Incident, blast: Sequence[BlastEntry]) -> tuple[VerificationRef, ...]:
    partition = _partition(incident)
    wanted = [(incident.dataset_id, partition)] + [(a.id, None) for a in blast]
    refs = []
    for dataset, part in wanted:
        entry = settings.check_entry(dataset, suffix=False) if dataset else None
        if entry is None:
            continue
        dataset = entry.dataset
        for check in runners(settings, entry):
            if check == "schema_drift":  # an accepted schema may legitimately change with a fix
                continue
            refs.append(VerificationRef(dataset=dataset, check=check, partition=part,
                                        expect=f"{check} passes on {dataset}" + (f" at {part}" if part else "")))
    return tuple(refs)


def load_mode(settings: Settings, dag_id: str, dataset: str, cause: Cause,
              task_id: str | None = None) -> LoadModeFinding:
    """Replace or append: the task's own code (its `python_callable`, found in the DAG file or a local
    module it imports, or its `sql=`), then the DAG's files as a whole, then the table's history as
    the diagnosis saw it (repeated load runs, repeated keys)."""
    texts = []
    for repo, rel in dag_files_for(settings, dag_id, dataset):
        path = Path(repo.root) / rel
        texts.append((rel, path.read_text(errors="replace")))
        for module in _local_imports(texts[-1][1]):
            sibling = path.parent / f"{module}.py"
            if sibling.exists():
                texts.append((str(Path(rel).parent / sibling.name), sibling.read_text(errors="replace")))
    if task_id:
        own = _task_code(texts, task_id)
        if own:
            found = mode_from_code(own[1], own[0])
            if found.mode != "unknown":
                return found
    for rel, text in texts:
        found = mode_from_code(text, rel)
        if found.mode != "unknown":
            return found
    details = cause.details
    facts = " ".join(f.text for f in cause.evidence)
    runs = int(m.group(1)) if (m := re.search(r"(\d+) successful runs of", facts)) else 0
    dups = int(m.group(1).replace(",", "")) if (m := re.search(r"([\d,]+) rows of .* repeat", facts)) else 0
    found = mode_from_history(runs, dups)
    if found.mode == "unknown" and details.get("error_class") == "duplicate_key":
        return LoadModeFinding("append", "the load inserted keys already present (duplicate key error)")
    return found


def _task_code(texts: list[tuple[str, str]], task_id: str) -> tuple[str, str] | None:
    """(where, source) of the code one task runs: the function its operator calls, or its SQL."""
    for _rel, text in texts:
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            kws = {k.arg: k.value for k in call.keywords if k.arg}
            tid = kws.get("task_id")
            if not (isinstance(tid, ast.Constant) and tid.value == task_id):
                continue
            sql = kws.get("sql")
            if isinstance(sql, ast.Constant) and isinstance(sql.value, str):
                return f"the sql of task {task_id}", sql.value
            func = kws.get("python_callable")
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            for where, other in texts:
                try:
                    defs = [n for n in ast.walk(ast.parse(other)) if isinstance(n, ast.FunctionDef) and n.name == name]
                except SyntaxError:
                    continue
                if defs:
                    return f"{where} ({name}, called by task {task_id})", ast.get_source_segment(other, defs[0]) or ""
    return None


def _local_imports(text: str) -> list[str]:
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    names = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module and not n.level]
    names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    return [n for n in dict.fromkeys(names) if "." not in n]


def _partition_column(settings: Settings, dataset: str) -> str | None:
    entry = next((c for c in settings.checks if c.dataset == dataset), None)
    spec = entry and (entry.volume or entry.landed_files)
    return spec.partition_column if spec else None


def _empty_partition_sql(dataset: str, column: str | None, partition: str | None) -> tuple[str, str, str]:
    """(backup + delete, restore, backup table): what a person runs before an appending load is rerun."""
    where = f"{column} = '{partition}'" if column and partition else "<the partition's predicate>"
    backup = f"{dataset}__dw_backup_{(partition or 'partition').replace('-', '')}"
    return (f"CREATE TABLE {backup} AS SELECT * FROM {dataset} WHERE {where}; DELETE FROM {dataset} WHERE {where};",
            f"DELETE FROM {dataset} WHERE {where}; INSERT INTO {dataset} SELECT * FROM {backup};", backup)


def _undo(cause_kind: str, dag_id: str, conf: dict[str, Any], instance: str, incident: Incident,
          diffs: tuple[PlanDiff, ...], mode: LoadModeFinding | None = None, restore_sql: str | None = None) -> PlanUndo:
    rerun_same = PlanStep(order=1, airflow_instance=instance, dag_id=dag_id, conf=conf,
                          description="rerun with the conf of the run being replaced")
    if restore_sql:
        return PlanUndo(description=f"the step emptied the partition (kept in a backup table) and {dag_id} loaded it "
                                    f"once with conf {conf}; to restore the state before the plan, run: {restore_sql}")
    if mode is not None and mode.mode == "append":
        return PlanUndo(description=f"{dag_id} appends ({mode.evidence}): the rerun adds rows for conf {conf}; to undo "
                                    "it, delete the rows it added (its run's loaded_at / source files)")
    if diffs:
        return PlanUndo(description=f"revert the merged fix ({', '.join(d.path for d in diffs)}) in the owner's repo, "
                                    f"then rerun {dag_id} with conf {conf} to rebuild what it built before",
                        steps=(rerun_same,))
    evidence = incident.evidence or {}
    before = evidence.get("observed") or evidence.get("rows")
    return PlanUndo(
        description=(f"the rerun replaces what {dag_id} wrote for conf {conf}"
                     + (f" (before: {before} rows)" if before else "")
                     + "; to restore it, set aside the input files that arrived after the replaced run and rerun "
                       f"{dag_id} with the same conf, which rebuilds the previous state from the files it saw"),
        steps=(rerun_same,),
    )


def propose_plan(settings: Settings, incident: Incident, *, graph: ContextGraph, client: AirflowApi, instance: str,
                 proposer: str = PROPOSER, now: datetime | None = None) -> Plan:
    """The remediation plan for a diagnosed incident (pure apart from reading Airflow runs)."""
    now = now or datetime.now(UTC)
    cause = _top_cause(incident)
    dataset = incident.dataset_id
    if not dataset:
        raise PlanningError(f"incident {incident.id} names no dataset; nothing to rerun")
    task = writer_task(graph, dataset)
    if task is None:
        raise PlanningError(f"no Airflow task writes {dataset} or anything upstream of it in the context graph")
    dag_id = _dag_of(task)
    last = _latest_run(client, dag_id, since=None)
    conf = dict(last.conf or {}) if last else {}
    waits = tuple(_followers(client, last.end_date if last else None, dag_id))
    domain = settings.domain_for(dataset)
    owner = domain.owner if domain else None
    kind = cause.kind
    code_cause = kind in CODE_CAUSES
    diffs = tuple(
        PlanDiff(repo=f.repo or "", path=", ".join(f.paths), diff=f.diff or "", owner=owner)
        for f in incident.proposed_fixes
        if code_cause and f.kind == "diff" and f.verified and f.cause_kind == kind
    )
    blast = incident.blast_radius
    blast_summary = {"severity": incident.severity, "affected": [
        {"id": a.id, "kind": a.kind, "owner": a.owner, "severity": a.severity, "depth": a.depth} for a in blast]}
    try:
        mode = load_mode(settings, dag_id, dataset, cause, task_id=task.split(".", 1)[-1] if "." in task else None)
    except Exception as exc:  # noqa: BLE001  unreadable DAG files: the mode stays unknown, said in the plan
        mode = LoadModeFinding("unknown", f"the DAG's files could not be read ({type(exc).__name__})")
    plan_class = "code_fix_then_rerun" if diffs else "reload_partition"
    first, restore_sql = "", None
    if kind in FIX_FIRST and not diffs:
        # a plain rerun would fail the same way: the step runs once the cause is fixed, never on its own
        advice = next((f.rationale for f in incident.proposed_fixes if f.cause_kind == kind and f.rationale), None)
        first = f"first fix the cause ({advice or cause.title or kind}); then "
        plan_class = "fix_then_rerun"
    elif kind == "did_not_run" and cause.details.get("paused"):
        # a run of a paused DAG stays queued: unpausing it is the owner's call, so it comes first
        by = cause.details.get("paused_by")
        first = f"first the owner unpauses {dag_id} (paused{f' by {by}' if by else ''}; a paused DAG's runs stay " \
                "queued); then "
        plan_class = "fix_then_rerun"
    # copies to remove: a duplicated load, or partial rows an appending rerun would load again (a failed
    # try that a fix must precede wrote nothing to keep, so it is only rerun after the fix)
    if kind in DUPLICATE_CAUSES or (mode.mode == "append" and not diffs and kind not in FIX_FIRST):
        if mode.mode == "replace":
            first = first or f"{dag_id} replaces its partition ({mode.evidence}), so one rerun removes the copies; "
        else:
            sql, restore_sql, _ = _empty_partition_sql(dataset, _partition_column(settings, dataset), _partition(incident))
            first = (f"{first}{dag_id} appends ({mode.evidence}): empty the partition first (keeping a backup): "
                     f"{sql} then ")
            plan_class = "dedupe_then_reload"
    step = PlanStep(order=1, airflow_instance=instance, dag_id=dag_id, conf=conf, wait_for=waits,
                    description=(f"{first}rerun {dag_id}" if first else f"rerun {dag_id}")
                    + (f" after the owner merges {len(diffs)} fix(es)" if diffs else ""))
    return Plan(
        domain=domain.name if domain else "default",
        plan_class=plan_class,
        proposer=proposer,
        summary=(first[:1].upper() + first[1:] if first else "")
                + f"{'r' if first else 'R'}erun {dag_id} with conf {conf}"
                + (", then " + ", ".join(w.dag_id for w in waits) if waits else "")
                + f" to repair {dataset} ({cause.title or kind})",
        incident_id=incident.id,
        cause=cause.title or kind,
        trigger=incident.title,
        steps=(step,),
        undo=_undo(kind, dag_id, conf, instance, incident, diffs, mode, restore_sql),
        reversible=not diffs and plan_class == "reload_partition",
        diffs=diffs,
        blast_radius=blast_summary,
        verification=verification_refs(settings, incident, blast),
        proposed_at=now.replace(microsecond=0),
    )
