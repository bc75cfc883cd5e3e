"""One name per dataset, whichever system reported it.

The rule (every component builds node ids with these functions, so the graph joins by string):

- A relational dataset's canonical id is its lower-cased DuckDB-style relation name
  `catalog.schema.table` with quotes stripped and the default schema `main` elided, because DuckDB
  resolves `lake.orders_clean` to `lake.main.orders_clean`: `finance.bronze.gl_entries`,
  `lake.orders_clean`, `analytics.fct_revenue`. Only a three-part name drops `main`; one- and
  two-part names are kept as written (lower-cased). Quoted parts may hold dots (`"a.b".c`).
- OpenLineage datasets: a relational namespace (`duckdb://<path>`, `postgres://host:port`,
  `snowflake://...`, any scheme not listed below) maps by the dataset *name* alone, so
  `duckdb:///w/lake.duckdb` + `lake.main.orders_clean` -> `lake.orders_clean` and
  `postgres://db:5432` + `app.public.orders` -> `app.public.orders`. A storage namespace (`file`,
  `s3`, `gs`, `abfss`, `hdfs`, ...) keeps the location: `s3://bucket` + `landing/gl.csv` ->
  `s3://bucket/landing/gl.csv`.
- URIs given as the name (Airflow asset URIs and the like):
  `postgres://host:port/db/schema/table` -> `db.schema.table` (Airflow's Postgres asset form);
  `duckdb:///path/to/lake.duckdb/main/orders_clean` -> `lake.orders_clean`: the catalog is the file
  stem, the segments after the `.duckdb` file are schema and table (one segment means `main`);
  other URIs are kept with the scheme lower-cased.
- Anything else (an Airflow asset named `gl_entries`, a team's nickname for a table) maps through
  `aliases` (the config's `aliases:`), looked up by the raw name, `namespace/name`, and their
  lower-cased forms; the alias target is canonicalised in turn.

Orchestration and consumer nodes have prefixed ids built here too: `airflow:{dag_id}` (a DAG),
`airflow:{dag_id}.{task_id}` (a task), `exposure:{name}` (a dbt exposure), `metric:{name}`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping
from urllib.parse import unquote, urlsplit

STORAGE_SCHEMES = frozenset(
    {"file", "s3", "s3a", "s3n", "gs", "gcs", "abfs", "abfss", "wasb", "wasbs", "hdfs", "az", "adl", "http", "https"}
)
_DUCKDB_FILE = re.compile(r"\.(duckdb|ddb|db)$", re.IGNORECASE)
_PART = re.compile(r'"((?:[^"]|"")*)"|`([^`]*)`|\[([^\]]*)\]|([^."`\[]+)')


class IdentityError(ValueError):
    """A name that cannot be turned into a dataset id (empty, or a malformed relation name)."""


def canonical_dataset_id(
    name: str, namespace: str | None = None, aliases: Mapping[str, str] | None = None
) -> str:
    """The canonical id of a dataset reported as `name` (optionally in an OpenLineage `namespace`)."""
    if not isinstance(name, str) or not name.strip():
        raise IdentityError(f"dataset name must be a non-empty string, got {name!r}")
    raw = name.strip()
    if aliases:
        target = _alias_target(raw, namespace, aliases)
        if target is not None:
            return canonical_dataset_id(target)
    if namespace:
        scheme = namespace.split("://", 1)[0].lower() if "://" in namespace else ""
        if scheme in STORAGE_SCHEMES:
            return f"{_normalise_uri(namespace).rstrip('/')}/{raw.lstrip('/')}"
        return relation_id(raw) if "://" not in raw else _uri_id(raw)
    if "://" in raw:
        return _uri_id(raw)
    return relation_id(raw)


class UnknownAssetError(LookupError):
    def __init__(self, query: str, candidates: list[str]):
        self.query, self.candidates = query, candidates
        hint = f"; did you mean: {', '.join(candidates)}" if candidates else ""
        super().__init__(f"unknown asset {query!r}{hint}")


class AmbiguousAssetError(LookupError):
    def __init__(self, query: str, candidates: list[str]):
        self.query, self.candidates = query, candidates
        super().__init__(f"asset {query!r} is ambiguous; candidates: {', '.join(candidates)}")


def resolve_dataset_id(
    query: str,
    known: Collection[str],
    aliases: Mapping[str, str] | None = None,
    *,
    search: Callable[[str, str], Iterable[str]] | None = None,
    near: Callable[[str], list[str]] | None = None,
) -> str:
    """The one resolver of "which known id is this reference": the exact id, an alias's target, the
    canonical form (case, quoting, a DuckDB `main` schema, aliases), else the single result of
    `search(canonical, lowered query)` (default: the known ids ending in `.<canonical>`, so
    `gl_entries` finds `finance.bronze.gl_entries`). Used for graph nodes and configured entries alike.
    Raises UnknownAssetError (with `near(canonical)` as candidates) or AmbiguousAssetError."""
    q = query.strip()
    if q in known:
        return q
    for key in (q, q.lower()):
        target = (aliases or {}).get(key)
        if target is not None and target in known:
            return target
    try:
        canonical = canonical_dataset_id(q, aliases=aliases) if q else q
    except IdentityError:
        canonical = q.lower()
    if canonical in known:
        return canonical
    found = search(canonical, q.lower()) if search else [k for k in known if k.endswith("." + canonical)]
    unique = sorted(set(found))
    if len(unique) == 1:
        return unique[0]
    if not unique:
        raise UnknownAssetError(query, near(canonical) if near else [])
    raise AmbiguousAssetError(query, unique)


def no_search(canonical: str, lowered: str) -> list[str]:
    """A `search` for resolve_dataset_id that matches nothing: ids that are already full ids (graph
    nodes, blast-radius entries) must not fall back to a suffix match."""
    return []


def relation_id(name: str) -> str:
    """`"LAKE"."MAIN"."Orders_Clean"` -> `lake.orders_clean` (see the module docstring)."""
    parts = split_relation(name)
    if len(parts) == 3 and parts[1] == "main":
        parts = [parts[0], parts[2]]
    return ".".join(_quote(p) for p in parts)


def relation_id_from_parts(*parts: str | None) -> str:
    """The id of a relation given as separate parts (dbt's database, schema, alias), None skipped."""
    present = [p.strip().lower() for p in parts if p and p.strip()]
    if not present:
        raise IdentityError("a relation needs at least one non-empty name part")
    if len(present) == 3 and present[1] == "main":
        del present[1]
    return ".".join(_quote(p) for p in present)


def split_relation(name: str) -> list[str]:
    """Split a possibly quoted dotted relation name into lower-cased parts."""
    parts: list[str] = []
    pos, text = 0, name.strip()
    while pos < len(text):
        match = _PART.match(text, pos)
        if not match:
            raise IdentityError(f"malformed relation name {name!r} at position {pos}")
        quoted, backtick, bracket, bare = match.groups()
        part = quoted.replace('""', '"') if quoted is not None else (backtick or bracket or bare or "")
        if not part.strip():
            raise IdentityError(f"relation name {name!r} has an empty part")
        parts.append(part.strip().lower())
        pos = match.end()
        if pos < len(text):
            if text[pos] != ".":
                raise IdentityError(f"malformed relation name {name!r}: expected '.' at position {pos}")
            pos += 1
            if pos == len(text):
                raise IdentityError(f"relation name {name!r} ends with '.'")
    return parts


def _alias_target(raw: str, namespace: str | None, aliases: Mapping[str, str]) -> str | None:
    keys = [raw, raw.lower()]
    if namespace:
        keys = [f"{namespace}/{raw}", f"{namespace}/{raw}".lower(), *keys]
    for key in keys:
        if key in aliases:
            return aliases[key]
    return None


def _normalise_uri(uri: str) -> str:
    scheme, rest = uri.split("://", 1)
    return f"{scheme.lower()}://{rest}"


def _uri_id(uri: str) -> str:
    parts = urlsplit(uri)
    scheme = parts.scheme.lower()
    if scheme in STORAGE_SCHEMES:
        return _normalise_uri(uri)
    segments = [unquote(s) for s in parts.path.split("/") if s]
    if scheme == "duckdb":
        for i, segment in enumerate(segments):
            if _DUCKDB_FILE.search(segment):
                catalog = _DUCKDB_FILE.sub("", segment)
                rest = segments[i + 1 :]
                if len(rest) == 1:
                    rest = ["main", *rest]
                if len(rest) == 2:
                    return relation_id(".".join(_quote(p) for p in [catalog, *rest]))
                break
        return _normalise_uri(uri)
    if segments and len(segments) <= 3 and scheme not in ("", "airflow"):
        return relation_id(".".join(_quote(p) for p in segments))
    return _normalise_uri(uri)


def _quote(part: str) -> str:
    """Quote a part only when it holds a dot or quote, so plain ids stay plain."""
    return '"' + part.replace('"', '""') + '"' if ("." in part or '"' in part) else part


def airflow_dag_node_id(dag_id: str) -> str:
    return f"airflow:{dag_id}"


def airflow_task_node_id(dag_id: str, task_id: str) -> str:
    return f"airflow:{dag_id}.{task_id}"


def exposure_node_id(name: str) -> str:
    return f"exposure:{name.lower()}"


def metric_node_id(name: str) -> str:
    return f"metric:{name.lower()}"


def semantic_model_node_id(name: str) -> str:
    return f"semantic_model:{name.lower()}"
