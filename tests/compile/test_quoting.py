"""No spec value can change the script's command structure or be expanded by a shell.

Hypothesis fills every string field that reaches the shell with shell metacharacters; the
script must keep the skeleton of a benign spec (quoted words and #SBATCH values replaced by
placeholders), parse with `bash -n`, and, run with stub srun and python, hand every value to
the program and its environment byte for byte.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobc.compile import compile_batch
from tests.compile.support import bash_syntax_ok, lint, skeleton

# Shell syntax of every kind; no braces ({…} is interpolation, tested elsewhere) and no NUL.
METACHARACTERS = "$`'\"\\;&|<>()*?[]~#!= \t\n%^-:/.,ab"
text = st.text(alphabet=METACHARACTERS, min_size=1, max_size=12)
# Values that become #SBATCH lines cannot hold line breaks (lint refuses them, so does compile).
directive = st.text(alphabet=METACHARACTERS.replace("\n", "").replace("\t", ""), min_size=1, max_size=12)
mount = text.filter(lambda s: "," not in s)


@st.composite
def values(draw: st.DrawFn) -> dict[str, Any]:
    return {
        "program": draw(text),
        "workdir": draw(text),
        "args": draw(st.lists(text, min_size=1, max_size=3)),
        "pythonpath": draw(st.lists(text, min_size=1, max_size=2)),
        "env": {"JOBC_TEST_A": draw(text), "JOBC_TEST_B": draw(text)},
        "fabric_env": {"NCCL_ALGO": draw(text)},
        "logs": draw(directive),
        "checkpoints": draw(text),
        "hf_home": draw(text),
        "partition": draw(directive),
        "account": draw(directive),
        "constraint": draw(directive),
        "image": draw(text),
        "mounts": draw(st.lists(mount, min_size=1, max_size=2)),
        "container_workdir": draw(text),
        "interface": draw(text),
    }


def benign(v: dict[str, Any]) -> dict[str, Any]:
    """The same shape with every string replaced by a plain word."""
    if isinstance(v, dict):
        return {key: benign(value) for key, value in v.items()}
    if isinstance(v, list):
        return [benign(item) for item in v]
    return "x"


def spec(v: dict[str, Any], *, container: bool, python: str = "/opt/python") -> dict[str, Any]:
    data: dict[str, Any] = {
        "version": 1,
        "name": "fuzz",
        "slurm": {"partition": v["partition"], "account": v["account"], "constraint": v["constraint"]},
        "resources": {"nodes": 1, "gpus_per_node": 1},
        "launch": {
            "python": python,
            "program": v["program"],
            "workdir": v["workdir"],
            "args": v["args"],
            "pythonpath": v["pythonpath"],
        },
        "env": v["env"],
        "fabric": {"interface": v["interface"], "env": v["fabric_env"]},
        "storage": {"logs": v["logs"], "checkpoints": v["checkpoints"], "caches": {"hf_home": v["hf_home"]}},
        "resilience": {"signal": "SIGTERM", "requeue": True},
        "monitoring": {"heartbeat_s": 60, "gpu_dmon_s": 5},
    }
    if container:
        data["container"] = {"image": v["image"], "mounts": v["mounts"], "workdir": v["container_workdir"]}
    return data


def compile_any(data: dict[str, Any]) -> str:
    """Compile whatever lint makes of it: the compiler must be safe even where lint objects."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "spec.yaml"
        path.write_text(json.dumps(data), encoding="utf-8")
        result = lint(path)
        assert result.context is not None, [str(f) for f in result.findings]
        return compile_batch(result.context)


FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(values(), st.booleans())
def test_command_structure_never_changes(v: dict[str, Any], container: bool) -> None:
    script = compile_any(spec(v, container=container))
    assert bash_syntax_ok(script)
    # An absolute storage.logs is written as given, a relative one under the submit directory:
    # the benign twin keeps the kind of path.
    twin = {**benign(v), "logs": "/x" if v["logs"].startswith("/") else "x"}
    assert skeleton(script) == skeleton(compile_any(spec(twin, container=container)))


STUB_SRUN = """#!/bin/bash
# srun: skip the options, run the command as task 0 of node 0.
while [[ $1 == --* ]]; do shift; done
SLURM_NODEID=0 SLURM_LOCALID=0 SLURM_PROCID=0 SLURM_STEP_NUM_TASKS=1 SLURM_STEP_NUM_NODES=1 exec "$@"
"""
STUB_PYTHON = """#!/bin/bash
printf '%s\\0' "$@" > "$JOBC_TEST_OUT/argv"
env -0 > "$JOBC_TEST_OUT/env"
"""


