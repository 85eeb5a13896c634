"""Reading scripts into facts: directives by sbatch's rules, steps, launchers, where variables expand."""

from __future__ import annotations

from jobc.core.diagnostics import Span
from jobc.script.parse import read_bytes


def facts(text: str, name: str = "job.sh"):  # type: ignore[no-untyped-def]
    return read_bytes(text.encode("utf-8"), name)


def test_directives_long_short_equals_space_and_trailing_comments() -> None:
    f = facts(
        "#!/bin/bash\n"
        "#SBATCH --nodes=2 --time 01:00:00   # two nodes\n"
        "#SBATCH -N4\n"
        "#SBATCH -p batch -A proj # the project\n"
        '#SBATCH --job-name="my job"\n'
        "#SBATCH --exclusive\n"
        "# SBATCH --qos=high\n"
        "#SBATCH --signal=B:USR2@90\n"
        "srun python train.py\n"
    )
    got = [(d.name, d.value, d.span.line, d.span.col) for d in f.directives]
    assert got == [
        ("nodes", "2", 2, 9),
        ("time", "01:00:00", 2, 19),
        ("nodes", "4", 3, 9),
        ("partition", "batch", 4, 9),
        ("account", "proj", 4, 18),
        ("job-name", "my job", 5, 9),
        ("exclusive", None, 6, 9),
        ("signal", "B:USR2@90", 8, 9),
    ]
    # a later directive wins, as in sbatch; "# SBATCH" is a plain comment
    assert f.honoured()["nodes"].value == "4"
    assert "qos" not in f.honoured()


def test_an_option_that_needs_a_value_takes_the_next_word_whatever_it_is() -> None:
    # sbatch's getopt: `--nodes --ntasks=2` asks for the node count "--ntasks=2" (refused), and
    # no ntasks is set; a name sbatch does not know (a plugin's) may be a flag, so `--x --y` is two
    f = facts("#!/bin/bash\n#SBATCH --nodes --ntasks=2\n#SBATCH --my-plugin-flag --time=5\necho\n")
    got = [(d.name, d.value) for d in f.directives]
    assert got == [("nodes", "--ntasks=2"), ("my-plugin-flag", None), ("time", "5")]
    assert "ntasks" not in f.honoured()


def test_only_directives_before_the_first_command_count() -> None:
    f = facts("#!/bin/bash\n#SBATCH -N 2\n\n# a comment\nset -e\n#SBATCH --time=5\nsrun hostname\n")
    assert [(d.name, d.honoured) for d in f.directives] == [("nodes", True), ("time", False)]
    assert f.first_command == Span(5, 1, 5, 7)


def test_heredoc_lines_are_not_directives_and_continuations_join_words() -> None:
    f = facts(
        "#!/bin/bash\n#SBATCH -N 2\ncat > x <<EOF\n#SBATCH --nodes=99\nEOF\n"
        "srun \\\n  python \\\n  train.py --lr 3e-4\n"
    )
    assert [d.value for d in f.directives] == ["2"]
    step = f.main_step
    assert step is not None
    assert step.program is not None
    assert step.program.text == "train.py"
    assert step.program.span == Span(8, 3, 8, 11)
    assert [a.text for a in step.args] == ["--lr", "3e-4"]


def test_srun_options_launcher_options_and_program() -> None:
    f = facts(
        "#!/bin/bash\n"
        "srun -N 2 --ntasks-per-node=1 --cpus-per-task 16 -l \\\n"
        "  python -m torch.distributed.run --nnodes=2 --nproc-per-node 8 --standalone \\\n"
        "  -m pkg.train --epochs 3\n"
    )
    step = f.main_step
    assert step is not None
    assert step.srun is not None
    assert {k: v.text for k, v in step.srun.items()} == {
        "nodes": "2",
        "ntasks-per-node": "1",
        "cpus-per-task": "16",
    }
    assert step.srun_flags == ("label",)
    assert step.launcher is not None
    assert step.launcher.name == "torchrun"
    assert {k: v.text for k, v in step.launcher.options.items()} == {"nnodes": "2", "nproc_per_node": "8"}
    assert "standalone" in step.launcher.flags
    assert step.module is not None
    assert step.module.text == "pkg.train"
    assert [a.text for a in step.args] == ["--epochs", "3"]


