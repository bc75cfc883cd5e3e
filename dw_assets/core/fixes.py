"""Fix proposals: pure text transformations of the owner's files into unified diffs, or advice.

Two generic transformers, located by parsing, never by the demo's names:
- a file sensor that releases on a glob match also requires the export's done-marker (the sensor
  and its glob found with Python's `ast`; the marker named by the landing convention: the glob's
  text before its first `*`, trimmed of separators, plus the marker suffix);
- a cast of a column that now holds non-numeric values becomes a safe cast with a `case when` for
  the sentinel values (the cast found with sqlglot's tokenizer, Jinja masked out first).
Every other cause gets a plain-language recommendation. Nothing here touches a repo: the service
checks each diff with `git apply --check` (dw_assets.connectors.git).
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from sqlglot import TokenType
from sqlglot.dialects.dialect import Dialect

from dw_assets.core.blast_radius import BlastEntry
from dw_assets.core.evidence import type_family

_JINJA_EXPR = re.compile(r"\{\{.*?\}\}", re.DOTALL)
_JINJA_STMT = re.compile(r"\{%.*?%\}|\{#.*?#\}", re.DOTALL)
_NAME_TOKENS = (TokenType.VAR, TokenType.IDENTIFIER)
_SAFE_CAST = {"bigquery": "safe_cast"}  # everyone else we target spells it try_cast
_NO_SAFE_CAST = {"postgres", "mysql", "sqlite"}


@dataclass(frozen=True)
class CastSite:
    model: str | None
    file_path: str | None
    column: str
    target_type: str
    line: int
    start: int  # offsets into the file's text, end exclusive
    end: int


@dataclass
class FileEdit:
    path: str  # repo-relative, forward slashes
    before: str
    after: str

    def diff(self) -> str:
        return unified_diff([self])


@dataclass
class ProposedFix:
    cause_kind: str
    title: str
    rationale: str
    kind: str = "recommendation"  # diff | recommendation
    repo: str | None = None
    paths: list[str] = field(default_factory=list)
    diff: str | None = None
    verified: bool | None = None  # `git apply --check` result; None when not checked
    check_output: str = ""
    target_asset: str | None = None
    blast_radius: list[BlastEntry] = field(default_factory=list)
    pull_request: dict[str, Any] | None = None  # {url, number, branch} when domains[].git_host opened one
    pull_request_error: str | None = None  # why a configured git_host did not get one

    def to_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "blast_radius": [e.brief() for e in self.blast_radius]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | ProposedFix) -> ProposedFix:
        """A fix as an incident stores it (`to_dict`'s shape; keys a row lacks take their defaults)."""
        if isinstance(data, ProposedFix):
            return data
        known = {f.name for f in fields(cls)} - {"blast_radius", "paths"}
        return cls(**{"cause_kind": "", "title": "", "rationale": "",
                      **{k: v for k, v in data.items() if k in known}},
                   paths=[str(p) for p in data.get("paths") or ()],
                   blast_radius=[BlastEntry.from_dict(e) for e in data.get("blast_radius") or ()])


def unified_diff(edits: list[FileEdit]) -> str:
    """A git-style unified diff of several files (a/ b/ prefixes, as `git apply` expects)."""
    chunks = []
    for edit in edits:
        lines = difflib.unified_diff(edit.before.splitlines(keepends=True), edit.after.splitlines(keepends=True),
                                     fromfile=f"a/{edit.path}", tofile=f"b/{edit.path}")
        body = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
        if body:
            chunks.append(f"diff --git a/{edit.path} b/{edit.path}\n{body}")
    return "".join(chunks)


def _mask_jinja(sql: str) -> str:
    """Same-length stand-ins for Jinja, so token offsets are offsets into the file."""
    masked = _JINJA_EXPR.sub(lambda m: "__j" + "_" * (len(m.group()) - 3), sql)
    return _JINJA_STMT.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), masked)


def _tokens(sql: str, dialect: str) -> list:
    return Dialect.get_or_raise(dialect).tokenize(_mask_jinja(sql))


def _column_at(tokens: list, i: int) -> tuple[str, int] | None:
    """(bare column name, index after it) for `col`, `t.col`, `"col"` starting at tokens[i]."""
    if i >= len(tokens) or tokens[i].token_type not in _NAME_TOKENS:
        return None
    while i + 2 < len(tokens) and tokens[i + 1].token_type == TokenType.DOT and tokens[i + 2].token_type in _NAME_TOKENS:
        i += 2
    return tokens[i].text.lower(), i + 1


