"""Stop signals: flag-only handler, chaining, watchdog, worker protection, timeout vs preemption.

These need no torch: the signal machinery is plain Python. Anything that may end a
process (the watchdog, fork tricks) runs in a child interpreter.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from types import FrameType

import pytest

from jobc.runtime.contract import WATCHDOG_EXIT_CODE
from jobc.runtime.errors import RuntimeSetupError
from jobc.runtime.signals import (
    EARLY_DELIVERY_S,
    SignalWatch,
    classify_stop,
    deadline_reached,
    stop_signals_from_env,
    torchrun_shutdown_s,
)
from tests.support import ROOT

SRC = ROOT / "src"


# Only a guard against a hang: a busy machine may start Python slowly, and every program here
# ends within seconds when the code under test is right.
def run_python(code: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    env.pop("JOBC_SIGNAL", None)
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        check=False,
    )


def test_handler_sets_the_flag_and_chains_the_previous_handler() -> None:
    calls: list[int] = []

    def earlier(signum: int, frame: FrameType | None) -> None:
        calls.append(signum)

    previous = signal.signal(signal.SIGUSR2, earlier)
    watch = SignalWatch([signal.SIGUSR2, signal.SIGTERM], grace_s=600)
    try:
        watch.install()
        assert not watch.requested
        before = time.time()
        os.kill(os.getpid(), signal.SIGUSR2)
        deadline = time.monotonic() + 600  # the handler runs at once; only a guard against a hang
        while not watch.requested and time.monotonic() < deadline:
            time.sleep(0.001)
        assert watch.received == signal.SIGUSR2
        assert watch.received_wall is not None
        assert before <= watch.received_wall <= time.time()
        assert calls == [signal.SIGUSR2]
        os.kill(os.getpid(), signal.SIGUSR2)
        time.sleep(0.05)
        assert calls == [signal.SIGUSR2, signal.SIGUSR2]
        assert watch.received == signal.SIGUSR2  # the first arrival counts
    finally:
        watch.uninstall()
        signal.signal(signal.SIGUSR2, previous)
    assert not watch.installed


def test_uninstall_restores_the_previous_handlers() -> None:
    def earlier(signum: int, frame: FrameType | None) -> None:
        raise AssertionError("not called")

    previous = signal.signal(signal.SIGUSR1, earlier)
    try:
        watch = SignalWatch([signal.SIGUSR1], grace_s=0)
        watch.install()
        assert signal.getsignal(signal.SIGUSR1) != earlier
        watch.uninstall()
        assert signal.getsignal(signal.SIGUSR1) == earlier
    finally:
        signal.signal(signal.SIGUSR1, previous)


def test_install_outside_the_main_thread_is_refused() -> None:
    errors: list[BaseException] = []

    def install() -> None:
        try:
            SignalWatch([signal.SIGTERM], grace_s=1).install()
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=install)
    thread.start()
    thread.join()
    assert len(errors) == 1
    assert isinstance(errors[0], RuntimeSetupError)
    assert "main thread" in str(errors[0])


def test_watchdog_exits_when_the_save_overruns_counting_from_arrival() -> None:
    result = run_python(
        """
        import os, signal, sys, time
        from jobc.runtime.signals import SignalWatch
        watch = SignalWatch([signal.SIGTERM], grace_s=1.0)
        watch.install()
        start = time.monotonic()
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.6)              # training goes on to the step boundary
        print(f"arrived {watch.received_mono - start:.3f}", flush=True)
        time.sleep(30)               # a checkpoint that never finishes
        print("not reached", flush=True)
        """
    )
    assert result.returncode == WATCHDOG_EXIT_CODE, result
    assert "not reached" not in result.stdout
    assert "forcing exit with code 124" in result.stderr
    assert "SIGTERM" in result.stderr


def test_watchdog_fires_while_the_main_thread_is_stuck_in_c() -> None:
    # A rank blocked in a collective never returns to the interpreter, so its Python
    # handler never runs; the wakeup fd still tells the watchdog. pthread_mutex_lock on
    # a mutex this thread already holds blocks forever, without the GIL, and is never
    # interrupted by a signal: the same situation.
    result = run_python(
        """
        import ctypes, os, signal, threading, time
        from jobc.runtime.signals import SignalWatch
        watch = SignalWatch([signal.SIGUSR2, signal.SIGTERM], grace_s=0.5)
        watch.install()
        libc = ctypes.CDLL(None)
        mutex = ctypes.create_string_buffer(64)
        libc.pthread_mutex_lock(mutex)
        started = time.monotonic()
        threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGUSR2)).start()
        libc.pthread_mutex_lock(mutex)
        print("not reached", flush=True)
        """
    )
    assert result.returncode == WATCHDOG_EXIT_CODE, result
    assert "after SIGUSR2" in result.stderr


def test_grace_zero_disables_the_watchdog() -> None:
    result = run_python(
        """
        import os, signal, time
        from jobc.runtime.signals import SignalWatch
        watch = SignalWatch([signal.SIGTERM], grace_s=0)
        watch.install()
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.5)
        print(watch.received.name, watch.deadline(), flush=True)
        """
    )
    assert result.returncode == 0, result
    assert result.stdout.strip() == "SIGTERM None"


def test_arm_bounds_an_exit_without_a_signal() -> None:
    result = run_python(
        """
        import signal, time
        from jobc.runtime.signals import SignalWatch
        watch = SignalWatch([signal.SIGTERM], grace_s=5)
        watch.install()
        watch.arm(0.3)
        time.sleep(30)
        """
    )
    assert result.returncode == WATCHDOG_EXIT_CODE, result
    assert "after the stop request" in result.stderr


def test_forked_children_do_not_inherit_the_flag_handler() -> None:
    result = run_python(
        """
        import os, signal, json
        from jobc.runtime.signals import SignalWatch
        watch = SignalWatch([signal.SIGTERM], grace_s=60)
        watch.install()
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            state = {
                "default_handler": signal.getsignal(signal.SIGTERM) == signal.SIG_DFL,
                "wakeup_fd": signal.set_wakeup_fd(-1),
            }
            os.write(write, json.dumps(state).encode())
            os._exit(0)
        os.waitpid(pid, 0)
        print(os.read(read, 4096).decode(), flush=True)
        """
    )
    assert result.returncode == 0, result
    state = json.loads(result.stdout)
    assert state == {"default_handler": True, "wakeup_fd": -1}


WORKER_PROGRAM = """
    import os, signal, subprocess, sys, time
    from jobc.runtime.signals import worker_init_fn

    os.environ["JOBC_SIGNAL"] = "SIGUSR2"
    pid = os.fork()
    if pid == 0:
        worker_init_fn(0)            # what DataLoader does in each worker
        while True:
            time.sleep(0.01)
    time.sleep(0.2)
    # slurmstepd, not the parent, delivers the preemption signal to every process
    for sig in ("USR2", "TERM"):
        subprocess.run(["/bin/kill", "-" + sig, str(pid)], check=True)
    time.sleep(0.3)
    alive = os.waitpid(pid, os.WNOHANG) == (0, 0)
    # DataLoader / multiprocessing shut daemonic workers down with SIGTERM from the parent
    os.kill(pid, signal.SIGTERM)
    _, status = os.waitpid(pid, 0)
    print(alive, os.waitstatus_to_exitcode(status), flush=True)
