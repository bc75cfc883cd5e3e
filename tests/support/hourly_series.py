"""Helpers for the volume model's tests on synthetic hourly series."""
from __future__ import annotations

import math
import random


def noisy_count(rng: random.Random, mean: float) -> float:
    """A clean hour's rows around `mean`: the hour's level off by 5% (log-normal), then counting noise (a Poisson's
    spread, its square root), never below zero. Two draws from `rng`, in that order."""
    mean *= math.exp(rng.gauss(0, 0.05))
    return float(max(0, round(mean + math.sqrt(mean) * rng.gauss(0, 1))))
