"""Triage's events stage: statement lines, strengths, context, the fallback lexicon."""

from __future__ import annotations

import io

from jobc.jobs.events import Scanner
from jobc.jobs.triage import scan


def _events(text: str) -> Scanner:
    scanner = Scanner()
    scan([("x.log", io.BytesIO(text.encode("utf-8")))], scanner)
    scanner.diagnosis(None, None, None, ["x.log"])
    return scanner


def test_a_traceback_states_its_error_on_the_exception_line_with_the_users_frame() -> None:
    s = _events(
        "Traceback (most recent call last):\n"
        '  File "/home/u/train.py", line 9, in <module>\n'
        "    main()\n"
        '  File "/usr/lib/python3.11/site-packages/torch/nn/modules/module.py", line 5, in f\n'
        "    return g()\n"
        "ValueError: bad sample\n"
    )
    (e,) = s.events
    assert (e.cls, e.strength) == ("exception", 3)
    assert e.statement is not None
    assert e.statement.line == 6
    assert [c.line for c in e.context] == [2, 1, 4]  # the user's frame, the header, the raising frame
    assert e.fields["user_frame"] == "<module> at /home/u/train.py:9"


def test_a_table_states_its_signal_and_exit_code() -> None:
    s = _events(
        "Root Cause (first observed failure):\n[0]:\n  time      : 2024-06-01_10:00:00\n"
        "  host      : gpu-node03\n  rank      : 5 (local_rank: 1)\n  exitcode  : -11 (pid: 4242)\n"
        "  error_file: <N/A>\n  traceback : Signal 11 (SIGSEGV) received by PID 4242\n=====\n"
    )
    (e,) = s.events
    assert e.statement is not None
    assert e.statement.line == 8
    assert [c.line for c in e.context][:2] == [6, 1]
    assert (e.strength, e.fields["rank"], e.fields["node"]) == (2, 5, "gpu-node03")


def test_a_flattened_table_is_read() -> None:
    s = _events(
        "Root Cause (first observed failure): [0]: time : 2024 host : n7 rank : 3 (local_rank: 3) "
        "exitcode : 1 (pid: 9) error_file: <N/A> traceback : To enable traceback see: x\n"
    )
    (e,) = s.events
    assert (e.kind, e.fields["rank"], e.fields["node"], e.fields["exit_code"]) == (
        "torchrun-root-cause",
        3,
        "n7",
        1,
    )


def test_what_and_last_error_lines_join_their_statement() -> None:
    s = _events(
        "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\n"
    )
    (e,) = s.events
    assert e.statement is not None
    assert (e.statement.line, [c.line for c in e.context]) == (2, [1])
    s = _events(
        "RuntimeError: NCCL error: unhandled system error, NCCL version 2.19.3\n"
        "Last error:\nsocketStartConnect: Connect to 10.1.2.3<43211> failed\n"
    )
    (e,) = s.events
    assert [c.line for c in e.context] == [2, 3]


def test_the_fallback_lexicon_gives_unknown_at_strength_one() -> None:
    s = _events("step 1 loss 2.0\nFATAL: the frobnicator lost its quorum\n")
    (e,) = s.events
    assert (e.cls, e.strength, e.statement.line if e.statement else 0) == ("unknown", 1, 2)
    # advice, warnings and code are no failure
    for line in (
        "CUDA kernel errors might be asynchronously reported at some other API call",
        "[W socket.cpp:436] Error binding, retrying",
        "    raise ValueError(msg)",
        "WARNING: Error rate is high",
    ):
        assert _events(line + "\n").events == [], line


