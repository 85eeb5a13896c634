"""Proving jobc's fixes with the simulator: a fixed script does what the original did, but for
what the fixed findings name.

`prove(text, unsafe=...)` runs `jobc lint --fix` (in memory, as the command does) and then, pass
by pass, simulates the text the pass started from and the text it made, and compares them with
what each finding of the pass lets differ (`allowance`): the options a moved `#SBATCH` line adds
(simulated on the original as if sbatch had read them), the per-rank variables JC106 names (every
task given the batch shell's value, so that only where the value is expanded can differ), the
tasks per node of JC102 (what each node runs is compared), the port of JC104, the trap that now
runs (JC802, JC803, JC807: the `signal` scenario, where the trap's effect is the point), a
typographic dash turned into hyphens in a command's argument (JC814). A fix the simulator cannot
judge — the original is refused by sbatch or fails at once (JC810, JC811, JC814 in the shebang or
a directive), or the fix is the named change itself (JC813's line, read where it stands) — is
compared against the original with that repair alone made, so that what the other fixes of the
pass do is still checked.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from jobc.core.diagnostics import Finding
from jobc.lint.config import Config
from jobc.lint.fix import apply, fix_path
from jobc.lint.rules.script.jc814_typographic_dash import DASHES
from tests.support.simulator.compare import DROPPED, Ignore, compare_runs, merged
from tests.support.simulator.run import SCENARIOS, Simulation, directives, simulate

# the port a script derives from the job id as jobc's fix writes it, for the simulated job id
DERIVED_PORT = str(20000 + 4242 % 9000)
# what the trap that a fix lets run may change in the `signal` scenario: what it does, and which
# signal it sends the programs; but they must still be told when they were (at the warning, not
# only at the time limit), with the same arguments and environment
TRAP_RUNS = Ignore(
    kinds={"call", "step"}, output=True, status=True, events=True, files=True, which_signal=True
)


@dataclass
class Allowance:
    """What a pass's findings let differ, and how the original is run to compare with the fix."""

    ignore: Ignore = field(default_factory=Ignore)
    by_scenario: dict[str, Ignore] = field(default_factory=dict)
    options: list[str] = field(default_factory=list)  # sbatch options the original runs with
    uniform: set[str] = field(default_factory=set)
    accept: bool = False
    tautologies: list[Finding] = field(default_factory=list)  # repairs made on the original too

    def for_scenario(self, scenario: str) -> Ignore:
        extra = self.by_scenario.get(scenario)
        return merged(self.ignore, extra) if extra is not None else self.ignore


@dataclass
class Proof:
    before: str
    after: str
    fixed: list[str]  # the codes fixed, pass by pass
    differences: list[str]


def _options_of(line: str) -> list[str]:
    """`#SBATCH --time=1:00:00 -N 2` → ["--time=1:00:00", "--nodes=2"]: sbatch's reading."""
    read, _ = directives("#!/bin/bash\n" + line.strip() + "\n")
    return [f"--{k}={v}" if v is not None else f"--{k}" for k, v in read]


def _line(text: str, finding: Finding) -> str:
    lines = text.split("\n")
    n = finding.span.line if finding.span is not None else 0
    return lines[n - 1] if 1 <= n <= len(lines) else ""


