"""Triage's normalize stage: a paste's and a terminal's debris removed, wrapping widths found,
flattened tables split."""

from __future__ import annotations

import pytest

from jobc.jobs.normalize import (
    clean,
    continues,
    is_rule,
    outside_banners,
    split_flat_table,
    split_records,
    weak_wrap_width,
    wrap_width,
)


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("\x1b[31mRuntimeError\x1b[0m: boom", "RuntimeError: boom"),
        ("[36m(RayWorker pid=1)[0m ValueError: x", "(RayWorker pid=1) ValueError: x"),
        ("> Traceback (most recent call last):", "Traceback (most recent call last):"),
        ("> > srun: error: n1: task 0: Killed", "srun: error: n1: task 0: Killed"),
        ("```Traceback (most recent call last):", "Traceback (most recent call last):"),
        (
            "`srun: error: n1: task 3: Exited with exit code 1",
            "srun: error: n1: task 3: Exited with exit code 1",
        ),
        ("ValueError: bad```", "ValueError: bad"),
        ("```python", ""),
        ("~~~", ""),
        ("`salloc: error: Node failure on worker-1`", "salloc: error: Node failure on worker-1"),
    ],
)
def test_debris_is_removed(raw: str, text: str) -> None:
    assert clean(raw) == text


@pytest.mark.parametrize(
    "raw",
    [
        "step [5m] done",  # a bracket that looks like a colour code, with no reset on the line
        "x >= 3 and y > 2",
        "a = `b` + c",
        "    return x",
    ],
)
def test_text_that_only_looks_like_debris_stays(raw: str) -> None:
    assert clean(raw) == raw


def _lines(*lengths: int) -> list[str]:
    # (lines that differ in their words: lines that differ only in numbers are one record's)
    return [f"{i:03d} {'abcdefghij'[i % 10]}".ljust(n, "x") for i, n in enumerate(lengths)]


def test_a_fixed_wrapping_width_is_found_only_when_many_lines_end_there() -> None:
    assert wrap_width(_lines(*[120] * 5, 40, 80, 13)) == 120
    # lines longer than the candidate width: no wrapping at that width
    assert wrap_width(_lines(*[120] * 5, 130)) is None
    assert wrap_width(_lines(80, 95, 61, 77, 120)) is None
    assert wrap_width([]) is None


def test_one_record_with_other_numbers_and_hashes_is_no_wrapping_width() -> None:
    # grep over LSF's job mails in hashed directories: one record's fields, all of one length
    record = "J{h}/stdout:Subject: Job {n}: <J{s}> in cluster <cluster5> Exited"
    lines = [record.format(h=f"{i:x}" * 64, n=553060 + i, s=f"{i:x}" * 14) for i in (1, 2, 3, 4)] + [
        "J1/stdout:Exited with signal termination: Alarm clock."
    ]
    assert wrap_width(lines) is None
    # near miss: two messages of that length are still a width
    other = "J{h}/stdout:Subject: Job {n}: <J{s}> in cluster <cluster5> Killed".format(
        h="a" * 64, n=553069, s="b" * 14
    )
    assert wrap_width([*lines, other]) == len(other)


def test_a_rule_is_no_wrapping_width_and_never_cut() -> None:
    # Open MPI's banners of 74 dashes around a help text whose lines are shorter
    rule = "-" * 74
    text = "A daemon (pid unknown) died unexpectedly with status 1 while attempting"
    assert wrap_width([rule, text, rule, rule, "to launch so we are aborting."]) is None
    assert is_rule(rule)
    assert not is_rule(text)


ORTE_HELP = [
    "-" * 74,
    "An ORTE daemon has unexpectedly failed after launch and before",
    "communicating back to mpirun. This could be caused by a number",
    "of factors, including an inability to create a connection back",
    "to mpirun due to a lack of common network interfaces and/or no",
    "route found between them. Please check network connectivity",
    "(including firewalls and network routing requirements).",
    "-" * 74,
]


