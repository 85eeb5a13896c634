"""Triage on logs: real ones from the test cluster (tests/jobs/logs/) and small written ones."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jobc.jobs.labels import parse, rank_of
from jobc.jobs.triage import Scanner, exit_class, render, triage_files

LOGS = Path(__file__).with_name("logs")


def _triage(text: str, tmp_path: Path, **kwargs: object) -> tuple[Path, object]:
    path = tmp_path / "job.out"
    path.write_text(text, encoding="utf-8")
    return path, triage_files([path], **kwargs)  # type: ignore[arg-type]


def test_labels_srun_torchrun_and_torch_prefixes() -> None:
    line = parse(" 3: [rank3]: ValueError: x")
    assert (line.task, line.rank, line.text) == (3, 3, "ValueError: x")
    line = parse("1: [rank2]:[rank2]: Traceback (most recent call last):")
    assert (line.task, line.rank, line.text) == (1, 2, "Traceback (most recent call last):")
    line = parse("1: [default1]:hello")
    # a local rank is not a global one: which global rank it is depends on the rendezvous
    assert (line.local_rank, rank_of(line, torchrun=True, per_node=4)) == (1, None)
    assert rank_of(parse("0: torchrun agent line"), torchrun=True, per_node=4) is None
    assert rank_of(parse("7: plain"), torchrun=False, per_node=4) == 7
    assert parse("no label").task is None
    # accelerate's `[host:1]:` names a local rank; Open MPI's `[host:236649]` a process id
    line = parse("[gpu-node3:1]: Traceback (most recent call last):")
    assert (line.node, line.local_rank) == ("gpu-node3", 1)
    line = parse("[c4140-02:236649] Signal: Segmentation fault (11)")
    assert (line.node, line.local_rank, line.text) == ("c4140-02", None, "Signal: Segmentation fault (11)")


@pytest.mark.parametrize("name", ["srun-raise", "torchrun-raise"])
def test_exception_on_one_rank_comes_first_and_lost_peers_are_symptoms(name: str) -> None:
    d = triage_files([LOGS / f"{name}.out"])
    first = d.findings[0]
    assert first.cause
    assert first.cls == "exception"
    assert first.action == "fix_program"
    assert first.rank == 3
    assert first.node == "jobc-node1"
    assert "ValueError: bad sample in batch 2 on rank 3" in first.summary
    assert "in load_batch at /home/me/train/scenario.py:45" in first.summary
    assert [f.cls for f in d.causes] == ["exception"]
    symptoms = [f for f in d.findings if f.cls == "collective_timeout"]
    assert len(symptoms) == 1
    assert not symptoms[0].cause
    assert symptoms[0].ranks == [0, 1, 2] or sorted(symptoms[0].ranks) == [0, 1, 2]
    # evidence points at the traceback's lines
    lines = (LOGS / f"{name}.out").read_text(encoding="utf-8").splitlines()
    for ev in first.evidence:
        assert lines[ev.line - 1].rstrip() == ev.text
    assert d.mode == ("torchrun" if name.startswith("torchrun") else "srun")


def test_rendezvous_names_the_endpoint_the_ranks_tried() -> None:
    d = triage_files([LOGS / "srun-wrongport.out"])
    first = d.findings[0]
    assert first.cls == "rendezvous"
    assert first.cause
    assert "jobc-node0:20004" in first.summary
    assert "master is jobc-node0:20003" in first.summary
    assert len(d.causes) == 1


def test_sigkill_without_oom_and_with_oom(tmp_path: Path) -> None:
    d = triage_files([LOGS / "srun-kill.out"])
    assert d.findings[0].cls == "signal"
    assert d.findings[0].signal == "SIGKILL"
    assert d.findings[0].node == "jobc-node0"
    assert d.findings[0].rank == 1
    d = triage_files([LOGS / "srun-kill.out"], sacct_state="OUT_OF_MEMORY")
    assert d.findings[0].cls == "host_oom"
    assert d.findings[0].action == "raise_limit"


def test_a_sigkill_torchrun_reports_stays_first_when_the_grace_period_cancels_the_step() -> None:
    # torchrun-kill-grace.out: the test cluster under load, rank 1 SIGKILLs itself under
    # torchrun; the other node's agent does not end within the compiled script's 30 s grace, so
    # the step is cancelled and srun reports that task Killed. The agent's line, torchrun's
    # table and the CANCELLED explain each other round a loop; the loop's earliest stays the cause
    d = triage_files([LOGS / "torchrun-kill-grace.out"])
    first = d.findings[0]
    assert (first.cls, first.signal, first.rank, first.node) == ("signal", "SIGKILL", 1, "jobc-node1")
    assert first.cause
    assert not any(f.cls == "exit_code" and f.cause for f in d.findings)


def test_a_task_its_memory_cgroup_killed_is_out_of_memory() -> None:
    # srun-oom.out: Slurm 22.05 on the test cluster, a step over its --mem in a memory cgroup
    # (tests/jobs/test_accounting.py): slurmstepd reports the oom-kill event, srun says the task
    # is "Out Of Memory" (not "Killed")
    d = triage_files([LOGS / "srun-oom.out"])
    first = d.findings[0]
    assert first.cause
    assert first.rank == 0
    assert "memory" in first.summary


def test_a_node_lost_mid_job_is_named() -> None:
    # srun-node-fail.out: Slurm 22.05 on the test cluster, the slurmd of jobc-f29899-1 killed
    # while a two-node job ran (tests/jobs/test_accounting.py)
    first = triage_files([LOGS / "srun-node-fail.out"], sacct_state="NODE_FAIL").findings[0]
    assert (first.cls, first.cause, first.node) == ("node_fail", True, "jobc-f29899-1")


def test_cuda_oom_names_the_ranks_coordinates(tmp_path: Path) -> None:
    text = (
        "jobc: world 4 = tp 2 x pp 1 x cp 1 x dp 2 (ep 1), srun launch\n"
        "2: [rank2]: Traceback (most recent call last):\n"
        '2: [rank2]:   File "/t/train.py", line 9, in step\n'
        "2: [rank2]:     loss.backward()\n"
        "2: [rank2]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
        "srun: error: n1: task 2: Exited with exit code 1\n"
    )
    coords = {2: {"tp": 0, "pp": 0, "cp": 0, "dp": 1, "ep": 0}}
    _, d = _triage(text, tmp_path, coords=coords)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert first.cls == "cuda_oom"
    assert first.rank == 2
    assert first.node == "n1"
    assert "(tp 0, pp 0, cp 0, dp 1, ep 0)" in first.summary


def test_time_limit_with_and_without_checkpoint(tmp_path: Path) -> None:
    base = (
        "jobc: master n0:20001, restart 0\n"
        "jobc: SIGTERM received, forwarding it to every task of the job steps\n"
        "0: rank 0 saving\n"
    )
    end = "slurmstepd: error: *** JOB 7 ON n0 CANCELLED AT 2026-01-01T00:00:00 DUE TO TIME LIMIT ***\n"
    _, d = _triage(base + end, tmp_path, state="TIMEOUT")
    assert d.findings[0].cls == "time_limit"
    assert d.findings[0].node == "n0"
    assert d.findings[0].action == "raise_limit"
    assert "slurm.time" in d.findings[0].advice  # a log of jobc's script: the spec's words
    ok = base + "jobc: the step ended with exit code 75\njobc: requeueing job 7: x (restart 1 of at most 3)\n"
    _, d = _triage(ok, tmp_path, state="TIMEOUT")
    assert d.findings[0].cls == "time_limit"
    assert any(f.kind == "requeue-chain" for f in d.findings)
    _, d = _triage("0: training\n" + end, tmp_path)
    assert d.findings[0].cls == "time_limit"  # type: ignore[attr-defined]
    assert "slurm." not in d.findings[0].advice  # type: ignore[attr-defined]  # not jobc's log
    assert "--time" in d.findings[0].advice  # type: ignore[attr-defined]


def test_preemption_and_requeue_chain(tmp_path: Path) -> None:
    text = (
        "jobc: master n0:20001, restart 0\n"
        "jobc: SIGTERM received, forwarding it to every task of the job steps\n"
        "jobc: the step ended with exit code 75\n"
        "jobc: requeueing job 9: the program exited with the requeue code 75 (restart 1 of at most 3)\n"
        "jobc: master n0:20001, restart 1\n"
        "jobc: the step ended with exit code 0\n"
    )
    _, d = _triage(text, tmp_path, state="COMPLETED")
    kinds = [f.kind for f in d.findings]  # type: ignore[attr-defined]
    assert d.findings[0].cls == "signal"  # type: ignore[attr-defined]
    assert "requeue-chain" in kinds
    assert d.restarts == 1  # type: ignore[attr-defined]


def test_node_fail_comes_first(tmp_path: Path) -> None:
    text = "0: [rank0]: RuntimeError: Connection reset by peer\n"
    _, d = _triage(text, tmp_path, state="NODE_FAIL")
    assert d.findings[0].cls == "node_fail"  # type: ignore[attr-defined]


def test_sigterm_cascade_is_a_symptom(tmp_path: Path) -> None:
    text = (
        "1: [rank1]: Traceback (most recent call last):\n"
        '1: [rank1]:   File "/t/a.py", line 3, in main\n'
        "1: [rank1]: KeyError: 'lr'\n"
        "srun: error: n0: task 1: Exited with exit code 1\n"
        "srun: error: n1: tasks 2-3: Terminated\n"
        "srun: error: n0: task 0: Exited with exit code 143\n"
    )
    _, d = _triage(text, tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert first.cls == "exception"
    assert first.rank == 1  # torch's [rank1]: says it
    assert first.task == 1
    assert first.node == "n0"
    assert [f.cls for f in d.causes] == ["exception"]  # type: ignore[attr-defined]
    assert "signal" in {f.cls for f in d.findings if not f.cause}  # type: ignore[attr-defined]


def test_exit_classes() -> None:
    assert "Python exception" in exit_class(1)
    assert "requeue" in exit_class(75)
    assert "watchdog" in exit_class(124)
    assert "SIGKILL" in exit_class(137)
    assert "SIGTERM" in exit_class(143)


def test_binary_garbage_and_overlong_lines(tmp_path: Path) -> None:
    garbage = os.urandom(200_000) + b"\0" * 100_000 + b"x" * 5_000_000 + b"\n"
    tail = (
        b"3: Traceback (most recent call last):\n"
        b'3:   File "/t/a.py", line 3, in main\n'
        b"3: ZeroDivisionError: division by zero\n"
    )
    path = tmp_path / "bin.out"
    path.write_bytes(garbage + tail)
    d = triage_files([path])
    assert d.findings[0].cls == "exception"
    assert d.findings[0].task == 3


def _peak_rss_kib(path: Path) -> int:
    """Peak resident memory of a fresh `jobc triage` of the file, in KiB (its own process only)."""
    code = (
        "import resource, sys\n"
        "from jobc.cli import main\n"
        "main(['triage', sys.argv[1]])\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
    )
    run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=False)
    assert "Traceback" not in run.stderr, run.stderr
    return int(run.stderr.strip().splitlines()[-1])


def _progress_log(path: Path, size: int) -> None:
    line = b"0: step 12345 loss 1.2345 lr 0.0001 tokens/s 123456\n"
    with path.open("wb") as out:
        out.write(line * (size // len(line)))
        out.write(
            b"2: Traceback (most recent call last):\n2: RuntimeError: CUDA error: an illegal memory access\n"
        )


@pytest.mark.slow
def test_a_huge_log_streams_in_bounded_memory(tmp_path: Path) -> None:
    # The same failure after 4 MiB and after 32 MiB of progress lines: the peak memory of the
    # whole process stays the same (streamed, not read whole), and the cause is still found.
    small, large = tmp_path / "small.out", tmp_path / "large.out"
    _progress_log(small, 4 * 1024**2)
    _progress_log(large, 32 * 1024**2)
    assert triage_files([large]).findings[0].task == 2
    grown = _peak_rss_kib(large) - _peak_rss_kib(small)
    assert grown < 8 * 1024, f"peak memory grew by {grown} KiB for 28 MiB more log"


def test_json_and_text_from_the_command_line(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "jobc", "triage", str(LOGS / "srun-raise.out"), "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["findings"][0]["rank"] == 3
    assert data["findings"][0]["cause"]
    assert data["findings"][0]["class"] == "exception"
    assert data["findings"][0]["action"] == "fix_program"
    # the statement line first: the exception's own line, then the frame in the program
    assert data["findings"][0]["evidence"][0]["line"] == 26
    assert data["findings"][0]["evidence"][0]["text"].endswith("ValueError: bad sample in batch 2 on rank 3")
    text = render(triage_files([LOGS / "srun-raise.out"]))
    assert text.splitlines()[1].startswith("first cause: [exception] rank 3 on jobc-node1 raised ValueError")


def test_scanner_is_fed_line_by_line() -> None:
    s = Scanner()
    s.feed("x", 1, "0: Traceback (most recent call last):\n")
    s.feed("x", 2, "0: OSError: disk full\n")
    # no launcher of its own in the log: srun's task is the rank, as an inference
    first = s.diagnosis(None, None, None, ["x"]).findings[0]
    assert first.summary.startswith("rank 0 raised OSError")
    assert (first.task, first.inferred) == (0, True)


def test_a_shell_naming_its_script_is_no_host_prefix() -> None:
    # bash reports `SCRIPT: line N: PID Aborted …`; the compiled step's shell is named jobc-step
    from jobc.jobs.labels import parse

    line = parse("1: jobc-step: line 62: 11414 Aborted                 ( trap - INT QUIT; exec x )")
    assert (line.task, line.node) == (1, None)
    assert line.text.startswith("jobc-step: line 62:")
    assert parse("run-node1.sh: line 3: 77 Killed   python train.py").node is None
    # a host prefix in front of other text is still read as one
    assert parse("gpu-07: Traceback (most recent call last):").node == "gpu-07"


def test_a_full_disk_is_its_own_cause_with_its_rank_and_action(tmp_path: Path) -> None:
    log = tmp_path / "full.out"
    log.write_text(
        "[rank2]: Traceback (most recent call last):\n"
        '[rank2]:   File "/home/me/train.py", line 88, in save\n'
        "[rank2]:     torch.save(state, path)\n"
        "[rank2]: OSError: [Errno 28] No space left on device: '/scratch/ckpt/step_900.pt'\n"
        "[rank0]: RuntimeError: NCCL communicator was aborted on rank 0.\n",
        encoding="utf-8",
    )
    d = triage_files([log])
    first = d.findings[0]
    assert (first.cls, first.rank, first.action, first.cause) == ("disk_full", 2, "free_space", True)
    assert "No space left on device" in first.summary
    log.write_text("OSError: [Errno 2] No such file or directory: '/scratch/ckpt'\n", encoding="utf-8")
    assert triage_files([log]).findings[0].cls == "exception"


def test_a_missed_monitored_barrier_is_the_missing_ranks_and_gives_way_to_their_own_failure(
    tmp_path: Path,
) -> None:
    barrier = "[rank0]: RuntimeError: [Rank 0]: Ranks 3, 1 failed to pass monitoredBarrier in 30000 ms\n"
    _, d = _triage(barrier, tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.rank, first.ranks, first.cause) == ("collective_timeout", 1, [1, 3], True)
    assert "rank 1 (and rank(s) 3) did not reach the monitored barrier in 30000 ms" in first.summary
    # rank 1's own failure, before or after rank 0's report of it, is the cause
    own = "[rank1]: Traceback (most recent call last):\n[rank1]: ValueError: bad batch shape (3, 7)\n"
    for text in (own + barrier, barrier + own):
        _, d = _triage(text, tmp_path)
        first = d.findings[0]  # type: ignore[attr-defined]
        assert (first.cls, first.rank) == ("exception", 1)
        barrier_finding = next(f for f in d.findings if f.code == "N411")  # type: ignore[attr-defined]
        assert not barrier_finding.cause
        assert barrier_finding.summary.startswith("then rank 0's monitored barrier missed rank 1")
    # another rank's failure is no reason to doubt the barrier's word about rank 1
    _, d = _triage(
        "[rank2]: Traceback (most recent call last):\n[rank2]: ValueError: x\n" + barrier, tmp_path
    )
    assert next(f for f in d.findings if f.code == "N411").cause  # type: ignore[attr-defined]


def test_slurm_refusing_a_step_or_a_job_is_its_own_cause(tmp_path: Path) -> None:
    _, d = _triage(
        "srun: error: Unable to create step for job 41: More processors requested than permitted\n"
        "srun: error: Unable to create step for job 41: Job/step already completing or completed\n",
        tmp_path,
    )
    (first,) = d.findings  # type: ignore[attr-defined]  # the second line is the job's end, an echo
    assert (first.cls, first.action, first.cause) == ("slurm_refused", "fix_spec_or_script", True)
    assert first.summary == "srun could not start a step in job 41: More processors requested than permitted"
    # a controller that did not answer refused nothing: submit again
    _, d = _triage(
        "salloc: error: Job submit/allocate failed: Socket timed out on send/recv operation\n", tmp_path
    )
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.action) == ("slurm_refused", "resubmit")
    assert first.summary.startswith("salloc could not get the job an allocation: Socket timed out")


def test_open_mpis_first_failed_process_gives_its_rank_and_the_exit_code_below(tmp_path: Path) -> None:
    block = (
        "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
        "the job to be terminated. The first process to do so was:\n\n"
        "  Process name: [[42807,1],3]\n"
        "  Exit code:    7\n"
    )
    _, d = _triage(block, tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.rank, first.exit_code, first.cause) == ("exit_code", 3, 7, True)
    # rank 3's own exception explains the exit: the report is not a second cause
    _, d = _triage("[rank3]: Traceback (most recent call last):\n[rank3]: KeyError: 'x'\n" + block, tmp_path)
    assert [(f.cls, f.rank) for f in d.findings if f.cause] == [("exception", 3)]  # type: ignore[attr-defined]


def test_a_fifo_given_as_a_log_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "job.out"
    os.mkfifo(fifo)
    run = subprocess.run(
        [sys.executable, "-m", "jobc", "triage", str(fifo)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 2
    assert run.stderr == f"jobc triage: {fifo}: cannot read: a FIFO, not a regular file\n"


def test_a_signal_received_comes_before_the_teardown_it_caused(tmp_path: Path) -> None:
    tb = (
        'Traceback (most recent call last):\n  File "/venv/lib/python3.12/site-packages/x.py", line 4, in f\n'
    )
    _, d = _triage(
        "Epoch 0: 10%\n[rank: 0] Received SIGTERM: 15\n"
        + tb
        + "lightning.pytorch.utilities.exceptions.SIGTERMException\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        + tb
        + "RuntimeError: DataLoader worker (pid 27078) is killed by signal: Terminated. \n",
        tmp_path,
    )
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.rank, first.evidence[0].line) == ("signal", 0, 2)
    # a data-loader worker ended by SIGTERM is the teardown's, not the host's memory
    assert all(f.cls != "host_oom" for f in d.findings)  # type: ignore[attr-defined]
    # ... and one killed by SIGKILL is still the host's memory
    _, d = _triage("RuntimeError: DataLoader worker (pid 27078) is killed by signal: Killed.\n", tmp_path)
    assert d.findings[0].cls == "host_oom"  # type: ignore[attr-defined]


def test_an_exception_line_without_its_traceback_does_not_hide_the_failure_that_ended_the_program(
    tmp_path: Path,
) -> None:
    _, d = _triage(
        "CommandNotFoundError: Your shell has not been properly configured to use 'conda activate'.\n"
        "Traceback (most recent call last):\n"
        '  File "src/cv.py", line 6, in <module>\n'
        "    from rdkit.Chem import rdmolops\n"
        "ModuleNotFoundError: No module named 'rdkit'\n",
        tmp_path,
    )
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.evidence[0].line) == ("import_error", 5)


def test_the_text_output_says_each_action_once(tmp_path: Path) -> None:
    from jobc.jobs.judge import ADVICE
    from jobc.jobs.signatures import ACTIONS

    _, d = _triage(
        'Traceback (most recent call last):\n  File "/u/t.py", line 3, in f\nValueError: x\n', tmp_path
    )
    (line,) = [x for x in render(d).splitlines() if "action" in x]  # type: ignore[arg-type]
    assert line == f"    action (fix_program): {ADVICE['exception'][0]}"
    # no action's meaning is written in front of an advice that already says it
    for meaning in ACTIONS.values():
        assert f"{meaning}: " not in render(d)  # type: ignore[arg-type]


_WATCHDOG = (
    "[rank0]:[E1218 20:27:21.426415540 ProcessGroupNCCL.cpp:629] [Rank 0] Watchdog caught collective "
    "operation timeout: WorkNCCL(SeqNum=1, OpType=BROADCAST, NumelIn=131072000, NumelOut=131072000, "
    "Timeout(ms)=600000) ran for 600081 milliseconds before timing out.\n"
)


def test_a_script_command_not_found_the_shell_traced_past_is_no_first_cause(tmp_path: Path) -> None:
    # bash's `set -x` trace of the script's next commands after its report: the script went on
    # past the failed command, so the watchdog's timeout before it is what the log shows
    text = (
        "+ deepspeed src/train.py\n" + _WATCHDOG + "+ --disable_tqdm True\n"
        "scripts/order_1.sh: line 45: --disable_tqdm: command not found\n"
        "+ sleep 5\n+ deepspeed src/train.py --task next\n"
    )
    _, d = _triage(text, tmp_path)
    assert d.findings[0].cls == "collective_timeout"  # type: ignore[attr-defined]
    assert d.findings[0].evidence[0].line == 2  # type: ignore[attr-defined]
    # near miss: the shell's report is the log's last word (no trace after it): it stays the cause
    cut = text.split("+ sleep 5")[0]
    _, d = _triage(cut, tmp_path)
    assert d.findings[0].cls == "missing_program"  # type: ignore[attr-defined]


def test_an_nccl_call_failed_with_nccls_error_string_is_an_nccl_error(tmp_path: Path) -> None:
    # Horovod throws the call's name and NCCL's error string
    text = "tensorflow.python.framework.errors_impl.UnknownError:  ncclCommInitRank failed: "
    text += "unhandled system error\n"
    _, d = _triage(text, tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.evidence[0].line) == ("nccl_error", 1)
    # near miss: a call that failed with words that are not NCCL's error string
    _, d = _triage("RuntimeError: ncclCommInitRank failed: no GPU visible\n", tmp_path)
    assert d.findings[0].cls != "nccl_error"  # type: ignore[attr-defined]


_OMPI_NOT_FOUND = """\
--------------------------------------------------------------------------
mpirun was unable to find the specified executable file, and therefore
did not launch the job.  This error was first reported for process
rank 0; it may have occurred for other processes as well.