@FUZZ
@given(values())
def test_values_reach_the_program_literally(v: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        bin_dir = root / "bin"
        bin_dir.mkdir()
        for name, body in (("srun", STUB_SRUN), ("python", STUB_PYTHON), ("scancel", "#!/bin/true\n")):
            (bin_dir / name).write_text(body, encoding="utf-8")
            (bin_dir / name).chmod(0o755)
        # The job runs a few levels down so that a relative `storage.logs` climbing with `..` stays
        # inside this test's directory, where what the script made can be listed.
        work = root.joinpath(*["w"] * 5)
        work.mkdir(parents=True)
        v = {**v, "workdir": str(work)}
        script = compile_any(spec(v, container=False, python=str(bin_dir / "python")))
        env = {
            "PATH": f"{bin_dir}:/usr/bin:/bin",
            "JOBC_TEST_OUT": str(root),
            "SLURM_JOB_ID": "1234",
            "SLURM_JOB_NUM_NODES": "1",
            "SLURM_NTASKS_PER_NODE": "1",
            "SLURM_GPUS_PER_NODE": "1",
            "SLURM_JOB_NODELIST": "node0",
            "HOME": str(root),
        }
        run = subprocess.run(
            ["bash", "-c", script], cwd=root, env=env, capture_output=True, text=True, check=False
        )
        assert run.returncode == 0, run.stderr
        argv = (root / "argv").read_bytes().split(b"\0")[:-1]
        assert [a.decode() for a in argv] == [v["program"], *v["args"]]
        seen = dict(item.split("=", 1) for item in (root / "env").read_text().split("\0") if "=" in item)
        assert seen["JOBC_TEST_A"] == v["env"]["JOBC_TEST_A"]
        assert seen["JOBC_TEST_B"] == v["env"]["JOBC_TEST_B"]
        assert seen["NCCL_ALGO"] == v["fabric_env"]["NCCL_ALGO"]
        assert seen["HF_HOME"] == v["hf_home"]
        assert seen["JOBC_CHECKPOINT_DIR"] == v["checkpoints"]
        assert seen["NCCL_SOCKET_IFNAME"] == v["interface"] == seen["GLOO_SOCKET_IFNAME"]
        assert seen["PYTHONPATH"] == ":".join(v["pythonpath"])
        assert seen["MASTER_ADDR"] == "node0"
        # Besides the stubs' output, only the job's (empty) hang-dump directory, made by the script
        # under storage.logs so that torch's own dump on a timeout has somewhere to go.
        # Exported absolute, so that the program (running in launch.workdir) finds the directory
        # the script made relative to the submit directory.
        assert seen["JOBC_DUMP_DIR"].startswith("/")
        dumps = Path(seen["JOBC_DUMP_DIR"]).resolve()
        assert dumps.is_dir()
        assert not any(dumps.iterdir())
        allowed = {root / "argv", root / "env", *bin_dir.iterdir(), bin_dir}
        for end in (work, dumps):
            allowed |= {end, *(p for p in end.parents if p.is_relative_to(root))}
        assert set(root.rglob("*")) <= allowed


def sbatch_reads(line: str) -> str:
    """The argument sbatch takes from an `#SBATCH --name=VALUE` line, by its own rules: a
    backslash takes the next character literally, quotes group and are dropped, an unquoted `#`
    starts a comment, whitespace outside quotes ends the argument, an open quote is fatal."""
    text = line.removeprefix("#SBATCH ").lstrip()
    out: list[str] = []
    quote = ""
    i = 0
    while i < len(text) and (quote or not text[i].isspace()):
        char = text[i]
        if char == "\\":
            i += 1
            if i < len(text) and (quote or not text[i].isspace()):
                out.append(text[i])
                i += 1
            continue
        if quote and char == quote:
            quote = ""
        elif not quote and char in "'\"":
            quote = char
        elif not quote and char == "#":
            break
        else:
            out.append(char)
        i += 1
    assert not quote, f"sbatch: unmatched {quote} in {line!r}"
    return "".join(out)


def test_the_reading_model_agrees_with_what_sbatch_was_seen_to_do() -> None:
    # observed with `sbatch -vv --test-only` (Slurm 22.05); the Slurm test repeats it for real
    assert sbatch_reads("#SBATCH --comment=a#b") == "--comment=a"
    assert sbatch_reads("#SBATCH --comment=a\\b") == "--comment=ab"
    assert sbatch_reads('#SBATCH --comment="a\\"b"') == '--comment=a"b'
    assert sbatch_reads("#SBATCH --comment=a\\ b") == "--comment=a"
    assert sbatch_reads('#SBATCH --comment="a#b"') == "--comment=a#b"


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(blacklist_categories=["Cc", "Cs"]), min_size=1, max_size=20))
def test_every_directive_value_reads_back_as_written(value: str) -> None:
    from jobc.compile.sbatch import directive_text

    assert sbatch_reads(f"#SBATCH --comment={directive_text(value)}") == f"--comment={value}"
