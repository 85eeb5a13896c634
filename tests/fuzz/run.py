"""Run one fuzz target for a given number of inputs, without extra dependencies.

    uv run python -m tests.fuzz.run script --runs 10000 [--seed 1]
    uv run python -m tests.fuzz.run import --runs 10000
    uv run python -m tests.fuzz.run spec --runs 10000

(Job logs have their own target: `python -m tests.fuzz.log_target --runs N`.) Each input is a
seed file of the target (the script corpus, the example specs) mutated a few times: bytes
flipped, inserted, deleted or duplicated, a hostile fragment spliced in (huge and Unicode
numbers, control characters, NUL, CRLF, a BOM, deep nesting, secrets, braces, invalid UTF-8), or
two seeds spliced together. The inputs depend only on the seed, so a run can be repeated. The
first failing input is written to `crash-<target>-<n>` in the current directory with the
assertion, and the run exits 1; otherwise it prints how many inputs ran and exits 0.

    uv run python -m tests.fuzz.run import --replay crash-import-285 [more files]

runs the target on each file as it is (no mutation): the assertion of each that fails, exit 1
when any failed.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from tests.fuzz import target

# fragments that reached a traceback or a quadratic path once, or are known to be hard
FRAGMENTS = [
    b"9" * 5000,
    "\u00b2".encode(),
    "\u0663".encode(),
    b"\x00",
    b"\r\n",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\x1b[2J\x07",
    b"\xc2\x85",
    "\u202e".encode(),
    b"if true; then\n" * 200 + b"fi\n" * 200,
    b"(" * 300 + b"true" + b")" * 300 + b"\n",
    b" && ".join([b"true"] * 500) + b"\n",
    b"$((" * 500,
    b"fi\n",
    b"#SBATCH --nodes=",
    b"#SBATCH --gres=gpu:",
    b"#SBATCH --time=",
    b"srun torchrun --nnodes=",
    b"srun python train.py ckpt-{epoch}-{step}.pt '{name}-{resources.nodes}n' ",
    b"export HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz0123456789\n",
    b"export 1A=x\n",
    b"srun bash -c '\n" + b"echo $x\n" * 200 + b"'\n",
    b"echo $SLURM_PROCID\n" * 50,
    b"# jobc: ignore[JC101]\n" * 50,
    b"[rank" + b"9" * 5000 + b"]: ",
    b"srun: error: node1: tasks 0-1000000000: Killed\n",
    b"Traceback (most recent call last):\n",
    b"torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n",
    b"NCCL " * 300,
    b"\r" * 100,
]

TARGETS: dict[str, tuple[Callable[[Path, bytes], None], Callable[[], list[Path]]]] = {
    "script": (target.run_script, target.script_seeds),
    "import": (target.run_import, target.script_seeds),
    "spec": (target.run, target.examples),
    "fix-script": (target.run_fix_script, target.script_seeds),
    "fix-spec": (target.run_fix_spec, target.examples),
    "flight": (target.run_flight, target.flight_seeds),
}


def mutate(rng: random.Random, data: bytes, seeds: list[bytes]) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(out))
        kind = rng.randrange(6)
        if kind == 0 and out:
            out[min(at, len(out) - 1)] = rng.randrange(256)
        elif kind == 1:
            out[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif kind == 2:
            del out[at : at + rng.randint(1, 32)]
        elif kind == 3:
            out[at:at] = rng.choice(FRAGMENTS)
        elif kind == 4:
            other = rng.choice(seeds)
            cut = rng.randint(0, len(other))
            out = out[:at] + other[cut:]
        else:
            start = rng.randint(0, len(out))
            out[at:at] = out[start : start + rng.randint(1, 64)]
    return bytes(out[: 1 << 20])


def _workdir(name: str) -> Path:
    directory = Path(tempfile.mkdtemp(prefix=f"jobc-fuzz-{name}-"))
    if name in ("spec", "fix-spec"):
        target.workspace(directory)
    return directory


def replay(name: str, files: list[Path]) -> int:
    """Run the target on each file unchanged (a saved crash input): say which fail and why."""
    run = TARGETS[name][0]
    failed = 0
    for path in files:
        try:
            run(_workdir(name), path.read_bytes())
        except Exception:  # a failure of the target is the answer asked for
            failed += 1
            print(f"{path}: fails", file=sys.stderr)
            traceback.print_exc()
        else:
            print(f"{path}: holds")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz.run", description=__doc__.split("\n")[0])
    parser.add_argument("target", choices=sorted(TARGETS))
    parser.add_argument("--runs", type=int, default=1000, help="inputs to run (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="the random seed (default 1)")
    parser.add_argument("--start", type=int, default=0, help="skip the inputs before this one (default 0)")
    parser.add_argument("--replay", nargs="+", type=Path, metavar="FILE", help="run these inputs as they are")
    args = parser.parse_args(argv)
    run, seed_files = TARGETS[args.target]
    if args.replay:
        return replay(args.target, args.replay)
    seeds = [p.read_bytes() for p in seed_files()]
    rng = random.Random(args.seed)
    directory = _workdir(args.target)
    start = time.monotonic()
    for n in range(args.runs):
        data = mutate(rng, rng.choice(seeds), seeds)
        if n < args.start:
            continue  # drawn all the same: input n of a seed is the same input however it is reached
        try:
            run(directory, data)
        except Exception:  # every failure is a finding of the fuzzer
            crash = Path(f"crash-{args.target}-{n}")
            crash.write_bytes(data)
            print(f"input {n} failed (written to {crash}):", file=sys.stderr)
            traceback.print_exc()
            return 1
        if (n + 1) % 100 == 0:
            print(f"{args.target}: {n + 1} inputs, no failure so far", flush=True)  # a long run's progress
    took = time.monotonic() - start
    print(f"{args.target}: {args.runs} inputs, seed {args.seed}, no failure ({took:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
