"""A fork server for the multi-process runtime tests.

Importing torch costs several seconds of CPU per process; four ranks starting
together on a small test machine would take tens of seconds before the first
line of the program runs. This server imports torch and jobc.runtime once, then
forks one child per rank on request. Each child gets exactly the environment it
would get from srun (the server's own environment is cleared), its own process
group (so a test can signal a rank together with its DataLoader workers, as
slurmstepd signals every process of a step), and runs the program as
``python -m MODULE`` or ``python PATH`` would: through ``runpy`` with
``__name__ == "__main__"`` and the given ``sys.argv``.

Protocol: one JSON object per line on stdin, one reply per line on stdout.
  {"op": "launch", "ranks": [{"argv", "module" | "path", "env", "cwd", "stdout", "stderr"}]}
      -> {"pids": [...]}
  {"op": "wait", "pids": [...], "timeout": seconds}
      -> {"codes": [...], "timed_out": [...]}   (code: exit status, or -N for signal N)
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import runpy
import signal
import sys
import time
from typing import Any

# Preloaded so that forked children start instantly.
import torch
import torch.distributed
import torch.distributed.device_mesh
import torch.utils.data

import jobc.runtime.check
import jobc.runtime.world

del torch, jobc


def _child(spec: dict[str, Any]) -> None:
    os.setpgid(0, 0)
    out = os.open(spec["stdout"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    err = os.open(spec["stderr"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(out, 1)
    os.dup2(err, 2)
    for fd in (out, err, devnull):
        os.close(fd)
    sys.stdin = open(0, closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
    os.environ.clear()
    os.environ.update(spec["env"])
    os.chdir(spec["cwd"])
    sys.argv = list(spec["argv"])
    code: int = 0
    try:
        if "module" in spec:
            runpy.run_module(spec["module"], run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(spec["path"], run_name="__main__")
    except SystemExit as exc:
        if exc.code is None:
            code = 0
        elif isinstance(exc.code, int):
            code = exc.code
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    except BaseException:
        # As an interpreter does with an uncaught exception: through sys.excepthook, which a
        # program (or jobc.runtime's hang watchdog) may have replaced.
        sys.excepthook(*sys.exc_info())
        code = 1
    try:
        atexit._run_exitfuncs()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _wait(pids: list[int], timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    codes: dict[int, int] = {}
    timed_out: list[int] = []
    while len(codes) < len(pids):
        for pid in pids:
            if pid in codes:
                continue
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                codes[pid] = os.waitstatus_to_exitcode(status)
        if len(codes) < len(pids):
            if time.monotonic() >= deadline:
                for pid in pids:
                    if pid not in codes:
                        timed_out.append(pid)
                        with contextlib.suppress(ProcessLookupError):
                            os.killpg(pid, signal.SIGKILL)
                        codes[pid] = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
                break
            time.sleep(0.01)
    return {"codes": [codes[pid] for pid in pids], "timed_out": timed_out}


def main() -> None:
    reply = sys.stdout
    print(json.dumps({"ready": True}), file=reply, flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        if request["op"] == "launch":
            pids = []
            for spec in request["ranks"]:
                pid = os.fork()
                if pid == 0:
                    _child(spec)
                pids.append(pid)
            print(json.dumps({"pids": pids}), file=reply, flush=True)
        elif request["op"] == "wait":
            result = _wait(request["pids"], float(request["timeout"]))
            print(json.dumps(result), file=reply, flush=True)
        else:
            print(json.dumps({"error": f"unknown op {request['op']!r}"}), file=reply, flush=True)


if __name__ == "__main__":
    main()
