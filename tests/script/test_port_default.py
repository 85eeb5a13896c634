"""A MASTER_PORT set only when the environment leaves it unset (`export MASTER_PORT=${MASTER_PORT:-29500}`,
`: "${MASTER_PORT:=29500}"`, `if [ -z "$MASTER_PORT" ]; then MASTER_PORT=29500; fi`, `[ -n
"$MASTER_PORT" ] || …`): the script sets it nowhere before, so the default is the port the job uses,
a fixed one (JC104) on nodes that are not exclusive; a port derived from the job id is not."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.scripts import lint_path

# source: the form of an accelerate job on two nodes started from the batch shell (no srun)
HEAD = (
    "#!/bin/bash\n"
    "#SBATCH --nodes=2\n"
    "#SBATCH --gres=gpu:4\n"
    "#SBATCH --time=10:00:00\n"
    "{exclusive}"
    "export MASTER_ADDR=$(scontrol show hostnames $SLURM_JOB_NODELIST | head -n 1)\n"
)
LAUNCH = (
    "accelerate launch --multi_gpu --num_machines 2 --num_processes 8 --machine_rank 0 "
    "--main_process_ip $MASTER_ADDR --main_process_port $MASTER_PORT train.py\n"
)
DEFAULTS = [
    "export MASTER_PORT=${MASTER_PORT:-29500}\n",
    ': "${MASTER_PORT:=29500}"\n',
    'if [ -z "$MASTER_PORT" ]; then\n  MASTER_PORT=29500\nfi\n',
    "if [[ -z $MASTER_PORT ]]; then MASTER_PORT=29500; fi\n",
    '[ -n "$MASTER_PORT" ] || MASTER_PORT=29500\n',
]


def _ports(text: str) -> list[int]:
    findings = lint_path(Path("job.sh"), data=text.encode()).findings
    return [f.span.line for f in findings if f.code == "JC104"]


@pytest.mark.parametrize("default", DEFAULTS)
def test_a_default_port_is_the_fixed_port_the_job_uses(default: str) -> None:
    lines = _ports(HEAD.format(exclusive="") + default + LAUNCH)
    assert lines, default
    # on the line that writes 29500
    assert all(6 <= line <= 8 for line in lines), lines


@pytest.mark.parametrize(
    "default",
    [
        'if [ -z "$MASTER_PORT" ]; then MASTER_PORT=$((10000 + SLURM_JOB_ID % 50000)); fi\n',
        "export MASTER_PORT=${MASTER_PORT:-$((10000 + SLURM_JOB_ID % 50000))}\n",
        # set before the test: the test does not choose the port
        'MASTER_PORT=$(shuf -i 20000-30000 -n 1)\nif [ -z "$MASTER_PORT" ]; then MASTER_PORT=29500; fi\n',
        # a file jobc cannot read may set it
        'source /etc/site/env.sh\nif [ -z "$MASTER_PORT" ]; then MASTER_PORT=29500; fi\n',
    ],
)
def test_a_derived_or_possibly_set_port_is_no_finding(default: str) -> None:
    assert _ports(HEAD.format(exclusive="") + default + LAUNCH) == []


def test_whole_nodes_take_the_default_port_safely() -> None:
    # near miss: exclusive nodes, where a fixed port collides with nothing
    assert _ports(HEAD.format(exclusive="#SBATCH --exclusive\n") + DEFAULTS[2] + LAUNCH) == []


@pytest.mark.parametrize(
    ("setup", "fires"),
    [
        # pattern seen in: HPC-TUE/multi-gpu example_accelerate/jobs (start-up files and a venv first)
        (". /etc/bashrc\n. ~/.bashrc\nsource ./venv/bin/activate\n", True),
        ("source ~/miniconda3/etc/profile.d/conda.sh\n", True),
        # near miss: a file of the job's own, which jobc cannot read, may set the port
        ("source ./site_env.sh\n", False),
    ],
)
def test_shell_setup_files_set_no_port(tmp_path: Path, setup: str, fires: bool) -> None:
    path = tmp_path / "job.sh"
    default = 'if [ -z "$MASTER_PORT" ]; then\n  MASTER_PORT=29500\nfi\n'
    path.write_text(HEAD.format(exclusive="") + setup + default + LAUNCH)
    assert ("JC104" in [f.code for f in lint_path(path).findings]) is fires
