"""A stand-in program for the signal tests: counts every stop signal this process receives.

    count_signals.py OUT_DIR HOLD_S

On the first run (restart count 0) it writes `ready-<rank>`, waits for a signal, then stays
HOLD_S + 2 × rank seconds more (a checkpoint being written; any second copy of the signal arrives
in that time), writes `rank-<rank>.json` with every signal it got, and exits with the requeue
code. The ranks end one after the other, as real checkpoints do, so a launcher that stops the
others once the first has exited (torchrun does) is caught every time, not only when the machine
is slow enough to spread them. On a restart it exits 0 at once. No torch, no jobc: a plain
program. It waits for the signal as long as it is allowed to run: the job's time limit ends it.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

STOP_SIGNALS = (signal.SIGTERM, signal.SIGUSR1, signal.SIGUSR2, signal.SIGINT)


def main() -> int:
    out, hold = Path(sys.argv[1]), float(sys.argv[2])
    if os.environ.get("SLURM_RESTART_COUNT", "0") != "0":
        return 0
    rank = os.environ.get("RANK", os.environ.get("SLURM_PROCID", "0"))
    got: list[int] = []

    def on_signal(signum: int, frame: object) -> None:
        got.append(signum)

    for sig in STOP_SIGNALS:
        signal.signal(sig, on_signal)
    (out / f"ready-{rank}").write_text(str(os.getpid()), encoding="utf-8")
    while not got:
        time.sleep(0.05)
    end = time.monotonic() + hold + 2 * int(rank)
    while time.monotonic() < end:
        time.sleep(0.05)
    record = {"pid": os.getpid(), "signals": got, "executable": sys.executable}
    (out / f"rank-{rank}.json").write_text(json.dumps(record), encoding="utf-8")
    return int(os.environ.get("JOBC_REQUEUE_EXIT_CODE", "75"))


if __name__ == "__main__":
    sys.exit(main())
