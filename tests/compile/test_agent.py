"""The compiled torchrun agent (jobc.compile.agent) on this machine, without Slurm: two workers
under `python -c AGENT --standalone`, the way the step script starts it on each node."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jobc.compile.agent import AGENT

if importlib.util.find_spec("torch") is None:
    pytest.skip("torch is not importable; the agent runs torch.distributed.run", allow_module_level=True)

# Each case starts torch three times.
pytestmark = [pytest.mark.runtime, pytest.mark.slow]

COUNTER = Path(__file__).with_name("count_signals.py")
WORKERS = 2


def _start(program: Path, *args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    argv = [sys.executable, "-c", AGENT, "--standalone", f"--nproc-per-node={WORKERS}"]
    return subprocess.Popen(
        [*argv, str(program), *args],
        env={**os.environ, "JOBC_REQUEUE_EXIT_CODE": "75", **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _exit_with(tmp_path: Path, code: int) -> Path:
    program = tmp_path / f"exit_{code}.py"
    program.write_text(f"import sys\nsys.exit({code})\n", encoding="utf-8")
    return program


@pytest.mark.parametrize(("worker", "agent"), [(75, 75), (3, 1), (0, 0)])
def test_the_agent_keeps_only_the_requeue_code(tmp_path: Path, worker: int, agent: int) -> None:
    proc = _start(_exit_with(tmp_path, worker), env={})
    output, _ = proc.communicate()
    assert proc.returncode == agent, output
    assert ("exited with the requeue code 75" in output) is (worker == 75), output


def test_sigurg_gives_each_worker_the_spec_signal_once(tmp_path: Path) -> None:
    # The agent is told to kill its workers 1 s after a signal it forwards itself; it must never
    # forward one, so the workers keep their whole checkpoint (4 s, 6 s). Worker 0 exits first:
    # torchrun would then stop worker 1 (a second signal) if the agent did not wait for it.
    env = {"JOBC_SIGNAL": "SIGUSR2", "TORCH_ELASTIC_SHUTDOWN_TIMEOUT": "1", "JOBC_GRACE_S": "600"}
    proc = _start(COUNTER, str(tmp_path), "4", env=env)
    # However slowly torch starts on a busy machine: the agent ends if the workers cannot start.
    while len(list(tmp_path.glob("ready-*"))) < WORKERS:
        assert proc.poll() is None, proc.communicate()[0]
        time.sleep(0.1)
    proc.send_signal(signal.SIGURG)
    proc.send_signal(signal.SIGURG)  # a second wake-up (another scancel) changes nothing
    output, _ = proc.communicate()
    assert proc.returncode == 75, output
    records = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(tmp_path.glob("rank-*.json"))]
    assert [r["signals"] for r in records] == [[int(signal.SIGUSR2)]] * WORKERS, output
