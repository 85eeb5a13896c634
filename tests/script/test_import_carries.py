"""An import never drops silently: each form a script gives its program an environment, a
directory, options or a place to write to is carried into the spec, or listed as not carried with
why. Each case is also run both ways under the behaviour simulator (`roundtrip.py`): the job
compiled from the import runs the same program with the same arguments, environment and directory,
or the spec lists what differs."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.script.roundtrip import Outcome, round_trip

HEAD = """\
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-node=4
#SBATCH --time=1:00:00
"""


def _trip(tmp_path: Path, body: str, head: str = HEAD) -> Outcome:
    script = head + textwrap.dedent(body)
    outcome = round_trip(script.encode(), tmp_path)
    assert outcome.spec is not None
    assert outcome.unlisted == [], outcome.spec
    return outcome


def _spec(outcome: Outcome) -> str:
    assert outcome.spec is not None
    return outcome.spec


def _not_mapped(outcome: Outcome) -> str:
    return _spec(outcome).split("# Not mapped from the script:", 1)[-1]


def test_per_command_variables_reach_the_program(tmp_path: Path) -> None:
    out = _trip(tmp_path, "A=1 B='two words' srun python train.py\n")
    spec = _spec(out)
    assert 'A: "1"  # line 6' in spec
    assert 'B: "two words"  # line 6' in spec
    assert out.compiled is not None


def test_env_wrapper_variables_reach_the_program(tmp_path: Path) -> None:
    out = _trip(tmp_path, "srun env OMP_NUM_THREADS=8 python train.py\n")
    assert 'OMP_NUM_THREADS: "8"  # line 6' in _spec(out)


def test_srun_export_values_reach_the_program_and_a_narrowed_export_is_listed(tmp_path: Path) -> None:
    out = _trip(tmp_path, "srun --export=ALL,HF_HUB_OFFLINE=1 python train.py\n")
    assert 'HF_HUB_OFFLINE: "1"  # line 6' in _spec(out)
    out = _trip(tmp_path, "export A=1\nsrun --export=NONE python train.py\n")
    assert "line 7: srun --export=NONE — the tasks see only the variables it names" in _not_mapped(out)


def test_python_dash_c_is_a_program_jobc_cannot_carry(tmp_path: Path) -> None:
    out = _trip(tmp_path, 'srun python -c "import train; train.main()"\n')
    spec = _spec(out)
    assert "program:" not in spec.split("launch:", 1)[1].split("\n\n")[0]
    assert "# Not known: launch.program: line 6 runs Python code given with `python -c`" in spec
    assert 'python -c "import train; train.main()" — code given with `python -c`' in _not_mapped(out)
    assert out.compiled is None  # JC003 until the program is written


@pytest.mark.parametrize(
    "body",
    [
        "( cd /home/user; make )\nsrun python train.py\n",  # a subshell's cd stays there
        "mkdir -p out | cd /home/user\nsrun python train.py\n",  # so does a pipeline's
    ],
)
def test_a_cd_the_batch_shell_does_not_keep_sets_no_workdir(tmp_path: Path, body: str) -> None:
    out = _trip(tmp_path, body)
    assert "workdir" not in _spec(out).split("# Not mapped")[0]
    assert "cd /home/user" in _not_mapped(out)


@pytest.mark.parametrize(
    "body",
    [
        "[ -d /home/user ] && cd /home/user\nsrun python train.py\n",
        "if false; then\n  cd /home/user\nfi\nsrun python train.py\n",
        'for d in a b; do cd "$d"; done\nsrun python train.py\n',
        'cd "$WORK/code"\nsrun python train.py\n',
    ],
)
def test_a_cd_the_batch_shell_may_not_run_leaves_the_workdir_unknown(tmp_path: Path, body: str) -> None:
    out = _trip(tmp_path, body)
    spec = _spec(out)
    assert 'workdir: "{unknown.workdir}"' in spec
    assert "# Not known: launch.workdir: the training step (line " in spec
    assert out.compiled is None  # JC008 until the directory is written


def test_a_cd_the_batch_shell_surely_runs_is_the_workdir(tmp_path: Path) -> None:
    out = _trip(
        tmp_path,
        'cd /home/user\ncd project && mkdir -p logs\ncd "$SLURM_SUBMIT_DIR"\n'
        "cd /home/user\nsrun python train.py\n",
    )
    spec = _spec(out)
    assert 'workdir: "/home/user"  # line 9' in spec
    assert out.compiled is not None


def test_srun_chdir_is_the_workdir_and_binding_options_are_listed(tmp_path: Path) -> None:
    out = _trip(tmp_path, "srun --chdir=/home/user --cpu-bind=cores --gpu-bind=closest python train.py\n")
    spec = _spec(out)
    assert 'workdir: "/home/user"  # line 6' in spec
    listed = _not_mapped(out)
    assert "line 6: srun --cpu-bind=cores — an srun option of the training step: not carried" in listed
    assert "line 6: srun --gpu-bind=closest — an srun option" in listed


def test_redirections_and_pipes_of_the_step_are_listed(tmp_path: Path) -> None:
    out = _trip(tmp_path, "srun python train.py > train.log 2>&1\n")
    listed = _not_mapped(out)
    assert "line 6: > train.log — the step's output goes to this file" in listed
    assert "line 6: 2>&1 — the step's output goes to this file" in listed
    out = _trip(tmp_path, "srun python train.py 2>&1 | tee train.log\n")
    assert "line 6: srun python train.py 2>&1 | tee train.log — the step's output is piped on" in _not_mapped(
        out
    )


def test_interpreter_options_are_listed_with_what_does_the_same(tmp_path: Path) -> None:
    out = _trip(tmp_path, "srun python -u -O -W error train.py --lr 1\n")
    listed = _not_mapped(out)
    assert (
        "line 6: python -u -O -W error — interpreter options: launch.python names the interpreter only"
        in (listed)
    )
    assert "PYTHONUNBUFFERED=1, PYTHONOPTIMIZE=1" in listed
    assert '- "--lr"' in _spec(out)


def test_cd_and_export_inside_bash_c_reach_the_program(tmp_path: Path) -> None:
    out = _trip(
        tmp_path,
        "srun bash -c 'cd /home/user && export HF_HUB_OFFLINE=1 && nvidia-smi && python train.py'\n",
    )
    spec = _spec(out)
    assert 'workdir: "/home/user"  # line 6' in spec
    assert 'HF_HUB_OFFLINE: "1"  # line 6' in spec
    assert "line 6: nvidia-smi — the step's own shell runs this too" in _not_mapped(out)


def test_the_value_the_step_sees_is_carried_not_one_exported_after_it(tmp_path: Path) -> None:
    out = _trip(
        tmp_path,
        "export NCCL_ALGO=Ring\nexport OMP_NUM_THREADS=2\nexport OMP_NUM_THREADS=4\n"
        "srun python train.py\nexport NCCL_ALGO=Tree\n",
    )
    spec = _spec(out)
    assert 'NCCL_ALGO: "Ring"  # line 6' in spec
    assert 'OMP_NUM_THREADS: "4"  # line 8' in spec
    listed = _not_mapped(out)
    assert "line 7: export OMP_NUM_THREADS=2 — a later line changes it before the training step" in listed
    assert "line 10: export NCCL_ALGO=Tree — exported after the training step starts" in listed


def test_an_unset_variable_is_not_carried(tmp_path: Path) -> None:
    out = _trip(tmp_path, "export HF_TOKEN_PATH=/x\nunset HF_TOKEN_PATH\nsrun python train.py\n")
    assert "HF_TOKEN_PATH:" not in _spec(out)
    said = "line 6: export HF_TOKEN_PATH=/x — unset or no longer exported (`export -n`, `declare +x`) before"
    assert said in _not_mapped(out)


@pytest.mark.parametrize("unexport", ["export -n FOO", "declare +x FOO", "export -n FOO=2", "typeset +x FOO"])
def test_a_variable_no_longer_exported_is_not_carried(tmp_path: Path, unexport: str) -> None:
    # `export -n NAME` and `declare +x NAME` keep the variable's value in the batch shell and take
    # it out of the environment of what it starts: the step never sees it (they were read as one
    # more export, and the spec gave the program FOO=1)
    out = _trip(tmp_path, f'export FOO=1\n{unexport}\nsrun python train.py --x "$FOO"\n')
    assert "  FOO:" not in _spec(out)
    assert "line 6: export FOO=1 — unset or no longer exported" in _not_mapped(out)
    assert '- "--x"' in _spec(out)  # the batch shell still expands it


def test_a_variable_exported_again_or_unexported_in_a_branch_is_not_claimed(tmp_path: Path) -> None:
    # near misses: exported again after `export -n`, the step sees it; taken out in a branch,
    # whether the step sees it is not known, and said
    again = _trip(tmp_path, "export FOO=1\nexport -n FOO\nexport FOO\nsrun python train.py\n")
    assert 'FOO: "1"' in _spec(again)
    (tmp_path / "branch").mkdir()
    body = 'export FOO=1\nif [ -n "$X" ]; then export -n FOO; fi\nsrun python train.py\n'
    branch = _trip(tmp_path / "branch", body)
    assert 'FOO: "1"' not in _spec(branch)
    assert "{unknown.FOO}" in _spec(branch)
    # `declare -x` (a `-`, not a `+`) exports: it takes nothing out
    (tmp_path / "x").mkdir()
    kept = _trip(tmp_path / "x", "FOO=1\ndeclare -x FOO\nsrun python train.py\n")
    assert 'FOO: "1"' in _spec(kept)


def test_local_outside_a_function_sets_nothing(tmp_path: Path) -> None:
    # bash refuses `local` outside a function (`local: can only be used in a function`) and sets
    # nothing: the program got an empty --lr where the import passed 3
    out = _trip(tmp_path, 'local LR=3\nexport LR\nsrun python train.py --lr "$LR"\n')
    assert '- "3"' not in _spec(out)
    assert "line 6: local LR=3 — `local` outside a function: bash refuses it" in _not_mapped(out)
    # near miss: inside a function the script calls, `local` sets the value the step reads
    (tmp_path / "fn").mkdir()
    body = 'run() {\n  local LR=3\n  srun python train.py --lr "$LR"\n}\nrun\n'
    inside = _trip(tmp_path / "fn", body)
    assert '- "3"' in _spec(inside)
    assert "can only be used in a function" not in _spec(inside)


def test_each_line_not_carried_is_listed_once(tmp_path: Path) -> None:
    out = _trip(tmp_path, "srun python train.py > a.log 2>&1 > a.log\n")
    listed = [line for line in _not_mapped(out).splitlines() if line.startswith("#   line 6: > a.log")]
    assert len(listed) == 1


# --- an import that runs like the script: environment set-up, resilience, where values came from


def test_module_loads_and_a_virtualenv_go_to_setup_and_python_is_the_one_they_put_on_path(
    tmp_path: Path,
) -> None:
    out = _trip(
        tmp_path,
        "module purge\nmodule load cuda/12.1 nccl\nsource $HOME/venvs/train/bin/activate\n"
        'if [ -n "$DEBUG" ]; then module load gdb; fi\nsrun python train.py\n',
    )
    spec = _spec(out)
    setup = spec.split("  setup:\n", 1)[1].split("\n\n", 1)[0]
    assert setup.splitlines() == [
        '    - "module purge"  # line 6',
        '    - "module load cuda/12.1 nccl"  # line 7',
        '    - "source $HOME/venvs/train/bin/activate"  # line 8',
    ]
    assert 'python: "python"  # line 10' in spec
    assert "line 9: module load gdb — in a branch, a loop or a subshell: not carried" in _not_mapped(out)


def test_conda_activation_goes_to_setup(tmp_path: Path) -> None:
    out = _trip(
        tmp_path,
        'ENV=train\neval "$(conda shell.bash hook)"\nconda activate $ENV\nsrun python3 train.py\n',
    )
    spec = _spec(out)
    assert '- "eval \\"$(conda shell.bash hook)\\""  # line 7' in spec
    assert '- "conda activate train"  # line 8' in spec  # the value the script gave, written out
    assert 'python: "python3"  # line 9' in spec


def test_signal_requeue_and_the_traps_intent_become_resilience(tmp_path: Path) -> None:
    head = HEAD + "#SBATCH --signal=B:USR1@300\n#SBATCH --requeue\n"
    out = _trip(
        tmp_path,
        "trap 'scontrol requeue $SLURM_JOB_ID' USR1\nsrun python train.py &\nwait\n",
        head=head,
    )
    spec = _spec(out)
    resilience = spec.split("resilience:\n", 1)[1].split("\n\n", 1)[0]
    assert '  signal: "SIGUSR1"  # line 6' in resilience
    assert "  grace_s: 300  # line 6" in resilience
    assert "  requeue: true  # line 7" in resilience
    out = _trip(
        tmp_path,
        "trap 'scontrol requeue $SLURM_JOB_ID' USR1\nsrun python train.py &\nwait\n",
        head=HEAD + "#SBATCH --signal=B:USR1@300\n",
    )
    assert "  requeue: true  # line 7" in _spec(out)  # the trap's line: it requeues
    assert "line 7: trap 'scontrol requeue $SLURM_JOB_ID' SIGUSR1 — jobc forwards the signal" in _not_mapped(
        out
    )


def test_no_value_without_the_line_it_came_from(tmp_path: Path) -> None:
    out = _trip(
        tmp_path,
        "export HF_HOME=/lustre/cache/hf\nsrun python train.py\n",
        head="#!/bin/bash\n#SBATCH --gpus-per-node=1\n#SBATCH --output=/lustre/logs/%j.out\n",
    )
    spec = _spec(out)
    body = spec.split("# Not mapped")[0]
    for line in body.splitlines():
        if line.startswith(" ") and ": " in line and not line.rstrip().endswith(":"):
            assert "  # " in line, line  # every value says where it came from
    assert "nodes: 1  # sbatch's default: one node (no --nodes or --ntasks)" in spec
    assert '- "/lustre"  # line 3' in spec  # storage.shared, from the log directory's path


def test_an_srun_step_with_no_task_count_runs_one_task_per_node_and_the_import_says_so(
    tmp_path: Path,
) -> None:
    # found by the import fuzz target: a mistyped --ntasks-per-node leaves srun's one task per
    # node, where the spec would start one per GPU
    head = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --ntaer-node=8\n#SBATCH --gpus-per-node=8\n"
    out = _trip(tmp_path, "srun python train.py\n", head=head + "#SBATCH --time=4:00:00\n")
    assert (
        "line 6: srun python train.py — srun's default of 1 task per node: jobc starts 8 per node"
        in _not_mapped(out)
    )


def test_a_setup_line_keeps_its_tilde_unquoted(tmp_path: Path) -> None:
    # `source ~/…` expands the tilde; written back quoted ('~/…') it would source a file named ~
    out = _trip(
        tmp_path, "source ~/miniconda3/etc/profile.d/conda.sh\nconda activate train\nsrun python train.py\n"
    )
    spec = _spec(out)
    assert '- "source ~/miniconda3/etc/profile.d/conda.sh"  # line 6' in spec


@pytest.mark.parametrize(
    "body",
    [
        "cd /home/user; srun python train.py\n",
        "cd /home/user && srun python train.py\n",
        # the step is written above the `cd`, in a function called after it
        "run() {\n  srun python train.py\n}\ncd /home/user\nrun\n",
    ],
)
def test_a_cd_the_batch_shell_runs_before_the_step_is_the_workdir_and_not_listed(
    tmp_path: Path, body: str
) -> None:
    # the workdir came from the `cd`, which was also listed as a change of directory after the
    # training step starts: the one said the other wrong
    out = _trip(tmp_path, body)
    spec = _spec(out)
    assert 'workdir: "/home/user"' in spec
    assert "cd /home/user" not in _not_mapped(out)
    assert out.compiled is not None


def test_a_cd_after_the_step_on_its_line_is_listed_and_sets_no_workdir(tmp_path: Path) -> None:
    # near miss: on the same line, but after the step
    out = _trip(tmp_path, "srun python train.py; cd /home/user\n")
    assert "workdir" not in _spec(out).split("# Not mapped")[0]
    assert "cd /home/user — a change of directory after the training step starts" in _not_mapped(out)


def test_a_setup_line_keeps_the_tilde_bash_expands(tmp_path: Path) -> None:
    # `~/…` written again in quotes (`source '~/envs/a/bin/activate'`) names a directory called
    # `~`: bash expanded it in the script, so the setup line must leave it expandable
    import subprocess

    out = _trip(
        tmp_path,
        "ENVN=a\nCONDA=~/mc\nsource ~/envs/$ENVN/bin/activate\nsource $CONDA/etc/profile.d/conda.sh\n"
        "source ~root/$ENVN.sh\nsource '~/q'$ENVN\nsource x~/$ENVN\nsrun python train.py\n",
    )
    spec = _spec(out)
    lines = [
        line.split('"', 2)[1].replace("\\\\", "\\")
        for line in spec.splitlines()
        if line.startswith('    - "source ')
    ]
    assert lines == [
        "source ~/envs/a/bin/activate",
        "source ~/mc/etc/profile.d/conda.sh",
        "source ~root/a.sh",
        "source '~/qa'",  # quoted in the script: no expansion there either
        "source 'x~/a'",  # not at a word's start: none
    ]
    # bash reads each as the script's line: the same path
    home = subprocess.run(["bash", "-c", "printf %s ~root"], capture_output=True, text=True, check=True)
    said = subprocess.run(
        ["bash", "-c", "source() { printf '%s\\n' \"$1\"; }\n" + "\n".join(lines)],
        capture_output=True,
        text=True,
        check=True,
        env={"HOME": "/h", "PATH": "/usr/bin:/bin"},
    )
    assert said.stdout.split("\n")[:5] == [
        "/h/envs/a/bin/activate",
        "/h/mc/etc/profile.d/conda.sh",
        f"{home.stdout}/a.sh",
        "~/qa",
        "x~/a",
    ]


def test_a_word_after_an_exports_names_is_no_option(tmp_path: Path) -> None:
    # found by the import fuzz target (seed 1501, input 2,419): `export HF_TOKEN=… --gpus-per-node=8`
    # was read as `export -n` (an `n` in a word starting with `-`), so the token was dropped with
    # no word where bash exports it and refuses only the last word; bash reads options only before
    # the first argument
    out = _trip(tmp_path, "export HF_TOKEN=hf_abcdSBATCH --gpus-per-node=8\nsrun python train.py\n")
    listed = _not_mapped(out)
    assert "line 6: export HF_TOKEN=… — left out, JC702" in listed
    assert "line 6: export --gpus-per-node — left out, JC809" in listed
    out = _trip(tmp_path, "export FOO=abc --gpus-per-node=8\nsrun python train.py\n")
    assert 'FOO: "abc"  # line 6' in _spec(out)
    assert "export --gpus-per-node — left out, JC809" in _not_mapped(out)
    # near misses: `-n` as the builtin's option still takes the export away, before the names
    out = _trip(tmp_path, "export FOO=abc\nexport -n FOO\nsrun python train.py\n")
    assert "FOO:" not in _spec(out).split("# Not mapped", 1)[0]
    out = _trip(tmp_path, "export FOO=abc -n\nsrun python train.py\n")
    assert 'FOO: "abc"  # line 6' in _spec(out)


def test_lint_names_the_refused_word_where_it_stands() -> None:
    from jobc.lint.scripts import lint_path

    text = HEAD + "export FOO=abc --gpus-per-node=8\nsrun python train.py\n"
    found = [
        (f.span.line, f.span.col)
        for f in lint_path(Path("job.sh"), data=text.encode()).findings
        if f.code == "JC809"
    ]
    assert found == [(6, 16)]
    # near miss: `-n` as the option, before the names, is no refused name
    text = HEAD + "export FOO=abc\nexport -n FOO\nsrun python train.py\n"
    assert [f for f in lint_path(Path("job.sh"), data=text.encode()).findings if f.code == "JC809"] == []


@pytest.mark.parametrize(
    ("line", "stops"),
    [
        ("set -euo pipefail", True),
        ("set -o errexit", True),
        ("set -ex", True),
        # bash refuses a `set` with a flag or option name it does not have, and sets nothing
        ("set -eu\xb1o pipefail", False),
        ("set -euZ", False),
        ("set -eo nosuchoption", False),
        ("set +e", False),
        ("set -o pipefail", False),
    ],
)
def test_a_cd_under_set_e_stops_the_script_as_bash_reads_set(line: str, stops: bool) -> None:
    # found by the import fuzz target (seed 1701, input 7,149): `set -eu<bytes>o pipefail`, which
    # bash refuses (`set: -…: invalid option`), was read as `set -e`, so the import took the
    # script for one that stops at its failed `cd` and did not say that the compiled job stops
    # there where the script runs on
    from jobc.script.carry import _sets_errexit

    assert _sets_errexit(line) is stops


def test_the_spec_says_the_compiled_job_stops_at_a_cd_the_script_runs_past() -> None:
    from jobc.commands.import_ import render
    from jobc.lint.imported import imported
    from jobc.script.parse import read_bytes

    def spec(set_line: str) -> str:
        text = HEAD + f"{set_line}\ncd /scratch/run\nsrun python train.py\n"
        facts = read_bytes(text.encode(), "job.sh")
        return render(imported(facts), facts)

    said = "the compiled job stops when it cannot enter the directory"
    assert said in spec("set -euZ")  # refused: the script runs on past a failed cd
    assert said not in spec("set -eu")  # near miss: both stop there


def test_a_program_after_the_launchers_double_dash_that_starts_with_a_dash_is_not_carried(
    tmp_path: Path,
) -> None:
    # found by the import fuzz target: after `--`, torchrun takes `--account=x` for its program
    # file; written as launch.program, the compiled launch handed torchrun an option instead
    out = _trip(tmp_path, "srun python3 -m torch.distributed.run --nnodes=2 -- --account=x\n")
    spec = _spec(out)
    assert "program:" not in spec.split("launch:", 1)[1].split("\n\n")[0]
    assert "# Not known: launch.program: line 6 runs --account=x, a name that starts with `-`" in spec
    assert out.unlisted == []
    # near miss: a program file after `--` is the program
    out = _trip(tmp_path, "srun python3 -m torch.distributed.run --nnodes=2 -- train.py --lr 1\n")
    assert 'program: "train.py"  # line 6' in _spec(out)
    assert out.unlisted == []


def test_another_step_that_runs_the_program_by_a_variable_names_it(tmp_path: Path) -> None:
    # found by the import fuzz target: the same `srun … bash -c "$CMD"` line twice runs the program
    # twice as often as the compiled job, which runs the last; the first was listed as another
    # step without saying it runs the same program (the line shows only `$CMD`)
    body = 'CMD="python -u train.py"\nsrun --wait=9 bash -c "$CMD"\nsrun --wait=60 bash -c "$CMD"\n'
    out = _trip(tmp_path, body)
    assert '#   line 7: srun --wait=9 bash -c "$CMD" — another step (it runs train.py); jobc' in _not_mapped(
        out
    )
    # near miss: a step whose program is not known before the job runs is not named
    body = 'srun --wait=9 bash -c "$1"\nsrun --wait=60 python train.py\n'
    out = _trip(tmp_path, body)
    assert '#   line 6: srun --wait=9 bash -c "$1" — another step; jobc' in _not_mapped(out)


def test_fewer_tasks_than_nodes_is_the_task_count_of_nodes_as_sbatch_sets_it(tmp_path: Path) -> None:
    # found by the import fuzz target (seed 4001, input 2,181): `--nodes=4 --ntasks=1`; sbatch
    # cannot run 1 process on 4 nodes and sets the nodes to 1 ("can't run 1 processes on 4 nodes,
    # setting nnodes to 1"): the script's torchrun is one node's, where the import asked for 4
    head = HEAD.replace("--nodes=2\n#SBATCH --ntasks-per-node=4", "--nodes=4\n#SBATCH --ntasks=1")
    body = "srun python3 -m torch.distributed.run --nnodes=$SLURM_JOB_NUM_NODES --nproc_per_node=4 train.py\n"
    out = _trip(tmp_path, body, head)
    assert "nodes: 1  # line 3: #SBATCH --ntasks=1 with #SBATCH --nodes=4 (line 2): sbatch" in _spec(out)
    # near miss: as many tasks as nodes or more leaves the nodes as written
    near = head.replace("--ntasks=1", "--ntasks=4")
    out = _trip(tmp_path, body, near)
    assert "nodes: 4  # line 2" in _spec(out)
