"""The script corpus: every finding at its line and column, and every script imported, compiled
and compared with what the script itself asks for."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from jobc.commands.import_ import render
from jobc.compile import compile_batch
from jobc.lint.imported import imported
from jobc.lint.pipeline import lint_file
from jobc.lint.scripts import lint_path
from jobc.script.parse import read, read_bytes
from jobc.script.spec import gpus_per_node
from jobc.tables import launchers

CORPUS = Path(__file__).with_name("corpus")

# (code, line, column) of every finding, per script
EXPECTED: dict[str, list[tuple[str, int, int]]] = {
    "accelerate.sh": [],
    "accelerate_launcher_var.sh": [("JC104", 19, 5)],
    "data_prep_python.sh": [],
    "deepspeed_hostfile.sh": [],
    "dist_launch_use_env.sh": [],
    "echo_diagnostics.sh": [],
    "endpoint_variable.sh": [("JC104", 22, 36)],
    "nemo_heredoc_pyxis.sh": [],
    "singularity_exec.sh": [],
    "fsdp_var.sh": [("JC401", 9, 36)],
    "function_launch.sh": [("JC804", 15, 8)],
    "gpus_per_task_typed.sh": [],
    "heredoc_cmd.sh": [],
    "lightning_num_nodes.sh": [("JC804", 8, 42)],
    "lightning_srun.sh": [],
    "localhost_var.sh": [("JC806", 9, 11)],
    "megatron_launch_string.sh": [("JC102", 6, 9)],
    "mpirun_pytorch.sh": [],
    "packed_sweep.sh": [],
    "sized_step.sh": [],
    "srun_cmd_two_tasks.sh": [("JC102", 4, 9)],
    "standalone_one_node.sh": [],
    "torchtitan_style.sh": [("JC104", 19, 34)],
    "trap_bash_script.sh": [("JC802", 11, 1)],
    "unexported_port.sh": [("JC104", 9, 13)],
    "uv_sync_in_step.sh": [("JC504", 8, 15)],
    "vit_arrays.sh": [("JC804", 14, 20), ("JC701", 18, 43)],
    "array_dependency.sh": [("JC110", 6, 9), ("JC110", 7, 9)],
    "array_sweep.sh": [],
    "bare_torchrun.sh": [("JC805", 7, 1)],
    "bom.sh": [("JC811", 1, 1)],
    "container_directive.sh": [("JC501", 6, 9), ("JC816", 6, 34)],
    "dos_line_breaks.sh": [("JC810", 1, 12)],
    "exec_cleanup.sh": [("JC803", 7, 1)],
    "exec_trap.sh": [("JC807", 7, 1), ("JC803", 8, 1)],
    "exported_function.sh": [],
    "fixed_port.sh": [("JC104", 8, 20)],
    "heredoc_continuations.sh": [],
    "job.csh": [("JC800", 1, 1)],
    "late_directive.sh": [("JC801", 6, 1)],
    "literal_secret.sh": [("JC702", 7, 17)],
    "local_cache.sh": [("JC701", 8, 16)],
    "localhost.sh": [("JC806", 8, 20), ("JC806", 9, 81)],
    "megatron_gpt.sh": [],
    "nccl_env.sh": [
        ("JC401", 8, 36),
        ("JC402", 10, 27),
        ("JC404", 11, 19),
        ("JC406", 12, 24),
        ("JC407", 13, 21),
    ],
    "no_shebang.sh": [("JC812", 1, 1)],
    "no_time.sh": [("JC108", 5, 1)],
    "node_rank_batch.sh": [("JC106", 9, 57)],
    "output_home.sh": [("JC107", 6, 9), ("JC107", 7, 9)],
    "pmix_container.sh": [("JC505", 6, 6)],
    "pyxis.sh": [],
    "requeue_no_signal.sh": [("JC601", 6, 9)],
    "signal_right.sh": [],
    "signal_to_steps.sh": [("JC807", 11, 1), ("JC104", 14, 52)],
    "signal_untrapped.sh": [("JC808", 6, 9)],
    "signal_wrong.sh": [("JC802", 11, 1)],
    "sigusr1.sh": [("JC604", 6, 9)],
    "size_mismatch.sh": [("JC804", 9, 15), ("JC804", 9, 26)],
    "srun_native.sh": [],
    "srun_one_task.sh": [("JC101", 3, 9)],
    "stray_fi.sh": [("JC800", 9, 1)],
    "suppressed.sh": [],
    "torchrun_per_gpu.sh": [("JC102", 3, 9)],
    "torchrun_srun.sh": [],
    "train_with_directives.py": [("JC800", 1, 1)],
    "unterminated.sh": [("JC404", 6, 19), ("JC800", 7, 6)],
    "uv_stampede.sh": [("JC504", 8, 1)],
    "value_refused.sh": [("JC809", 2, 9), ("JC809", 5, 9), ("JC809", 7, 8)],
    # real scripts from public repositories (each names its source at the top)
    "aws_cpu_ddp.sbatch": [("JC108", 8, 1)],
    "aws_fsdp.sbatch": [("JC108", 9, 1), ("JC404", 32, 19)],
    "aws_megatron.sbatch": [("JC108", 12, 1), ("JC407", 56, 34), ("JC404", 57, 19)],
    "aws_mpt_composer.sbatch": [("JC108", 13, 1), ("JC407", 34, 34), ("JC404", 35, 19)],
    "aws_picotron.sbatch": [("JC108", 10, 1)],
    "aws_stable_diffusion.sbatch": [("JC108", 14, 1), ("JC404", 30, 19)],
    "csc_accelerate_wrapper.sh": [],
    "csc_deepspeed_srun.sh": [],
    "csc_dist_standalone.sh": [],
    "csc_dist_two_nodes.sh": [("JC104", 16, 18)],
    "csc_lightning_torchrun.sh": [("JC104", 16, 18)],
    "hf_accelerate_fsdp.sh": [("JC104", 34, 5)],
    "hf_accelerate_multinode.sh": [("JC104", 32, 5)],
    # --signal=SIGINT@60 without B:, and `python …` run by the batch shell: no step gets it
    "nersc_signal_requeue.sh": [("JC815", 5, 9)],
    "srun_assignment.sh": [("JC817", 10, 6)],
    "ngc_pyxis_sh_c.sh": [],
    "nodestest_dist_launch.sh": [("JC813", 13, 1)],
    "nugraph_conda.sh": [],
    "pytorch_ddp_tutorial.sh": [("JC108", 8, 1), ("JC104", 24, 31)],
    "pytorch_mingpt.sh": [("JC108", 8, 1), ("JC104", 23, 31)],
    "stas_accelerate_launcher.slurm": [],
    "stas_lightning_launcher.slurm": [],
    "stas_srun_launcher.slurm": [],
    "stas_torchrun_launcher.slurm": [],
    # `#!/bin/sh –l`: an en dash, as the tutorial's page has it; the job fails at once
    "ulhpc_horovod_mpirun.sh": [("JC814", 1, 11)],
}
SCRIPTS = sorted(p for p in CORPUS.iterdir() if p.is_file())  # annotated/ has its own test
# (nodes, GPUs per node, launch mode, program or "-m module", arguments) the import writes; None
# where the import must leave the value out (it could not be read, and is never guessed)
IMPORTED: dict[str, tuple[int, int, str | None, str | None, list[str] | None]] = {
    "accelerate_launcher_var.sh": (
        2,
        4,
        "torchrun",
        "complete_nlp_example.py",
        ["--mixed_precision", "fp16", "--output_dir", "/lustre/runs/nlp"],
    ),
    "data_prep_python.sh": (
        2,
        8,
        "srun",
        "scripts/train.py",
        ["configs/olmo-1b.yaml", "--save_folder=/lustre/ckpt/olmo"],
    ),
    "deepspeed_hostfile.sh": (
        2,
        8,
        "torchrun",
        "train_bert.py",
        ["--deepspeed", "--deepspeed_config", "ds_config.json"],
    ),
    "dist_launch_use_env.sh": (1, 4, "torchrun", "main.py", ["--model", "deit_small", "--batch-size", "256"]),
    "echo_diagnostics.sh": (2, 4, "srun", "train.py", []),
    "endpoint_variable.sh": (
        2,
        4,
        "torchrun",
        "train_ddp.py",
        ["--epochs", "100", "--batch-size", "2048", "--base-lr", "0.04"],
    ),
    "nemo_heredoc_pyxis.sh": (
        4,
        8,
        "srun",
        "examples/nlp/language_modeling/megatron_gpt_pretraining.py",
        ["trainer.num_nodes={resources.nodes}", "trainer.devices=8", "model.tensor_model_parallel_size=4"],
    ),
    "singularity_exec.sh": (1, 4, "srun", "train.py", ["--epochs", "3"]),
    "function_launch.sh": (2, 4, "torchrun", "train.py", ["--config", "base.yaml"]),
    "gpus_per_task_typed.sh": (1, 4, "srun", "train.py", ["--epochs", "30"]),
    "heredoc_cmd.sh": (2, 8, "torchrun", "pretrain.py", ["--steps", "1000"]),
    "lightning_srun.sh": (
        2,
        4,
        "srun",
        "train.py",
        ["--trainer.num_nodes", "2", "--trainer.devices", "4", "--trainer.strategy", "ddp"],
    ),
    "megatron_launch_string.sh": (
        2,
        8,
        "torchrun",
        "pretrain_gpt.py",
        [
            "--num-layers",
            "24",
            "--hidden-size",
            "1024",
            "--num-attention-heads",
            "16",
            "--seq-length",
            "1024",
            "--bf16",
        ],
    ),
    "mpirun_pytorch.sh": (2, 4, "srun", "train_ddp.py", ["--epochs", "10"]),
    "srun_cmd_two_tasks.sh": (2, 4, "torchrun", "train.py", []),
    "standalone_one_node.sh": (1, 2, "torchrun", "ddp_example.py", ["--batch_size", "64"]),
    "torchtitan_style.sh": (
        4,
        8,
        "torchrun",
        "./train.py",
        ["--job.config_file", "./train_configs/llama3_8b.toml"],
    ),
    # a wrapper run once from the batch shell on 4 GPUs: torchrun inferred (and said so)
    "trap_bash_script.sh": (1, 4, "torchrun", None, None),
    "uv_sync_in_step.sh": (2, 8, "srun", "train.py", []),
    # real scripts from public repositories
    # no GPU request, and its job name (cpu-ddp) and environment (pt_cpu) say it runs on CPUs:
    # torchrun's 4 processes per node are no GPUs
    "aws_cpu_ddp.sbatch": (2, 0, "torchrun", "ddp.py", ["50", "10"]),
    "aws_fsdp.sbatch": (  # srun ${AUTO_RESUME}: an srun option on one path, nothing on the other
        4,
        8,  # torchrun starts 8 per node without a GPU request (whole nodes): 8 GPUs, said
        "torchrun",
        "./train.py",
        [
            *("--max_context_width=4096", "--num_key_value_heads=32", "--intermediate_size=11008"),
            *("--hidden_width=4096", "--num_layers=32", "--num_heads=32", "--model_type=llama_v2"),
            *("--tokenizer=hf-internal-testing/llama-tokenizer", "--checkpoint_freq=5000"),
            *("--validation_freq=500", "--max_steps=5000", "--checkpoint_dir=./checkpoints"),
            *("--dataset=c4", "--dataset_config_name=en", "--resume_from_checkpoint=./checkpoints"),
            *("--train_batch_size=1", "--val_batch_size=1", "--sharding_strategy=full"),
            "--offload_activations=1",  # the array's `# 7b: …` comments are no arguments
        ],
    ),
    "aws_megatron.sbatch": (
        24,
        8,
        "torchrun",
        "/workspace/Megatron-LM/pretrain_gpt.py",
        [
            *("--tensor-model-parallel-size", "8", "--pipeline-model-parallel-size", "4"),
            *("--num-layers", "36", "--hidden-size", "4096", "--num-attention-heads", "32"),
            *("--seq-length", "2048", "--max-position-embeddings", "2048"),
            *("--micro-batch-size", "1", "--global-batch-size", "288"),
            *("--train-samples", "146484375", "--lr-decay-samples", "126953125"),
            *("--lr-warmup-samples", "183105", "--lr", "6.0e-5", "--min-lr", "6.0e-6"),
            *("--lr-decay-style", "cosine", "--log-interval", "1", "--eval-iters", "40"),
            *("--eval-interval", "1000", "--data-path", "/fsx/my-gpt2_text_document"),
            *("--vocab-file", "/fsx/gpt2-vocab.json", "--merge-file", "/fsx/gpt2-merges.txt"),
            *("--split", "98,2,0", "--clip-grad", "1.0", "--weight-decay", "0.1"),
            *("--adam-beta1", "0.9", "--adam-beta2", "0.95", "--init-method-std", "0.006"),
            *("--fp16", "--recompute-activations"),
        ],
    ),
    "aws_mpt_composer.sbatch": (
        2,
        8,
        "torchrun",
        "/llm-foundry/scripts/train/train.py",
        [
            "/llm-foundry/scripts/train/yamls/pretrain/{unknown.MODEL}.yaml",  # MODEL=${1:-mpt-7b}
            "data_local=/fsx/c4-dataset",
            "train_loader.dataset.split=train_small",
            "eval_loader.dataset.split=val_small",
            "max_duration=3ba",
            "eval_interval=0",
            "save_folder={unknown.MODEL}",
        ],
    ),
    "aws_picotron.sbatch": (
        2,
        1,  # GPUS_PER_NODE=1 processes per node, no GPU request: said
        "torchrun",
        "/picotron/train.py",
        ["--config", "{unknown.PWD}/conf/llama-1B-tp2/config.json"],
    ),
    "aws_stable_diffusion.sbatch": (
        2,
        8,
        "torchrun",
        "benchmark.py",
        ["--use_ema", "--use_synth_data", "--device_train_microbatch_size", "4"],
    ),
    # srun accelerate.sh: a wrapper, its mode inferred from one task per node of 4 GPUs
    "csc_accelerate_wrapper.sh": (2, 4, "torchrun", None, None),
    "csc_deepspeed_srun.sh": (
        2,
        4,
        "srun",
        "mnist_deepspeed.py",
        ["--epochs=100", "--deepspeed", "--deepspeed_config", "ds_config.json"],
    ),
    # the program is the script's $*; the launcher is in the text, and with it the mode
    "csc_dist_standalone.sh": (1, 4, "torchrun", None, None),
    "csc_dist_two_nodes.sh": (2, 4, "torchrun", None, None),
    "csc_lightning_torchrun.sh": (
        2,
        4,
        "torchrun",
        "mnist_lightning_ddp.py",
        ["--gpus=4", "--nodes=2", "--epochs=100"],
    ),
    "hf_accelerate_fsdp.sh": (
        4,
        4,
        "torchrun",
        "/accelerate/examples/complete_nlp_example.py",
        ["--mixed_precision", "fp16", "--output_dir", "/accelerate/examples/output"],
    ),
    "hf_accelerate_multinode.sh": (4, 4, "torchrun", None, None),  # runs $PYTHON_FILE, never set
    "nersc_signal_requeue.sh": (  # python $SCRATCH/…: the file kept, its directory unknown
        1,
        4,
        "srun",
        "{unknown.SCRATCH}/CT_NVAE/experimental/test_signal_interrupt.py",
        [],
    ),
    "ngc_pyxis_sh_c.sh": (1, 2, "srun", "02_mnist_dp.py", ["--epochs=10"]),
    "nodestest_dist_launch.sh": (1, 8, "torchrun", "main.py", []),
    "nugraph_conda.sh": (1, 1, "srun", "scripts/train.py", ["{unknown.args}"]),
    "pytorch_ddp_tutorial.sh": (4, 1, "torchrun", "/shared/examples/multinode_torchrun.py", ["50", "10"]),
    "pytorch_mingpt.sh": (2, 1, "torchrun", "/shared/examples/mingpt/main.py", []),
    "stas_accelerate_launcher.slurm": (2, 8, "torchrun", "torch-distributed-gpu-test.py", []),
    "stas_lightning_launcher.slurm": (2, 8, "srun", "torch-distributed-gpu-test.py", []),
    "stas_srun_launcher.slurm": (2, 8, "srun", "torch-distributed-gpu-test.py", []),
    "stas_torchrun_launcher.slurm": (2, 8, "torchrun", "my_train_script.py", []),
    "ulhpc_horovod_mpirun.sh": (2, 4, "srun", "test_horovod.py", []),
    "vit_arrays.sh": (
        2,
        4,
        "torchrun",
        "train_vit.py",
        ["--model", "vit_b_16", "--output-dir", "/tmp/vit", "--epochs", "90"],
    ),
}
READABLE = [
    p
    for p in SCRIPTS
    if read(p).readable
    and (step := read(p).main_step) is not None
    and (step.program or step.module) is not None
    and (step.program or step.module).literal  # type: ignore[union-attr]
]


def _imported_fields(path: Path) -> tuple[int, int, str | None, str | None, list[str] | None]:
    data = imported(read(path)).data
    resources, launch = data["resources"], data["launch"]
    target = launch.get("program") or (f"-m {launch['module']}" if "module" in launch else None)
    return (
        resources.get("nodes", 1),
        resources.get("gpus_per_node", 0),
        launch.get("mode"),
        target,
        launch.get("args") if target is not None else None,
    )


def test_the_corpus_scores_every_script_in_lint_and_import() -> None:
    """One score over the corpus: each script's findings at their lines, and its import's fields."""
    wrong: list[str] = []
    for path in SCRIPTS:
        got = [(f.code, f.span.line, f.span.col) for f in lint_path(path, display=path.name).findings]
        if got != EXPECTED[path.name]:
            wrong.append(f"lint {path.name}: {got} != {EXPECTED[path.name]}")
    for name, want in IMPORTED.items():
        have = _imported_fields(CORPUS / name)
        if have != want:
            wrong.append(f"import {name}: {have} != {want}")
    total = len(SCRIPTS) + len(IMPORTED)
    assert not wrong, f"{total - len(wrong)} of {total} right:\n" + "\n".join(wrong)
    assert len(SCRIPTS) >= 40


def test_the_corpus_is_what_the_table_describes() -> None:
    assert sorted(p.name for p in SCRIPTS) == sorted(EXPECTED)
    assert len(SCRIPTS) >= 20
    assert sum(1 for v in EXPECTED.values() if not v) >= 5  # clean scripts of several styles


def test_every_script_rule_and_every_fed_spec_rule_has_a_script() -> None:
    from jobc.lint.rules import RULES

    found = {code for findings in EXPECTED.values() for code, _, _ in findings}
    # JC103 and JC109 need a cluster profile: tested below with --profile; JC120-JC123 a live
    # cluster: tests/lint/rules/test_live.py and the test cluster
    wanted = {
        c
        for c, rule in RULES.items()
        if rule.script_check is not None and c not in ("JC103", "JC109") and not c.startswith("JC12")
    }
    wanted |= {c for c in RULES if c.startswith("JC8")}
    assert wanted <= found, sorted(wanted - found)


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_findings_at_line_and_column(path: Path) -> None:
    result = lint_path(path, display=path.name)
    got = [(f.code, f.span.line, f.span.col) for f in result.findings]
    assert got == EXPECTED[path.name], [(f.code, f.span.line, f.message) for f in result.findings]
    assert all(f.file == path.name for f in result.findings)


def _compiled_program(script: str) -> list[str]:
    for line in script.splitlines():
        if line.startswith("jobc_program=("):
            return shlex.split(line.removeprefix("jobc_program=(").removesuffix(")"))
    raise AssertionError("no jobc_program line in the compiled script")


@pytest.mark.parametrize("path", READABLE, ids=lambda p: p.name)
def test_import_round_trip(path: Path, tmp_path: Path) -> None:
    facts = read(path)
    derived = imported(facts)
    spec = tmp_path / "spec.yaml"
    spec.write_text(render(derived, facts), encoding="utf-8")
    result = lint_file(spec)
    script_codes = {f.code for f in lint_path(path).findings}
    spec_codes = {f.code for f in result.findings}
    # what the script left unknown fails the spec's lint, each with a finding that names it
    left = [f for f in result.findings if f.code in ("JC108", "JC008", "JC003")]
    if left:
        for f in left:
            if f.code == "JC108":
                # no time limit in the script; jobc cannot invent one, and says so the same way
                assert "JC108" in script_codes
            elif f.code == "JC008":
                # a value computed when the job ran keeps its place as {unknown.NAME}
                assert "the imported script computed" in f.message
            else:
                assert "gpus_per_node" in f.message  # a launcher's processes, no GPU request
        assert not [f for f in result.errors if f not in left], [(f.code, f.message) for f in result.errors]
        if "JC003" not in spec_codes:  # a schema error stops the rules that would say JC108
            assert "JC108" not in script_codes or "JC108" in spec_codes
        return
    # the script's pitfalls are gone from the imported spec, and the import adds no error; but
    # for what the job runs, kept as the script runs it and said so (the program, the signal the
    # program is warned with)
    kept = {code for note in derived.notes for code in re.findall(r"although (JC\d{3})", note)}
    assert not (spec_codes & script_codes) - kept, [(f.code, f.message) for f in result.findings]
    assert not result.errors, [(f.code, f.message) for f in result.errors]
    assert result.context is not None
    compiled = compile_batch(result.context)
    got = read_bytes(compiled.encode(), "compiled.sh")
    # the compiled script's batch shell traps the signal Slurm sends it, and traps nothing in vain
    compiled_path = tmp_path / "compiled.sh"
    compiled_path.write_text(compiled, encoding="utf-8")
    signal_codes = {f.code for f in lint_path(compiled_path).findings} & {"JC807", "JC808"}
    assert not signal_codes, signal_codes
    want, have = facts.honoured(), got.honoured()
    left_out = {u.line for u in derived.unmapped}
    for name in ("nodes", "partition", "account", "time"):
        if name in want and want[name].span.line in left_out:
            continue  # a pitfall (JC107: `--account=$USER`), listed as not mapped
        mine = want[name].value if name in want else ("1" if name == "nodes" else None)
        assert mine == (have[name].value if name in have else None), name
    if derived.added:
        # the script asked Slurm for no GPUs and its processes per node were read as its GPUs:
        # the compiled job asks for them, as the import said
        assert gpus_per_node(got)[0] == derived.data["resources"]["gpus_per_node"]
    else:
        assert gpus_per_node(facts)[0] == gpus_per_node(got)[0]
    step = facts.main_step
    assert step is not None
    target = step.module or step.program
    assert target is not None
    program = _compiled_program(compiled)
    if step.module is not None:
        assert program[:2] == ["-m", target.text]
        rest = program[2:]
    else:
        assert program[0] == target.text
        rest = program[1:]
    # the same arguments (one computed when the job ran would have failed lint above; Slurm's
    # allocation variables are the spec values they equal)
    assert len(rest) == len(step.args)
    for have_arg, arg in zip(rest, step.args, strict=True):
        if arg.literal:
            assert have_arg == arg.text
        else:
            assert "$" not in have_arg, have_arg
    # tasks: one per GPU (srun) or per node (torchrun); a CPU job keeps the script's own count
    tasks = have["ntasks-per-node"].value
    gpus = gpus_per_node(facts)[0]
    entry = launchers.entry(step.launcher.name) if step.launcher is not None else None
    if entry is not None and entry.per_node:
        assert tasks == "1"
    elif gpus:
        assert tasks == str(gpus)
    else:
        assert tasks == (want["ntasks-per-node"].value if "ntasks-per-node" in want else "1")


@pytest.mark.parametrize("path", READABLE, ids=lambda p: p.name)
def test_import_names_the_source_line_of_each_value(path: Path) -> None:
    facts = read(path)
    derived = imported(facts)
    text = render(derived, facts)
    nodes = facts.honoured().get("nodes")
    if nodes is not None and nodes.span.line not in {u.line for u in derived.unmapped}:
        assert f"nodes: {int(nodes.value or 1)}  # line {nodes.span.line}" in text
    step = facts.main_step
    assert step is not None
    target = step.module or step.program
    assert target is not None
    assert f"# line {target.span.line}" in text


def test_import_lists_what_it_did_not_map(tmp_path: Path) -> None:
    facts = read(CORPUS / "node_rank_batch.sh")
    text = render(imported(facts), facts)
    tail = text.split("# Not mapped from the script:\n", 1)[1]
    assert "#   line 8: export MASTER_ADDR=$(scontrol" in tail
    assert "#   line 9: $SLURM_NODEID — a per-rank variable; jobc computes it inside each rank" in tail
    assert "torchrun --master_port=29500" in tail


def test_import_leaves_out_what_the_spec_rules_object_to() -> None:
    facts = read(CORPUS / "nccl_env.sh")
    derived = imported(facts)
    assert "CUDA_DEVICE_MAX_CONNECTIONS" not in derived.data.get("env", {})
    assert "debug" not in derived.data.get("fabric", {})
    reasons = " ".join(u.why for u in derived.unmapped)
    for code in ("JC401", "JC402", "JC404", "JC406", "JC407"):
        assert code in reasons
