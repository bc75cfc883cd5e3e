"""Turn ranked causes into fixes against the owner's repo: locate the file, run the core's text
transformer, check the diff with `git apply --check` (read-only), attach the changed asset's blast
radius. Causes without a generic transformer get the core's plain-language recommendation.
"""

from __future__ import annotations

from typing import Any

from dw_assets.config import Settings
from dw_assets.core.diagnosis import Cause
from dw_assets.core.evidence import EvidenceBundle
from dw_assets.core.fix_advice import recommendation_for
from dw_assets.core.fixes import (
    FileEdit,
    ProposedFix,
    safe_cast_edit,
    sensor_marker_edit,
    unified_diff,
)
from dw_assets.diagnosis.repos import dag_files_for, repo_for

_SENSOR_CAUSES = ("split_export_early_release", "late_upstream")
MIN_CONFIDENCE = 0.3


def propose_fixes(settings: Settings, evidence: EvidenceBundle, causes: list[Cause], *, graph: Any = None,
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


def _marker_suffix(evidence: EvidenceBundle) -> str:
    """The landing convention's marker suffix, read off a marker that is there (default `.done`)."""
    for f in evidence.landed_files:
        if f.is_marker and "." in f.name:
            return "." + f.name.rsplit(".", 1)[-1]
    return ".done"


def _sensor_fix(settings: Settings, evidence: EvidenceBundle, cause: Cause) -> ProposedFix | None:
    dag_id, dataset = cause.details["dag_id"], cause.details.get("dataset")
    files = dag_files_for(settings, dag_id, dataset)
    if not files:
        return None
    repo = files[0][0]
    edits = [e for _, path in files if (e := sensor_marker_edit(path, repo.read(path), _marker_suffix(evidence)))]
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
    url = settings.warehouse.url
    scheme = url.split(":", 1)[0].split("+", 1)[0]
    return {"postgresql": "postgres", "duckdb": "duckdb"}.get(scheme, scheme)


def _blast(graph: Any, asset: str | None) -> list[dict[str, Any]]:
    if graph is None or not asset:
        return []
    try:
        radius = graph.blast_radius(asset)
    except LookupError:
        return []
    return [{"id": a.id, "kind": a.kind, "owner": a.owner, "depth": a.depth, "severity": a.severity}
            for a in radius.affected]
