"""Values followed through variables, arrays, heredocs, functions, `bash -c`, `eval` and `source`:
findings land on the line that wrote the value, with the run line as a related location."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from jobc.lint.scripts import lint_path
from jobc.script.parse import read, read_bytes

HEAD = """\
    #!/bin/bash
    #SBATCH --nodes=2
    #SBATCH --ntasks-per-node=1
    #SBATCH --gres=gpu:a100:4
    #SBATCH --time=10:00:00
"""


def _script(tmp_path: Path, body: str, name: str = "job.sh") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(HEAD + body), encoding="utf-8")
    return path


def _found(path: Path) -> list[tuple[str, int, tuple[int, ...]]]:
    return [(f.code, f.span.line, tuple(r.span.line for r in f.related)) for f in lint_path(path).findings]


def test_array_elements_are_followed_to_the_launcher_and_its_program(tmp_path: Path) -> None:
    path = _script(
        tmp_path,
        """
    DIST_ARGS=(
      --nnodes=2
      --nproc_per_node=8
    )
    TRAIN_ARGS=(--output-dir /tmp/vit --epochs 10)
    srun python -m torch.distributed.run "${DIST_ARGS[@]}" train_vit.py "${TRAIN_ARGS[@]}"
    """,
    )
    step = read(path).main_step
    assert step is not None
    assert step.launcher is not None
    assert step.program is not None
    assert step.program.text == "train_vit.py"
    assert [a.text for a in step.args] == ["--output-dir", "/tmp/vit", "--epochs", "10"]
    found = _found(path)
    assert ("JC804", 9, (12,)) in found  # --nproc_per_node=8, run at line 12
    assert ("JC701", 11, (12,)) in found  # --output-dir /tmp/vit


@pytest.mark.parametrize(
    ("value", "fires"),
    [
        ("$SLURM_TMPDIR", True),
        ('"${TMPDIR}/snapshots"', True),
        ("$SCRATCH/snapshots", False),  # another variable: not judged
        ("$TMPDIR_BASE/snapshots", False),  # a longer name that starts alike
    ],
)
def test_a_snapshot_directory_in_the_jobs_node_local_scratch_is_jc701(
    tmp_path: Path, value: str, fires: bool
) -> None:
    # seen in a real script: `--snapshot_dir $SLURM_TMPDIR`, the node's own scratch directory,
    # which Slurm or the site empties when the job ends
    path = _script(tmp_path, f"    python -W ignore -m src.main --train --snapshot_dir {value}\n")
    assert ("JC701" in {code for code, _, _ in _found(path)}) is fires


def test_a_launcher_string_run_by_bash_c_under_srun(tmp_path: Path) -> None:
    path = _script(
        tmp_path,
        """
    LAUNCH="python -m torch.distributed.run --nproc-per-node 4 --nnodes \\$SLURM_NNODES \\
      --node_rank \\$SLURM_NODEID --master_port 6000"
    srun --ntasks-per-node=2 bash -c "$LAUNCH pretrain_gpt.py --lr 1e-4"
    """,
    )
    facts = read(path)
    step = facts.main_step
    assert step is not None
    assert step.launcher is not None
    assert step.program is not None
    assert step.program.text == "pretrain_gpt.py"
    # \\$SLURM_NODEID in double quotes reaches the step's shell unexpanded
    assert [(x.name, x.shell) for x in facts.expansions] == [("SLURM_NODEID", "step")]
    found = _found(path)
    assert ("JC104", 8, (9,)) in found  # the fixed port, on the continued line that wrote it
    assert any(code == "JC102" for code, *_ in found)


def test_unknown_values_stay_unknown(tmp_path: Path) -> None:
    path = _script(
        tmp_path,
        """
    CMD=$(cat cmd.txt)
    if [ -n "$X" ]; then LAUNCHER="torchrun --nproc_per_node=8"; else LAUNCHER="python"; fi
    srun $LAUNCHER train.py
    srun bash -c "$CMD"
    """,
    )
    facts = read(path)
    assert all(s.launcher is None for s in facts.steps)
    # whichever command LAUNCHER holds runs train.py: the program, started by a command not known
    first, second = facts.steps
    assert first.program is not None
    assert first.program.text == "train.py"
    assert first.started_by is not None
    assert first.started_by.raw == "$LAUNCHER"
    assert second.program is None
    assert not [c for c, *_ in _found(path) if c in ("JC804", "JC102", "JC101")]


def test_functions_heredocs_and_eval(tmp_path: Path) -> None:
    path = _script(
        tmp_path,
        """
    read -r -d '' CMD <<EOF
    torchrun --nnodes=2 --nproc_per_node=\\${GPUS:-4} train.py --steps 10
    EOF
    run() {
      local extra=$1
      shift
      srun "$@" $CMD $extra
    }
    run --fast --ntasks-per-node=1
    """,
    )
    step = read(path).main_step
    assert step is not None
    assert step.launcher is not None
    assert step.srun is not None
    assert step.srun["ntasks-per-node"].text == "1"
    assert [a.text for a in step.args] == ["--steps", "10", "--fast"]
    evaluated = _script(tmp_path, '    CMD="srun torchrun --nnodes=3 train.py"\n    eval "$CMD"\n', "eval.sh")
    assert ("JC804", 6, (7,)) in _found(evaluated)


def test_a_sourced_file_beside_the_script(tmp_path: Path) -> None:
    (tmp_path / "env.sh").write_text("NPROC=8\n", encoding="utf-8")
    path = _script(tmp_path, "    source ./env.sh\n    srun torchrun --nproc_per_node=$NPROC train.py\n")
    codes = [c for c, *_ in _found(path)]
    assert "JC804" in codes


def test_deep_nesting_and_long_scripts_are_read_without_recursion() -> None:
    depth = 3000
    body = "if true; then\n" * depth + "X=1\n" + "fi\n" * depth
    facts = read_bytes(("#!/bin/bash\n" + body + "srun python train.py\n").encode(), "deep.sh")
    assert facts.main_step is not None
    calls = 'f() { srun python train.py "$@"; }\n' + "f --x\n" * 2000
    facts = read_bytes(("#!/bin/bash\n" + calls).encode(), "calls.sh")
    assert len(facts.steps) == 2000


ASSEMBLED = re.compile(r"^Bad[^\n]*assembled[^\n]*:\n+```bash\n(.*?)^```", re.S | re.M)


@pytest.mark.parametrize("code", ["JC102", "JC104", "JC804", "JC805", "JC806"])
def test_the_assembled_bad_example_of_each_rule_fires(code: str, tmp_path: Path) -> None:
    from jobc.lint.rules import RULES

    match = ASSEMBLED.search(RULES[code].doc)
    assert match, f"{code}: a Bad example that assembles the command"
    script = tmp_path / "bad.sh"
    script.write_text("#!/bin/bash\n" + match.group(1), encoding="utf-8")
    assert code in {f.code for f in lint_path(script).findings}


def test_a_step_shell_sees_exported_variables_only(tmp_path: Path) -> None:
    step = "    srun bash -c 'torchrun --nproc_per_node=$NPROC train.py'\n"
    exported = _script(tmp_path, "    export NPROC=8\n" + step, "exported.sh")
    assert "JC804" in [c for c, *_ in _found(exported)]
    plain = _script(tmp_path, "    NPROC=8\n" + step, "plain.sh")
    assert "JC804" not in [c for c, *_ in _found(plain)]


def test_branches_merge_without_copying_every_variable() -> None:
    # many variables and many branches: each `if` costs what it sets (this would take minutes
    # if each branch copied the variables)
    n = 3000
    body = "".join(f"V{i}=x\n" for i in range(n))
    body += "".join(f'if [ -n "$A" ]; then B{i}=1; else B{i}=2; fi\n' for i in range(n))
    body += 'if [ -n "$A" ]; then N=8; else N=8; fi\nsrun torchrun --nproc_per_node=$N train.py\n'
    facts = read_bytes(("#!/bin/bash\n" + body).encode(), "many.sh")
    step = facts.main_step
    assert step is not None
    assert step.launcher is not None
    assert step.launcher.options["nproc_per_node"].text == "8"  # both ways agree


def test_huge_and_doubling_values_are_not_followed() -> None:
    doubling = "X=a\n" + 'X="$X$X"\n' * 60 + "srun torchrun $X train.py\n"
    facts = read_bytes(("#!/bin/bash\n" + doubling).encode(), "doubling.sh")
    assert facts.main_step is not None
    many = 'B="' + "x " * 20000 + '"\n' + "srun python train.py $B\n" * 50
    facts = read_bytes(("#!/bin/bash\n" + many).encode(), "many.sh")
    # twenty thousand words from one expansion are no launch line: one unknown argument
    assert [len(s.args) for s in facts.steps] == [1] * 50


def test_blanks_between_two_expansions_in_double_quotes_are_kept(tmp_path: Path) -> None:
    # the grammar counts the blank of `"$A $B"` into the second `$`: the value keeps it
    path = _script(
        tmp_path,
        """
    LAUNCHER="python -u"
    PROGRAM="train.py"
    export CMD="$LAUNCHER $PROGRAM"
    export BOTH="$PROGRAM ${PROGRAM}  $PROGRAM"
    srun bash -c "RANK=\\$SLURM_PROCID $CMD"
    """,
    )
    facts = read(path)
    values = {e.name: e.value for e in facts.exports}
    assert values["CMD"] == "python -u train.py"
    assert values["BOTH"] == "train.py train.py  train.py"
    step = facts.main_step
    assert step is not None
    assert step.program is not None
    assert step.program.text == "train.py"


def test_a_comment_inside_an_array_is_no_element(tmp_path: Path) -> None:
    path = _script(
        tmp_path,
        """
    ARGS=(
        --num_layers=32 # 7b: 32 13b: 40
        --model_type=llama_v2
    )
    srun python train.py "${ARGS[@]}"
    """,
    )
    step = read(path).main_step
    assert step is not None
    assert [w.text for w in step.args] == ["--num_layers=32", "--model_type=llama_v2"]
