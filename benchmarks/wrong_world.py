"""How long a job whose world is not its spec's takes to fail, on the local Slurm test cluster.

    uv run python benchmarks/wrong_world.py [--rounds N] [--json]

The job is the one of tests/runtime/test_slurm_e2e.py: a spec for 2 nodes × 2 GPUs whose
contract says 8 ranks, so every rank's `jobc.runtime.init()` refuses the world of 4 before any
collective. The test checks that it fails that way by itself; this measures how long that takes
(from Slurm's StartTime to EndTime, and from sbatch to the end as the submitter sees it), in both
launch modes. Every rank imports torch first, so most of the time is four torch imports on
however many cores there are. Needs what the Slurm tests need (root, slurm-wlm, munge).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from _bench import ROOT, machine, table

sys.path.insert(0, str(ROOT))

from tests.compile.support import compile_data
from tests.runtime.test_slurm_e2e import time_limit_s, toy_job
from tests.support.cluster import SlurmCluster

MODES = ("srun", "torchrun")


def one(cluster: SlurmCluster, mode: str, root: Path) -> tuple[str, float, float]:
    """(final state, seconds StartTime→EndTime, seconds sbatch→end)."""
    (root / "logs").mkdir(parents=True)
    spec = toy_job(root, mode)
    script = root / "job.sh"
    script.write_text(compile_data(spec, "env.JOBC_WORLD_SIZE=8"), encoding="utf-8")
    submitted = time.monotonic()
    job = cluster.sbatch(script, cwd=root)
    state = cluster.wait(job, time_limit_s(spec) + 120)
    waited = time.monotonic() - submitted
    record = cluster.job(job)
    start, end = (datetime.fromisoformat(record[key]) for key in ("StartTime", "EndTime"))
    return state, (end - start).total_seconds(), waited


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    runs: dict[str, list[tuple[str, float, float]]] = {mode: [] for mode in MODES}
    cluster = SlurmCluster()
    cluster.start()
    try:
        with tempfile.TemporaryDirectory(prefix="jobc-bench-", dir="/tmp") as tmp:
            for round_ in range(args.rounds):
                for mode in MODES if round_ % 2 == 0 else reversed(MODES):
                    runs[mode].append(one(cluster, mode, Path(tmp) / f"{mode}-{round_}"))
    finally:
        cluster.stop()
    result: dict[str, Any] = {
        "machine": machine(),
        "rounds": args.rounds,
        "modes": {
            mode: {
                "states": sorted({state for state, _, _ in done}),
                "run_s_median": statistics.median(run for _, run, _ in done),
                "run_s_max": max(run for _, run, _ in done),
                "submit_to_end_s_median": statistics.median(waited for _, _, waited in done),
            }
            for mode, done in runs.items()
        },
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(
            table(
                ["launch mode", "final state", "run time (median)", "run time (max)", "sbatch to end"],
                [
                    [
                        mode,
                        ", ".join(r["states"]),
                        f"{r['run_s_median']:.1f} s",
                        f"{r['run_s_max']:.1f} s",
                        f"{r['submit_to_end_s_median']:.1f} s",
                    ]
                    for mode, r in result["modes"].items()
                ],
            )
        )
    return 0 if all(r["states"] == ["FAILED"] for r in result["modes"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
