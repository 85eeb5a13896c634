"""One fuzz target for lint and compile, shared by the hypothesis suite and the atheris long run.

`run(directory, raw, sets)` writes ``raw`` as a spec beside the example profiles, lints it with
the ``--set`` overrides and, when lint is clean, compiles it. What must hold for any input:

- lint and compile answer with findings, a script, or one line on stderr: never a traceback or
  an internal error, and only exit codes 0, 1 and 2;
- nothing they print holds a raw control character or an escape sequence from the spec;
- lint clean means compile succeeds, and the script it writes parses with `bash -n` (setup
  lines included: JC509 has bash parse them first).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

from jobc.cli import main
from tests.support import ROOT

SPECS = ROOT / "specs"
# C0 controls but tab and newline, DEL, C1 controls: none of these may reach a terminal
_RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_TRACEBACK = re.compile(r"^Traceback \(most recent call last\):", re.MULTILINE)


def examples() -> list[Path]:
    return sorted(SPECS.glob("*.yaml"))


def workspace(directory: Path) -> Path:
    """A copy of the examples and their profiles, so a mutated spec's `extends:` still resolves."""
    target = directory / "specs"
    if not target.exists():
        shutil.copytree(SPECS, target)
    return target


def _call(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


def _check_answer(verb: str, code: int, out: str, err: str, *, quoted: bool = False) -> None:
    """``quoted``: the input is a script whose own text findings may quote (a `Traceback` in it
    is the script's, not jobc's; an exception of jobc's reaches the caller or says internal error)."""
    assert code in (0, 1, 2), (verb, code, err)
    if not quoted:
        # a traceback starts a line; a finding may quote the words from the input mid-line
        assert _TRACEBACK.search(out + err) is None, (verb, err)
    assert "internal error" not in err, (verb, err)
    if code == 2:
        assert err.count("\n") == 1, (verb, err)
    if verb == "lint":
        assert _RAW_CONTROL.search(out + err) is None, (verb, out + err)


def run(directory: Path, raw: bytes, sets: list[str] | None = None) -> None:
    """Lint ``raw`` as a spec (with ``--set`` overrides) and compile it when lint is clean."""
    spec = workspace(directory) / "fuzzed.yaml"
    spec.write_bytes(raw)
    extra = [arg for s in sets or [] for arg in ("--set", s)]
    code, out, err = _call(["lint", str(spec), *extra])
    _check_answer("lint", code, out, err)
    for fmt in ("github", "sarif"):
        _check_answer("lint", *_call(["lint", "--format", fmt, str(spec), *extra]))
    compiled, script, cerr = _call(["compile", str(spec), *extra])
    _check_answer("compile", compiled, script, cerr)
    if code == 0:
        assert compiled == 0, (out, cerr)
        parsed = subprocess.run(["bash", "-n"], input=script, text=True, capture_output=True, check=False)
        assert parsed.returncode == 0, (parsed.stderr, script)


# --- scripts and import (job logs: tests/fuzz/log_target.py) ------------------------------------

SCRIPT_SEEDS = ROOT / "tests" / "script" / "corpus"
# the errors an imported spec may still have: each names what the script itself left unknown
LEFT_UNKNOWN = (
    ("JC003", "launch needs 'program'"),
    ("JC003", "resources needs 'gpus_per_node'"),
    ("JC108", "needs a time limit"),
    # the program is kept as the script runs it, and the spec's comment says why JC702 objects
    ("JC702", "launch.program holds"),
    ("JC702", "launch.module holds"),
    # an argument the script computed when the job ran, kept in its place as {unknown.NAME}
    ("JC008", "stands for a value the imported script computed only when the job ran"),
)


def script_seeds() -> list[Path]:
    return sorted(p for p in SCRIPT_SEEDS.iterdir() if p.is_file())


def run_script(directory: Path, raw: bytes) -> None:
    """Lint ``raw`` as an sbatch script in every format: findings, never a traceback."""
    script = directory / "fuzzed.sh"
    script.write_bytes(b"#!/bin/bash\n" + raw if not raw.startswith(b"#!") else raw)
    code, out, err = _call(["lint", str(script)])
    _check_answer("lint", code, out, err, quoted=True)
    _check_answer("lint", *_call(["lint", "--format", "github", str(script)]), quoted=True)


def run_import(directory: Path, raw: bytes) -> None:
    """Import ``raw`` as a script: a clear error, or a spec that parses, lints (failing only on
    what the script left unknown) and compiles into a script bash parses; and then the round trip
    as the oracle (tests/script/roundtrip.py): the compiled job runs the same programs with the
    same arguments, interpreter options, environment and directory on each node, as many times,
    as the script under the behaviour simulator, or the spec lists what differs."""
    script = directory / "fuzzed.sh"
    script.write_bytes(b"#!/bin/bash\n" + raw if not raw.startswith(b"#!") else raw)
    spec = directory / "imported.yaml"
    spec.unlink(missing_ok=True)
    code, out, err = _call(["import", str(script), "-o", str(spec)])
    assert code in (0, 1, 2), (code, err)
    assert "internal error" not in err, err
    assert _RAW_CONTROL.search(out + err) is None, err
    if not spec.exists():
        assert "jobc import:" in err, err
        return
    text = spec.read_text(encoding="utf-8")
    assert _RAW_CONTROL.search(text) is None, text
    lint_code, lint_out, lint_err = _call(["lint", "--format", "json", str(spec)])
    _check_answer("lint", lint_code, lint_out, lint_err, quoted=True)

    findings = json.loads(lint_out) if lint_out.strip() else []
    errors = [f for f in findings if f["severity"] == "error"]
    unexplained = [
        (f["code"], f["message"])
        for f in errors
        if not any(f["code"] == c and words in f["message"] for c, words in LEFT_UNKNOWN)
    ]
    assert not unexplained, (unexplained, text)
    if errors:
        return
    compiled, body, cerr = _call(["compile", str(spec)])
    assert compiled == 0, (cerr, text)
    assert "\0" not in body
    parsed = subprocess.run(["bash", "-n"], input=body, text=True, capture_output=True, check=False)
    assert parsed.returncode == 0, (parsed.stderr, body)
    from tests.script.roundtrip import round_trip

    trip = directory / "trip"
    trip.mkdir(exist_ok=True)
    outcome = round_trip(script.read_bytes(), trip, "fuzzed.sh")
    assert outcome.unlisted == [], (outcome.unlisted, outcome.spec)


# --- fixes --------------------------------------------------------------------------------------


def _bash_parses(path: Path) -> bool:
    parsed = subprocess.run(["bash", "-n", str(path)], capture_output=True, check=False)
    return parsed.returncode == 0


def _yaml_errors(path: Path) -> int:

    findings = json.loads(_call(["lint", "--format", "json", str(path)])[1] or "[]")
    return sum(1 for f in findings if f["code"] == "JC001")


def _fix_once(path: Path) -> tuple[int, str, str]:
    code, out, err = _call(["lint", "--fix", "--unsafe-fixes", str(path)])
    _check_answer("lint", code, out, err, quoted=True)
    return code, out, err


def run_fix(directory: Path, raw: bytes, *, script: bool) -> None:
    """`lint --fix --unsafe-fixes` on ``raw`` as a script or a spec: findings or one line on
    stderr; the file keeps its mode and its final newline; a script bash parsed still parses; a
    spec that was YAML stays YAML; and a second run changes nothing."""
    if script:
        path = directory / "fuzzed.sh"
        path.write_bytes(b"#!/bin/bash\n" + raw if not raw.startswith(b"#!") else raw)
    else:
        path = workspace(directory) / "fuzzed.yaml"
        path.write_bytes(raw)
    path.chmod(0o750)
    before = path.read_bytes()
    parsed = script and _bash_parses(path)
    unreadable = not script and _yaml_errors(path)
    _, _, err = _fix_once(path)
    after = path.read_bytes()
    assert path.stat().st_mode & 0o777 == 0o750, oct(path.stat().st_mode)
    if before.endswith(b"\n"):
        assert after.endswith(b"\n"), after[-200:]
    if parsed:
        assert _bash_parses(path), (before, after)
    if not script and after != before:
        assert _yaml_errors(path) <= unreadable, (before, after)
    if "were still offered" in err:
        return  # the passes ran out: a next run may take more
    _fix_once(path)
    assert path.read_bytes() == after, (after, path.read_bytes())


# the scenarios the fix-script target runs every fixed script in (the suite runs all three)
FUZZ_SCENARIOS = ("complete", "signal")


def run_fix_script(directory: Path, raw: bytes) -> None:
    """`run_fix` on a script, and then the behaviour simulator's comparison as the oracle: the
    script --fix --unsafe-fixes wrote does what the original did, but for what the findings it
    fixed name (tests/support/simulator/fixes.py)."""
    from tests.support.simulator.fixes import prove

    before = b"#!/bin/bash\n" + raw if not raw.startswith(b"#!") else raw
    run_fix(directory, raw, script=True)
    after = (directory / "fuzzed.sh").read_bytes()
    if after == before:
        return
    proof = prove(before, unsafe=True, name="fuzzed.sh", scenarios=FUZZ_SCENARIOS)
    # the fixes proven are the ones the command made
    assert proof.after.encode("utf-8", "surrogateescape") == after, (before, after)
    assert proof.differences == [], (proof.fixed, proof.differences, before, after)


def run_fix_spec(directory: Path, raw: bytes) -> None:
    run_fix(directory, raw, script=False)


# --- hang dumps ---------------------------------------------------------------------------------

FLIGHT = ROOT / "tests" / "jobs" / "flight"


def flight_seeds() -> list[Path]:
    """Every dump of the fixtures: jobc.runtime's JSON and torch's own pickles."""
    skip = (".md", ".txt", ".out")
    return sorted(p for p in FLIGHT.glob("*/**/*") if p.is_file() and not p.name.endswith(skip))


# values a hostile dump may hold where a dump holds a number, a string or a list
_HOSTILE_VALUES: list[object] = [
    10**5000,  # a pickle's int past what str() prints (JSON gets 2**63 instead)
    2**63,
    -1,
    0,
    1.5,
    float("nan"),
    True,
    None,
    "\x1b]0;title\x07\u202e\x9b",
    "9" * 5000,
    "\u0663",
    "",
    [],
    {},
    [[[[[]]]]],
    list(range(2000)),
    {"0": list(range(5000))},
    # one object chosen again is one object named again in the pickle (a memo reference): a long
    # text, and frames whose texts are at their longest, that a reader must not copy each time
    "y" * 100_000,
    [{"filename": "/w/" + "f" * 1500, "line": 7, "name": "g" * 300, "code": "c" * 500}] * 300,
    # integer keys that all share one hash (multiples of Python's hash modulus)
    dict.fromkeys(range((1 << 61) - 1, 50 * ((1 << 61) - 1), (1 << 61) - 1)),
]


def hash_of(raw: bytes) -> int:
    import hashlib

    return int.from_bytes(hashlib.sha256(raw).digest()[:8], "big")


def _reshaped(raw: bytes, choice: bytes | None = None) -> tuple[object, object] | None:
    """A seed dump (JSON, or a pickle of plain data) with some of its values replaced by hostile
    ones, chosen by the bytes: (the JSON form, the pickle form); None when it is neither."""
    import io
    import pickle
    import random

    class Plain(pickle._Unpickler):  # the C one zeroes a memo as large as a mutated index
        def find_class(self, module: str, name: str) -> object:
            raise pickle.UnpicklingError(name)

    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        try:
            data = Plain(io.BytesIO(raw)).load()
        except Exception:
            return None
    rng = random.Random(hash_of(choice if choice is not None else raw))

    def walk(value: object, depth: int) -> object:
        if rng.random() < 0.08:
            return rng.choice(_HOSTILE_VALUES)
        if depth > 30:
            return value
        if isinstance(value, dict):
            return {k: walk(v, depth + 1) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [walk(v, depth + 1) for v in value]
        return value

    def for_json(value: object) -> object:  # JSON cannot write an int past 4300 digits either
        if isinstance(value, int) and value.bit_length() > 64:
            return 2**63
        if isinstance(value, dict):
            return {str(k): for_json(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [for_json(v) for v in value]
        return value if value is None or isinstance(value, (str, int, float)) else str(value)

    shaped = walk(data, 0)
    return for_json(shaped), shaped


def run_flight(directory: Path, raw: bytes) -> None:
    """Triage a log beside a dump directory holding ``raw`` as one rank's dump, in each of the
    names triage reads (jobc.runtime's recorder and stacks, torch's pickle), beside the real
    dumps of a run: a report or one line on stderr, never an internal error; the text holds no
    raw control character and the JSON parses. A seed that still parses has some of its values
    replaced by hostile ones (numbers past 64 bits, deep lists, control characters)."""
    import pickle

    dumps = directory / "dumps"
    shutil.rmtree(dumps, ignore_errors=True)
    dumps.mkdir()
    for seed in (FLIGHT / "collective" / "dumps").iterdir():
        (dumps / seed.name).write_bytes(seed.read_bytes())
    (dumps / "rank1-restart0.fr.json").write_bytes(raw)
    (dumps / "rank1-restart0.stacks.json").write_bytes(raw)
    seeds = flight_seeds()
    # the input if it parses, else a seed it picks: either way with hostile values in its shape
    shaped = _reshaped(raw) or _reshaped(seeds[hash_of(raw) % len(seeds)].read_bytes(), raw)
    assert shaped is not None
    for name in ("rank2-restart0.fr.json", "rank2-restart0.stacks.json"):
        (dumps / name).write_bytes(json.dumps(shaped[0]).encode())
    torch = directory / "torch"
    shutil.rmtree(torch, ignore_errors=True)
    torch.mkdir()
    for seed in (FLIGHT / "torch-dump").glob("torch-trace-rank*"):
        (torch / seed.name).write_bytes(seed.read_bytes())
    (torch / "torch-trace-rank1").write_bytes(raw)
    (torch / "torch-trace-rank2").write_bytes(pickle.dumps(shaped[1], protocol=4))
    log = directory / "job.out"
    log.write_bytes((FLIGHT / "collective" / "job.out").read_bytes())
    from jobc.jobs.flight import read_dumps

    for where in (dumps, torch):
        # whatever triage read from a dump can be printed, shown or not
        for dump in read_dumps(where)[1].values():
            text = " ".join(f"#{e.seq} {e.describe()}" for e in dump.entries)
            text += " ".join(f.where() for f in dump.stack) + f"{dump.world_size} {dump.groups}"
            assert len(text) < 10_000_000
    for where in (dumps, torch):
        code, out, err = _call(["triage", str(log), "--dumps", str(where)])
        _check_answer("triage", code, out, err, quoted=True)
        assert _RAW_CONTROL.search(out + err) is None, out + err
        code, out, err = _call(["triage", str(log), "--dumps", str(where), "--format", "json"])
        _check_answer("triage", code, out, err, quoted=True)
        json.loads(out)
