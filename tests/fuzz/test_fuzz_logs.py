"""The triage fuzz target under hypothesis: real excerpts, mutated."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.log_target import excerpts, mutate, run

POOL = excerpts()


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz-logs")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_mutated_excerpts(scratch: Path, seed: int) -> None:
    run(scratch, mutate(random.Random(seed), POOL))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(raw=st.binary(max_size=2000))
def test_any_bytes(scratch: Path, raw: bytes) -> None:
    run(scratch, raw)
