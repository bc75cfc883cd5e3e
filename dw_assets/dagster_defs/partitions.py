"""Time partitions of the checked datasets, so Dagster shows which partition each check evaluated.

A dataset's grain and its partition keys are the check service's (`dw_assets.checks.partitions`):
hourly or daily, keys like `2026-09-30` and `2026-09-30T13:00`. Checks evaluated per partition (volume,
landed files, balance with a partition column, at the dataset's grain) are partitioned asset checks;
the others (freshness, schema drift) look at the whole table and stay unpartitioned.

The checks job is one job for every dataset: a check run carries its partition as the
`dagster/partition` tag (Dagster resolves a checks-only job's partitions from executable assets,
and the estate's datasets are external), which is what the check page's Partition column reads.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

import dagster as dg

from dw_assets.checks.partitions import FORMAT, Grain, check_timezone, dataset_grain
from dw_assets.config import DatasetChecksConfig, Settings
from dw_assets.core.identity import canonical_dataset_id

PARTITION_TAG = "dagster/partition"
CRON = {"day": "0 0 * * *", "hour": "0 * * * *"}


def partitions_for(entry: DatasetChecksConfig) -> dg.TimeWindowPartitionsDefinition | None:
    grain = dataset_grain(entry)
    if grain is None:
        return None
    start = datetime(entry.partitions_start.year, entry.partitions_start.month, entry.partitions_start.day)
    # end_offset=1: today's (this hour's) partition exists as soon as its data can be checked
    # the keys are days / wall-clock hours of the check's zone (Dagster keys the repeated hour of a
    # 25-hour day with its offset, `2026-11-01T01:00-0500`, as the check does)
    return dg.TimeWindowPartitionsDefinition(cron_schedule=CRON[grain], fmt=FORMAT[grain],
                                             start=start.strftime(FORMAT[grain]), end_offset=1,
                                             timezone=check_timezone(entry)[0])


def dataset_partitions(settings: Settings) -> dict[str, dg.TimeWindowPartitionsDefinition]:
    """Canonical dataset id -> its partitions, for every partitioned checked dataset."""
    out = {}
    for entry in settings.checks:
        partitions = partitions_for(entry)
        if partitions is not None:
            out[canonical_dataset_id(entry.dataset)] = partitions
    return out


def check_grain(entry: DatasetChecksConfig, check: Literal["volume", "landed_files", "balance"]) -> Grain:
    return entry.volume.grain if check == "volume" and entry.volume is not None else "day"


def check_partitions(entry: DatasetChecksConfig, check: Literal["volume", "landed_files", "balance"],
                     partitioned: bool = True) -> dg.TimeWindowPartitionsDefinition | None:
    """The check's partitions: the dataset's, when the check reads one partition at the dataset's grain."""
    if not partitioned or check_grain(entry, check) != dataset_grain(entry):
        return None
    return partitions_for(entry)
