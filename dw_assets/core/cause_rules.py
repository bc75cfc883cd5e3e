"""Candidate generators for data-shape causes (landing parts, late inputs, schema changes).

Run- and error-driven generators live in `cause_rules_runs`. Each reads the evidence and states
weighted facts.

Nothing here knows the demo's names: datasets come from the graph (scope = the symptom and what
is upstream of it), partitions and landing globs from the config through the evidence, columns and
types from schema records and error messages. Weights live in `dw_assets.core.diagnosis.WEIGHTS`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from statistics import median

from dw_assets.core.causes import Cause, Fact, fact
from dw_assets.core.evidence import (
    ErrorClassification,
    EvidenceBundle,
    LandedFile,
    PartitionProfile,
    SchemaChange,
    TaskRun,
    type_family,
)
from dw_assets.core.fixes import find_casts, references_column

MISSING_DATA = ("volume_low", "stale", "check_failed")


def hm(value) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if value else "?"


def scope_of(ev: EvidenceBundle) -> dict[str, int]:
    scope = {n.node_id: n.depth for n in ev.upstream}
    if ev.symptom.dataset_id:
        scope[ev.symptom.dataset_id] = 0
    return scope


def task_node(ev: EvidenceBundle, job: str) -> str:
    """The graph's id for an Airflow task or job, whatever prefix the graph gives it."""
    for node in ev.upstream:
        if node.node_id == job or re.search(rf"[:/]{re.escape(job)}$", node.node_id):
            return node.node_id
    return job


def _writer(ev: EvidenceBundle, dataset_id: str) -> tuple[str | None, str | None]:
    """(graph node, dag id) of the Airflow task the graph says writes the dataset, when no run was read."""
    for node in ev.upstream:
        if node.kind == "task" and dataset_id in node.feeds:
            bare = node.node_id.split(":", 1)[-1]
            return node.node_id, bare.split(".", 1)[0] if node.system == "airflow" else None
    return None, None


def landed_parts(ev: EvidenceBundle, profile: PartitionProfile, markers: bool = False) -> list[LandedFile]:
    # a file whose store gives no time cannot be placed against a load: the timing rules skip it
    files = [f for f in ev.landed_files if f.dataset_id == profile.dataset_id and f.arrived_at is not None
             and f.partition == profile.partition and f.is_marker == markers]
    return sorted(files, key=arrived)


def arrived(f: LandedFile) -> datetime:
    """When a file landed (landed_parts keeps only files that have a time)."""
    if f.arrived_at is None:
        raise ValueError(f"landed file {f.name} has no arrival time")
    return f.arrived_at


def loads_of(ev: EvidenceBundle, dataset_id: str, partition: str | None) -> list[TaskRun]:
    """Successful runs that wrote the dataset before the symptom; those whose conf names the partition
    first (a run's conf is how an operator says which partition it loads)."""
    runs = [r for r in ev.producers_of(dataset_id)
            if r.state == "success" and r.start and r.start <= ev.symptom.observed_at]
    matching = [r for r in runs if partition and partition in {str(v) for v in r.conf.values()}]
    return sorted(matching or runs, key=_started_at)


def _started_at(run: TaskRun) -> datetime:
    if run.start is None:  # _loads keeps started runs only
        raise ValueError(f"run {run.run_id} of {run.job} has no start time")
    return run.start


def _base(name: str) -> str:
    return name.replace("\\", "/").rsplit("/", 1)[-1]


def _history_median(profile: PartitionProfile) -> float | None:
    return float(median(profile.history_rows)) if profile.history_rows else None


def split_export(ev: EvidenceBundle) -> Iterator[Cause]:
    for profile in ev.profiles:
        parts = landed_parts(ev, profile)
        if len(parts) < 2:
            continue
        loads = loads_of(ev, profile.dataset_id, profile.partition)
        yield _split_cause(ev, profile, parts, loads[-1] if loads else None)


