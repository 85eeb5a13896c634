"""`jobc lint SCRIPT` against `shellcheck SCRIPT` on the same real sbatch script: fresh processes, cold.

Two scripts of the test corpus, both taken from public repositories: the Megatron script (a few
dozen lines, the one `script_vs_spec.py` uses) and the longest one, AWS's Megatron-LM training
script. Each tool runs as a user runs it (`jobc lint FILE`, `shellcheck FILE`, default options),
a fresh process per run, interleaved, with `python -c pass` alongside as the floor every Python
tool pays. jobc's bytecode is compiled first (unless --no-compile); shellcheck is a compiled
program. Reports medians and the ratio jobc / shellcheck for wall and CPU time. Says so and
measures nothing when shellcheck is not installed.

    uv run python benchmarks/script_vs_shellcheck.py [--rounds N] [--json]
"""

from __future__ import annotations

import shutil
import sys

from _bench import ROOT, arguments, command, compile_bytecode, emit, interleaved, machine, table

CORPUS = ROOT / "tests" / "script" / "corpus"
SCRIPTS = (CORPUS / "megatron_gpt.sh", CORPUS / "aws_megatron.sbatch")


def main() -> int:
    args = arguments(__doc__.splitlines()[0], rounds=31).parse_args()
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        emit({"available": False}, "shellcheck is not installed: nothing measured", args.json)
        return 0
    compiled = [] if args.no_compile else compile_bytecode()
    jobc = command("jobc", "jobc")
    rows, results = [], []
    for script in SCRIPTS:
        rel = str(script.relative_to(ROOT))
        samples = interleaved(
            {
                "python": [sys.executable, "-c", "pass"],
                "jobc": [*jobc, "lint", rel],
                "shellcheck": [shellcheck, rel],
            },
            args.rounds,
        )
        py, jc, sc = samples["python"], samples["jobc"], samples["shellcheck"]
        entry = {
            "script": rel,
            "bytes": script.stat().st_size,
            "lines": len(script.read_bytes().splitlines()),
            "jobc_exit": sorted(jc.codes),
            "python_wall_ms": py.wall_ms,
            "jobc_wall_ms": jc.wall_ms,
            "shellcheck_wall_ms": sc.wall_ms,
            "ratio_wall": jc.wall_ms / sc.wall_ms,
            "python_cpu_ms": py.cpu_ms,
            "jobc_cpu_ms": jc.cpu_ms,
            "shellcheck_cpu_ms": sc.cpu_ms,
            "ratio_cpu": jc.cpu_ms / sc.cpu_ms,
        }
        results.append(entry)
        rows.append(
            [
                f"{rel} ({entry['lines']} lines)",
                py.wall_ms,
                jc.wall_ms,
                sc.wall_ms,
                f"{entry['ratio_wall']:.2f}",
                f"{entry['ratio_cpu']:.2f}",
            ]
        )
    text = table(
        ["script", "python -c pass ms", "jobc lint ms", "shellcheck ms", "ratio (wall)", "ratio (CPU)"], rows
    )
    text += (
        f"\n\nmedians of {args.rounds} interleaved fresh-process runs; ratio = jobc / shellcheck; "
        f"bytecode compiled: {', '.join(compiled) if compiled else 'no'}"
    )
    result = {"available": True, "machine": machine(), "rounds": args.rounds, "results": results}
    emit(result, text, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
