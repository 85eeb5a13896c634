"""Run every benchmark and print the README's "Benchmarks" section (or write it with --write).

    uv run python benchmarks/run_all.py [--quick] [--write] [--targets]

--quick uses fewer rounds (for a look, not for the README); --targets runs only the four
measures the targets name and prints their table. --write replaces the text between the
`<!-- benchmarks:start -->` and `<!-- benchmarks:end -->` markers in README.md (or, the first time,
the paragraph under "## Benchmarks").
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from _bench import ROOT, compile_bytecode, machine, table

HERE = Path(__file__).resolve().parent
START, END = "<!-- benchmarks:start -->", "<!-- benchmarks:end -->"


def run(script: str, rounds: int | None, *extra: str) -> Any:
    argv = [sys.executable, str(HERE / script), "--json", *extra]
    if rounds is not None:
        argv += ["--rounds", str(rounds)]
    print(f"running {script} …", file=sys.stderr, flush=True)
    done = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"{script} failed (exit {done.returncode}):\n{done.stdout}\n{done.stderr}")
    return json.loads(done.stdout)


#: What jobc is held to (the README's first table): lint at pre-commit speed.
LINT_TARGET = 0.5  # cold lint of one spec, at most this times yamllint on the same file
SPECS_PER_S_TARGET = 2000  # specs per second in one process
SCRIPT_TARGET = 3.0  # cold lint of one real sbatch script, at most this times shellcheck
TRIAGE_TARGET = 10.0  # triage of a 300 MiB log, at most this times grep -c with triage's keywords
TRIAGE_MIB = 300


def targets(lint: dict[str, Any], many: dict[str, Any], script: dict[str, Any], triage: Any) -> str:
    """One row per target: what was measured, against what, and whether the target is met. Wall
    time decides, as a person waits it; the CPU ratio is beside it."""

    def met(ok: bool) -> str:
        return "yes" if ok else "**no**"

    worst = max(lint["results"], key=lambda r: r["ratio_wall"])
    rows = [
        [
            f"cold lint of one spec / yamllint (worst of {len(lint['results'])} specs: `{worst['spec']}`)",
            f"{worst['jobc_wall_ms']:.0f} ms / {worst['yamllint_wall_ms']:.0f} ms",
            f"{worst['ratio_wall']:.2f} (CPU {worst['ratio_cpu']:.2f})",
            f"≤ {LINT_TARGET}",
            met(worst["ratio_wall"] <= LINT_TARGET),
        ],
        [
            "specs per second in one process (`lint_file` loop; `jobc lint DIR`)",
            f"{many['api_specs_per_s']:.0f}; {many['cli_specs_per_s']:.0f}",
            "",
            f"≥ {SPECS_PER_S_TARGET}",
            met(min(many["api_specs_per_s"], many["cli_specs_per_s"]) >= SPECS_PER_S_TARGET),
        ],
    ]
    if script.get("available"):
        for r in script["results"]:
            rows.append(
                [
                    f"cold lint of a real sbatch script / shellcheck (`{r['script'].rsplit('/', 1)[-1]}`)",
                    f"{r['jobc_wall_ms']:.0f} ms / {r['shellcheck_wall_ms']:.0f} ms",
                    f"{r['ratio_wall']:.2f} (CPU {r['ratio_cpu']:.2f})",
                    f"≤ {SCRIPT_TARGET:.0f}",
                    met(r["ratio_wall"] <= SCRIPT_TARGET),
                ]
            )
    for r in triage:
        rows.append(
            [
                f"triage of a {r['size_mb']} MiB log / `grep -c` with triage's keywords",
                f"{r['triage_s']:.1f} s / {r['grep_keywords_s']:.1f} s",
                f"{r['ratio_keywords']:.1f} (CPU {r['ratio_keywords_cpu']:.1f})",
                f"≤ {TRIAGE_TARGET:.0f}",
                met(r["ratio_keywords"] <= TRIAGE_TARGET),
            ]
        )
    return table(["measure", "jobc / reference", "ratio (wall)", "target", "met"], rows)


def section(quick: bool) -> str:
    lint = run("lint_vs_yamllint.py", 5 if quick else 41)
    many = run("throughput.py", 1 if quick else 7)
    script = run("script_vs_shellcheck.py", 5 if quick else 41)
    compile_bytecode()  # triage_vs_grep.py runs jobc from the checkout without compiling it
    triage = run("triage_vs_grep.py", None, "--sizes", str(TRIAGE_MIB))
    comp = run("compile_examples.py", 3 if quick else 11)
    rt = run("runtime_import.py", 3 if quick else 7)
    fr = run("flight_recorder.py", 3 if quick else 7)
    scale = run("status_scale.py", 3 if quick else 11)
    m = machine()
    parts = [
        f"Measured with `uv run python benchmarks/run_all.py` on {m['nproc']} cores ({m['cpu']}), "
        f"Python {m['python']}, a machine shared with other work (1-minute load average "
        f"{lint['machine']['load_1min']} at the start). Bytecode is compiled for both tools first; "
        '"cold" is a fresh process each time (jobc keeps no cache between runs). Times are medians of '
        f"interleaved runs ({lint['rounds']} per tool and file for lint); wall time is what a person "
        "waits, CPU time (user + system of the process) is the steadier number on a busy machine.",
        "",
        "**Targets** (the tables below give the detail):",
        "",
        targets(lint, many, script, triage),
        "",
        "**Lint one spec, cold, against yamllint on the same file** (both with their default "
        "configuration; ratio below 1 means jobc is faster; the last column counts the rounds in which "
        "jobc used less CPU than yamllint run right beside it):",
        "",
        table(
            ["spec", "jobc lint", "yamllint", "python -c pass", "ratio (wall)", "ratio (CPU)", "jobc faster"],
            [
                [
                    f"`{r['spec']}` ({r['bytes']} B)",
                    f"{r['jobc_wall_ms']:.0f} ms",
                    f"{r['yamllint_wall_ms']:.0f} ms",
                    f"{r['python_wall_ms']:.0f} ms",
                    f"{r['ratio_wall']:.2f}",
                    f"{r['ratio_cpu']:.2f}",
                    f"{r['rounds_jobc_faster_cpu']} of {lint['rounds']} rounds",
                ]
                for r in lint["results"]
            ],
        ),
        "",
        f"**Many specs in one process** ({many['specs']} variants of the examples, median of "
        f"{many['rounds']} rounds):",
        "",
        table(
            ["way in", "specs per second (median)", "slowest–fastest round"],
            [
                [
                    "Python API, `lint_file` in a loop (import not counted)",
                    f"{many['api_specs_per_s']:.0f}",
                    "–".join(f"{r:.0f}" for r in many["api_range"]),
                ],
                [
                    f"`jobc lint DIR` (whole process, {many['cli_cpu_s']:.2f} s CPU)",
                    f"{many['cli_specs_per_s']:.0f}",
                    "–".join(f"{r:.0f}" for r in many["cli_range"]),
                ],
            ],
        ),
        "",
    ]
    if script.get("available"):
        parts += [
            "**Lint one sbatch script, cold, against shellcheck on the same file** (real scripts of the "
            "test corpus; shellcheck with its default options):",
            "",
            table(
                ["script", "jobc lint", "shellcheck", "python -c pass", "ratio (wall)", "ratio (CPU)"],
                [
                    [
                        f"`{r['script']}` ({r['lines']} lines)",
                        f"{r['jobc_wall_ms']:.0f} ms",
                        f"{r['shellcheck_wall_ms']:.0f} ms",
                        f"{r['python_wall_ms']:.0f} ms",
                        f"{r['ratio_wall']:.2f}",
                        f"{r['ratio_cpu']:.2f}",
                    ]
                    for r in script["results"]
                ],
            ),
            "",
        ]
    else:
        parts += ["shellcheck was not installed when these numbers were taken.", ""]
    parts += [
        "**`jobc triage` against `grep -c` on the same generated log** (one run each after a warm-up, "
        "`benchmarks/triage_vs_grep.py`):",
        "",
        table(
            [
                "log",
                "jobc triage",
                "grep -c (same keywords)",
                "ratio (wall)",
                "ratio (CPU)",
                "peak memory",
                "first cause",
            ],
            [
                [
                    f"{r['size_mb']} MiB",
                    f"{r['triage_s']:.2f} s",
                    f"{r['grep_keywords_s']:.2f} s",
                    f"{r['ratio_keywords']:.1f}",
                    f"{r['ratio_keywords_cpu']:.1f}",
                    f"{r['triage_peak_rss_mib']:.1f} MiB",
                    r["first_cause"],
                ]
                for r in triage
            ],
        ),
        "",
    ]
    if comp.get("available"):
        rows = [
            [f"`{r['spec']}`", f"{r['compile_wall_ms']:.0f} ms", f"{r['lint_wall_ms']:.0f} ms"]
            for r in comp["results"]
        ]
        parts += [
            f"**`jobc compile`, cold** (median of {comp['rounds']} runs; compiling lints first):",
            "",
            table(["spec", "jobc compile", "jobc lint"], rows),
            "",
        ]
    else:
        parts += ["`jobc compile` was not available when these numbers were taken.", ""]
    if rt.get("available"):
        over = rt["runtime_ms"] + rt["init_ms"]
        parts += [
            f"**`jobc.runtime` over `import torch`** (median of {rt['rounds']} fresh processes): "
            f"`import torch` {rt['torch_ms']:.0f} ms; then `import jobc.runtime` "
            f"{rt['runtime_ms']:.1f} ms and `from jobc.runtime import init` {rt['init_ms']:.1f} ms "
            f"more, {over:.0f} ms in all ({100 * over / rt['torch_ms']:.1f} % of torch's own import). "
            f"Without torch, `import jobc.runtime` takes {rt['runtime_alone_ms']:.0f} ms and imports no "
            "torch.",
            "",
        ]
    if fr.get("available"):
        parts += [flight_recorder_text(fr), ""]
    calls = ", ".join(f"{int(n)} {tool}" for tool, n in scale["calls_per_run"]["many"].items() if n)
    parts += [
        f"**`jobc status` over a ledger of {scale['jobs']} jobs** (median of {scale['rounds']} fresh "
        "processes, Slurm's commands replaced by stand-ins that print their answer): "
        f"{scale['many_wall_ms']:.0f} ms ({scale['many_cpu_ms']:.0f} ms CPU), against "
        f"{scale['one_wall_ms']:.0f} ms for a ledger of one job run beside it: "
        f"{scale['ratio_wall']:.2f} times as long for {scale['jobs']} times the jobs, asking Slurm "
        f"{calls} per command.",
        "",
    ]
    parts.append("How to run them and what each measures: [benchmarks/README.md](benchmarks/README.md).")
    return "\n".join(parts)


def flight_recorder_text(fr: dict[str, Any]) -> str:
    return (
        f"**torch's flight recorder, off and on** (torch {fr['torch']}, two gloo ranks, "
        f"{fr['steps']} steps of a 4096-float all-reduce plus the stop flag's all-reduce, median of "
        f"{fr['rounds']} fresh pairs each, 1-minute load average {fr['machine'].get('load_1min', '?')} "
        f"at the end): off {fr['off_steps_per_s']:.0f} steps/s "
        f"({fr['off_range'][0]:.0f}–{fr['off_range'][1]:.0f}), on (2000 entries) "
        f"{fr['on_steps_per_s']:.0f} steps/s ({fr['on_range'][0]:.0f}–{fr['on_range'][1]:.0f}): "
        f"ratio on/off {fr['ratio']:.2f}; CPU time of rank 0 per step {fr['off_cpu_us_per_step']:.0f} µs "
        f"off, {fr['on_cpu_us_per_step']:.0f} µs on (ratio {fr['cpu_ratio']:.2f}). The step is nothing "
        "but its two collectives, so this is the recorder's cost per collective, about "
        f"{(fr['on_cpu_us_per_step'] - fr['off_cpu_us_per_step']) / 2:.0f} µs of CPU here (the ranges "
        "overlap on a loaded machine); a step with real computation pays the same per collective."
    )


def write(text: str) -> None:
    readme = ROOT / "README.md"
    current = readme.read_text("utf-8")
    block = f"{START}\n{text}\n{END}"
    if START in current and END in current:
        head, rest = current.split(START, 1)
        _, tail = rest.split(END, 1)
        updated = head + block + tail
    else:
        heading = "## Benchmarks\n"
        if heading not in current:
            raise SystemExit("README.md has no '## Benchmarks' section to write into")
        head, rest = current.split(heading, 1)
        # the paragraph that stood in for the numbers goes; any later section stays
        _, sep, tail = rest.partition("\n## ")
        updated = head + heading + "\n" + block + "\n" + (f"\n## {tail}" if sep else "")
    readme.write_text(updated, "utf-8")
    print("wrote README.md", file=sys.stderr)


def targets_only(quick: bool) -> str:
    """The four measures the targets name, and their table: what `--targets` prints."""
    lint = run("lint_vs_yamllint.py", 5 if quick else 41)
    many = run("throughput.py", 1 if quick else 7)
    script = run("script_vs_shellcheck.py", 5 if quick else 41)
    compile_bytecode()
    triage = run("triage_vs_grep.py", None, "--sizes", str(TRIAGE_MIB))
    m = machine()
    return (
        f"{m['nproc']} cores ({m['cpu']}), Python {m['python']}, 1-minute load average "
        f"{lint['machine']['load_1min']} at the start\n\n{targets(lint, many, script, triage)}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds: a look, not README numbers")
    parser.add_argument("--write", action="store_true", help="write the section into README.md")
    parser.add_argument(
        "--targets", action="store_true", help="only the measures the targets name, and their table"
    )
    args = parser.parse_args()
    if args.targets:
        if args.write:
            raise SystemExit("--write takes the whole section; run without --targets")
        print(targets_only(args.quick))
        return 0
    text = section(args.quick)
    print(text)
    if args.write:
        if args.quick:
            raise SystemExit("--write takes the full rounds; run without --quick")
        write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
