"""The hang watchdog on its own (no torch): a Python loop, a wait in C, a failed collective, and
a program that keeps making progress, each in a fresh interpreter."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from jobc.runtime.contract import HANG_EXIT_CODE
from jobc.runtime.hang import HangWatch, collective_failure, dump_file_names
from tests.support import ROOT

PROLOGUE = """
import sys, threading, time
from pathlib import Path
from jobc.runtime.hang import HangWatch
watch = HangWatch(hang_s=HANG_S, dump_dir=Path(sys.argv[1]), rank=3, restart=2, backend="gloo",
                  recorder=lambda backend: b'{"entries": []}', world_size=4,
                  groups=lambda: {"0": [0, 1, 2, 3]})
watch.start()
"""


def run(tmp_path: Path, body: str, hang_s: float = 0.6) -> tuple[subprocess.CompletedProcess[str], Path]:
    program = tmp_path / "prog.py"
    program.write_text(PROLOGUE.replace("HANG_S", repr(hang_s)) + textwrap.dedent(body))
    dumps = tmp_path / "dumps"
    done = subprocess.run(
        [sys.executable, str(program), str(dumps)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    return done, dumps


def line_of(path: Path, marker: str) -> int:
    return next(i for i, text in enumerate(path.read_text().splitlines(), 1) if marker in text)


def stacks(dumps: Path) -> dict[str, object]:
    fr, st = dump_file_names(3, 2)
    assert json.loads((dumps / fr).read_text()) == {"entries": []}
    data: dict[str, object] = json.loads((dumps / st).read_text())
    return data


@pytest.mark.parametrize(
    ("body", "marker"),
    [
        ("n = 0\nwhile n >= 0:  # SPIN\n    n += 1\n", "# SPIN"),  # stuck in Python
        ("threading.Event().wait()  # WAIT\n", "# WAIT"),  # stuck in C, the GIL released
    ],
)
def test_a_stuck_main_thread_is_dumped_and_ends_with_the_hang_code(
    tmp_path: Path, body: str, marker: str
) -> None:
    done, dumps = run(tmp_path, body)
    assert done.returncode == HANG_EXIT_CODE, done.stderr
    data = stacks(dumps)
    assert data["rank"] == 3
    assert data["world_size"] == 4
    assert data["groups"] == {"0": [0, 1, 2, 3]}
    threads = data["threads"]
    assert isinstance(threads, list)
    main = next(t for t in threads if t["main"])
    # Innermost first: the program's own frame is the first of prog.py (threading's wait may be above).
    top = next(f for f in main["frames"] if Path(f["file"]).name == "prog.py")
    assert top["line"] == line_of(tmp_path / "prog.py", marker)
    assert marker in top["code"]
    assert "jobc: rank 3: hang: no step completed" in done.stderr
    assert f"exiting with {HANG_EXIT_CODE}" in done.stderr


def test_a_failed_collective_is_dumped_with_the_stack_of_the_call(tmp_path: Path) -> None:
    done, dumps = run(
        tmp_path,
        """
        def step():
            raise RuntimeError("[pair.cc:561] Connection closed by peer [127.0.0.1]:1")  # RAISE
        step()
        """,
    )
    assert done.returncode == HANG_EXIT_CODE, done.stderr
    main = next(t for t in stacks(dumps)["threads"] if t["main"])  # type: ignore[attr-defined]
    assert main["frames"][0]["line"] == line_of(tmp_path / "prog.py", "# RAISE")
    assert "a collective failed: RuntimeError" in done.stderr


def test_another_exception_is_left_to_python(tmp_path: Path) -> None:
    done, dumps = run(tmp_path, "raise ValueError('not a collective')\n")
    assert done.returncode == 1
    assert "ValueError: not a collective" in done.stderr
    assert not dumps.exists()


def test_a_program_that_makes_progress_writes_nothing(tmp_path: Path) -> None:
    # Progress every 50 ms for 5 s, more than twice the 2 s hang time: the watchdog is reset each
    # time. 2 s, not 0.6 s: a busy machine may leave this process unscheduled for a good part of
    # a second between two steps, which is no hang.
    done, dumps = run(
        tmp_path,
        """
        for _ in range(100):
            time.sleep(0.05)
            watch.progress()
        watch.stop()
        time.sleep(3.0)
        print("done")
        """,
        hang_s=2.0,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "done"
    assert not dumps.exists()


def test_collective_failures_are_told_from_other_errors() -> None:
    assert collective_failure(RuntimeError("Timed out waiting 5000ms for recv operation"))
    wrapped = ValueError("outer")
    wrapped.__cause__ = RuntimeError("Connection reset by peer")
    assert collective_failure(wrapped)
    assert not collective_failure(RuntimeError("CUDA out of memory"))
    assert not collective_failure(ValueError("Timed out waiting"))


def test_hang_s_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        HangWatch(hang_s=0, dump_dir=None, rank=0, restart=0, backend="gloo")
