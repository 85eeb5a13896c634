"""The catalogue of failure signatures: each example fires, each near miss does not, and every
pattern reads a pathological line in linear time."""

from __future__ import annotations

import io
import re
import time

import pytest

from jobc.jobs.signatures import CATALOGUE, CLASSES, PREFILTER, ROLES, Signature
from jobc.jobs.triage import Scanner, scan


def _codes(text: str) -> set[str]:
    scanner = Scanner()
    scan([("x.log", io.BytesIO(text.encode("utf-8") + b"\n"))], scanner)
    scanner.diagnosis(None, None, None, ["x.log"])  # tables and tracebacks are closed by then
    found = set()
    for e in scanner.events:
        if e.sig is not None:
            found.add(e.sig.code)
            if e.fields.get("abort"):
                found.add("G306")
    return found


@pytest.mark.parametrize("sig", CATALOGUE, ids=lambda s: s.code)
def test_the_example_fires(sig: Signature) -> None:
    assert sig.code in _codes(sig.example), sig.example


@pytest.mark.parametrize("sig", CATALOGUE, ids=lambda s: s.code)
def test_the_near_miss_does_not(sig: Signature) -> None:
    assert sig.code not in _codes(sig.near_miss), sig.near_miss


@pytest.mark.parametrize("sig", CATALOGUE, ids=lambda s: s.code)
def test_every_entry_is_documented(sig: Signature) -> None:
    assert sig.cls in CLASSES
    assert sig.role in ROLES
    assert re.fullmatch(r"[A-Z][0-9]{3}", sig.code)
    assert re.fullmatch(r"[a-z0-9\-]+", sig.name)
    assert sig.matches
    assert sig.source
    assert sig.example
    assert sig.near_miss


def test_the_prefilter_lets_every_example_through() -> None:
    for sig in CATALOGUE:
        lines = sig.example.splitlines()
        through = [line for line in lines if PREFILTER.search(line.encode()) is not None]
        assert through, (sig.code, lines)


def _ratio(fn: object, big: str, small: str) -> float:
    """CPU time of one search of `big` over ten searches of `small` (a tenth as long): about 1 when
    the search is linear, about 10 when it is quadratic. The same work on both sides and the best
    of a few rounds of this process's own CPU time, so a busy machine moves both alike."""

    def best(work: object) -> float:
        least = float("inf")
        for _ in range(5):
            start = time.process_time()
            work()  # type: ignore[operator]
            least = min(least, time.process_time() - start)
        return least

    one = best(lambda: fn(big))  # type: ignore[operator]
    ten = best(lambda: [fn(small) for _ in range(10)])  # type: ignore[operator]
    return one / max(ten, 1e-4)


_PATHOLOGICAL = [
    "NCCL",
    "gloo ",
    "rendezvous",
    "failed to connect ",
    "Error",
    "Rank 1] ",
    "srun: error: n: task 1: ",
    "*** JOB 1 ON n CANCELLED AT x ",
    "NCCL error in: ",
    "a:1 ",
    "(a, 1",
    "[a]:",
    "what():  ",
    "--local_rank=1 ",
    "Timed out waiting ",
]


@pytest.mark.parametrize("unit", _PATHOLOGICAL)
@pytest.mark.parametrize("sig", CATALOGUE, ids=lambda s: s.code)
def test_each_pattern_is_linear_on_a_pathological_line(sig: Signature, unit: str) -> None:
    big = unit * (1_000_000 // len(unit))
    small = big[: len(big) // 10]
    ratio = _ratio(sig.pattern.search, big, small)
    assert ratio < 4, f"{sig.code} on {unit!r}: {ratio:.1f}x the time of ten lines a tenth as long"


def test_docs_triage_md_is_what_jobc_prints() -> None:
    from pathlib import Path

    from jobc.jobs.catalogue_doc import listing

    page = Path(__file__).resolve().parents[2] / "docs" / "triage.md"
    assert page.read_text(encoding="utf-8") == listing("markdown"), (
        "docs/triage.md is stale: run `jobc triage --signatures --format markdown > docs/triage.md`"
    )


def test_signatures_from_the_command_line() -> None:
    import json
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-m", "jobc", "triage", "--signatures", "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert {s["code"] for s in data["signatures"]} == {s.code for s in CATALOGUE}
    assert set(data["classes"]) == set(CLASSES)
