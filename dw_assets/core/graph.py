"""The context graph: every dataset, model, job and reader the estate's tools (and its people) know of.

Nodes carry a kind, the system they live in, a display name, an owner and free attributes. Edges
point the way data flows (`src` upstream, `dst` downstream) and remember every source that reported
them (`Provenance`): an edge dbt declares and a note repeats keeps both records.

Relations: `reads`, `writes`, `feeds` carry data and are followed by traversals; `contains`, `runs`,
`triggers` describe orchestration structure (a DAG contains a task) and are stored for context but
never followed, so a DAG does not make every one of its tasks' outputs "downstream" of each other.

Storage: nodes by integer index (ids, owners and attributes in `Node` records), edges in parallel
arrays (endpoints in `array`s, relation and provenance in lists). The flow adjacency the
traversals read is compressed sparse rows (`FlowAdjacency`: scipy.sparse, numpy arrays), one per
direction, kept up to date incrementally: edges added since the last query are merged into the
packed rows (a copy at memory speed, no re-sort), so a sensor that adds a few events' edges does
not pay for a rebuild. A traversal costs what it reaches plus one byte per graph node (the
visited marks). Node ids come from `dw_assets.core.identity`. Traversals live in
`dw_assets.core.traversal`; blast radius and its severity rule in `dw_assets.core.blast_radius`; the
records and `FlowAdjacency` they share with this module in `dw_assets.core.graph_records`.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Hashable, Iterable, Iterator
from itertools import count, repeat
from typing import Any, TypeVar

from dw_assets.core.blast_radius import BlastRadius, SeverityRule, blast_radius
from dw_assets.core.graph_records import (
    FLOW_RELATIONS,
    NODE_KINDS,
    STRUCTURE_RELATIONS,
    Edge,
    FlowAdjacency,
    GraphError,
    Node,
    Provenance,
)
from dw_assets.core.identity import UnknownAssetError, resolve_dataset_id
from dw_assets.core.traversal import TraceResult, trace

# the records live in graph_records (shared with the walks); callers keep importing them from here
__all__ = ["NODE_KINDS", "ContextGraph", "Edge", "FlowAdjacency", "GraphError", "Node", "Provenance"]

# a later add_node may refine these placeholder values (e.g. a config-declared dataset becomes a model)
_GENERIC_KIND = "dataset"
_GENERIC_SYSTEMS = frozenset({"warehouse", "unknown"})
_T = TypeVar("_T")



class ContextGraph:
    """Nodes by integer index, edges in parallel arrays, the flow adjacency as compressed sparse
    rows per direction (`flow_adjacency`). Build with add_node/add_edge/add_edges/add_alias; query
    with resolve, trace and blast_radius. Not thread-safe while being built; read-only use may be
    shared."""

    def __init__(self) -> None:
        self.nodes_by_index: list[Node] = []
        self.index: dict[str, int] = {}
        self.orchestration: list[bool] = []  # per node index
        self.orchestration_count = 0  # lets a walk skip the hidden-node checks when there are none
        self.edge_src = array("q")
        self.edge_dst = array("q")
        self.edge_relation: list[str] = []
        self.edge_provenance: list[tuple[Provenance, ...]] = []
        self.flow_edge_ids = array("q")  # flow edges in the order they were added
        # structural edges by node (a minority: most nodes have none)
        self.structure_out: dict[int, list[int]] = {}
        self.structure_in: dict[int, list[int]] = {}
        self._edge_ids: dict[tuple[int, int, str], int] = {}
        self._adjacency: dict[bool, FlowAdjacency] = {}
        self._derived: dict[Hashable, Any] = {}  # see derived
        self._aliases: dict[str, str] = {}
        self._suffixes: dict[str, list[int]] | None = None

    def __len__(self) -> int:
        return len(self.nodes_by_index)

    def __contains__(self, node_id: object) -> bool:
        return node_id in self.index

    @property
    def edge_count(self) -> int:
        return len(self.edge_src)

    def add_node(self, node_id: str, kind: str, system: str, *, name: str | None = None,
                 owner: str | None = None, attrs: dict[str, Any] | None = None,
                 aliases: Iterable[str] = ()) -> Node:
        """Add a node, or merge into the existing one: a generic kind/system is refined, a given
        owner replaces the old one (sources are applied manifest, config, feeds, notes: the last
        word is the human one), attrs are updated, the name is kept unless it was the bare id."""
        if kind not in NODE_KINDS:
            raise GraphError(f"node {node_id!r}: kind {kind!r} is not one of {sorted(NODE_KINDS)}")
        if not node_id or not system:
            raise GraphError(f"node {node_id!r}: id and system must be non-empty")
        i = self.index.get(node_id)
        if i is None:
            node = Node(node_id, kind, system, name or node_id, owner, dict(attrs or {}))
            self._append_node(node)
        else:
            node = self.nodes_by_index[i]
            self._merge_node(node, i, kind, system, name, owner, attrs)
        for alias in aliases:
            self.add_alias(alias, node_id)
        return node

    def _append_node(self, node: Node) -> None:
        i = len(self.nodes_by_index)
        if self._derived:
            self._derived.clear()
        self.nodes_by_index.append(node)
        self.index[node.id] = i
        self.orchestration.append(node.is_orchestration)
        self.orchestration_count += node.is_orchestration
        if self._suffixes is not None:
            for key in _search_keys(node):
                self._suffixes.setdefault(key, []).append(i)

    def _merge_node(self, node: Node, i: int, kind: str, system: str, name: str | None,
                    owner: str | None, attrs: dict[str, Any] | None) -> None:
        self._derived.clear()
        if node.kind == _GENERIC_KIND and kind != _GENERIC_KIND:
            node.kind = kind
            self.orchestration[i] = node.is_orchestration
            self.orchestration_count += node.is_orchestration
        if node.system in _GENERIC_SYSTEMS and system not in _GENERIC_SYSTEMS:
            node.system = system
        if name and (node.name == node.id) and name != node.name:
            node.name = name
            self._suffixes = None
        if owner:
            node.owner = owner
        if attrs:
            node.attrs.update(attrs)

    def add_alias(self, alias: str, node_id: str) -> None:
        """Another name for a node (a dbt unique_id, an Airflow asset name or URI); the node may be
        added later: resolve only follows aliases to nodes that exist."""
        self._aliases[alias] = node_id
        self._aliases.setdefault(alias.lower(), node_id)

    def add_edge(self, src: str, dst: str, relation: str, provenance: Provenance) -> None:
        """Add `src -> dst` (data flows src to dst), or add a provenance record to it."""
        flow = _check_relation(src, dst, relation)
        s, d = self.index.get(src), self.index.get(dst)
        if s is None or d is None:
            missing = src if s is None else dst
            raise GraphError(f"edge {src} -> {dst}: node {missing!r} is not in the graph; add it first")
        key = (s, d, relation)
        e = self._edge_ids.get(key)
        if e is None:
            self._edge_ids[key] = e = len(self.edge_src)
            self.edge_src.append(s)
            self.edge_dst.append(d)
            self.edge_relation.append(relation)
            self.edge_provenance.append((provenance,))
            if flow:
                if self._derived:
                    self._derived.clear()
                self.flow_edge_ids.append(e)
            else:
                self.structure_out.setdefault(s, []).append(e)
                self.structure_in.setdefault(d, []).append(e)
        elif provenance not in self.edge_provenance[e]:
            self.edge_provenance[e] += (provenance,)

    def replace_provenance(self, src: str, dst: str, relation: str, origin: str, provenance: Provenance) -> None:
        """`add_edge`, except that an existing edge's records of `origin` give way to `provenance`
        (in the first one's place): a source that keeps one record per edge (the last run that
        reported it) refreshing that record."""
        e = self._edge_ids.get((self.index.get(src, -1), self.index.get(dst, -1), relation))
        if e is None:
            self.add_edge(src, dst, relation, provenance)
            return
        old = self.edge_provenance[e]
        at = next((k for k, p in enumerate(old) if p.origin == origin), len(old))
        kept = [p for p in old if p.origin != origin and p != provenance]
        kept.insert(min(at, len(kept)), provenance)
        self.edge_provenance[e] = tuple(kept)

    def add_edges(self, pairs: Iterable[tuple[str, str]], relation: str, provenance: Provenance) -> None:
        """`add_edge(src, dst, relation, provenance)` for every (src, dst) pair, in one pass: the
        way to load a large estate (an OpenLineage backfill, a manifest's dependencies). New
        edges are appended in bulk; a batch that repeats an edge, or names one already present,
        is added edge by edge with the same result."""
        pairs = list(pairs)
        if not pairs:
            return
        flow = _check_relation(pairs[0][0], pairs[0][1], relation)
        srcs, dsts = zip(*pairs)
        index = self.index
        try:
            s = list(map(index.__getitem__, srcs))
            d = list(map(index.__getitem__, dsts))
        except KeyError as exc:
            src, dst = next((a, b) for a, b in pairs if a == exc.args[0] or b == exc.args[0])
            raise GraphError(f"edge {src} -> {dst}: node {exc.args[0]!r} is not in the graph; "
                             "add it first") from None
        first = len(self.edge_src)
        new = dict(zip(zip(s, d, repeat(relation)), count(first)))
        if len(new) != len(pairs) or not self._edge_ids.keys().isdisjoint(new):
            for src, dst in pairs:
                self.add_edge(src, dst, relation, provenance)
            return
        self._edge_ids.update(new)
        self.edge_src.extend(s)
        self.edge_dst.extend(d)
        self.edge_relation += [relation] * len(s)
        self.edge_provenance += [(provenance,)] * len(s)  # tuples: sharing one is safe
        ids = range(first, first + len(s))
        if flow:
            self._derived.clear()
            self.flow_edge_ids.extend(ids)
        else:
            for e, a, b in zip(ids, s, d):
                self.structure_out.setdefault(a, []).append(e)
                self.structure_in.setdefault(b, []).append(e)

    def derived(self, key: Hashable, build: Callable[[ContextGraph], _T]) -> _T:
        """`build(self)`, computed once and kept until the graph next changes through add_node or
        add_edge: whole-graph tables that traversals index by node (severity inputs, node flags;
        the adjacency is kept apart, see `flow_adjacency`). Writing to a node's fields directly does not refresh them."""
        try:
            return self._derived[key]
        except KeyError:
            value = self._derived[key] = build(self)
            return value

    def flow_adjacency(self, downstream: bool) -> FlowAdjacency:
        """The flow edges as compressed sparse rows (out-edges downstream, in-edges upstream),
        brought up to date on each call: flow edges added since the last call are merged in."""
        adj = self._adjacency.get(downstream)
        n, flows = len(self.nodes_by_index), len(self.flow_edge_ids)
        if adj is None or adj.edges != flows or adj.nodes != n:
            adj = self._adjacency[downstream] = FlowAdjacency.extend(self, adj, downstream)
        return adj

    def node(self, node_id: str) -> Node:
        i = self.index.get(node_id)
        if i is None:
            raise UnknownAssetError(node_id, [])
        return self.nodes_by_index[i]

    def edge(self, e: int) -> Edge:
        return Edge(self.nodes_by_index[self.edge_src[e]].id, self.nodes_by_index[self.edge_dst[e]].id,
                    self.edge_relation[e], tuple(self.edge_provenance[e]))

    def edges(self) -> Iterator[Edge]:
        return (self.edge(e) for e in range(len(self.edge_src)))

    def nodes(self) -> Iterator[Node]:
        return iter(self.nodes_by_index)

    def edges_of(self, node_id: str, *, structure: bool = False) -> list[Edge]:
        """Every edge touching a node (flow edges; with structure=True, the structural ones)."""
        i = self.index[node_id]
        if structure:
            ids = self.structure_out.get(i, []) + self.structure_in.get(i, [])
        else:
            ids = self.flow_adjacency(True).edge_ids_of(i) + self.flow_adjacency(False).edge_ids_of(i)
        return [self.edge(e) for e in ids]

    def resolve(self, asset_id: str) -> str:
        """The node id an asset reference means: the exact id, an alias, the canonical form of a
        relation name, a node's name/label, or a unique dotted suffix of an id (`orders_clean`,
        `bronze.gl_entries`, `close_trial_balance`). Among several matches of the same rank, data
        nodes win over orchestration nodes (`orders_clean` is the table, not the Airflow task).
        Raises UnknownAssetError or AmbiguousAssetError, both with candidates."""
        return resolve_dataset_id(asset_id, self.index, self._aliases, search=self._search,
                                  near=self._near_misses)

    def _search(self, canonical: str, lowered: str) -> list[str]:
        """Nodes whose name or dotted id suffix is the query; data nodes win over orchestration."""
        matches = self._search_index().get(canonical, []) or self._search_index().get(lowered, [])
        unique = sorted(set(matches))
        data = [i for i in unique if not self.orchestration[i]]
        return [self.nodes_by_index[i].id for i in (data or unique)]

    def _search_index(self) -> dict[str, list[int]]:
        if self._suffixes is None:
            self._suffixes = {}
            for i, node in enumerate(self.nodes_by_index):
                for key in _search_keys(node):
                    self._suffixes.setdefault(key, []).append(i)
        return self._suffixes

    def _near_misses(self, query: str, limit: int = 8) -> list[str]:
        last = query.rsplit(".", 1)[-1].rsplit(":", 1)[-1]
        if len(last) < 3:
            return []
        hits = [n.id for n in self.nodes_by_index if last in n.id.lower()]
        return sorted(hits)[:limit]

    def trace(self, asset_id: str, direction: str = "upstream", max_depth: int | None = 10,
              include_orchestration: bool = False) -> TraceResult:
        return trace(self, asset_id, direction=direction, max_depth=max_depth,
                     include_orchestration=include_orchestration)

    def blast_radius(self, asset_id: str, max_depth: int | None = 10,
                     rule: SeverityRule | None = None) -> BlastRadius:
        return blast_radius(self, asset_id, max_depth=max_depth, rule=rule)


def _check_relation(src: str, dst: str, relation: str) -> bool:
    """Whether `relation` is a flow relation; GraphError when it is neither flow nor structure."""
    if relation in FLOW_RELATIONS:
        return True
    if relation not in STRUCTURE_RELATIONS:
        raise GraphError(f"edge {src} -> {dst}: relation {relation!r} is not one of "
                         f"{sorted(FLOW_RELATIONS | STRUCTURE_RELATIONS)}")
    return False


def _search_keys(node: Node) -> set[str]:
    """Dotted suffixes of the id (after any `system:` prefix) and the lower-cased name."""
    bare = node.id.split(":", 1)[1] if ":" in node.id and "://" not in node.id else node.id
    parts = bare.lower().split(".")
    keys = {".".join(parts[k:]) for k in range(len(parts))}
    keys.add(node.name.lower())
    keys.discard(node.id)
    return keys