NOTE: A common cause for this error is misspelling a mpirun command
      line parameter option (remember that mpirun interprets the first
      unrecognized command line token as the executable).

Node:       731-sc
Executable: pw.x
--------------------------------------------------------------------------
4 total processes failed to start
"""


def test_open_mpi_unable_to_find_the_executable_names_its_rank_and_node(tmp_path: Path) -> None:
    _, d = _triage(_OMPI_NOT_FOUND, tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.rank, first.node, first.evidence[0].line) == ("missing_program", 0, "731-sc", 2)
    # near miss: mpirun that found its executable and reports nothing of the kind
    _, d = _triage("mpirun found the specified executable file pw.x on 731-sc\n", tmp_path)
    assert not any(f.cls == "missing_program" for f in d.findings)  # type: ignore[attr-defined]


def test_a_program_subprocess_could_not_execute_is_a_missing_program(tmp_path: Path) -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.6/subprocess.py", line 1344, in _execute_child\n'
        "    raise child_exception_type(errno_num, err_msg, err_filename)\n"
        "FileNotFoundError: [Errno 2] No such file or directory: 'sbatch': 'sbatch'\n"
    )
    _, d = _triage(text, tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.evidence[0].line) == ("missing_program", 4)
    assert "'sbatch'" in first.summary
    # near miss: a file the program itself opened is no program
    near = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/train.py", line 12, in <module>\n'
        "    with open(args.data) as f:\n"
        "FileNotFoundError: [Errno 2] No such file or directory: 'sbatch'\n"
    )
    _, d = _triage(near, tmp_path)
    assert d.findings[0].cls == "exception"  # type: ignore[attr-defined]


def test_open_mpis_primary_job_words_alone_are_the_weakest_report(tmp_path: Path) -> None:
    words = (
        "Primary job  terminated normally, but 1 process returned\n"
        "a non-zero exit code. Per user-direction, the job has been aborted.\n"
    )
    _, d = _triage("done\n" + words, tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.evidence[0].line, first.confidence) == ("exit_code", 2, "medium")
    # with the report of the first process that failed after them, that report names the rank
    named = "  Process name: [[42807,1],3]\n  Exit code:    1\n"
    _, d = _triage(words + named, tmp_path)
    assert d.findings[0].rank == 3  # type: ignore[attr-defined]
    # near miss: a job that ended normally
    _, d = _triage("Primary job  terminated normally.\n", tmp_path)
    assert not any(f.cls == "exit_code" for f in d.findings)  # type: ignore[attr-defined]


def test_sge_accountings_hostname_is_the_node_of_its_one_job(tmp_path: Path) -> None:
    record = "qname        long.q\nhostname     qb3-id95\nfailed       37  : qmaster enforced h_rt\n"
    _, d = _triage(record + "exit_status  137                  (Killed)\n", tmp_path)
    assert d.findings[0].node == "qb3-id95"  # type: ignore[attr-defined]
    # near miss: a script's command, not the record's column
    _, d = _triage("+ hostname -s\nexit_status  137                  (Killed)\n", tmp_path)
    assert d.findings[0].node is None  # type: ignore[attr-defined]


def test_lines_of_one_length_that_start_with_the_same_nodes_prefix_are_not_one_cut_line(
    tmp_path: Path,
) -> None:
    # NCCL's INFO lines are all as long: they look cut at a width, but each starts with its node
    info = "ins-7df6eojsifuykig9:3018453:3024011 [2] NCCL INFO Channel 0{} : 2[1040] -> 1[1030] "
    info += "via SHM/direct/direct\n"
    text = "".join(info.format(i) for i in range(4))
    text += (
        "\nins-7df6eojsifuykig9:3018451:3018451 [0] enqueue.cc:1085 NCCL WARN Cuda failure 'out of memory'\n"
    )
    _, d = _triage(text, tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.node, first.evidence[0].line) == ("cuda_oom", "ins-7df6eojsifuykig9", 6)


def test_nccls_trace_of_a_failed_calls_return_names_the_node_of_the_nccl_error(tmp_path: Path) -> None:
    trace = "".join(
        f"user-G493:275204:275658 [4] NCCL INFO {where} -> 2\n"
        for where in ("misc/socket.cc:666", "bootstrap.cc:280", "init.cc:1641")
    )
    error = (
        "INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:305: NCCL operation "
        "ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled system error\n"
    )
    _, d = _triage(trace + error, tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.node, first.confidence) == ("nccl_error", "user-G493", "medium")
    # near miss: the traces of two nodes say nothing of which one raised it
    other = trace.replace("user-G493:", "user-G494:")
    _, d = _triage(trace + other + error, tmp_path)
    assert d.findings[0].node is None  # type: ignore[attr-defined]


def test_a_header_s_one_node_after_its_other_fields_is_the_node_of_a_wrapper_s_failure(
    tmp_path: Path,
) -> None:
    # a script's one-line header (`Job: NAME  ID: N  Nodes: HOST`) names the job's one node; a
    # wrapper's report of a command's status (`… Return value: 134`) is that command's end
    text = (
        "Job: vulkan_sim  ID: 23040409  Nodes: idun-07-03\n\nSIMULATION SETUP\n"
        "Error running ./RayTracer --scene 1 --width 32! Return value: 134\n"
    )
    _, d = _triage(text, tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.node, first.evidence[0].line) == ("signal", "idun-07-03", 4)
    # near misses: several nodes name none of them; a return value of 0 is no failure's
    several = text.replace("Nodes: idun-07-03", "Nodes: idun-07-[03-04]")
    (tmp_path / "several").mkdir()
    _, d = _triage(several, tmp_path / "several")
    assert d.findings[0].node is None  # type: ignore[attr-defined]
    (tmp_path / "zero").mkdir()
    _, d = _triage(text.replace("Return value: 134", "Return value: 0"), tmp_path / "zero")
    assert all(f.cls != "signal" for f in d.findings)  # type: ignore[attr-defined]


def test_grep_s_line_numbers_before_a_launcher_s_prefixes_are_taken_off_and_pair_local_with_global(
    tmp_path: Path,
) -> None:
    # a paste of `grep -n` over a torchrun log: the numbers jump, so no column is inferred; the
    # prefixes after them are read, and `[default0]:[rank0]:` says which global rank local rank
    # 0 is, for the line that names only the local one
    text = (
        "1077:[default0]:WARNING:megatron.core.utils:CUDA out of memory. Tried to allocate 2.32 GiB.\n"
        "1078:[default0]:[rank0]: Traceback (most recent call last):\n"
        "1129:[default0]:[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.32 GiB.\n"
        "1130:[default1]:[rank1]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.32 GiB.\n"
    )
    line = parse("1129:[default0]:[rank0]: torch.OutOfMemoryError: x")
    assert (line.local_rank, line.rank, line.text) == (0, 0, "torch.OutOfMemoryError: x")
    _, d = _triage(text, tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.rank, first.evidence[0].line) == ("cuda_oom", 0, 1)
    # near misses: a time and srun's label are not grep's numbers; two nodes' output in one file
    # pairs local rank 0 with two global ranks, so neither is taken
    assert parse("10:31:02 [rank0]: x").rank is None
    assert parse("3: [rank3]: x").task == 3
    from jobc.jobs.findings import Facts
    from jobc.jobs.identity import _one_global

    facts = Facts()
    facts.local_global = {0: {0}, 1: {1}}
    assert (_one_global(facts, 0), _one_global(facts, 1), _one_global(facts, 2)) == (0, 1, None)
    facts.local_global = {0: {0, 8}, 1: {1}}
    assert (_one_global(facts, 0), _one_global(facts, 1)) == (None, None)


_FAILED_OR_TIMED_OUT = (
    "[rank6]:[E624 04:14:29.224103812 ProcessGroupNCCL.cpp:684] [Rank 6] Some NCCL operations have failed "
    "or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on "
    "corrupted/incomplete data.\n"
)


def test_torchs_failed_or_timed_out_after_nccls_trace_of_a_failed_call_is_nccls_error(tmp_path: Path) -> None:
    # torch's words do not say whether the call failed or timed out; NCCL's own trace of a failed
    # return on one node (`socket.cc:829 -> 3`) does, when nothing says that a collective timed out
    trace = "".join(
        f"n124-137-109:312247:326969 [0] NCCL INFO misc/socket.cc:{n} -> 3\n" for n in (829, 64, 80)
    )
    _, d = _triage(trace + _FAILED_OR_TIMED_OUT, tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.node, first.confidence) == ("nccl_error", "n124-137-109", "medium")
    assert "3: internal error" in first.summary
    assert "rank(s) 6" in first.summary
    assert [e.line for e in first.evidence] == [1, 4]
    # near misses: no trace, the symptom alone; a watchdog's stated timeout, a timeout
    (tmp_path / "alone").mkdir()
    _, d = _triage(_FAILED_OR_TIMED_OUT, tmp_path / "alone")
    assert d.findings[0].kind == "only-symptoms"  # type: ignore[attr-defined]
    timed_out = (
        "[rank6]:[E624 04:14:29.22 ProcessGroupNCCL.cpp:616] [Rank 6] Watchdog caught collective operation "
        "timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for "
        "600045 milliseconds before timing out.\n"
    )
    (tmp_path / "timeout").mkdir()
    _, d = _triage(trace + timed_out + _FAILED_OR_TIMED_OUT, tmp_path / "timeout")
    assert d.findings[0].cls == "collective_timeout"  # type: ignore[attr-defined]
    # ... and traces of two nodes name no one node's failure
    (tmp_path / "two").mkdir()
    other = trace.replace("n124-137-109:", "n124-137-110:")
    _, d = _triage(trace + other + _FAILED_OR_TIMED_OUT, tmp_path / "two")
    assert d.findings[0].kind == "only-symptoms"  # type: ignore[attr-defined]


def test_tensorflows_first_root_error_is_shown_with_the_exception_that_counts_them(tmp_path: Path) -> None:
    text = (
        "Exception in device=TPU:0: xrt_computation_client.cc:1291 : Check failed: session.Run() (Internal: "
        "From /job:tpu_worker/replica:0/task:0:\n"
        "2 root error(s) found.\n"
        "  (0) Internal: Invalid system configuration: 2x4 host topology with 0 missing hosts, but 1 hosts.\n"
        "         [[{{node configure_distributed_tpu/_0}}]]\n"
    )
    _, d = _triage(text, tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.code) == ("exception", "P111")
    assert [e.line for e in first.evidence] == [1, 3]
    assert "its first error: Internal: Invalid system configuration" in first.summary
    # a Python exception that counts them: the same
    raised = (
        "tensorflow.python.framework.errors_impl.InternalError: 2 root error(s) found.\n"
        "  (0) Internal: Blas GEMM launch failed : a.shape=(8, 3), b.shape=(3, 4), m=8, n=4, k=3\n"
    )
    (tmp_path / "raised").mkdir()
    _, d = _triage(raised, tmp_path / "raised")
    first = d.findings[0]  # type: ignore[attr-defined]
    assert 2 in [e.line for e in first.evidence]
    assert "(0) Internal: Blas GEMM" in first.summary
    # near miss: an exception that counts nothing takes no line after it
    (tmp_path / "plain").mkdir()
    plain = raised.replace("2 root error(s) found.", "Blas GEMM launch failed")
    _, d = _triage(plain, tmp_path / "plain")
    assert "(0)" not in d.findings[0].summary  # type: ignore[attr-defined]


_LSF_REPORT = (
    "Sender: LSF System <lsfadmin@eu-g3-013>\n"
    "Job was executed on host(s) <eu-g3-013>, in queue <gpu.120h>, as user <me> in cluster <euler>\n"
    "------------------------------------------------------------\n"
    "\n"
    "TERM_OWNER: job killed by owner.\n"
    "Exited with exit code 129.\n"
)


def test_lsfs_exit_code_under_its_exit_reason_is_that_reasons_end(tmp_path: Path) -> None:
    _, d = _triage(_LSF_REPORT, tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.node) == ("cancelled", "eu-g3-013")
    assert [e.line for e in first.evidence] == [5, 6]
    assert not [f for f in d.findings if f.code == "B613"]  # type: ignore[attr-defined]
    # near miss: the exit code alone is LSF's report of the program's end, by its code
    (tmp_path / "alone").mkdir()
    _, d = _triage(_LSF_REPORT.replace("TERM_OWNER: job killed by owner.\n", "\n\n"), tmp_path / "alone")
    assert d.findings[0].code == "B613"  # type: ignore[attr-defined]


def test_a_data_loader_workers_sigkill_alone_is_host_memory_at_medium_confidence(tmp_path: Path) -> None:
    text = "RuntimeError: DataLoader worker (pid 1014659) is killed by signal: Killed.\n"
    _, d = _triage(text, tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.confidence) == ("host_oom", "medium")
    assert "nothing else in the log says so" in first.summary
    # near miss: the OOM killer's own line says so
    (tmp_path / "said").mkdir()
    oom = "[12345.678] Out of memory: Killed process 1014659 (pt_data_worker) total-vm:9000kB\n"
    _, d = _triage(oom + text, tmp_path / "said")
    assert all("nothing else" not in f.summary for f in d.findings)  # type: ignore[attr-defined]


def test_vllms_worker_failed_with_error_points_above_at_the_workers_own_failure(tmp_path: Path) -> None:
    text = (
        "(VllmWorker TP0 pid=1975013) ERROR 08-14 16:59:31 [multiproc_executor.py:596] Traceback (most "
        "recent call last):\n"
        '(VllmWorker TP0 pid=1975013) ERROR 08-14 16:59:31 [multiproc_executor.py:596]   File "/usr/lib/'
        'python3.12/subprocess.py", line 1955, in _execute_child\n'
        "(VllmWorker TP0 pid=1975013) ERROR 08-14 16:59:31 [multiproc_executor.py:596]     raise "
        "child_exception_type(errno_num, err_msg, err_filename)\n"
        "(VllmWorker TP0 pid=1975013) ERROR 08-14 16:59:31 [multiproc_executor.py:596] FileNotFoundError: "
        "[Errno 2] No such file or directory: 'ninja'\n"
        "(EngineCore_0 pid=1974849) RuntimeError: Worker failed with error '[Errno 2] No such file or "
        "directory: 'ninja'', please check the stack trace above for the root cause\n"
    )
    _, d = _triage(text, tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.evidence[0].line) == ("missing_program", 4)
    engine = [f for f in d.findings if f.evidence[0].line == 5]  # type: ignore[attr-defined]
    assert [(f.code, f.cause) for f in engine] == [("P106", False)]


def test_a_paste_that_starts_with_kubectl_logs_pod_is_that_pods_log(tmp_path: Path) -> None:
    text = " kubectl logs optimizer-worker-0\nValueError: host not found: Name or service not known\n"
    _, d = _triage(text, tmp_path)
    assert d.findings[0].node == "optimizer-worker-0"  # type: ignore[attr-defined]
    # near misses: another kubectl command, and the command on a later line
    for i, other in enumerate((" kubectl get pods\n", "ok\n kubectl logs optimizer-worker-0\n")):
        (tmp_path / str(i)).mkdir()
        _, d = _triage(other + "ValueError: host not found: Name or service not known\n", tmp_path / str(i))
        assert d.findings[0].node is None  # type: ignore[attr-defined]


def test_torchruns_report_of_a_worker_exiting_with_1_is_a_python_exception_at_medium(tmp_path: Path) -> None:
    line = (
        "[2024-08-18 10:18:10,074] torch.distributed.elastic.multiprocessing.api: [ERROR] failed "
        "(exitcode: {}) local_rank: 1 (pid: 6935) of binary: /env/bin/python3.10\n"
    )
    _, d = _triage(line.format(1), tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.confidence, first.local_rank) == ("exception", "medium", 1)
    assert "traceback" in first.advice
    # 2 is Python's for a command line its argparse refuses, read alike
    (tmp_path / "two").mkdir()
    _, d = _triage(line.format(2), tmp_path / "two")
    assert d.findings[0].cls == "exception"  # type: ignore[attr-defined]
    # near miss: another code is not Python's for an exception it did not catch
    (tmp_path / "three").mkdir()
    _, d = _triage(line.format(3), tmp_path / "three")
    assert d.findings[0].cls == "exit_code"  # type: ignore[attr-defined]


_THREAD = (
    "Exception in thread Thread-3:\n"
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.10/threading.py", line 1016, in _bootstrap_inner\n'
    "    self.run()\n"
    '  File "/env/lib/python3.10/site-packages/tensorboardX/event_file_writer.py", line 202, in run\n'
    "    data = self._queue.get(True, queue_wait_duration)\n"
    "OSError: handle is closed\n"
)
_MAIN = (
    "Traceback (most recent call last):\n"
    '  File "/home/me/train.py", line 74, in <module>\n'
    "    main()\n"
    "RuntimeError: permute(sparse_coo): number of dimensions in the tensor input does not match\n"
)


def test_a_threads_exception_gives_way_to_its_process_own_failure_after_it(tmp_path: Path) -> None:
    # threading's `Exception in thread NAME:` ends that thread; the process goes on, and what it
    # raised after is what ended it
    _, d = _triage(_THREAD + "step 2000\n" + _MAIN, tmp_path)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.cls, first.evidence[0].line) == ("exception", 12)
    # near misses: a thread's exception alone is still the cause; without the header it is the
    # first of two exceptions of its process
    (tmp_path / "alone").mkdir()
    _, d = _triage(_THREAD, tmp_path / "alone")
    assert (d.findings[0].cause, d.findings[0].evidence[0].line) == (True, 7)  # type: ignore[attr-defined]
    (tmp_path / "main").mkdir()
    _, d = _triage(
        _THREAD.replace("Exception in thread Thread-3:\n", "\n") + "step 2000\n" + _MAIN, tmp_path / "main"
    )
    assert d.findings[0].evidence[0].line == 7  # type: ignore[attr-defined]


_PROGRESS = "".join(f"epoch: 14/20, cur_iter={i}/7724, loss=1.54\n" for i in (4263, 4313, 4363))
_WATCHDOG = (
    "[E ProcessGroupNCCL.cpp:587] [Rank 1] Watchdog caught collective operation timeout: "
    "WorkNCCL(OpType=BROADCAST, Timeout(ms)=1800000) ran for 1803000 milliseconds before timing out.\n"
)


def test_the_programs_own_shell_missing_a_helper_mid_run_ends_nothing(tmp_path: Path) -> None:
    # `/bin/sh: gpustat: command not found` (subprocess's shell=True) after the run's progress: the
    # program goes on, and what ended the job is after it
    _, d = _triage(_PROGRESS + "/bin/sh: gpustat: command not found\n" + _WATCHDOG, tmp_path)
    assert d.findings[0].cls == "collective_timeout"  # type: ignore[attr-defined]
    # near misses: before any progress it is the first cause; the batch shell's own is one anytime
    (tmp_path / "early").mkdir()
    _, d = _triage("/bin/sh: torchrun: command not found\n" + _WATCHDOG, tmp_path / "early")
    assert d.findings[0].cls == "missing_program"  # type: ignore[attr-defined]
    (tmp_path / "batch").mkdir()
    batch = _PROGRESS + "/var/spool/slurm/job5/slurm_script: line 9: torchrun: command not found\n"
    _, d = _triage(batch, tmp_path / "batch")
    assert d.findings[0].cls == "missing_program"  # type: ignore[attr-defined]
