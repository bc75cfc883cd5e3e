"""Blast radius: what sits downstream of an asset, who owns it, and how bad breaking it is.

The walk is the trace's downstream walk (orchestration walked through at no depth cost). Every
reached data or consumer node is *affected*: datasets, sources, models, semantic models, metrics,
dashboards, applications and recorded readers. Orchestration nodes passed through are listed apart
(`orchestration`): they are what would rerun, not what is read.

Severity rule (levels low < medium < high < critical):
1. Base level of an affected node: its `criticality` attribute (a dbt exposure's
   `meta.criticality`, or a note's `attrs.criticality`) when it names a level; else its `maturity`
   (a dbt exposure's maturity: high -> high, medium -> medium, low -> low); else by kind:
   dashboards, applications, readers and metrics are medium, everything else is low.
2. Decay with distance: minus one level per `decay_every` hops beyond the first
   (`level - (depth - 1) // decay_every`, default decay_every=4, floored at low), because a reader
   four models away is usually shielded by tests and reviews in between.
3. Overall severity = the highest affected level, bumped one level (capped at critical) when the
   number of recorded readers (dashboards, applications, readers) reaches `many_readers` (default
   5): many eyes on wrong numbers widen the damage. Nothing affected -> low.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, NamedTuple

import numpy as np

from dw_assets.core.graph_records import GraphView, Node
from dw_assets.core.traversal import Records, Walk, hidden_mask, tree_depths, walk

LEVELS = ("low", "medium", "high", "critical")
_LEVEL_NAMES = np.array(LEVELS, dtype=object)
_RANK = {level: i for i, level in enumerate(LEVELS)}
READER_KINDS = frozenset({"dashboard", "application", "reader"})
_MEDIUM_BY_DEFAULT = READER_KINDS | {"metric"}
_MATURITY_RANK = {"low": 0, "medium": 1, "high": 2}


@dataclass(frozen=True)
class SeverityRule:
    decay_every: int = 4
    many_readers: int = 5

    def __post_init__(self) -> None:
        if self.decay_every < 1 or self.many_readers < 1:
            raise ValueError("decay_every and many_readers must be >= 1")

    def base_rank(self, node: Node) -> int:
        attrs = node.attrs
        if attrs:
            criticality = attrs.get("criticality")
            if criticality and (rank := _RANK.get(str(criticality).lower())) is not None:
                return rank
            maturity = attrs.get("maturity")
            if maturity and (rank := _MATURITY_RANK.get(str(maturity).lower())) is not None:
                return rank
        return 1 if node.kind in _MEDIUM_BY_DEFAULT else 0

    def rank_at(self, node: Node, depth: int) -> int:
        return max(0, self.base_rank(node) - max(0, depth - 1) // self.decay_every)

    def base_ranks(self, graph: GraphView) -> np.ndarray:
        """`base_rank` of every node, by node index (kept by the graph until it changes)."""
        return np.fromiter(map(self.base_rank, graph.nodes_by_index), dtype=np.int64, count=len(graph))

    def decayed(self, base_ranks: Iterable[int], depths: Iterable[int]) -> np.ndarray:
        """`rank_at` from base ranks and depths (>= 1)."""
        ranks = np.asarray(base_ranks if isinstance(base_ranks, np.ndarray) else list(base_ranks))
        steps = np.asarray(depths if isinstance(depths, np.ndarray) else list(depths))
        return np.maximum(0, ranks - (steps - 1) // self.decay_every)

    def overall(self, ranks: list[int] | np.ndarray, reader_count: int) -> tuple[str, str]:
        if not len(ranks):
            return "low", "nothing downstream"
        top = int(max(ranks))
        reason = f"highest affected node is {LEVELS[top]}"
        if reader_count >= self.many_readers and top < len(LEVELS) - 1:
            top += 1
            reason += f"; raised one level: {reader_count} readers >= {self.many_readers}"
        return LEVELS[top], reason


class ShortestPathTree:
    """A walk's parent pointers, read as paths: the node ids from the root to each reached node.

    One path is a walk back through the parents (`path_at`); all of them are built at once on the
    first read of `paths`, one tree level at a time (each path is its parent's plus one id, a numpy
    object-array step per level), so a caller that never reads a path, like most callers of a large
    radius, does not pay for 20k of them."""

    def __init__(self, graph: GraphView, w: Walk) -> None:
        self._graph, self._nodes, self._walk = graph, graph.nodes_by_index, w

    @cached_property
    def _levels(self) -> list[np.ndarray]:
        """Walk positions grouped by their hops from the root in the tree (hidden nodes count a hop
        here: they are in the paths); a position's parent is always in the level before."""
        hops = tree_depths(self._walk.parents)
        by_hops = np.argsort(_small(hops), kind="stable")
        return np.split(by_hops, np.cumsum(np.bincount(hops))[:-1])

    def _by_level(self, first: Any, step: np.ndarray) -> np.ndarray:
        """`out[k] = out[parent[k]] + step[k]` for every walk position, level by level."""
        out = np.empty(len(step), dtype=object)
        out[0] = first
        parents = self._walk.parents
        for level in self._levels[1:]:
            out[level] = out[parents[level]] + step[level]
        return out

    @cached_property
    def paths(self) -> dict[str, tuple[str, ...]]:
        """Node id -> path, for every reached node (orchestration nodes included)."""
        ids = node_ids(self._graph)[self._walk.order]
        ones = np.fromiter(((i,) for i in ids.tolist()), dtype=object, count=len(ids))
        return dict(zip(ids.tolist(), self._by_level(ones[0], ones).tolist()))

    def texts(self, sep: str) -> np.ndarray:
        """Every walk position's path as one string, the ids joined by `sep` (what a report prints)."""
        order = self._walk.order
        return self._by_level(node_ids(self._graph)[order[0]], path_steps(self._graph, sep)[order])

    def path_at(self, position: int) -> tuple[str, ...]:
        """The path to the node at `position` in the walk, by walking back through the parents."""
        parents, order, out = self._walk.parents, self._walk.order, []
        while position >= 0:
            out.append(self._nodes[order[position]].id)
            position = int(parents[position])
        return tuple(reversed(out))

    def path_to(self, node_id: str) -> tuple[str, ...]:
        try:
            return self.paths[node_id]
        except KeyError:
            raise KeyError(f"{node_id!r} was not reached from {self._nodes[self._walk.root].id!r}") from None

    def __repr__(self) -> str:
        return f"ShortestPathTree(root={self._nodes[self._walk.root].id!r})"