def _split_cause(ev: EvidenceBundle, profile: PartitionProfile, parts: list[LandedFile], load: TaskRun | None):
    ds, part = profile.dataset_id, profile.partition
    facts: list[Fact] = []
    low = _volume_low_fact(ev, profile)
    if low:
        facts.append(low)
    facts.append(fact("multi_part_export", f"{len(parts)} parts landed for {part}: "
                      + ", ".join(f"{f.name} at {hm(arrived(f))}" for f in parts), "landing"))
    present = {_base(k) for k in profile.rows_by_source_file}
    absent = [f for f in parts if present and f.name not in present]
    late = [f for f in parts if load and load.start and arrived(f) > load.start]
    if load and load.start:
        if late:
            facts.append(fact("part_after_release", f"{', '.join(f.name for f in late)} arrived at "
                              f"{hm(arrived(late[0]))}, after {load.job} started at {hm(load.start)} "
                              f"(ended {hm(load.end)})", load.system))
        else:
            facts.append(fact("no_part_after_release", f"every part arrived before {load.job} started at "
                              f"{hm(load.start)}", load.system))
    if absent:
        facts.append(fact("parts_missing_from_partition", f"every row of {ds} {part} comes from "
                          f"{', '.join(sorted(present))}; none from {', '.join(f.name for f in absent)}",
                          "warehouse"))
    elif present:
        facts.append(fact("partition_has_every_part", f"{ds} {part} holds rows from every part", "warehouse"))
    explains = _gap_link(profile, late or absent)
    if explains:
        facts.append(fact("late_part_covers_gap", explains, "warehouse"))
    markers = landed_parts(ev, profile, markers=True)
    if load and load.start and (not markers or arrived(markers[0]) > load.start):
        when = f"at {hm(arrived(markers[0]))}" if markers else "not at all yet"
        facts.append(fact("marker_after_release", f"the done-marker landed {when}; {load.job} did not wait "
                          "for it", "landing"))
    writer, writer_dag = _writer(ev, ds)
    subject = task_node(ev, load.job) if load else (writer or ds)
    return Cause(
        "split_export_early_release", subject,
        f"Export for {part} arrived in {len(parts)} parts and the load ran before the last one landed",
        tuple(facts),
        ("every part's arrival time precedes the load task's start",
         "the partition holds rows from every part",
         "the missing period is not covered by the late part"),
        explains=explains,
        details={"dataset": ds, "partition": part, "dag_id": load.dag_id if load else writer_dag,
                 "task_id": load.task_id if load else None, "conf": dict(load.conf) if load else {},
                 "late_parts": [f.name for f in late or absent], "glob": parts[0].glob,
                 "depth": ev.depth_of(ds) or 0},
    )


def _volume_low_fact(ev: EvidenceBundle, profile: PartitionProfile) -> Fact | None:
    sym = ev.symptom
    med = _history_median(profile)
    if med and profile.rows < 0.8 * med:
        return fact("volume_low_on_dataset", f"{profile.dataset_id} {profile.partition} holds {profile.rows:,} "
                    f"rows, {profile.rows / med:.0%} of the median of its last {len(profile.history_rows)}", "warehouse")
    if sym.kind == "volume_low" and sym.dataset_id == profile.dataset_id:
        return fact("volume_low_on_dataset", sym.summary or f"the volume check on {profile.dataset_id} failed",
                    "check")
    return None