def allowance(text: str, findings: Iterable[Finding]) -> Allowance:
    """What the fixed ``findings`` (placed in ``text``) let differ between ``text`` and its fix."""
    allow = Allowance()
    ignores: list[Ignore] = []
    for f in findings:
        code = f.code
        description = f.fix.description if f.fix is not None else ""
        if code == "JC801":
            allow.options += _options_of(_line(text, f))
        elif code == "JC813":
            # the line is read where it stands (a later line may set the same option again), or
            # sbatch refused the original (`#SBATCHX …`): the original with that line read
            allow.tautologies.append(f)
        elif code == "JC102":
            # and the task counts Slurm puts in the environment, wherever the script shows them
            # (`export` with no names prints them all)
            counts = r"(SLURM_(?:NTASKS|NPROCS|TASKS_PER_NODE|NTASKS_PER_NODE|STEP_NUM_TASKS|"
            counts += r'STEP_TASKS_PER_NODE|CPUS_ON_NODE|JOB_CPUS_PER_NODE)=)"?[^"\s]*"?'
            ignores.append(
                Ignore(
                    per_node=True,
                    allocation={"ntasks-per-node", "ntasks"},
                    # and a step's own task count, written as one word, where the fix rewrote it
                    replace=((counts, r"\1<count>"), (r"^(?:--ntasks(?:-per-node)?=|-n)\d+$", "<tasks>")),
                )
            )
            # fewer tasks per node is the fix: a value each task reads of its own number (a
            # launcher's --machine_rank \$SLURM_PROCID) differs with it, and is compared as one
            allow.uniform |= {"SLURM_PROCID", "SLURM_LOCALID"}
        elif code == "JC104":
            port = re.search(r"fixes the port at (\d+)", f.message)
            ports = "|".join(p for p in (port.group(1) if port else None, DERIVED_PORT) if p)
            # the port, or the arithmetic that derives it where a step's shell evaluates it
            ignores.append(
                Ignore(
                    replace=((rf"\$\(\(20000 \+ SLURM_JOB_ID % 9000\)\)|(?<!\d)(?:{ports})(?!\d)", "<port>"),)
                )
            )
        elif code == "JC106":
            allow.uniform |= set(re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", description + f.message))
            ignores.append(Ignore(kinds={"step"}))  # the step is handed the text with the expansion
            # a program that cannot start: slurmstepd's execve() said so, and now the step's bash
            # does, in its own words (`No such file or directory`, `command not found`)
            ignores.append(Ignore(replace=_STEP_UNSTARTED, unstarted_status=True))
            if "heredoc" in description:
                # a file written from the heredoc (`cat > run.sh <<EOF`) holds the expansion the
                # fix leaves to each task: what runs from it is compared, as every process is
                ignores.append(Ignore(files=True))
        elif code == "JC107":
            ignores.append(Ignore(allocation={"output", "error", "input"}))
        elif code == "JC108":
            ignores.append(Ignore(allocation={"time"}))
        elif code == "JC404":
            ignores.append(Ignore(env={"NCCL_DEBUG"}, replace=((r"\b(?:INFO|TRACE|WARN)\b", "<level>"),)))
        elif code == "JC802":
            ignores.append(Ignore(scenarios={"signal"}))
        elif code == "JC803":
            ignores.append(_jc803(description))
        elif code == "JC807":
            ignores.append(Ignore(allocation={"signal"}))
            allow.by_scenario["signal"] = merged(allow.by_scenario.get("signal", Ignore()), TRAP_RUNS)
        elif code == "JC812":
            allow.accept = True
        elif code == "JC814" and not _line(text, f).startswith(("#!", "#SBATCH", "\ufeff#!")):
            # a command's argument: the dash may become hyphens there, and nothing else change
            ignores.append(Ignore(replace=((rf"[{DASHES}-]+(?=[A-Za-z])", "<dash>"),)))
        elif code in ("JC810", "JC811", "JC814", "JC817"):
            # (JC817: the step failed at srun's exec of `VAR=value`; the repair runs it as meant)
            allow.tautologies.append(f)
    if {f.code for f in findings} & {"JC802", "JC803", "JC807", "JC106"}:
        # these fixes write commands of their own (a step in the background and its wait, the
        # exit with its status, the trap's hand-on, the step's `bash -c '…'`): under `set -x` bash
        # traces them, and the trace (`+ …` lines, one `+` per level) is of the fix's text, not
        # of what the job does
        ignores.append(Ignore(trace=True))
    allow.ignore = merged(*ignores) if ignores else Ignore()
    return allow


def _jc803(description: str) -> Ignore:
    """Dropping `exec`: a trap that died with the shell now runs when its signal comes; when the
    fix says the lines after the step then run (or an EXIT trap does), the script does more than
    before — what it did before must be done as before. bash words a command it cannot start its
    own way with and without `exec` (`exec: NAME: not found` and `NAME: command not found`, `exec`
    naming a relative path from /): the same failure, compared by the name."""
    if "then run" in description:
        return Ignore(additions=True, status=True, files=True, scenarios={"signal"}, replace=_UNSTARTED)
    return Ignore(scenarios={"signal"}, replace=_UNSTARTED)


def _not_found(m: re.Match[str]) -> str:
    return f"{m.group(1)}{_unquoted(m.group(2))}: <not found>"


def _no_file(m: re.Match[str]) -> str:
    return f"{m.group(1)}{m.group(2).rsplit('/', 1)[-1]}: <no such file>"


_ESCAPES = {"a": 7, "b": 8, "e": 27, "E": 27, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11}


def _unquoted(name: str) -> str:
    """A name as bash writes it in `command not found`: `$'sru\\321'` (bash's ANSI-C quoting of a
    name with bytes it cannot print) read back to its bytes, shown as the output is read."""
    if not (name.startswith("$'") and name.endswith("'") and len(name) > 2):
        return name
    raw, body, i = bytearray(), name[2:-1], 0
    while i < len(body):
        ch = body[i]
        octal = re.match(r"[0-7]{1,3}", body[i + 1 :]) if ch == "\\" else None
        if ch != "\\" or i + 1 >= len(body):
            raw += ch.encode("utf-8", "surrogateescape")
            i += 1
        elif octal:
            raw.append(int(octal.group(), 8) & 0xFF)
            i += 1 + len(octal.group())
        elif body[i + 1] in _ESCAPES:
            raw.append(_ESCAPES[body[i + 1]])
            i += 2
        else:
            raw += body[i + 1].encode("utf-8", "surrogateescape")
            i += 2
    return raw.decode("utf-8", "surrogateescape")


# bash's words for a command it could not start, with `exec` and without
_UNSTARTED: tuple[tuple[str, str | Callable[[re.Match[str]], str]], ...] = (
    (r"^(.*: line \d+: )exec: (.*): not found$", _not_found),
    (r"^(.*: line \d+: )(.*): command not found$", _not_found),
    (r"^(.*: line \d+: )(?:exec: )?(.*): No such file or directory$", _no_file),
    # a directory or a file without the x bit: bash says `/tmp/: Is a directory` with exec and
    # without, and with exec a second line, `exec: /tmp/: cannot execute: Is a directory`
    (r"^.*: line \d+: exec: .*: cannot execute: (?:Is a directory|Permission denied)$", DROPPED),
)


# a step's program that could not start, as slurmstepd words it (srun ran it) and as bash does (the
# step's `bash -c '…'` ran it): one failure, compared by the program's name
_STEP_UNSTARTED: tuple[tuple[str, str | Callable[[re.Match[str]], str]], ...] = (
    (
        r"^slurmstepd: error: execve\(\): (.*): (?:No such file or directory|Permission denied)$",
        r"<unstarted> \1",
    ),
    (
        # (bash quotes a name with bytes it cannot print, `$'torchrun\247'`: read back to its bytes)
        r"^bash: line (?:N|\d+): (.*): (?:No such file or directory|command not found|Permission denied)$",
        # and as the stub's slurmstepd writes a byte that is not UTF-8, escaped (`\udca7`)
        lambda m: "<unstarted> " + _unquoted(m.group(1)).encode("utf-8", "backslashreplace").decode("utf-8"),
    ),
)


# A script's runs depend only on its text and the settings (the simulator is deterministic): the
# original of a safe and of an unsafe fix is run once
_RUNS: dict[tuple[object, ...], Simulation] = {}


def _simulate(
    text: str,
    name: str,
    scenarios: tuple[str, ...],
    *,
    options: tuple[str, ...] = (),
    uniform: frozenset[str] = frozenset(),
    accept: bool = False,
) -> Simulation:
    key = (text, name, scenarios, options, uniform, accept)
    if key not in _RUNS:
        if len(_RUNS) > 256:
            _RUNS.clear()
        _RUNS[key] = simulate(
            text, name=name, scenarios=scenarios, options=options, uniform=uniform, accept=accept
        )
    return _RUNS[key]


def prove_texts(
    passes: list[tuple[str, list[Finding]]],
    after: str,
    *,
    scenarios: Iterable[str] = SCENARIOS,
    name: str = "job.sh",
) -> list[str]:
    """The differences, pass by pass, that the findings fixed do not account for."""
    out: list[str] = []
    wanted = tuple(scenarios)
    for i, (text, found) in enumerate(passes):
        made = passes[i + 1][0] if i + 1 < len(passes) else after
        allow = allowance(text, found)
        original = text
        if allow.tautologies:
            original, _ = apply(text, [f.fix for f in allow.tautologies if f.fix is not None])
        keep = [s for s in wanted if s not in allow.ignore.scenarios]

        def run_original(
            original: str = original, allow: Allowance = allow, keep: list[str] = keep
        ) -> dict[str, Simulation]:
            return simulate(
                original,
                name=name,
                scenarios=keep,
                options=allow.options,
                uniform=allow.uniform,
                accept=allow.accept,
            )

        a = run_original()
        b = simulate(made, name=name, scenarios=keep, uniform=allow.uniform)
        codes = ",".join(sorted({f.code for f in found}))
        found_here = {sc: compare_runs(a[sc], b[sc], allow.for_scenario(sc)) for sc in keep}
        if any(found_here.values()):
            # what differs between two runs of the original itself (a command of the machine's
            # whose output changes, as `w` or `uptime`) is no evidence against the fix
            again = run_original()
            for sc in keep:
                noise = {_what(d) for d in compare_runs(a[sc], again[sc], allow.for_scenario(sc))}
                found_here[sc] = [d for d in found_here[sc] if _what(d) not in noise]
        for scenario in keep:
            for d in found_here[scenario]:
                out.append(f"pass {i + 1} ({codes}) [{scenario}] {d}")
    return out


def _what(difference: str) -> str:
    """A difference without its values (they follow the first quote): what differs, not how."""
    return difference.split("'", 1)[0]


def prove(
    text: str | bytes,
    *,
    unsafe: bool,
    name: str = "job.sh",
    profile: Path | None = None,
    scenarios: Iterable[str] = SCENARIOS,
    config: Config | None = None,
) -> Proof:
    """Fix ``text`` as `jobc lint --fix` would (with `--unsafe-fixes` when ``unsafe``) and list what
    the fixed script does differently from the original beyond what its findings name."""
    data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    with tempfile.TemporaryDirectory(prefix="jobc-prove-") as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        outcome = fix_path(path, config=config or Config(), unsafe=unsafe, profile=profile)
    differences = (
        prove_texts(outcome.passes, outcome.after, scenarios=scenarios, name=name) if outcome.changed else []
    )
    return Proof(outcome.before, outcome.after, [f.code for f in outcome.fixed], differences)