def find_casts(sql: str, column: str, *, model: str | None = None, file_path: str | None = None,
               dialect: str = "duckdb") -> list[CastSite]:
    """Every strict `cast(col as T)` and `col::T` of the column (try_cast/safe_cast are already safe)."""
    tokens, sites, column = _tokens(sql, dialect), [], column.lower()
    for i, tok in enumerate(tokens):
        site = None
        if tok.text.lower() == "cast" and i + 1 < len(tokens) and tokens[i + 1].token_type == TokenType.L_PAREN:
            site = _cast_call(sql, tokens, i, column)
        elif tok.token_type == TokenType.DCOLON:
            site = _cast_colons(sql, tokens, i, column)
        if site and type_family(site[2]) != "string":  # a cast to text cannot fail
            start, end, target = site
            sites.append(CastSite(model, file_path, column, target, sql.count("\n", 0, start) + 1, start, end))
    return sites


def _cast_call(sql: str, tokens: list, i: int, column: str) -> tuple[int, int, str] | None:
    col = _column_at(tokens, i + 2)
    if not col or col[0] != column or col[1] >= len(tokens) or tokens[col[1]].token_type != TokenType.ALIAS:
        return None
    depth, j = 0, col[1] + 1
    while j < len(tokens):
        kind = tokens[j].token_type
        if kind == TokenType.L_PAREN:
            depth += 1
        elif kind == TokenType.R_PAREN:
            if depth == 0:
                return tokens[i].start, tokens[j].end + 1, sql[tokens[col[1] + 1].start:tokens[j].start].strip()
            depth -= 1
        j += 1
    return None


def _cast_colons(sql: str, tokens: list, i: int, column: str) -> tuple[int, int, str] | None:
    if i == 0 or tokens[i - 1].token_type not in _NAME_TOKENS or tokens[i - 1].text.lower() != column:
        return None
    first = i - 1
    while first >= 2 and tokens[first - 1].token_type == TokenType.DOT:
        first -= 2
    j, end = i + 1, i + 1
    if j < len(tokens) and j + 1 < len(tokens) and tokens[j + 1].token_type == TokenType.L_PAREN:
        end = next(k for k in range(j + 1, len(tokens)) if tokens[k].token_type == TokenType.R_PAREN)
    return tokens[first].start, tokens[end].end + 1, sql[tokens[i + 1].start:tokens[end].end + 1]


def references_column(sql: str, column: str, dialect: str = "duckdb") -> bool:
    column = column.lower()
    return any(t.token_type in _NAME_TOKENS and t.text.lower() == column for t in _tokens(sql, dialect))


def safe_cast_edit(path: str, sql: str, column: str, sentinels: list[str], *, dialect: str = "duckdb",
                   sentinel_value: str = "null") -> FileEdit | None:
    """Each strict cast of `column` -> safe cast, with the known sentinel values mapped explicitly."""
    if dialect in _NO_SAFE_CAST:
        return None
    sites = find_casts(sql, column, dialect=dialect)
    if not sites:
        return None
    safe = _SAFE_CAST.get(dialect, "try_cast")
    after = sql
    for site in sorted(sites, key=lambda s: s.start, reverse=True):
        expr = sql[site.start:site.end]
        col_src = _column_source(expr)
        replacement = f"{safe}({col_src} as {site.target_type})"
        if sentinels:
            quoted = ", ".join("'" + s.replace("'", "''") + "'" for s in sentinels)
            replacement = (f"case when trim(cast({col_src} as varchar)) in ({quoted}) then {sentinel_value} "
                           f"else {replacement} end")
        after = after[:site.start] + replacement + after[site.end:]
    return FileEdit(path, sql, after)


def _column_source(cast_expr: str) -> str:
    inner = re.match(r"(?is)^\s*cast\s*\(\s*(.+?)\s+as\s+", cast_expr)
    return inner.group(1) if inner else cast_expr.split("::", 1)[0].strip()


_GLOB_CALLS = {"glob", "iglob", "rglob"}
_LITERAL = re.compile(r"^(?P<prefix>[rRfFuU]{0,2})(?P<quote>\"\"\"|'''|\"|')(?P<body>.*)(?P=quote)$", re.DOTALL)


