"""The one date reader the checks, the diagnosis and the demo share."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from dw_assets.core.dates import as_date


@pytest.mark.parametrize("value", [date(2026, 9, 30), datetime(2026, 9, 30, 23, 59), "2026-09-30",
                                   "2026-09-30 00:00:00", "2026-09-30T05:00:00Z"])
def test_dates_timestamps_and_iso_text_read_as_the_date(value) -> None:
    assert as_date(value) == date(2026, 9, 30)


@pytest.mark.parametrize("value", ["30/09/2026", "", None, "2026-13-01", "2026-09-30 garbage"])
def test_anything_else_is_refused_naming_the_value(value) -> None:
    with pytest.raises(ValueError, match=r"not a date: .* \(expected YYYY-MM-DD\)"):
        as_date(value)
