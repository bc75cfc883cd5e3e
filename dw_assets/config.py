"""One typed model of the single config file (`dw.yaml`).

Precedence, written down once: an explicit path argument, else `$DW_CONFIG`, else `$DW_HOME/dw.yaml`
when it exists (a demo home's own config), else the demo estate's `estate/dw.yaml`. Strings may hold `${VAR}` or `${VAR:-default}` references; they are kept
as written in the model and resolved only when used (`resolve_env`), so loading a config never
needs the secrets and a missing variable is reported by the code that needed it.

`${DW_HOME}` is special: it defaults to `<repo>/.dw_home`, the embedded demo's working folder.
Relative paths are relative to the folder holding the config file (`Settings.path`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from datetime import date
from fnmatch import fnmatch
from itertools import pairwise
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from dw_assets.core.approvals import parse_duration
from dw_assets.core.autonomy import AutonomyLevel
from dw_assets.core.identity import (
    AmbiguousAssetError,
    IdentityError,
    UnknownAssetError,
    canonical_dataset_id,
    no_search,
    resolve_dataset_id,
)

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CONFIG = REPO_ROOT / "estate" / "dw.yaml"

_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


class ConfigError(ValueError):
    """A config problem, phrased as file, key and what to do about it."""


def dw_home() -> Path:
    return Path(os.environ.get("DW_HOME") or REPO_ROOT / ".dw_home")


def home_config() -> Path | None:
    """`$DW_HOME/dw.yaml` when it exists: the config a `dw demo` home carries (its Airflow's port and
    password written in), used when no path and no $DW_CONFIG is given."""
    path = dw_home() / "dw.yaml"
    return path if path.is_file() else None


def resolve_env(value: str, *, what: str = "config value") -> str:
    """Resolve `${VAR}` / `${VAR:-default}` references at the moment a value is used."""

    def repl(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        if name == "DW_HOME":
            return os.environ.get("DW_HOME") or str(dw_home())
        if name in os.environ:
            return os.environ[name]
        if default is not None:
            return default
        raise ConfigError(f"{what} needs environment variable ${{{name}}}, which is not set: export it")

    return _ENV_REF.sub(repl, value)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _duration(value: str | None) -> str | None:
    """A duration like 4h, 90m, 1h30m or 2d (checked at load, so `soon` never reaches a command)."""
    if value is None or _ENV_REF.search(value):
        return value

    parse_duration(value)  # ValueError names the bad text; pydantic reports it under the key
    return value


def _zone(value: str | None) -> str | None:
    """An IANA time zone name (Europe/Berlin, America/New_York, UTC), checked at load."""
    if value is None:
        return value
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"{value!r} is not an IANA time zone name (e.g. UTC, Europe/Berlin, "
                         f"America/New_York, Australia/Sydney)") from exc
    return value


class AuthConfig(_Model):
    """How to authenticate to one Airflow: `basic` (Airflow 2), `jwt` (Airflow 3 `/auth/token`),
    `bearer` (a static token: Astro deployment token, Composer OAuth token), or `none`."""

    type: str = "jwt"  # basic | jwt | bearer | none; may be an ${ENV} reference, checked when used
    username: str | None = None
    password: str | None = None
    token: str | None = None


class AirflowInstanceConfig(_Model):
    name: str
    url: str
    auth: AuthConfig = AuthConfig()
    read_only: bool = True
    # Airflow 3 default: draft the approved run for the owner to trigger; "trigger" lets us do it.
    trigger_mode: Literal["draft", "trigger"] = "draft"
    timeout_s: float = 30.0
    retries: int = 3
    deadline_s: float = 180.0  # no retry starts later than this after the first attempt
    api_version: Literal["auto", "v1", "v2"] = "auto"


class AirflowConfig(_Model):
    instances: list[AirflowInstanceConfig] = []
    # which Airflow task writes which dataset, for tasks that emit no OpenLineage outputs
    task_outputs: dict[str, list[str]] = {}


class OpenLineageSource(_Model):
    type: Literal["file", "marquez"]
    path: str | None = None
    url: str | None = None
    namespace: str | None = None
    api_key: str | None = None  # marquez: sent as `Authorization: Bearer`; may be an ${ENV} reference


class OpenLineageConfig(_Model):
    receiver_host: str = "127.0.0.1"
    receiver_port: int = 5055
    api_key: str | None = None
    max_body_bytes: int = 2_000_000
    spec_dir: str | None = None  # folder of the official JSON Schemas; enables full validation
    # with full validation: refuse (400) an event whose facets break their published schema, instead
    # of storing it with the findings attached (Marquez's behaviour, and the default)
    strict: bool = False
    sources: list[OpenLineageSource] = []
    # where Data Workers reports its own runs: an openlineage-python transport config dict
    emit_transport: dict[str, Any] | None = None
    emit_namespace: str = "data-workers"


class DbtConfig(_Model):
    project_dir: str = "../dbt_project"
    profiles_dir: str | None = None
    manifest: str | None = None  # default: <project_dir>/target/manifest.json
    run_results: str | None = None
    # the `dbt` executable, or the folder holding `dbt` and `dbt-ol` (dbt runs as a program, in a venv
    # of its own); default: $DW_DBT_BIN_DIR, beside this Python, the checkout's .venv-dbt/bin, PATH
    executable: str | None = None


class WarehouseConfig(_Model):
    # DuckDB by default; postgresql://... (or sqlite:///...) otherwise (connectors.warehouse.DIALECTS).
    # Files to ATTACH (DuckDB only) by catalog name.
    url: str = "duckdb:///${DW_HOME}/warehouse/analytics.duckdb"
    attach: dict[str, str] = {}


class HolidaysConfig(_Model):
    """Holidays a volume check compares like with like: a country (and region) of the `holidays`
    package, plus dates of your own (a sale, a closing day) named so that each year's repeat
    compares with the last."""

    country: str | None = None  # ISO 3166, e.g. US, DE, GB
    subdiv: str | None = None   # e.g. CA, BY
    dates: dict[date, str] = {}
    # seasons of several weeks, each a group of its own that must earn its effect (compare_by
    # "season"): {"Back to school": [[2025-08-15, 2025-09-05], ...]}; Ramadan needs none: a country
    # whose calendar holds Eid al-Fitr has it (the 30 days before Eid)
    seasons: dict[str, list[tuple[date, date]]] = {}
    # breaks that move from year to year (a school region's holidays, a plant's shutdown), each year's
    # dates named: {"Summer break": [[2025-07-12, 2025-08-24], [2026-07-04, 2026-08-16]], ...}; a
    # week in one compares with the same week of its past breaks (first week, inside, first week
    # back), not the same week of the year; per group in `group_holidays` (each region its own)
    breaks: dict[str, list[tuple[date, date]]] = {}

    @field_validator("seasons", "breaks")
    @classmethod
    def _spans_in_order(cls, v: dict[str, list[tuple[date, date]]],
                        info: ValidationInfo) -> dict[str, list[tuple[date, date]]]:
        kind = "season" if info.field_name == "seasons" else "break"
        for name, spans in v.items():
            if not name.strip():
                raise ValueError(f"a {kind} needs a name (got {name!r})")
            for first, last in spans:
                if last < first:
                    raise ValueError(f"{kind} {name!r}: {last} is before {first} (give [first day, last day])")
            # (one break's years overlapping is a typo: its weeks would have no one position)
            ordered = sorted(spans) if kind == "break" else []
            for (a_first, a_last), (b_first, b_last) in pairwise(ordered):
                if b_first <= a_last:
                    raise ValueError(f"{kind} {name!r}: {a_first}..{a_last} and {b_first}..{b_last} overlap "
                                     f"(give each occasion once)")
        return v


class CalendarDayConfig(_Model):
    """A fixed day of the month the business acts on (a payroll on the 27th), rolled to a business
    day when it falls on a weekend or holiday: "preceding" (the business day before) or "following"."""

    day: int = Field(ge=1, le=31)  # the 31st is a short month's last day
    roll: Literal["preceding", "following"] = "preceding"


class VolumeCheckConfig(_Model):
    partition_column: str
    # what is measured per partition: rows by default, or any SQL aggregate (e.g. sum(net_revenue))
    metric: str = "count(*)"
    name: str = "volume_vs_history"
    grain: Literal["day", "hour"] = "day"  # a timestamp column is bucketed to this
    # which earlier partitions compare at all (month-ends with month-ends, the same weekday, all);
    # unset: all, the model's calendar groups do the comparing
    period: Literal["month_end", "same_weekday", "daily"] | None = None
    # calendar groups the model compares within; unset: inferred from history
    compare_by: list[Literal["period_end", "weekday", "hour_of_day", "hour_of_week", "business_day",
                             "business_day_from_end", "business_day_edge", "holiday", "near_period_end",
                             "near_holiday", "after_gap", "month_of_year", "week_of_year",
                             "season", "rolled_day"]] | None = None
    holidays: HolidaysConfig | None = None
    # the month the fiscal year closes in (6: a July-June year, 1: a February-January retail year):
    # its last day is the year end, every third month-end back from it a quarter end
    fiscal_year_end: int = Field(12, ge=1, le=12)
    # which day of its seven a weekly partition's key names: "first_day" (Dagster's weekly partitions) or
    # "last_day" (a week ending Saturday, a draw date); unset: inferred from the history's holiday weeks,
    # which a series with few moving holidays cannot show
    week_dated_on: Literal["first_day", "last_day"] | None = None
    # fixed days of the month that move the volume (a payroll on the 27th, on the business day
    # before when it is closed): [{day: 27, roll: preceding}], each compared with its own past
    # months (compare_by "rolled_day"); on a series closed some weekdays the model also learns up to
    # three from its history
    calendar_days: list[CalendarDayConfig] = []
    group_by: list[str] = []  # also judge each group (entity, market, source) on its own series
    # a group's own holiday calendar, keyed by the group as the check names it (its `group_by` values
    # joined by "/", e.g. "IL" or "IL/web"): a UK business's Israeli market keeps Israel's holidays
    # and weekend; the table total and the groups not listed keep `holidays`
    group_holidays: dict[str, HolidaysConfig] = {}
    max_groups: int = 50
    history: int | None = None  # comparable partitions read; unset: 400 days, 28 days of hours, 36 month-ends
    min_history: int = 3
    lower_ratio: float | None = None  # the owner's tolerance: the band is never tighter than this
    upper_ratio: float | None = None
    mad_k: float = 4.0  # band half-width in robust standard deviations of the group's log spread
    band_floor: float = Field(0.06, ge=0, le=1)  # never tighter than +-6%
    band_ceiling: float = Field(0.30, gt=0, lt=1)  # never wider than (1 - 0.30)x .. 1/(1 - 0.30)x
    hard_ratio: float = Field(1.9, gt=1)  # at or over this times the baseline always fails
    shift_after: int = Field(3, ge=1)  # partitions off the level in a row that make a new level
    direction: Literal["both", "drop", "spike"] = "both"
    # the owner's time zone: an hourly check's hour of day, weekday and holidays, and a daily check's
    # day on a timestamp column, are this zone's (the SQL buckets in it, whatever the session's zone)
    timezone: str = "UTC"
    # the zone a TIMESTAMP column without time zone was written in (default: `timezone`, as the
    # freshness check reads naive timestamps); e.g. UTC for naive UTC stamps of users elsewhere
    column_timezone: str | None = None
    _zones = field_validator("timezone", "column_timezone")(_zone)

    @model_validator(mode="after")
    def _group_calendars_need_groups(self) -> VolumeCheckConfig:
        if self.group_holidays and not self.group_by:
            raise ValueError(f"group_holidays names groups ({', '.join(sorted(self.group_holidays))}) but the "
                             f"check has no group_by: set group_by, or use holidays for the whole table")
        return self


class FreshnessCheckConfig(_Model):
    timestamp_column: str
    max_age: str | None = None  # e.g. "26h"
    _max_age = field_validator("max_age")(_duration)
    deadline_cron: str | None = None  # e.g. "0 7 * * *": data for the day must land by then
    timezone: str = "UTC"
    _timezone = field_validator("timezone")(_zone)


class BalanceRuleConfig(_Model):
    name: str
    group_by: list[str]
    condition: str  # SQL boolean over aggregates, e.g. "abs(sum(debit) - sum(credit)) < 0.005"
    partition_column: str | None = None


class LandedFilesCheckConfig(_Model):
    partition_column: str
    file_glob: str  # e.g. "gl_{partition_compact}_*.csv"
    landing: str | None = None  # default: the top-level landing url
    header_rows: int = 1


class SchemaDriftCheckConfig(_Model):
    source: Literal["warehouse", "openlineage"] = "warehouse"


class DatasetChecksConfig(_Model):
    dataset: str
    volume: VolumeCheckConfig | None = None
    freshness: FreshnessCheckConfig | None = None
    balance: list[BalanceRuleConfig] = []
    landed_files: LandedFilesCheckConfig | None = None
    schema_drift: SchemaDriftCheckConfig | None = None
    # the first partition Dagster lists for the dataset (its grain comes from the checks: an
    # hourly volume check makes it hourly, a partition column daily); older ones stay checkable
    partitions_start: date = date(2020, 1, 1)


class SlackConfig(_Model):
    webhook_url: str | None = None
    token: str | None = None
    channel: str | None = None
    # interactive approvals: the app's signing secret (an ${ENV} reference) and who each Slack user is
    signing_secret: str | None = None
    users: dict[str, str] = {}  # Slack user id (U...) -> approver name as listed in the domain


class GitHostConfig(_Model):
    """Opt-in: open each verified fix as a pull request (`dw_assets.connectors.git_host`)."""

    type: Literal["github", "gitea"]
    api_url: str  # https://api.github.com, or a Gitea's https://<host>/api/v1
    repo: str = Field(pattern=r"^[^/\s]+/[^/\s]+$")  # "owner/name"
    token: str  # an ${ENV} reference, resolved only when a pull request is opened
    remote: str  # git URL (or path) the fix's branch is pushed to
    base_branch: str = "main"


class DomainConfig(_Model):
    name: str
    datasets: list[str] = []  # canonical ids or globs
    autonomy: Literal["L0", "L1", "L2", "L3", "L4"] = "L1"
    approvers: list[str] = []
    escalation: list[str] = []  # who hears about an expired request, in order
    owner: str | None = None
    slack: SlackConfig | None = None
    repo: str | None = None  # git working copy the fixes are proposed against
    dags_path: str | None = None  # folder of the domain's DAG files inside `repo` (default: search it)
    git_host: GitHostConfig | None = None  # where fix pull requests open; None = off (the default)
    fix_location: Literal["load_task", "staging_model"] = "load_task"
    airflow_instance: str | None = None
    # approvals must come with a verified identity (a signed Slack interaction), not a typed --as name
    require_verified_approval: bool = False


class GovernanceConfig(_Model):
    stop: bool = False
    approval_ttl: str = "4h"
    # how long an approved run drafted for its DAG's owner (Airflow 3 draft mode) waits to be
    # triggered; then it is escalated to the domain's escalation contacts and the plan fails
    owner_draft_wait: str = "6h"
    agent_identities: list[str] = ["data-workers", "dw-agent", "agent", "bot"]
    # The Ed25519 signing key: $DW_SIGNING_KEY, else this 0600 file (never the config text or the
    # database); `demo_key: true` (the demo estate only) makes a random one in that file when absent.
    signing_key_file: str | None = None
    demo_key: bool = False
    # The deployment's public key (base64 or PEM): verify-only hosts need nothing else, and a signing
    # key that does not match it is refused.
    public_key: str | None = None
    # Where the newest receipt head is also kept, append-only, out of reach of a database writer.
    witness_file: str | None = "${DW_HOME}/receipts.witness"
    receipt_key: str | None = None  # no longer read: an HMAC secret in config text (refused when set)
    # L3: plan classes that may run without approval once they have a clean record in the domain
    autonomous_plan_classes: list[str] = ["reload_partition"]
    clean_record_min_runs: int = 3
    _ttl = field_validator("approval_ttl")(_duration)


class StateConfig(_Model):
    url: str = "sqlite:///${DW_HOME}/state.db"


class IncidentsConfig(_Model):
    # a signal joins an open incident on the same dataset seen within this window, e.g. "24h"
    window: str = "24h"
    _window = field_validator("window")(_duration)


class MissedRunsConfig(_Model):
    """The `dw_missed_runs` sensor's limits. A run is *missed* when its DAG's schedule fired more than
    `grace` ago and no run started since; *stuck* when it has been queued/running longer than
    `stuck_after` (when set), else `stuck_factor` x the median duration of the DAG's recent finished
    runs, never less than `stuck_min`. DAGs matching `ignore` (globs) are not watched at all; a paused
    DAG is watched, and its missed run says it is paused."""

    grace: str = "30m"
    lookback: str = "7d"  # runs read per DAG (the medians and the last run come from these)
    stuck_factor: float = Field(default=3.0, ge=1)
    stuck_min: str = "1h"
    stuck_after: str | None = None
    ignore: list[str] = []
    _durations = field_validator("grace", "lookback", "stuck_min", "stuck_after")(_duration)


class Settings(_Model):
    """The whole config. `path` is the file it came from (None when built in code)."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    project: str = "data-workers"
    path: Path | None = Field(default=None, exclude=True)
    state: StateConfig = StateConfig()
    warehouse: WarehouseConfig = WarehouseConfig()
    dbt: DbtConfig = DbtConfig()
    notes: str | None = None
    landing: str = "${DW_HOME}/landing"
    app_database: str | None = None
    airflow: AirflowConfig = AirflowConfig()
    openlineage: OpenLineageConfig = OpenLineageConfig()
    checks: list[DatasetChecksConfig] = []
    domains: list[DomainConfig] = []
    governance: GovernanceConfig = GovernanceConfig()
    incidents: IncidentsConfig = IncidentsConfig()
    missed_runs: MissedRunsConfig = MissedRunsConfig()
    aliases: dict[str, str] = {}  # other systems' names for a dataset -> canonical id

    @model_validator(mode="before")
    @classmethod
    def _canonical_ids(cls, data: Any) -> Any:
        """Every dataset id in the config in its canonical form, once, here: a check, domain or task
        output written `"LAKE"."MAIN"."Orders_Clean"` or as an alias is `lake.orders_clean` to every
        reader, so no reader compares written ids."""
        return _canonicalised(data) if isinstance(data, dict) else data

    @property
    def base_dir(self) -> Path:
        return self.path.parent if self.path else REPO_ROOT / "estate"

    def resolve_path(self, value: str, *, what: str = "path") -> Path:
        """Resolve env references, then make a relative path relative to the config file."""
        p = Path(resolve_env(value, what=what)).expanduser()
        return p if p.is_absolute() or "://" in value else (self.base_dir / p).resolve()

    def domain_named(self, name: str | None) -> DomainConfig | None:
        return next((d for d in self.domains if d.name == name), None)

    def autonomy_of(self, domain: DomainConfig | None) -> AutonomyLevel:
        """A domain's autonomy level; L1 (diagnose, propose nothing) where no domain is configured."""
        return AutonomyLevel.parse(domain.autonomy if domain else "L1")

    def domain_for(self, dataset_id: str) -> DomainConfig | None:
        for domain in self.domains:
            if any(fnmatch(dataset_id, pattern) for pattern in domain.datasets):
                return domain
        return None

    def check_entry(self, dataset: str, *, suffix: bool = True) -> DatasetChecksConfig | None:
        """The checks entry a dataset reference means (core.identity.resolve_dataset_id: the id, an
        alias, the canonical form, with `suffix` a unique dotted suffix such as `gl_entries`), or None.
        Raises ConfigError when a suffix fits several entries."""
        entries = {e.dataset: e for e in self.checks}
        try:
            return entries[resolve_dataset_id(dataset, entries, self.aliases, search=None if suffix else no_search)]
        except UnknownAssetError:
            return None
        except AmbiguousAssetError as exc:
            raise ConfigError(f"dataset {dataset!r} is ambiguous in {self.path}: it fits {', '.join(exc.candidates)}; "
                              "write the full id") from exc

    def airflow_instance(self, name: str) -> AirflowInstanceConfig:
        for inst in self.airflow.instances:
            if inst.name == name:
                return inst
        known = ", ".join(i.name for i in self.airflow.instances) or "none configured"
        raise ConfigError(f"no Airflow instance named {name!r} in {self.path}: known instances: {known}")


