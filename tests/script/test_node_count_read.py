"""The job's nodes counted from its node list (`N=$(scontrol show hostnames "$SLURM_JOB_NODELIST" |
wc -l)`) are the nodes the script asks for: a condition on N is decided as one on
`$SLURM_JOB_NUM_NODES` is, also past `N=${NUM_NODES:-$N}` and past an `if` whose only arm that sets N
never runs. Near misses: another count (`nvidia-smi -L | wc -l`) and a job whose nodes are not
fixed stay undecided."""

from __future__ import annotations

import pytest

from jobc.script.facts import runs
from jobc.script.parse import read_bytes

HEAD = "#!/bin/bash\n#SBATCH --nodes={nodes}\n#SBATCH --gres=gpu:8\n#SBATCH --time=1:00:00\n"
COUNT = 'num_nodes=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | wc -l)\n'
IF = "if [ $num_nodes -gt 1 ]; then\n  srun python a.py\nelse\n  python b.py\nfi\n"


def _runs(text: str) -> dict[str, bool | None]:
    facts = read_bytes(text.encode(), "job.sh")
    return {s.program.text if s.program is not None else "?": runs(s) for s in facts.steps}


@pytest.mark.parametrize(
    "between",
    [
        "",
        "num_nodes=${NUM_NODES:-$num_nodes}\n",
        # pattern seen in: princeton-nlp/ProLong train_64K.sh
        "if [ $num_nodes == 0 ]; then\n  num_nodes=1\nfi\nnum_nodes=${NUM_NODES:-$num_nodes}\n",
        "N2=`scontrol show hostname $SLURM_NODELIST | wc -l`\n",
    ],
)
@pytest.mark.parametrize(("nodes", "a", "b"), [(1, False, True), (4, True, False)])
def test_the_hosts_counted_are_the_nodes_asked_for(between: str, nodes: int, a: bool, b: bool) -> None:
    got = _runs(HEAD.format(nodes=nodes) + COUNT + between + IF)
    assert got == {"a.py": a, "b.py": b}


@pytest.mark.parametrize(
    ("head", "count"),
    [
        (HEAD.format(nodes=1), "num_nodes=$(nvidia-smi -L | wc -l)\n"),
        ("#!/bin/bash\n#SBATCH --nodes=1-4\n#SBATCH --gres=gpu:8\n", COUNT),
    ],
)
def test_another_count_or_nodes_not_fixed_stay_undecided(head: str, count: str) -> None:
    assert _runs(head + count + IF) == {"a.py": None, "b.py": None}