def _gap_link(profile: PartitionProfile, late: list[LandedFile]) -> str | None:
    """The explaining link: the late part holds exactly the dates (or rows) the partition lacks."""
    if not late:
        return None
    names = ", ".join(f.name for f in late)
    for col, (lo, hi) in profile.date_ranges.items():
        ranges = [f.date_ranges[col] for f in late if col in f.date_ranges]
        if not ranges or not profile.expected_range or hi >= profile.expected_range[1]:
            continue
        late_lo, late_hi = min(r[0] for r in ranges), max(r[1] for r in ranges)
        if late_lo > hi and late_hi > hi:
            return (f"{col} in {profile.dataset_id} {profile.partition} stops at {hi} (the period runs to "
                    f"{profile.expected_range[1]}); {names} holds {col} {late_lo} .. {late_hi}")
    med = _history_median(profile)
    late_rows = sum(f.rows or 0 for f in late)
    if med and late_rows and abs((med - profile.rows) - late_rows) <= 0.15 * med:
        return (f"{profile.dataset_id} {profile.partition} is short by about {med - profile.rows:,.0f} rows of its "
                f"history; {names} holds {late_rows:,} rows")
    return None


def late_upstream(ev: EvidenceBundle) -> Iterator[Cause]:
    for profile in ev.profiles:
        parts = landed_parts(ev, profile)
        loads = loads_of(ev, profile.dataset_id, profile.partition)
        load = loads[-1] if loads else None
        if parts and load and load.start and all(arrived(f) > load.start for f in parts):
            yield _late_files_cause(ev, profile, parts, load)
    yield from _late_task_causes(ev)


def _late_files_cause(ev, profile, parts, load) -> Cause:
    facts = [fact("all_parts_after_release", f"{load.job} ran at {hm(load.start)}; the first part of "
                  f"{profile.partition} landed at {hm(arrived(parts[0]))}", load.system)]
    explains = None
    if ev.symptom.kind in MISSING_DATA:
        explains = (f"{load.job} loaded {profile.dataset_id} {profile.partition} at {hm(load.start)}, before its "
                    f"data arrived ({parts[0].name} at {hm(arrived(parts[0]))}): it holds {profile.rows:,} rows")
        facts.append(fact("symptom_is_missing_data", ev.symptom.summary or ev.symptom.kind, "check"))
    return Cause("late_upstream", task_node(ev, load.job), f"Data for {profile.partition} landed after the load ran",
                 tuple(facts), ("a part arrived before the load started", "a later load picked up the data"),
                 explains=explains, details={"dataset": profile.dataset_id, "partition": profile.partition,
                                             "dag_id": load.dag_id, "conf": dict(load.conf)})


def _late_task_causes(ev: EvidenceBundle) -> Iterator[Cause]:
    sym = ev.symptom
    consumers = loads_of(ev, sym.dataset_id, sym.partition) if sym.dataset_id else []
    if not consumers:
        return
    consumer = consumers[-1]
    started = _started_at(consumer)
    scope = scope_of(ev)
    inputs = consumer.inputs or tuple(d for d, depth in scope.items() if 1 <= depth <= 2)
    for dataset in inputs:
        for run in ev.producers_of(dataset):
            if run.state != "success" or not run.end or not (started < run.end <= ev.window[1]):
                continue
            yield _late_task_cause(ev, consumer, dataset, run, run.end)


def _late_task_cause(ev: EvidenceBundle, consumer: TaskRun, dataset: str, run: TaskRun,
                     finished: datetime) -> Cause:
    started = _started_at(consumer)
    lag = finished - started
    facts = [fact("upstream_updated_after_consumer_started", f"{consumer.job} started at {hm(started)}; "
                  f"{run.job} finished writing {dataset} at {hm(finished)} ({lag} later)", run.system)]
    reran = [r for r in ev.producers_of(ev.symptom.dataset_id or "") if r.start and r.start > finished]
    if reran:
        facts.append(fact("consumer_reran_after_update", f"{reran[0].job} ran again at {hm(reran[0].start)}",
                          reran[0].system))
    explains = None
    if ev.symptom.kind in MISSING_DATA:
        facts.append(fact("symptom_is_missing_data", ev.symptom.summary or ev.symptom.kind, "check"))
        explains = f"{consumer.job} read {dataset} {lag} before {run.job} finished writing it"
    return Cause("late_upstream", dataset, f"{dataset} was updated after {consumer.job} had read it", tuple(facts),
                 (f"{run.job} finished before {consumer.job} started", f"{consumer.job} ran again afterwards"),
                 explains=explains, details={"dataset": dataset, "upstream_job": run.job, "consumer": consumer.job,
                                             "depth": ev.depth_of(dataset) or 0})