def _canonical(value: Any, aliases: dict[str, str] | None = None, *, pattern: bool = False) -> Any:
    """A dataset id's canonical form; a value that is no id (wrong type, malformed) is left for the
    model's own validation (or the reader) to report. A domain's glob keeps its wildcards
    (`FINANCE.*` -> `finance.*`); one with a `[...]` class is only lower-cased (brackets quote names)."""
    if not isinstance(value, str) or not value.strip():
        return value
    if pattern and "[" in value:
        return value.strip().lower()
    try:
        return canonical_dataset_id(value, aliases=None if pattern else aliases)
    except IdentityError:
        return value.strip().lower() if pattern else value


def _with(item: Any, key: str, fix: Callable[[Any], Any]) -> Any:
    """`item` (a mapping from YAML, or a model built in code) with `key` replaced by fix(old)."""
    if isinstance(item, dict) and key in item:
        return {**item, key: fix(item[key])}
    if isinstance(item, BaseModel) and key in type(item).model_fields:
        return item.model_copy(update={key: fix(getattr(item, key))})
    return item


def _canonicalised(data: dict[str, Any]) -> dict[str, Any]:
    raw_aliases = data.get("aliases") or {}
    if not isinstance(raw_aliases, dict):
        return data
    aliases = {k: _canonical(v) for k, v in raw_aliases.items()}

    def ids(values: Any) -> Any:
        return [_canonical(v, aliases) for v in values] if isinstance(values, list) else values

    def globs(values: Any) -> Any:
        return [_canonical(v, pattern=True) for v in values] if isinstance(values, list) else values

    def outputs(by_task: Any) -> Any:
        return {task: ids(v) for task, v in by_task.items()} if isinstance(by_task, dict) else by_task

    out = dict(data)
    if "aliases" in data:
        out["aliases"] = aliases
    if isinstance(data.get("checks"), list):
        out["checks"] = [_with(c, "dataset", lambda v: _canonical(v, aliases)) for c in data["checks"]]
    if isinstance(data.get("domains"), list):
        out["domains"] = [_with(d, "datasets", globs) for d in data["domains"]]
    if "airflow" in data:
        out["airflow"] = _with(data["airflow"], "task_outputs", outputs)
    return out


