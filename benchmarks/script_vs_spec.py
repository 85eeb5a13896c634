"""Linting an sbatch script against linting a spec of the same size.

Two pairs, each a script and the spec `jobc import` makes of it, padded with comment lines so both
files have the same number of bytes:

- typical: the Megatron script of the test corpus (a few dozen lines);
- long: the same script with 2,000 more batch-shell lines, and the spec with the same 2,000 lines
  in `launch.setup`.

Each file is linted cold (`jobc lint FILE`, a fresh process, interleaved rounds) and in one
process (`lint_path` in a loop, the first call not counted). The ratio is script / spec.
With `--instructions` the in-process lint is also counted in machine instructions under valgrind's
callgrind (the loop only, not the start of Python): the same count for the same run whatever else
the machine is doing, where times swing with its load.

    uv run python benchmarks/script_vs_spec.py [--rounds N] [--instructions] [--json]
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from _bench import ROOT, arguments, command, compile_bytecode, emit, interleaved, machine, table

SCRIPT = ROOT / "tests" / "script" / "corpus" / "megatron_gpt.sh"
EXTRA_LINES = 2000

IN_PROCESS = """
import json, statistics, sys, time
from pathlib import Path
from jobc.lint.scripts import lint_path
path, rounds = Path(sys.argv[1]), int(sys.argv[2])
lint_path(path)
times = []
for _ in range(rounds):
    t = time.perf_counter()
    lint_path(path)
    times.append(time.perf_counter() - t)
print(json.dumps({"ms": 1000 * statistics.median(times)}))
"""

# the loop alone: callgrind's counters are zeroed after two warm-up calls and dumped after it
IN_PROCESS_INSTRUCTIONS = """
import os, subprocess, sys
from pathlib import Path
from jobc.lint.scripts import lint_path
path, rounds = Path(sys.argv[1]), int(sys.argv[2])
lint_path(path)
lint_path(path)
subprocess.run(["callgrind_control", "-z", str(os.getpid())], capture_output=True, check=True)
for _ in range(rounds):
    lint_path(path)
subprocess.run(["callgrind_control", "-d", "loop", str(os.getpid())], capture_output=True, check=True)
"""
# calls counted per file: a long file's lint is counted fewer times, each costs more under valgrind
INSTRUCTION_ROUNDS = {"typical": 40, "long": 2}


def _pad(text: str, size: int) -> str:
    """``text`` with comment lines appended until it has ``size`` bytes."""
    missing = size - len(text.encode("utf-8"))
    while missing > 0:
        line = "#" + "x" * max(min(missing, 80) - 2, 0) + "\n"
        text += line
        missing -= len(line)
    return text


def make_pairs(root: Path) -> dict[str, tuple[Path, Path]]:
    sys.path.insert(0, str(ROOT / "src"))
    from jobc.commands.import_ import render
    from jobc.lint.imported import imported
    from jobc.script.parse import read_bytes

    body = "".join(f'echo "step {i}" >> "$LOG_DIR/steps-{i % 7}.txt"\n' for i in range(EXTRA_LINES))
    base = SCRIPT.read_text("utf-8")
    pairs = {}
    for name, script_text in (("typical", base), ("long", base + body)):
        facts = read_bytes(script_text.encode("utf-8"), f"{name}.sh")
        spec_text = render(imported(facts), facts)
        if name == "long":
            setup = "".join(f"    - {json.dumps(line)}\n" for line in body.splitlines())
            spec_text = spec_text.replace("launch:\n", "launch:\n  setup:\n" + setup, 1)
        size = max(len(script_text.encode()), len(spec_text.encode()))
        script, spec = root / f"{name}.sh", root / f"{name}.yaml"
        script.write_text(_pad(script_text, size), "utf-8")
        spec.write_text(_pad(spec_text, size), "utf-8")
        pairs[name] = (script, spec)
    return pairs


def in_process(path: Path, rounds: int) -> float:
    out = subprocess.run(
        [sys.executable, "-c", IN_PROCESS, str(path), str(rounds)], capture_output=True, text=True, check=True
    )
    return float(json.loads(out.stdout)["ms"])


def instructions(path: Path, rounds: int) -> float:
    """Machine instructions of one in-process `lint_path(path)`, the mean of ``rounds`` calls."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-c",
                IN_PROCESS_INSTRUCTIONS,
                str(path),
                str(rounds),
            ],
            env={**os.environ, "PYTHONHASHSEED": "0"},
            capture_output=True,
            check=True,
        )
        # the dump the loop asked for is the first numbered part; the rest is the exit's
        for line in out.with_name(f"{out.name}.1").read_text().splitlines():
            if line.startswith("summary:"):
                return int(line.split()[1]) / rounds
    raise RuntimeError(f"callgrind wrote no summary for {path}")


def main() -> None:
    parser = arguments(__doc__ or "", rounds=21)
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count the in-process lint's instructions with valgrind (slow)",
    )
    args = parser.parse_args()
    if args.instructions and not (shutil.which("valgrind") and shutil.which("callgrind_control")):
        parser.error("--instructions needs valgrind and callgrind_control on PATH")
    if not args.no_compile:
        compile_bytecode((*__import__("_bench").BYTECODE_PACKAGES, "tree_sitter", "tree_sitter_bash"))
    jobc = command("jobc", "jobc")
    rows, result = [], {"machine": machine(), "pairs": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for name, (script, spec) in make_pairs(Path(tmp)).items():
            cold = interleaved(
                {"script": [*jobc, "lint", str(script)], "spec": [*jobc, "lint", str(spec)]}, args.rounds
            )
            warm = {"script": in_process(script, args.rounds), "spec": in_process(spec, args.rounds)}
            size = script.stat().st_size
            result["pairs"][name] = {
                "bytes": size,
                "cold_cpu_ms": {k: v.cpu_ms for k, v in cold.items()},
                "cold_wall_ms": {k: v.wall_ms for k, v in cold.items()},
                "in_process_ms": warm,
            }
            row = [
                name,
                size,
                cold["script"].cpu_ms,
                cold["spec"].cpu_ms,
                cold["script"].cpu_ms / cold["spec"].cpu_ms,
                warm["script"],
                warm["spec"],
                warm["script"] / warm["spec"],
            ]
            if args.instructions:
                count = {
                    "script": instructions(script, INSTRUCTION_ROUNDS[name]),
                    "spec": instructions(spec, INSTRUCTION_ROUNDS[name]),
                }
                result["pairs"][name]["in_process_instructions"] = count
                row += [count["script"] / 1e6, count["spec"] / 1e6, count["script"] / count["spec"]]
            rows.append(row)
    text = table(
        [
            "pair",
            "bytes",
            "cold script CPU ms",
            "cold spec CPU ms",
            "ratio",
            "in-process script ms",
            "in-process spec ms",
            "ratio",
            *(["script M instructions", "spec M instructions", "ratio"] if args.instructions else []),
        ],
        rows,
    )
    emit(result, text, args.json)


if __name__ == "__main__":
    main()
