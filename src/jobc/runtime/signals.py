"""Preemption signals: a flag, a watchdog, and DataLoader workers that survive.

* The Python handler only records which signal arrived and when, then calls any
  earlier Python handler. Checkpointing, collectives or ``scontrol`` inside a
  handler can run in the middle of a backward pass or a collective and hang or
  corrupt the save; the training loop acts on the flag at a step boundary instead.
* Python runs handlers only between bytecodes of the main thread, so a rank
  stuck in a collective would never see its signal. ``signal.set_wakeup_fd``
  makes the C-level handler write the signal number to a socket right away; a
  watchdog thread reads it, records the arrival time, and calls ``os._exit``
  once ``grace_s`` has passed since the arrival. The forced exit uses
  ``WATCHDOG_EXIT_CODE`` (124), not the requeue code: the checkpoint may be partial.
* Slurm signals every process of the step, DataLoader workers included, and a
  worker that dies makes the main process fail while it fetches the next batch,
  before it ever polls the flag. ``worker_init_fn`` makes workers ignore the stop
  signals, except when the signal comes from their parent process: DataLoader and
  ``multiprocessing`` shut daemonic workers down with SIGTERM, and a worker that
  ignored that too would hang the exit.
* Forked children of the training process do not inherit the flag handler (it
  would silently swallow SIGTERM in them).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from types import FrameType
from typing import Any, Literal

from jobc.runtime.contract import WATCHDOG_EXIT_CODE, parse_signal
from jobc.runtime.errors import ContractError, RuntimeSetupError

__all__ = [
    "EARLY_DELIVERY_S",
    "REASON_CODES",
    "SignalWatch",
    "StopReason",
    "classify_stop",
    "deadline_reached",
    "stop_signals_from_env",
    "worker_init_fn",
]

StopReason = Literal["signal", "preemption", "timeout"]
# Ordered by precedence: the ranks agree on the reason through an all-reduce MAX.
REASON_CODES: dict[StopReason, int] = {"signal": 1, "preemption": 2, "timeout": 3}

# sbatch --signal: "may be sent up to 60 seconds earlier than specified".
EARLY_DELIVERY_S = 60.0
# Margin for clock skew between the controller and the node and for delivery delay.
_SLACK_S = 15.0
# Without a wakeup fd the watchdog polls the flag this often; with one, rarely.
_POLL_S = 0.2
# torchrun's agent SIGKILLs its workers this long after forwarding a signal, unless told otherwise.
TORCHRUN_SHUTDOWN_S = 30.0
_SAFETY_POLL_S = 1.0

_Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None


def classify_stop(arrived_wall: float, end_time: float | None, grace_s: float) -> StopReason:
    """Time limit or preemption, decided by time: Slurm sends the same signal for both.

    A signal within ``grace_s`` plus Slurm's early delivery of the job's end is the
    time limit's warning; an earlier one is a preemption. Without
    ``SLURM_JOB_END_TIME`` it cannot be told.
    """
    if end_time is None:
        return "signal"
    if end_time - arrived_wall <= grace_s + EARLY_DELIVERY_S + _SLACK_S:
        return "timeout"
    return "preemption"


def deadline_reached(now_wall: float, end_time: float | None, grace_s: float) -> bool:
    """True once the job is within ``grace_s`` of its end, signal or not."""
    return end_time is not None and grace_s > 0 and end_time - now_wall <= grace_s


def torchrun_shutdown_s(env: Mapping[str, str], *, launcher_reads_it: bool) -> float:
    """Seconds torchrun's agent gives its workers after forwarding a signal, before SIGKILL:
    ``TORCH_ELASTIC_SHUTDOWN_TIMEOUT`` (the compiled script sets it to ``JOBC_GRACE_S``) when this
    torch's launcher reads it, else torch's fixed 30 s."""
    raw = env.get("TORCH_ELASTIC_SHUTDOWN_TIMEOUT", "").strip()
    if not launcher_reads_it or not raw:
        return TORCHRUN_SHUTDOWN_S
    try:
        return float(int(raw))  # the launcher's own parse: int()
    except ValueError:
        return TORCHRUN_SHUTDOWN_S


def stop_signals_from_env(env: Mapping[str, str]) -> tuple[signal.Signals, ...]:
    """``JOBC_SIGNAL`` (if any) and SIGTERM; a malformed value falls back to SIGTERM."""
    try:
        configured = parse_signal(env.get("JOBC_SIGNAL", "SIGTERM"))
    except ContractError:
        configured = None
    if configured is None or configured == signal.SIGTERM:
        return (signal.SIGTERM,)
    return (configured, signal.SIGTERM)


class SignalWatch:
    """Records stop signals and enforces the grace window; one per process."""

    def __init__(
        self,
        signals: Iterable[signal.Signals],
        *,
        grace_s: float,
        exit_code: int = WATCHDOG_EXIT_CODE,
    ) -> None:
        self.signals: tuple[signal.Signals, ...] = tuple(dict.fromkeys(signals))
        self.grace_s = grace_s
        self.exit_code = exit_code
        self._numbers = frozenset(int(s) for s in self.signals)
        # Written by the handler and the watchdog thread; single attribute stores
        # are atomic under the GIL, and both writers record the same event.
        self.received: signal.Signals | None = None
        self.received_wall: float | None = None
        self.received_mono: float | None = None
        self._armed_deadline: float | None = None
        self._previous: dict[signal.Signals, _Handler] = {}
        self._previous_wakeup_fd = -1
        self._wakeup = False
        self._reader: socket.socket | None = None
        self._writer: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._closing = False
        self._installed = False

    @property
    def requested(self) -> bool:
        return self.received is not None

    @property
    def installed(self) -> bool:
        return self._installed

    def install(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            raise RuntimeSetupError(
                "signal handlers can only be installed from the main thread: call "
                "jobc.runtime.init() there, or pass install_signals=False"
            )
        if _REGISTRY.active is not None and _REGISTRY.active is not self:
            _REGISTRY.active.uninstall()
        for sig in self.signals:
            self._previous[sig] = signal.signal(sig, self._on_signal)
        self._reader, self._writer = socket.socketpair()
        self._writer.setblocking(False)
        previous_fd = signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)
        if previous_fd != -1:
            # Someone (an event loop) relies on its own wakeup fd; keep it and poll.
            signal.set_wakeup_fd(previous_fd)
        else:
            self._wakeup = True
        self._previous_wakeup_fd = previous_fd
        self._closing = False
        self._thread = threading.Thread(target=self._watch, name="jobc-stop-watchdog", daemon=True)
        self._thread.start()
        self._installed = True
        _REGISTRY.active = self

    def uninstall(self) -> None:
        if not self._installed:
            return
        for sig, previous in self._previous.items():
            if signal.getsignal(sig) == self._on_signal:
                signal.signal(sig, _restorable(previous))
        if self._wakeup:
            signal.set_wakeup_fd(self._previous_wakeup_fd)
            self._wakeup = False
        self._closing = True
        if self._writer is not None:
            with contextlib.suppress(OSError):
                self._writer.send(b"\0")
        if self._thread is not None:
            self._thread.join(timeout=2)
        for sock in (self._reader, self._writer):
            if sock is not None:
                sock.close()
        self._reader = self._writer = None
        self._previous.clear()
        self._installed = False
        if _REGISTRY.active is self:
            _REGISTRY.active = None

    def arm(self, seconds: float) -> None:
        """Make sure the process is gone ``seconds`` from now, signal or not."""
        if seconds <= 0:
            return
        deadline = time.monotonic() + seconds
        if self._armed_deadline is None or deadline < self._armed_deadline:
            self._armed_deadline = deadline
        self._wake()

    def deadline(self) -> float | None:
        """Monotonic time at which the watchdog forces the exit, if any."""
        candidates = []
        if self.received_mono is not None and self.grace_s > 0:
            candidates.append(self.received_mono + self.grace_s)
        if self._armed_deadline is not None:
            candidates.append(self._armed_deadline)
        return min(candidates) if candidates else None

    def _note(self, signum: int) -> None:
        if self.received is None:
            self.received_mono = time.monotonic()
            self.received_wall = time.time()
            self.received = signal.Signals(signum)

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        self._note(signum)
        previous = self._previous.get(signal.Signals(signum))
        # default_int_handler raises KeyboardInterrupt, which is exactly what a
        # graceful stop on SIGINT must not do.
        if callable(previous) and previous is not signal.default_int_handler:
            previous(signum, frame)

    def _wake(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(OSError):
                self._writer.send(b"\0")

    def _watch(self) -> None:
        reader = self._reader
        assert reader is not None
        while not self._closing:
            deadline = self.deadline()
            # Even with the wakeup fd, look at the flag now and then: a library may have
            # replaced the process-wide wakeup fd since install().
            poll = _POLL_S if not self._wakeup else _SAFETY_POLL_S
            timeout = poll if deadline is None else min(poll, max(0.0, deadline - time.monotonic()))
            try:
                ready, _, _ = select.select([reader], [], [], timeout)
            except (OSError, ValueError):
                return
            if ready:
                try:
                    data = reader.recv(512)
                except OSError:
                    return
                for number in data:
                    if number in self._numbers:
                        self._note(number)
            deadline = self.deadline()
            if not self._closing and deadline is not None and time.monotonic() >= deadline:
                self._force_exit()

    def _force_exit(self) -> None:
        what = self.received.name if self.received is not None else "the stop request"
        message = (
            f"jobc.runtime: still running {self.grace_s:g} s after {what} "
            f"(JOBC_GRACE_S); forcing exit with code {self.exit_code}\n"
        )
        with contextlib.suppress(OSError):
            sys.stdout.flush()
        with contextlib.suppress(OSError):
            os.write(2, message.encode())
        os._exit(self.exit_code)


class _Registry:
    active: SignalWatch | None = None


_REGISTRY = _Registry()


def _restorable(previous: _Handler) -> _Handler:
    # signal.signal() rejects None (a handler installed from C); the default is
    # the closest safe equivalent.
    return signal.SIG_DFL if previous is None else previous


def _after_fork_in_child() -> None:
    watch = _REGISTRY.active
    if watch is None or not watch.installed:
        return
    with contextlib.suppress(ValueError, OSError):
        if watch._wakeup:
            signal.set_wakeup_fd(-1)
        for sig, previous in watch._previous.items():
            signal.signal(sig, _restorable(previous))


os.register_at_fork(after_in_child=_after_fork_in_child)


def worker_init_fn(worker_id: int) -> None:
    """DataLoader ``worker_init_fn``: ignore the stop signals unless the parent sends them."""
    del worker_id
    signals = stop_signals_from_env(os.environ)
    parent = os.getppid()
    with contextlib.suppress(ValueError):
        signal.set_wakeup_fd(-1)
    for sig in signals:
        signal.signal(sig, signal.SIG_IGN)
    # Linux queues a blocked signal even when its disposition is SIG_IGN, so a
    # thread can collect it with sigwaitinfo and see who sent it.
    signal.pthread_sigmask(signal.SIG_BLOCK, signals)
    threading.Thread(
        target=_obey_parent_only, args=(signals, parent), name="jobc-worker-signals", daemon=True
    ).start()


def _obey_parent_only(signals: tuple[signal.Signals, ...], parent: int) -> None:
    while True:
        info = signal.sigwaitinfo(signals)
        if info.si_pid == parent:
            os._exit(128 + info.si_signo)
