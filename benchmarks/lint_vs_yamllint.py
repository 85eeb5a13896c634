"""`jobc lint SPEC` against `yamllint SPEC` on the same file: fresh processes, cold.

Cold means a new interpreter per run and nothing remembered between runs (jobc keeps no cache).
Both tools run as installed console scripts with their default configuration, from the
repository root, with bytecode compiled for both (unless --no-compile). `python -c pass` is
measured alongside as the floor every Python tool pays.

    uv run python benchmarks/lint_vs_yamllint.py [--rounds N] [--json]
"""

from __future__ import annotations

import sys
from pathlib import Path

from _bench import SPECS, arguments, command, compile_bytecode, emit, interleaved, machine, table


def examples() -> list[Path]:
    """The smallest, a middle-sized and the largest bundled example."""
    by_size = sorted(SPECS.glob("*.yaml"), key=lambda p: p.stat().st_size)
    picked = [by_size[0], by_size[len(by_size) // 2], by_size[-1]]
    return list(dict.fromkeys(picked))


def main() -> int:
    args = arguments(__doc__.splitlines()[0], rounds=31).parse_args()
    compiled = [] if args.no_compile else compile_bytecode()
    jobc, yamllint = command("jobc", "jobc"), command("yamllint", "yamllint")
    rows, results = [], []
    for spec in examples():
        rel = str(spec.relative_to(SPECS.parent))
        samples = interleaved(
            {
                "python": [sys.executable, "-c", "pass"],
                "jobc": [*jobc, "lint", rel],
                "yamllint": [*yamllint, rel],
            },
            args.rounds,
        )
        py, jc, yl = samples["python"], samples["jobc"], samples["yamllint"]
        entry = {
            "spec": rel,
            "bytes": spec.stat().st_size,
            "jobc_exit": sorted(jc.codes),
            "python_wall_ms": py.wall_ms,
            "jobc_wall_ms": jc.wall_ms,
            "yamllint_wall_ms": yl.wall_ms,
            "ratio_wall": jc.wall_ms / yl.wall_ms,
            "python_cpu_ms": py.cpu_ms,
            "jobc_cpu_ms": jc.cpu_ms,
            "yamllint_cpu_ms": yl.cpu_ms,
            "ratio_cpu": jc.cpu_ms / yl.cpu_ms,
            # runs are interleaved, so round i of each tool ran at about the same time
            "rounds_jobc_faster_cpu": sum(j < y for j, y in zip(jc.cpu, yl.cpu, strict=True)),
        }
        results.append(entry)
        rows.append(
            [
                f"{rel} ({entry['bytes']} B)",
                py.wall_ms,
                jc.wall_ms,
                yl.wall_ms,
                f"{entry['ratio_wall']:.2f}",
                f"{entry['ratio_cpu']:.2f}",
                f"{entry['rounds_jobc_faster_cpu']}/{args.rounds}",
            ]
        )
    text = table(
        ["spec", "python -c pass ms", "jobc lint ms", "yamllint ms", "ratio (wall)", "ratio (CPU)",
         "jobc faster (CPU)"],
        rows,
    )  # fmt: skip
    text += (
        f"\n\nmedians of {args.rounds} interleaved fresh-process runs; ratio = jobc / yamllint; "
        f"bytecode compiled: {', '.join(compiled) if compiled else 'no'}"
    )
    emit({"machine": machine(), "rounds": args.rounds, "results": results}, text, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
