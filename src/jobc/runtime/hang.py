"""The hang watchdog: a rank that stops making progress writes its evidence and ends.

A hang costs a whole allocation: every rank waits in a collective until its timeout (often 30
minutes) or the wall-clock limit, and the log says nothing about which rank is missing. Each rank
runs this watchdog on its own, with no communication (a hung collective cannot be asked for
help):

* ``World.should_stop()`` calls ``progress()`` once per step. A daemon thread wakes a few times
  per ``hang_s``; when no step completed for ``hang_s`` it writes the evidence and calls
  ``os._exit(HANG_EXIT_CODE)``.
* A collective that fails (a gloo or NCCL timeout, a peer that closed its connection) and is
  not caught reaches ``sys.excepthook``; the watchdog writes the same evidence, the stack of the
  failed call included, and ends with the same code. The rank that failed first is then named
  by the recorder, not by whoever noticed.
* The evidence, in ``JOBC_DUMP_DIR``: the flight recorder's trace of this rank
  (``rank<R>-restart<N>.fr.json``, torch's own JSON) and the Python stack of every thread
  (``rank<R>-restart<N>.stacks.json``). Files are written under a temporary name and renamed, so
  a reader never sees half a dump. A job that never hangs writes nothing.

The thread reads the main thread's stack through ``sys._current_frames()``, which works when the
main thread waits in C (collectives release the GIL) or loops in Python (the interpreter hands the
GIL over every few milliseconds). Code that holds the GIL in C forever would starve the thread as
well; for that case the thread keeps ``faulthandler.dump_traceback_later`` armed a little beyond
its own deadline, so the C-level timer still prints every thread's stack to stderr and ends the
process (with faulthandler's exit status 1, the only one it knows).
"""

from __future__ import annotations

import contextlib
import faulthandler
import json
import os
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

from jobc.runtime.contract import HANG_EXIT_CODE

__all__ = [
    "HANG_EXIT_CODE",
    "HangWatch",
    "collective_failure",
    "dump_file_names",
    "stack_frames",
]

# Words of the errors a collective raises when it times out or loses a peer (gloo's
# unbound_buffer.cc and pair.cc, ProcessGroupNCCL's watchdog, c10d's DistBackendError family).
_COLLECTIVE_ERRORS = (
    "Timed out waiting",
    "Connection closed by peer",
    "Connection reset by peer",
    "Socket Timeout",
    "collective operation timeout",
    "NCCL communicator was aborted",
    "ProcessGroupNCCL",
    "ProcessGroupGloo",
)
_COLLECTIVE_CLASSES = ("DistBackendError", "DistNetworkError")
# Beyond the thread's own deadline, for faulthandler's last-resort timer.
_FAULTHANDLER_MARGIN_S = 30.0

ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], Any]


def dump_file_names(rank: int, restart: int) -> tuple[str, str]:
    """The recorder's and the stacks' file names for one rank of one run of the job."""
    stem = f"rank{rank}-restart{restart}"
    return f"{stem}.fr.json", f"{stem}.stacks.json"


