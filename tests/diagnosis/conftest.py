"""Fixtures for the diagnosis tests; the evidence builders live in `diagnosis_evidence` (a uniquely
named module, so test files can import them without picking up another folder's conftest)."""

from __future__ import annotations

import pytest
from diagnosis_evidence import EvidenceBundle, night1, night2


@pytest.fixture
def night1_evidence() -> EvidenceBundle:
    return night1()


@pytest.fixture
def night2_evidence() -> EvidenceBundle:
    return night2()