def sensor_marker_edit(path: str, source: str, marker_suffix: str = ".done") -> FileEdit | None:
    """Make every sensor of the file that releases on a glob match also wait for the done-marker."""
    tree = ast.parse(source)
    if marker_suffix in source:
        return None  # already waits for a marker
    edits: list[tuple[int, int, str]] = []  # (line index to insert before, or replace), lines
    for func in _sensor_callables(tree):
        edits.extend(_callable_edits(source, tree, func, marker_suffix))
    edits.extend(_filepath_edits(source, tree, marker_suffix))
    if not edits:
        return None
    lines = source.splitlines(keepends=True)
    for index, replace_count, text in sorted(edits, key=lambda e: e[0], reverse=True):
        lines[index:index + replace_count] = [text]
    after = "".join(lines)
    ast.parse(after)  # a transformer must never hand an owner a file that does not parse
    return FileEdit(path, source, after)


def _sensor_callables(tree: ast.Module) -> list[ast.FunctionDef]:
    """Functions a sensor pokes: `python_callable=` of any *Sensor call, or `@task.sensor` bodies."""
    functions = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    found: dict[str, ast.FunctionDef] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _call_name(node.func).endswith("Sensor"):
            for kw in node.keywords:
                if kw.arg == "python_callable" and isinstance(kw.value, ast.Name) and kw.value.id in functions:
                    found[kw.value.id] = functions[kw.value.id]
        if isinstance(node, ast.FunctionDef) and any(_call_name(d).endswith("sensor") for d in node.decorator_list):
            found[node.name] = node
    return list(found.values())


def _filepath_edits(source: str, tree: ast.Module, suffix: str) -> list[tuple[int, int, str]]:
    """A file sensor given a glob (`FileSensor(filepath="..._*.csv")`) waits for the marker instead:
    the marker is written after the last part, so it stands for every part."""
    lines = source.splitlines(keepends=True)
    edits = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _call_name(node.func).endswith("Sensor")):
            continue
        value = next((kw.value for kw in node.keywords if kw.arg in ("filepath", "path", "file_pattern")), None)
        if (not isinstance(value, (ast.Constant, ast.JoinedStr)) or value.lineno != value.end_lineno
                or value.end_col_offset is None):
            continue
        marker = _marker_literal(ast.get_source_segment(source, value) or "", suffix)
        if marker is None:
            continue
        line = lines[value.lineno - 1]
        start, end = _col(line, value.col_offset), _col(line, value.end_col_offset)
        edits.append((value.lineno - 1, 1, line[:start] + marker + line[end:]))
    return edits


def _col(line: str, byte_offset: int) -> int:
    return len(line.encode()[:byte_offset].decode())


def _call_name(node: ast.AST) -> str:
    node = node.func if isinstance(node, ast.Call) else node
    if isinstance(node, ast.Attribute):
        return f"{_call_name(node.value)}.{node.attr}".lstrip(".")
    return node.id if isinstance(node, ast.Name) else ""


def _callable_edits(source: str, tree: ast.Module, func: ast.FunctionDef, suffix: str) -> list[tuple[int, int, str]]:
    for stmt in func.body:
        call = next((n for n in ast.walk(stmt) if isinstance(n, ast.Call) and n.args
                     and _call_name(n.func).rsplit(".", 1)[-1] in _GLOB_CALLS), None)
        if call is None:
            continue
        marker_arg, constant = _marker_arg(source, tree, _local_value(func, stmt, call.args[0]), suffix)
        if marker_arg is None:
            return []
        check = _exists_check(source, call, marker_arg)
        if check.startswith("os.") and not _imports_os(tree):
            edits_import = [(_first_import_line(tree), 0, "import os\n")]
        else:
            edits_import = []
        indent = " " * stmt.col_offset
        guard = (f"{indent}# the export is complete only once its done-marker has landed (written after its last part)\n"
                 f"{indent}if not {check}:\n{indent}    return False\n")
        first = stmt.lineno - 1
        edits = [(first, 0, guard), *edits_import]
        if constant:
            edits.append(constant)
        return edits
    return []


def _local_value(func: ast.FunctionDef, before: ast.stmt, arg: ast.expr) -> ast.expr:
    """`pattern = os.path.join(d, "x_*.csv"); glob.glob(pattern)`: the glob text is the local's value."""
    if not isinstance(arg, ast.Name):
        return arg
    value: ast.expr = arg
    for stmt in func.body:  # the last assignment of the name before the glob call wins
        if stmt is before:
            break
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == arg.id for t in stmt.targets):
            value = stmt.value
    return value


