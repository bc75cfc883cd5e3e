"""The MCP server's test estate (see mcp_estate.py) with a fake Slack webhook and one open incident
from the volume check, opened through the checks' own incident intake. The server runs as a
subprocess (`dw mcp`), so every test talks to it through the SDK's client (mcp_client.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime

import pytest
from mcp_estate import McpEstate, fake_airflow, night1, write_config
from pytest_httpserver import HTTPServer

from dw_assets.config import load_settings


@pytest.fixture(scope="module")
def mcp_estate(tmp_path_factory: pytest.TempPathFactory) -> Iterator[McpEstate]:
    from zoneinfo import ZoneInfo

    from dw_assets.checks.runner import run_dataset_checks

    home = tmp_path_factory.mktemp("dw_home")
    mp = pytest.MonkeyPatch()
    mp.setenv("DW_HOME", str(home))
    airflow, slack = HTTPServer(host="127.0.0.1", threaded=True), HTTPServer(host="127.0.0.1", threaded=True)
    airflow.start()
    slack.start()
    try:
        now_local = datetime.now(ZoneInfo("America/New_York")).replace(tzinfo=None, microsecond=0)
        load_start = night1(home, now_local)
        fake_airflow(airflow, load_start)
        slack.expect_request(re.compile("^/hooks/.*"), method="POST").respond_with_data("ok")
        config = write_config(home, airflow.url_for("").rstrip("/"), slack.url_for("/hooks"))
        mp.setenv("DW_CONFIG", str(config))
        runs = run_dataset_checks(load_settings(config), "finance.bronze.gl_entries", only={"volume_vs_history"})
        (incident_id,) = [r.incident_id for r in runs if r.incident_id]
        airflow.clear_log()
        yield McpEstate(home, config, airflow, slack, incident_id)
    finally:
        airflow.clear()
        airflow.stop()
        slack.clear()
        slack.stop()
        mp.undo()

