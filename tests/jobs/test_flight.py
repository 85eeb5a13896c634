"""jobc.jobs.flight: hang dumps of real torch runs (tests/jobs/flight/), and hostile ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jobc.cli import main
from jobc.jobs.flight import Frame, analyse, fatal_stacks, find_dump_dir, read_dumps, user_first

FIXTURES = Path(__file__).parent / "flight"
# The lines of tests/runtime/hang_train.py (as the fixtures were written) where rank 1 parts.
LINES = {"loop": 49, "collective": 52, "size": 54, "skip": 60}


@pytest.mark.parametrize(
    ("kind", "verdict", "others"),
    [
        ("loop", "late", [0, 2, 3]),  # rank 1 spins in Python before the all-reduce
        ("collective", "desync", [0, 2, 3]),  # broadcast where the others all-reduce
        ("skip", "lost", [0, 2, 3]),  # gloo aborted rank 1: its next collective differed in size
        ("size", "lost", [2, 3]),  # gloo aborted ranks 0 and 1 on the size mismatch
    ],
)
def test_the_rank_that_parted_is_named_with_its_collective_and_line(
    kind: str, verdict: str, others: list[int]
) -> None:
    report = analyse(FIXTURES / kind / "dumps", [FIXTURES / kind / "job.out"])
    assert report is not None
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks, d.others, d.seq, d.op) == (verdict, [1], others, 7, "gloo:all_reduce")
    first = d.stacks[1][0]
    assert (Path(first.file).name, first.line) == ("hang_train.py", LINES[kind])
    assert f"hang_train.py:{LINES[kind]}" in report.summary()


def test_desync_names_both_operations() -> None:
    report = analyse(FIXTURES / "collective" / "dumps")
    assert report is not None
    assert "rank 1 calls gloo:broadcast" in report.summary()
    assert "ranks 0, 2, 3 call gloo:all_reduce" in report.summary()


def test_a_lost_rank_without_its_log_is_still_named() -> None:
    report = analyse(FIXTURES / "skip" / "dumps")
    assert report is not None
    assert report.divergence is not None
    assert report.divergence.ranks == [1]
    assert report.missing == [1]


def test_faulthandler_blocks_are_read_per_rank() -> None:
    stacks = fatal_stacks((FIXTURES / "size" / "job.out").read_text().splitlines())
    assert sorted(stacks) == [0, 1]
    assert [f.line for f in user_first(stacks[1])][:1] == [LINES["size"]]
    assert stacks[1][-1].function == "<module>"


def test_user_frame_first() -> None:
    frames = [
        Frame("/x/.venv/lib/python3.11/site-packages/torch/distributed/c10d.py", 10, "all_reduce"),
        Frame("/home/a/train.py", 5, "step"),
        Frame("/home/a/train.py", 9, "<module>"),
    ]
    assert [f.line for f in user_first(frames)] == [5, 10, 9]


def test_dump_dir_beside_the_log(tmp_path: Path) -> None:
    log = tmp_path / "t-42.out"
    log.write_text("")
    assert find_dump_dir(log) is None
    (tmp_path / "t-42.flight").mkdir()
    assert find_dump_dir(log) == tmp_path / "t-42.flight"


def test_latest_restart_wins(tmp_path: Path) -> None:
    for restart in (0, 1):
        (tmp_path / f"rank0-restart{restart}.fr.json").write_text('{"entries": []}')
    restart, dumps = read_dumps(tmp_path)
    assert restart == 1
    assert list(dumps) == [0]


@pytest.mark.parametrize(
    "content",
    [
        b"\x00\xff not json",
        b"[]",
        b'{"entries": "x"}',
        b'{"entries": [1, null, {"collective_seq_id": "9" , "process_group": 5}]}',
        b'{"entries": [{"collective_seq_id": 99999999999999999999999}]}',
        b"[" * 100_000,
        b'{"threads": [{"main": true, "frames": [{"line": "x"}, 3]}], "groups": {"0": ["a"]}}',
    ],
)
def test_hostile_dumps_are_notes_never_tracebacks(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "rank0-restart0.fr.json").write_bytes(content)
    (tmp_path / "rank0-restart0.stacks.json").write_bytes(content)
    (tmp_path / "rank1-restart0.fr.json").write_text(
        json.dumps({"entries": [{"collective_seq_id": 1, "process_group": ["0", "default_pg"]}]})
    )
    report = analyse(tmp_path)
    assert report is not None
    report.summary()


def test_triage_puts_the_hang_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "job.out"
    log.write_bytes((FIXTURES / "loop" / "job.out").read_bytes())
    assert main(["triage", str(log), "--dumps", str(FIXTURES / "loop" / "dumps")]) == 0
    out = capsys.readouterr().out
    first = next(line for line in out.splitlines() if line.startswith("first cause"))
    assert "rank 1 never entered gloo:all_reduce #7" in first
    assert f"hang_train.py:{LINES['loop']}" in first


def test_triage_finds_the_dumps_beside_the_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "t-42.out"
    log.write_bytes((FIXTURES / "collective" / "job.out").read_bytes())
    (tmp_path / "t-42.flight").mkdir()
    for dump in (FIXTURES / "collective" / "dumps").iterdir():
        (tmp_path / "t-42.flight" / dump.name).write_bytes(dump.read_bytes())
    assert main(["triage", str(log), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["findings"][0]["kind"] == "hang"
    assert data["findings"][0]["rank"] == 1


def test_triage_refuses_a_missing_dump_directory(tmp_path: Path) -> None:
    log = tmp_path / "job.out"
    log.write_text("x\n")
    assert main(["triage", str(log), "--dumps", str(tmp_path / "nope")]) == 2


def test_torch_own_dumps_are_read_without_torch_and_name_the_line_of_the_call() -> None:
    report = analyse(FIXTURES / "torch-dump")
    assert report is not None
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks, d.others, d.seq, d.op) == ("desync", [1], [0, 2], 4, "gloo:all_reduce")
    assert (Path(d.stacks[1][0].file).name, d.stacks[1][0].line) == ("exp3.py", 13)


def test_a_pickle_that_names_a_function_is_refused_not_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    # GLOBAL os.system, then call it: what a hostile dump would do on a plain pickle.load.
    hostile = b"cos\nsystem\n(S'touch " + str(marker).encode() + b"'\ntR."
    (tmp_path / "torch-trace-rank0").write_bytes(hostile)
    (tmp_path / "torch-trace-rank1").write_bytes(b"\x80\x04garbage")
    report = analyse(tmp_path)
    assert report is not None
    assert not marker.exists()
    assert any("refused" in n or "not a readable" in n for n in report.notes)


def _pickle_dump(seq: int, line: int, op: str = "gloo:all_reduce") -> bytes:
    import pickle

    frames = [{"filename": "train.py", "line": line, "name": "step"}]
    entry = {"collective_seq_id": seq, "process_group": ["0", "default_pg"], "profiling_name": op}
    return pickle.dumps({"entries": [{**entry, "frames": frames}]})


def test_a_pickle_of_numbers_past_int64_is_read_without_printing_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a pickle carries ints of any size; 10**5000 cannot even be printed (past 4300 digits)
    huge = 10**5000
    (tmp_path / "torch-trace-rank0").write_bytes(_pickle_dump(2, huge))
    (tmp_path / "torch-trace-rank1").write_bytes(_pickle_dump(1, huge))
    (tmp_path / "torch-trace-rank2").write_bytes(_pickle_dump(huge, 1))
    log = tmp_path / "job.out"
    log.write_text("x\n")
    assert main(["triage", str(log), "--dumps", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "rank 1 never entered gloo:all_reduce #2" in out
    assert "train.py:0 in step" in out  # the line number no dump could give


def test_a_pickle_nested_past_the_recursion_limit_is_read(tmp_path: Path) -> None:
    import pickle

    # pickle builds nesting without recursion: 200,000 lists, each in the one before it
    deep = b"]" * 200_000 + b"a" * 199_999
    placeholder = pickle.dumps("DEEP", protocol=2)[2:-1]
    for rank, seq in ((0, 2), (1, 1)):
        (tmp_path / f"torch-trace-rank{rank}").write_bytes(
            _pickle_dump(seq, 3, op="DEEP").replace(placeholder, deep)
        )
    report = analyse(tmp_path)
    assert report is not None
    assert report.divergence is not None
    assert report.divergence.op is not None
    assert len(report.divergence.op) <= 200


def test_a_world_size_no_job_has_is_not_believed(tmp_path: Path) -> None:
    entry = {"collective_seq_id": 1, "process_group": ["0", "default_pg"], "profiling_name": "x"}
    for rank in (0, 1):
        (tmp_path / f"rank{rank}-restart0.fr.json").write_text(json.dumps({"entries": [entry]}))
    # listing the ranks of a world of 10**12 that wrote no dump would exhaust the memory
    (tmp_path / "rank0-restart0.stacks.json").write_text(json.dumps({"world_size": 10**12}))
    # a big world's members, all named: 2998 lost ranks, no two adjacent (no span shortens them)
    groups = {"0": [0, 1, *range(2, 5998, 2)]}
    (tmp_path / "rank1-restart0.stacks.json").write_text(json.dumps({"groups": groups}))
    report = analyse(tmp_path)
    assert report is not None
    assert report.divergence is not None
    assert len(report.missing) == 2998
    assert len(report.divergence.detail) < 1000
    assert "and 2967 more" in report.divergence.detail


def test_a_faulthandler_line_number_of_5000_digits_is_not_a_frame() -> None:
    lines = [
        "0: Fatal Python error: Aborted",
        "0: Current thread 0x00007f (most recent call first):",
        '0:   File "train.py", line 12 in step',
        '0:   File "train.py", line ' + "9" * 5000 + " in <module>",
    ]
    # not a frame (int() refused it past 4300 digits): the block ends before it
    assert fatal_stacks(lines) == {0: [Frame("train.py", 12, "step")]}


def test_a_pickle_naming_a_far_memo_slot_costs_no_memory(tmp_path: Path) -> None:
    import tracemalloc

    # the C unpickler sized its memo by the index a pickle names and zeroed it: 8 bytes a slot,
    # so `r\xff\xff\xff\x7f` (a few bytes) asked for 17 GB; 5,000,000 asked for 80 MB here
    def peak(index: int) -> int:
        (tmp_path / "torch-trace-rank0").write_bytes(b"\x80\x02N" + b"r" + index.to_bytes(4, "little") + b".")
        tracemalloc.start()
        try:
            read_dumps(tmp_path)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    assert peak(5_000_000) - peak(0) < 8 << 20


def test_one_entry_named_many_times_is_read_a_bounded_number_of_times(tmp_path: Path) -> None:
    import pickle

    from jobc.jobs.flight.fields import MAX_DUMP_FRAMES, MAX_ENTRIES

    # a pickle names one object again with a memo reference of two bytes: 50,000 entries of
    # 200 frames each were 10 million frames to read from a file of a few hundred KB
    frames = [{"filename": "train.py", "line": 3, "name": "step"}] * 200
    entry = {"collective_seq_id": 1, "process_group": ["0", "d"], "profiling_name": "x", "frames": frames}
    data = pickle.dumps({"entries": [entry] * 50_000})
    assert len(data) < 200_000
    (tmp_path / "torch-trace-rank0").write_bytes(data)
    dumps = read_dumps(tmp_path)[1]
    assert len(dumps[0].entries) == MAX_ENTRIES
    # one list named again is read once: every entry shares the frames read of it
    assert len({id(frame) for e in dumps[0].entries for frame in e.frames}) <= MAX_DUMP_FRAMES
    assert dumps[0].entries[-1].frames  # the newest entries keep their frames


def test_a_fifo_or_a_device_named_like_a_dump_is_not_read(tmp_path: Path) -> None:
    import os

    # opening a FIFO waited for a writer for ever; a link to /dev/zero was read without end
    for dump in (FIXTURES / "collective" / "dumps").glob("rank1-*"):
        (tmp_path / dump.name).write_bytes(dump.read_bytes())
    os.mkfifo(tmp_path / "rank0-restart0.fr.json")
    (tmp_path / "rank0-restart0.stacks.json").symlink_to("/dev/zero")
    report = analyse(tmp_path)
    assert report is not None
    assert sum("not a regular file" in note for note in report.notes) == 2
