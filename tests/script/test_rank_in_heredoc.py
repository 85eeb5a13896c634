"""JC106 in a heredoc the tasks of a step read (`srun bash <<EOF … EOF`): the batch shell expands
an unquoted heredoc once, before srun hands it to any task, so a per-rank variable in it is the
first node's value on every node. Quotes are text in a heredoc and do not stop it; `\\$`, a
quoted delimiter (`<<'EOF'`, `<<"EOF"`, `<<\\EOF`), one node, or a heredoc the batch shell
itself reads (no srun) are near misses."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.scripts import lint_path

HEAD = (
    "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --gpus-per-node=8\n"
    "#SBATCH --time=1:00:00\n#SBATCH --exclusive\n"
)
_TORCHRUN = "torchrun --nnodes=2 --nproc_per_node=8 --master_addr=h --master_port=29500"


def _jc106(tmp_path: Path, body: str, head: str = HEAD) -> list[tuple[int, int]]:
    path = tmp_path / "job.sh"
    path.write_text(head + body, encoding="utf-8")
    return [(f.span.line, f.span.col) for f in lint_path(path).findings if f.code == "JC106"]


@pytest.mark.parametrize(
    ("body", "at"),
    [
        # the node rank a launcher reads, at the `$` of the expansion
        (f"srun bash <<EOF\n{_TORCHRUN} --node_rank=$SLURM_NODEID train.py\nEOF\n", (8, 88)),
        (f"srun bash <<EOF\n{_TORCHRUN} --node_rank=${{SLURM_NODEID}} train.py\nEOF\n", (8, 88)),
        # single quotes are text in a heredoc: bash expands what they hold all the same
        ("srun --ntasks-per-node=8 bash -s <<END\npython train.py --rank '$SLURM_PROCID'\nEND\n", (8, 25)),
        # `<<-` strips the tabs, expands the same; arithmetic counts too
        ("srun bash <<-EOF\n\tpython t.py --rank $((SLURM_NODEID * 8))\n\tEOF\n", (8, 21)),
        # any per-node command reading it: python from its standard input
        ("srun python - <<EOF\nimport os; print($SLURM_PROCID)\nEOF\n", (8, 18)),
        # the launch on a later line of the heredoc, after a line that sets something up
        (f"srun bash <<EOF\ncd /work\n{_TORCHRUN} --node_rank $SLURM_NODEID t.py\nEOF\n", (9, 88)),
    ],
)
def test_a_rank_in_an_unquoted_heredoc_a_step_reads_is_jc106(
    tmp_path: Path, body: str, at: tuple[int, int]
) -> None:
    assert _jc106(tmp_path, body) == [at]


@pytest.mark.parametrize(
    "body",
    [
        # a quoted delimiter: the heredoc is passed as written, each task's shell expands it
        f"srun bash <<'EOF'\n{_TORCHRUN} --node_rank=$SLURM_NODEID train.py\nEOF\n",
        f'srun bash <<"EOF"\n{_TORCHRUN} --node_rank=$SLURM_NODEID train.py\nEOF\n',
        f"srun bash <<\\EOF\n{_TORCHRUN} --node_rank=$SLURM_NODEID train.py\nEOF\n",
        # escaped: left for the task's shell
        f"srun bash <<EOF\n{_TORCHRUN} --node_rank=\\$SLURM_NODEID train.py\nEOF\n",
        # a longer name is no per-rank variable
        "srun bash <<EOF\npython train.py --ranks $SLURM_PROCIDS\nEOF\n",
        # the batch shell itself reads it: one shell, on the first node, where the value is its own
        "bash <<EOF\necho $SLURM_NODEID > node.txt\nEOF\nsrun python train.py\n",
    ],
)
def test_a_quoted_or_escaped_heredoc_or_none_a_step_reads_is_no_jc106(tmp_path: Path, body: str) -> None:
    assert _jc106(tmp_path, body) == []


def test_on_one_node_the_batch_shell_s_node_id_is_every_rank_s(tmp_path: Path) -> None:
    body = f"srun bash <<EOF\n{_TORCHRUN} --node_rank=$SLURM_NODEID train.py\nEOF\n"
    assert _jc106(tmp_path, body, HEAD.replace("--nodes=2", "--nodes=1")) == []
    # but a task's own rank is not the node's
    body = "srun --ntasks-per-node=8 bash <<EOF\npython train.py --rank $SLURM_PROCID\nEOF\n"
    assert _jc106(tmp_path, body, HEAD.replace("--nodes=2", "--nodes=1")) == [(8, 24)]


def test_on_one_node_the_batch_shell_s_gpus_are_the_node_s(tmp_path: Path) -> None:
    # pattern seen in: danieldager/SMBS slurm/train.slurm (the GPU count read in the batch shell)
    body = (
        'NUM_GPUS=$(echo $SLURM_STEP_GPUS | tr "," "\\n" | wc -l)\n'
        "torchrun --nnodes=1 --nproc_per_node=$NUM_GPUS train.py\n"
    )
    assert _jc106(tmp_path, body, HEAD.replace("--nodes=2", "--nodes=1")) == []
    # on two nodes with GPUs asked per node, each node has as many as the first: the count is
    # every node's (which GPUs they are is not)
    assert _jc106(tmp_path, body) == []
    # near miss: a total of GPUs, which Slurm may spread over the two nodes unevenly
    assert _jc106(tmp_path, body, HEAD.replace("--gpus-per-node=8", "--gpus=16")) == [(7, 1)]


@pytest.mark.parametrize(
    ("body", "listed"),
    [
        # the heredoc is the shell's commands: read as the step, so not listed at all
        ("srun bash <<EOF\npython train.py\nEOF\n", None),
        # a program reading its input from a file or a heredoc: listed as its input
        ("srun python train.py < inputs.txt\n", "line 7: < inputs.txt — the step reads its standard input"),
        ("srun python - <<EOF\nprint(1)\nEOF\n", "line 7: <<EOF — the step reads its standard input"),
        # near miss: its output to a file is still its output
        ("srun python train.py > out.log\n", "line 7: > out.log — the step's output goes to this file"),
    ],
)
def test_a_step_s_input_is_listed_as_its_input(body: str, listed: str | None) -> None:
    from jobc.commands.import_ import render
    from jobc.lint.imported import imported
    from jobc.script.parse import read_bytes

    facts = read_bytes((HEAD + body).encode(), "job.sh")
    spec = render(imported(facts), facts)
    footer = spec.split("# Not mapped from the script:", 1)[-1] if "# Not mapped" in spec else ""
    assert "output goes to this file" not in footer.replace(listed or "\0", "")
    if listed is None:
        assert "<<EOF" not in footer
    else:
        assert listed in footer


@pytest.mark.parametrize(
    ("body", "at"),
    [
        # a file the batch shell writes from an unquoted heredoc, then every task runs
        (
            f"cat > run.sh <<EOF\n{_TORCHRUN} --node_rank=$SLURM_NODEID train.py\nEOF\nsrun bash run.sh\n",
            [(8, 88)],
        ),
        (
            f"cat <<EOF > ./run.sh\n{_TORCHRUN} --node_rank=$SLURM_NODEID train.py\nEOF\n"
            "srun bash ./run.sh > out.log 2>&1\n",
            [(8, 88)],
        ),
        # near misses: written as is (`<<'EOF'`), or run once by the batch shell itself
        (
            f"cat > run.sh <<'EOF'\n{_TORCHRUN} --node_rank=$SLURM_NODEID train.py\nEOF\nsrun bash run.sh\n",
            [],
        ),
        ("cat > run.sh <<EOF\npython train.py --node $SLURM_NODEID\nEOF\nbash run.sh\n", []),
    ],
)
def test_a_rank_in_a_file_written_from_a_heredoc_every_task_runs(
    tmp_path: Path, body: str, at: list[tuple[int, int]]
) -> None:
    assert _jc106(tmp_path, body) == at
