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

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from dw_assets.core.traversal import walk

if TYPE_CHECKING:
    from dw_assets.core.graph import ContextGraph, Node

LEVELS = ("low", "medium", "high", "critical")
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

    def overall(self, ranks: list[int], reader_count: int) -> tuple[str, str]:
        if not ranks:
            return "low", "nothing downstream"
        top = max(ranks)
        reason = f"highest affected node is {LEVELS[top]}"
        if reader_count >= self.many_readers and top < len(LEVELS) - 1:
            top += 1
            reason += f"; raised one level: {reader_count} readers >= {self.many_readers}"
        return LEVELS[top], reason


class AffectedNode(NamedTuple):
    id: str
    kind: str
    system: str
    name: str
    owner: str | None
    depth: int
    severity: str
    path: tuple[str, ...]  # node ids from the root to this node, orchestration nodes included

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
    affected: list[AffectedNode]  # most severe first, then shallowest (ties in discovery order)
    orchestration: list[str]  # jobs/tasks/DAGs passed through

    def owners(self) -> dict[str, list[str]]:
        """Owner -> affected node ids; unowned nodes under the key `"(none)"`."""
        out: dict[str, list[str]] = {}
        for a in self.affected:
            out.setdefault(a.owner or "(none)", []).append(a.id)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"root": self.root, "max_depth": self.max_depth, "severity": self.severity,
                "severity_reason": self.severity_reason, "reader_count": self.reader_count,
                "affected": [a.to_dict() for a in self.affected], "owners": self.owners(),
                "orchestration": self.orchestration}


def blast_radius(graph: ContextGraph, asset_id: str, *, max_depth: int | None = 10,
                 rule: SeverityRule | None = None) -> BlastRadius:
    rule = rule or SeverityRule()
    root_id = graph.resolve(asset_id)
    w = walk(graph, graph.index[root_id], downstream=True, max_depth=max_depth, hide_orchestration=True,
             parents=True)
    nodes, hidden = graph.nodes_by_index, graph.orchestration
    paths: dict[int, tuple[str, ...]] = {w.root: (root_id,)}
    by_rank: list[list[AffectedNode]] = [[] for _ in LEVELS]
    orchestration: list[str] = []
    readers = 0
    parent = w.parent or {}
    new, base_rank, decay = tuple.__new__, rule.base_rank, rule.decay_every
    for i, depth in w.depth.items():  # discovery order: parents first; listed nodes by depth
        if i == w.root:
            continue
        node = nodes[i]
        path = paths[i] = paths[parent[i]] + (node.id,)
        if hidden[i]:
            orchestration.append(node.id)
            continue
        kind, attrs = node.kind, node.attrs
        # rule.rank_at, inlined: this loop runs once per affected node
        if attrs and ("criticality" in attrs or "maturity" in attrs):
            rank = base_rank(node)
        else:
            rank = 1 if kind in _MEDIUM_BY_DEFAULT else 0
        rank = max(0, rank - (depth - 1) // decay)
        readers += kind in READER_KINDS
        by_rank[rank].append(new(AffectedNode, (node.id, kind, node.system, node.name, node.owner, depth,
                                                LEVELS[rank], path)))
    affected = [a for bucket in reversed(by_rank) for a in bucket]
    ranks = [r for r, bucket in enumerate(by_rank) if bucket]
    severity, reason = rule.overall(ranks, readers)
    return BlastRadius(root_id, max_depth, severity, reason, readers, affected, sorted(orchestration))
