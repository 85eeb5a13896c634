"""The same fuzz target under atheris, for long coverage-guided runs (not part of the suite).

    uv run --with atheris python tests/fuzz/atheris_lint.py -atheris_runs=1000000 specs/*.yaml

The files named on the command line seed the corpus; each input is a spec's bytes, and an
input that starts with a line `#set KEY=VALUE` also passes that line as a --set override.
A failing input is written to the current directory as crash-<sha1>.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import atheris  # type: ignore[import-not-found]

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # `tests` as a package, from anywhere

with atheris.instrument_imports():
    from tests.fuzz.target import run

DIRECTORY = Path(tempfile.mkdtemp(prefix="jobc-fuzz-"))


def one_input(data: bytes) -> None:
    sets: list[str] = []
    if data.startswith(b"#set "):
        line, _, data = data.partition(b"\n")
        sets.append(line[5:].decode("utf-8", "surrogateescape"))
    run(DIRECTORY, data, sets)


if __name__ == "__main__":
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
