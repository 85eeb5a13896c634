"""A safe fix changes only what its finding names: each fix that once broke a working script,
run before and after under the behaviour simulator (tests/support/simulator)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jobc.lint.config import Config
from jobc.lint.scripts import lint_path
from jobc.lint.suppress import parse
from tests.support.simulator import Ignore, differences, simulate
from tests.support.simulator.fixes import prove

HEAD = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --time=01:00:00\n"


def _codes(text: str, *, unsafe: bool) -> list[str]:
    return prove(text, unsafe=unsafe, scenarios=()).fixed


# --- JC807: B: sends the signal to the batch shell only ---------------------------------------------

LOGGING_TRAP = HEAD + (
    "#SBATCH --signal=USR2@120\ntrap 'echo \"USR2: the program checkpoints\"' USR2\nsrun python train.py\n"
)


def test_jc807_keeps_the_signal_reaching_the_program_when_the_trap_only_logs() -> None:
    # the program checkpointed on the USR2 the steps got; with B: alone only the batch shell
    # would get it, so the trap first hands it on as Slurm did
    sim = simulate(LOGGING_TRAP, scenarios=("signal",))["signal"]
    assert {p.signals for p in sim.named("python")} == {("SIGUSR2",)}
    proof = prove(LOGGING_TRAP, unsafe=False)
    assert "JC807" in proof.fixed
    assert "trap 'scancel --signal=USR2 $SLURM_JOB_ID; echo" in proof.after
    assert proof.differences == [], proof.differences


def test_jc807_adds_b_when_the_trap_forwards_the_signal_to_the_step() -> None:
    text = HEAD + (
        "#SBATCH --signal=USR2@120\n"
        'forward() { kill -USR2 "$step"; }\n'
        "trap forward USR2\n"
        'srun python train.py &\nstep=$!\nwait "$step"\n'
    )
    proof = prove(text, unsafe=False)
    assert "JC807" in proof.fixed
    assert "#SBATCH --signal=B:USR2@120" in proof.after
    assert proof.differences == [], proof.differences


def test_jc807_is_fixed_on_the_request_the_moved_directives_make() -> None:
    # found by the fix-script fuzz target (seed 3701, input 6,947): JC801 moved a late
    # `--signal=B:USR2@120` up in the same pass as JC807 forwarded USR2 to the steps in the trap,
    # a fix made for the first `--signal=USR2@240`, which the moved line overrides: the program then
    # got a warning it never got under the moved lines alone. The moves now go first and alone
    late = (
        HEAD
        + "#SBATCH --signal=USR2@240\ntrap 'scontrol requeue \"$SLURM_JOB_ID\"' USR2\n"
        + "srun python train.py\n#SBATCH --signal=B:USR2@120\necho done\n"
    )
    proof = prove(late, unsafe=False)
    assert proof.differences == [], proof.differences
    assert "JC801" in proof.fixed
    assert "scancel" not in proof.after
    # near miss: without the late line, JC807 forwards the signal in the trap
    near = (
        HEAD
        + "#SBATCH --signal=USR2@240\ntrap 'scontrol requeue \"$SLURM_JOB_ID\"' USR2\nsrun python train.py\n"
    )
    proof = prove(near, unsafe=False)
    assert proof.differences == [], proof.differences
    assert "JC807" in proof.fixed
    assert "trap 'scancel --signal=USR2 $SLURM_JOB_ID; scontrol requeue" in proof.after


# --- JC102: one task per node for torchrun -------------------------------------------------------

NTASKS_READ = (
    "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=8\n#SBATCH --gpus-per-node=8\n"
    "#SBATCH --time=01:00:00\n#SBATCH --exclusive\n"
    "srun torchrun --nnodes=2 --nproc-per-node=$SLURM_NTASKS_PER_NODE --rdzv-backend=c10d "
    "--rdzv-endpoint=node0:29400 train.py\n"
)


def test_jc102_keeps_the_workers_a_launcher_reads_from_the_task_count() -> None:
    # --nproc-per-node=$SLURM_NTASKS_PER_NODE: with one task per node, 1 worker per 8-GPU node
    proof = prove(NTASKS_READ, unsafe=False)
    assert proof.differences == [], proof.differences
    assert "JC102" in proof.fixed
    assert "--nproc-per-node=8 " in proof.after


# --- JC803: exec in the "exec …; echo could not start; exit 1" idiom ------------------------------

EXEC_IDIOM = HEAD + 'exec srun python train.py\necho "could not start the step" >&2\nexit 1\n'


def test_jc803_does_not_make_every_successful_job_exit_1() -> None:
    before = simulate(EXEC_IDIOM, scenarios=("complete",))["complete"]
    assert before.status == 0
    proof = prove(EXEC_IDIOM, unsafe=False)
    assert proof.differences == [], proof.differences
    assert "JC803" not in proof.fixed


def test_jc803_keeps_the_exit_status_and_the_unreached_lines_when_it_frees_a_trap() -> None:
    text = HEAD + "trap 'touch stop' USR1\n" + EXEC_IDIOM.removeprefix(HEAD)
    proof = prove(text, unsafe=False)
    assert "JC803" in proof.fixed
    assert proof.differences == [], proof.differences


# --- JC106: a per-rank variable the batch shell expands ------------------------------------------


def test_jc106_inside_single_quotes_of_a_bash_c_reaches_the_step_expanded() -> None:
    text = HEAD + "srun bash -c \"torchrun --nnodes=2 --node_rank='$SLURM_NODEID' train.py\"\n"
    proof = prove(text, unsafe=False)
    assert proof.differences == [], proof.differences
    assert "JC106" in proof.fixed
    after = simulate(proof.after, scenarios=("complete",))["complete"]
    ranks = sorted(a for p in after.named("torchrun") for a in p.argv if a.startswith("--node_rank"))
    assert ranks == ["--node_rank=0", "--node_rank=1"]


def test_jc106_does_not_quote_a_step_whose_command_is_an_assignment_for_a_shell() -> None:
    # found by the fix-script fuzz target (seed 3401, input 5,173): `srun torchruner_node=8 …`,
    # which srun runs as a command (execve fails); under `bash -c '…'` the shell reads the word as
    # an assignment and runs the next one, another failure. No `bash -c` rewrite then
    text = HEAD + "srun torchrun_x=8 --nnodes=2 --node_rank=$SLURM_NODEID train.py\n"
    proof = prove(text, unsafe=True)
    assert proof.differences == [], proof.differences
    assert "bash -c" not in proof.after
    # near miss: the same launch without the assignment is quoted (unsafe) and reaches each node
    near = HEAD + "srun torchrun --nnodes=2 --node_rank=$SLURM_NODEID train.py\n"
    proof = prove(near, unsafe=True)
    assert proof.differences == [], proof.differences
    assert "bash -c 'torchrun" in proof.after


@pytest.mark.parametrize(
    ("heredoc", "option"),
    [
        ("torchrun --nnodes=2 --node_rank=$SLURM_NODEID train.py", "--node_rank="),
        # inside the task shell's single quotes: closed around it, as in a `bash -c` string
        ("torchrun --nnodes=2 --node_rank='$SLURM_NODEID' train.py", "--node_rank="),
        ('torchrun --nnodes=2 "--node_rank=$SLURM_NODEID" train.py', "--node_rank="),
    ],
)
def test_jc106_in_a_heredoc_every_task_reads_reaches_each_node_expanded(heredoc: str, option: str) -> None:
    text = HEAD + f"srun bash <<EOF\n{heredoc}\nEOF\n"
    before = simulate(text, scenarios=("complete",))["complete"]
    assert sorted(a for p in before.named("torchrun") for a in p.argv if a.startswith(option)) == [
        f"{option}0",
        f"{option}0",
    ]
    proof = prove(text, unsafe=False)
    assert "JC106" in proof.fixed
    assert proof.differences == [], proof.differences
    after = simulate(proof.after, scenarios=("complete",))["complete"]
    ranks = sorted(a for p in after.named("torchrun") for a in p.argv if a.startswith(option))
    assert ranks == [f"{option}0", f"{option}1"]


def test_jc106_in_a_file_written_from_a_heredoc_reaches_each_node_expanded() -> None:
    text = HEAD + (
        "cat > run.sh <<EOF\ntorchrun --nnodes=2 --node_rank=$SLURM_NODEID train.py\nEOF\nsrun bash run.sh\n"
    )
    proof = prove(text, unsafe=False)
    assert "JC106" in proof.fixed
    assert proof.differences == [], proof.differences
    after = simulate(proof.after, scenarios=("complete",))["complete"]
    ranks = sorted(a for p in after.named("torchrun") for a in p.argv if a.startswith("--node_rank"))
    assert ranks == ["--node_rank=0", "--node_rank=1"]


def test_jc106_leaves_a_heredoc_python_reads_as_it_is() -> None:
    # python reads the heredoc as its program: `\$` would be text of its own, so no fix
    text = HEAD + "srun python - <<EOF\nprint($SLURM_PROCID)\nEOF\n"
    proof = prove(text, unsafe=True)
    assert "JC106" not in proof.fixed
    assert proof.after == text


def test_jc106_does_not_move_the_masters_host_name_into_each_nodes_shell() -> None:
    text = HEAD + (
        "#SBATCH --exclusive\n"
        "srun torchrun --nnodes=2 --node_rank=$SLURM_NODEID --master-addr=$HOSTNAME "
        "--master-port=29500 train.py\n"
    )
    proof = prove(text, unsafe=True)
    assert proof.differences == [], proof.differences


# --- JC813: a directive switched off on purpose --------------------------------------------------


@pytest.mark.parametrize("line", ["# SBATCH --exclusive", "#XSBATCH --exclusive", "#  SBATCH --requeue"])
def test_jc813_does_not_switch_on_what_was_switched_off(line: str) -> None:
    text = HEAD + line + "\nsrun python train.py\n"
    proof = prove(text, unsafe=False)
    assert proof.after == text
    assert "JC813" in _codes(text, unsafe=True)  # asked for, it is made, and it is what it names
    assert prove(text, unsafe=True).differences == []


def test_jc813_still_corrects_a_misspelling_alone() -> None:
    text = HEAD.replace("#SBATCH --time", "#SBTACH --time") + "srun python train.py\n"
    proof = prove(text, unsafe=False)
    assert "JC813" in proof.fixed
    assert proof.differences == [], proof.differences


# --- JC801: a late directive after a continued line -------------------------------------------------


def test_jc801_does_not_join_the_next_command_to_a_continued_line() -> None:
    text = HEAD + "srun python train.py \\\n#SBATCH --gpus-per-node=8\n  --epochs 3\necho done\n"
    proof = prove(text, unsafe=True)
    assert proof.differences == [], proof.differences


# --- JC104: the port of an endpoint whose host is computed ------------------------------------------

ENDPOINT = HEAD + (
    'nodes=( $( scontrol show hostnames "$SLURM_JOB_NODELIST" ) )\n'
    'head_node_ip=$(srun --nodes=1 --ntasks=1 -w "${nodes[0]}" hostname --ip-address)\n'
    "srun torchrun --nnodes 2 --nproc_per_node 8 --rdzv_id 42 --rdzv_backend c10d "
    '--rdzv_endpoint "$head_node_ip:29500" train.py\n'
)


def test_jc104_reads_the_whole_port_and_replaces_it_whole() -> None:
    proof = prove(ENDPOINT, unsafe=True)
    assert "JC104" in proof.fixed
    assert '"$head_node_ip:$((20000 + SLURM_JOB_ID % 9000))"' in proof.after
    assert proof.differences == [], proof.differences


def test_the_simulator_sees_what_each_of_these_fixes_would_have_broken() -> None:
    """The comparison these tests rest on tells the broken fixes from the sound ones."""
    broken = LOGGING_TRAP.replace("USR2@120", "B:USR2@120").replace(
        "srun python train.py", "srun python train.py &\nwait"
    )
    found = differences(
        LOGGING_TRAP, broken, Ignore(kinds={"call", "step"}, output=True, events=True), scenarios=("signal",)
    )
    assert any("SIGUSR2" in d and "SIGTERM" in d for d in found), found
    one = NTASKS_READ.replace("--ntasks-per-node=8", "--ntasks-per-node=1")
    found = differences(
        NTASKS_READ, one, Ignore(per_node=True, allocation={"ntasks-per-node"}), scenarios=("complete",)
    )
    assert any("--nproc-per-node=8" in d for d in found), found
    dropped = EXEC_IDIOM.replace("exec srun python train.py", "srun python train.py & wait $!")
    assert any("exit status" in d for d in differences(EXEC_IDIOM, dropped, scenarios=("complete",)))


# --- the repairs these rules make where the script tells them enough --------------------------------


def test_jc807_adds_only_b_when_the_trap_signals_the_step_itself() -> None:
    # the trap turns Slurm's USR2 into the USR1 the program checkpoints on: that is the user's choice
    text = HEAD + (
        "#SBATCH --signal=USR2@120\n"
        'trap \'echo "checkpoint"; kill -USR1 "$step"\' USR2\n'
        'srun python train.py &\nstep=$!\nwait "$step"\nwait "$step"\n'
    )
    proof = prove(text, unsafe=False)
    assert "JC807" in proof.fixed
    assert "scancel" not in proof.after
    assert proof.differences == [], proof.differences
    programs = simulate(proof.after, scenarios=("signal",))["signal"].named("python")
    assert {p.signals for p in programs} == {("SIGUSR1",)}


def test_jc803_hands_a_batch_signal_on_when_exec_no_longer_does() -> None:
    # with exec, srun was the batch shell and passed the B: signal to its tasks
    text = HEAD + "#SBATCH --signal=B:USR1@90\ntrap 'echo warned' USR1\nexec srun python train.py\n"
    proof = prove(text, unsafe=False)
    assert "JC803" in proof.fixed
    assert "trap 'scancel --signal=USR1 $SLURM_JOB_ID; echo warned' USR1" in proof.after
    assert proof.differences == [], proof.differences


def test_jc803_frees_an_exit_trap_only_when_asked() -> None:
    text = HEAD + "trap 'rm -rf \"$TMPDIR/cache\"' EXIT\nexec srun python train.py\n"
    assert prove(text, unsafe=False).after == text
    proof = prove(text, unsafe=True)
    assert "JC803" in proof.fixed
    assert proof.differences == [], proof.differences


def test_jc102_turns_a_total_task_count_into_one_task_per_node() -> None:
    text = (
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks=16\n#SBATCH --gpus-per-node=8\n"
        "#SBATCH --time=01:00:00\n#SBATCH --exclusive\n"
        "srun torchrun --nnodes=2 --nproc-per-node=8 --rdzv-backend=c10d "
        "--rdzv-endpoint=node0:29400 train.py\n"
    )
    proof = prove(text, unsafe=False)
    assert "JC102" in proof.fixed
    assert "#SBATCH --ntasks-per-node=1\n" in proof.after
    assert "--ntasks=16" not in proof.after
    assert proof.differences == [], proof.differences


def test_jc102_leaves_a_script_that_reads_the_task_count_elsewhere() -> None:
    text = NTASKS_READ.replace("srun torchrun", 'echo "world: $SLURM_NTASKS"\nsrun torchrun')
    proof = prove(text, unsafe=True)
    assert "JC102" not in proof.fixed
    assert proof.differences == [], proof.differences


def test_jc102_leaves_a_script_whose_captured_srun_takes_the_task_count() -> None:
    # found by the fix-script fuzz target (seed 4901, input 129): `ip=$(srun --nodes=1 -w "$h"
    # hostname --ip-address)` with no task count of its own runs the allocation's 8 tasks a node,
    # and its 8 lines became the rendezvous endpoint; with one task per node it printed one
    base = (
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=8\n#SBATCH --gpus-per-node=8\n"
        "#SBATCH --time=01:00:00\n#SBATCH --exclusive\n"
        "srun torchrun --nnodes=2 --nproc-per-node=8 --rdzv-backend=c10d --rdzv-endpoint=$ip:29400 train.py\n"
    )
    text = base.replace("srun torchrun", "ip=$(srun --nodes=1 -w node0 hostname --ip-address)\nsrun torchrun")
    proof = prove(text, unsafe=True)
    assert "JC102" not in proof.fixed
    assert proof.differences == [], proof.differences
    # near miss: a comment that names srun is no step
    commented = base.replace("srun torchrun", "# srun -N1 hostname prints the first node\nsrun torchrun")
    proof = prove(commented, unsafe=False)
    assert "JC102" in proof.fixed
    assert proof.differences == [], proof.differences


def test_jc106_s_step_shell_failing_to_start_a_missing_program_is_the_same_failure() -> None:
    # found by the fix-script fuzz target (seed 4901, input 5,213): `srun ./pt_cpu/bin/torchrun …
    # $SLURM_PROCID`, its program missing; JC106's `bash -c '…'` made bash, not slurmstepd, say so
    text = (
        HEAD + "#SBATCH --exclusive\nsrun ./pt_cpu/bin/torchrun --nnodes 2 --node_rank $SLURM_PROCID x.py\n"
    )
    proof = prove(text, unsafe=True)
    assert "JC106" in proof.fixed
    assert "srun bash -c './pt_cpu/bin/torchrun" in proof.after
    assert proof.differences == [], proof.differences
    # near miss: the rule only maps one program's failure to the same program's
    from tests.support.simulator.fixes import _STEP_UNSTARTED

    def said(line: str) -> str:
        for pattern, to in _STEP_UNSTARTED:
            line = re.sub(pattern, to, line)
        return line

    assert said("slurmstepd: error: execve(): ./a: No such file or directory") == said(
        "bash: line 1: ./a: No such file or directory"
    )
    assert said("slurmstepd: error: execve(): ./a: No such file or directory") != said(
        "bash: line 1: ./b: No such file or directory"
    )


def test_jc007_leaves_a_marker_glued_to_the_word_before_it() -> None:
    # found by the fix-script fuzz target (seed 5101, input 9,843): `declare -a ARGS=(…)# jobc:
    # ignore[JC101]`, where bash reads `(…)#` as one word, a string; taking the unused marker off
    # made ARGS an array, and the step that runs "${ARGS[@]}" started something else
    glued = HEAD + (
        "declare -a ARGS=(\n    --container-image img\n)# jobc: ignore[JC101]\n"
        'srun -l "${ARGS[@]}" python train.py\n'
    )
    proof = prove(glued, unsafe=True)
    assert "JC007" not in proof.fixed
    assert proof.differences == [], proof.differences
    # near miss: after a blank, the `#` starts a comment and the unused marker goes
    spaced = glued.replace(")# jobc:", ") # jobc:")
    proof = prove(spaced, unsafe=True)
    assert "JC007" in proof.fixed
    assert ")\n" in proof.after
    assert proof.differences == [], proof.differences


def test_jc007_leaves_a_marker_inside_arithmetic() -> None:
    # found by the fix-script fuzz target (seed 5301, input 5,562): markers on lines inside
    # `$((SLURM_NNODES # jobc: …` in a double-quoted value. Bash has no comments in arithmetic,
    # so they are that string's text (here, an error bash reports); the grammar took them for
    # comments, and taking them off changed what bash said
    inside = HEAD + (
        'export LAUNCHER="accelerate launch --num_processes $((SLURM_NNODES # jobc: ignore[JC101]\n'
        "# jobc: ignore[JC101]\n"
        '* 4)) --num_machines 2"\n'
        "srun $LAUNCHER train.py\n"
    )
    assert [s.line for s in parse(inside, shell=True)] == []
    proof = prove(inside, unsafe=True)
    assert "JC007" not in proof.fixed
    assert proof.after.count("# jobc: ignore[JC101]") == 2
    assert proof.differences == [], proof.differences
    # near miss: the same marker after the arithmetic has closed is a comment, and unused, it goes
    after = HEAD + 'N=$((SLURM_NNODES * 4)) # jobc: ignore[JC101]\nsrun python train.py "$N"\n'
    assert [s.line for s in parse(after, shell=True)] == [after.count("\n", 0, after.index("N=$((")) + 1]
    proof = prove(after, unsafe=True)
    assert "JC007" in proof.fixed
    assert "# jobc:" not in proof.after
    assert proof.differences == [], proof.differences


def test_jc007_leaves_a_marker_that_is_words_of_an_sbatch_directive() -> None:
    # found by the fix-script fuzz target (seed 6301, input 3,481): `#SBATCH --time=04:00jobc:
    # ignore[JC104] …`, a comment to bash but words to sbatch, which reads an #SBATCH line up to
    # its first unquoted `#`: taking the marker off changed what sbatch read (here, its refusal)
    glued = (
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --time=04:00jobc: ignore[JC104] the port\n"
        "srun python train.py\n"
    )
    proof = prove(glued, unsafe=True)
    assert "JC007" not in proof.fixed
    assert proof.differences == [], proof.differences
    # near miss: after the directive's own `#`, the marker is a comment to sbatch too, and it goes
    spaced = glued.replace("04:00jobc: ignore[JC104] the port", "04:00:00 # jobc: ignore[JC104]")
    proof = prove(spaced, unsafe=True)
    assert "JC007" in proof.fixed
    assert "jobc:" not in proof.after
    assert proof.differences == [], proof.differences


def test_jc007_leaves_a_marker_glued_to_the_sbatch_prefix() -> None:
    # found by the fix-script fuzz target (seed 6601, input 1,986): `#SBATCHjobc: ignore[JC101]`,
    # a line sbatch reads (and refuses: a word glued to the prefix): without the marker sbatch ran
    # the job it had refused
    glued = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCHjobc: ignore[JC101]\nsrun python train.py\n"
    proof = prove(glued, unsafe=True)
    assert "JC007" not in proof.fixed
    assert proof.differences == [], proof.differences


def test_jc801_leaves_a_late_directive_sbatch_would_refuse() -> None:
    # found by the fix-script fuzz target (seed 6601, input 4,803): `#SBATCH -s=1` below the first
    # command, which sbatch ignores there; moved up, sbatch reads `-s` and then `-=`, an option it
    # does not have, and refuses a job that ran
    from jobc.script.directives import refused

    late = "#!/bin/bash\n#SBATCH --nodes=1\necho start\n#SBATCH -s=1\nsrun python train.py\n"
    proof = prove(late, unsafe=True)
    assert "JC801" not in proof.fixed
    assert proof.differences == [], proof.differences
    assert refused("#SBATCH -s=1")
    # near miss: the flag alone, or with more flags (`-sH`), is read and moved
    assert not refused("#SBATCH -sH")
    proof = prove(late.replace("-s=1", "-s"), unsafe=True)
    assert "JC801" in proof.fixed
    assert proof.differences == [], proof.differences


def test_jc801_leaves_an_sbatch_line_that_is_text_of_an_expansion() -> None:
    # found by the fix-script fuzz target (seed 7501, input 9,510): `C=${CF=96` / `#SBATCH
    # --time=24:00:00` / blank / `LE}`; the grammar gives the middle line a comment node, but to
    # bash it is text of the `${…}`: moving it changed the value the program was given
    from jobc.script.parse import read_bytes

    inside = (
        '#!/bin/bash\n#SBATCH --nodes=1\nX=1\nC=${CF=96\n#SBATCH --time=24:00:00\n\nLE:-"./x"}\n'
        'srun python train.py "$C"\n'
    )
    assert not [d for d in read_bytes(inside.encode(), "t.sh").directives if d.name == "time"]
    proof = prove(inside, unsafe=True)
    assert "JC801" not in proof.fixed
    assert proof.differences == [], proof.differences
    # near misses: inside `$( … )` or an array bash reads comments, and the late line is one
    for around in ("X=$(\n#SBATCH --time=24:00:00\necho 1)\n", "A=(\n a\n#SBATCH --time=24:00:00\n b)\n"):
        text = "#!/bin/bash\n#SBATCH --nodes=1\n" + around + "srun python train.py\n"
        late = [d for d in read_bytes(text.encode(), "t.sh").directives if d.name == "time"]
        assert late, around
        assert not late[0].honoured, around


def test_jc801_leaves_an_sbatch_line_in_an_expansion_the_grammar_could_not_read() -> None:
    # found by the fix-script fuzz target (seed 9301, input 363): `NODE=${NODES[$NODE_RANK) = 192`,
    # then `#SBATCH` lines, then `: "${APPS:=/apps}"`: the grammar gives up inside the `${` (an
    # ERROR node holding it) and reads the lines as comments; to bash they are text of that word
    # up to the next `}`, and the bad substitution's message printed them. Moving them changed it
    from jobc.script.parse import read_bytes

    inside = (
        "#!/bin/bash\n#SBATCH --nodes=2\n    NODE=${NODES[$NODE_RANK) = 192 A100 GPUs\n"
        "#SBATCH --gres=gpu:8\n#SBATCH --exclusive\n\n"
        ': "${APPS_PATH:=/apps}"\nsrun python train.py\n'
    )
    assert not [d for d in read_bytes(inside.encode(), "t.sh").directives if d.name == "exclusive"]
    proof = prove(inside, unsafe=True)
    assert "JC801" not in proof.fixed
    assert proof.differences == [], proof.differences
    # near miss: a late line after a command the grammar reads whole is a directive, moved
    after = inside.replace("    NODE=${NODES[$NODE_RANK) = 192 A100 GPUs\n", "NODE=1\n")
    assert [d for d in read_bytes(after.encode(), "t.sh").directives if d.name == "exclusive"]
    proof = prove(after, unsafe=True)
    assert "JC801" in proof.fixed
    assert proof.differences == [], proof.differences


def test_a_comment_in_a_c_style_for_loop_body_is_one() -> None:
    # the loop's `((…))` is arithmetic, its body is not: a marker after `do` is a comment
    text = "for (( i = 0; i < 2; i++ )); do # jobc: ignore[JC101]\n  echo $i\ndone\n"
    assert [s.line for s in parse(text, shell=True)] == [1]
    assert parse("(( i = 2 # jobc: ignore[JC101]\n))\n", shell=True) == []


def test_jc106_moves_an_exported_rank_into_each_steps_shell() -> None:
    text = HEAD + (
        "#SBATCH --exclusive\n"
        "export MACHINE_RANK=$SLURM_PROCID\n"
        "srun bash -c 'accelerate launch --num_machines 2 --machine_rank $MACHINE_RANK "
        "--main_process_ip node0 --main_process_port 29500 train.py'\n"
    )
    assert "JC106" not in prove(text, unsafe=False, scenarios=()).fixed
    proof = prove(text, unsafe=True)
    assert "JC106" in proof.fixed
    assert "export MACHINE_RANK" not in proof.after.split("srun")[0]
    assert proof.differences == [], proof.differences
    after = simulate(proof.after, scenarios=("complete",))["complete"]
    ranks = sorted(p.argv[p.argv.index("--machine_rank") + 1] for p in after.named("accelerate"))
    assert ranks == ["0", "1"]


# --- every fix of the real-world corpus ------------------------------------------------------------

CORPUS = sorted(p for p in (Path(__file__).parents[1] / "script" / "corpus").iterdir() if p.is_file())


@pytest.mark.slow
@pytest.mark.parametrize("script", CORPUS, ids=[p.name for p in CORPUS])
def test_every_fix_of_a_corpus_script_changes_only_what_its_findings_name(script: Path) -> None:
    data = script.read_bytes()
    for unsafe in (False, True):
        proof = prove(data, unsafe=unsafe, name=script.name)
        assert proof.differences == [], (unsafe, proof.fixed, proof.differences)


def test_unsafe_fixes_remove_every_jc102_and_jc106_of_the_corpus(tmp_path: Path) -> None:
    from jobc.lint.fix import fix_path
    from jobc.lint.scripts import lint_path

    had, left = [], []
    for script in CORPUS:
        copy = tmp_path / script.name
        copy.write_bytes(script.read_bytes())
        before = {f.code for f in lint_path(copy).findings} & {"JC102", "JC106"}
        outcome = fix_path(copy, config=Config(), unsafe=True)
        assert outcome.result is not None
        after = {f.code for f in outcome.result.findings} & {"JC102", "JC106"}
        had += [f"{script.name} {c}" for c in sorted(before)]
        left += [f"{script.name} {c}" for c in sorted(after)]
    assert had  # the corpus has both
    assert left == []


def test_jc007_leaves_a_marker_that_is_text_of_a_string_or_a_heredoc() -> None:
    # found by the fix-script fuzz target: the unused-suppression repair took the lines of a
    # multi-line `bash -c "…"` for comments and cut them out of the step's command
    text = HEAD + (
        'srun bash -c "python train.py\n# jobc: ignore[JC101]\n"\n'
        "cat > notes.txt <<EOF\n# jobc: ignore[JC104]\nEOF\n"
        "echo done  # jobc: ignore[JC104]\n"
    )
    proof = prove(text, unsafe=True)
    assert proof.fixed == ["JC007"]  # the real comment's marker goes
    assert proof.after == text.replace("echo done  # jobc: ignore[JC104]", "echo done")
    assert proof.differences == [], proof.differences


@pytest.mark.parametrize(
    "line",
    [
        "#SBATCH _ip=$(scontrol show hostnames | head -n 1)",
        "#SBATCH --time=01:00:00 please",
        # found by the fix-script fuzz target (seed 3801, input 2,052): `-k` takes `=40` for its
        # optional value, which sbatch refuses ("Invalid --no-kill specification")
        "#SBATCH -k=40",
    ],
)
def test_jc801_and_jc813_read_no_line_sbatch_would_refuse(line: str) -> None:
    # found by the fix-script fuzz target: a late line with a word that is no option, moved up,
    # made sbatch refuse the whole script ("Invalid directive found in batch script")
    late = "#!/bin/bash\n#SBATCH --nodes=2\nmodule load cuda\n" + line + "\nsrun python train.py\n"
    off = "#!/bin/bash\n#SBATCH --nodes=2\n" + line.replace("#SBATCH", "#SBTACH") + "\nsrun python train.py\n"
    for text in (late, off):
        proof = prove(text, unsafe=True)
        assert proof.after == text
        assert proof.differences == [], proof.differences


def test_jc807_hands_the_signal_on_in_every_trap_for_it() -> None:
    # found by the hypothesis property: a second trap for the signal replaces the first, so the
    # first alone handing the signal on left the program without it
    text = HEAD + (
        "#SBATCH --signal=USR2@90\ntrap 'touch stop' USR2\nmodule load cuda\ntrap 'touch stop' USR2\n"
        "srun python train.py\n"
    )
    proof = prove(text, unsafe=False)
    assert "JC807" in proof.fixed
    assert proof.after.count("trap 'scancel --signal=USR2 $SLURM_JOB_ID; touch stop' USR2") == 2
    assert proof.differences == [], proof.differences


def test_jc814_turns_dashes_into_hyphens_in_commands_only_not_in_a_heredoc_or_string() -> None:
    text = HEAD + (
        "cat > notes.txt <<EOF\nrun with \u2013-epochs 3\nEOF\n"
        'echo "usage:\n  train \u2013-epochs N"\n'
        "srun python train.py \\\n  \u2013-epochs 3\n"
    )
    proof = prove(text, unsafe=False)
    assert proof.fixed == ["JC814"]
    assert proof.after == text.replace("  \u2013-epochs 3\n", "  --epochs 3\n")
    assert proof.differences == [], proof.differences


def test_the_safe_fixes_of_a_spec_change_nothing_it_compiles_to(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """JC004 (a quoted time, a leading zero dropped) and JC007 (an unused suppression): the spec
    reads the same, so the script it compiles to is the same, byte for byte."""
    import shutil

    from jobc.cli import main
    from tests.support import ROOT

    shutil.copytree(ROOT / "specs", tmp_path / "specs")
    spec = tmp_path / "specs" / "ddp-two-node.yaml"
    text = spec.read_text(encoding="utf-8")
    text = text.replace('time: "12:00:00"', "time: 12:00:00  # jobc: ignore[JC101]")
    text = text.replace("cpus_per_task: 96", "cpus_per_task: 096")
    spec.write_text(text, encoding="utf-8")
    assert main(["compile", str(spec)]) == 0
    before = capsys.readouterr().out
    main(["lint", "--fix", str(spec)])
    fixed = spec.read_text(encoding="utf-8")
    assert 'time: "12:00:00"\n' in fixed
    assert "cpus_per_task: 96\n" in fixed
    capsys.readouterr()
    assert main(["compile", str(spec)]) == 0
    assert capsys.readouterr().out == before


def test_jc813_repairs_a_prefix_sbatch_refuses_and_changes_nothing_else() -> None:
    # found by the fix-script fuzz target: `#SBATCHs-per-node=2` makes sbatch refuse the script;
    # fixed, it runs (what the finding names), with the rest of the script as it was
    text = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCHX --time=00:30:00\nsrun python train.py\n"
    assert simulate(text, scenarios=("complete",))["complete"].refused is not None
    proof = prove(text, unsafe=False)
    assert proof.fixed == ["JC813"]
    assert proof.differences == [], proof.differences


def test_jc801_moves_no_line_with_an_unmatched_quote() -> None:
    # found by the fix-script fuzz target: sbatch refuses a script whose directive has one
    text = "#!/bin/bash\n#SBATCH --nodes=2\nmodule load cuda\n#SBATCH --job-name='a b\nsrun python train.py\n"
    proof = prove(text, unsafe=True)
    assert proof.after == text
    assert proof.differences == [], proof.differences


def test_jc801_moves_no_line_with_an_option_sbatch_may_not_know() -> None:
    # found by the fix-script fuzz target: `--gpus-peranode` after the first command is ignored;
    # moved up, sbatch would refuse the script (`unrecognized option`), and the job never run
    text = HEAD + "module load cuda\n#SBATCH --gpus-peranode=8\nsrun python train.py\n"
    proof = prove(text, unsafe=True)
    assert proof.after == text
    assert proof.differences == [], proof.differences
    # and a misspelled prefix is not switched on for such an option either
    text = HEAD + "#SBACTH --gpus-peranode=8\nsrun python train.py\n"
    assert "JC813" not in prove(text, unsafe=True).fixed


def test_jc007_leaves_the_interpreter_line_and_a_script_bash_does_not_run(tmp_path: Path) -> None:
    # found by the fix-script fuzz target: a marker glued to the shebang is the interpreter's
    # argument (the kernel reads the whole line); taking it out ran another interpreter
    text = "#!/usr/bin/env pyth# jobc: ignore[JC101]\n#SBATCH --nodes=1\n#SBATCH --time=00:30:00\nprint(1)\n"
    proof = prove(text, unsafe=True)
    assert proof.after.splitlines()[0] == text.splitlines()[0]
    assert proof.differences == [], proof.differences
    # in a script python runs, what is a comment is python's business: the finding, no fix
    text = HEAD.replace("/bin/bash", "/usr/bin/env python3") + "# jobc: ignore[JC101]\nprint(1)\n"
    proof = prove(text, unsafe=True)
    assert "JC007" not in proof.fixed
    assert proof.after == text
    script = tmp_path / "job.sh"
    script.write_text(text)
    found = [f for f in lint_path(script).findings if f.code == "JC007"]
    assert len(found) == 1
    assert found[0].fix is None


def test_what_differs_between_two_runs_of_the_original_is_no_evidence_against_a_fix() -> None:
    # found by the fix-script fuzz target: a value read from a command whose output changes from
    # run to run (there, `w`'s clock) differed before and after a fix that did not touch it
    text = (
        HEAD
        + "module load x\n#SBATCH --job-name=a\n"
        + "export SEED=$(od -An -N4 -tu4 /dev/urandom)\nsrun python t.py\n"
    )
    proof = prove(text, unsafe=False)
    assert proof.fixed == ["JC801"]
    assert proof.differences == [], proof.differences


def test_jc102_fix_compares_a_value_each_task_reads_of_its_own_number() -> None:
    # found by the fix-script fuzz target: 8 launchers per node, each with --machine_rank
    # \$SLURM_PROCID; with one task per node (the fix) only rank 0's launcher is left
    text = (
        "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=8\n#SBATCH --gpus-per-node=8\n"
        "#SBATCH --time=01:00:00\n"
        "srun bash -c 'accelerate launch --num_processes 8 --machine_rank $SLURM_PROCID t.py'\n"
    )
    proof = prove(text, unsafe=False)
    assert "JC102" in proof.fixed
    assert proof.differences == [], proof.differences


def test_jc102_fix_with_the_environment_printed_differs_only_in_task_counts() -> None:
    # found by the fix-script fuzz target: `export` with no names prints Slurm's task counts,
    # which one task per node (the fix) changes, and nothing else
    text = (
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=4\n#SBATCH --gpus-per-node=4\n"
        "#SBATCH --time=01:00:00\nexport\nsrun torchrun --nproc_per_node 4 t.py\n"
    )
    proof = prove(text, unsafe=False)
    assert "JC102" in proof.fixed
    assert proof.differences == [], proof.differences


def test_a_fix_that_writes_commands_is_judged_without_bash_trace_of_them() -> None:
    # found by the fix-script fuzz target: under `set -x`, bash traces the commands JC803's fix
    # writes (the step in the background, its wait, the exit), which is the fix's text itself
    text = (
        HEAD
        + "#SBATCH --signal=B:USR1@60\nset -x\ntrap 'touch stop' USR1\nexec srun python train.py\nrm -f x\n"
    )
    proof = prove(text, unsafe=False)
    assert "JC803" in proof.fixed
    assert proof.differences == [], proof.differences


def test_jc801_moves_a_line_above_where_sbatch_stops_reading_not_where_bash_grammar_does() -> None:
    # found by the fix-script fuzz target: an unclosed `$((` on line 2 is no command to the
    # grammar, so the first command seemed to be line 3, and the line moved there stayed ignored.
    # The line after that `$((` is text of it to bash (an arithmetic expansion it never closes),
    # as the grammar's error node that holds the opener says: it is no directive, and stays
    text = "#!/bin/bash\n$(($(($(($((# p\nn every rank\n#SBATCH --nodes=2\nsrun python t.py\n"
    proof = prove(text, unsafe=False)
    assert "JC801" not in proof.fixed
    assert proof.after == text
    assert proof.differences == [], proof.differences
    # the same line after a command the grammar reads whole is moved above where sbatch stops
    text = "#!/bin/bash\nn every rank\n#SBATCH --nodes=2\nsrun python t.py\n"
    proof = prove(text, unsafe=False)
    assert proof.after.splitlines()[1] == "#SBATCH --nodes=2"
    assert proof.differences == [], proof.differences


def test_jc801_never_moves_a_line_above_the_interpreter_line() -> None:
    # found by the fix-script fuzz target: text bash cannot parse on line 2 made the grammar's
    # first command line 1, and the directives were moved above `#!/bin/bash`
    text = "#!/bin/bash\n;!/b\x89in/bash\n# a note\n#SBATCH --nodes=1\nsrun python t.py\n"
    proof = prove(text, unsafe=False)
    assert proof.after.startswith("#!/bin/bash\n#SBATCH --nodes=1\n")
    assert proof.differences == [], proof.differences


def test_jc807_writes_no_hand_on_into_a_trap_bash_cannot_read() -> None:
    # found by the fix-script fuzz target: a trap's action with unbalanced `if`s never runs, and
    # the hand-on written into it did not either, so with B: the steps lost the warning
    text = HEAD + "#SBATCH --signal=USR2@240\ntrap 'scontrol requeue; if true; then' USR2\nsrun python t.py\n"
    proof = prove(text, unsafe=False)
    assert "JC807" not in proof.fixed
    assert proof.differences == [], proof.differences


def test_jc807_leaves_a_trap_set_after_a_step_has_started() -> None:
    # found by the hypothesis property: with B:, the warning during that step reached a batch
    # shell with no trap yet, which died of it, and the step never got the signal
    text = (
        HEAD + "#SBATCH --signal=USR2@90\nsrun python train.py\ntrap 'touch stop' USR2\nsrun python eval.py\n"
    )
    proof = prove(text, unsafe=True)
    assert "JC807" not in proof.fixed
    assert proof.differences == [], proof.differences


def test_jc807_does_not_trust_a_trap_that_kills_a_variable_never_set() -> None:
    # found by the hypothesis property: `kill -USR2 "$step"` with no `step=` anywhere signals
    # nothing, so with B: alone the program lost the warning
    text = HEAD + "#SBATCH --signal=USR2@90\ntrap 'kill -USR2 \"$step\"' USR2\nsrun python train.py\n"
    proof = prove(text, unsafe=False)
    assert "JC807" in proof.fixed
    assert "scancel --signal=USR2 $SLURM_JOB_ID; kill" in proof.after
    assert proof.differences == [], proof.differences


def test_jc813_reads_the_corrected_line_where_it_stands() -> None:
    # found by the fix-script fuzz target: the corrected line comes before one that sets the same
    # option again, which sbatch reads last (the proof had taken it as a command-line option)
    text = (
        "#!/bin/bash\n#SSBATCH --gpus-per-node=8\n#SBATCH --nodes=1\n#SBATCH --gpus-per-node=2\n"
        "torchrun t.py\n"
    )
    proof = prove(text, unsafe=True)
    assert proof.fixed == ["JC813"]
    assert proof.differences == [], proof.differences


def test_no_fix_is_written_where_bash_stops_reading_the_script() -> None:
    # found by the fix-script fuzz target: `exec srun x).` is a syntax error, so bash stops there
    # and runs nothing of it; JC803's repair changed only the line bash quotes in its complaint.
    # The late directive below it is sbatch's, not bash's: JC801 still moves it.
    text = HEAD + "trap 'touch stop-now' USR2\nexec srun ariable).\n#SBATCH --account=a1\n#SBATCH --qos=q\n"
    proof = prove(text, unsafe=True)
    assert "JC803" not in proof.fixed
    assert "JC801" in proof.fixed
    assert "exec srun ariable)." in proof.after
    assert proof.differences == [], proof.differences


def test_a_fix_above_the_line_bash_refuses_is_still_made() -> None:
    # near miss: the step runs before bash reaches the broken line, so its repair still counts
    text = HEAD + "trap 'touch stop-now' USR2\nexec srun python train.py\necho done\nif then\n"
    proof = prove(text, unsafe=True)
    assert "JC803" in proof.fixed
    assert proof.differences == [], proof.differences


def test_a_fix_inside_a_compound_command_bash_refuses_is_not_made() -> None:
    # bash reads a whole `if` before it runs any of it: a step inside one that does not parse
    # never starts, though the broken line comes after it
    text = HEAD + "trap 'touch stop-now' USR2\nif true; then\n  exec srun python train.py\n  x=$((\nfi\n"
    proof = prove(text, unsafe=True)
    assert "JC803" not in proof.fixed
    assert proof.differences == [], proof.differences


def test_jc801_leaves_a_letter_sbatch_has_no_option_for() -> None:
    # found by the fix-script fuzz target: `#SBATCH -=0` after the first command was moved into
    # the block, where sbatch refuses it (`invalid option -- '='`) and the job never runs
    text = HEAD + "srun python prep.py\n#SBATCH -=0\n#SBATCH -q high\nsrun python train.py\n"
    proof = prove(text, unsafe=True)
    assert "#SBATCH -=0" not in proof.after.split("srun python prep.py")[0]
    # near miss: a letter sbatch knows (-q, --qos) is moved
    assert "#SBATCH -q high" in proof.after.split("srun python prep.py")[0]
    assert proof.differences == [], proof.differences


def test_jc803_lets_bash_say_a_missing_command_in_its_own_words_without_exec() -> None:
    # found by the fix-script fuzz target: `exec sru\xd1 python train.py` names a command that is
    # nowhere; bash says `exec: NAME: not found` for it, and without `exec` (the fix)
    # `$'NAME': command not found`: the same failure, with the same status, worded as bash words
    # it for a command it runs itself. The name still counts, and so does the missing file
    for line in ("exec sru\udcd1 python train.py", "exec ./train.py"):
        text = HEAD + f"trap 'touch stop-now' USR2\n{line}\n"
        proof = prove(text.encode("utf-8", "surrogateescape"), unsafe=True)
        assert "JC803" in proof.fixed, proof.fixed
        assert proof.differences == [], proof.differences
    # near miss: the fix running another missing command would differ
    from tests.support.simulator import compare_runs
    from tests.support.simulator.fixes import _jc803

    before = simulate(HEAD + "exec nosuch a\n", scenarios=("complete",))["complete"]
    same = simulate(HEAD + "nosuch a\n", scenarios=("complete",))["complete"]
    other = simulate(HEAD + "other a\n", scenarios=("complete",))["complete"]
    assert compare_runs(before, same, _jc803("")) == []
    assert compare_runs(before, other, _jc803("")) != []


def test_no_step_is_put_in_the_background_when_a_later_line_reads_dollar_bang() -> None:
    # found by the fix-script fuzz target: a mangled `srun python train.py &` left the step in the
    # foreground and `step=$!` empty (`wait ""` fails, status 1); JC802 put the step in the
    # background, so `$!` named it and `wait "$step"` returned the step's own status
    text = HEAD + (
        '#SBATCH --signal=B:USR2@180\nforward() {\n  kill -USR2 "$step" 2>/dev/null\n}\n'
        'trap forward USR2\n\nsrun python train.py\n#  a line\nstep=$!\nwait "$step"\n'
    )
    proof = prove(text, unsafe=True)
    assert "JC802" not in proof.fixed
    assert proof.differences == [], proof.differences
    # near miss: a step started in the background before `$!` is read is what it names
    later = text.replace("#  a line\n", "srun python eval.py &\n")
    proof = prove(later, unsafe=True)
    assert "JC802" in proof.fixed
    assert proof.differences == [], proof.differences


def test_jc007_keeps_the_line_break_a_continued_line_ends_at() -> None:
    # found by the fix-script fuzz target: `--rdzv_id=$SLURM_JOB_ID \` went on into a line that held
    # only an unused suppression, whose comment ended the command; taking the whole line out joined
    # the next line (`--rdzv_backend=c10d \`, a command bash could not find) to the step
    text = HEAD + ("srun python train.py --a 1 \\\n   # jobc: ignore[JC101]\n --b 2 \\\n  --c 3\n")
    proof = prove(text, unsafe=True)
    assert proof.fixed == ["JC007"]
    assert proof.after == text.replace("   # jobc: ignore[JC101]", "")
    assert proof.differences == [], proof.differences
    # near miss: a line that does not go on into the comment's loses the comment's whole line
    text = HEAD + "srun python train.py --a 1\n   # jobc: ignore[JC101]\n"
    proof = prove(text, unsafe=True)
    assert proof.after == HEAD + "srun python train.py --a 1\n"
    assert proof.differences == [], proof.differences


def test_jc007_takes_no_text_after_an_escaped_blank_for_a_suppression() -> None:
    # `echo done \ # jobc: ignore[JC104]` prints the marker: `\ ` starts the word ` #`, and the
    # unused-suppression repair cut it out of the command's arguments
    text = HEAD + "echo done \\ # jobc: ignore[JC104]\n"
    proof = prove(text, unsafe=True)
    assert "JC007" not in proof.fixed
    assert proof.after == text
    # near miss: after an unescaped blank the marker is a comment, and an unused one goes
    text = HEAD + "echo done \\\\ # jobc: ignore[JC104]\n"
    proof = prove(text, unsafe=True)
    assert proof.fixed == ["JC007"]
    assert proof.after == HEAD + "echo done \\\\\n"
    assert proof.differences == [], proof.differences


def test_jc801_moves_no_line_where_the_grammar_read_around_what_it_cannot_read(tmp_path: Path) -> None:
    # found by the fix-script fuzz target: `CONFIG_FILE=${-node=4` goes on, for bash, to the `}`
    # of a function below, and the #SBATCH lines between are text of that word (bash's error
    # quotes them); the grammar cannot read it and took the lines for comments JC801 moved
    text = HEAD + 'C=${-n=4\n#SBATCH --exclusive\nf() {\n  echo "$s"\n}\nsrun python train.py\n'
    proof = prove(text, unsafe=True)
    assert "JC801" not in proof.fixed
    assert proof.after == text
    script = tmp_path / "job.sh"
    script.write_text(text, encoding="utf-8")
    found = [f for f in lint_path(script).findings if f.code == "JC801"]
    # the grammar, too, puts the line inside the `${…}`: text of a word to bash, no directive
    assert found == []
    # near miss: after a command the grammar reads, the line is moved
    text = HEAD + 'C=${N:-4}\n#SBATCH --exclusive\nf() {\n  echo "$s"\n}\nsrun python train.py\n'
    proof = prove(text, unsafe=True)
    assert proof.fixed == ["JC801"]
    assert proof.differences == [], proof.differences


@pytest.mark.parametrize("srun", ["srun -N 2 --ntasks=16", "srun --nodes=2 -n16"])
def test_jc102_makes_a_steps_total_task_count_one_per_node_only_where_the_step_names_its_nodes(
    srun: str,
) -> None:
    # found by the fix-script fuzz target: `srun --ntasks=2` in four nodes (a step sized on purpose)
    # became `--ntasks-per-node=1`, which starts the step on every node of the allocation
    head = (
        "#!/bin/bash\n#SBATCH --nodes=4\n#SBATCH --gpus-per-node=8\n#SBATCH --time=01:00:00\n"
        "#SBATCH --exclusive\n"
    )
    launch = (
        " torchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend=c10d --rdzv_endpoint=node0:29400 train.py\n"
    )
    text = head + "srun --ntasks=16" + launch
    proof = prove(text, unsafe=True)
    assert "JC102" not in proof.fixed
    assert proof.after == text
    # near miss: the step names its nodes, and one task on each of them is the same nodes
    text = head + srun + launch
    proof = prove(text, unsafe=True)
    assert proof.fixed == ["JC102"]
    assert "--ntasks-per-node=1 torchrun" in proof.after
    assert proof.differences == [], proof.differences


def test_jc106_is_judged_without_bash_trace_of_the_step_it_rewrote() -> None:
    # found by the fix-script fuzz target: under `set -x` bash traces the `bash -c '…'` JC106
    # writes, a string over two lines, and the proof took the trace's second line for output
    text = HEAD + (
        "#SBATCH --ntasks-per-node=1\nset -x\n"
        "srun torchrun --nnodes=2 --nproc_per_node=8 --node_rank=$SLURM_NODEID \\\n"
        "  --master_addr=node0 --master_port=29500 train.py\n"
    )
    proof = prove(text, unsafe=True)
    assert "JC106" in proof.fixed
    assert proof.differences == [], proof.differences


def _lint_codes(path: Path, text: str) -> set[str]:
    path.write_text(text)
    return {f.code for f in lint_path(path).findings}


def test_lint_and_its_fix_agree_that_a_step_after_exec_never_runs(tmp_path: Path) -> None:
    # `exec srun …` replaces the batch shell: the step below it never runs, so it is not the
    # training step that holds a trap back (JC802), before the fix or after it, where JC803 puts
    # the step in the background and exits with its status (the step below still never runs)
    text = (
        HEAD + "#SBATCH --signal=B:USR2@90\ntrap 'kill -USR2 \"$step\"' USR2\n"
        "exec srun python train.py\nsrun python train.py --data /lustre/data\n"
    )
    proof = prove(text, unsafe=False)
    assert "JC803" in proof.fixed
    assert "JC802" not in proof.fixed
    assert 'exit "$jobc_status"' in proof.after
    assert proof.differences == [], proof.differences
    after = _lint_codes(tmp_path / "fixed.sh", proof.after)
    assert "JC802" not in after, after
    assert "JC803" not in after, after
    # near miss: without the exec, the step below runs in the foreground and holds the trap back
    held = _lint_codes(
        tmp_path / "held.sh", text.replace("exec srun python train.py", "srun python train.py &")
    )
    assert "JC802" in held


def test_jc801_moves_a_line_below_a_misspelled_directive_jc813_repairs_in_the_same_pass() -> None:
    # found by the fix-script fuzz target: JC801 moved `#SBATCH -e late.err` above the header's
    # `#SBTACH -e first.err` (below the last directive sbatch read), and JC813 made that line a
    # directive in the same pass: the header's value, not the moved line's, was then the last
    # --error sbatch read
    text = (
        HEAD + "#SBTACH -e first.err\n\n# a note on the program\n"
        "python prepare.py\n#SBATCH -e late.err\nsrun python train.py\n"
    )
    proof = prove(text, unsafe=False)
    assert sorted(proof.fixed) == ["JC801", "JC813"]  # in one pass
    lines = proof.after.splitlines()
    assert lines[3:5] == ["#SBATCH -e first.err", "#SBATCH -e late.err"]
    assert proof.differences == [], proof.differences
    # near miss: a comment that no repair makes a directive stays with the first command, the
    # moved line above it
    plain = text.replace("#SBTACH -e first.err\n", "")
    moved = prove(plain, unsafe=False)
    assert moved.after.splitlines()[3:5] == ["#SBATCH -e late.err", ""]
    assert moved.differences == [], moved.differences


def test_jc807_hands_the_signal_on_to_a_step_after_the_training_step() -> None:
    # found by the fix-script fuzz target: the training step (a torchrun refused at once, here
    # for an option it lacks) ends and the step after it runs when the warning comes; with B:
    # that step in the foreground held the trap that hands the signal on until the time limit
    text = HEAD + (
        "#SBATCH --signal=USR2@240\ntrap 'scontrol requeue \"$SLURM_JOB_ID\"' USR2\n"
        "srun torchrun --nnodes=2 --nprocs-per-node=8 train.py\n"
        "srun python evaluate.py\n"
    )
    before = simulate(text, scenarios=("signal",))["signal"]
    assert {p.signals for p in before.named("python") if "evaluate.py" in p.argv} == {("SIGUSR2",)}
    proof = prove(text, unsafe=False)
    assert "JC807" in proof.fixed
    assert "srun python evaluate.py &\n" in proof.after
    assert proof.differences == [], proof.differences


def test_jc807_hands_the_signal_on_to_a_later_step_whose_command_it_cannot_read() -> None:
    # found by the fix-script fuzz target (seed 4401, input 7,830): a later step's command starts
    # with an array the script never sets (`srun -l "${AxGS[@]}" python -m torch.distributed.run`),
    # so jobc reads no program in it. It was taken for a helper that ends by itself and left in the
    # foreground, where with B: it held the trap that hands the signal on: the program got the
    # time limit instead of the warning
    text = HEAD + (
        "#SBATCH --signal=USR2@240\ntrap 'scontrol requeue \"$SLURM_JOB_ID\"' USR2\n"
        "srun torchrun --nnodes=2 --nprocs-per-node=8 train.py\n"
        'srun -l "${AxGS[@]}" python -m torch.distributed.run --nproc_per_node=8 pretrain.py\n'
    )
    before = simulate(text, scenarios=("signal",))["signal"]
    assert {p.signals for p in before.named("python") if "pretrain.py" in p.argv} == {("SIGUSR2",)}
    proof = prove(text, unsafe=False)
    assert "JC807" in proof.fixed
    assert "pretrain.py &\n" in proof.after
    assert proof.differences == [], proof.differences
    # near miss: a helper jobc reads (`srun hostname`) ends by itself and stays in the foreground
    helper = text.replace(
        'srun -l "${AxGS[@]}" python -m torch.distributed.run --nproc_per_node=8 pretrain.py', "srun hostname"
    )
    proof = prove(helper, unsafe=False)
    assert "JC807" in proof.fixed
    assert "srun hostname &" not in proof.after
    assert proof.differences == [], proof.differences


def test_jc807_leaves_a_step_already_waited_for_in_the_background_as_it_is() -> None:
    # the near miss: the step after the training step already runs with `&` and is waited for,
    # so the trap runs when the warning comes and only B: and the hand-on are written
    text = HEAD + (
        "#SBATCH --signal=USR2@240\ntrap 'scontrol requeue \"$SLURM_JOB_ID\"' USR2\n"
        "srun torchrun --nnodes=2 --nprocs-per-node=8 train.py &\nwait $!\n"
        "srun python evaluate.py &\nwait $!\n"
    )
    proof = prove(text, unsafe=False)
    assert "JC807" in proof.fixed
    assert proof.after.count("jobc_step") == 0
    assert proof.differences == [], proof.differences


def test_jc007_removes_no_marker_below_a_line_the_grammar_could_not_read(tmp_path: Path) -> None:
    # found by the fix-script fuzz target (seed 2001, input 1,155): `"${` runs on over the lines
    # below it to a `}`, so bash reads the marker lines there as text of the word (its `bad
    # substitution` message quotes them); the grammar, lost after `"${`, took them for comments
    # and the repair cut them out of the message
    text = HEAD + (
        'srun torchrun --nnodes="${# jobc: ignore[JC101]\n# jobc: ignore[JC101]\nSLURM_NNODES}" train.py\n'
    )
    proof = prove(text, unsafe=True)
    assert "JC007" not in proof.fixed
    assert proof.differences == [], proof.differences
    script = tmp_path / "job.sh"
    script.write_text(text)
    found = [f for f in lint_path(script).findings if f.code == "JC007"]
    assert found
    assert all(f.fix is None for f in found)
    # near miss: the same marker below lines the grammar reads whole is a comment, and goes
    near = HEAD + '# jobc: ignore[JC101]\nsrun torchrun --nnodes="${SLURM_NNODES}" train.py\n'
    proof = prove(near, unsafe=True)
    assert proof.fixed == ["JC007"]
    assert proof.differences == [], proof.differences


def test_jc807_hands_nothing_on_in_a_trap_whose_action_trap_refuses() -> None:
    # found by the fix-script fuzz target (seed 2201, input 2,641): an action that starts with `-`
    # is an option to trap, which refuses it (`trap: -n: invalid option`) and sets no trap; the
    # hand-on put before it made a valid action, so the fixed script trapped where it had not
    text = HEAD + (
        "#SBATCH --signal=USR2@240\ntrap '-node=8 scontrol requeue \"$SLURM_JOB_ID\"' USR2\n"
        "srun python train.py\n"
    )
    proof = prove(text, unsafe=False)
    assert "JC807" not in proof.fixed
    assert proof.differences == [], proof.differences
    # near miss: the same action without the dash is handed on
    near = text.replace("'-node=8 ", "'")
    proof = prove(near, unsafe=False)
    assert "JC807" in proof.fixed
    assert "trap 'scancel --signal=USR2 $SLURM_JOB_ID; scontrol requeue" in proof.after
    assert proof.differences == [], proof.differences


def test_jc802_backgrounds_a_step_that_reads_random_without_a_difference() -> None:
    # found by the fix-script fuzz target (seed 2401, input 324): `--rdzv_id $RANDOM` in a step
    # JC802 starts with `&`; bash expands a background command's words after the fork, in a
    # subshell that reseeds $RANDOM, so the simulator's seeded sequence gave the fixed script
    # another id. The job does the same either way (a random id, read once by the batch shell for
    # every node): the simulator now holds $RANDOM at one value in every shell
    text = HEAD + (
        "#SBATCH --signal=B:USR2@180\n"
        'forward() { kill -USR2 "$step" 2>/dev/null; }\ntrap forward USR2\n'
        "srun torchrun --nnodes 2 --nproc_per_node 4 --rdzv_id $RANDOM --rdzv_backend c10d "
        "--rdzv_endpoint node0:29500 train.py\n"
    )
    proof = prove(text, unsafe=False)
    assert "JC802" in proof.fixed
    assert proof.differences == [], proof.differences
    # near miss: another id written into the fixed script is still a difference
    changed = proof.after.replace("--rdzv_id $RANDOM", "--rdzv_id 12314")
    assert differences(text, changed, scenarios=("complete",)) != []


def test_jc803_without_exec_a_directory_fails_in_bashs_other_words_only() -> None:
    # found by the fix-script fuzz target (seed 4401, input 377): `exec "/tmp/$X"` with X unset
    # fails as `exec: /tmp/: cannot execute: Is a directory`, and without exec as `/tmp/: Is a
    # directory`: the same failure, which the proof compares by the name
    text = HEAD + 'exec "/tmp/$SLURM_JOD"\nsrun python train.py\n'
    proof = prove(text, unsafe=True)
    assert "JC803" in proof.fixed
    assert proof.differences == [], proof.differences


def test_jc107_offers_no_pattern_on_a_line_sbatch_refuses() -> None:
    # found by the fix-script fuzz target (seed 4401, input 4,647): `#SBATCH -ed/$SLURM_JOB_ID"`,
    # whose unmatched quote makes sbatch refuse the script; `%j` in place of the variable changed
    # only the words of the refusal
    text = '#!/bin/bash\n#SBATCH -ed/$SLURM_JOB_ID"\nsrun python train.py\n'
    proof = prove(text, unsafe=False)
    assert "JC107" not in proof.fixed
    assert proof.differences == [], proof.differences
    # near miss: the quote closed, the pattern is written
    proof = prove(text.replace('JOB_ID"', "JOB_ID"), unsafe=False)
    assert "JC107" in proof.fixed
    assert "#SBATCH -ed/%j" in proof.after
    assert proof.differences == [], proof.differences