def test_a_help_text_between_banners_says_nothing_of_a_wrapping_width() -> None:
    # Open MPI's help text is wrapped by its writer at about 62 characters: four lines of one
    # length, read as a terminal's width, joined "before" and "communicating" into one word
    lines = ["Starting training on 2 nodes at 10:00", *ORTE_HELP, "srun: error: node12: task 0: Exited"]
    assert wrap_width(lines) == 62  # what the lines alone look like
    assert wrap_width(outside_banners(lines)) is None
    assert weak_wrap_width(outside_banners(lines)) is None
    # near miss: a lone rule hides nothing, and lines cut by a terminal outside banners still are
    words = ("loading checkpoint shards", "building the data loader", "NCCL INFO Channel 00", "step time")
    cut = [f"[node{i}] {w} ".ljust(100, "x") for i, w in enumerate(words)]
    assert outside_banners(["-" * 74, *cut]) == ["-" * 74, *cut]
    assert wrap_width(outside_banners([*cut, *ORTE_HELP])) == len(cut[0])


def test_one_line_repeated_is_no_wrapping_width() -> None:
    # (Cray's libibgni prints its warning once a process, then DAPL's shorter error follows)
    warning = "Unidentified node: Error detected by libibgni.so.  Subsequent operation may be unreliable."
    assert wrap_width([warning] * 8 + ["nid06489:SCM:22fc4:aab49500: open_hca: failed"]) is None
    assert wrap_width([warning] * 7 + [warning.replace("node", "NODE")]) == len(warning)


def test_a_width_few_lines_reach_is_the_longest_two_different_lines_have() -> None:
    a, b = "x" * 79 + "a", "y" * 79 + "b"
    assert weak_wrap_width([a, "short", b, "z" * 70]) == 80
    # one line at the longest length, or the same line twice (every rank's copy): no width
    assert weak_wrap_width([a, "z" * 70]) is None
    assert weak_wrap_width([a, a, "z" * 70]) is None
    # prose: nothing long enough
    assert weak_wrap_width(["a short line", "another"]) is None
    # progress bars are drawn to the terminal's width: two of one length are no paste's width
    bars = [f"Epoch {n}: {'#' * 40}| 331/1063 [01:06<03:59,  3.06it/s]Killed" for n in (1, 2)]
    assert len(bars[0]) >= 60
    assert weak_wrap_width(bars) is None


@pytest.mark.parametrize(
    ("head", "rest"),
    [
        ("… its NCCL output follows: gpu-a0", "7:412:790 [3] transport/net_ib.cc:1295 NCCL WARN NET/IB"),
        ("ray::TaskRunner.run() (pid=18948, i", "p=10.1.2.3)"),
        ("… on gpu-node-02, is localhost: False, excep", "tion: No authentication methods available"),
        ("… Got completion from peer 10.3.1.8<36721> with error 12, opcode", ", len 0, vendor err 129"),
    ],
)
def test_a_cut_inside_a_token_whose_rest_cannot_start_a_line_is_joined(head: str, rest: str) -> None:
    assert continues(head, rest)


@pytest.mark.parametrize(
    ("head", "rest"),
    [
        ("… the loader finished its first pass ", "over the shards"),  # the cut fell at a space
        ("… the loader finished its first pass", " over the shards"),
        ("… the loader finished its first pass", "Traceback (most recent call last):"),
        ("… the loader finished its first pass", "Epoch 3: loss=2.31"),  # a capital starts lines
        ("… the loader finished its first pass", "srun: error: node3: task 1: Exited with exit code 1"),
        ("… the loader finished its first pass", "slurmstepd-node3: error: *** JOB 7 CANCELLED ***"),
        ("… the loader finished its first pass", "gpu004: RuntimeError: boom"),  # pdsh's host
        ("… the loader finished its first pass", "torch.distributed.DistBackendError: boom"),
        ("… the loader finished its first pass", "frame #3: c10d::TCPStore::doWait"),
        ("… the loader finished its first pass", "[rank1]: ValueError: x"),
        ("… the loader finished its first pass", ""),
        ("… 331/1063 [01:06<03:59,  3.06it/s]Killed", "root@18135a5a8205:/LandMark# python3 -m app.trainer"),
    ],
)
def test_a_cut_at_a_space_or_a_next_line_that_starts_as_lines_do_is_not_joined(head: str, rest: str) -> None:
    assert not continues(head, rest)


