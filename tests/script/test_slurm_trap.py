"""JC802 on a real cluster: Slurm's `--signal=B:…` reaches the batch shell while srun runs.

With the step in the foreground the shell's trap runs only once the step has ended; with the step
in the background and `wait`, the trap runs while the step still runs. The order of the two
events is what is checked (each script records when its trap ran and when its step ended), with
the signal sent by Slurm itself ahead of a short time limit.
"""

from __future__ import annotations

from pathlib import Path

from jobc.lint.config import Config
from jobc.lint.scripts import lint_path
from tests.support.cluster import SlurmCluster
from tests.support.slurm_jobs import job_log

# the local test cluster writes each job's log into the test's own temporary directory, under
# /tmp on the one machine: JC701 rightly says a real node's /tmp is its own, which is not what
# these tests are about
_LOCAL_LOGS = Config(ignore=["JC701"])

# Waits for a job are bounded by what it may run (--time=2 minutes) plus time for Slurm to
# schedule and end it, not by a guess of how fast a busy machine is.
LIMIT_S = 2 * 60 + 180
HEADER = """\
#!/bin/bash
#SBATCH --job-name={name}
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --mem=0
#SBATCH --partition=debug
#SBATCH --time=00:02:00
#SBATCH --signal=B:USR2@110
#SBATCH --output={out}/%x.out

trap 'date +%s.%N > {out}/{name}.trap' USR2
"""
# the step outlives the moment Slurm sends the signal (10 s after the start, at its next check)
STEP = "srun bash -c 'sleep 50; date +%s.%N > {out}/{name}.end'"
FOREGROUND = HEADER + STEP + "\n"
BACKGROUND = HEADER + STEP + ' &\nstep=$!\nwait "$step"\nwait "$step"\n'


def _times(out: Path, name: str) -> tuple[float, float]:
    return float((out / f"{name}.trap").read_text()), float((out / f"{name}.end").read_text())


def test_a_trap_waits_for_a_foreground_step_and_not_for_a_background_one(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    scripts = {}
    for name, template in (("fg", FOREGROUND), ("bg", BACKGROUND)):
        path = tmp_path / f"{name}.sh"
        path.write_text(template.format(name=name, out=out), encoding="utf-8")
        scripts[name] = path
    assert [f.code for f in lint_path(scripts["fg"], config=_LOCAL_LOGS).findings] == ["JC802"]
    assert [f.code for f in lint_path(scripts["bg"], config=_LOCAL_LOGS).findings] == []

    for path in scripts.values():
        jobs.append(slurm_cluster.sbatch(path, cwd=tmp_path))
    for job in jobs:
        assert slurm_cluster.wait(job, LIMIT_S) == "COMPLETED", job_log(out)
    trap, end = _times(out, "fg")
    assert trap >= end  # the trap ran only after the step had ended
    trap, end = _times(out, "bg")
    assert trap < end  # the trap ran while the step still ran
