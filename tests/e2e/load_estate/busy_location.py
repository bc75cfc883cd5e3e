"""Another team's Dagster code location for the load test: a sensor that asks for a run every 20 s
and a job that computes for a few seconds, so its `dagster-daemon` ticks, launches run workers and
writes events the whole time the demo and the daemon night play beside it."""

import time

import dagster as dg


@dg.op
def crunch(context: dg.OpExecutionContext) -> int:
    end, total = time.monotonic() + 3.0, 0
    while time.monotonic() < end:
        total += sum(i * i for i in range(10_000))
    context.log.info(f"crunched {total % 1_000_003}")
    return total


@dg.job
def busy_job() -> None:
    crunch()


@dg.sensor(job=busy_job, minimum_interval_seconds=20, default_status=dg.DefaultSensorStatus.RUNNING)
def busy_sensor(context: dg.SensorEvaluationContext) -> dg.RunRequest:
    return dg.RunRequest(run_key=str(int(time.time())))


defs = dg.Definitions(jobs=[busy_job], sensors=[busy_sensor])