def collective_failure(exc: BaseException) -> bool:
    """Whether ``exc`` (or an exception in its chain) is a collective that timed out or lost a peer."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        names = {cls.__name__ for cls in type(current).__mro__}
        if names & set(_COLLECTIVE_CLASSES):
            return True
        text = str(current)
        if isinstance(current, RuntimeError) and any(word in text for word in _COLLECTIVE_ERRORS):
            return True
        current = current.__cause__ or current.__context__
    return False


def stack_frames(frames: Iterable[tuple[FrameType, int]]) -> list[dict[str, Any]]:
    """Frames innermost first, as plain data: file, line, function, source line."""
    out: list[dict[str, Any]] = []
    for frame, lineno in frames:
        code = frame.f_code
        source = ""
        with contextlib.suppress(Exception):
            import linecache

            source = linecache.getline(code.co_filename, lineno).strip()
        out.append({"file": code.co_filename, "line": lineno, "function": code.co_name, "code": source})
    return out


def _walk(frame: FrameType | None) -> list[tuple[FrameType, int]]:
    out: list[tuple[FrameType, int]] = []
    while frame is not None:
        out.append((frame, frame.f_lineno))
        frame = frame.f_back
    return out


def _traceback_frames(tb: TracebackType | None) -> list[tuple[FrameType, int]]:
    out = [(frame, lineno) for frame, lineno in traceback.walk_tb(tb)]
    out.reverse()  # innermost first, like a live stack
    return out


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def _flight_recorder_json(backend: str) -> bytes:
    """This process's flight-recorder trace, as torch writes it; raises when torch has none."""
    import torch

    c10d: Any = torch._C._distributed_c10d
    if backend == "nccl" and hasattr(c10d, "_dump_nccl_trace_json"):
        return bytes(c10d._dump_nccl_trace_json(True, False))
    if hasattr(c10d, "_dump_fr_trace_json"):
        # The gloo recorder; torch 2.4-2.9 records nccl only and has no such function.
        return bytes(c10d._dump_fr_trace_json())
    raise RuntimeError(f"this torch has no flight recorder for {backend}")


