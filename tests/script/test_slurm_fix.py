"""`jobc lint --fix` on a real cluster: a broken hand-written script, run as written and fixed.

The script has three classic mistakes: the node rank is expanded by the batch shell inside a
double-quoted `bash -c` (JC106), so every node is told it is node 0; an `#SBATCH` line after the
first command (JC801), which sbatch ignores; and `--signal` without `B:` while the batch shell
traps the signal to tell the program to checkpoint (JC807), so the warning goes straight to the
program, which does not handle it, and the trap never runs. The program records, on every rank,
the node rank it was given and the node it runs on, and a checkpoint when its checkpoint signal
(SIGUSR1, which the trap forwards through srun) arrives. What the ranks wrote is the evidence,
before and after.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from jobc.cli import main
from jobc.lint.config import Config
from jobc.lint.scripts import lint_path
from tests.support.cluster import SlurmCluster

# the local test cluster writes each job's log into the test's own temporary directory, under
# /tmp on the one machine: JC701 rightly says a real node's /tmp is its own, which is not what
# these tests are about
_LOCAL_LOGS = Config(ignore=["JC701"])

PROGRAM = Path(__file__).with_name("await_checkpoint.py")

# Waits for a job are bounded by what it may run (--time=2 minutes 40) plus time for Slurm to
# schedule and end it, not by a guess of how fast a busy machine is.
LIMIT_S = 160 + 180
# Slurm may send the --signal warning up to 60 s before the time it names: 40 s before a limit of
# 160 s, the warning comes 60 s after the start at the earliest, when every rank has long written
# its record and set its handler, even on a loaded machine (a warning 10 s in came before that)
BROKEN = """\
#!/bin/bash
#SBATCH --job-name={name}
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=1
#SBATCH --mem=0
#SBATCH --partition=debug
#SBATCH --time=00:02:40
#SBATCH --signal=USR2@40
mkdir -p {out}
#SBATCH --output={logs}/%x-%j.out

# the program checkpoints on SIGUSR1: turn Slurm's warning into one for the step
trap 'echo "time limit near: asking the step to checkpoint"; kill -USR1 "$step"' USR2
srun bash -c "{python} {program} {out} --node-rank=$SLURM_NODEID" &
step=$!
wait "$step"
wait "$step"
"""


def _records(out: Path, kind: str) -> dict[str, dict[str, Any]]:
    return {
        p.stem.split("-", 1)[1]: json.loads(p.read_text(encoding="utf-8")) for p in out.glob(f"{kind}-*.json")
    }


def _run_side_by_side(cluster: SlurmCluster, jobs: list[int], scripts: dict[str, Path]) -> dict[str, str]:
    # Both jobs run at once (each takes one CPU of each node), so the test waits for one time
    # limit, not two; the jobs write to directories of their own.
    ids = {}
    for name, script in scripts.items():
        ids[name] = cluster.sbatch(script, cwd=script.parent)
        jobs.append(ids[name])
    # as long as a job may run: its time limit, and Slurm's kill wait after it
    return {name: cluster.wait(job, LIMIT_S) for name, job in ids.items()}


def test_fix_makes_every_rank_know_its_node_and_the_checkpoint_signal_arrive(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    runs = {}
    for name in ("broken", "fixed"):
        out, logs = tmp_path / name / "out", tmp_path / name / "logs"
        out.mkdir(parents=True)
        logs.mkdir()
        script = tmp_path / name / "job.sh"
        script.write_text(
            BROKEN.format(name=name, out=out, logs=logs, python=sys.executable, program=PROGRAM),
            encoding="utf-8",
        )
        runs[name] = (script, out, logs)
    broken, fixed = runs["broken"][0], runs["fixed"][0]
    assert {"JC106", "JC801", "JC807"} <= {f.code for f in lint_path(broken, config=_LOCAL_LOGS).findings}

    assert main(["lint", str(fixed), "--fix", "--ignore", "JC701"]) == 0
    assert lint_path(fixed, config=_LOCAL_LOGS).findings == []
    text = fixed.read_text(encoding="utf-8")
    assert "#SBATCH --signal=B:USR2@40\n" in text
    assert '--node-rank=\\$SLURM_NODEID" &' in text
    assert text.index("#SBATCH --output=") < text.index("mkdir -p")

    states = _run_side_by_side(slurm_cluster, jobs, {name: run[0] for name, run in runs.items()})
    for name, (script, out, logs) in runs.items():
        state = states[name]
        log = "\n".join(p.read_text(errors="replace") for p in sorted(logs.glob("*.out")))
        identities = _records(out, "rank")
        assert sorted(identities) == ["0", "1"], (name, state, log)
        told = sorted(r["node_rank"] for r in identities.values())
        truth = sorted(r["slurm_nodeid"] for r in identities.values())
        hosts = {r["host"] for r in identities.values()}
        assert truth == ["0", "1"]
        assert hosts == set(slurm_cluster.node_names)
        checkpoints = _records(out, "checkpoint")
        if name == "broken":
            # every node was told it is node 0; the warning went to the program, which it ended
            # without a checkpoint; the trap never ran; the log went where sbatch puts it
            assert told == ["0", "0"], identities
            assert checkpoints == {}, (state, checkpoints)
            assert not list(logs.glob("*.out"))
            assert list(script.parent.glob("slurm-*.out"))
        else:
            # each rank was told its own node, and each got its checkpoint signal from the trap
            assert told == ["0", "1"], identities
            assert all(r["node_rank"] == r["slurm_nodeid"] for r in identities.values())
            assert checkpoints == {"0": {"signal": "SIGUSR1"}, "1": {"signal": "SIGUSR1"}}, (state, log)
            assert "time limit near: asking the step to checkpoint" in log
