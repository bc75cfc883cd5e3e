"""One module (or folder) per external system, each stating what it reads and writes and its
read-only mode: Airflow, OpenLineage, the warehouse, dbt, git and the git host, Slack. Network calls
go through `retry` (backoff under a deadline, errors naming system, endpoint and what to do)."""
