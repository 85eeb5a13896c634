"""Size limits for scripts, like those for specs and logs: a script past them is refused with one
line that names the limit (lint: a JC800 error at 1:1; import: one line, exit 1), never a
MemoryError, and a script within them is read as before."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest

from jobc.script.parse import MAX_BYTES, MAX_WORDS, read, read_bytes

HEAD = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --time=1:00:00\n"
TAIL = "srun python train.py\n"
_BUDGET = 3 << 30  # the address space the refusals must fit in, as on a small login node


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (_BUDGET, _BUDGET))


def _jobc(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jobc", *args],
        capture_output=True,
        text=True,
        preexec_fn=_limited,
        check=False,
    )


def test_a_script_of_millions_of_commands_is_refused_with_the_limit(tmp_path: Path) -> None:
    # 5 MB of 2.5 million commands ran out of memory ("internal error, and another one")
    path = tmp_path / "huge.sh"
    path.write_text(HEAD + "a;" * 2_500_000 + "\n" + TAIL)
    lint = _jobc("lint", "--format", "json", str(path))
    assert lint.returncode == 1, lint.stderr
    assert '"code": "JC800"' in lint.stdout
    assert "larger than 4 MiB" in lint.stdout
    assert "max_script_size" in lint.stdout
    imp = _jobc("import", str(path))
    assert imp.returncode == 1
    assert imp.stdout == ""
    assert imp.stderr.count("\n") == 1  # one line
    assert "not imported" in imp.stderr
    assert "larger than 4 MiB" in imp.stderr


def test_a_script_of_too_many_words_under_the_byte_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "words.sh"
    path.write_text(HEAD + "srun python train.py " + "a " * (MAX_WORDS + 1) + "\n")
    assert path.stat().st_size < MAX_BYTES
    facts = read(path)
    assert not facts.readable
    assert [p.severity for p in facts.problems] == ["error"]
    assert f"more than {MAX_WORDS:,} words" in facts.problems[0].message
    imp = _jobc("import", str(path))
    assert imp.returncode == 1
    assert imp.stderr.count("\n") == 1
    assert f"{MAX_WORDS:,} words" in imp.stderr


def test_scripts_at_the_limits_are_read() -> None:
    # exactly the bytes sbatch takes (its default max_script_size), most of them a comment
    head = (HEAD + TAIL).encode()
    at_limit = head + b"#" * (MAX_BYTES - len(head) - 1) + b"\n"
    assert len(at_limit) == MAX_BYTES
    facts = read_bytes(at_limit, "job.sh")
    assert facts.readable
    assert facts.main_step is not None
    assert not read_bytes(at_limit + b"#", "job.sh").readable
    # a long run of plain lines is read as one command, and counts as one
    plain = (HEAD + "echo hi\n" * (MAX_WORDS + 10) + TAIL).encode()
    assert len(plain) < MAX_BYTES
    facts = read_bytes(plain, "job.sh")
    assert facts.readable
    assert facts.main_step is not None


@pytest.mark.parametrize("size", [MAX_BYTES + 1, 3 * MAX_BYTES])
def test_read_takes_no_more_than_the_limit_from_the_file(tmp_path: Path, size: int) -> None:
    path = tmp_path / "big.sh"
    with path.open("wb") as fh:
        fh.write(HEAD.encode())
        fh.truncate(size)  # a sparse file: its size without writing it
    facts = read(path)
    assert not facts.readable
    assert facts.lines == ["#!/bin/bash"]
    assert "larger than 4 MiB" in facts.problems[0].message
