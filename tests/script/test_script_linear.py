"""Script lint's work grows in proportion to its input: ten times the input is not a hundred
times the work. Each case reads an input of size n and 10n and compares CPU time (process time,
the best of three runs, so other processes on the machine matter little; never wall-clock
seconds) or counts the work done; linear work grows tenfold, quadratic a hundredfold."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from jobc.lint.config import Config
from jobc.lint.pipeline import lint_file
from jobc.lint.rules.fabric import _nccl_names
from jobc.lint.rules.topology.jc106_unescaped_runtime_var import _expansions
from jobc.lint.scripts import lint_path
from jobc.script.parse import RUN, read_bytes

BOUND = 30.0  # ten times the input: linear is about 10, quadratic about 100


def _cpu(work: Callable[[], object]) -> float:
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            start = time.process_time()
            work()
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    return max(best, 1e-6)


def _script(body: str) -> str:
    return "#!/bin/bash\n#SBATCH --time=1:00:00\n" + body + "srun python train.py\n"


SCRIPTS: dict[str, tuple[Callable[[int], str], int]] = {
    # each word's position in a `bash -c` string was found by counting newlines from the top
    "bash-c-lines": (lambda n: _script("srun bash -c '\n" + "echo hi $x\n" * n + "python t.py'\n"), 300),
    # each setup line looked through every per-rank expansion of the script
    "procid-lines": (lambda n: _script("echo $SLURM_PROCID\n" * n), 300),
    # each comment alone on its line looked forward past all the comments after it
    "ignore-lines": (lambda n: _script("# jobc: ignore[JC101]\n" * n), 400),
    # a million `echo hi` took minutes and gigabytes: runs of plain lines are read as one
    "echo-lines": (lambda n: _script("echo hi\n" * n), 2000),
}


@pytest.mark.parametrize("case", list(SCRIPTS))
def test_ten_times_the_script_is_not_a_hundred_times_the_work(tmp_path: Path, case: str) -> None:
    make, n = SCRIPTS[case]
    small, large = tmp_path / "small.sh", tmp_path / "large.sh"
    small.write_text(make(n))
    large.write_text(make(10 * n))
    lint_path(small)  # imports and caches: paid once, outside the measurement
    assert _cpu(lambda: lint_path(large)) / _cpu(lambda: lint_path(small)) < BOUND


def test_ten_times_the_suppressions_in_a_spec(tmp_path: Path) -> None:
    def spec(n: int) -> str:
        head = "version: 1\nname: x\n" + "# jobc: ignore[JC101]\n" * n
        return head + "resources: {nodes: 1, gpus_per_node: 1}\nlaunch: {program: t.py}\n"

    small, large = tmp_path / "small.yaml", tmp_path / "large.yaml"
    small.write_text(spec(400))
    large.write_text(spec(4000))
    lint_file(small, config=Config())
    ratio = _cpu(lambda: lint_file(large, config=Config())) / _cpu(lambda: lint_file(small, config=Config()))
    assert ratio < BOUND


def test_a_run_of_plain_lines_is_one_command_and_keeps_every_position() -> None:
    body = "echo hi\n" * 100_000
    facts = read_bytes(_script("if true; then\n" + body + "fi\nmodule load x\n").encode(), "job.sh")
    commands = [(c.name, c.span.line, c.span.end_line) for c in facts.commands]
    assert commands == [("true", 3, 3), ("echo", 4, 100_003), ("module", 100_005, 100_005)]
    assert facts.main_step is not None
    assert facts.main_step.span.line == 100_006
    assert len(facts.lines) == 100_006


def test_lines_that_only_look_plain_are_read_one_by_one() -> None:
    # a secret's name, an expansion, a continued command: each line is read as it is
    lines = ["echo token abc"] + ["echo $SLURM_PROCID"] + ["echo hi \\"] + ["echo hi"] * (RUN - 1)
    facts = read_bytes(_script("\n".join(lines) + "\n").encode(), "job.sh")
    assert len(facts.commands) == len(lines) - 1  # `echo hi \` and the line it continues are one


def test_jc106_on_unclosed_arithmetic_is_linear() -> None:
    small, large = "$((" * 2000, "$((" * 20000
    _expansions(small)
    assert _cpu(lambda: _expansions(large, shell=True)) / _cpu(lambda: _expansions(small, shell=True)) < BOUND
    assert _expansions("$(( $(( SLURM_PROCID )) + RANK ))x$((", shell=True) == ["SLURM_PROCID"]
    assert _expansions("'$SLURM_PROCID' $((LOCAL_RANK))", shell=True) == ["LOCAL_RANK"]


def test_jc407_looks_for_a_suggestion_a_bounded_number_of_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []
    closest = _nccl_names._closest

    def counting(name: str, cutoff: float, exact: frozenset[str]) -> str | None:
        asked.append(name)
        return closest(name, cutoff, exact)

    monkeypatch.setattr(_nccl_names, "_closest", counting)
    monkeypatch.setattr(_nccl_names, "_answers", {})
    monkeypatch.setattr(_nccl_names, "SUGGESTIONS", 50)
    path = tmp_path / "job.sh"
    path.write_text(_script("".join(f"export NCCL_FOOBAR{i}=1\n" for i in range(500))))
    found = [f for f in lint_path(path).findings if f.code == "JC407"]
    assert len(found) == 500
    assert len(asked) == 50


@pytest.mark.parametrize(
    "name", ["NCCL_SOCKET_IFACE", "NCLL_DEBUG", "NCCL_IB_HCAS", "NCCL_FOOBAR7", "TORCH_NCCL_BLOCKIN", "X"]
)
def test_jc407_suggests_what_difflib_suggests(name: str) -> None:
    import difflib

    known = _nccl_names.names().exact
    for cutoff in (0.6, 0.85):
        expected = difflib.get_close_matches(name, sorted(known), n=1, cutoff=cutoff)
        assert _nccl_names._closest(name, cutoff, known) == (expected[0] if expected else None)