class BlastColumns:
    """A radius's affected nodes as parallel numpy arrays, in `BlastRadius.affected` order: node
    index, depth, severity rank (into LEVELS) and position in the walk (for the paths). The
    readers that take every affected node (owners, severities, ids, printed paths) read these with
    numpy lookups into per-graph tables instead of building 20k records: the columns of a 20k-node
    radius cost a few milliseconds, its records and path tuples several times that."""

    __slots__ = ("depth", "graph", "index", "position", "rank", "tree")

    def __init__(self, graph: GraphView, tree: ShortestPathTree, index: np.ndarray, depth: np.ndarray,
                 rank: np.ndarray, position: np.ndarray) -> None:
        self.graph, self.tree = graph, tree
        self.index, self.depth, self.rank, self.position = index, depth, rank, position

    def __len__(self) -> int:
        return len(self.index)

    def ids(self) -> list[str]:
        return node_ids(self.graph)[self.index].tolist()

    def owners(self) -> list[str | None]:
        codes, names = owner_codes(self.graph)
        return names[codes[self.index]].tolist()

    def kinds(self) -> list[str]:
        codes, names = kind_codes(self.graph)
        return names[codes[self.index]].tolist()

    def severities(self) -> list[str]:
        return _LEVEL_NAMES[self.rank].tolist()

    def depths(self) -> list[int]:
        return self.depth.tolist()

    def by_owner(self) -> dict[str, list[str]]:
        """Owner -> affected node ids (in affected order), owners in order of first appearance;
        unowned nodes under `"(none)"`: one stable sort of the owner codes, no per-node dict work."""
        codes, names = owner_codes(self.graph)
        mine = codes[self.index]
        if not len(mine):
            return {}
        by_code = np.argsort(_small(mine), kind="stable")
        sorted_codes = mine[by_code]
        starts = np.flatnonzero(np.r_[True, sorted_codes[1:] != sorted_codes[:-1]])
        groups = np.split(node_ids(self.graph)[self.index[by_code]], starts[1:])
        first_seen = np.argsort(by_code[starts], kind="stable")  # first appearance in affected order
        labels = names[sorted_codes[starts]].tolist()
        return {labels[g] or "(none)": groups[g].tolist() for g in first_seen.tolist()}

    def path(self, k: int) -> tuple[str, ...]:
        """The path to the `k`-th affected node (a walk back through the parents)."""
        return self.tree.path_at(int(self.position[k]))

    def paths(self) -> list[tuple[str, ...]]:
        paths = self.tree.paths
        return [paths[i] for i in self.ids()]

    def path_texts(self, sep: str = " > ") -> list[str]:
        """Every affected node's path as the ids joined by `sep`, built for the whole walk at once."""
        return self.tree.texts(sep)[self.position].tolist()

    def path_matrix(self) -> np.ndarray:
        """Node indexes of every affected node's path, one row each, the root in column 0, rows
        padded with -1 after their last node: set questions about paths ("does it pass through
        any of these?") as one numpy lookup."""
        w = self.tree._walk
        hops = tree_depths(w.parents)
        width = int(hops[self.position].max()) + 1 if len(self.position) else 1
        out = np.full((len(self.position), width), -1, dtype=np.int64)
        rows, at = np.arange(len(self.position)), self.position.copy()
        col = hops[at]
        while len(rows):
            out[rows, col] = w.order[at]
            keep = col > 0
            rows, at, col = rows[keep], w.parents[at[keep]], col[keep] - 1
        return out

    def passes_through(self, node_ids: Iterable[str]) -> np.ndarray:
        """Per affected node: whether its path, after the root, reaches any of `node_ids` (the
        node itself included); ids not in the graph are ignored."""
        index = self.graph.index
        marked = np.zeros(len(self.graph) + 1, dtype=bool)  # the last slot answers the -1 padding
        marked[[index[i] for i in node_ids if i in index]] = True
        return marked[self.path_matrix()[:, 1:]].any(axis=1)


