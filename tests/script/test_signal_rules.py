"""JC807 and JC808: which signal `--signal` sends to the batch shell, and whether a trap catches it."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from jobc.commands.import_ import render
from jobc.compile import compile_batch
from jobc.core.diagnostics import Severity
from jobc.lint.imported import imported
from jobc.lint.pipeline import lint_file
from jobc.lint.scripts import lint_path
from jobc.script import signals
from jobc.script.parse import read, read_bytes

CORPUS = Path(__file__).with_name("corpus")
HEAD = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --time=01:00:00\n"


def lint(tmp_path: Path, body: str) -> list[tuple[str, int, int, Severity]]:
    path = tmp_path / "job.sh"
    path.write_text(HEAD + textwrap.dedent(body), encoding="utf-8")
    return [
        (f.code, f.span.line, f.span.col, f.severity)
        for f in lint_path(path).findings
        if f.code in ("JC802", "JC807", "JC808")
    ]


E, W = Severity.ERROR, Severity.WARNING


@pytest.mark.parametrize(
    ("body", "want"),
    [
        # the warning goes to the steps: the batch shell's trap never sees it
        (
            "#SBATCH --signal=SIGUSR1@90\ntrap 'touch stop' SIGUSR1\nsrun python t.py\n",
            [("JC807", 5, 1, E)],
        ),
        # by number, and the trap written by number too
        ("#SBATCH --signal=10@90\n\n  trap stop 10\nsrun python t.py &\nwait\n", [("JC807", 6, 3, E)]),
        # R: (reservation overlap) is not B:
        ("#SBATCH --signal=R:TERM@60\ntrap 'touch stop' TERM\nsrun python t.py\n", [("JC807", 5, 1, E)]),
        # a trap set by a function that the batch shell calls
        (
            "#SBATCH --signal=USR2@60\non_usr2() {\n  trap 'touch stop' USR2\n}\non_usr2\nsrun python t.py\n",
            [("JC807", 6, 3, E)],
        ),
        # USR1 with no --signal at all: nothing sends it
        ("trap 'touch stop' USR1\nsrun python t.py\n", [("JC807", 4, 1, W)]),
        # near miss: the sourced file's function is handed another signal, USR1 kills the shell
        (
            "#SBATCH --signal=B:USR1@60\n. /opt/vtj/setup.sh\nrequeue_job func_trap USR2\n"
            "srun ./a.out &\nwait\n",
            [("JC808", 4, 9, E)],
        ),
        # source: SpencerSzabados/Group-Diffusion-Bridge train_autoencoder_slurm.sh (the form): the
        # trap is set only after the foreground step, so the signal finds none while the step runs
        (
            "#SBATCH --signal=B:SIGUSR1@30\nmpiexec -n 2 python t.py\nPID=$!\n"
            "cleanup() { kill -SIGUSR1 $PID; }\ntrap cleanup SIGUSR1\nwait $PID\n",
            [("JC808", 4, 9, E)],
        ),
        # B: sends USR2, the trap waits for USR1, and USR2 kills the shell
        (
            "#SBATCH --signal=B:USR2@60\ntrap 'touch stop' USR1\nsrun python t.py &\nwait\n",
            [("JC808", 4, 9, E), ("JC807", 5, 1, W)],
        ),
    ],
)
def test_trap_without_batch_signal_fires(tmp_path: Path, body: str, want: list[object]) -> None:
    assert lint(tmp_path, body) == want


@pytest.mark.parametrize(
    "body",
    [
        # B: and a trap, the step in the background
        "#SBATCH --signal=B:USR1@90\ntrap 'kill -USR1 $s' USR1\nsrun python t.py &\ns=$!\nwait $s\n",
        # the trap after the line that starts the step in the background: set before the signal comes
        "#SBATCH --signal=B:USR1@90\nsrun python t.py &\ns=$!\ntrap 'kill -USR1 $s' USR1\nwait $s\n",
        # a function of a sourced file is handed the signal's name: it may set the trap
        # (NERSC's variable-time jobs)
        "#SBATCH --signal=B:USR1@60\n. /usr/common/vtj/setup.sh\nrequeue_job func_trap USR1\n"
        "srun ./a.out &\nwait\n",
        # no B: and no trap: the program in the step handles the signal itself
        "#SBATCH --signal=USR1@90\nsrun python t.py\n",
        # SIGTERM comes at the time limit anyway
        "trap 'touch stop' TERM\nsrun python t.py\n",
        # a trap that catches the B: signal, and USR1 besides
        "#SBATCH --signal=B:USR2@60\ntrap 'kill -USR2 $s' USR1 USR2\nsrun python t.py &\ns=$!\nwait $s\n",
        # the function with the trap runs inside the step, not in the batch shell
        "#SBATCH --signal=USR2@60\nrank() {\n  trap 'touch stop' USR2\n  python t.py\n}\n"
        "export -f rank\nsrun bash -c rank\n",
        # a trap inside the step's own shell
        "#SBATCH --signal=USR2@60\nsrun bash -c 'trap \"touch stop\" USR2; python t.py'\n",
        # reset and listing are not traps
        "#SBATCH --signal=USR2@60\ntrap - USR2\ntrap -p\nsrun python t.py\n",
    ],
)
def test_trap_without_batch_signal_near_misses(tmp_path: Path, body: str) -> None:
    assert lint(tmp_path, body) == []


@pytest.mark.parametrize(
    ("body", "want"),
    [
        ("#SBATCH --signal=B:USR2@120\nsrun python t.py\necho done\n", [("JC808", 4, 9, E)]),
        ("#SBATCH --signal=B:TERM\nsrun python t.py\n", [("JC808", 4, 9, E)]),
        ("#SBATCH --signal RB:12@60\nsrun python t.py &\nwait\n", [("JC808", 4, 9, E)]),
        # only a trap for another signal
        ("#SBATCH --signal=B:SIGUSR1@60\ntrap 'touch stop' TERM\nsrun python t.py\n", [("JC808", 4, 9, E)]),
    ],
)
def test_batch_signal_untrapped_fires(tmp_path: Path, body: str, want: list[object]) -> None:
    assert lint(tmp_path, body) == want


@pytest.mark.parametrize(
    "body",
    [
        # exec: the shell has become srun, which passes the signal on to the tasks
        "#SBATCH --signal=B:USR2@120\nexec srun python t.py\n",
        # a trap set in a function
        "#SBATCH --signal=B:USR2@120\nsetup() {\n  trap 'kill -USR2 $s' USR2\n}\nsetup\n"
        "srun python t.py &\ns=$!\nwait $s\n",
        # a trap that ignores it
        "#SBATCH --signal=B:USR2@120\ntrap '' USR2\nsrun python t.py\n",
        # bash does not die of SIGINT while it waits for a child that does not
        "#SBATCH --signal=B:INT@120\nsrun python t.py\n",
        # no B:: the steps get it
        "#SBATCH --signal=USR2@120\nsrun python t.py\n",
        # a directive sbatch ignores (after the first command) asks for nothing
        "srun python t.py\n#SBATCH --signal=B:USR2@120\n",
    ],
)
def test_batch_signal_untrapped_near_misses(tmp_path: Path, body: str) -> None:
    assert lint(tmp_path, body) == []


def test_a_trap_for_the_batch_signal_in_the_foreground_is_jc802_not_jc807(tmp_path: Path) -> None:
    body = "#SBATCH --signal=B:USR2@120\ntrap 'touch stop' USR2\nsrun python t.py\n"
    assert lint(tmp_path, body) == [("JC802", 6, 1, E)]


@pytest.mark.parametrize(
    ("value", "signal", "batch", "fixed"),
    [
        ("USR1@90", "SIGUSR1", False, "--signal=B:USR1@90"),
        ("B:SIGUSR2@300", "SIGUSR2", True, "--signal=B:USR2@300"),
        ("BR:15", "SIGTERM", True, "--signal=B:TERM@60"),
        ("R:usr2@30", "SIGUSR2", False, "--signal=B:USR2@30"),
    ],
)
def test_what_signal_says(value: str, signal: str, batch: bool, fixed: str) -> None:
    facts = read_bytes(f"#!/bin/bash\n#SBATCH --signal={value}\nsrun true\n".encode(), "job.sh")
    sent = signals.sent_by(facts)
    assert sent is not None
    assert (sent.signal, sent.batch, sent.fixed) == (signal, batch, fixed)


def test_import_drops_the_trap_that_never_ran_and_sends_the_signal_to_the_batch_shell() -> None:

    facts = read(CORPUS / "signal_to_steps.sh")
    derived = imported(facts)
    why = {u.line: u.why for u in derived.unmapped}
    assert why[11].startswith("left out, JC807: Slurm never sends SIGUSR2 to the batch shell")
    assert derived.data["resilience"] == {"signal": "SIGUSR2", "grace_s": 240, "requeue": True}
    assert "#   line 11: trap " in render(derived, facts)


@pytest.mark.parametrize("name", ["signal_to_steps.sh", "signal_untrapped.sh"])
def test_the_compiled_import_traps_the_signal_in_the_batch_shell(name: str, tmp_path: Path) -> None:
    facts = read(CORPUS / name)
    spec = tmp_path / "spec.yaml"
    spec.write_text(render(imported(facts), facts), encoding="utf-8")
    result = lint_file(spec)
    assert result.context is not None
    compiled = read_bytes(compile_batch(result.context).encode(), "compiled.sh")
    sent = signals.sent_by(compiled)
    assert sent is not None
    assert sent.batch
    assert sent.signal == "SIGUSR2"
    assert signals.trapped(compiled, "SIGUSR2")
    assert signals.missed(compiled) == []


@pytest.mark.parametrize(
    ("body", "fires"),
    [
        # the warning goes to the steps: NCCL's handler in the program may take it
        ("#SBATCH --signal=USR1@90\nsrun python t.py\n", True),
        # to the batch shell, whose trap passes SIGUSR1 itself on to the step
        ("#SBATCH --signal=B:USR1@90\ntrap 'kill -USR1 $s' USR1\nsrun python t.py &\ns=$!\nwait $s\n", True),
        # ... by its number, through a function
        (
            "#SBATCH --signal=B:USR1@90\non() {\n  kill -10 $s\n}\ntrap on USR1\nsrun python t.py &\ns=$!\n"
            "wait $s\n",
            True,
        ),
        # to the batch shell, whose trap hands the steps SIGINT: no program sees SIGUSR1
        (
            "#SBATCH --signal=B:USR1@240\nh() {\n  scancel $SLURM_JOB_ID --signal=SIGINT\n  wait $c\n}\n"
            "trap h SIGUSR1\nsrun python t.py &\nc=$!\nwait $c\n",
            False,
        ),
        # ... or only requeues the job
        (
            "#SBATCH --signal=B:USR1@90\ntrap 'scontrol requeue $SLURM_JOB_ID' USR1\nsrun python t.py &\n"
            "wait\n",
            False,
        ),
    ],
)
def test_sigusr1_is_warned_of_only_where_a_program_receives_it(
    tmp_path: Path, body: str, fires: bool
) -> None:
    path = tmp_path / "job.sh"
    path.write_text(HEAD + body, encoding="utf-8")
    assert ("JC604" in {f.code for f in lint_path(path).findings}) is fires
