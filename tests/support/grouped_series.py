"""Helpers for the volume model's tests on synthetic grouped checks (a series per group, keyed by the group's name)."""
from __future__ import annotations

from datetime import datetime

from dw_assets.core.volume_model import Forecast, Point, forecast, with_retired_groups


def read_groups(estate: dict[str, list[Point]], target: datetime) -> dict[str, Forecast]:
    """Each group's daily forecast of `target`, as the grouped check reads them (`with_retired_groups`: a re-keyed
    or closed group read as shut), by the group's name."""
    fcs = [forecast(h, target, grain="day") for h in estate.values()]
    return dict(zip(estate, with_retired_groups(fcs, list(estate.values()), target)))
