"""What a script leaves unknown stays in the imported spec as unknown, said where it belongs: an
argument computed when the job runs keeps its place (and fails lint until written), GPUs the script
never asked for are 0 with the reason (or, on whole nodes whose GPUs come without a request, the
processes per node the script starts, said), and `: "${X:=8}"` defaults are followed."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from jobc.commands.import_ import render
from jobc.lint.imported import imported
from jobc.lint.pipeline import lint_file
from jobc.script.parse import read


def _import(tmp_path: Path, body: str) -> tuple[str, list[tuple[str, str]]]:
    script = tmp_path / "job.sh"
    script.write_text(textwrap.dedent(body), encoding="utf-8")
    facts = read(script)
    text = render(imported(facts), facts)
    spec = tmp_path / "spec.yaml"
    spec.write_text(text, encoding="utf-8")
    return text, [(f.code, f.message) for f in lint_file(spec).findings]


def test_an_argument_computed_when_the_job_runs_keeps_its_place(tmp_path: Path) -> None:
    text, findings = _import(
        tmp_path,
        """\
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=4
        #SBATCH --gpus-per-node=4
        #SBATCH --time=1:00:00
        DATA=$(realpath data)
        srun python train.py --data "$DATA/{split}" --nodes "$SLURM_NNODES" --seed 1 "$@"
        """,
    )
    args = text.split("  args:\n", 1)[1].split("\n\n", 1)[0]
    assert [line.split("  #")[0].strip() for line in args.splitlines()] == [
        '- "--data"',
        '- "{unknown.DATA}/{{split}}"',
        '- "--nodes"',
        '- "{resources.nodes}"',
        '- "--seed"',
        '- "1"',
        '- "{unknown.args}"',
    ]
    assert '# Not known: launch.args: line 7 passes "$DATA/{split}"' in text
    assert "the script's own arguments" in text
    codes = sorted(code for code, _ in findings)
    assert codes == ["JC008", "JC008"]
    assert all("the imported script computed only when the job ran" in m for _, m in findings)


def test_no_gpu_request_and_one_task_per_node_is_zero_gpus_with_its_reason(tmp_path: Path) -> None:
    text, findings = _import(
        tmp_path,
        """\
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=1
        #SBATCH --time=1:00:00
        srun python cpu_job.py
        """,
    )
    assert "gpus_per_node: 0  # the script asks for no GPUs" in text
    assert "the compiled job asks for" not in text
    assert findings == []


def test_srun_tasks_per_node_without_a_gpu_request_are_its_gpus_said(tmp_path: Path) -> None:
    # whole nodes (NGC, AWS) whose GPUs come without a request: one task per GPU
    text, findings = _import(
        tmp_path,
        """\
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=4
        #SBATCH --exclusive
        #SBATCH --time=1:00:00
        srun python train.py
        """,
    )
    assert "gpus_per_node: 4  # line 3: srun's 4 tasks per node" in text
    assert "# jobc: resources.gpus_per_node: the script asks Slurm for no GPUs; line 3 starts 4" in text
    assert "the compiled job asks for 4 GPUs per node" in text
    assert findings == []


def test_a_launchers_processes_without_a_gpu_request_are_its_gpus_said(tmp_path: Path) -> None:
    text, findings = _import(
        tmp_path,
        """\
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --exclusive
        #SBATCH --time=1:00:00
        GPUS_PER_NODE=8
        srun torchrun --nnodes 2 --nproc_per_node $GPUS_PER_NODE --rdzv_backend c10d \\
            --rdzv_endpoint "$(hostname)" train.py
        """,
    )
    assert "gpus_per_node: 8  # line 5: torchrun --nproc_per_node 8, one process per GPU" in text
    assert "the script asks Slurm for no GPUs; line 5 starts 8 processes per node" in text
    assert "Not known: resources.gpus_per_node" not in text
    assert findings == []


def test_accelerates_processes_over_its_machines_are_the_gpus_per_node(tmp_path: Path) -> None:
    text, _ = _import(
        tmp_path,
        """\
        #!/bin/bash
        #SBATCH --nodes=3
        #SBATCH --ntasks-per-node=1
        GPUS_PER_NODE=4
        M=$((SLURM_NNODES - 1))
        srun bash -c "accelerate launch --num_processes $((M * GPUS_PER_NODE)) --num_machines $M train.py"
        """,
    )
    assert "gpus_per_node: 4  # line 6: accelerate --num_processes $((M * GPUS_PER_NODE)) over" in text


def test_no_request_and_no_whole_node_is_zero_gpus_whatever_the_program_counts(tmp_path: Path) -> None:
    # source: NVIDIA/physicsnemo examples/cfd/external_aerodynamics/globe/airfrans/run.sh (the form)
    # the job asks for no GPUs and not for the whole node: Slurm gives it none, and the count the
    # program finds when it runs does not change what the job asks; said (the whole node's case,
    # `--exclusive`, is the near miss below)
    text, _ = _import(
        tmp_path,
        """\
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=1
        #SBATCH --time=1:00:00
        N=$(nvidia-smi -L | wc -l)
        srun torchrun --nnodes 2 --nproc_per_node "$N" --rdzv_backend c10d --rdzv_endpoint "$(hostname)" \\
            train.py
        """,
    )
    assert "gpus_per_node: 0  # the script asks for no GPUs" in text
    assert "# jobc: resources.gpus_per_node 0: the script asks Slurm for no GPUs, and line 6" in text
    assert "Not known: resources.gpus_per_node" not in text


def test_a_launchers_process_count_it_cannot_read_leaves_gpus_unknown(tmp_path: Path) -> None:
    # near miss: the count is computed when the job runs, so it stays unknown and is said
    text, findings = _import(
        tmp_path,
        """\
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --exclusive
        #SBATCH --time=1:00:00
        srun torchrun --nnodes 2 --nproc_per_node "$(nvidia-smi -L | wc -l)" --rdzv_backend c10d \\
            --rdzv_endpoint "$(hostname)" train.py
        """,
    )
    assert "gpus_per_node" not in text.split("# Not known")[-1].split("resources:")[1].split("launch:")[0]
    assert "# Not known: resources.gpus_per_node: the script asks Slurm for no GPUs, and line 5" in text
    assert [code for code, _ in findings] == ["JC003"]


def test_colon_defaults_are_followed_into_the_arguments(tmp_path: Path) -> None:
    text, findings = _import(
        tmp_path,
        """\
        #!/bin/bash
        #SBATCH --nodes=1
        #SBATCH --ntasks-per-node=2
        #SBATCH --gpus-per-node=2
        : "${NUM_LAYERS:=36}"
        : ${HIDDEN:=4096}
        srun python pretrain.py --num-layers $NUM_LAYERS --hidden "$HIDDEN"
        """,
    )
    assert '- "36"  # line 5' in text
    assert '- "4096"  # line 6' in text
    assert 'line 5: : "${NUM_LAYERS:=36}" — sets defaults of variables' in text
    assert findings == []


def test_a_container_value_the_batch_shell_computes_is_never_written_as_its_variable(
    tmp_path: Path,
) -> None:
    text, findings = _import(
        tmp_path,
        """\
        #!/bin/bash
        #SBATCH --nodes=1
        #SBATCH --ntasks-per-node=2
        #SBATCH --gpus-per-node=2
        : "${IMAGE:=$(realpath .)/train.sqsh}"
        srun --container-image "$IMAGE" --container-mounts=$HOME/data:/data,/fsx:/fsx python train.py
        """,
    )
    assert 'image: "{unknown.value}"  # line 5' in text
    assert '- "{unknown.HOME}/data:/data"  # line 6' in text
    assert '- "/fsx:/fsx"  # line 6' in text
    assert "$HOME" not in text.split("# Not known")[-1].split("\n", 1)[1].split("# Not mapped")[0]
    assert [code for code, _ in findings] == ["JC008", "JC008"]


def test_a_step_inside_what_the_grammar_read_only_in_part_is_said_so(tmp_path: Path) -> None:
    # tree-sitter reads a thousand nested subshells only in part (JC800, info): the import never
    # claims the script starts no step
    script = tmp_path / "nested.sh"
    body = "(" * 1000 + "srun python train.py" + ")" * 1000
    script.write_text(f"#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --time=1:00:00\n{body}\n", encoding="utf-8")
    facts = read(script)
    assert len(facts.problems) == 1  # where reading stumbled; info when bash accepts the script
    text = render(imported(facts), facts)
    assert "# Not known: launch.program: jobc read line 4 only in part (JC800)" in text
    assert "starts no step" not in text


def test_an_srun_option_set_on_one_path_only_keeps_the_step_readable(tmp_path: Path) -> None:
    text, _ = _import(
        tmp_path,
        """\
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=1
        #SBATCH --gpus-per-node=8
        #SBATCH --time=1:00:00
        AUTO_RESUME=""
        if [ -d "/opt/sagemaker_cluster" ]; then
            AUTO_RESUME="--auto-resume=1"
        fi
        srun ${AUTO_RESUME} -l torchrun --nproc_per_node=8 --nnodes=2 train.py --steps 10
        """,
    )
    assert 'program: "train.py"  # line 10' in text
    assert "line 10: srun ${AUTO_RESUME} — srun options the script adds on some paths only" in text


def test_a_value_set_differently_on_two_paths_is_unknown_not_the_last_one_written(
    tmp_path: Path,
) -> None:
    text, findings = _import(
        tmp_path,
        """\
        #!/bin/bash
        #SBATCH --nodes=1
        #SBATCH --ntasks-per-node=8
        #SBATCH --gres=gpu:8
        case "$MODE" in
          small) ZERO=2 ;;
          *) ZERO=3 ;;
        esac
        srun python train.py --zero_stage "$ZERO"
        """,
    )
    assert '- "{unknown.ZERO}"  # line 9' in text
    assert [code for code, _ in findings] == ["JC008"]


def test_an_export_on_some_paths_only_is_unknown_not_the_last_value_written(tmp_path: Path) -> None:
    text, findings = _import(
        tmp_path,
        """\
        #!/bin/bash
        #SBATCH --nodes=1
        #SBATCH --ntasks-per-node=8
        #SBATCH --gres=gpu:8
        export HF_HUB_OFFLINE=1
        if [ -n "$FAST" ]; then
          export NCCL_ALGO=Ring
          export OMP_NUM_THREADS=4
        else
          export NCCL_ALGO=Tree
        fi
        srun python train.py
        """,
    )
    env = text.split("\nenv:\n", 1)[1].split("\n\n", 1)[0]
    assert '  HF_HUB_OFFLINE: "1"  # line 5' in env
    assert '  NCCL_ALGO: "{unknown.NCCL_ALGO}"  # line 7' in env
    assert '  OMP_NUM_THREADS: "{unknown.OMP_NUM_THREADS}"  # line 8' in env
    assert "Tree" not in env
    assert [code for code, _ in findings] == ["JC008", "JC008"]


_CPU_JOB = """\
    #!/bin/bash
    #SBATCH --nodes=2
    #SBATCH --exclusive
    #SBATCH --time=1:00:00
    {directive}
    {export}
    srun {runner} --nnodes 2 --nproc_per_node 4 --rdzv_backend c10d --rdzv_endpoint "$(hostname)" \\
        ddp.py {args}
    """


def _cpu_job(directive: str = "", export: str = "", runner: str = "torchrun", args: str = "") -> str:
    return _CPU_JOB.format(directive=directive, export=export, runner=runner, args=args)


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (_cpu_job(args="--backend gloo"), "line 7: --backend gloo; the job runs on CPUs"),
        (_cpu_job(args="--dist-backend=gloo"), "line 7: --dist-backend gloo"),
        (_cpu_job(args="--device cpu"), "line 7: --device cpu"),
        (_cpu_job(args="trainer.accelerator=cpu"), "line 7: trainer.accelerator cpu"),
        (_cpu_job(directive="#SBATCH --partition=cpu-long"), "line 5: #SBATCH --partition=cpu-long"),
        (_cpu_job(directive="#SBATCH --constraint=cpus"), "line 5: #SBATCH --constraint=cpus"),
        (_cpu_job(export='export CUDA_VISIBLE_DEVICES=""'), "line 6: CUDA_VISIBLE_DEVICES set empty"),
        (_cpu_job(runner="./pt_cpu/bin/torchrun"), "an environment named for CPUs"),
        # NERSC Cori's CPU nodes, asked for by their architecture alone
        (_cpu_job(directive="#SBATCH -C haswell"), "line 5: #SBATCH -C haswell (nodes named for their CPUs)"),
        (_cpu_job(directive="#SBATCH --constraint=milan|rome"), "nodes named for their CPUs"),
    ],
)
def test_a_script_that_shows_it_runs_on_cpus_keeps_zero_gpus(tmp_path: Path, body: str, said: str) -> None:
    text, _ = _import(tmp_path, body)
    assert "gpus_per_node: 0  # " in text
    assert said in text
    assert "one process per GPU" not in text


@pytest.mark.parametrize(
    "body",
    [
        _cpu_job(args="--backend nccl"),
        _cpu_job(args="--device cuda"),
        _cpu_job(directive="#SBATCH --partition=gpu"),
        _cpu_job(directive="#SBATCH --constraint=cpuset"),
        _cpu_job(directive="#SBATCH --constraint=skylake&v100"),  # a GPU node named with its CPU
        _cpu_job(export="export CUDA_VISIBLE_DEVICES=0,1,2,3"),
        _cpu_job(runner="./pt_gpu/bin/torchrun"),
        _cpu_job(args="--data /scratch/cpu/set"),
    ],
)
def test_near_misses_of_cpu_signs_keep_the_processes_as_gpus(tmp_path: Path, body: str) -> None:
    # near miss each way: a GPU backend or device, a name without the word cpu, a path that is the
    # program's data and not its environment
    text, _ = _import(tmp_path, body)
    assert "gpus_per_node: 4  # line 7: torchrun --nproc_per_node 4, one process per GPU" in text


# every form bash sets a variable by that the reader does not evaluate: after `export B=1`, each
# leaves B something else (bash says so below), never the 1 the import carried before
_UNEVALUATED = [
    "read B <<< 5",
    "read -r A B <<< '4 5'",
    "IFS=, read -ra B <<< '5,6'",
    "for B in 4 5; do :; done",
    "select B in 5; do break; done <<< 1",
    "printf -v B '%s' 5",
    "let B=5",
    "let 'B += 4'",
    "((B=5))",
    "((B++))",
    ": $((B=5))",
    "X=$((B*=5))",
    "declare -i B=2+3",
    "mapfile B <<< 5",
    "readarray -t B <<< 5",
    "getopts ab B",
    "while read B; do :; done <<< 5",
]


@pytest.mark.parametrize("form", _UNEVALUATED)
def test_a_variable_set_by_a_form_jobc_does_not_evaluate_is_unknown_not_its_old_value(
    tmp_path: Path, form: str
) -> None:
    import subprocess

    ran = subprocess.run(
        ["bash", "-c", f'export B=1\n{form}\nprintf %s "$B"'], capture_output=True, text=True, check=False
    )
    assert ran.stdout != "1", ran  # the form does change B (`while read` leaves it empty)
    text, findings = _import(
        tmp_path,
        "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --time=1:00:00\nexport B=1\n"
        f'{form}\nsrun python train.py --b "$B"\n',
    )
    spec = text.split("# Not mapped")[0]
    assert 'B: "{unknown.B}"' in spec, text
    assert '"1"' not in spec, text
    assert "# Not known: env.B: line 5 sets it with `" in text, text
    assert "which jobc does not evaluate" in text
    assert any(code == "JC008" for code, _ in findings), findings  # lint fails until it is written


@pytest.mark.parametrize(
    "form",
    [
        "B=5",  # an assignment jobc evaluates
        "echo 5 | read B",  # read in a pipeline's subshell: B stays 1 in the batch shell
        "X=$(read B <<< 5; echo x)",  # in a command substitution's subshell likewise
        "declare -i B=5",  # an integer written in digits is that integer
        "((C=B+1))",  # B is read, C is set
    ],
)
def test_near_misses_of_unevaluated_forms_keep_the_value_bash_leaves(tmp_path: Path, form: str) -> None:
    import subprocess

    ran = subprocess.run(
        ["bash", "-c", f'export B=1\n{form}\nprintf %s "$B"'], capture_output=True, text=True, check=False
    )
    text, _ = _import(
        tmp_path,
        "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --time=1:00:00\nexport B=1\n"
        f'{form}\nsrun python train.py --b "$B"\n',
    )
    assert f'B: "{ran.stdout}"' in text.split("# Not mapped")[0], text
    assert "which jobc does not evaluate" not in text


@pytest.mark.parametrize(
    ("srun", "listed"),
    [
        # source: katiekeegan/PDFParameterInference slurm_ddp.sh (the form): a task count from a
        # variable the script computes, 4 torchrun agents per node where the spec starts one
        ("srun --nodes=$SLURM_NNODES --ntasks=$WORLD_SIZE", ["srun --ntasks=$WORLD_SIZE"]),
        # found by the import fuzz target (seed 10701, input 118): a `?` makes the value a glob,
        # which bash keeps as written when no file matches, and srun refuses
        ("srun --ntasks=2 --ntasks-per-node=1?", ["srun --ntasks-per-node=1?"]),
        # near miss: the allocation's own sizes, as the spec's step gets them
        ('srun -N "$SLURM_NNODES" --ntasks-per-node=$SLURM_NTASKS_PER_NODE', []),
    ],
)
def test_a_step_size_jobc_cannot_read_is_listed(tmp_path: Path, srun: str, listed: list[str]) -> None:
    text, _ = _import(
        tmp_path,
        f"""\
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=1
        #SBATCH --gpus-per-node=4
        #SBATCH --time=1:00:00
        WORLD_SIZE=$(($SLURM_NNODES * 4))
        {srun} torchrun --nnodes=2 --nproc_per_node=4 train.py
        """,
    )
    said = [
        line.split(" — ")[0].split(": ", 1)[1]
        for line in text.splitlines()
        if "a count jobc cannot read" in line
    ]
    assert said == listed
