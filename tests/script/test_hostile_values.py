"""Hostile values in scripts: huge and Unicode numbers, deep nesting, NUL bytes. Each gives a
finding (JC809, JC108, JC800, JC003), never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.cli import main
from jobc.core.numbers import ascii_int, is_digits, shown
from jobc.lint.scripts import lint_path
from jobc.spec.slurmtime import TimeLimitError, parse_time

HUGE = "9" * 5000  # past CPython's 4300-digit int() limit
BIG = "9" * 4000


def _script(tmp_path: Path, body: str, name: str = "job.sh") -> Path:
    path = tmp_path / name
    path.write_text("#!/bin/bash\n" + body, encoding="utf-8")
    return path


def _codes(path: Path) -> list[tuple[str, int]]:
    return [(f.code, f.span.line) for f in lint_path(path).findings]


# the shared helper ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["²", "٣", "1²", " 1", "+1", "1_000", "", "-1", "0x10"])
def test_only_ascii_digits_are_a_number(text: str) -> None:
    assert ascii_int(text) is None
    assert not is_digits(text)


def test_a_number_too_long_for_any_count_is_none_not_an_error() -> None:
    assert is_digits(HUGE)
    assert ascii_int(HUGE) is None
    assert ascii_int("0" * 5000 + "7") == 7  # leading zeros are no size
    assert ascii_int("123456789012345678") == 123456789012345678
    assert shown(HUGE) == f"{'9' * 12}…{'9' * 12} (5000 digits)"
    assert shown(10**5000) == "a number of about 5001 digits"  # never str() of it


# huge numbers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (f"#SBATCH --nodes={HUGE}\nsrun python train.py\n", [("JC809", 2)]),
        (f"#SBATCH --ntasks-per-node={HUGE}\nsrun python train.py\n", [("JC809", 2)]),
        (f"#SBATCH -N 2\nsrun -N {HUGE} -n {HUGE} python train.py\n", [("JC809", 3), ("JC809", 3)]),
        (
            f"#SBATCH -N 2\nsrun torchrun --nnodes={HUGE} --master_port={HUGE} --max_restarts={HUGE} t.py\n",
            [("JC809", 3)] * 3,
        ),
    ],
)
def test_huge_integers_are_findings(tmp_path: Path, body: str, expected: list[tuple[str, int]]) -> None:
    got = [c for c in _codes(_script(tmp_path, "#SBATCH --time=1:00:00\n" + body)) if c[0] == "JC809"]
    assert got == [(code, line + 1) for code, line in expected]


def test_huge_time_limit_in_a_script_and_a_spec(tmp_path: Path) -> None:
    script = _script(tmp_path, f"#SBATCH --nodes=2\n#SBATCH --time={HUGE}\nsrun python train.py\n")
    found = [f for f in lint_path(script).findings if f.code == "JC108"]
    assert [f.span.line for f in found] == [3]
    assert "longer than any limit Slurm holds" in found[0].message
    assert len(found[0].message) < 400  # the value is shown shortened, not 5000 digits long
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "version: 1\nname: x\nresources: {nodes: 1, gpus_per_node: 1}\nlaunch: {program: train.py}\n"
        f"slurm: {{time: '{HUGE}'}}\n"
    )
    assert [f.code for f in lint_path(spec).findings] == ["JC108"]


@pytest.mark.parametrize("value", [HUGE, f"1-{HUGE}", f"{HUGE}:00:00", "99999999999", 2**40])
def test_time_limits_slurm_cannot_hold(value: str | int) -> None:
    with pytest.raises(TimeLimitError, match="longer than any limit"):
        parse_time(value)


def test_jc804_product_of_two_4000_digit_sizes(tmp_path: Path) -> None:
    path = _script(
        tmp_path,
        f"#SBATCH --nodes={BIG}\n#SBATCH --ntasks-per-node={BIG}\n#SBATCH --gpus-per-node=8\n"
        f"#SBATCH --time=1:00:00\nsrun -n 3 python train.py\n",
    )
    codes = _codes(path)
    assert ("JC809", 2) in codes
    assert ("JC809", 3) in codes


# Unicode digits -------------------------------------------------------------------------------


def test_unicode_digits_are_findings(tmp_path: Path) -> None:
    path = _script(
        tmp_path,
        "#SBATCH --nodes=²\n#SBATCH --gres=gpu:²\n#SBATCH --time=1:00:00\n#SBATCH --cpus-per-task=٣\n"
        "#SBATCH --signal=B:USR2@²\nexport NCCL_NET_GDR_LEVEL=²\n"
        "trap 'touch stop' USR2\n"
        "srun torchrun --nnodes=² --nproc_per_node=² train.py &\nwait\n",
    )
    found = [f for f in lint_path(path).findings if f.code == "JC809"]
    assert [f.span.line for f in found] == [2, 3, 5, 6, 9, 9]
    assert all("ASCII digits" in f.message for f in found)


@pytest.mark.parametrize(
    ("line", "word"),
    [
        ("#SBATCH --nodes=0", "--nodes=0"),
        ("#SBATCH --cpus-per-task=12345678901234567890123", "--cpus-per-task"),
        ("#SBATCH --ntasks=abc", "--ntasks=abc"),
        # a placeholder left in a course's template (HPC2N): sbatch's "Invalid generic resource"
        ("#SBATCH --gres=gpu:v100:x", "count x"),
        ("export 1A=x", "export 1A"),
    ],
)
def test_values_slurm_or_bash_refuse(tmp_path: Path, line: str, word: str) -> None:
    directives = [line] if line.startswith("#SBATCH") else []
    body = "\n".join([*directives, "#SBATCH --time=1:00:00"])
    rest = "" if directives else line + "\n"
    path = _script(tmp_path, f"{body}\n{rest}srun python train.py\n")
    found = [f for f in lint_path(path).findings if f.code == "JC809"]
    assert len(found) == 1
    assert word in found[0].message


def test_counts_that_are_read_are_not_findings(tmp_path: Path) -> None:
    path = _script(
        tmp_path,
        "#SBATCH --nodes=2-4\n#SBATCH --gres=gpu:a100:8,gpu:x\n#SBATCH --gpus-per-node=h100:8\n"
        "#SBATCH --time=1:00:00\n#SBATCH --signal=B:USR2@120\nexport A_1=x\n"
        "srun torchrun --nnodes=1:4 --nproc_per_node=gpu --master_port=29500 train.py\n",
    )
    assert [c for c in _codes(path) if c[0] == "JC809"] == []


# nesting --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "if true; then\n" * 1000 + "srun python train.py\n" + "fi\n" * 1000,
        "(" * 1000 + "srun python train.py" + ")" * 1000 + "\n",
        " && ".join(["true"] * 5000) + "\nsrun python train.py\n",
        "{ " * 1000 + "srun python train.py; " + "} " * 1000 + "\n",
        "while true; do\n" * 500 + "srun python train.py\n" + "done\n" * 500,
    ],
    ids=["if", "subshell", "and-chain", "group", "while"],
)
def test_deep_nesting_is_read_without_recursion(tmp_path: Path, body: str) -> None:
    path = _script(tmp_path, "#SBATCH --time=1:00:00\n" + body)
    result = lint_path(path)
    assert all(f.code.startswith("JC") for f in result.findings)
    assert main(["import", str(path), "-o", str(tmp_path / "spec.yaml")]) in (0, 1)


# NUL bytes ------------------------------------------------------------------------------------


def test_a_nul_byte_past_the_head_of_the_script(tmp_path: Path) -> None:
    path = tmp_path / "job.sh"
    path.write_bytes(b"#!/bin/bash\n#SBATCH --time=1:00:00\n" + b"echo hi\n" * 20000 + b"echo a\0b\n")
    found = lint_path(path).findings
    assert [(f.code, f.span.line) for f in found] == [("JC800", 20003)]
    assert "NUL byte" in found[0].message


@pytest.mark.parametrize(
    ("where", "yaml"),
    [
        ("launch.workdir", 'launch: {program: train.py, workdir: "/a\\0b"}'),
        ("launch.args[0]", 'launch: {program: train.py, args: ["a\\0b"]}'),
        ("env.A", 'launch: {program: train.py}\nenv: {A: "x\\0y"}'),
        ("launch.program", 'launch: {program: "tr\\0ain.py"}'),
    ],
)
def test_a_nul_byte_in_a_spec_value_is_a_finding(tmp_path: Path, where: str, yaml: str) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(f"version: 1\nname: x\nresources: {{nodes: 1, gpus_per_node: 1}}\n{yaml}\n")
    found = lint_path(spec).findings
    assert [(f.code, f.message.split(":")[0]) for f in found] == [("JC003", where)]
    assert main(["compile", str(spec), "-o", str(tmp_path / "job.sh")]) == 1
    assert not (tmp_path / "job.sh").exists()
