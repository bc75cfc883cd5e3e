"""A volume check's calendars in config: the fiscal year's end and a group's own holidays."""

from __future__ import annotations

import pytest
import yaml

from dw_assets.checks.volume import group_calendars, holiday_calendar
from dw_assets.config import ConfigError, VolumeCheckConfig, load_settings


def _load(tmp_path, volume: dict):
    path = tmp_path / "dw.yaml"
    path.write_text(yaml.safe_dump({"checks": [{"dataset": "lake.payments", "volume": volume}]}))
    return load_settings(path).checks[0].volume


@pytest.mark.parametrize("month", [0, 13, -1])
def test_a_fiscal_year_end_is_a_month_number(tmp_path, month):
    with pytest.raises(ConfigError, match=r"checks\.0\.volume\.fiscal_year_end"):
        _load(tmp_path, {"partition_column": "paid_on", "fiscal_year_end": month})


def test_the_fiscal_year_end_reaches_the_checks_calendar_and_every_groups(tmp_path):
    cfg = _load(tmp_path, {"partition_column": "paid_on", "fiscal_year_end": 6, "group_by": ["market"],
                           "holidays": {"country": "GB", "subdiv": "ENG"},
                           "group_holidays": {"IL": {"country": "IL"}}})
    assert holiday_calendar(cfg).fiscal_year_end == 6 and holiday_calendar(cfg).country == "GB"
    own = group_calendars(cfg)
    assert list(own) == ["IL"] and own["IL"].country == "IL" and own["IL"].fiscal_year_end == 6
    # no holidays configured: still a calendar, for its fiscal year
    assert holiday_calendar(VolumeCheckConfig(partition_column="d", fiscal_year_end=1)).fiscal_year_end == 1
    assert holiday_calendar(VolumeCheckConfig(partition_column="d")).fiscal_year_end == 12


def test_group_holidays_need_group_by(tmp_path):
    with pytest.raises(ConfigError, match="group_holidays names groups .IL. but the check has no group_by"):
        _load(tmp_path, {"partition_column": "paid_on", "group_holidays": {"IL": {"country": "IL"}}})


def test_a_groups_holidays_are_checked_like_the_checks(tmp_path):
    with pytest.raises(ConfigError, match=r"group_holidays\.IL\.regions"):
        _load(tmp_path, {"partition_column": "paid_on", "group_by": ["market"],
                         "group_holidays": {"IL": {"country": "IL", "regions": "x"}}})
