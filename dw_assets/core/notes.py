"""Team notes: the hops no tool emits (a task reading an application table over JDBC, the people
reading a dashboard), each with who recorded it and where it is written down.

File shape (YAML):

    notes:
      - from: app.orders                          # data flows from -> to
        to: airflow:orders_daily.orders_clean
        relation: reads                           # reads | writes | feeds | contains | runs | triggers
        author: jonas.berg                        # who recorded it
        source: DATA-1423                         # a URL, doc or ticket reference
        recorded_at: 2026-05-12
        from_node: {kind: dataset, system: app, owner: app-platform, name: "orders (app DB)"}
        to_node: {kind: task, system: airflow}    # optional: declare or enrich either end

`from`/`to` are resolved like any asset reference (exact id, alias, unique short name). An end
that is not in the graph must be declared with `from_node`/`to_node` (kind and system), so a typo
fails loudly instead of inventing a node; a declared end's owner, name and attrs are applied to the
node (notes load last: a note's owner is the last word). Each edge gets a `note` provenance record
with the author, source and date.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from dw_assets.core.graph import NODE_KINDS, ContextGraph, GraphError, Provenance
from dw_assets.core.identity import (
    AmbiguousAssetError,
    IdentityError,
    UnknownAssetError,
    canonical_dataset_id,
)

Relation = Literal["reads", "writes", "feeds", "contains", "runs", "triggers"]


@dataclass(frozen=True)
class NoteProblem:
    index: int
    endpoints: str  # "from -> to" as written, for the reader to find the entry
    field: str
    message: str

    def __str__(self) -> str:
        return f"entry {self.index} ({self.endpoints}): field {self.field}: {self.message}"


class NotesError(ValueError):
    """Invalid notes: names the file, and per problem the entry index, its from/to and the field."""

    def __init__(self, path: Path | str, problems: list[NoteProblem]):
        self.path, self.problems = str(path), problems
        lines = [f"{path}: {len(problems)} invalid note(s)"] + [f"  - {p}" for p in problems]
        super().__init__("\n".join(lines))


class NoteNode(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: str
    system: str = "note"
    name: str | None = None
    owner: str | None = None
    attrs: dict[str, Any] = {}

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, value: str) -> str:
        if value not in NODE_KINDS:
            raise ValueError(f"must be one of {sorted(NODE_KINDS)}")
        return value


class Note(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    from_: str = Field(alias="from", min_length=1)
    to: str = Field(min_length=1)
    relation: Relation
    author: str = Field(min_length=1)
    source: str = Field(min_length=1)
    recorded_at: date
    from_node: NoteNode | None = None
    to_node: NoteNode | None = None


def parse_notes(raw: Any, path: Path | str) -> list[Note]:
    """Validate every entry; collect all problems before raising one NotesError."""
    if raw is None:
        return []
    entries = raw.get("notes") if isinstance(raw, dict) else raw
    if not isinstance(entries, list):
        raise NotesError(path, [NoteProblem(0, "-", "notes", "the file must hold a list under `notes:`")])
    notes, problems = [], []
    for i, entry in enumerate(entries):
        ends = f"{entry.get('from', '?')} -> {entry.get('to', '?')}" if isinstance(entry, dict) else "?"
        if not isinstance(entry, dict):
            problems.append(NoteProblem(i, ends, "(entry)", "must be a mapping"))
            continue
        try:
            notes.append(Note.model_validate(entry))
        except ValidationError as exc:
            for err in exc.errors():
                where = ".".join(str(p) for p in err["loc"]) or "(entry)"
                problems.append(NoteProblem(i, ends, where, _message(err)))
    if problems:
        raise NotesError(path, problems)
    return notes


def _message(err: Any) -> str:
    if err["type"] == "missing":
        return "is required"
    if err["type"] == "extra_forbidden":
        return "is not a known field (remove it or check its spelling)"
    return err["msg"]


def load_notes(path: str | Path) -> list[Note]:
    path = Path(path)
    if not path.exists():
        raise NotesError(path, [NoteProblem(0, "-", "(file)", "does not exist")])
    try:
        raw = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise NotesError(path, [NoteProblem(0, "-", "(file)", f"not valid YAML: {exc}")]) from exc
    return parse_notes(raw, path)


def apply_notes(graph: ContextGraph, notes: list[Note], path: Path | str = "<notes>") -> None:
    """Add every note's edge (and declared nodes); raise NotesError listing every unusable entry."""
    problems: list[NoteProblem] = []
    for i, note in enumerate(notes):
        ends = f"{note.from_} -> {note.to}"
        try:
            src = _endpoint(graph, note.from_, note.from_node)
            dst = _endpoint(graph, note.to, note.to_node)
        except _EndpointProblem as exc:
            problems.append(NoteProblem(i, ends, exc.field_name(note), str(exc)))
            continue
        provenance = Provenance("note", author=note.author, source=note.source, recorded_at=note.recorded_at)
        try:
            graph.add_edge(src, dst, note.relation, provenance)
        except GraphError as exc:
            problems.append(NoteProblem(i, ends, "relation", str(exc)))
    if problems:
        raise NotesError(path, problems)


class _EndpointProblem(Exception):
    def __init__(self, ref: str, message: str):
        self.ref = ref
        super().__init__(message)

    def field_name(self, note: Note) -> str:
        return "from" if self.ref == note.from_ else "to"


def _endpoint(graph: ContextGraph, ref: str, declared: NoteNode | None) -> str:
    try:
        node_id = graph.resolve(ref)
    except AmbiguousAssetError as exc:
        raise _EndpointProblem(ref, f"{ref!r} is ambiguous: write one of {', '.join(exc.candidates)}") from exc
    except UnknownAssetError as exc:
        if declared is None:
            hint = f" (close: {', '.join(exc.candidates)})" if exc.candidates else ""
            raise _EndpointProblem(ref, f"{ref!r} is not in the graph{hint}; declare it with "
                                        f"from_node/to_node {{kind, system}} to add it") from exc
        node_id = _new_node_id(ref)
    if declared is not None:
        graph.add_node(node_id, declared.kind, declared.system, name=declared.name,
                       owner=declared.owner, attrs=declared.attrs)
    return node_id


def _new_node_id(ref: str) -> str:
    """Prefixed ids (`airflow:dag.task`, `exposure:x`, `reader:x`) are kept; names are canonicalised."""
    if ":" in ref and "://" not in ref:
        prefix, rest = ref.split(":", 1)
        return f"{prefix.lower()}:{rest}"
    try:
        return canonical_dataset_id(ref)
    except IdentityError as exc:
        raise _EndpointProblem(ref, str(exc)) from exc
