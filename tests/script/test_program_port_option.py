"""JC104 on a rendezvous port given as the program's own option, when no launcher starts it: srun
starts the program on every GPU and the program reads `--master_port=3442` (or the port of its
`--dist-url tcp://HOST:PORT`, `--init_method tcp://…`) as its MASTER_PORT, a port written once for
every job. The finding lands at the port. Near misses: whole nodes, a port derived from the job
id, `env://`, a bare `--port` (any server's), another number, and a launcher's program, whose
rendezvous is the launcher's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.scripts import lint_path

HEAD = "#!/bin/bash\n#SBATCH -N 2\n#SBATCH -t 00:05:00\n"
EXCLUSIVE = HEAD + "#SBATCH --exclusive\n"
SRUN = "srun -N2 -n16 -c7 --gpus-per-task=1 python3 -W ignore -u ./multinode.py 2000 10"


def _jc104(tmp_path: Path, text: str) -> list[tuple[int, int]]:
    path = tmp_path / "job.sh"
    path.write_text(text, encoding="utf-8")
    return [(f.span.line, f.span.col) for f in lint_path(path).findings if f.code == "JC104"]


def _at(text: str, line: int, port: str) -> tuple[int, int]:
    return line, text.splitlines()[line - 1].index(port) + 1


@pytest.mark.parametrize(
    ("body", "line"),
    [
        # pattern seen in: olcf/olcf-user-docs software/analytics/pytorch_frontier.rst
        (f'export MASTER_ADDR=$(hostname -i)\n{SRUN} --master_addr="$MASTER_ADDR" --master_port=3442\n', 5),
        (f"{SRUN} --master-port 3442\n", 4),
        (f'{SRUN} --dist-url "tcp://$(hostname):3442" --epochs 90\n', 4),
        (f"{SRUN} --init_method=tcp://$(hostname -i):3442\n", 4),
        # the port in a variable: at its value
        (f"PORT=3442\n{SRUN} --master_port $PORT\n", 4),
        # the batch shell's own program on one node shares it all the same
        ("python train.py --master_port=3442\n", 4),
    ],
)
def test_a_fixed_port_option_of_the_program_is_jc104_at_the_port(
    tmp_path: Path, body: str, line: int
) -> None:
    text = HEAD + body
    assert _jc104(tmp_path, text) == [_at(text, line, "3442")]


@pytest.mark.parametrize(
    ("head", "body"),
    [
        (EXCLUSIVE, f"{SRUN} --master_port=3442\n"),
        (HEAD, f"{SRUN} --master_port=$((20000 + SLURM_JOB_ID % 9000))\n"),
        (HEAD, f"{SRUN} --dist-url env:// --epochs 3442\n"),
        # a bare --port may be any server's, and other numbers are no port
        (HEAD, f"{SRUN} --port 3442 --seed 29500 --master_port_offset 3442\n"),
        # a launcher's program: the launcher's own options give the rendezvous
        (HEAD, "srun torchrun --nnodes=2 --nproc_per_node=8 train.py --master_port=3442\n"),
    ],
)
def test_whole_nodes_a_derived_port_or_other_options_are_no_jc104(
    tmp_path: Path, head: str, body: str
) -> None:
    assert _jc104(tmp_path, head + body) == []
