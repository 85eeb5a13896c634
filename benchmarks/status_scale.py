"""`jobc status` over a ledger of 1,000 jobs, beside the same command over a ledger of one.

Slurm's commands are stand-ins on PATH (shell scripts that print what squeue and sacct print for
those jobs: each job with its batch step and one srun step), so the time is jobc's own and not a
controller's; each stand-in logs its calls, and the script checks that a run asks Slurm once
per command (one squeue, one sacct), whatever the ledger's size. Fresh processes, interleaved.

    uv run python benchmarks/status_scale.py [--rounds N] [--jobs N] [--json]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from _bench import arguments, command, compile_bytecode, emit, interleaved, machine, table

from jobc.jobs import ledger


def fake_slurm(bin_dir: Path, ids: list[str]) -> Path:
    bin_dir.mkdir(parents=True)
    log = bin_dir / "calls.log"
    rows = []
    for job_id in ids:
        rows.append(
            f"{job_id}|t|COMPLETED|0:0|00:01:00|2|n[0-1]|debug|2026-01-01T00:00:00|2026-01-01T00:01:00"
        )
        rows.append(f"{job_id}.batch|batch|COMPLETED|0:0|00:01:00|1|n0|||")
        rows.append(f"{job_id}.0|python|COMPLETED|0:0|00:00:59|2|n[0-1]|||")
    (bin_dir / "sacct.out").write_text("\n".join(rows) + "\n")
    (bin_dir / "squeue.out").write_text("")
    (bin_dir / "scontrol.out").write_text("")
    for name in ("sacct", "squeue", "scontrol"):
        script = bin_dir / name
        script.write_text(f'#!/bin/sh\necho "{name}" >> "{log}"\ncat "{bin_dir / name}.out"\n')
        script.chmod(0o755)
    return log


def make_ledger(directory: Path, count: int) -> list[str]:
    ids = [str(100000 + i) for i in range(count)]
    for job_id in ids:
        ledger.write(
            directory,
            ledger.Entry(job_id, "spec.yaml", "0" * 64, "#!/bin/bash\n", "2026-01-01T00:00:00Z", "t"),
        )
    return ids


def main() -> int:
    parser = arguments(__doc__.splitlines()[0], rounds=11)
    parser.add_argument("--jobs", type=int, default=1000, help="ledger entries (default 1000)")
    args = parser.parse_args()
    compiled = [] if args.no_compile else compile_bytecode()
    jobc = command("jobc", "jobc")
    with tempfile.TemporaryDirectory(prefix="jobc-status-bench-") as tmp:
        root = Path(tmp)
        logs = {}
        for name, count in (("one", 1), ("many", args.jobs)):
            (root / name).mkdir()
            ids = make_ledger(root / name / ".jobc", count)
            logs[name] = fake_slurm(root / name / "bin", ids)
        path = os.environ.get("PATH", "")
        commands: dict[str, list[str]] = {"python": [sys.executable, "-c", "pass"]}
        for name in ("one", "many"):
            here = root / name
            fake_path = f"PATH={here / 'bin'}:{path}"
            commands[name] = ["env", fake_path, *jobc, "status", "--ledger", str(here / ".jobc")]
        samples = interleaved(commands, args.rounds)
        runs = args.rounds + 1  # the warm-up round runs too
        calls = {}
        for name in ("one", "many"):
            lines = logs[name].read_text().split()
            calls[name] = {tool: lines.count(tool) / runs for tool in ("squeue", "sacct", "scontrol")}
    one, many = samples["one"], samples["many"]
    result = {
        "machine": machine(),
        "rounds": args.rounds,
        "jobs": args.jobs,
        "one_wall_ms": one.wall_ms,
        "one_cpu_ms": one.cpu_ms,
        "many_wall_ms": many.wall_ms,
        "many_cpu_ms": many.cpu_ms,
        "ratio_wall": many.wall_ms / one.wall_ms,
        "ratio_cpu": many.cpu_ms / one.cpu_ms,
        "python_wall_ms": samples["python"].wall_ms,
        "calls_per_run": calls,
    }
    per_run = ", ".join(f"{int(n)} {tool}" for tool, n in calls["many"].items() if n)
    text = table(
        ["ledger", "jobc status (wall)", "jobc status (CPU)", "Slurm calls per run"],
        [
            ["1 job", f"{one.wall_ms:.0f} ms", f"{one.cpu_ms:.0f} ms", ", ".join(
                f"{int(n)} {tool}" for tool, n in calls["one"].items() if n)],
            [f"{args.jobs} jobs", f"{many.wall_ms:.0f} ms", f"{many.cpu_ms:.0f} ms", per_run],
        ],
    )  # fmt: skip
    text += (
        f"\n\nratio {args.jobs} jobs / 1 job: {result['ratio_wall']:.2f} (wall), "
        f"{result['ratio_cpu']:.2f} (CPU); python -c pass: {samples['python'].wall_ms:.0f} ms; medians of "
        f"{args.rounds} interleaved fresh-process runs; bytecode compiled: "
        f"{', '.join(compiled) if compiled else 'no'}"
    )
    emit(result, text, args.json)
    if calls["many"].get("squeue") != 1 or calls["many"].get("sacct") != 1:
        raise SystemExit(f"expected one squeue and one sacct per run, got {calls['many']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