@dataclass(frozen=True)
class BlastEntry:
    """One affected node as it travels beyond the graph: in a diagnosis, on an incident, a proposed
    fix, a plan and a report. Readers use its fields; each output serialises it at its own edge.

    `to_dict` is the shape an incident stores (`node_id`, `label`: kept so stored incidents read
    back); `from_dict` reads that shape, and the `id`/`name` one of fixes and plans too."""

    id: str
    kind: str
    depth: int
    owner: str | None = None
    name: str | None = None
    severity: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"node_id": self.id, "kind": self.kind, "depth": self.depth, "owner": self.owner,
                "label": self.name, "severity": self.severity}

    def brief(self) -> dict[str, Any]:
        """The shape a proposed fix carries (and its pull request shows)."""
        return {"id": self.id, "kind": self.kind, "owner": self.owner, "depth": self.depth, "severity": self.severity}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | BlastEntry) -> BlastEntry:
        if isinstance(data, BlastEntry):
            return data
        node = data.get("node_id") or data.get("id")
        if not node:
            raise ValueError(f"a blast-radius entry needs a node id (`node_id` or `id`), got keys {sorted(data)}")
        depth = data.get("depth")
        return cls(str(node), str(data.get("kind") or ""), int(depth) if depth is not None else 0,
                   data.get("owner"), data.get("label") or data.get("name"), data.get("severity"))


class AffectedNode(NamedTuple):
    id: str
    kind: str
    system: str
    name: str
    owner: str | None
    depth: int
    severity: str
    tree: ShortestPathTree  # shared by the records of one radius: `path` reads it

    @property
    def path(self) -> tuple[str, ...]:
        """Node ids from the root to this node, orchestration nodes included."""
        return self.tree.paths[self.id]

    def entry(self) -> BlastEntry:
        return BlastEntry(self.id, self.kind, self.depth, self.owner, self.name, self.severity)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "system": self.system, "name": self.name,
                "owner": self.owner, "depth": self.depth, "severity": self.severity, "path": list(self.path)}


@dataclass(frozen=True)
class BlastRadius:
    root: str
    max_depth: int | None
    severity: str
    severity_reason: str
    reader_count: int
    affected: Sequence[AffectedNode]  # most severe first, then shallowest (ties in discovery order); Records
    orchestration: list[str]  # jobs/tasks/DAGs passed through
    # the affected nodes as arrays (None for a radius built by hand): what whole-radius readers use
    columns: BlastColumns | None = field(default=None, compare=False, repr=False)

    def owners(self) -> dict[str, list[str]]:
        """Owner -> affected node ids; unowned nodes under the key `"(none)"`."""
        if self.columns is not None:
            return self.columns.by_owner()
        out: dict[str, list[str]] = {}
        for a in self.affected:
            out.setdefault(a.owner or "(none)", []).append(a.id)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"root": self.root, "max_depth": self.max_depth, "severity": self.severity,
                "severity_reason": self.severity_reason, "reader_count": self.reader_count,
                "affected": self._affected_dicts(), "owners": self.owners(),
                "orchestration": self.orchestration}

    def _affected_dicts(self) -> list[dict[str, Any]]:
        c = self.columns
        if c is None:
            return [a.to_dict() for a in self.affected]
        systems, names = system_and_name(c.graph)
        keys = ("id", "kind", "system", "name", "owner", "depth", "severity", "path")
        return [dict(zip(keys, row)) for row in zip(
            c.ids(), c.kinds(), systems[c.index].tolist(), names[c.index].tolist(), c.owners(), c.depths(),
            c.severities(), map(list, c.paths()))]

    def entries(self) -> list[BlastEntry]:
        """Every affected node as a `BlastEntry` (what a diagnosis, an incident and a fix carry)."""
        c = self.columns
        if c is None:
            return [a.entry() for a in self.affected]
        _, names = system_and_name(c.graph)
        return [BlastEntry(*row) for row in zip(c.ids(), c.kinds(), c.depths(), c.owners(),
                                                names[c.index].tolist(), c.severities())]