def _changes(ev: EvidenceBundle, kinds: tuple[str, ...]) -> dict[str, list[SchemaChange]]:
    scope = scope_of(ev)
    grouped: dict[str, list[SchemaChange]] = {}
    for change in ev.schema_changes:
        if change.change in kinds and change.dataset_id in scope and change.observed_at <= ev.window[1]:
            grouped.setdefault(change.column.lower(), []).append(change)
    for changes in grouped.values():
        changes.sort(key=lambda c: scope[c.dataset_id])
    return grouped


def _origin(ev: EvidenceBundle, column: str, changes: list[SchemaChange]) -> tuple[str, Fact | None]:
    """The furthest upstream dataset already showing the new type: where the change came from."""
    scope = scope_of(ev)
    deepest = max(changes, key=lambda c: scope[c.dataset_id])
    family = type_family(deepest.new_type)
    found = [(scope[s.dataset_id], s) for s in ev.schemas
             if scope.get(s.dataset_id, -1) > scope[deepest.dataset_id] and family != "other"
             and type_family(_col(s.columns, column)) == family]
    if not found:
        return deepest.dataset_id, None
    _, schema = max(found, key=lambda pair: pair[0])
    return schema.dataset_id, fact("origin_further_upstream", f"{schema.dataset_id}.{column} is "
                                   f"{_col(schema.columns, column)} now ({schema.source})", schema.source)


def _col(columns: dict[str, str], column: str) -> str | None:
    return next((t for c, t in columns.items() if c.lower() == column), None)


def type_change(ev: EvidenceBundle) -> Iterator[Cause]:
    err = ev.symptom_error()
    for column, changes in _changes(ev, ("type_changed",)).items():
        near = changes[0]
        facts = [fact("column_type_changed", "; ".join(
            f"{c.dataset_id}.{c.column} changed {c.old_type} -> {c.new_type} at {hm(c.observed_at)} ({c.source}"
            + (f" run {c.run_id}" if c.run_id else "") + ")" for c in changes[:3]), near.source)]
        origin, origin_fact = _origin(ev, column, changes)
        if origin_fact:
            facts.append(origin_fact)
        casts = _casts_below(ev, column, near.dataset_id)
        explains = _type_error_link(facts, err, near, casts)
        odd = [v for p in ev.profiles for v in p.non_castable.get(column, ())]
        if odd:
            facts.append(fact("non_castable_values", f"{column} now holds values no number reads: "
                              + ", ".join(repr(v) for v in sorted(set(odd))[:5]), "warehouse"))
        depth = ev.depth_of(near.dataset_id) or 0
        if depth > 1:
            facts.append(fact("depth_penalty", f"{depth} hops upstream of the symptom", "graph", times=depth - 1))
        yield Cause("upstream_type_change", origin, f"{origin}.{column} changed type {near.old_type} -> "
                    f"{near.new_type}", tuple(facts),
                    (f"{column} kept its type in every run of {near.dataset_id}",
                     f"the error names a column other than {column}",
                     f"no model between {near.dataset_id} and the symptom reads {column}"),
                    explains=explains, origin=origin,
                    details={"column": column, "old_type": near.old_type, "new_type": near.new_type,
                             "changed_on": [c.dataset_id for c in changes], "depth": depth,
                             "sentinels": sorted({*odd, *([err.value] if err and err.value else [])}),
                             "casts": [c.__dict__ for c in casts]})


def _casts_below(ev: EvidenceBundle, column: str, dataset_id: str) -> list:
    """Casts of the column in models between the changed dataset and the symptom."""
    limit = ev.depth_of(dataset_id) or 0
    scope = scope_of(ev)
    return [site for m in ev.models if scope.get(m.node_id, 99) < limit
            for site in find_casts(m.sql, column, model=m.node_id, file_path=m.file_path)]