def _marker_arg(source: str, tree: ast.Module, arg: ast.expr, suffix: str):
    """The glob argument's source with its pattern swapped for the marker's, plus a new constant
    line when the pattern is a module-level constant (the load task may keep using the glob)."""
    arg_src = ast.get_source_segment(source, arg) or ""
    pattern = _pattern_node(arg)
    if pattern is None or (isinstance(pattern, ast.Name) and _module_constant(tree, pattern.id) is None):
        # the glob is not written in this file (an imported constant, an Airflow Variable, a config
        # read): the marker is derived from it where it is used, by the same landing convention
        held = pattern if pattern is not None else _variable_call(arg)
        if held is None:
            return None, None
        held_src = ast.get_source_segment(source, held) or ""
        expr = f'({held_src}.split("*", 1)[0].rstrip("_-.") + "{suffix}")'
        offset = _offset(source, held) - _offset(source, arg)
        return arg_src[:offset] + expr + arg_src[offset + len(held_src):], None
    if isinstance(pattern, ast.Name):
        assign = _module_constant(tree, pattern.id)
        if assign is None:
            return None, None
        literal = ast.get_source_segment(source, assign.value) or ""
        marker_literal = _marker_literal(literal, suffix)
        if marker_literal is None:
            return None, None
        name = pattern.id.replace("GLOB", "DONE_MARKER") if "GLOB" in pattern.id else f"{pattern.id}_DONE_MARKER"
        offset = _offset(source, pattern) - _offset(source, arg)
        new_arg = arg_src[:offset] + name + arg_src[offset + len(pattern.id):]
        line = f"{name} = {marker_literal}  # written after the last part of an export\n"
        return new_arg, (assign.end_lineno, 0, line)
    pattern_src = ast.get_source_segment(source, pattern) or ""
    marker_literal = _marker_literal(pattern_src, suffix)
    if marker_literal is None:
        return None, None
    offset = _offset(source, pattern) - _offset(source, arg)
    return arg_src[:offset] + marker_literal + arg_src[offset + len(pattern_src):], None


def _pattern_node(arg: ast.expr) -> ast.expr | None:
    """Where the glob text sits: a literal, an f-string, a constant's name, inside `.format()` or a join."""
    if isinstance(arg, (ast.Constant, ast.JoinedStr, ast.Name)):
        return arg
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "format":
        return _pattern_node(arg.func.value)
    if isinstance(arg, ast.Call) and _call_name(arg.func).endswith("join") and arg.args:
        return _pattern_node(arg.args[-1])
    if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Div):  # Path / "pattern"
        return _pattern_node(arg.right)
    return None


def _variable_call(arg: ast.expr) -> ast.expr | None:
    """`Variable.get("clicks_glob")` (Airflow Variables), as the glob argument or inside `.format()` /
    a path join."""
    if isinstance(arg, ast.Call) and _call_name(arg.func).endswith("Variable.get"):
        return arg
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "format":
        return _variable_call(arg.func.value)
    if isinstance(arg, ast.Call) and _call_name(arg.func).endswith("join") and arg.args:
        return _variable_call(arg.args[-1])
    if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Div):
        return _variable_call(arg.right)
    return None


def _module_constant(tree: ast.Module, name: str) -> ast.Assign | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return node if isinstance(node.value, (ast.Constant, ast.JoinedStr)) else None
    return None


def _marker_literal(literal: str, suffix: str) -> str | None:
    """`"gl_{d}_*.csv"` -> `"gl_{d}.done"`: the landing convention names the marker after the export."""
    match = _LITERAL.match(literal.strip())
    if not match or "*" not in match.group("body"):
        return None
    stem = match.group("body").split("*", 1)[0].rstrip("_-.")
    return f"{match.group('prefix')}{match.group('quote')}{stem}{suffix}{match.group('quote')}"


def _offset(source: str, node: ast.expr) -> int:
    lines = source.splitlines(keepends=True)
    return sum(len(line) for line in lines[:node.lineno - 1]) + len(
        lines[node.lineno - 1].encode()[:node.col_offset].decode())


def _exists_check(source: str, call: ast.Call, marker_arg: str) -> str:
    """Path-style `dir.glob(p)` -> `(dir / marker).exists()`; `glob.glob(p)` -> `os.path.exists(marker)`."""
    func = call.func
    if isinstance(func, ast.Attribute) and not (isinstance(func.value, ast.Name) and func.value.id == "glob"):
        receiver = ast.get_source_segment(source, func.value)
        return f"({receiver} / {marker_arg}).exists()"
    return f"os.path.exists({marker_arg})"


def _imports_os(tree: ast.Module) -> bool:
    return any(isinstance(n, ast.Import) and any(a.name == "os" and not a.asname for a in n.names) for n in tree.body)


def _first_import_line(tree: ast.Module) -> int:
    """Index of the first plain `import` after any `from __future__` import."""
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)) and not (
                isinstance(node, ast.ImportFrom) and node.module == "__future__"):
            return node.lineno - 1
    return 0