"""


@pytest.mark.skipif(not Path("/bin/kill").exists(), reason="needs /bin/kill to send from a third process")
def test_workers_ignore_foreign_stop_signals_but_obey_their_parent() -> None:
    result = run_python(WORKER_PROGRAM)
    assert result.returncode == 0, result
    assert result.stdout.split() == ["True", str(128 + signal.SIGTERM)]


def test_worker_signals_follow_the_contract() -> None:
    assert stop_signals_from_env({}) == (signal.SIGTERM,)
    assert stop_signals_from_env({"JOBC_SIGNAL": "USR2"}) == (signal.SIGUSR2, signal.SIGTERM)
    assert stop_signals_from_env({"JOBC_SIGNAL": "bogus"}) == (signal.SIGTERM,)


@pytest.mark.parametrize(
    ("seconds_left", "grace", "expected"),
    [
        (120.0, 120.0, "timeout"),  # --signal=B:SIGTERM@120 delivered on time
        (180.0, 120.0, "timeout"),  # delivered up to 60 s early
        (190.0, 120.0, "timeout"),  # within the slack
        (3600.0, 120.0, "preemption"),
        (400.0, 120.0, "preemption"),
        (10.0, 0.0, "timeout"),
    ],
)
def test_timeout_or_preemption_by_time_left(seconds_left: float, grace: float, expected: str) -> None:
    now = 1_700_000_000.0
    assert classify_stop(now, now + seconds_left, grace) == expected


def test_without_an_end_time_the_reason_is_unknown() -> None:
    assert classify_stop(1.0, None, 120) == "signal"
    assert EARLY_DELIVERY_S == 60


def test_deadline_reached_near_the_end_of_the_job() -> None:
    assert deadline_reached(1000.0, 1100.0, 120)
    assert not deadline_reached(1000.0, 1200.0, 120)
    assert not deadline_reached(1000.0, None, 120)
    assert not deadline_reached(1000.0, 1001.0, 0)


@pytest.mark.parametrize(
    ("env", "reads", "expected"),
    [
        ({}, True, 30.0),
        ({"TORCH_ELASTIC_SHUTDOWN_TIMEOUT": "50"}, True, 50.0),
        ({"TORCH_ELASTIC_SHUTDOWN_TIMEOUT": "10"}, True, 10.0),
        # an older torch ignores the variable and keeps its 30 s
        ({"TORCH_ELASTIC_SHUTDOWN_TIMEOUT": "50"}, False, 30.0),
        ({"TORCH_ELASTIC_SHUTDOWN_TIMEOUT": "soon"}, True, 30.0),
    ],
)
def test_torchrun_shutdown_window(env: dict[str, str], reads: bool, expected: float) -> None:
    assert torchrun_shutdown_s(env, launcher_reads_it=reads) == expected


@pytest.mark.parametrize(("shutdown", "warned"), [(None, True), ("50", False), ("40", False), ("39", True)])
def test_torchrun_warning_only_when_the_agent_kills_before_the_grace_window(
    shutdown: str | None, warned: bool, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    world = pytest.importorskip("jobc.runtime.world")
    from jobc.runtime.contract import Contract
    from jobc.runtime.launch import resolve_launch

    env = {"TORCHELASTIC_RUN_ID": "7", "RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "1"}
    env |= {"LOCAL_WORLD_SIZE": "1", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": "29500"}
    monkeypatch.delenv("TORCH_ELASTIC_SHUTDOWN_TIMEOUT", raising=False)
    if shutdown is not None:
        monkeypatch.setenv("TORCH_ELASTIC_SHUTDOWN_TIMEOUT", shutdown)
    # The torch here reads the variable (the compiled script relies on that).
    assert world._launcher_reads_shutdown_timeout()
    world._warn_if_torchrun_kills_early(resolve_launch(env), Contract(grace_s=40))
    assert ("torchrun kills its workers" in caplog.text) is warned, caplog.text


def test_no_torchrun_warning_under_the_compiled_agent(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    world = pytest.importorskip("jobc.runtime.world")
    from jobc.runtime.contract import Contract
    from jobc.runtime.launch import resolve_launch

    env = {"TORCHELASTIC_RUN_ID": "7", "RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "1"}
    env |= {"LOCAL_WORLD_SIZE": "1", "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": "29500"}
    monkeypatch.delenv("TORCH_ELASTIC_SHUTDOWN_TIMEOUT", raising=False)
    # The agent jobc compiles relays the signal instead of shutting down, whatever torch it is.
    monkeypatch.setenv("JOBC_SIGNAL_RELAY", "agent")
    world._warn_if_torchrun_kills_early(resolve_launch(env), Contract(grace_s=40))
    assert "torchrun kills its workers" not in caplog.text
