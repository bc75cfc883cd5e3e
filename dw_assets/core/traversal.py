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

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress
from operator import not_
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from dw_assets.core.graph import ContextGraph, Provenance

DIRECTIONS = ("upstream", "downstream", "both")


def _depth_of(node: TracedNode) -> int:
    return node.depth


@dataclass(frozen=True)
class Walk:
    """What one directional walk reached, as parallel lists in discovery order (the root first,
    listed nodes by non-decreasing depth): the node index, its depth, and the position in `order`
    of the node it was reached from (-1 for the root)."""

    root: int
    downstream: bool
    order: list[int]
    depths: list[int]
    parents: list[int]

    @cached_property
    def depth(self) -> dict[int, int]:
        """Node index -> depth, for membership tests."""
        return dict(zip(self.order, self.depths))

    def listed(self, hidden: list[bool] | None) -> tuple[list[int], list[int]]:
        """Reached node indexes and their depths without the root, and without the nodes flagged
        in `hidden` (by node index) when given."""
        order, depths = self.order[1:], self.depths[1:]
        if hidden is None:
            return order, depths
        shown = list(map(not_, map(hidden.__getitem__, order)))
        return list(compress(order, shown)), list(compress(depths, shown))


def walk(graph: ContextGraph, root: int, *, downstream: bool, max_depth: int | None,
         hide_orchestration: bool) -> Walk:
    adj = graph.flow_adjacency(downstream)
    limit = -1 if max_depth is None else max_depth
    # one byte per graph node marks what was reached: cheaper to test than a dict of the reached
    # nodes (no hashing, no resizing), and 100 kB for a 100k-node graph
    seen = bytearray(len(graph))
    seen[root] = 1
    if hide_orchestration and graph.orchestration_count:
        return Walk(root, downstream, *_walk_hiding(adj, graph.orchestration, seen, root, limit))
    return Walk(root, downstream, *_walk_plain(adj, seen, root, limit))


def _walk_plain(adj: Sequence[Sequence[int]], seen: bytearray, root: int,
                limit: int) -> tuple[list[int], list[int], list[int]]:
    order, depths, parents = [root], [0], [-1]
    start, d = 0, 0
    while start < len(order) and d != limit:
        d += 1
        end = len(order)
        for k in range(start, end):  # the positions of the level being expanded
            for v in adj[order[k]]:
                if not seen[v]:
                    seen[v] = 1
                    order.append(v)
                    parents.append(k)
        depths += [d] * (len(order) - end)
        start = end
    return order, depths, parents


def _walk_hiding(adj: Sequence[Sequence[int]], hidden: list[bool], seen: bytearray, root: int,
                 limit: int) -> tuple[list[int], list[int], list[int]]:
    """Hidden nodes join the level being expanded (they cost no depth), so `level` grows while it
    is iterated; visible nodes go one level deeper unless that passes the limit. Depths and the
    next level are sorted out once a level is done, which is cheaper than per node."""
    order, depths, parents = [root], [0], [-1]
    level, d = [0], 0  # positions in `order`
    while level:
        start = len(order)
        can_go_deeper = d != limit
        for k in level:
            for v in adj[order[k]]:
                if seen[v]:
                    continue
                if hidden[v]:
                    level.append(len(order))
                elif not can_go_deeper:
                    continue
                seen[v] = 1
                order.append(v)
                parents.append(k)
        found_hidden = list(map(hidden.__getitem__, order[start:]))
        depths += [d + 1 - is_hidden for is_hidden in found_hidden]
        level = [p for p, is_hidden in zip(range(start, len(order)), found_hidden) if not is_hidden]
        d += 1
    return order, depths, parents


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
        by_index, new = self.graph.nodes_by_index, tuple.__new__
        root = by_index[self.walks[0].root]
        out = [new(TracedNode, (root.id, root.kind, root.system, root.name, root.owner, 0, "root"))]
        seen: set[int] | None = set() if len(self.walks) > 1 else None
        hidden = None if self.include_orchestration else self.graph.orchestration
        for w in self.walks:
            listed, depths = w.listed(hidden)
            if seen is not None:  # the other direction may reach a node again through a cycle
                depths = [d for i, d in zip(listed, depths) if i not in seen]
                listed = [i for i in listed if i not in seen]
                seen.update(listed)
            label = "downstream" if w.downstream else "upstream"
            # one record per reached node (20k+ in a large trace): kept to one comprehension
            out += [new(TracedNode, (n.id, n.kind, n.system, n.name, n.owner, d, label))
                    for n, d in zip(map(by_index.__getitem__, listed), depths)]
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
