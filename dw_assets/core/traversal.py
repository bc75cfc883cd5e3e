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

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple, TypeVar, overload

import numpy as np

from dw_assets.core.graph_records import FlowAdjacency, GraphView, Provenance

DIRECTIONS = ("upstream", "downstream", "both")
_R = TypeVar("_R")


class Records(Sequence[_R]):
    """A read-only list of result records built on the first read of an element, all at once;
    its length is known without them. A traversal reaching 20k nodes finds them in 1-4 ms of
    compiled work, and one Python record per node costs 5-10 times that: a caller that counts,
    or reads the arrays the result also keeps, does not pay for records it never reads. Compares
    equal to a list of the same records."""

    __slots__ = ("_build", "_items", "_length")

    def __init__(self, length: int, build: Callable[[], list[_R]]) -> None:
        self._length, self._build = length, build
        self._items: list[_R] | None = None

    def _all(self) -> list[_R]:
        items = self._items
        if items is None:
            items = self._items = self._build()
        return items

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, k: int) -> _R: ...
    @overload
    def __getitem__(self, k: slice) -> list[_R]: ...
    def __getitem__(self, k: int | slice) -> _R | list[_R]:
        return self._all()[k]

    def __iter__(self) -> Iterator[_R]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Records | list | tuple):
            return self._all() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._all())


def _depth_of(node: TracedNode) -> int:
    return node.depth


