"""The estate as Dagster sees it: dbt models it observes (Airflow runs dbt, Dagster watches),
the external datasets around them, and the exposures that read them.

Asset keys follow the dataset identity rule (`dw_assets.core.identity`): the canonical id split on
dots, so `finance.bronze.gl_entries` is `["finance", "bronze", "gl_entries"]` whichever system
reported it. Exposures are `["exposures", <name>]`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import dagster as dg
from dagster_dbt import DagsterDbtTranslator, build_dbt_asset_specs

from dw_assets.config import REPO_ROOT, Settings
from dw_assets.connectors.dbt import load_manifest, project_paths
from dw_assets.context_graph import checkout_parse_refusal, ensure_manifest
from dw_assets.core.identity import canonical_dataset_id
from dw_assets.dagster_defs.partitions import dataset_partitions

ESTATE_GROUPS = {"finance", "revenue"}


def dataset_key(dataset_id: str) -> dg.AssetKey:
    return dg.AssetKey(dataset_id.split("."))


def dagster_owner(owner: str | None, emails: Mapping[str, str] | None = None) -> str | None:
    """Dagster accepts an email or `team:<name>`. A bare handle is the person's email when the dbt
    project names one for it (group and exposure owners: `name` + `email`), so one person has one
    identity on every asset; a handle nobody gave an email for becomes a team owner."""
    if not owner:
        return None
    owner = owner.strip()
    if "@" in owner or owner.startswith("team:"):
        return owner
    if emails and owner.lower() in emails:
        return emails[owner.lower()]
    return "team:" + "".join(c if c.isalnum() or c in "_-" else "_" for c in owner)


def owner_emails(manifest: Mapping[str, Any]) -> dict[str, str]:
    """Handle -> email from the owners the dbt project declares (groups, exposures)."""
    emails: dict[str, str] = {}
    owners = [g.get("owner") or {} for g in manifest.get("groups", {}).values()]
    owners += [e.get("owner") or {} for e in manifest.get("exposures", {}).values()]
    for owner in owners:
        name, email = owner.get("name"), owner.get("email")
        if name and email:
            emails.setdefault(str(name).strip().lower(), str(email).strip())
    return emails


def relation_id(props: Mapping[str, Any]) -> str:
    name = props.get("alias") or props.get("identifier") or props["name"]
    return canonical_dataset_id(f"{props.get('database')}.{props.get('schema')}.{name}")


class EstateTranslator(DagsterDbtTranslator):
    """Every manifest-to-Dagster mapping in one place (one method per attribute)."""

    def __init__(self, manifest: Mapping[str, Any]):
        super().__init__()
        self._groups = manifest.get("groups", {})
        self.emails = owner_emails(manifest)

    def get_asset_key(self, dbt_resource_props: Mapping[str, Any]) -> dg.AssetKey:
        return dataset_key(relation_id(dbt_resource_props))

    def _owner_props(self, props: Mapping[str, Any]) -> dict[str, Any]:
        group = self._groups.get(f"group.{props.get('package_name')}.{props.get('group')}", {})
        return group.get("owner") or {}

    def get_owners(self, dbt_resource_props: Mapping[str, Any]) -> list[str] | None:
        owner = self._owner_props(dbt_resource_props)
        meta_owner = (dbt_resource_props.get("meta") or {}).get("owner") or (
            dbt_resource_props.get("config", {}).get("meta") or {}
        ).get("owner")
        chosen = dagster_owner(owner.get("email") or owner.get("name") or meta_owner, self.emails)
        return [chosen] if chosen else None

    def get_group_name(self, dbt_resource_props: Mapping[str, Any]) -> str | None:
        return dbt_resource_props.get("group") or "estate"

    def get_metadata(self, dbt_resource_props: Mapping[str, Any]) -> Mapping[str, Any]:
        meta = dict(dbt_resource_props.get("meta") or {})
        meta.update(dbt_resource_props.get("config", {}).get("meta") or {})
        return {
            "dw/dataset_id": relation_id(dbt_resource_props),
            "dw/dbt_unique_id": dbt_resource_props["unique_id"],
            "dw/observed_only": "Airflow runs dbt; Dagster observes these models",
            **{f"dbt_meta/{k}": str(v) for k, v in meta.items()},
        }


def _exposure_specs(manifest: Mapping[str, Any], translator: EstateTranslator) -> list[dg.AssetSpec]:
    nodes = {**manifest.get("nodes", {}), **manifest.get("sources", {})}
    specs = []
    for exposure in manifest.get("exposures", {}).values():
        deps = [translator.get_asset_key(nodes[n]) for n in exposure["depends_on"].get("nodes", []) if n in nodes]
        owner = exposure.get("owner") or {}
        meta = exposure.get("meta") or {}
        specs.append(
            dg.AssetSpec(
                key=dg.AssetKey(["exposures", exposure["name"]]),
                description=exposure.get("description") or exposure.get("label"),
                deps=deps,
                owners=[o for o in [dagster_owner(owner.get("email") or owner.get("name"), translator.emails)] if o],
                group_name="exposures",
                kinds={str(meta.get("tool") or exposure.get("type") or "dashboard")},
                metadata={
                    "label": exposure.get("label") or exposure["name"],
                    "maturity": str(exposure.get("maturity")),
                    "type": exposure.get("type"),
                    **({"url": dg.MetadataValue.url(exposure["url"])} if exposure.get("url") else {}),
                },
            )
        )
    return specs


def _external_dataset_specs(settings: Settings, manifest: Mapping[str, Any], taken: set[dg.AssetKey],
                            emails: Mapping[str, str]) -> list[dg.AssetSpec]:
    """Sources and every dataset the config names, declared once as external assets."""
    ids: dict[str, dict[str, Any]] = {}
    for source in manifest.get("sources", {}).values():
        ids[relation_id(source)] = {"description": source.get("description"), "system": "warehouse"}
    for check in settings.checks:
        ids.setdefault(canonical_dataset_id(check.dataset), {})
    for outputs in settings.airflow.task_outputs.values():
        for dataset in outputs:
            ids.setdefault(canonical_dataset_id(dataset), {})
    specs = []
    for dataset_id, info in sorted(ids.items()):
        key = dataset_key(dataset_id)
        if key in taken:
            continue
        domain = settings.domain_for(dataset_id)
        owner = dagster_owner(domain.owner if domain else None, emails)
        specs.append(
            dg.AssetSpec(
                key=key,
                description=info.get("description") or f"External dataset {dataset_id} (written by the estate)",
                owners=[owner] if owner else [],
                group_name=domain.name if domain else "estate",
                kinds={"duckdb"} if settings.warehouse.url.startswith("duckdb") else set(),
                metadata={"dw/dataset_id": dataset_id, "dw/domain": domain.name if domain else None},
            )
        )
    return specs


def load_estate_manifest(settings: Settings) -> dict[str, Any] | None:
    """The dbt manifest, resolved as the context graph resolves it (`dbt parse` only when stale), or
    None with a warning when it would have to be parsed inside this checkout (`dagster dev` on the
    shipped config before `make demo`): the location then loads without the dbt models."""
    refusal = checkout_parse_refusal(settings)
    if refusal is not None:
        dg.get_dagster_logger().warning(f"Data Workers: the estate's dbt models are not loaded: {refusal}")
        return None
    paths = project_paths(settings)
    if not settings.dbt.manifest and paths.project_dir.is_relative_to(REPO_ROOT):
        return load_manifest(paths.manifest)  # as it is, even if older than the project: no parse in the checkout
    return load_manifest(ensure_manifest(settings))


def with_partitions(specs: list[dg.AssetSpec], settings: Settings) -> list[dg.AssetSpec]:
    """Each checked dataset partitioned at its checks' grain (see `partitions`), so the checks
    evaluated per partition can say which one."""
    by_key = {dataset_key(d): p for d, p in dataset_partitions(settings).items()}
    return [s.replace_attributes(partitions_def=by_key[s.key]) if s.key in by_key else s for s in specs]


def estate_specs(settings: Settings) -> list[dg.AssetSpec]:
    manifest = load_estate_manifest(settings)
    if manifest is None:  # still partitioned: the partitioned checks must match their asset's partitions
        return with_partitions(_external_dataset_specs(settings, {}, set(), {}), settings)
    translator = EstateTranslator(manifest)
    dbt_specs = list(build_dbt_asset_specs(manifest=manifest, dagster_dbt_translator=translator))
    taken = {s.key for s in dbt_specs}
    return with_partitions(dbt_specs + _external_dataset_specs(settings, manifest, taken, translator.emails)
                           + _exposure_specs(manifest, translator), settings)


def build_definitions(settings: Settings) -> dg.Definitions:
    refusal = checkout_parse_refusal(settings)
    return dg.Definitions(assets=estate_specs(settings),
                          metadata={"dw/estate_dbt_models": f"not loaded: {refusal}" if refusal else "loaded"})