def test_a_catalogue_without_a_signature_falls_back_to_the_lexicon() -> None:
    from jobc.jobs.signatures import CATALOGUE

    line = "slurmstepd: error: *** JOB 4512 ON node3 CANCELLED AT 2024-03-01T10:00:07 DUE TO TIME LIMIT ***\n"
    scanner = Scanner()
    scan([("x.log", io.BytesIO(line.encode()))], scanner)
    assert [e.cls for e in scanner.events] == ["time_limit"]
    # without the time limit's signature the line is still read: its words name the class, at
    # the strength of a report (medium confidence)
    scanner = Scanner(catalogue=[s for s in CATALOGUE if s.code != "S507"])
    scan([("x.log", io.BytesIO(line.encode()))], scanner)
    assert [(e.kind, e.cls, e.strength) for e in scanner.events] == [("worded-line", "time_limit", 2)]
    # words that name no class: an error triage cannot name
    scanner = Scanner()
    scan([("x.log", io.BytesIO(b"slurmstepd: error: the frobnicator lost its quorum\n"))], scanner)
    assert [(e.cls, e.strength) for e in scanner.events] == [("unknown", 1)]


def test_progress_lines_are_noted() -> None:
    s = _events(
        "step 10 loss 1.0\nValueError: x\nEpoch 3: 45%|####5 | 450/1000 [12:34<15:21,  5.97it/s]\nKilled\n"
    )
    assert [n for n, _task, _rank in s.progress] == [1, 3]


def test_a_log_wrapped_at_a_fixed_width_is_read_whole() -> None:
    progress = "Epoch 3: loss=2.31, " * 8  # 160 characters, wrapped at 60
    message = (
        "slurmstepd: error: *** JOB 4512 ON gpu-node12 CANCELLED AT 2024-03-01T10:00:07 DUE TO TIME LIMIT ***"
    )
    lines = [progress[:60], progress[60:120], progress[120:], message[:60], message[60:]]
    s = _events("\n".join(lines) + "\n")
    (e,) = s.events
    assert (e.cls, e.fields["node"], e.ev.line) == ("time_limit", "gpu-node12", 4)
    # not wrapped: a line of that length is read as it is
    s = _events(message + "\n")
    assert [e.cls for e in s.events] == ["time_limit"]


def test_a_log_pasted_on_one_line_gives_its_failure_with_its_context() -> None:
    s = _events(
        "[E ProcessGroupNCCL.cpp:455] Some NCCL operations have failed or timed out. Due to the "
        "asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted data. "
        "terminate called after throwing an instance of 'std::runtime_error' what(): NCCL error: "
        "remote process exited or there was a network error, NCCL version 2.14.3 Last error: NET/IB : "
        "Got completion from peer 10.0.0.2<39138> with error 12\n"
    )
    nccl = [e for e in s.events if e.cls == "nccl_error"]
    assert len(nccl) == 1
    assert nccl[0].statement is not None
    assert nccl[0].statement.text.startswith("what(): NCCL error")
    assert [c.text.split(" ", 1)[0] for c in nccl[0].context] == ["terminate", "Last"]
    assert {e.cls for e in s.events} >= {"collective_timeout"}


def test_text_glued_to_a_progress_bar_is_read_as_a_line_of_its_own() -> None:
    s = _events(" 31%|███▉  | 331/1063 [01:06<03:59,  3.06it/s]Killed\n")
    found = [(e.kind, e.fields.get("signal"), e.ev.line) for e in s.events]
    assert found == [("shell-killed-bare", "Killed", 1)]
    assert [n for n, _t, _r in s.progress] == [1]