@dataclass(frozen=True)
class Walk:
    """What one directional walk reached, as parallel numpy arrays in discovery order (the root
    first, listed nodes by non-decreasing depth): the node index, its depth, and the position in
    `order` of the node it was reached from (-1 for the root)."""

    root: int
    downstream: bool
    order: np.ndarray
    depths: np.ndarray
    parents: np.ndarray

    @cached_property
    def depth(self) -> dict[int, int]:
        """Node index -> depth, for membership tests."""
        return dict(zip(self.order.tolist(), self.depths.tolist()))

    def listed(self, hidden: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Reached node indexes and their depths without the root, and without the nodes flagged
        in `hidden` (a bool per node index) when given."""
        order, depths = self.order[1:], self.depths[1:]
        if hidden is None:
            return order, depths
        shown = ~hidden[order]
        return order[shown], depths[shown]


def hidden_mask(graph: GraphView) -> np.ndarray:
    """Orchestration flags by node index as a numpy bool array (kept until the graph changes)."""
    return graph.derived("orchestration_mask", _orchestration_mask)


def _orchestration_mask(graph: GraphView) -> np.ndarray:
    return np.array(graph.orchestration, dtype=bool)


def walk(graph: GraphView, root: int, *, downstream: bool, max_depth: int | None,
         hide_orchestration: bool) -> Walk:
    adj = graph.flow_adjacency(downstream)
    limit = -1 if max_depth is None else max_depth
    if hide_orchestration and graph.orchestration_count:
        return Walk(root, downstream, *_walk_hiding(adj, hidden_mask(graph), root, limit))
    return Walk(root, downstream, *_walk_plain(adj, root, limit))


def _walk_plain(adj: FlowAdjacency, root: int, limit: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """scipy's breadth-first order (compiled; discovery order, each node's first discoverer as
    its predecessor), cut at the depth limit: a depth-limited walk is a prefix of the full one."""
    # lazy: scipy costs ~0.4 s of CPU to import; the code location (loaded again by every Dagster run
    # worker) is defined without it, and only the runs that traverse a graph or fit a volume model load it
    from scipy.sparse.csgraph import breadth_first_order

    order, pred = breadth_first_order(adj.matrix, root, directed=True, return_predecessors=True)
    position = np.empty(adj.nodes, dtype=np.int64)
    position[order] = np.arange(len(order))
    up = pred[order]
    up[0] = root  # scipy marks the root's predecessor with a negative sentinel
    parents = position[up]
    parents[0] = -1
    depths = tree_depths(parents)
    if limit >= 0:
        end = int(np.searchsorted(depths, limit, side="right"))
        order, depths, parents = order[:end], depths[:end], parents[:end]
    return order.astype(np.int64), depths, parents


def tree_depths(parents: np.ndarray) -> np.ndarray:
    """Hops from the root for each position, from parent positions (-1 for the root) by pointer
    doubling: log2(depth) vectorized passes."""
    anc = parents.copy()
    anc[0] = 0
    hops = np.ones(len(parents), dtype=np.int64)
    hops[0] = 0
    while anc.any():
        hops += hops[anc]
        anc = anc[anc]
    return hops


def _walk_hiding(adj: FlowAdjacency, hidden: np.ndarray, root: int,
                 limit: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Breadth-first with hidden nodes at no depth cost (a 0-1 breadth-first walk), one level at
    a time over the packed rows. scipy's csgraph has no zero-cost nodes nor a depth limit, and its
    Dijkstra breaks ties differently, so this keeps the walk's documented order and parents: each
    level's rows are gathered in one vectorized step, hidden nodes found in a level are expanded
    in the same level (they cost no depth), visible ones form the next level unless that passes
    the limit."""
    seen = np.zeros(adj.nodes, dtype=bool)
    seen[root] = True
    # the first position at which a node is found in a step (every node found is then seen, so
    # it never comes back and the scratch needs no reset); cheaper than np.unique's sort
    first_at = np.full(adj.nodes, np.iinfo(np.int64).max, dtype=np.int64)
    orders, depths, parents = [np.array([root], dtype=np.int64)], [np.zeros(1, np.int64)], [np.full(1, -1)]
    total = 1
    level_nodes, level_pos = orders[0], np.zeros(1, dtype=np.int64)
    d = 0
    while level_nodes.size:
        can_go_deeper = d != limit
        frontier, frontier_pos = level_nodes, level_pos
        next_nodes, next_pos = [], []
        while frontier.size:
            found, came_from = adj.neighbours(frontier)
            keep = ~seen[found] if can_go_deeper else ~seen[found] & hidden[found]
            found, came_from = found[keep], came_from[keep]
            if not found.size:
                break
            k = np.arange(len(found))
            np.minimum.at(first_at, found, k)
            first = first_at[found] == k  # each node once, at its first discovery
            found, came_from = found[first].astype(np.int64), frontier_pos[came_from[first]]
            seen[found] = True
            positions = np.arange(total, total + len(found))
            total += len(found)
            is_hidden = hidden[found]
            orders.append(found)
            parents.append(came_from)
            depths.append(d + 1 - is_hidden)
            frontier, frontier_pos = found[is_hidden], positions[is_hidden]
            shown = ~is_hidden
            next_nodes.append(found[shown])
            next_pos.append(positions[shown])
        if not next_nodes:
            break
        level_nodes, level_pos = np.concatenate(next_nodes), np.concatenate(next_pos)
        d += 1
    return np.concatenate(orders), np.concatenate(depths), np.concatenate(parents)


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
    graph: GraphView = field(repr=False)
    root: str
    direction: str
    max_depth: int | None
    include_orchestration: bool
    walks: tuple[Walk, ...] = field(repr=False)

    @cached_property
    def nodes(self) -> Records[TracedNode]:
        """The root, then reached nodes by non-decreasing depth (discovery order within a depth);
        orchestration nodes only when included. `to_dict` orders by (depth, id). The records are
        built on first read (`Records`); `len` and the walks' arrays need none."""
        hidden = None if self.include_orchestration else hidden_mask(self.graph)
        listed = [w.listed(hidden) for w in self.walks]
        if len(listed) == 1:
            length = 1 + len(listed[0][0])
        else:  # the other direction may reach a node again through a cycle: counted once
            length = 1 + len(np.union1d(listed[0][0], listed[1][0]))
        return Records(length, lambda: self._records(listed))

    def _records(self, listed: list[tuple[np.ndarray, np.ndarray]]) -> list[TracedNode]:
        by_index, new = self.graph.nodes_by_index, tuple.__new__
        root = by_index[self.walks[0].root]
        out = [new(TracedNode, (root.id, root.kind, root.system, root.name, root.owner, 0, "root"))]
        seen: set[int] | None = set() if len(self.walks) > 1 else None
        for w, (listed_np, depths_np) in zip(self.walks, listed):
            indexes, depths = listed_np.tolist(), depths_np.tolist()
            if seen is not None:  # the other direction may reach a node again through a cycle
                depths = [d for i, d in zip(indexes, depths) if i not in seen]
                indexes = [i for i in indexes if i not in seen]
                seen.update(indexes)
            label = "downstream" if w.downstream else "upstream"
            # one record per reached node (20k+ in a large trace): kept to one comprehension
            out += [new(TracedNode, (n.id, n.kind, n.system, n.name, n.owner, d, label))
                    for n, d in zip(map(by_index.__getitem__, indexes), depths)]
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


def trace(graph: GraphView, asset_id: str, *, direction: str = "upstream", max_depth: int | None = 10,
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


def traced_edges(graph: GraphView, walks: tuple[Walk, ...], include_orchestration: bool) -> list[TracedEdge]:
    """Every followed edge between reached nodes; hidden orchestration chains collapsed."""
    followed: set[int] = set()
    for w in walks:
        adj = graph.flow_adjacency(w.downstream)
        reached = np.zeros(adj.nodes, dtype=bool)
        reached[w.order] = True
        found, edge_ids, _ = adj.gather(w.order)
        followed.update(edge_ids[reached[found]].tolist())
    src, dst, nodes = graph.edge_src, graph.edge_dst, graph.nodes_by_index
    if include_orchestration:
        return sorted((TracedEdge(nodes[src[e]].id, nodes[dst[e]].id, graph.edge_relation[e],
                                  tuple(graph.edge_provenance[e])) for e in followed),
                      key=lambda t: (t.src, t.dst, t.relation))
    return _collapse(graph, followed)


def _collapse(graph: GraphView, followed: set[int]) -> list[TracedEdge]:
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