def blast_radius(graph: GraphView, asset_id: str, *, max_depth: int | None = 10,
                 rule: SeverityRule | None = None) -> BlastRadius:
    rule = rule or SeverityRule()
    root_id = graph.resolve(asset_id)
    w = walk(graph, graph.index[root_id], downstream=True, max_depth=max_depth, hide_orchestration=True)
    nodes, hidden = graph.nodes_by_index, hidden_mask(graph)
    # walk positions of the listed nodes: by non-decreasing depth, then discovery order
    positions = np.arange(1, len(w.order))
    positions = positions[~hidden[w.order[positions]]]
    listed, depths = w.order[positions], w.depths[positions]
    base_ranks = graph.derived(("severity_base_rank", rule), rule.base_ranks)
    ranks = rule.decayed(base_ranks[listed], depths)
    # most severe first, and within a rank as listed (shallowest, then discovery order)
    by_severity = np.argsort(_small(-ranks), kind="stable")
    tree = ShortestPathTree(graph, w)
    columns = BlastColumns(graph, tree, listed[by_severity], depths[by_severity], ranks[by_severity],
                           positions[by_severity])
    affected = Records(len(listed), lambda: _records(nodes, columns))
    readers = int(graph.derived("severity_is_reader", _reader_flags)[listed].sum())
    severity, reason = rule.overall(ranks, readers)
    passed = w.order[1:]
    orchestration = sorted(nodes[i].id for i in passed[hidden[passed]].tolist())
    return BlastRadius(root_id, max_depth, severity, reason, readers, affected, orchestration, columns)


def _records(nodes: list[Node], c: BlastColumns) -> list[AffectedNode]:
    new, tree = tuple.__new__, c.tree
    # one record per affected node (20k+ in a large radius): kept to one comprehension
    return [new(AffectedNode, (n.id, n.kind, n.system, n.name, n.owner, depth, level, tree))
            for n, depth, level in zip(map(nodes.__getitem__, c.index.tolist()), c.depths(), c.severities())]


def _reader_flags(graph: GraphView) -> np.ndarray:
    return np.array([node.kind in READER_KINDS for node in graph.nodes_by_index], dtype=bool)


# Per-graph tables by node index (kept by the graph until it next changes, see ContextGraph.derived):
# what the columns of a radius read with one numpy lookup each.

def node_ids(graph: GraphView) -> np.ndarray:
    """Node ids by node index (an object array)."""
    return graph.derived("node_ids", _node_ids)


def _node_ids(graph: GraphView) -> np.ndarray:
    out = np.empty(len(graph), dtype=object)
    out[:] = [node.id for node in graph.nodes_by_index]
    return out


def owner_codes(graph: GraphView) -> tuple[np.ndarray, np.ndarray]:
    """(code by node index, owner by code): owners as small integers, `None` among them."""
    return graph.derived("owner_codes", lambda g: _codes([node.owner for node in g.nodes_by_index]))


def kind_codes(graph: GraphView) -> tuple[np.ndarray, np.ndarray]:
    return graph.derived("kind_codes", lambda g: _codes([node.kind for node in g.nodes_by_index]))


def system_and_name(graph: GraphView) -> tuple[np.ndarray, np.ndarray]:
    """Systems and display names by node index (object arrays)."""
    return graph.derived("system_and_name", _system_and_name)


def _system_and_name(graph: GraphView) -> tuple[np.ndarray, np.ndarray]:
    systems, names = np.empty(len(graph), dtype=object), np.empty(len(graph), dtype=object)
    systems[:] = [node.system for node in graph.nodes_by_index]
    names[:] = [node.name for node in graph.nodes_by_index]
    return systems, names


def path_steps(graph: GraphView, sep: str) -> np.ndarray:
    """`sep + id` by node index: one step of a printed path (kept per separator, like the ids)."""
    return graph.derived(("path_steps", sep), lambda g: sep + node_ids(g))


def _small(values: np.ndarray) -> np.ndarray:
    """`values` as int16 when they fit: numpy's stable sort is a radix sort for 16-bit integers,
    several times faster than its merge sort on 20k int64s."""
    if len(values) and -32768 <= int(values.min()) and int(values.max()) <= 32767:
        return values.astype(np.int16)
    return values


def _codes(values: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    code: dict[Any, int] = {}
    codes = np.fromiter((code.setdefault(v, len(code)) for v in values), dtype=np.int64, count=len(values))
    names = np.empty(len(code), dtype=object)
    names[:] = list(code)
    return codes, names
