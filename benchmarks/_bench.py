"""What the benchmark scripts share: fresh processes, interleaved rounds, medians, tables.

Timings are taken per child process: wall time from the parent's clock and CPU time (user +
system) from the child's resource usage. The CPU time is the steadier number on a busy machine;
the wall time is what a person waits for. Commands that are compared run interleaved (A B C, then
B C A, …), so a burst of load elsewhere hits every command rather than one of them.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SPECS = ROOT / "specs"

# Imported on the paths the benchmarks run; their bytecode is compiled up front so that no run
# pays for compiling source (PYTHONDONTWRITEBYTECODE=1 would otherwise make every run pay).
# `_distutils_hack` is setuptools' module that its `distutils-precedence.pth` imports at the start
# of every process of an environment holding setuptools (`python -c pass` included): uncompiled,
# it was about 2.5 ms of every fresh process of both tools, spent compiling its source.
BYTECODE_PACKAGES = (
    "_distutils_hack",
    "jobc",
    "ruamel.yaml",
    "yaml",
    "yamllint",
    "pathspec",
    "pydantic",
    "pydantic_core",
    "jsonschema",
    "jsonschema_specifications",
    "referencing",
    "rpds",
    "attrs",
    "typing_extensions",
    "annotated_types",
    "typing_inspection",
)


@dataclass
class Sample:
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    codes: set[int] = field(default_factory=set)

    @property
    def wall_ms(self) -> float:
        return 1000 * statistics.median(self.wall)

    @property
    def cpu_ms(self) -> float:
        return 1000 * statistics.median(self.cpu)


def arguments(description: str, rounds: int) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--rounds", type=int, default=rounds, help=f"repetitions (default {rounds})")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--no-compile",
        action="store_true",
        help="do not compile bytecode first (then runs may include compiling source)",
    )
    return parser


def compile_bytecode(packages: Sequence[str] = BYTECODE_PACKAGES) -> list[str]:
    """Compile the bytecode of these installed packages (those that exist); returns their names."""
    done = []
    for name in packages:
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        if spec is None:
            continue
        for location in spec.submodule_search_locations or [spec.origin or ""]:
            if location and os.path.exists(location):
                if os.path.isdir(location):
                    compileall.compile_dir(location, quiet=2, workers=1)
                else:
                    compileall.compile_file(location, quiet=2)
        done.append(name)
    return done


def command(script: str, module: str) -> list[str]:
    """The console script installed beside this interpreter, as users run it; else `-m module`."""
    found = Path(sys.executable).parent / script
    if found.is_file():
        return [str(found)]
    located = shutil.which(script)
    return [located] if located else [sys.executable, "-m", module]


def run_once(argv: Sequence[str], cwd: Path = ROOT) -> tuple[float, float, int, str]:
    """One fresh process: (wall s, cpu s, exit code, stderr)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stderr.close()
    return wall, usage.ru_utime + usage.ru_stime, proc.returncode, err.decode(errors="replace")


def interleaved(commands: dict[str, list[str]], rounds: int, cwd: Path = ROOT) -> dict[str, Sample]:
    """Run every command once per round, rotating the order; one untimed warm-up round first."""
    names = list(commands)
    samples = {name: Sample() for name in names}
    for name in names:  # warm the page cache; not counted
        run_once(commands[name], cwd)
    for i in range(rounds):
        shift = i % len(names)
        for name in names[shift:] + names[:shift]:
            wall, cpu, code, err = run_once(commands[name], cwd)
            if code not in (0, 1):
                raise SystemExit(f"{name}: exit {code}\n{err}")
            samples[name].wall.append(wall)
            samples[name].cpu.append(cpu)
            samples[name].codes.add(code)
    return samples


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A Markdown table: readable in a terminal and pasteable into the README."""
    text = [[str(h) for h in headers], *[[_cell(v) for v in row] for row in rows]]
    widths = [max(len(r[i]) for r in text) for i in range(len(headers))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |" for r in text]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}" if abs(value) < 10 else f"{value:.0f}"
    return str(value)


def machine() -> dict[str, Any]:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "python": sys.version.split()[0],
        "load_1min": round(load, 2),
    }


def emit(result: dict[str, Any], text: str, as_json: bool) -> None:
    if as_json:
        json.dump(result, sys.stdout, indent=2)
        print()
    else:
        print(text)
