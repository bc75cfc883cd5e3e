"""Walking the context graph: breadth-first, depth-limited, in either direction, cycle-safe.

Depth counts the listed hops. With `include_orchestration=False` (the default) jobs, tasks, DAGs
and dbt invocations are walked through at no depth cost and left out of the result, so
`lake.orders_clean -> [dbt job] -> analytics.stg_orders` is one hop and the two datasets are linked
by a collapsed edge that keeps the provenance of every hop it stands for and names the hidden nodes
in `via`. With `include_orchestration=True` every node costs one hop and is listed.

A node is visited once (the first, shallowest time), so cycles terminate; cost is proportional to
the nodes and edges reached. The result's edges are every followed edge between reached nodes, in
data-flow orientation (`src` upstream), computed on first access.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property, partial
from itertools import filterfalse, islice, repeat
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

if TYPE_CHECKING:
    from dw_assets.core.graph import ContextGraph, Node, Provenance

DIRECTIONS = ("upstream", "downstream", "both")
_NODE_FIELDS = attrgetter("id", "kind", "system", "name", "owner")
_Record = TypeVar("_Record", bound=tuple)


def node_records(cls: type[_Record], nodes: Iterable[Node], *columns: Iterable[Any]) -> list[_Record]:
    """`cls(node.id, node.kind, node.system, node.name, node.owner, *column values)` per node.

    Built by C-level map/zip, not a Python loop: a large trace or blast radius makes one record
    per reached node (20k+), and the per-iteration interpreter cost was most of the query time."""
    make = partial(tuple.__new__, cls)
    return list(map(make, map(tuple.__add__, map(_NODE_FIELDS, nodes), zip(*columns))))


def _depth_of(node: TracedNode) -> int:
    return node.depth


@dataclass(frozen=True)
class Walk:
    """What one directional walk reached: depth per node index (in discovery order, so listed
    nodes come in non-decreasing depth) and, when asked for, the parent index of each node."""

    root: int
    downstream: bool
    depth: dict[int, int]
    parent: dict[int, int] | None


def walk(graph: ContextGraph, root: int, *, downstream: bool, max_depth: int | None,
         hide_orchestration: bool, parents: bool = False) -> Walk:
    adj = graph.out_nodes if downstream else graph.in_nodes
    limit = -1 if max_depth is None else max_depth
    parent: dict[int, int] | None = {} if parents else None
    if hide_orchestration and graph.orchestration_count:
        depth = _walk_hiding(adj, graph.orchestration, root, limit, parent)
    else:
        depth = _walk_plain(adj, root, limit, parent)
    return Walk(root, downstream, depth, parent)


def _walk_plain(adj: list[list[int]], root: int, limit: int, parent: dict[int, int] | None) -> dict[int, int]:
    depth = {root: 0}
    frontier, d = [root], 0
    while frontier and d != limit:
        d += 1
        deeper: list[int] = []
        for u in frontier:
            for v in adj[u]:
                if v not in depth:
                    depth[v] = d
                    deeper.append(v)
                    if parent is not None:
                        parent[v] = u
        frontier = deeper
    return depth


def _walk_hiding(adj: list[list[int]], hidden: list[bool], root: int, limit: int,
                 parent: dict[int, int] | None) -> dict[int, int]:
    """Hidden nodes join the level being expanded (they cost no depth), so `frontier` grows while
    it is iterated; visible nodes go one level deeper unless that passes the limit."""
    depth = {root: 0}
    frontier, d = [root], 0
    while frontier:
        deeper: list[int] = []
        can_go_deeper = d != limit
        for u in frontier:
            for v in adj[u]:
                if v in depth:
                    continue
                if hidden[v]:
                    depth[v] = d
                    frontier.append(v)
                elif can_go_deeper:
                    depth[v] = d + 1
                    deeper.append(v)
                else:
                    continue
                if parent is not None:
                    parent[v] = u
        frontier, d = deeper, d + 1
    return depth


class TracedNode(NamedTuple):
    id: str
    kind: str
    system: str
    name: str
    owner: str | None
    depth: int
    direction: str  # "root", "upstream" or "downstream"

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "system": self.system, "name": self.name,
                "owner": self.owner, "depth": self.depth, "direction": self.direction}


class TracedEdge(NamedTuple):
    src: str
    dst: str
    relation: str
    provenance: tuple[Provenance, ...]  # deduplicated, in order of discovery
    via: tuple[str, ...] = ()  # hidden orchestration nodes this edge stands for

    def to_dict(self) -> dict[str, Any]:
        return {"src": self.src, "dst": self.dst, "relation": self.relation, "via": list(self.via),
                "provenance": [p.to_dict() for p in self.provenance]}


@dataclass
class TraceResult:
    graph: ContextGraph = field(repr=False)
    root: str
    direction: str
    max_depth: int | None
    include_orchestration: bool
    walks: tuple[Walk, ...] = field(repr=False)

    @cached_property
    def nodes(self) -> list[TracedNode]:
        """The root, then reached nodes by non-decreasing depth (discovery order within a depth);
        orchestration nodes only when included. `to_dict` orders by (depth, id)."""
        by_index = self.graph.nodes_by_index
        root = self.walks[0].root
        out = node_records(TracedNode, [by_index[root]], [0], ["root"])
        seen: set[int] | None = set() if len(self.walks) > 1 else None
        for w in self.walks:
            listed: Iterable[int] = islice(w.depth, 1, None)  # the walk's first key is the root
            if not self.include_orchestration:
                listed = filterfalse(self.graph.orchestration.__getitem__, listed)
            if seen is not None:  # the other direction may reach a node again through a cycle
                listed = filterfalse(seen.__contains__, listed)
            listed = list(listed)
            if seen is not None:
                seen.update(listed)
            label = "downstream" if w.downstream else "upstream"
            out += node_records(TracedNode, map(by_index.__getitem__, listed), map(w.depth.__getitem__, listed),
                                repeat(label))
        if seen is not None:
            out.sort(key=_depth_of)
        return out

    @cached_property
    def edges(self) -> list[TracedEdge]:
        return traced_edges(self.graph, self.walks, self.include_orchestration)

    def node_ids(self) -> list[str]:
        return [n.id for n in self.nodes]

    def to_dict(self) -> dict[str, Any]:
        return {"root": self.root, "direction": self.direction, "max_depth": self.max_depth,
                "include_orchestration": self.include_orchestration,
                "nodes": [n.to_dict() for n in sorted(self.nodes, key=lambda n: (n.depth, n.id))],
                "edges": [e.to_dict() for e in self.edges]}


def trace(graph: ContextGraph, asset_id: str, *, direction: str = "upstream", max_depth: int | None = 10,
          include_orchestration: bool = False) -> TraceResult:
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {DIRECTIONS}, got {direction!r}")
    if max_depth is not None and max_depth < 0:
        raise ValueError(f"max_depth must be >= 0 or None, got {max_depth}")
    root_id = graph.resolve(asset_id)
    root = graph.index[root_id]
    sides = [False, True] if direction == "both" else [direction == "downstream"]
    walks = tuple(walk(graph, root, downstream=side, max_depth=max_depth,
                       hide_orchestration=not include_orchestration) for side in sides)
    return TraceResult(graph, root_id, direction, max_depth, include_orchestration, walks)


def traced_edges(graph: ContextGraph, walks: tuple[Walk, ...], include_orchestration: bool) -> list[TracedEdge]:
    """Every followed edge between reached nodes; hidden orchestration chains collapsed."""
    followed: set[int] = set()
    for w in walks:
        adj_nodes = graph.out_nodes if w.downstream else graph.in_nodes
        adj_edges = graph.out_edges if w.downstream else graph.in_edges
        for u in w.depth:
            for v, e in zip(adj_nodes[u], adj_edges[u]):
                if v in w.depth:
                    followed.add(e)
    src, dst, nodes = graph.edge_src, graph.edge_dst, graph.nodes_by_index
    if include_orchestration:
        return sorted((TracedEdge(nodes[src[e]].id, nodes[dst[e]].id, graph.edge_relation[e],
                                  tuple(graph.edge_provenance[e])) for e in followed),
                      key=lambda t: (t.src, t.dst, t.relation))
    return _collapse(graph, followed)


def _collapse(graph: ContextGraph, followed: set[int]) -> list[TracedEdge]:
    hidden, src, dst = graph.orchestration, graph.edge_src, graph.edge_dst
    hidden_out: dict[int, list[int]] = {}
    for e in followed:
        if hidden[src[e]]:
            hidden_out.setdefault(src[e], []).append(e)
    memo: dict[int, list[tuple[int, tuple[int, ...], list[int]]]] = {}

    def ends(h: int, visiting: set[int]) -> list[tuple[int, tuple[int, ...], list[int]]]:
        """Visible nodes reachable from hidden node h through hidden nodes: (end, via, edge ids)."""
        if h in memo:
            return memo[h]
        visiting.add(h)
        found: list[tuple[int, tuple[int, ...], list[int]]] = []
        for e in hidden_out.get(h, []):
            t = dst[e]
            if not hidden[t]:
                found.append((t, (h,), [e]))
            elif t not in visiting:
                found += [(end, (h, *via), [e, *hops]) for end, via, hops in ends(t, visiting)]
        visiting.discard(h)
        memo[h] = found
        return found

    merged: dict[tuple[int, int], tuple[list[str], list[Provenance], list[int]]] = {}
    for e in followed:
        s, d = src[e], dst[e]
        if hidden[s]:
            continue
        pieces: list[tuple[int, tuple[int, ...], list[int]]] = (
            [(d, (), [e])] if not hidden[d] else [(t, via, [e, *hops]) for t, via, hops in ends(d, set())])
        for t, via, hops in pieces:
            relation, provs, vias = merged.setdefault((s, t), (["feeds"], [], []))
            if not via:
                relation[0] = graph.edge_relation[e]
            for h in hops:
                provs += [p for p in graph.edge_provenance[h] if p not in provs]
            vias += [v for v in via if v not in vias]
    nodes = graph.nodes_by_index
    out = [TracedEdge(nodes[s].id, nodes[t].id, rel[0], tuple(provs), tuple(nodes[v].id for v in vias))
           for (s, t), (rel, provs, vias) in merged.items()]
    return sorted(out, key=lambda t: (t.src, t.dst))
