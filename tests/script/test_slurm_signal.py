"""JC807 and JC808 on a real cluster: where Slurm's `--signal` goes with and without `B:`.

Without `B:` the signal reaches the job step's processes and never the batch shell, so a trap in
the batch script does not run. With `B:` and no trap in the batch script, the shell dies of the
signal: the lines after the step never run and the step never gets the signal. Each script
records which of its traps ran (and with what) in files; the signal is sent by Slurm itself ahead
of a short time limit.
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

# Waits for a job are bounded by what it may run (--time=4 minutes) plus time for Slurm to
# schedule and end it, not by a guess of how fast a busy machine is.
LIMIT_S = 4 * 60 + 180
HEADER = """\
#!/bin/bash
#SBATCH --job-name={name}
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --mem=0
#SBATCH --partition=debug
#SBATCH --time=00:04:00
#SBATCH --signal={signal}@180
#SBATCH --output={out}/%x.out

"""
# the step records each signal it gets and ends on the first one; it waits for it as long as the
# job may run (it used to give up after 90 s, before Slurm's signal came on a busy machine). The
# signal comes about a minute in, not 10 s: Slurm sends a step's signal only to steps that exist
# then, and on a loaded machine srun had not always started the step 10 s after the job began.
STEP = (
    'srun bash -c \'for s in USR2 TERM; do trap "echo $s >> {out}/{name}.step; exit 0" $s; done; '
    "sleep 600 & wait'\n"
    "date +%s > {out}/{name}.after\n"
)
TO_STEPS = HEADER + "trap 'echo USR2 > {out}/{name}.batch' USR2\n" + STEP
UNTRAPPED = HEADER + STEP


def test_without_b_the_step_gets_the_signal_and_with_b_an_untrapped_shell_dies(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    scripts = {
        "steps": (TO_STEPS, "USR2", ["JC807"]),
        "untrapped": (UNTRAPPED, "B:USR2", ["JC808"]),
    }
    ids = {}
    for name, (template, signal, codes) in scripts.items():
        path = tmp_path / f"{name}.sh"
        path.write_text(template.format(name=name, out=out, signal=signal), encoding="utf-8")
        assert [f.code for f in lint_path(path, config=_LOCAL_LOGS).findings] == codes
        ids[name] = slurm_cluster.sbatch(path, cwd=tmp_path)
        jobs.append(ids[name])
    states = {name: slurm_cluster.wait(job, LIMIT_S) for name, job in ids.items()}
    record = slurm_cluster.job(ids["untrapped"])
    log = job_log(out)

    # no B:: the step got USR2 and the script went on; the batch shell's trap never ran
    assert states["steps"] == "COMPLETED", log
    assert (out / "steps.step").read_text().split() == ["USR2"], log
    assert (out / "steps.after").is_file(), log
    assert not (out / "steps.batch").exists(), log

    # B: and no trap: the shell died of USR2 before the time limit (FAILED, not TIMEOUT), the
    # step never saw USR2 (at most the SIGTERM of the job's end) and the line after it never ran
    assert states["untrapped"] == "FAILED", log
    assert record.get("ExitCode") == "0:12", record
    assert "USR2" not in _lines(out / "untrapped.step"), log
    assert not (out / "untrapped.after").exists(), log


def _lines(path: Path) -> list[str]:
    return path.read_text().split() if path.exists() else []
