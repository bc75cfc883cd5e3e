"""Turn ranked causes into fixes against the owner's repo: locate the file, run the core's text
transformer, check the diff with `git apply --check` (read-only), attach the changed asset's blast
radius. Causes without a generic transformer get the core's plain-language recommendation.
Opt-in (`domains[].git_host`): `open_fix_pull_requests` opens each verified diff as a pull request
from a temporary clone (dw_assets.connectors.git_host); the working copy is never written.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from dw_assets.config import ConfigError, DomainConfig, Settings
from dw_assets.connectors.git import GitError, find_repo
from dw_assets.connectors.git_host import open_pull_request
from dw_assets.connectors.warehouse import WarehouseError, dialect_for_url
from dw_assets.core.autonomy import AutonomyLevel
from dw_assets.core.blast_radius import BlastEntry
from dw_assets.core.causes import Cause
from dw_assets.core.evidence import EvidenceBundle
from dw_assets.core.fix_advice import recommendation_for
from dw_assets.core.fixes import (
    FileEdit,
    ProposedFix,
    safe_cast_edit,
    sensor_marker_edit,
    unified_diff,
)
from dw_assets.core.graph import ContextGraph
from dw_assets.diagnosis.repos import _SKIP_DIRS, dag_files_for, repo_for
from dw_assets.governance.gate import is_stopped
from dw_assets.governance.ledger import GovernanceLedger
from dw_assets.store import Store

_SENSOR_CAUSES = ("split_export_early_release", "late_upstream")
MIN_CONFIDENCE = 0.3


def propose_fixes(settings: Settings, evidence: EvidenceBundle, causes: list[Cause], *, graph: ContextGraph | None = None,
                  max_causes: int = 3) -> list[ProposedFix]:
    """Fixes for the top cause and any other cause that explains the symptom with confidence."""
    chosen = [c for i, c in enumerate(causes) if c.kind != "unknown"
              and (i == 0 or (c.explains and c.confidence >= 0.5))][:max_causes]
    fixes: list[ProposedFix] = []
    for cause in chosen:
        if cause.confidence < MIN_CONFIDENCE and fixes:
            continue
        fixes += _fixes_for(settings, evidence, cause)
    if not fixes and causes:
        fixes.append(recommendation_for(causes[0]))
    for fix in fixes:
        fix.blast_radius = _blast(graph, fix.target_asset)
    return fixes


def _fixes_for(settings: Settings, evidence: EvidenceBundle, cause: Cause) -> list[ProposedFix]:
    if cause.kind in _SENSOR_CAUSES and cause.details.get("dag_id"):
        fix = _sensor_fix(settings, evidence, cause)
        return [fix] if fix else [recommendation_for(cause)]
    if cause.kind == "upstream_type_change":
        return _cast_fixes(settings, evidence, cause)
    return [recommendation_for(cause)]


def _marker_suffix(evidence: EvidenceBundle, sources: Sequence[str] = ()) -> str:
    """The landing convention's marker suffix: read off a marker that is there, else off a sensor in
    the owner's DAG files that already waits for one (`FileSensor(filepath=".../{day}.ok")`, a
    `_SUCCESS` file), else `.done`."""
    for f in evidence.landed_files:
        if f.is_marker and "." in f.name:
            return "." + f.name.rsplit(".", 1)[-1]
    for text in sources:
        found = marker_suffix_in(text)
        if found:
            return found
    return ".done"


_MARKER_LITERAL = re.compile(r"""["'][^"'*\n]*?(?P<suffix>\.(?:done|ok|ready|complete|success|finished|ctl|flag|trigger|eof)"""
                             r"""|_SUCCESS|\.DONE|\.OK)["']""")


def marker_suffix_in(text: str) -> str | None:
    """A done-marker a sensor of this file waits for (a path literal with no glob ending in a marker
    suffix), as its suffix."""
    match = _MARKER_LITERAL.search(text or "")
    return match.group("suffix") if match else None


def _sensor_fix(settings: Settings, evidence: EvidenceBundle, cause: Cause) -> ProposedFix | None:
    dag_id, dataset = cause.details["dag_id"], cause.details.get("dataset")
    files = dag_files_for(settings, dag_id, dataset)
    if not files:
        return None
    repo = files[0][0]
    texts = [repo.read(path) for _, path in files]
    others = _other_dag_texts(settings, dataset)
    suffix = _marker_suffix(evidence, texts + others)
    edits = [e for (_, path), text in zip(files, texts, strict=True) if (e := sensor_marker_edit(path, text, suffix))]
    if not edits:
        return None
    diff = unified_diff(edits)
    check = repo.apply_check(diff)
    return ProposedFix(
        cause.kind, f"Make {dag_id}'s sensor wait for the export's done-marker",
        "The sensor releases on the first file matching the export glob, so a split export is loaded "
        "before its last part lands. The marker is written after the last part: waiting for it makes "
        "the load see every part. Files changed: every file defining the DAG "
        f"({', '.join(e.path for e in edits)}).",
        kind="diff", repo=str(repo.root), paths=[e.path for e in edits], diff=diff, verified=check.ok,
        check_output=check.output, target_asset=cause.subject)


