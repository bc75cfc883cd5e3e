"""Evaluate the code location's real sensors against one Dagster instance and carry out what they
ask, the way the daemon would, but in this process and on demand.

`dw demo` uses this instead of a daemon so the night plays out in a predictable order on 2 cores.
Everything lands in the instance (runs, materializations, observations, check evaluations,
dynamic partitions), so `dw ui` on the same DAGSTER_HOME shows it afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, cast

import dagster as dg


@dataclass
class TickResult:
    sensor: str
    asset_events: int = 0
    runs: list[dg.ExecuteInProcessResult] = field(default_factory=list)
    skip_reason: str | None = None


class DagsterDriver:
    def __init__(self, defs: dg.Definitions, instance: dg.DagsterInstance):
        self.defs = defs
        self.instance = instance
        self.cursors: dict[str, str | None] = {}

    def tick(self, sensor_name: str, *, run_config_override: Any = None) -> TickResult:
        """One evaluation of a sensor; its asset events, partitions and run requests are applied."""
        # dynamic partitions (incidents, verifications) are read from this instance, as the daemon does
        with dg.partition_loading_context(dynamic_partitions_store=self.instance):
            return self._tick(sensor_name, run_config_override)

    def _tick(self, sensor_name: str, run_config_override: Any) -> TickResult:
        sensor = self.defs.resolve_sensor_def(sensor_name)
        context = dg.build_sensor_context(instance=self.instance, definitions=self.defs,
                                          cursor=self.cursors.get(sensor_name), sensor_name=sensor_name,
                                          resources=dict(self.defs.resources or {}))
        # Invoke the sensor function directly and apply its result in the daemon's order (partitions
        # before the runs that target them): `evaluate_tick` would resolve run requests against
        # partitions the same result is about to add.
        raw = sensor(context)
        if isinstance(raw, dg.SensorResult):
            requests, events = list(raw.run_requests or []), list(raw.asset_events or [])
            partitions = list(raw.dynamic_partitions_requests or [])
            skip = raw.skip_reason.skip_message if raw.skip_reason else None
            cursor = raw.cursor if raw.cursor is not None else context.cursor
        else:
            # a sensor function returns one request or skip, or yields several
            items: list[object] = ([] if raw is None else [raw] if isinstance(raw, (dg.RunRequest, dg.SkipReason))
                                   else list(cast(Iterable[object], raw)))
            requests = [i for i in items if isinstance(i, dg.RunRequest)]
            skips = [i for i in items if isinstance(i, dg.SkipReason)]
            events, partitions = [], []
            skip = skips[0].skip_message if skips else None
            cursor = context.cursor
        self.cursors[sensor_name] = cursor
        result = TickResult(sensor_name, skip_reason=skip)
        for event in events:
            self.instance.report_runless_asset_event(event)
            result.asset_events += 1
        for change in partitions:
            if isinstance(change, dg.AddDynamicPartitionsRequest):
                self.instance.add_dynamic_partitions(change.partitions_def_name, list(change.partition_keys))
        for request in requests:
            result.runs.append(self.execute(request, sensor, run_config_override))
        return result

    def _job_for(self, request: dg.RunRequest, sensor: dg.SensorDefinition) -> dg.JobDefinition:
        job: dg.JobDefinition | None
        if request.job_name:
            job = self.defs.resolve_job_def(request.job_name)
        elif sensor.has_anonymous_job and sensor.job_name:  # a sensor targeting an asset selection has a job of its own
            job = self.defs.resolve_job_def(sensor.job_name)
        else:
            job = self.defs.resolve_implicit_job_def_def_for_assets(list(request.asset_selection or []))
        if job is None:
            raise ValueError(f"sensor {sensor.name}: no job runs the assets of run request {request.run_key}")
        if request.asset_selection is not None or request.asset_check_keys is not None:
            job = job.get_subset(asset_selection=set(request.asset_selection or []),
                                 asset_check_selection=set(request.asset_check_keys or []))
        return job

    def execute(self, request: dg.RunRequest, sensor: dg.SensorDefinition, run_config_override: Any = None
                ) -> dg.ExecuteInProcessResult:
        job = self._job_for(request, sensor)
        run_config = run_config_override(request) if run_config_override else request.run_config
        if request.partition_key:
            partitions = job.partitions_def
            if isinstance(partitions, dg.DynamicPartitionsDefinition) and partitions.name:
                self.instance.add_dynamic_partitions(partitions.name, [request.partition_key])
        tags = {**(request.tags or {}), "dw/launched_by": f"sensor:{sensor.name}"}
        return job.execute_in_process(run_config=run_config, instance=self.instance, tags=tags,
                                      partition_key=request.partition_key, raise_on_error=False)
