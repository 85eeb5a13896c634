"""A program GNU parallel runs (`parallel [options] python main.py … ::: inputs`) is the job's step,
run by the batch shell: parallel's options and its input lists (`:::`, `::::`) are not the
program's words, and while it runs in the foreground a `B:` signal's trap waits (JC802). A
parallel in the background, waited for, or one that runs a helper command, are near misses."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.scripts import lint_path
from jobc.script.parse import read

HEAD = "#!/bin/bash\n#SBATCH --signal=B:USR1@300\n#SBATCH --time=1:00:00\ntrap 'cleanup' USR1 EXIT\n"
# source: qlan3/Explorer sbatch_m.sh
RUN = "parallel --ungroup --jobs procfile python main.py --config_idx {1} :::: job_idx.txt"


def _step(tmp_path: Path, body: str) -> tuple[str | None, list[str]] | None:
    path = tmp_path / "job.sh"
    path.write_text(HEAD + body, encoding="utf-8")
    step = read(path).main_step
    if step is None:
        return None
    return (step.program.text if step.program else None), [w.text for w in step.args]


def _jc802(tmp_path: Path, body: str) -> list[int]:
    path = tmp_path / "job.sh"
    path.write_text(HEAD + body, encoding="utf-8")
    return [f.span.line for f in lint_path(path).findings if f.code == "JC802"]


@pytest.mark.parametrize(
    ("body", "want"),
    [
        (RUN + "\n", ("main.py", ["--config_idx", "{1}"])),
        (
            "parallel -j 4 --joblog log.txt python3 train.py --seed {} ::: 1 2 3\n",
            ("train.py", ["--seed", "{}"]),
        ),
    ],
)
def test_the_program_parallel_runs_is_the_step(
    tmp_path: Path, body: str, want: tuple[str, list[str]]
) -> None:
    assert _step(tmp_path, body) == want


def test_a_helper_command_parallel_runs_is_no_step(tmp_path: Path) -> None:
    assert _step(tmp_path, "parallel -j 4 gzip {} ::: a.txt b.txt\n") is None


def test_a_trapped_b_signal_while_parallel_runs_in_the_foreground_is_jc802(tmp_path: Path) -> None:
    assert _jc802(tmp_path, RUN + "\n") == [5]


def test_parallel_in_the_background_waited_for_is_no_jc802(tmp_path: Path) -> None:
    assert _jc802(tmp_path, RUN + " &\nwait\n") == []