class HangWatch:
    """One rank's hang watchdog; ``start()`` after the process group exists."""

    def __init__(
        self,
        *,
        hang_s: float,
        dump_dir: Path | None,
        rank: int,
        restart: int,
        backend: str,
        exit_code: int = HANG_EXIT_CODE,
        recorder: Callable[[str], bytes] = _flight_recorder_json,
        world_size: int | None = None,
        groups: Callable[[], dict[str, list[int]]] | None = None,
    ) -> None:
        if hang_s <= 0:
            raise ValueError("hang_s must be positive")
        self.hang_s = hang_s
        self.dump_dir = dump_dir
        self.rank = rank
        self.restart = restart
        self.backend = backend
        self.exit_code = exit_code
        self._recorder = recorder
        self.world_size = world_size
        self._groups = groups
        self._poll_s = min(1.0, hang_s / 4)
        self._last = time.monotonic()
        self._steps = 0
        self._stop = threading.Event()
        self._fired = threading.Lock()
        self._thread: threading.Thread | None = None
        self._previous_hook: ExceptHook | None = None
        self._pid = os.getpid()
        self._faulthandler = False
        # After the dumps, before the exit: peers whose own timers are about to fire write theirs
        # while the connections still stand (an exit makes their collectives fail instead).
        self._linger = 0.0

    def progress(self) -> None:
        """A step completed (called by ``World.should_stop``): cheap, no lock, no syscall."""
        self._last = time.monotonic()
        self._steps += 1

    def start(self) -> None:
        if self._thread is not None:
            return
        self._last = time.monotonic()
        self._previous_hook = sys.excepthook
        sys.excepthook = self._excepthook
        if not faulthandler.is_enabled():
            # A rank that dies by a signal (gloo aborts on a size mismatch) still prints its
            # Python stack into the log.
            with contextlib.suppress(Exception):
                faulthandler.enable(file=2, all_threads=True)
        self._thread = threading.Thread(target=self._watch, name="jobc-hang-watchdog", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Disarm (the job is stopping on purpose, or training ended)."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        self._thread = None
        if sys.excepthook == self._excepthook and self._previous_hook is not None:
            sys.excepthook = self._previous_hook
        if self._faulthandler:
            faulthandler.cancel_dump_traceback_later()
            self._faulthandler = False

    def _watch(self) -> None:
        while not self._stop.wait(self._poll_s):
            idle = time.monotonic() - self._last
            if idle >= self.hang_s:
                self._linger = 2 * self._poll_s
                self.fire(f"no step completed in {idle:.0f} s (monitoring.hang_s = {self.hang_s:g})")
                return
            # Only reached while this thread can run; if the GIL is never released again, the
            # C-level timer fires instead.
            with contextlib.suppress(Exception):
                faulthandler.dump_traceback_later(
                    self.hang_s - idle + _FAULTHANDLER_MARGIN_S, exit=True, file=2
                )
                self._faulthandler = True

    def _excepthook(self, kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if os.getpid() == self._pid and not self._stop.is_set() and collective_failure(exc):
            self._write_and_exit(f"a collective failed: {kind.__name__}: {_first_line(exc)}", exc)
        previous = self._previous_hook or sys.__excepthook__
        previous(kind, exc, tb)

    def fire(self, reason: str) -> None:
        """Write the evidence and end the process with the hang exit code."""
        self._write_and_exit(reason, None)

    def _write_and_exit(self, reason: str, exc: BaseException | None) -> None:
        if os.getpid() != self._pid:
            return
        if not self._fired.acquire(blocking=False):
            if exc is not None:
                # The timer is writing the dumps already (this failure is its linger's echo from
                # a peer that left): wait for its exit rather than exit with another code.
                self._fired.acquire()
            return
        with contextlib.suppress(Exception):
            faulthandler.cancel_dump_traceback_later()
        if exc is not None:
            # The traceback first: it is what the uncaught failure looked like.
            with contextlib.suppress(Exception):
                traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
        where = "no dump directory (JOBC_DUMP_DIR unset)"
        try:
            where = self.write_dumps(reason, exc)
        except Exception as error:  # the exit must happen whatever the disk says
            where = f"the dumps could not be written: {error}"
        with contextlib.suppress(Exception):
            print(
                f"jobc: rank {self.rank}: hang: {reason}; {where}; exiting with {self.exit_code}",
                file=sys.stderr,
                flush=True,
            )
            sys.stdout.flush()
        if self._linger:
            time.sleep(self._linger)
        os._exit(self.exit_code)

    def stacks(self, exc: BaseException | None) -> list[dict[str, Any]]:
        frames = sys._current_frames()
        names = {t.ident: t.name for t in threading.enumerate()}
        main = threading.main_thread().ident
        me = threading.get_ident()
        out: list[dict[str, Any]] = []
        for ident, frame in frames.items():
            if ident == me and exc is None:
                continue  # the watchdog's own stack says nothing about the hang
            if ident == main and exc is not None and exc.__traceback__ is not None:
                walked = _traceback_frames(exc.__traceback__)
            else:
                walked = _walk(frame)
            out.append(
                {
                    "thread": names.get(ident, str(ident)),
                    "id": ident,
                    "main": ident == main,
                    "frames": stack_frames(walked),
                }
            )
        out.sort(key=lambda t: (not t["main"], str(t["thread"])))
        return out

    def write_dumps(self, reason: str, exc: BaseException | None) -> str:
        stacks = self.stacks(exc)
        main = next((t for t in stacks if t["main"]), None)
        if main is not None:
            for frame in reversed(main["frames"][:12]):
                print(
                    f"jobc: rank {self.rank}:   {frame['file']}:{frame['line']} in {frame['function']}",
                    file=sys.stderr,
                )
        if self.dump_dir is None:
            return "no dump directory (JOBC_DUMP_DIR unset)"
        self.dump_dir.mkdir(parents=True, exist_ok=True)
        fr_name, stacks_name = dump_file_names(self.rank, self.restart)
        groups: dict[str, list[int]] = {}
        if self._groups is not None:
            with contextlib.suppress(Exception):
                groups = self._groups()
        recorder_note = "written"
        try:
            _write_atomic(self.dump_dir / fr_name, self._recorder(self.backend))
        except Exception as error:
            recorder_note = f"not written: {error}"
        record = {
            "version": 1,
            "rank": self.rank,
            "restart": self.restart,
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "backend": self.backend,
            "world_size": self.world_size,
            "groups": groups,
            "reason": reason,
            "steps": self._steps,
            "time": time.time(),
            "flight_recorder": recorder_note,
            "threads": stacks,
        }
        _write_atomic(self.dump_dir / stacks_name, json.dumps(record, indent=1).encode())
        return f"flight recorder and stacks in {self.dump_dir}"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else ""
