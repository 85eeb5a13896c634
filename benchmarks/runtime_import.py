"""What importing `jobc.runtime` adds to a training program that already imports torch.

Each round is a fresh interpreter that imports torch, then `jobc.runtime`, then `init` from it
(which loads the torch-facing part), timing each step with the interpreter's own clock; the
difference of two whole-process times would drown a few milliseconds in torch's own variation.
A second fresh interpreter imports `jobc.runtime` alone and reports whether that pulled in torch
(it must not). The bytecode of every module these runs import is compiled first (unless
--no-compile).

    uv run python benchmarks/runtime_import.py [--rounds N] [--json]
"""

from __future__ import annotations

import compileall
import json
import statistics
import subprocess
import sys

from _bench import arguments, emit, machine, table

STEPS = """
import json, sys, time
t0 = time.perf_counter()
import torch
t1 = time.perf_counter()
import jobc.runtime
t2 = time.perf_counter()
from jobc.runtime import init
t3 = time.perf_counter()
print(json.dumps({"torch": t1 - t0, "runtime": t2 - t1, "init": t3 - t2}))
"""
ALONE = """
import json, sys, time
t0 = time.perf_counter()
import jobc.runtime
t1 = time.perf_counter()
print(json.dumps({"alone": t1 - t0, "torch_imported": "torch" in sys.modules}))
"""
FILES = """import json, sys
{code}
print(json.dumps([getattr(m, "__file__", None) for m in list(sys.modules.values())]))
"""


def run_json(code: str) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded: dict[str, float] = json.loads(out.splitlines()[-1])
    return loaded


def compile_imported(code: str) -> int:
    """Compile the bytecode of every module that ``code`` imports; returns how many files."""
    out = subprocess.run(
        [sys.executable, "-c", FILES.format(code=code)], capture_output=True, text=True, check=True
    ).stdout
    files = [f for f in json.loads(out.splitlines()[-1]) if f and f.endswith(".py")]
    for path in files:
        compileall.compile_file(path, quiet=2)
    return len(files)


def main() -> int:
    args = arguments(__doc__.splitlines()[0], rounds=7).parse_args()
    probe = subprocess.run([sys.executable, "-c", "import torch"], capture_output=True, check=False)
    if probe.returncode != 0:
        emit(
            {"machine": machine(), "available": False}, "torch is not installed: nothing measured", args.json
        )
        return 0
    compiled = 0 if args.no_compile else compile_imported("import torch\nfrom jobc.runtime import init")
    run_json(STEPS)  # warm the page cache; not counted
    steps = [run_json(STEPS) for _ in range(args.rounds)]
    alone = [run_json(ALONE) for _ in range(args.rounds)]
    ms = {key: 1000 * statistics.median(s[key] for s in steps) for key in ("torch", "runtime", "init")}
    alone_ms = 1000 * statistics.median(a["alone"] for a in alone)
    leaked = any(a["torch_imported"] for a in alone)
    text = table(
        ["step (in one fresh process)", "ms (median)"],
        [
            ["import torch", ms["torch"]],
            ["then import jobc.runtime", ms["runtime"]],
            ["then from jobc.runtime import init", ms["init"]],
            ["import jobc.runtime, no torch (own process)", alone_ms],
        ],
    )
    text += (
        f"\n\njobc.runtime with init over import torch: {ms['runtime'] + ms['init']:.1f} ms "
        f"({100 * (ms['runtime'] + ms['init']) / ms['torch']:.1f} % of torch's import)"
        f"\nimport jobc.runtime alone imports torch: {leaked}"
        f"\nmedians of {args.rounds} fresh processes; bytecode compiled for {compiled} imported files"
    )
    result = {
        "machine": machine(),
        "available": True,
        "rounds": args.rounds,
        "torch_ms": ms["torch"],
        "runtime_ms": ms["runtime"],
        "init_ms": ms["init"],
        "runtime_alone_ms": alone_ms,
        "runtime_alone_imports_torch": leaked,
    }
    emit(result, text, args.json)
    return 1 if leaked else 0


if __name__ == "__main__":
    raise SystemExit(main())
