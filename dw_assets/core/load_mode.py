"""Does a load replace what it writes or append to it? Read from the task's own SQL / code, and from
the table's history (a partition loaded twice that now holds repeated keys was appended to).

A plan depends on the answer: rerunning a load that replaces its partition repairs a duplicated
partition; rerunning one that appends adds a third copy, so the partition must be emptied first.
Pure functions over text and counts; the callers read the files and the warehouse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

LoadMode = Literal["replace", "append", "unknown"]

# statements and library calls that overwrite what they write, in the dialects and clients estates use
_REPLACE = re.compile(
    r"\bDELETE\s+FROM\b|\bINSERT\s+OVERWRITE\b|\bCREATE\s+OR\s+REPLACE\s+TABLE\b|\bTRUNCATE\b|\bMERGE\s+INTO\b"
    r"|\bINSERT\s+OR\s+REPLACE\b|\bREPLACE\s+INTO\b|\bON\s+CONFLICT\b.*\bDO\s+UPDATE\b|if_exists\s*=\s*['\"]replace"
    r"|mode\s*\(\s*['\"]overwrite|write_disposition\s*=\s*['\"]?WRITE_TRUNCATE|\bDROP\s+TABLE\b",
    re.IGNORECASE | re.DOTALL)
_APPEND = re.compile(
    r"\bINSERT\s+INTO\b|\bCOPY\s+[\w.\"]+\s+FROM\b|if_exists\s*=\s*['\"]append|mode\s*\(\s*['\"]append"
    r"|write_disposition\s*=\s*['\"]?WRITE_APPEND|\.append\(|\bappend\s*=\s*True", re.IGNORECASE)


@dataclass(frozen=True)
class LoadModeFinding:
    mode: LoadMode
    evidence: str  # what it was read from, for the plan's rationale


def mode_from_code(text: str, where: str = "the task's code") -> LoadModeFinding:
    """`replace` when the code deletes/overwrites before (or instead of) inserting, `append` when it only
    inserts, else `unknown`."""
    replace = _REPLACE.search(text or "")
    if replace:
        return LoadModeFinding("replace", f"{where} has `{_snippet(replace.group(0))}`")
    append = _APPEND.search(text or "")
    if append:
        return LoadModeFinding("append", f"{where} has `{_snippet(append.group(0))}` and nothing that deletes "
                                         "or overwrites first")
    return LoadModeFinding("unknown", f"{where} shows neither an overwrite nor an insert")


def mode_from_history(load_runs: int, duplicate_keys: int) -> LoadModeFinding:
    """A partition loaded more than once that holds repeated keys was appended to."""
    if load_runs >= 2 and duplicate_keys > 0:
        return LoadModeFinding("append", f"{load_runs} loads of the partition left {duplicate_keys:,} repeated keys")
    if load_runs >= 2 and duplicate_keys == 0:
        return LoadModeFinding("replace", f"{load_runs} loads of the partition left no repeated key")
    return LoadModeFinding("unknown", "the table's history does not show a repeated load")


def _snippet(text: str) -> str:
    return " ".join(text.split())[:60]