def test_where_per_rank_variables_expand() -> None:
    f = facts(
        "#!/bin/bash\n"
        'echo "node $SLURM_NODEID"\n'  # batch shell
        "srun bash -c 'python a.py --rank $SLURM_PROCID'\n"  # inside the step
        'srun bash -c "python b.py --rank \\$SLURM_PROCID"\n'  # escaped: inside the step
        "run() { python c.py --rank $SLURM_PROCID; }\n"  # an exported function's body
        "export -f run\n"
        "srun bash -c run\n"
        "R=$((SLURM_NODEID * 8 + SLURM_LOCALID))\n"  # arithmetic in the batch shell
    )
    batch = [(x.name, x.span.line, x.span.col) for x in f.expansions if x.shell == "batch"]
    step = [(x.name, x.span.line, x.span.col) for x in f.expansions if x.shell == "step"]
    assert batch == [("SLURM_NODEID", 2, 12), ("SLURM_NODEID", 8, 3), ("SLURM_LOCALID", 8, 3)]
    # the escaped one in double quotes reaches the step's shell as $SLURM_PROCID: it expands there
    assert step == [("SLURM_PROCID", 3, 34), ("SLURM_PROCID", 4, 35), ("SLURM_PROCID", 5, 28)]
    assert "run" in f.functions
    # the step that runs the exported function runs its program
    last = f.steps[-1]
    assert last.program is not None
    assert (last.program.text, last.program.span.line) == ("c.py", 5)
    assert [a.raw for a in last.args] == ["--rank", "$SLURM_PROCID"]


def test_accelerate_and_deepspeed_launchers_inside_bash_c() -> None:
    f = facts(
        "#!/bin/bash\n"
        "srun bash -c 'accelerate launch --num_machines 2 --multi_gpu finetune.py --epochs 3'\n"
        "srun deepspeed --num_nodes 2 --num_gpus 8 train_ds.py --deepspeed ds.json\n"
    )
    first, second = f.steps
    assert first.launcher is not None
    assert first.launcher.name == "accelerate"
    assert first.launcher.options["num_machines"].text == "2"
    assert first.launcher.options["num_machines"].span == Span(2, 33, 2, 49)  # option and value
    assert first.program is not None
    assert first.program.text == "finetune.py"
    assert second.launcher is not None
    assert second.launcher.name == "deepspeed"
    assert second.program is not None
    assert second.program.text == "train_ds.py"


def test_exports_traps_background_and_exec() -> None:
    f = facts(
        "#!/bin/bash\n"
        "export A=1 B=$(hostname)\n"
        "C=3\n"
        "export C\n"
        "trap 'kill -TERM $pid' TERM 12\n"
        "srun python train.py &\n"
        "pid=$!\n"
        "wait $pid\n"
        "exec srun python eval.py\n"
    )
    assert [(e.name, e.value, e.exported) for e in f.exports] == [
        ("A", "1", True),
        ("B", None, True),
        ("C", "3", True),
        ("pid", None, False),
    ]
    assert [t.signals for t in f.traps] == [("SIGTERM", "SIGUSR2")]
    assert [(s.background, s.exec_) for s in f.steps] == [(True, False), (False, True)]


def test_positions_count_characters_not_bytes() -> None:
    f = facts("#!/bin/bash\necho 'grüße'; srun python train.py\n")
    step = f.main_step
    assert step is not None
    assert step.span.col == 15  # 17 if bytes were counted (ü and ß are two bytes each)
