"""The pull-request comment: the impact report as Markdown (GitHub-flavoured tables)."""

from __future__ import annotations

from typing import Any


def render_markdown(report: dict[str, Any]) -> str:
    assets = report["assets"]
    lines = ["## Data Workers: data impact of this change", ""]
    if not assets:
        lines.append(f"No dbt asset changed between `{report['base']}` and `{report['head']}`.")
        return "\n".join(lines + _footer(report)) + "\n"
    downstream = {d["id"] for a in assets for d in a["downstream"]}
    headline = (f"**Severity: {report['severity'].upper()}** · {len(assets)} dbt asset(s) changed · "
                f"{len(downstream)} downstream, {report['reader_count']} reader(s) · "
                f"`{report['base']}` → `{report['head']}`")
    lines += [headline, "", "### Changed", "", "| Asset | Change | Columns |", "|---|---|---|"]
    for a in assets:
        owner = f", owner {a['owner']}" if a["owner"] else ""
        change = a["change"] + (" — **breaking**" if a["breaking"] else "")
        lines.append(f"| `{a['id'] or a['unique_id']}` ({a['resource_type']}{owner}) | {change} | "
                     f"{_columns(a)} |")
    for a in assets:
        title = f"### Downstream of `{a['id'] or a['unique_id']}`: {a['severity'].upper()} ({a['severity_reason']})"
        lines += ["", title, ""]
        if not a["downstream"]:
            lines.append("Nothing recorded downstream.")
            continue
        lines += ["| Severity | Downstream | Kind | Owner | Depth | Reads changed columns |",
                  "|---|---|---|---|---|---|"]
        for d in a["downstream"]:
            reads = ", ".join(f"`{c}`" for c in d["reads_columns"])
            lines.append(f"| {d['severity']} | {d['name']} (`{d['id']}`) | {d['kind']} | {d['owner'] or '-'} | "
                         f"{d['depth']} | {reads} |")
    if report["owners"]:
        lines += ["", "### Owners to ask", ""]
        for owner, ids in sorted(report["owners"].items(), key=lambda kv: (-len(kv[1]), kv[0])):
            lines.append(f"- **{owner}**: " + ", ".join(f"`{i}`" for i in ids))
    return "\n".join(lines + _footer(report)) + "\n"


def _columns(asset: dict[str, Any]) -> str:
    cols = asset["columns"]
    if asset["resource_type"] not in ("model", "snapshot") or asset["change"] == "removed":
        return "-"
    if cols is None:
        return "unknown (`select *` or SQL that does not parse)"
    parts = [f"renamed `{r['from']}` → `{r['to']}`" for r in cols["renamed"]]
    parts += [f"{label} " + ", ".join(f"`{c}`" for c in cols[key])
              for key, label in (("removed", "removed"), ("changed", "changed"), ("added", "added")) if cols[key]]
    return "; ".join(parts) or "no output column changed"


def _footer(report: dict[str, Any]) -> list[str]:
    out = []
    if report["unmapped_files"]:
        out += ["", "<sub>Changed files with no dbt asset: "
                + ", ".join(f"`{p}`" for p in report["unmapped_files"]) + "</sub>"]
    for note in report.get("notes") or []:
        out += ["", f"<sub>Note: {note}</sub>"]
    return out
