"""Hand-written sbatch scripts on the local Slurm cluster (2 nodes × 2 fake GPUs): each runs as it
is, then is imported, compiled and run again, and every rank must be the same rank both ways."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from jobc.commands.import_ import render
from jobc.compile import compile_batch
from jobc.lint.config import Config
from jobc.lint.imported import imported
from jobc.lint.pipeline import lint_file
from jobc.lint.scripts import lint_path
from jobc.script.parse import read
from tests.support.cluster import SlurmCluster
from tests.support.slurm_jobs import job_log, submit

# the local test cluster writes each job's log into the test's own temporary directory, under
# /tmp on the one machine: JC701 rightly says a real node's /tmp is its own, which is not what
# these tests are about
_LOCAL_LOGS = Config(ignore=["JC701"])

RECORDER = Path(__file__).with_name("record_identity.py")
NODES, GPUS = 2, 2

# Waits for a job are bounded by what it may run (--time=5 minutes) plus time for Slurm to
# schedule and end it, not by a guess of how fast a busy machine is.
LIMIT_S = 5 * 60 + 180
HEADER = """\
#!/bin/bash
#SBATCH --job-name={name}
#SBATCH --nodes=2
#SBATCH --ntasks-per-node={tasks}
#SBATCH --gpus-per-node=2
#SBATCH --cpus-per-task=1
#SBATCH --mem=0
#SBATCH --partition=debug
#SBATCH --time=00:05:00
#SBATCH --exclusive
#SBATCH --output={logs}/%x-%j.out

export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
"""

SRUN_NATIVE = (
    HEADER
    + """\
export MASTER_PORT=29517
srun {python} {recorder} {out} --lr 0.5 "two words"
"""
)

# torchrun's default (static) rendezvous: each node's rank read inside the step, not in this shell
TORCHRUN = (
    HEADER
    + """\
srun bash -c '{python} -m torch.distributed.run --nnodes=2 --nproc_per_node=2 \\
  --node_rank=$SLURM_NODEID --master_addr=$MASTER_ADDR --master_port=29518 \\
  {recorder} {out} --lr 0.5 "two words"'
"""
)


def _identities(out: Path) -> dict[int, dict[str, Any]]:
    found = {}
    for path in out.glob("rank-*.json"):
        record = json.loads(path.read_text(encoding="utf-8"))
        found[record["rank"]] = record
    return found


def _run(
    cluster: SlurmCluster, jobs: list[int], script: str, cwd: Path, *, out: Path, logs: Path
) -> dict[int, Any]:
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    job = submit(cluster, jobs, script, cwd)
    state = cluster.wait(job, LIMIT_S)
    assert state == "COMPLETED", f"{state}\n{job_log(logs)}"
    return _identities(out)


@pytest.mark.parametrize("kind", ["srun-native", "torchrun"])
def test_script_and_its_import_give_every_rank_the_same_identity(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path, kind: str
) -> None:
    out, logs = tmp_path / "out", tmp_path / "logs"
    logs.mkdir()
    template = SRUN_NATIVE if kind == "srun-native" else TORCHRUN
    text = template.format(
        name=f"hand-{kind}",
        tasks=GPUS if kind == "srun-native" else 1,
        logs=logs,
        python=sys.executable,
        recorder=RECORDER,
        out=out,
    )
    script = tmp_path / "hand.sh"
    script.write_text(text, encoding="utf-8")
    # the hand-written script is clean: nothing for jobc to report
    assert lint_path(script, config=_LOCAL_LOGS).findings == []

    by_script = _run(slurm_cluster, jobs, text, tmp_path, out=out, logs=logs)
    world = NODES * GPUS
    assert sorted(by_script) == list(range(world))

    facts = read(script)
    spec = tmp_path / "hand.yaml"
    spec.write_text(render(imported(facts), facts), encoding="utf-8")
    result = lint_file(spec)
    assert not result.errors, result.errors
    assert result.context is not None
    assert result.context.spec.launch.mode == ("srun" if kind == "srun-native" else "torchrun")
    by_spec = _run(slurm_cluster, jobs, compile_batch(result.context), tmp_path, out=out, logs=logs)

    assert by_spec == by_script
    for rank, record in by_script.items():
        node, local = divmod(rank, GPUS)
        assert (record["local_rank"], record["world_size"]) == (local, world)
        assert record["host"] == slurm_cluster.node_names[node]
        assert record["master_addr"] == slurm_cluster.node_names[0]
        assert record["argv"] == ["--lr", "0.5", "two words"]