def test_a_message_wrapped_onto_the_next_line_is_read_whole() -> None:
    s = _events(
        "host.cn-d004 [stderr] [rank14]:[E909 09:55:29.307629539 ProcessGroupNCCL.cpp:607] [Rank 14] "
        "Watchdog caught collective operation timeout: \n"
        "WorkNCCL(SeqNum=2070, OpType=REDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600034 ms\n"
    )
    (e,) = s.events
    assert (e.kind, e.fields["op"], e.ev.line) == ("nccl-watchdog-timeout", "REDUCE", 1)
    assert [c.line for c in e.context] == [2]
    assert (e.line.rank, e.line.node) == (14, "cn-d004")
    # the next line starts a record of its own: the error-like line is read alone
    s = _events("FATAL: the frobnicator lost its quorum: \nTraceback (most recent call last):\n")
    assert [(e.cls, e.ev.line) for e in s.events] == [("unknown", 1)]
    # a next line with a prefix of another writer is no continuation
    s = _events(
        "[rank1]:[E909 09:55:29.3 ProcessGroupNCCL.cpp:607] Watchdog caught collective operation timeout: \n"
        "[rank2]:WorkNCCL(SeqNum=2070, OpType=REDUCE, NumelIn=1)\n"
    )
    assert [(e.kind, e.cls) for e in s.events] == [("worded-line", "collective_timeout")]


def test_a_line_of_the_wrapping_width_is_not_joined_with_its_own_ranks_next_line() -> None:
    # horovodrun's prefix on every line; three ranks' lines that happen to be of one length look
    # cut at that width, but a cut never falls where the same rank's next line begins
    pre = "Mon Jun  7 11:51:57 2021[{r}]<stderr>:"
    said = "E horovod/common/gloo/http_store.cc:96] HTTP {m} request failed too many times, aborting."
    cut = [
        (pre.format(r=r) + said.format(m=m)).ljust(150, "x") for r, m in ((1, "GET"), (2, "PUT"), (0, "GET"))
    ]
    lines: list[str] = []
    for r, head in zip((1, 2, 0), cut, strict=True):
        abort = "terminate called after throwing an instance of 'std::runtime_error'"
        lines += [head, pre.format(r=r) + abort, pre.format(r=r) + "  what():  HTTP request failed."]
    s = _events("\n".join(lines) + "\n")
    store = [e for e in s.events if e.kind == "horovod-gloo-http-store-failed"]
    assert [(e.ev.line, e.line.rank) for e in store] == [(1, 1), (4, 2), (7, 0)]
    # near miss: a next line with no prefix goes on the cut line
    lines[1:1] = ["xxxx See exception message above."]
    s = _events("\n".join(lines) + "\n")
    store = [e for e in s.events if e.kind == "horovod-gloo-http-store-failed"]
    assert [(e.ev.line, e.line.rank) for e in store] == [(1, 1), (5, 2), (8, 0)]
    assert "See exception message above." in store[0].ev.text


def test_a_cpp_abort_without_its_what_is_still_an_abort() -> None:
    s = _events(
        "terminate called after throwing an instance of 'c10::DistBackendError'\nAborted (core dumped)\n"
    )
    aborts = [e for e in s.events if e.kind == "cpp-abort"]
    assert [(e.ev.line, e.strength) for e in aborts] == [(1, 2)]
    # its what() read by another signature: the abort is that failure, the terminate line its context
    s = _events(
        "terminate called after throwing an instance of 'c10::Error'\n"
        "  what():  CUDA error: unspecified launch failure\n"
    )
    (e,) = s.events
    assert (e.cls, e.fields.get("abort"), [c.line for c in e.context]) == ("gpu_error", True, [1])


def test_a_launchers_report_raised_as_an_exception_is_the_report_when_it_names_a_signal() -> None:
    tb = 'Traceback (most recent call last):\n  File "/x/spawn.py", line 107, in join\n    raise X\n'
    s = _events(tb + "Exception: process 3 terminated with signal SIGKILL\n")
    (e,) = s.events
    assert (e.kind, e.cls, e.strength) == ("spawn-process-ended", "exit_code", 2)
    assert e.statement is not None
    assert e.statement.line == 4
    # an exit code alone: the exception stays the program's
    s = _events(tb + "subprocess.CalledProcessError: Command 'ssh n1' returned non-zero exit status 255.\n")
    (e,) = s.events
    assert (e.kind, e.strength) == ("exception-line", 3)