def _type_error_link(facts: list[Fact], err: ErrorClassification | None, change: SchemaChange,
                     casts: list) -> str | None:
    col = change.column.lower()
    if casts:
        site = casts[0]
        facts.append(fact("model_casts_column", f"{site.model} casts {col} to {site.target_type} "
                          f"({site.file_path} line {site.line})", "dbt_manifest"))
    if not err:
        return None
    if err.kind != "conversion":
        facts.append(fact("error_of_other_kind", f"the error is a {err.kind.replace('_', ' ')} error", "openlineage"))
        return None
    facts.append(fact("error_is_conversion", f"the run failed converting {err.value!r} to {err.target_type}",
                      "openlineage"))
    if type_family(err.target_type) == type_family(change.old_type) and type_family(change.new_type) == "string":
        facts.append(fact("error_value_fits_change", f"{err.target_type} is the column's old type family; the "
                          f"column is {change.new_type} now", "openlineage"))
    if err.column and err.column != col:
        facts.append(fact("error_names_other_column", f"the error names {err.column}, not {col}", "openlineage"))
        return None
    if err.column == col:
        facts.append(fact("error_names_column", f"the error names {col}: cannot convert {err.value!r} to "
                          f"{err.target_type}", "openlineage"))
        return f"the error converting {err.value!r} names {col}, the column whose type changed on {change.dataset_id}"
    matching = [c for c in casts if type_family(c.target_type) == type_family(err.target_type)]
    if matching:
        return (f"{matching[0].model} casts {col} to {matching[0].target_type}, the cast that failed on "
                f"{err.value!r}, and {col} changed type on {change.dataset_id}")
    return None


def dropped_column(ev: EvidenceBundle) -> Iterator[Cause]:
    err = ev.symptom_error()
    for column, changes in _changes(ev, ("dropped", "renamed")).items():
        near = changes[0]
        verb = f"was renamed to {near.new_name}" if near.change == "renamed" else "was dropped"
        facts = [fact("column_dropped", f"{near.dataset_id}.{near.column} {verb} at {hm(near.observed_at)} "
                      f"({near.source})", near.source)]
        limit = ev.depth_of(near.dataset_id) or 0
        readers = [m for m in ev.models if scope_of(ev).get(m.node_id, 99) < limit and references_column(m.sql, column)]
        if readers:
            facts.append(fact("model_references_column", f"{readers[0].name} reads {column} "
                              f"({readers[0].file_path})", "dbt_manifest"))
        explains = _missing_error_link(facts, err, near, readers)
        yield Cause("dropped_column", near.dataset_id, f"{near.dataset_id}.{near.column} {verb}", tuple(facts),
                    (f"{column} is still present in {near.dataset_id}", "the error names another column"),
                    explains=explains, details={"column": column, "change": near.change, "new_name": near.new_name,
                                                "depth": limit})


def _missing_error_link(facts, err, change, readers) -> str | None:
    col = change.column.lower()
    if not err:
        return None
    if err.kind != "missing_column":
        facts.append(fact("error_of_other_kind", f"the error is a {err.kind.replace('_', ' ')} error", "openlineage"))
        return None
    facts.append(fact("error_is_missing_column", "the run failed on a column it could not find", "openlineage"))
    if err.column and err.column != col:
        facts.append(fact("error_names_other_column", f"the error names {err.column}, not {col}", "openlineage"))
        return None
    if err.column == col:
        facts.append(fact("error_names_column", f"the error names {col}", "openlineage"))
        return f"the error's missing column {col} is the column that left {change.dataset_id}"
    if readers:
        return f"{readers[0].name} reads {col}, which left {change.dataset_id}"
    return None


GENERATORS = [split_export, late_upstream, type_change, dropped_column]
