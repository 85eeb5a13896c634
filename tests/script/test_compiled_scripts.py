"""jobc's own scripts, linted as hand-written ones: what the compiler writes, the linter accepts.

A compiled script is correct by construction, so reading it back as a script must find no
pitfall. The one warning allowed is NCCL_DEBUG=INFO in a script compiled from a spec that asked
for it through `debug:` (the script cannot show that intent). The cases after it are the false
alarms this check first found, each with a near miss that still fires.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from jobc.core.diagnostics import Severity
from jobc.lint.config import Config
from jobc.lint.scripts import lint_path
from tests.support import ROOT

COMPILED = sorted((ROOT / "golden").glob("*.sbatch")) + sorted((ROOT / "golden").glob("*.attach.sh"))


def _lint(path: Path) -> list[tuple[str, Severity, int, int]]:
    result = lint_path(path, config=Config())
    return [(f.code, f.severity, f.span.line, f.span.col) for f in result.findings]


@pytest.mark.parametrize("script", COMPILED, ids=lambda p: p.name)
def test_a_compiled_script_lints_clean_as_a_script(script: Path) -> None:
    assert COMPILED, "no compiled scripts in golden/"
    allowed = {"JC404"} if "NCCL_DEBUG='INFO'" in script.read_text(encoding="utf-8") else set()
    found = _lint(script)
    assert {code for code, *_ in found} <= allowed, found


def _script(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "job.sh"
    path.write_text(textwrap.dedent(body).lstrip(), encoding="utf-8")
    return path


HEAD = """\
    #!/bin/bash
    #SBATCH --nodes=2
    #SBATCH --ntasks-per-node=1
    #SBATCH --gpus-per-node=8
    #SBATCH --time=01:00:00
"""


def test_a_step_that_hides_its_program_says_nothing_about_the_launch_mode(tmp_path: Path) -> None:
    hidden = _script(tmp_path, HEAD + '    step=$(cat step.txt)\n    srun bash -c "$step"\n')
    assert "JC101" not in [c for c, *_ in _lint(hidden)]
    # a step held in a variable the script sets is followed: it runs python, one task per node
    followed = _script(tmp_path, HEAD + "    step='exec python train.py'\n    srun bash -c \"$step\"\n")
    assert ("JC101", Severity.ERROR) in [(c, s) for c, s, *_ in _lint(followed)]
    shown = _script(tmp_path, HEAD + "    srun python train.py\n")
    assert ("JC101", Severity.ERROR) in [(c, s) for c, s, *_ in _lint(shown)]


def test_a_helper_step_in_the_foreground_does_not_hold_the_trap_back(tmp_path: Path) -> None:
    trap = "    #SBATCH --signal=B:USR2@120\n    trap 'kill -USR2 \"$pid\"' USR2\n"
    helper = _script(
        tmp_path,
        HEAD
        + trap
        + '    srun --ntasks=1 uv sync\n    srun python train.py &\n    pid=$!\n    wait "$pid"\n',
    )
    assert "JC802" not in [c for c, *_ in _lint(helper)]
    program = _script(
        tmp_path,
        HEAD + trap + "    srun --ntasks=1 python prepare.py\n    srun python train.py &\n    wait\n",
    )
    assert [(c, line) for c, _, line, _ in _lint(program) if c == "JC802"] == [("JC802", 8)]


def test_steps_in_another_allocation_are_not_held_to_this_one(tmp_path: Path) -> None:
    attach = _script(tmp_path, "    #!/bin/bash\n    srun --jobid=123 --overlap --nodes=2 python train.py\n")
    assert "JC804" not in [c for c, *_ in _lint(attach)]
    batch = _script(tmp_path, "    #!/bin/bash\n    #SBATCH --nodes=1\n    srun --nodes=2 python train.py\n")
    assert "JC804" in [c for c, *_ in _lint(batch)]


def test_what_bash_reads_but_the_grammar_does_not_is_only_a_note(tmp_path: Path) -> None:
    # tree-sitter-bash misreads an escaped bracket inside a ${…} pattern; bash does not
    odd = _script(tmp_path, HEAD + "    rest='1-3]x'\n    ranges=${rest%%\\]*}\n    srun python train.py\n")
    assert [(c, s, line) for c, s, line, _ in _lint(odd) if c == "JC800"] == [("JC800", Severity.INFO, 7)]
    broken = _script(tmp_path, HEAD + "    echo 'never closed\n    srun python train.py\n")
    # bash refuses it too: the job would fail there, so it is an error
    assert [(c, s) for c, s, *_ in _lint(broken) if c == "JC800"] == [("JC800", Severity.ERROR)]


def test_an_error_bash_names_but_exits_0_for_is_an_error(tmp_path: Path) -> None:
    # `bash -n` exits 0 on an empty `[[`, but names the error; the job would skip that line
    script = _script(tmp_path, HEAD + "    [[;\n    srun python train.py\n")
    found = [(c, s, line) for c, s, line, _ in _lint(script) if c == "JC800"]
    assert found == [("JC800", Severity.ERROR, HEAD.count("\n") + 1)]


def test_asking_bash_executes_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    body = HEAD + f"    x=$(touch {marker})\n    ranges=${{rest%%\\]*}}\n    `touch {marker}`\n"
    script = _script(tmp_path, body)
    codes = [c for c, *_ in _lint(script)]
    assert "JC800" in codes
    assert not marker.exists()
    assert os.listdir(tmp_path) == ["job.sh"]
