"""A volume check's calendars in config: the fiscal year's end, a group's own holidays and the day a week is dated on."""

from __future__ import annotations

from datetime import date, timedelta

import duckdb
import pytest
import yaml

from dw_assets.checks.volume import evaluate_volume, group_calendars, holiday_calendar
from dw_assets.config import ConfigError, VolumeCheckConfig, load_settings
from dw_assets.connectors.warehouse import Warehouse


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


def test_a_calendar_day_is_a_day_of_the_month_and_a_known_roll(tmp_path):
    cfg = _load(tmp_path, {"partition_column": "posted_on", "holidays": {"country": "SA"},
                           "calendar_days": [{"day": 27, "roll": "preceding"}, {"day": 15, "roll": "following"}],
                           "compare_by": ["weekday", "rolled_day"]})
    assert holiday_calendar(cfg).rolled_days == ((27, "preceding"), (15, "following"))
    assert holiday_calendar(VolumeCheckConfig(partition_column="d", calendar_days=[{"day": 31}])).rolled_days \
        == ((31, "preceding"),)
    for day in (0, 32):
        with pytest.raises(ConfigError, match=r"checks\.0\.volume\.calendar_days\.0\.day"):
            _load(tmp_path, {"partition_column": "posted_on", "calendar_days": [{"day": day}]})
    with pytest.raises(ConfigError, match=r"checks\.0\.volume\.calendar_days\.0\.roll"):
        _load(tmp_path, {"partition_column": "posted_on", "calendar_days": [{"day": 27, "roll": "nearest"}]})


def test_each_groups_declared_breaks_reach_its_own_calendar(tmp_path):
    cfg = _load(tmp_path, {"partition_column": "week", "group_by": ["region"],
                           "group_holidays": {"noord": {"country": "NL", "breaks": {
                               "Summer break": [["2025-07-12", "2025-08-24"], ["2026-07-04", "2026-08-16"]]}}}})
    own = group_calendars(cfg)
    assert own["noord"].breaks == {"Summer break": [(date(2025, 7, 12), date(2025, 8, 24)),
                                                    (date(2026, 7, 4), date(2026, 8, 16))]}
    assert own["noord"].break_part(date(2026, 7, 6), 7) == "Summer break (first week)"
    assert not holiday_calendar(cfg).breaks  # the table and the groups not listed keep none


@pytest.mark.parametrize(("breaks", "message"), [
    ({"Summer break": [["2026-08-16", "2026-07-04"]]}, r"break 'Summer break': 2026-07-04 is before 2026-08-16"),
    ({"Summer break": [["2026-07-04", "2026-08-16"], ["2026-08-10", "2026-08-30"]]},
     r"break 'Summer break': 2026-07-04\.\.2026-08-16 and 2026-08-10\.\.2026-08-30 overlap"),
    ({" ": [["2026-07-04", "2026-08-16"]]}, r"a break needs a name"),
])
def test_a_declared_break_that_cannot_be_read_names_what_is_wrong(tmp_path, breaks, message):
    with pytest.raises(ConfigError, match=message):
        _load(tmp_path, {"partition_column": "week", "group_by": ["region"],
                         "group_holidays": {"noord": {"breaks": breaks}}})


def test_a_week_dated_on_is_first_day_or_last_day(tmp_path):
    assert _load(tmp_path, {"partition_column": "week_end", "week_dated_on": "last_day"}).week_dated_on == "last_day"
    assert _load(tmp_path, {"partition_column": "week_end"}).week_dated_on is None
    with pytest.raises(ConfigError, match=r"checks\.0\.volume\.week_dated_on"):
        _load(tmp_path, {"partition_column": "week_end", "week_dated_on": "saturday"})


def test_the_declared_week_dating_reaches_the_model(tmp_path):
    """A table of weeks keyed on their Saturday, a year of them (too few for the holiday weeks to show the
    dating): declared as last days, the check reads the seven days to each date and says so; unset, it does not."""
    path = tmp_path / "lake.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE payroll (week_end DATE, amount DOUBLE)")
        saturdays = [date(2025, 1, 4) + timedelta(weeks=i) for i in range(60)]
        con.executemany("INSERT INTO payroll VALUES (?, ?)",
                        [(d, 50_000.0 + 997 * (i % 7)) for i, d in enumerate(saturdays)])
    wh = Warehouse("duckdb:///:memory:", {"lake": str(path)})
    declared = evaluate_volume(wh, None, "lake.main.payroll", VolumeCheckConfig(
        partition_column="week_end", metric="sum(amount)", week_dated_on="last_day"))
    unset = evaluate_volume(wh, None, "lake.main.payroll", VolumeCheckConfig(
        partition_column="week_end", metric="sum(amount)"))
    assert declared.partition == unset.partition == saturdays[-1].isoformat()
    assert any("week_dated_on" in note for note in declared.metadata["notes"])
    assert not any("last day" in note for note in unset.metadata["notes"])
