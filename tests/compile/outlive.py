"""A stand-in program for the step-ending tests.

    outlive.py OUT_DIR LONG_RANK LONG_S [FAILING_RANK]

Rank LONG_RANK runs LONG_S seconds (the last checkpoint, an export) and the others end at once,
with exit code 0, except FAILING_RANK (if given), which exits 3. A rank that reaches its end
writes `done-<rank>`.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path


def main() -> int:
    out, long_rank, long_s = Path(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    failing = int(sys.argv[4]) if len(sys.argv) > 4 else None
    rank = int(os.environ["SLURM_PROCID"])
    if rank == failing:
        return 3
    if rank == long_rank:
        time.sleep(long_s)
    (out / f"done-{rank}").write_text("", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