def test_a_table_flattened_onto_its_root_cause_line() -> None:
    rest = (
        " [0]: time : 2024-06-01_10:00:00 host : gpu-node03 rank : 5 (local_rank: 1) "
        "exitcode : -11 (pid: 4242) error_file: <N/A> "
        "traceback : Signal 11 (SIGSEGV) received by PID 4242 ====="
    )
    fields = split_flat_table(rest)
    assert fields["host"] == "gpu-node03"
    assert fields["rank"] == "5 (local_rank: 1)"
    assert fields["exitcode"] == "-11 (pid: 4242)"
    assert fields["traceback"].startswith("Signal 11 (SIGSEGV)")
    assert split_flat_table(" see the table below") == {}


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        # a progress bar that lost its carriage return, and what the terminal printed after it
        (
            " 31%|███▉  | 331/1063 [01:06<03:59, 3.06it/s]Killed",
            [" 31%|███▉  | 331/1063 [01:06<03:59, 3.06it/s]", "Killed"],
        ),
        (
            "Epoch 2: 40%|████ | 40/100 [00:12<00:18, 3.3it/s, loss=0.3]Segmentation fault (core dumped)",
            [
                "Epoch 2: 40%|████ | 40/100 [00:12<00:18, 3.3it/s, loss=0.3]",
                "Segmentation fault (core dumped)",
            ],
        ),
        (
            "Loading: 0%|  | 0/2 [00:00<?, ?it/s]Loading: 50%| | 1/2 [06:40<06:40, 400.69s/it]",
            ["Loading: 0%|  | 0/2 [00:00<?, ?it/s]", "Loading: 50%| | 1/2 [06:40<06:40, 400.69s/it]"],
        ),
        # C++'s terminate handler and its what() on one line
        (
            "terminate called after throwing an instance of 'std::bad_alloc'  what():  std::bad_alloc",
            ["terminate called after throwing an instance of 'std::bad_alloc'  ", "what():  std::bad_alloc"],
        ),
        # NCCL's records joined by a terminal's padding, and one after a paste's prose and a backtick
        (
            "  gpu-a:11978:12642 [0] NCCL INFO proxy.cc:694 -> 6      "
            "gpu-a:11978:12642 [0] ib.c:75 NCCL WARN NET/IB : Got completion",
            [
                "  gpu-a:11978:12642 [0] NCCL INFO proxy.cc:694 -> 6      ",
                "gpu-a:11978:12642 [0] ib.c:75 NCCL WARN NET/IB : Got completion",
            ],
        ),
        (
            "error log `H100-2:19989:20082 [1] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion",
            [
                "error log `",
                "H100-2:19989:20082 [1] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion",
            ],
        ),
    ],
)
def test_records_glued_on_one_line_are_split(text: str, parts: list[str]) -> None:
    assert split_records(text) == parts


def test_a_log_pasted_on_one_line_is_split_at_its_records() -> None:
    text = (
        "[E ProcessGroupNCCL.cpp:455] Some NCCL operations have failed or timed out. Due to the "
        "asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted data. "
        "[E ProcessGroupNCCL.cpp:460] To avoid data inconsistency, we are taking the entire process "
        "down. terminate called after throwing an instance of 'std::runtime_error' what(): NCCL error: "
        "remote process exited or there was a network error Last error: NET/IB : Got completion from "
        "peer 10.0.0.2<39138> with error 12 srun: error: gpu3: task 1: Aborted (core dumped)"
    )
    heads = [p.split(" ", 2)[:2] for p in split_records(text)]
    assert heads == [
        ["[E", "ProcessGroupNCCL.cpp:455]"],
        ["[E", "ProcessGroupNCCL.cpp:460]"],
        ["terminate", "called"],
        ["what():", "NCCL"],
        ["Last", "error:"],
        ["srun:", "error:"],
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Epoch 3: 45%|####5 | 450/1000 [12:34<15:21,  5.97it/s]",  # a bar with nothing after it
        "Epoch 3: 45%|####5 | 450/1000 [12:34<15:21,  5.97it/s] ",
        # a short line: a glog header inside it is text, not a paste of several records
        "RuntimeError: failed, see [E ProcessGroupNCCL.cpp:455] above",
        "step 7/10 [train] loss 0.1",  # a fraction and a bracket, no bar
        "what(): was printed above",  # at the line's start: one record already
        # NCCL's header at the line's start, and a host:port pair in prose that is no header
        "gpu-a:11978:12642 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.9<385> with error 5",
        "connect to node1:29500:1 [0] failed, NCCL WARN was printed above",
    ],
)
def test_a_line_of_one_record_stays_whole(text: str) -> None:
    assert split_records(text) == [text]
