"""Airflow connector: the REST API of Airflow 2 (`/api/v1`) and Airflow 3 (`/api/v2`).

Reads: the API version (`/api/v2/version`, else `/api/v1/version`, probed once per client), DAGs,
DAG runs of one DAG or of all DAGs (`~`) filtered by update or end time and state, one DAG run,
and a run's task instances. Every list is paged to the end.

May write: trigger a DAG run (`POST .../dagRuns`: v2 body `{"logical_date": null, "conf": ...}`,
v1 `{"conf": ...}`) and pause or unpause a DAG (`PATCH .../dags/{id}`). Nothing else.

Read-only: an instance with `read_only: true` (the default) refuses both writes in the client
itself with `ReadOnlyError`, before any request (even the version probe) is sent.

Errors: `AirflowAuthError` (401, or a refused JWT login), `AirflowForbiddenError` (403),
`AirflowNotFoundError` (404), `AirflowConflictError` (409), `AirflowRequestError` (400/422),
`AirflowUnavailableError` (5xx, timeouts, refused connections after retries),
`AirflowResponseError` (an answer that is not the expected JSON). All derive from `AirflowError`,
and every message names the instance, the method and endpoint, and what to fix.

Auth is pluggable (`auth.py`); run ids and DAG ids are URL-encoded as path segments. What the
services call on a client is the Protocol `AirflowApi` (`api.py`), which `AirflowClient` satisfies.
"""

from dw_assets.connectors.airflow.api import AirflowApi, ClientFor
from dw_assets.connectors.airflow.auth import BasicAuth, JwtLogin, NoAuth, StaticBearer, auth_from_config
from dw_assets.connectors.airflow.client import AirflowClient, clients_from_settings
from dw_assets.connectors.airflow.errors import (
    AirflowAuthError,
    AirflowConflictError,
    AirflowError,
    AirflowForbiddenError,
    AirflowNotFoundError,
    AirflowRequestError,
    AirflowResponseError,
    AirflowUnavailableError,
    ReadOnlyError,
)
from dw_assets.connectors.airflow.models import Dag, DagRun, TaskInstance

__all__ = [
    "AirflowApi",
    "AirflowAuthError",
    "AirflowClient",
    "AirflowConflictError",
    "AirflowError",
    "AirflowForbiddenError",
    "AirflowNotFoundError",
    "AirflowRequestError",
    "AirflowResponseError",
    "AirflowUnavailableError",
    "BasicAuth",
    "ClientFor",
    "Dag",
    "DagRun",
    "JwtLogin",
    "NoAuth",
    "ReadOnlyError",
    "StaticBearer",
    "TaskInstance",
    "auth_from_config",
    "clients_from_settings",
]
