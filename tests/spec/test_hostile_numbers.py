"""Numbers from a spec, the command line or the environment: `²` and 5000 digits are read as what
they are (not ASCII digits, too large), never handed to int()."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.pipeline import parse_override
from jobc.lint.rules.topology.jc110_array_dependency_grammar import array_problem, dependency_problem
from jobc.runtime.contract import ContractError, parse_signal
from jobc.spec.interpolate import InterpolationError, lookup
from tests.support.lint import BASE, lint_text

HUGE = "9" * 5000


def test_an_interpolation_index_of_5000_digits_names_no_value() -> None:
    with pytest.raises(InterpolationError, match="names no spec value"):
        lookup({"launch": {"args": ["a"]}}, f"launch.args.{HUGE}")
    with pytest.raises(InterpolationError):
        lookup({"launch": {"args": ["a"]}}, "launch.args.²")


def test_an_override_path_of_5000_digits_stays_a_key() -> None:
    assert parse_override(f"launch.args.{HUGE}=x").path == ("launch", "args", HUGE)
    assert parse_override("launch.args.٣=x").path == ("launch", "args", "٣")


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("0-15%²", "after '%'"),
        (f"0-15%{HUGE}", None),
        (f"0-{HUGE}", "larger than any array index"),
        ("٣", "is not an index"),
        ("1-3%0", "'%0'"),
    ],
)
def test_array_values_with_hostile_numbers(value: str, words: str | None) -> None:
    problem = array_problem(value)
    if words is None:
        assert problem is None
    else:
        assert problem is not None
        assert words in problem
        assert len(problem) < 300


def test_dependency_job_ids_are_ascii_digits() -> None:
    assert dependency_problem("afterok:٣") is not None
    assert dependency_problem(f"afterok:{HUGE}") is None  # a job id is text; no int() of it


def test_an_array_in_a_spec_with_5000_digits(tmp_path: Path) -> None:
    text = BASE.replace('  time: "04:00:00"\n', f'  time: "04:00:00"\n  array: "0-{HUGE}"\n')
    codes = [f.code for f in lint_text(text, tmp_path).findings]
    assert "JC110" in codes


@pytest.mark.parametrize("value", ["²", HUGE])
def test_runtime_signal_numbers_in_unicode_or_huge(value: str) -> None:
    with pytest.raises(ContractError):
        parse_signal(value)


def test_other_readers_of_numbers_take_ascii_digits_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from jobc.commands.profile import _date
    from jobc.jobs.flight.fields import integer as flight_int
    from jobc.spec import slurmfacts

    assert flight_int("²") is None
    assert flight_int(HUGE) is None
    assert flight_int("-3") == -3
    assert slurmfacts._int({"CPUTot": "²"}, "CPUTot") is None
    assert slurmfacts._int({"CPUTot": HUGE}, "CPUTot") is None
    # a count that cannot be read is unknown, not one GPU
    assert slurmfacts.gpus_in("gpu:²") == (None, ())
    assert slurmfacts.gpus_in(f"gpu:{HUGE}") == (None, ())
    assert slurmfacts.gpus_in(f"gpu:a100:{HUGE}") == (None, ("a100",))
    for epoch in ("²", HUGE):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
        assert len(_date()) == 10
