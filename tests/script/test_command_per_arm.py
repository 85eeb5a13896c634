"""A command run by a variable each arm of an `if`/`case` set to a command of its own (`if …; then
header="srun torchrun …"; else header="torchrun …"; fi; ${header} "${ARGS[@]}"`) is read once for
each arm's value, as if it stood in that arm: when the arms agree on the launch and the program,
they are known; when they do not, the import says so with both lines, as for steps written in the
arms. Near misses: an arm that leaves the variable alone (no `else`), a value whose command is
computed when the job runs, and an `if` inside a loop keep the command not known."""

from __future__ import annotations

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes

HEAD = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:8\n#SBATCH --time=1:00:00\n"

# pattern seen in: princeton-nlp/ProLong train_64K.sh (the form; shortened)
BOTH_ARMS = (
    "num_nodes=$(cat nodes.txt)\n"
    "if [ $num_nodes -gt 1 ]; then\n"
    '    header="srun torchrun --nnodes=$num_nodes --nproc-per-node=8 -m training.train_lm"\n'
    "else\n"
    '    header="torchrun --nnodes=1 --nproc-per-node=8 -m training.train_lm"\n'
    "fi\n"
    "args=(--do_train --lr 1e-5)\n"
    '${header} "${args[@]}" 2>&1 | tee -a log.out\n'
)


def test_a_command_both_arms_build_alike_is_known() -> None:
    facts = read_bytes((HEAD + BOTH_ARMS).encode(), "job.sh")
    assert sorted(arm.index for s in facts.steps for arm in s.arms) == [0, 1]
    derived = imported(facts)
    launch = derived.data["launch"]
    assert launch.get("mode") == "torchrun"
    assert launch.get("module") == "training.train_lm"
    assert launch.get("args") == ["--do_train", "--lr", "1e-5"]
    assert not any(u.startswith(("launch.mode", "launch.program")) for u in derived.unknown)
    assert any("the same launch and program" in u.why for u in derived.unmapped)


def test_a_case_whose_arms_build_the_same_program_is_known() -> None:
    body = (
        'case "$MODE" in\n  debug) CMD="python train.py --steps 10" ;;\n'
        '  *) CMD="python train.py" ;;\nesac\nsrun $CMD\n'
    )
    launch = imported(read_bytes((HEAD + body).encode(), "job.sh")).data["launch"]
    assert launch.get("program") == "train.py"
    assert launch.get("mode") == "srun"


def test_arms_that_start_other_launches_are_said_not_known() -> None:
    body = (
        "if [ $(nvidia-smi -L | wc -l) -gt 1 ]; then\n  CMD='torchrun --nproc_per_node=8 train.py'\n"
        "else\n  CMD='python main.py'\nfi\n$CMD --lr 1\n"
    )
    derived = imported(read_bytes((HEAD + body).encode(), "job.sh"))
    launch = derived.data["launch"]
    assert "mode" not in launch
    assert "program" not in launch
    assert any(u.startswith("launch.mode") and "torchrun" in u for u in derived.unknown)


def test_an_arm_that_leaves_the_variable_alone_keeps_it_unknown() -> None:
    body = 'if [ "$X" = 1 ]; then\n  CMD="python train.py"\nfi\n$CMD\n'
    facts = read_bytes((HEAD + body).encode(), "job.sh")
    assert all(not s.arms for s in facts.steps)
    assert "program" not in imported(facts).data["launch"]


def test_a_computed_command_or_an_if_in_a_loop_is_not_read_per_arm() -> None:
    computed = 'if [ "$X" = 1 ]; then\n  CMD="$(pick) a.py"\nelse\n  CMD="$(pick) b.py"\nfi\n$CMD\n'
    looped = (
        'for i in 1 2; do\n  if [ "$i" = "$X" ]; then\n    CMD="python a.py"\n  else\n'
        '    CMD="python b.py"\n  fi\n  $CMD\ndone\n'
    )
    for body in (computed, looped):
        facts = read_bytes((HEAD + body).encode(), "job.sh")
        assert all(not s.arms for s in facts.steps), body
