"""`jobc compile SPEC` for every bundled example: fresh processes, cold, medians of interleaved runs.

Compiling lints first (a spec with errors is refused), so the time includes the lint. Where this
jobc has no `compile` command the script says so and exits 0.

    uv run python benchmarks/compile_examples.py [--rounds N] [--json]
"""

from __future__ import annotations

import subprocess
import sys

from _bench import SPECS, arguments, command, compile_bytecode, emit, interleaved, machine, table


def has_compile(jobc: list[str]) -> bool:
    done = subprocess.run([*jobc, "--help"], capture_output=True, text=True, check=False)
    return any(line.split()[:1] == ["compile"] for line in done.stdout.splitlines())


def main() -> int:
    args = arguments(__doc__.splitlines()[0], rounds=11).parse_args()
    jobc = command("jobc", "jobc")
    if not has_compile(jobc):
        message = "jobc compile: not available in this jobc (no `compile` in `jobc --help`); nothing measured"
        emit({"machine": machine(), "available": False, "results": []}, message, args.json)
        return 0
    compiled = [] if args.no_compile else compile_bytecode()
    examples = sorted(SPECS.glob("*.yaml"))
    commands = {"python": [sys.executable, "-c", "pass"]}
    commands.update({p.name: [*jobc, "compile", str(p.relative_to(SPECS.parent))] for p in examples})
    commands.update({f"lint {p.name}": [*jobc, "lint", str(p.relative_to(SPECS.parent))] for p in examples})
    samples = interleaved(commands, args.rounds)
    results, rows = [], []
    for p in examples:
        comp, lint = samples[p.name], samples[f"lint {p.name}"]
        results.append(
            {
                "spec": p.name,
                "bytes": p.stat().st_size,
                "exit": sorted(comp.codes),
                "compile_wall_ms": comp.wall_ms,
                "compile_cpu_ms": comp.cpu_ms,
                "lint_wall_ms": lint.wall_ms,
                "lint_cpu_ms": lint.cpu_ms,
            }
        )
        rows.append([p.name, comp.wall_ms, comp.cpu_ms, lint.wall_ms, "/".join(map(str, sorted(comp.codes)))])
    text = table(["spec", "compile ms (wall)", "compile ms (CPU)", "lint ms (wall)", "exit"], rows)
    text += (
        f"\n\npython -c pass: {samples['python'].wall_ms:.0f} ms; medians of {args.rounds} interleaved "
        f"fresh-process runs; bytecode compiled: {', '.join(compiled) if compiled else 'no'}"
    )
    result = {"machine": machine(), "available": True, "rounds": args.rounds, "results": results,
              "python_wall_ms": samples["python"].wall_ms}  # fmt: skip
    emit(result, text, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
