"""The bugs found in published Slurm launch scripts (design §1): each is caught by a rule or cannot
be written because the compiler generates that part of the script itself. One test per pitfall,
showing which — and, where both hold, both."""

from __future__ import annotations

import re
from pathlib import Path

from jobc.compile import compile_batch
from jobc.lint.pipeline import Result
from tests.compile.support import step_script
from tests.support.lint import codes, lint_text, where

HEADER = (
    "version: 1\n"
    "name: pitfall\n"
    'slurm: {time: "01:00:00"}\n'
    "resources: {nodes: 2, gpus_per_node: 4}\n"
    "storage: {shared: [/lustre], checkpoints: /lustre/ckpt, caches: {uv_cache_dir: /lustre/uv}}\n"
)


def lint(extra: str, tmp_path: Path) -> Result:
    return lint_text(HEADER + extra, tmp_path)


def script(extra: str, tmp_path: Path) -> str:
    result = lint(extra, tmp_path)
    assert not result.errors, result.errors
    assert result.context is not None
    return compile_batch(result.context)


def batch_shell(text: str) -> str:
    """The script without the step body, which only runs inside the tasks."""
    start = text.index("<<'JOBC_STEP'")
    end = text.index("\nJOBC_STEP\n", start)
    return text[:start] + text[end:]


def test_node_rank_expanded_once_by_the_batch_shell(tmp_path: Path) -> None:
    # `srun torchrun --node_rank=$SLURM_NODEID` in the batch shell: every node gets rank 0.
    result = lint(
        'launch: {program: train.py, setup: ["srun torchrun --node_rank=$SLURM_NODEID train.py"]}\n',
        tmp_path,
    )
    assert where(result, "JC106") == [(6, 37)]
    # jobc's own torchrun launch reads the node rank inside the step, never in the batch shell.
    text = script("launch: {mode: torchrun, program: train.py}\n", tmp_path)
    assert '--node-rank="$SLURM_NODEID"' in step_script(text)
    assert "SLURM_NODEID" not in batch_shell(text)


def test_signal_without_b_and_a_trap_that_never_runs(tmp_path: Path) -> None:
    # `#SBATCH --signal=SIGUSR1@90` cannot be written: --signal belongs to resilience.signal.
    result = lint_text(
        HEADER.replace(
            'slurm: {time: "01:00:00"}', 'slurm: {time: "01:00:00", extra: {signal: "SIGUSR1@90"}}'
        )
        + "launch: {program: train.py}\n",
        tmp_path,
    )
    assert "JC003" in codes(result)
    # What jobc writes sends the signal to the batch shell (B:) and keeps the shell free to run
    # its trap: srun runs in the background and the shell waits for it.
    text = script(
        "launch: {program: train.py}\nresilience: {signal: SIGUSR2, grace_s: 90, requeue: true}\n", tmp_path
    )
    assert "#SBATCH --signal=B:USR2@90" in text.splitlines()
    assert "trap 'jobc_forward USR2' USR2" in text
    launch = re.search(r"^  srun .*\n.*&$", text, re.M)
    assert launch is not None, "srun is not started in the background"
    assert 'wait "$jobc_srun_pid"' in text
    # and SIGUSR1, which some NCCL releases catch, is flagged
    assert "JC604" in codes(
        lint("launch: {program: t.py}\nresilience: {signal: SIGUSR1, requeue: true}\n", tmp_path)
    )


def test_substring_expansion_is_not_a_default(tmp_path: Path) -> None:
    # `export CUDA_LAUNCH_BLOCKING=${CUDA_LAUNCH_BLOCKING:0}`: offset 0, not the default 0.
    result = lint(
        'launch: {program: train.py, setup: ["export CUDA_LAUNCH_BLOCKING=${CUDA_LAUNCH_BLOCKING:0}"]}\n',
        tmp_path,
    )
    assert where(result, "JC507") == [(6, 37)]
    result = lint(
        'launch: {program: train.py}\nenv: {CUDA_LAUNCH_BLOCKING: "${CUDA_LAUNCH_BLOCKING:0}"}\n', tmp_path
    )
    assert where(result, "JC507") == [(7, 29)]


def test_exec_srun_before_cleanup_and_a_pid_exported_from_a_subshell(tmp_path: Path) -> None:
    # jobc writes the launch itself: no `exec` replaces the batch shell, the background helpers'
    # PIDs are plain shell variables of the batch shell, and an EXIT trap cleans them up.
    text = script("launch: {program: train.py}\nmonitoring: {heartbeat_s: 60, gpu_dmon_s: 15}\n", tmp_path)
    shell = batch_shell(text)
    assert not re.search(r"^\s*exec\b", shell, re.M)
    assert "trap jobc_cleanup EXIT" in shell
    assert not re.search(r"export\s+\w*pid", shell, re.I)
    assert re.search(r"^jobc_heartbeat_pid=\$!$", shell, re.M)


def test_global_rank_computed_from_node_and_local_ids(tmp_path: Path) -> None:
    # RANK = NODEID * NTASKS_PER_NODE + LOCALID instead of SLURM_PROCID.
    result = lint(
        'launch: {program: train.py}\nenv: {RANK: "$((SLURM_NODEID * 4 + SLURM_LOCALID))"}\n',
        tmp_path,
    )
    assert where(result, "JC106") == [(7, 13)]
    # The batch shell exports no rank: each srun task sets RANK and LOCAL_RANK from its own
    # SLURM_PROCID and SLURM_LOCALID, inside the step.
    text = script("launch: {program: train.py}\n", tmp_path)
    step = step_script(text)
    batch = text.replace(step.removeprefix("#!/bin/bash\n"), "")
    assert not re.search(r"export (RANK|LOCAL_RANK|NODE_RANK)=", batch)
    assert "export RANK=$SLURM_PROCID\n" in step
    assert "export LOCAL_RANK=$SLURM_LOCALID\n" in step
    assert "NODE_RANK" not in step


def test_literal_hf_token_in_a_committed_script(tmp_path: Path) -> None:
    token = "hf_" + "PITFALLpitfallPITFALLpitfall00000"
    result = lint(f'launch: {{program: train.py, setup: ["export HF_TOKEN={token}"]}}\n', tmp_path)
    assert where(result, "JC702") == [(6, 37)]
    result = lint(f"launch: {{program: train.py}}\nenv: {{HF_TOKEN: {token}}}\n", tmp_path)
    assert where(result, "JC702") == [(7, 17)]
    assert all(token[3:] not in f.message for f in result.findings)
    # `secrets:` names are checked, never written: the script refuses to start without them.
    text = script("launch: {program: train.py}\nsecrets: [HF_TOKEN]\n", tmp_path)
    assert ': "${HF_TOKEN:?' in text
    assert "HF_TOKEN=" not in text


def test_uv_sync_by_every_rank_on_a_shared_cache(tmp_path: Path) -> None:
    result = lint('launch: {program: train.py, setup: ["srun uv sync"]}\n', tmp_path)
    assert where(result, "JC504") == [(6, 37)]
    # jobc's two-phase sync: one task syncs, then every rank runs without syncing.
    text = script("launch: {program: train.py, python: uv}\n", tmp_path)
    syncs = [
        line
        for line in text.splitlines()
        if re.search(r"\buv sync\b", line) and "srun" in line and not line.startswith("#")
    ]
    assert syncs == ["srun --nodes=1 --ntasks=1 --ntasks-per-node=1 uv sync"]
    assert "'uv' 'run' '--no-sync' 'python'" in text
