"""A failure stated in another tool's words: an exception carrying a command's refusal, a
scheduler's mail about a memory limit, an InfiniBand completion error in a library's words, a
Ray actor the memory monitor killed, a terminal's padded lines. Each with a near miss."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.jobs.triage import triage_files

_TB = 'Traceback (most recent call last):\n  File "/home/u/submit.py", line 9, in <module>\n    ex.submit()\n'
_FIELDS = (
    "ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task.\n"
    "        class_name: Trainer\n"
    "        ip: 10.0.0.7\n"
)
_PAD = " " * 40

CASES: list[tuple[str, str, tuple[str, int | None, str | None, int]]] = [
    (
        "an exception carrying sbatch's refusal",
        _TB + "lib.SubmitError: sbatch: error: bad account\n"
        "sbatch: error: Batch job submission failed: Invalid account or account/partition combination\n",
        ("slurm_refused", None, None, 5),
    ),
    (
        "TORQUE's mail: a memory resource limit",
        "PBS Job Id: 1234\nExec host:  n17/0-3\nAborted by PBS Server\n"
        "Job exceeded a memory resource limit (vmem, pvmem, etc.). Job was aborted\n",
        ("host_oom", None, "n17", 4),
    ),
    (
        "a library's completion error with its status words",
        "CQE ERROR wr_id=3 status=12(transport retry counter exceeded) opcode=1 qp_num=0x10\n",
        ("nccl_error", None, None, 1),
    ),
    (
        "an actor the memory monitor killed",
        _FIELDS + "The actor is dead because its worker process has died. Worker exit type: USER_ERROR "
        "Worker exit detail: Task was killed due to the node running low on memory.\n",
        ("host_oom", None, "10.0.0.7", 4),
    ),
    (
        "torch 1.9's agent: a child with no error file",
        "CHILD PROCESS FAILED WITH NO ERROR_FILE\nChild process 42 (local_rank 1) FAILED (exitcode 1)\n",
        ("exit_code", None, None, 2),
    ),
    (
        "PaddlePaddle's launcher: a container's code",
        "LAUNCH ERROR 2022-11-21 02:35:54,385 Container failed !!!\n"
        "Container rank 2 status failed cmd ['python', 'train.py'] code 1 log log/workerlog.2\n",
        ("exit_code", 2, None, 2),
    ),
]


@pytest.mark.parametrize(("name", "text", "want"), CASES, ids=[c[0] for c in CASES])
def test_a_carried_failure_is_read(
    tmp_path: Path, name: str, text: str, want: tuple[str, int | None, str | None, int]
) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.rank, first.node, first.evidence[0].line) == want, first.summary


NEAR_MISSES: list[tuple[str, str, str]] = [
    # an exception whose message is its own, with a refusal a line later from another command run
    (
        "an exception of its own before a refusal",
        _TB + "ValueError: bad batch size\nsbatch: error: Batch job submission failed: Invalid account\n",
        "exception",
    ),
    (
        "a memory limit that was not exceeded",
        "Job memory resource limit: 4gb (vmem)\nJob Error: node died\n",
        "unknown",
    ),
    ("a completion queue that is fine", "CQE ERROR count: 0\n", "unknown"),
    (
        "an actor that died without a word after its fields",
        _FIELDS + "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR\n",
        "signal",
    ),
    ("a child that finished", "Child process 42 (local_rank 1) finished (exitcode 0)\n", "none"),
    ("a container still running", "Container rank 2 status running cmd ['python'] code 0 log x\n", "none"),
]


@pytest.mark.parametrize(("name", "text", "cls"), NEAR_MISSES, ids=[c[0] for c in NEAR_MISSES])
def test_a_near_miss_is_not_read_so(tmp_path: Path, name: str, text: str, cls: str) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    findings = triage_files([log]).findings
    assert (findings[0].cls if findings else "none") == cls, name


def _terminal(lines: list[str], width: int) -> str:
    return "".join(line.ljust(width) + "\n" for line in lines)


def test_a_padded_line_ends_where_the_terminal_padded_it(tmp_path: Path) -> None:
    width = 120
    logs = [
        " | iteration 10 | lm loss: 1.42 | grad norm: 13.6 | skipped: 0 |",
        "W1223 05:17:58.996000 3304089 torch/distributed/elastic/multiprocessing/api.py:908] Sending "
        "process 3304210 closing signal SIGTERM",
        "E1223 05:18:02.971000 3304089 torch/distributed/elastic/multiprocessing/api.py:882] failed "
        "(exitcode: -11) local_rank: 0 (pid: 3304209) of binary: /usr/bin/python3",
        "Traceback (most recent call last):",
        '  File "<frozen runpy>", line 198, in _run_module_as_main',
    ]
    log = tmp_path / "x.log"
    log.write_text(_terminal(logs, width), encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.local_rank) == ("signal", 0)
    assert 3 in [e.line for e in first.evidence], first.summary