def _other_dag_texts(settings: Settings, dataset: str | None, limit: int = 50) -> list[str]:
    """The owner's other DAG files: a sensor there that waits for a marker shows the convention."""
    repo = repo_for(settings, dataset)
    if repo is None:
        return []
    domain = settings.domain_for(dataset) if dataset else None
    base = Path(repo.root) / ((domain.dags_path if domain else None) or "")
    texts, seen = [], 0
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = [d for d in dirnames if d not in _SKIP_DIRS and not d.startswith(".")]
        for name in filenames:
            seen += 1
            if not name.endswith(".py") or seen > 3000:
                continue
            try:
                text = (Path(dirpath) / name).read_text(errors="replace")
            except OSError:
                continue
            if "Sensor" in text and ("DAG" in text or "@dag" in text):
                texts.append(text)
            if len(texts) >= limit:
                return texts
    return texts


def _cast_fixes(settings: Settings, evidence: EvidenceBundle, cause: Cause) -> list[ProposedFix]:
    """Where the owner said (`domains[].fix_location`): the staging model's cast, or the load task.
    When the chosen place holds no cast to rewrite, the other place's diff is offered as well."""
    column = cause.details["column"]
    sentinels = list(cause.details.get("sentinels") or [])
    sites = cause.details.get("casts") or []
    domain = settings.domain_for(sites[0]["model"]) if sites and sites[0].get("model") else None
    location = domain.fix_location if domain else "staging_model"
    model_fix = _model_cast_fix(settings, evidence, cause, column, sentinels, sites)
    advice = recommendation_for(cause)
    if location == "staging_model":
        return [model_fix] if model_fix else [advice]
    return [advice] + ([model_fix] if model_fix else [])


def _model_cast_fix(settings, evidence, cause, column, sentinels, sites) -> ProposedFix | None:
    for site in sites:
        model = next((m for m in evidence.models if m.node_id == site.get("model")), None)
        repo = repo_for(settings, site.get("model"))
        if model is None or repo is None:
            continue
        edit = safe_cast_edit(model.file_path, repo.read(model.file_path), column, sentinels,
                              dialect=_dialect(settings))
        if edit is None:
            continue
        return _checked(repo, [edit], cause, model.node_id,
                        f"Read {column} safely in {model.name}",
                        f"{column} now arrives as text with values such as {', '.join(map(repr, sentinels)) or 'text'}; "
                        f"the strict cast in {model.file_path} fails the build. The known sentinel values become NULL "
                        f"explicitly and anything else no number reads becomes NULL through a safe cast instead of "
                        f"failing every model downstream. Map the sentinels to 0 instead if they mean 'none'.")
    return None


def _checked(repo, edits: list[FileEdit], cause: Cause, target: str, title: str, rationale: str) -> ProposedFix:
    diff = unified_diff(edits)
    check = repo.apply_check(diff)
    return ProposedFix(cause.kind, title, rationale, kind="diff", repo=str(repo.root), paths=[e.path for e in edits],
                       diff=diff, verified=check.ok, check_output=check.output, target_asset=target)


def _dialect(settings: Settings) -> str:
    """The warehouse's sqlglot dialect, from the one list of supported warehouses."""
    try:
        return dialect_for_url(settings.warehouse.url).name
    except WarehouseError:  # not a checks warehouse, but sqlglot may still write its SQL (snowflake, bigquery)
        return settings.warehouse.url.split(":", 1)[0].split("+", 1)[0]


def _blast(graph: ContextGraph | None, asset: str | None) -> list[BlastEntry]:
    if graph is None or not asset:
        return []
    try:
        radius = graph.blast_radius(asset)
    except LookupError:
        return []
    return radius.entries()


def open_fix_pull_requests(settings: Settings, fixes: list[ProposedFix], incident_id: str | None, *,
                           store: Store | None = None) -> None:
    """Sets `pull_request` or `pull_request_error` on each diff fix whose repo belongs to a domain
    with `git_host`; without one (the default) nothing is touched. The org-wide stop holds them too."""
    if not incident_id or not any(d.git_host for d in settings.domains):
        return
    stopped = _stop_reason(settings, store)
    for fix in fixes:
        domain = _hosting_domain(settings, fix) if fix.kind == "diff" and fix.diff and fix.repo else None
        if domain is None or fix.repo is None:
            continue
        level = settings.autonomy_of(domain)
        if stopped:
            fix.pull_request_error = f"not opened: {stopped}"
        elif level < AutonomyLevel.L2:  # opening a PR is proposing: L0/L1 domains only observe
            fix.pull_request_error = (f"not opened: domain {domain.name!r} is at {level.name}; pull requests are "
                                      "proposed from L2")
        elif not fix.verified:
            fix.pull_request_error = "not opened: the diff does not apply to the working copy (git apply --check)"
        else:
            try:
                fix.pull_request = open_pull_request(domain, fix.repo, fix, incident_id=incident_id)
            except (GitError, ConfigError) as exc:
                fix.pull_request_error = str(exc)


def _hosting_domain(settings: Settings, fix: ProposedFix) -> DomainConfig | None:
    """The domain with a git_host whose working copy is the fix's repo, the fixed asset's domain first."""
    if fix.repo is None:
        return None
    own = settings.domain_for(fix.target_asset) if fix.target_asset else None
    for domain in [d for d in [own, *settings.domains] if d is not None and d.git_host]:
        where = settings.resolve_path(domain.repo) if domain.repo else settings.base_dir
        repo = find_repo(where)
        if repo and Path(repo.root).resolve() == Path(fix.repo).resolve():
            return domain
    return None


def _stop_reason(settings: Settings, store: Store | None) -> str | None:
    if store is None:
        return "org-wide stop is on (governance.stop: true)" if settings.governance.stop else None

    return is_stopped(settings, GovernanceLedger(store))
