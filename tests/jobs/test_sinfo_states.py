"""sinfo's node states (`%T`) with the flags Slurm appends (sinfo(1), NODE STATE CODES), as the
states a job's nodes are checked against; a 22.05 cluster shows only some of them."""

from __future__ import annotations

import pytest

from jobc.jobs.slurm import parse_unavailable, unavailable


@pytest.mark.parametrize(
    "state",
    ["down", "down*", "down~", "down$", "drained", "drained*", "draining@", "drained^", "fail", "failing",
     "idle*", "mixed*", "inval", "idle+drain", "DOWN+NOT_RESPONDING"],
)  # fmt: skip
def test_states_jobs_cannot_use(state: str) -> None:
    assert unavailable(state)


@pytest.mark.parametrize(
    "state",
    ["idle", "idle~", "idle#", "idle%", "mixed", "mixed-", "allocated", "allocated+", "completing",
     "planned", "reserved", "maint", "idle$", "power_down"],
)  # fmt: skip
def test_states_jobs_can_use(state: str) -> None:
    assert not unavailable(state)


def test_sinfo_lines() -> None:
    reason = "Not responding [slurm@2024-05-01T10:00:00]"
    text = f"gpu001|mixed|none\ngpu002|down~|{reason}\ngpu003|idle~|none\nbad line\n"
    assert parse_unavailable(text) == {"gpu002": ("down~", reason)}
