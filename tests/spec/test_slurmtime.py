"""The Slurm time-limit parser: every form Slurm accepts, and round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jobc.spec.slurmtime import TimeLimitError, describe, format_time, minutes, parse_time

field = st.integers(min_value=0, max_value=500)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("90", 90 * 60),
        ("1:30", 90),
        ("01:00:00", 3600),
        ("48:00:00", 48 * 3600),
        ("2-0", 2 * 86400),
        ("2-12", 2 * 86400 + 12 * 3600),
        ("2-12:30", 2 * 86400 + 12 * 3600 + 30 * 60),
        ("1-00:00:01", 86401),
        ("1:90:00", 9000),  # Slurm does not range-check fields
        (45, 45 * 60),
    ],
)
def test_forms(text: str | int, seconds: int) -> None:
    assert parse_time(text) == seconds


@pytest.mark.parametrize("text", ["UNLIMITED", "infinite", "Unlimited", "-1", -1, 0, "0", "00:00:00"])
def test_no_limit(text: str | int) -> None:
    assert parse_time(text) is None


@pytest.mark.parametrize("text", ["", "1d", "1-", "-5", "1:2:3:4", "1-2:3:4:5", "1:-2", " 10", "1.5", "١٢"])
def test_malformed(text: str) -> None:
    with pytest.raises(TimeLimitError, match="not a Slurm time limit"):
        parse_time(text)


def test_negative_minutes_are_malformed() -> None:
    with pytest.raises(TimeLimitError, match="negative"):
        parse_time(-5)


@given(st.integers(min_value=1, max_value=400 * 86400))
def test_format_round_trips(seconds: int) -> None:
    text = format_time(seconds)
    assert parse_time(text) == seconds
    assert format_time(parse_time(text) or 0) == text


@given(field, field, field, field)
def test_every_form_reads_as_slurm_does(d: int, h: int, m: int, s: int) -> None:
    expected = {
        f"{m}": m * 60,
        f"{m}:{s}": m * 60 + s,
        f"{h}:{m}:{s}": h * 3600 + m * 60 + s,
        f"{d}-{h}": d * 86400 + h * 3600,
        f"{d}-{h}:{m}": d * 86400 + h * 3600 + m * 60,
        f"{d}-{h}:{m}:{s}": d * 86400 + h * 3600 + m * 60 + s,
    }
    for text, seconds in expected.items():
        assert parse_time(text) == (seconds or None), text


def test_describe_and_minutes() -> None:
    assert describe(90 * 60) == "1 h 30 min"
    assert describe(72 * 3600) == "72 h"
    assert describe(59) == "1 min"
    assert minutes(61) == 2
