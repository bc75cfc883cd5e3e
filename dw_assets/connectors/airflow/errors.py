"""What the Airflow connector raises. Every message names the instance, the request and the fix."""

from __future__ import annotations


class AirflowError(RuntimeError):
    """Base class: something about one Airflow instance went wrong."""


class ReadOnlyError(AirflowError):
    """A write was refused locally because the instance is pinned read-only (nothing was sent)."""


class AirflowAuthError(AirflowError):
    """401: the credentials were refused (or could not be obtained)."""


class AirflowForbiddenError(AirflowError):
    """403: authenticated, but the user may not do this."""


class AirflowNotFoundError(AirflowError):
    """404: the DAG, run or endpoint does not exist on this instance."""


class AirflowConflictError(AirflowError):
    """409: e.g. a DAG run with that id already exists."""


class AirflowRequestError(AirflowError):
    """400/422 or another 4xx: Airflow rejected the request as invalid."""


class AirflowUnavailableError(AirflowError):
    """5xx, timeouts or refused connections, after the configured retries."""


class AirflowResponseError(AirflowError):
    """Airflow answered, but not with the JSON shape this connector expects."""


class ServerBusy(Exception):
    """Internal: a retryable 5xx seen inside an auth flow (turned into a retry by the client)."""

    def __init__(self, status: int, what: str):
        super().__init__(f"{what} answered {status}")
        self.status = status
