"""Specs per second in one process: 1000 variants of the bundled examples, linted one after another.

The specs are copies of `specs/*.yaml`, each with its own job name, in a temporary directory with
the cluster profiles beside them. Two ways in:

- the Python API: one fresh process imports `jobc.lint.pipeline` and calls `lint_file` on every spec; the
  rate counts the loop only (the import is reported on its own);
- the command line: `jobc lint DIR`, one fresh process; the rate counts the whole process, start-up
  and output included.

    uv run python benchmarks/throughput.py [--specs N] [--rounds N] [--json]
"""

from __future__ import annotations

import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _bench import SPECS, arguments, command, compile_bytecode, emit, machine, run_once, table

API_CHILD = """
import json, sys, time
t0 = time.perf_counter()
from jobc.lint.pipeline import lint_file
t1 = time.perf_counter()
from pathlib import Path
paths = sorted(Path(sys.argv[1]).glob("*.yaml"))
findings = 0
t2 = time.perf_counter()
for path in paths:
    findings += len(lint_file(path).findings)
t3 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "loop_s": t3 - t2, "specs": len(paths), "findings": findings}))
"""


def make_specs(root: Path, count: int) -> Path:
    """`count` specs in root/specs, the profiles in root/clusters; returns the specs directory."""
    shutil.copytree(SPECS / "clusters", root / "clusters")
    out = root / "specs"
    out.mkdir()
    examples = sorted(SPECS.glob("*.yaml"))
    for i in range(count):
        example = examples[i % len(examples)]
        text = example.read_text("utf-8")
        text = re.sub(r"^name: (\S+)", rf"name: \g<1>-{i:04d}", text, count=1, flags=re.M)
        text = re.sub(r"^extends: clusters/", "extends: ../clusters/", text, count=1, flags=re.M)
        (out / f"{i:04d}-{example.name}").write_text(text, "utf-8")
    return out


def _span(rates: list[float]) -> str:
    return f"{min(rates):.0f}–{max(rates):.0f}"


def main() -> int:
    parser = arguments(__doc__.splitlines()[0], rounds=5)
    parser.add_argument("--specs", type=int, default=1000, help="how many specs (default 1000)")
    args = parser.parse_args()
    compiled = [] if args.no_compile else compile_bytecode()
    jobc = command("jobc", "jobc")
    with tempfile.TemporaryDirectory(prefix="jobc-bench-") as tmp:
        specs = make_specs(Path(tmp), args.specs)
        api_rates, api_imports, cli_rates, cli_cpu = [], [], [], []
        api_findings = 0
        for i in range(args.rounds + 1):  # round 0 warms the page cache and is not counted
            for way in ("api", "cli") if i % 2 else ("cli", "api"):
                if way == "api":
                    out = subprocess.run(
                        [sys.executable, "-c", API_CHILD, str(specs)],
                        capture_output=True,
                        text=True,
                        check=True,
                    ).stdout
                    result = json.loads(out)
                    api_findings = result["findings"]
                    if i:
                        api_rates.append(result["specs"] / result["loop_s"])
                        api_imports.append(result["import_s"])
                else:
                    wall, cpu, code, err = run_once([*jobc, "lint", str(specs)])
                    if code not in (0, 1):
                        raise SystemExit(f"jobc lint: exit {code}\n{err}")
                    if i:
                        cli_rates.append(args.specs / wall)
                        cli_cpu.append(cpu)
        listing = subprocess.run(
            [*jobc, "lint", "--format", "json", str(specs)], check=False, capture_output=True, text=True
        ).stdout
        cli_findings = len(json.loads(listing))
    result = {
        "machine": machine(),
        "specs": args.specs,
        "rounds": args.rounds,
        "api_specs_per_s": statistics.median(api_rates),
        "api_range": [min(api_rates), max(api_rates)],
        "api_import_ms": 1000 * statistics.median(api_imports),
        "cli_specs_per_s": statistics.median(cli_rates),
        "cli_range": [min(cli_rates), max(cli_rates)],
        "cli_cpu_s": statistics.median(cli_cpu),
        "findings_api": api_findings,
        "findings_cli": cli_findings,
    }
    text = table(
        ["way in", "specs", "specs/s (median)", "range", "note"],
        [
            ["Python API, lint_file loop", args.specs, result["api_specs_per_s"], _span(api_rates),
             f"import of jobc.lint.pipeline {result['api_import_ms']:.0f} ms, not counted"],
            [f"jobc lint DIR ({args.specs} files)", args.specs, result["cli_specs_per_s"], _span(cli_rates),
             f"whole process, {result['cli_cpu_s']:.2f} s CPU"],
        ],
    )  # fmt: skip
    text += (
        f"\n\nmedians of {args.rounds} interleaved rounds; findings: {api_findings} (API), "
        f"{cli_findings} (CLI); bytecode compiled: {', '.join(compiled) if compiled else 'no'}"
    )
    emit(result, text, args.json)
    return 0 if api_findings == cli_findings else 1


if __name__ == "__main__":
    raise SystemExit(main())
