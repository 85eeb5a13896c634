"""The JOBC_* contract: parsing, defaults, and that the documentation lists all of it."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

import jobc.runtime
from jobc.runtime import contract as contract_module
from jobc.runtime.contract import (
    CONTRACT,
    DEFAULT_REQUEUE_EXIT_CODE,
    LAUNCHER_VARIABLES,
    WATCHDOG_EXIT_CODE,
    WRITTEN_VARIABLES,
    Contract,
    parse_signal,
)
from jobc.runtime.errors import ContractError
from tests.support import ROOT

DOCS = ROOT / "docs" / "runtime.md"


def test_full_contract_parses() -> None:
    env = {
        "JOBC_SPEC_NAME": "llama3-8b",
        "JOBC_SPEC_SHA256": "ab" * 32,
        "JOBC_LAUNCH_MODE": "torchrun",
        "JOBC_WORLD_SIZE": "32",
        "JOBC_NODES": "4",
        "JOBC_GPUS_PER_NODE": "8",
        "JOBC_TP": "2",
        "JOBC_PP": "2",
        "JOBC_CP": "1",
        "JOBC_EP": "4",
        "JOBC_DP": "8",
        "JOBC_SIGNAL": "SIGUSR2",
        "JOBC_GRACE_S": "90",
        "JOBC_REQUEUE_EXIT_CODE": "99",
        "JOBC_CHECKPOINT_DIR": "/lustre/ckpt/llama",
        "JOBC_MAX_RESTARTS": "3",
        "JOBC_RENDEZVOUS_TIMEOUT_S": "60",
        "JOBC_COLLECTIVE_TIMEOUT_S": "1800",
        "JOBC_HANG_S": "600",
        "JOBC_DUMP_DIR": "/lustre/logs/llama-42.flight",
    }
    parsed = Contract.from_env(env)
    assert parsed == Contract(
        spec_name="llama3-8b",
        spec_sha256="ab" * 32,
        launch_mode="torchrun",
        world_size=32,
        nodes=4,
        gpus_per_node=8,
        tp=2,
        pp=2,
        cp=1,
        ep=4,
        dp=8,
        preemption_signal=signal.SIGUSR2,
        grace_s=90.0,
        requeue_exit_code=99,
        checkpoint_dir=Path("/lustre/ckpt/llama"),
        max_restarts=3,
        rendezvous_timeout_s=60.0,
        collective_timeout_s=1800.0,
        hang_s=600.0,
        dump_dir=Path("/lustre/logs/llama-42.flight"),
    )
    assert parsed.stop_signals == (signal.SIGUSR2, signal.SIGTERM)
    assert {v.name for v in CONTRACT} == set(env)


def test_defaults_when_nothing_is_exported() -> None:
    parsed = Contract.from_env({})
    assert parsed == Contract()
    assert (parsed.tp, parsed.pp, parsed.cp, parsed.ep, parsed.dp) == (1, 1, 1, 1, None)
    assert parsed.requeue_exit_code == DEFAULT_REQUEUE_EXIT_CODE == 75
    assert parsed.stop_signals == (signal.SIGTERM,)
    assert WATCHDOG_EXIT_CODE not in (0, 1, DEFAULT_REQUEUE_EXIT_CODE)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("SIGTERM", signal.SIGTERM),
        ("TERM", signal.SIGTERM),
        ("sigusr2", signal.SIGUSR2),
        ("USR1", signal.SIGUSR1),
        ("12", signal.SIGUSR2),
        (" SIGINT ", signal.SIGINT),
        ("none", None),
        ("", None),
    ],
)
def test_parse_signal(value: str, expected: signal.Signals | None) -> None:
    assert parse_signal(value) == expected


def test_no_preemption_signal_still_handles_sigterm() -> None:
    assert Contract.from_env({"JOBC_SIGNAL": "none"}).stop_signals == (signal.SIGTERM,)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"JOBC_WORLD_SIZE": "eight"}, "JOBC_WORLD_SIZE='eight' is not an integer"),
        ({"JOBC_TP": "0"}, "JOBC_TP=0 must be at least 1"),
        ({"JOBC_LAUNCH_MODE": "mpirun"}, "must be 'srun' or 'torchrun'"),
        ({"JOBC_SIGNAL": "SIGFOO"}, "not a signal name"),
        ({"JOBC_SIGNAL": "999"}, "not a signal number"),
        ({"JOBC_REQUEUE_EXIT_CODE": "0"}, "must be at least 1"),
        ({"JOBC_REQUEUE_EXIT_CODE": "300"}, "between 1 and 255"),
        ({"JOBC_GRACE_S": "-1"}, "non-negative"),
        ({"JOBC_GRACE_S": "nan"}, "non-negative"),
        ({"JOBC_RENDEZVOUS_TIMEOUT_S": "0"}, "must be positive"),
        ({"JOBC_MAX_RESTARTS": "-2"}, "at least 0"),
    ],
)
def test_malformed_values_name_the_variable(env: dict[str, str], message: str) -> None:
    with pytest.raises(ContractError, match=message):
        Contract.from_env(env)


def test_every_variable_is_documented() -> None:
    docs = DOCS.read_text()
    docstring = contract_module.__doc__ or ""
    for variable in CONTRACT:
        assert f"`{variable.name}`" in docs, variable.name
        assert variable.name in docstring, variable.name
    for variable in LAUNCHER_VARIABLES:
        assert f"`{variable.name}`" in docs, variable.name
    for name in WRITTEN_VARIABLES:
        assert f"`{name}`" in docs, name
    assert "20000 + (SLURM_JOB_ID + 5563 * SLURM_STEP_ID) % 9000" in docs


def test_the_package_imports_without_torch() -> None:
    # The compiler and the CLI import the contract; torch is only loaded by init()/World.
    import subprocess
    import sys

    code = (
        "import sys, jobc.runtime, jobc.runtime.contract, jobc.runtime.launch;"
        "assert 'torch' not in sys.modules, 'torch was imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
    assert "init" in jobc.runtime.__all__
