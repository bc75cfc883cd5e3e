"""An incident as a report a person reads: ranked causes with their evidence, the path, the blast
radius, the fixes, the plan and how to approve it. Pure: the incident's records in, Markdown and table rows out.

The Dagster UI renders a Markdown metadata value inline only when it is shorter than 1,000
characters (longer ones hide behind "[Show Markdown]"), so every section is built to stay under
`INLINE_LIMIT`: one entry per cause and per fix, long texts shortened, and the full facts kept in the
tables and in the incident's JSON (`dw incidents show`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from dw_assets.core.blast_radius import BlastEntry
from dw_assets.core.causes import Cause
from dw_assets.core.evidence import Hop
from dw_assets.core.fixes import ProposedFix

INLINE_LIMIT = 990
SEVERITY_ORDER = {"critical": 0, "high": 1, "medium": 2, "low": 3}


def shorten(text: Any, limit: int) -> str:
    value = " ".join(str(text or "").split())
    return value if len(value) <= limit else value[: max(limit - 1, 0)].rstrip() + "…"


def fit(lines: Sequence[str], limit: int = INLINE_LIMIT, more: str = "…") -> str:
    """Join lines, dropping the tail (with a marker) so the text stays under `limit` characters."""
    out: list[str] = []
    for line in lines:
        if len("\n".join([*out, line, more])) > limit:
            out.append(more)
            break
        out.append(line)
    return "\n".join(out)


def cause_md(rank: int, cause: Cause) -> str:
    """One ranked cause: title, confidence, where it sits, what explains it, the evidence for and
    against, and what would refute it."""
    head = [f"**{rank}. {shorten(cause.title, 200)}**",
            "",
            f"`{cause.kind}` on `{cause.subject}`, confidence {cause.confidence:.0%}"]
    if cause.explains:
        head += ["", f"explains: {shorten(cause.explains, 180)}"]
    lines = [*head, ""]
    lines += [f"- {shorten(f.text, 150)} _({f.source})_" for f in cause.facts if f.weight >= 0]
    lines += [f"- against: {shorten(f.text, 140)} _({f.source})_" for f in cause.facts if f.weight < 0]
    refute = [shorten(r, 90) for r in cause.would_refute]
    if refute:
        lines.append(f"- would refute it: {'; '.join(refute)}")
    return fit(lines, more="- … (full evidence: `dw incidents show`)")


def path_rows(path: Sequence[Hop]) -> list[dict[str, str]]:
    """Each hop of the path with its system and where the edge is known from."""
    return [{"hop": str(i), "from": h.source, "to": h.target, "system": h.system, "provenance": h.provenance,
             "detail": shorten(h.detail, 60)} for i, h in enumerate(path, start=1)]


def blast_rows(readers: Sequence[BlastEntry]) -> list[dict[str, str]]:
    """Affected readers, most severe (then nearest) first, with their owners."""
    ordered = sorted(readers, key=lambda r: (SEVERITY_ORDER.get(str(r.severity), 9), r.depth, r.id))
    return [{"severity": r.severity or "", "reader": r.id, "name": r.name or "", "kind": r.kind,
             "owner": r.owner or "unknown", "depth": str(r.depth)} for r in ordered]


def blast_summary(readers: Sequence[BlastEntry]) -> str:
    """`3 readers (2 high, 1 low); owners: maria.chen (2), finance-controller (1)`."""
    if not readers:
        return "no readers found downstream"
    by_severity = Counter(r.severity or "unknown" for r in readers)
    by_owner = Counter(r.owner or "unknown" for r in readers)
    sev = ", ".join(f"{n} {s}" for s, n in sorted(by_severity.items(), key=lambda kv: SEVERITY_ORDER.get(kv[0], 9)))
    owners = ", ".join(f"{o} ({n})" for o, n in sorted(by_owner.items(), key=lambda kv: (-kv[1], kv[0])))
    return f"{len(readers)} reader(s) ({sev}); owners: {owners}"


def fix_md(rank: int, fix: ProposedFix) -> str:
    """A proposed fix: what, why, where, whether the diff applies, and the diff itself (shortened
    to fit; the full diff is in the plan and the pull request)."""
    where = ", ".join(f"`{p}`" for p in fix.paths)
    status = {True: "applies cleanly (`git apply --check`)", False: "does NOT apply cleanly", None: "not checked"}
    lines = [f"**{rank}. {shorten(fix.title, 160)}** ({fix.kind or 'recommendation'})",
             "", shorten(fix.rationale, 200)]
    if where:
        lines += ["", f"files: {where}" + (f"; diff {status.get(fix.verified, 'not checked')}" if fix.diff else "")]
    pr = fix.pull_request or {}
    if pr.get("url"):
        lines.append(f"pull request: [{pr.get('url')}]({pr.get('url')})")
    head = "\n".join(lines)
    diff = fix.diff or ""
    if diff:
        budget = INLINE_LIMIT - len(head) - 40
        body = diff_excerpt(diff, budget)
        if body:
            return head + "\n\n```diff\n" + body + "\n```"
    return head


def diff_excerpt(diff: str, budget: int) -> str:
    """The changed lines of a unified diff with their file headers, within `budget` characters."""
    keep = [line for line in diff.splitlines()
            if line.startswith(("+++ ", "@@")) or (line[:1] in "+-" and not line.startswith("--- "))]
    out: list[str] = []
    for line in keep:
        line = line if len(line) <= 110 else line[:109] + "…"
        if len("\n".join([*out, line])) > budget - 30:
            out.append("… (full diff in the plan)")
            break
        out.append(line)
    return "\n".join(out)


def plan_md(plan_id: str, plan: Mapping[str, Any], status: str | None) -> str:
    """The plan: summary, steps in order (instance, DAG, conf, what follows), the undo, checks after."""
    lines = [f"**{plan_id}** `{plan.get('plan_class')}`" + (f" ({status})" if status else ""),
             "", shorten(plan.get("summary"), 180), ""]
    steps = sorted(plan.get("steps") or [], key=lambda s: s.get("order") or 0)
    for step in steps:
        waits = ", then ".join(w.get("dag_id", "") + (f" ({w['via']})" if w.get("via") else "")
                               for w in step.get("wait_for") or [])
        conf = ", ".join(f"{k}={v}" for k, v in sorted((step.get("conf") or {}).items()))
        lines.append(f"{step.get('order')}. `{step.get('airflow_instance')}`: trigger `{step.get('dag_id')}`"
                     + (f" with {conf}" if conf else "") + (f"; then waits for {waits}" if waits else ""))
    if not steps:
        lines.append("_no steps: the plan is a change for the owner to review_")
    undo = plan.get("undo") or {}
    if undo:
        lines += ["", f"**undo**: {shorten(undo.get('description'), 140)}"
                  + (f" (snapshot `{undo['snapshot']}`)" if undo.get("snapshot") else "")]
    checks = [f"`{v.get('check')}` on `{v.get('dataset')}`" + (f" {v['partition']}" if v.get("partition") else "")
              for v in plan.get("verification") or []]
    if checks:
        lines += ["", "**verified by**: " + ", ".join(checks)]
    lines.append(f"reversible: {'yes' if plan.get('reversible') else 'no'}")
    return fit(lines, more="… (the whole plan: `dw plans show`)")


def approve_md(*, plan_id: str, approvers: Sequence[str], command: str, job: str, plan_tag: str,
               approval_tag: str, approvals: Sequence[Mapping[str, Any]], request: Mapping[str, Any] | None,
               launchable: str | None) -> str:
    """How a person moves the plan on: who may approve, the command, and the Launchpad tags."""
    lines = [f"approvers: {', '.join(approvers) if approvers else '_none listed in the domain config_'}"]
    if request:
        lines.append("")
        lines.append(f"request `{request.get('request_id')}` {request.get('status')}, expires {request.get('expires_at')}")
    lines += ["", f"1. approve: `{command}`",
              (f"2. the `dw_approvals` sensor launches `{job}`; or, on the Launchpad of `{job}`, pick partition "
              f"`{plan_id}` (config and tags are filled in: `{plan_tag}={plan_id}`, "
              f"`{approval_tag}={launchable or '<the approval id>'}`)")]
    for a in approvals:
        used = f", used by run {a.get('used_by')}" if a.get("used_by") else ", not used yet"
        lines.append(f"- `{a.get('approval_id')}` {a.get('decision')} by **{a.get('approver')}** at {a.get('decided_at')}"
                     + (used if a.get("decision") == "approved" else "")
                     + (f": {shorten(a.get('note'), 80)}" if a.get("note") else ""))
    return fit(lines)


def draft_md(step_order: int, dag_id: str, draft: Mapping[str, Any]) -> str:
    """The Airflow 3 draft the DAG owner triggers: the page, the exact conf, the API call."""
    conf = draft.get("conf") or {}
    lines = [f"step {step_order}: `{dag_id}` is triggered by its owner (Airflow 3 draft)",
             f"- page: [{draft.get('ui_url')}]({draft.get('ui_url')})",
             f"- conf: `{json.dumps(conf, sort_keys=True)}`", "", "```", _wrap(str(draft.get("curl") or "")), "```"]
    return fit(lines)


def _wrap(command: str) -> str:
    """A shell command with one option per line (backslash continuations) so it fits the page and
    pastes as the same command: breaks only at spaces outside quotes, before an option."""
    out, quote = [], ""
    for i, ch in enumerate(command):
        if ch in "'\"" and (not quote or quote == ch):
            quote = "" if quote else ch
        if ch == " " and not quote and command[i + 1:i + 2] == "-":
            out.append(" \\\n  ")
            continue
        out.append(ch)
    return "".join(out)
