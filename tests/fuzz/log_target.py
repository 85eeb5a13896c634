"""A fuzz target for triage: any bytes as a job's log.

`run(directory, raw)` writes ``raw`` as a log and runs `jobc triage` on it, as text and as JSON.
What must hold for any input:

- triage answers with exit code 0 and findings (or none): never a traceback or an internal error;
- nothing it prints holds a raw control character or an escape sequence from the log;
- the JSON parses, and every finding has a `class` (or `unknown`) and an `action` from the
  documented vocabulary.

`mutate(rng)` makes an input from the corpus of real excerpts (tests/jobs/corpus/): lines spliced,
repeated, cut, prefixed, with huge or Unicode numbers, control bytes and invalid UTF-8. Run many:

    uv run python -m tests.fuzz.log_target --runs 10000 [--seed N]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import re
import sys
import tempfile
from pathlib import Path

from jobc.cli import main
from jobc.jobs.signatures import ACTIONS, CATALOGUE, CLASSES, UNKNOWN
from tests.support import ROOT

CORPUS = ROOT / "tests" / "jobs" / "corpus"
_RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_FRAGMENTS = [
    b"9" * 5000,
    "²".encode(),
    "٣".encode(),
    b"\x1b[2J",
    b"\x1b]0;title\x07",
    b"\r",
    b"\x00",
    b"\xff\xfe",
    b"[rank",
    b"]: ",
    b"srun: error: n1: tasks 0-1000000000: ",
    b"Traceback (most recent call last):\n",
    b"Root Cause (first observed failure):\n",
    b"  rank      : ",
    b"  exitcode  : -",
    b"ErrorErrorError",
    b"NCCL WARN ",
    b"(exitcode: ",
    b"what():  ",
    b"hf_" + b"A1b2" * 10,
]


def excerpts() -> list[bytes]:
    return [p.read_bytes().partition(b"---\n")[2] for p in sorted(CORPUS.glob("*.log"))]


def mutate(rng: random.Random, pool: list[bytes]) -> bytes:
    lines = [
        line for text in rng.sample(pool, k=min(3, len(pool))) for line in text.splitlines(keepends=True)
    ]
    for _ in range(rng.randint(1, 8)):
        if not lines:
            lines.append(b"")
        i = rng.randrange(len(lines))
        choice = rng.randrange(5)
        fragment = rng.choice(_FRAGMENTS)
        if choice == 0:
            cut = rng.randint(0, len(lines[i]))
            lines[i] = lines[i][:cut] + fragment + lines[i][cut:]
        elif choice == 1:
            lines.insert(i, fragment + b"\n")
        elif choice == 2:
            lines[i] = lines[i] * rng.randint(2, 50)
        elif choice == 3:
            del lines[i]
        else:
            lines[i] = re.sub(rb"[0-9]+", fragment if fragment.isdigit() else b"9" * 5000, lines[i], count=1)
    return b"".join(lines)


def run(directory: Path, raw: bytes) -> None:
    log = directory / "fuzz.out"
    log.write_bytes(raw)
    for fmt in ("text", "json"):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["triage", str(log), "--format", fmt])
        assert code == 0, (code, err.getvalue())
        assert "Traceback" not in err.getvalue(), err.getvalue()
        text = out.getvalue()
        assert _RAW_CONTROL.search(text) is None, repr(text[:300])
        if fmt == "json":
            for finding in json.loads(text)["findings"]:
                assert finding["class"] in CLASSES or finding["class"] == UNKNOWN, finding
                assert finding["action"] in ACTIONS, finding


def main_(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="fuzz jobc triage with mutated real log excerpts")
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    pool = excerpts()
    assert CATALOGUE
    assert pool
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.runs):
            raw = mutate(rng, pool)
            try:
                run(Path(tmp), raw)
            except Exception:
                crash = Path(f"crash-triage-{args.seed}-{n}.log")
                crash.write_bytes(raw)
                print(f"input {n} failed; written to {crash}", file=sys.stderr)
                raise
    print(f"{args.runs} inputs, no failure")
    return 0


if __name__ == "__main__":
    raise SystemExit(main_())