def _format_validation_error(path: Path, err: ValidationError) -> str:
    lines = [f"{path}: invalid config ({err.error_count()} problem(s))"]
    for e in err.errors():
        key = ".".join(str(p) for p in e["loc"]) or "(top level)"
        if e["type"] == "extra_forbidden":
            fix = "remove it or check its spelling"
        elif e["type"] == "missing":
            fix = "add it"
        else:
            fix = e["msg"]
        lines.append(f"  - key {key}: {fix}")
    return "\n".join(lines)


def load_settings(path: str | Path | None = None) -> Settings:
    """Load and validate the config; raise ConfigError naming the file, key and fix."""
    chosen = Path(path or os.environ.get("DW_CONFIG") or home_config() or DEFAULT_CONFIG).expanduser().resolve()
    if not chosen.exists():
        raise ConfigError(f"config file {chosen} does not exist: pass --config or set DW_CONFIG")
    try:
        raw = yaml.safe_load(chosen.read_text())
    except yaml.YAMLError as exc:
        raise ConfigError(f"{chosen}: not valid YAML: {exc}") from exc
    if raw is None:
        raise ConfigError(f"{chosen} is empty: an empty file is never taken as all defaults; copy estate/dw.yaml "
                          "and edit it, or point --config / DW_CONFIG at the right file")
    if not isinstance(raw, dict):
        raise ConfigError(f"{chosen}: the top level must be a mapping of keys")
    try:
        return Settings.model_validate({**raw, "path": chosen})
    except ValidationError as exc:
        raise ConfigError(_format_validation_error(chosen, exc)) from exc
