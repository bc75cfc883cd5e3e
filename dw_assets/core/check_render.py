"""Small markdown renderings of check facts for the Dagster UI (`MetadataValue.md`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

_FULL, _PARTS = "█", " ▏▎▍▌▋▊▉"


def bar(value: float, scale: float, width: int = 24) -> str:
    """A horizontal bar of `value / scale * width` cells, in eighths."""
    if scale <= 0 or value <= 0:
        return ""
    eighths = round(min(value / scale, 1.0) * width * 8)
    return _FULL * (eighths // 8) + (_PARTS[eighths % 8] if eighths % 8 else "")


def bar_table(rows: Sequence[tuple[str, float, str]], *, scale: float, baseline: float) -> str:
    """| label | value | bar | note | with the ratio to the baseline in the bar column."""
    lines = ["| partition | rows | vs baseline | |", "|---|---:|---|---|"]
    for label, value, note in rows:
        ratio = f" {value / baseline:.2f}" if baseline else ""
        lines.append(f"| {label} | {value:,.0f} | `{bar(value, scale)}`{ratio} | {note} |")
    return "\n".join(lines)


def table_md(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None) -> str:
    if not rows:
        return "_none_"
    cols = list(columns or rows[0].keys())
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in rows:
        lines.append("| " + " | ".join(_cell(row.get(c)) for c in cols) + " |")
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:,.2f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value).replace("|", "\\|")
