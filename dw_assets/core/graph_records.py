"""What the context graph, its traversals and its blast radius share: the vocabulary (node kinds,
relations, provenance origins), the records (`Node`, `Provenance`, `Edge`), the packed flow rows
the walks read (`FlowAdjacency`) and `GraphView`, the part of the graph a walk reads.

Kept apart so the imports run one way: `graph` (the `ContextGraph` store, whose `trace` and
`blast_radius` call the walks) imports `traversal` and `blast_radius`, and those two import only
this module, taking any `GraphView` (a `ContextGraph` is one) instead of importing the graph.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import numpy as np

if TYPE_CHECKING:
    from scipy.sparse import csr_array

NODE_KINDS = frozenset(
    {"dataset", "source", "model", "job", "task", "dag", "dbt_invocation", "dashboard", "reader",
     "metric", "semantic_model", "application"}
)
ORCHESTRATION_KINDS = frozenset({"job", "task", "dag", "dbt_invocation"})
FLOW_RELATIONS = frozenset({"reads", "writes", "feeds"})
STRUCTURE_RELATIONS = frozenset({"contains", "runs", "triggers"})
PROVENANCE_ORIGINS = frozenset({"dbt_manifest", "openlineage", "airflow", "note", "config"})
_T = TypeVar("_T")


class GraphError(ValueError):
    """A node or edge that does not fit the graph's vocabulary, or refers to a missing node."""


@dataclass(slots=True)
class Node:
    id: str
    kind: str
    system: str
    name: str
    owner: str | None = None
    attrs: dict[str, Any] = field(default_factory=dict)

    @property
    def is_orchestration(self) -> bool:
        return self.kind in ORCHESTRATION_KINDS

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "system": self.system, "name": self.name,
                "owner": self.owner, "attrs": self.attrs}


@dataclass(frozen=True)
class Provenance:
    """Who reported an edge: `origin` is one of PROVENANCE_ORIGINS; notes add author/source/date;
    `ref` points back into the origin (a dbt unique_id, an OpenLineage job or run id, a config key)."""

    origin: str
    author: str | None = None
    source: str | None = None
    recorded_at: date | datetime | None = None
    ref: str | None = None

    def __post_init__(self) -> None:
        if self.origin not in PROVENANCE_ORIGINS:
            raise GraphError(f"provenance origin {self.origin!r} is not one of {sorted(PROVENANCE_ORIGINS)}")

    def to_dict(self) -> dict[str, Any]:
        return {"origin": self.origin, "author": self.author, "source": self.source,
                "recorded_at": self.recorded_at.isoformat() if self.recorded_at else None, "ref": self.ref}


@dataclass(frozen=True)
class Edge:
    src: str
    dst: str
    relation: str
    provenance: tuple[Provenance, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"src": self.src, "dst": self.dst, "relation": self.relation,
                "provenance": [p.to_dict() for p in self.provenance]}


class GraphView(Protocol):
    """What a walk reads of a graph (`ContextGraph` has all of it): nodes by index, the edge
    columns, the orchestration flags, the flow adjacency, per-graph derived tables and `resolve`."""

    nodes_by_index: list[Node]
    index: dict[str, int]
    orchestration: list[bool]
    orchestration_count: int
    edge_src: array[int]
    edge_dst: array[int]
    edge_relation: list[str]
    edge_provenance: list[tuple[Provenance, ...]]
    flow_edge_ids: array[int]

    def __len__(self) -> int: ...

    def derived(self, key: Hashable, build: Callable[[GraphView], _T]) -> _T: ...

    def flow_adjacency(self, downstream: bool) -> FlowAdjacency: ...

    def resolve(self, asset_id: str) -> str: ...


@dataclass(frozen=True)
class FlowAdjacency:
    """One direction of the flow edges as compressed sparse rows: the neighbours of node `u` are
    `indices[indptr[u]:indptr[u + 1]]` in the order their edges were added, `edge_ids` the parallel
    edge ids. `matrix` is the same rows as a scipy sparse array (unit weights) for
    scipy.sparse.csgraph. Covers the graph's first `nodes` nodes and `edges` flow edges."""

    indptr: np.ndarray  # int32, nodes + 1
    indices: np.ndarray  # int32
    edge_ids: np.ndarray  # int64
    matrix: csr_array
    nodes: int
    edges: int

    @classmethod
    def extend(cls, graph: GraphView, old: FlowAdjacency | None, downstream: bool) -> FlowAdjacency:
        """`old` with the flow edges added after it merged in (each row keeps its old neighbours
        first), or built from scratch without `old`. Rows are not re-sorted: each entry moves by
        its row's shift, so the cost is a few passes over the arrays at memory speed."""
        n = len(graph.nodes_by_index)
        done = old.edges if old is not None else 0
        new_ids = np.frombuffer(graph.flow_edge_ids, dtype=np.int64)[done:]
        src = np.frombuffer(graph.edge_src, dtype=np.int64)[new_ids]
        dst = np.frombuffer(graph.edge_dst, dtype=np.int64)[new_ids]
        rows, cols = (src, dst) if downstream else (dst, src)
        old_counts = np.zeros(n, dtype=np.int64)
        if old is not None:
            old_counts[:old.nodes] = np.diff(old.indptr)
        add_counts = np.bincount(rows, minlength=n)
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(old_counts + add_counts, out=indptr[1:])
        total = int(indptr[-1])
        indices = np.empty(total, dtype=np.int32)
        edge_ids = np.empty(total, dtype=np.int64)
        if old is not None and old.edges:
            shift = indptr[:old.nodes] - old.indptr[:-1]
            at = np.arange(old.edges, dtype=np.int64) + np.repeat(shift, old_counts[:old.nodes])
            indices[at] = old.indices
            edge_ids[at] = old.edge_ids
        order = np.argsort(rows, kind="stable")  # keeps the order edges were added within a row
        sorted_rows = rows[order]
        group_start = np.cumsum(add_counts) - add_counts
        at = indptr[sorted_rows] + old_counts[sorted_rows] + np.arange(len(rows)) - group_start[sorted_rows]
        indices[at] = cols[order]
        edge_ids[at] = new_ids[order]
        indptr32 = indptr.astype(np.int32)
        # lazy: scipy costs ~0.4 s of CPU to import; the code location (loaded again by every Dagster run
        # worker) is defined without it, and only the runs that traverse a graph or fit a volume model load it
        from scipy.sparse import csr_array

        matrix = csr_array((np.ones(total), indices, indptr32), shape=(n, n))
        return cls(indptr32, indices, edge_ids, matrix, n, len(graph.flow_edge_ids))

    def edge_ids_of(self, u: int) -> list[int]:
        return self.edge_ids[self.indptr[u]:self.indptr[u + 1]].tolist()

    def gather(self, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every out-entry of `nodes`, rows in the given order: (neighbour, edge id, position in
        `nodes` of the row it came from)."""
        at, counts = self._entries(nodes)
        return self.indices[at], self.edge_ids[at], np.repeat(np.arange(len(nodes)), counts)

    def neighbours(self, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`gather` without the edge ids."""
        at, counts = self._entries(nodes)
        return self.indices[at], np.repeat(np.arange(len(nodes)), counts)

    def _entries(self, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        starts = self.indptr[nodes]
        counts = self.indptr[nodes + 1] - starts
        ends = np.cumsum(counts)
        # entry k of the output is row start + (k - where that row's entries begin in the output)
        return np.repeat(starts - ends + counts, counts) + np.arange(ends[-1] if len(ends) else 0), counts
