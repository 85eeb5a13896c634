"""Hang dumps that are small on disk and large or slow to read: each is read within a bounded
time and memory, and the note of its file says what was refused or left out."""

from __future__ import annotations

import json
import pickle
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jobc.jobs.flight import analyse
from jobc.jobs.flight.fields import MAX_DUMP_TEXT, MAX_ENTRIES, TOTAL_ENTRIES
from jobc.jobs.flight.load import MAX_CELLS, MAX_JSON_VALUES
from tests.jobs.frdumps import Call, write

MiB = 1 << 20


def _peak(run: Callable[[], Any]) -> int:
    """The most memory Python held while ``run`` ran, in bytes (traced, so exact)."""
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _calls(run: Callable[[], Any]) -> int:
    """Python and C function calls made by ``run`` (a profile hook: deterministic)."""
    count = 0

    def hook(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(hook)
    try:
        run()
    finally:
        sys.setprofile(None)
    return count


def _notes(directory: Path) -> list[str]:
    report = analyse(directory)
    assert report is not None
    report.summary()
    return report.notes


def _two_ranks(directory: Path) -> None:
    """Ranks 1 and 2 of a run whose rank 0 is the dump under test."""
    write(directory, "2.4", {1: [Call(1)], 2: [Call(1)]}, world=3, prefix="torch-trace-rank")


# --- the pickle itself


def _colliding_keys(n: int) -> bytes:
    """A dict of ``n`` integer keys that all hash to 0 (multiples of Python's hash modulus)."""
    modulus = (1 << 61) - 1
    body = b"".join(pickle.dumps(i * modulus, protocol=2)[2:-1] + b"N" for i in range(1, n + 1))
    return b"\x80\x02}(" + body + b"u."


@pytest.mark.parametrize(
    ("data", "refusal"),
    [
        # each insertion compared with every key before it: 20,000 keys took seconds, a 10 MB
        # dump of them hours
        (_colliding_keys(20_000), "it keys a dict by an integer of 61 bits"),
        (pickle.dumps({float(i): None for i in range(10)}, protocol=2), "it keys a dict or a set by a float"),
        (pickle.dumps({(1, 2): None}, protocol=2), "it keys a dict or a set by a tuple"),
        (pickle.dumps({frozenset({1.5})}, protocol=4), "it keys a dict or a set by a float"),
    ],
)
def test_dict_keys_that_can_share_one_hash_are_refused(tmp_path: Path, data: bytes, refusal: str) -> None:
    _two_ranks(tmp_path)
    (tmp_path / "torch-trace-rank0").write_bytes(data)
    notes = _notes(tmp_path)
    assert any(f"torch-trace-rank0: refused, not loaded: {refusal}" in note for note in notes), notes


def test_small_integer_keys_as_format_1_writes_them_are_read(tmp_path: Path) -> None:
    # near miss: format 1.x keys pg_config by the group's number
    write(tmp_path, "1.4", {0: [Call(1), Call(2)], 1: [Call(1)]}, world=2, prefix="torch-trace-rank")
    report = analyse(tmp_path)
    assert report is not None
    assert report.dumps[0].groups == {"0": [0, 1]}
    assert report.divergence is not None
    assert report.divergence.ranks == [1]
    assert not any("refused" in note for note in report.notes)


@pytest.mark.parametrize(
    "data",
    [
        b"\x80\x02" + b"(" * 3_000_000 + b".",  # MARKs: a list of its own each
        b"\x80\x02(" + b"]" * 3_000_000 + b"l.",  # empty lists
        b"\x80\x04" + b"N\x94" * 3_000_000 + b".",  # memo entries
    ],
    ids=["marks", "lists", "memo"],
)
def test_a_pickle_of_millions_of_small_operations_is_refused_within_its_memory(
    tmp_path: Path, data: bytes
) -> None:
    _two_ranks(tmp_path)
    (tmp_path / "torch-trace-rank0").write_bytes(data)
    notes: list[str] = []
    # 3 MB of MARKs took 200 MB before they ended in IndexError; 64 MB of them, 4 GB
    peak = _peak(lambda: notes.extend(_notes(tmp_path)))
    assert peak < (MAX_CELLS * 8) + 24 * MiB, peak
    said = f"refused, not loaded: it would take more than {MAX_CELLS * 8 >> 20} MiB to load"
    assert any(said in note for note in notes), notes


def test_a_real_sized_dump_is_within_the_pickle_budget(tmp_path: Path) -> None:
    # near miss: torch's default 2,000 entries, each with 100 frames of its own, whose texts
    # torch's pickler writes once and refers to after (as pickle does for one object)
    calls = [Call(seq) for seq in range(1, 2001)]
    write(tmp_path, "2.4", {0: calls, 1: calls[:-1]}, world=2, prefix="torch-trace-rank")
    path = tmp_path / "torch-trace-rank0"
    data = pickle.loads(path.read_bytes())
    texts: dict[str, str] = {}
    for entry in data["entries"]:
        entry["frames"] = [
            {
                "name": texts.setdefault(f"f{i}", f"f{i}"),
                "filename": texts.setdefault(f"m{i}", f"m{i}"),
                "line": i,
            }
            for i in range(100)
        ]
    path.write_bytes(pickle.dumps(data, protocol=2))
    report = analyse(tmp_path)
    assert report is not None
    assert not any("refused" in note for note in report.notes), report.notes
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks) == ("late", [1])


def test_a_json_dump_of_millions_of_values_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    _two_ranks(tmp_path)
    (tmp_path / "torch-trace-rank0").write_bytes(b'{"entries": [' + b"{}," * MAX_JSON_VALUES + b"{}]}")
    notes: list[str] = []
    peak = _peak(lambda: notes.extend(_notes(tmp_path)))
    assert peak < 40 * MiB, peak  # the file's 6 MB, not 2,000,000 dicts
    assert any(f"refused, not loaded: it holds more than {MAX_JSON_VALUES:,} values" in n for n in notes), (
        notes
    )


# --- what is read of the data


def _shared_ranks(groups: int, members: int, *, shared: bool) -> bytes:
    """pg_config of ``groups`` groups whose rank lists are one text object (``shared``, named
    again through the memo) or texts of their own; besides them, one group lists ``members``."""
    big = "[" + ", ".join(str(r % 4) for r in range(members)) + "]"
    config: dict[str, Any] = {"0": {"name": "0", "desc": "default_pg", "ranks": big}}
    for g in range(1, groups + 1):
        ranks = big if shared else f"[{g % 4}]"
        config[f"g{g}"] = {"name": f"g{g}", "desc": "x", "ranks": ranks}
    return pickle.dumps({"version": "2.4", "entries": [], "pg_config": config}, protocol=2)


def test_a_rank_list_shared_by_many_groups_is_scanned_once(tmp_path: Path) -> None:
    # one text of 10,000 ranks named by 200 groups was scanned 200 times (10,000 groups and a
    # 1 MB text: minutes); scanned once, the work is that of 200 short lists beside it
    work = {}
    for shared in (True, False):
        (tmp_path / "torch-trace-rank0").write_bytes(_shared_ranks(200, 10_000, shared=shared))
        work[shared] = _calls(lambda: analyse(tmp_path))
    assert work[True] < 2 * work[False], work


def _expanding(entries: int) -> bytes:
    """One entry named ``entries`` times by memo reference, whose every text is at its longest:
    read anew each time, each entry's texts and frames were copied (about 5 KB an entry)."""
    long = "x" * 1200
    frames = [{"filename": "/w/" + long, "line": 3, "name": "f" + long}] * 200
    entry = {
        "collective_seq_id": 1,
        "process_group": ["0", "d" + long],
        "profiling_name": "nccl:all_reduce" + long,
        "input_sizes": [[1] * 300],
        "input_dtypes": ["Float" + long] * 64,
        "frames": frames,
        "state": "scheduled",
    }
    return pickle.dumps({"version": "2.4", "entries": [entry] * entries}, protocol=2)


def test_memo_references_do_not_expand_what_is_read(tmp_path: Path) -> None:
    data = _expanding(MAX_ENTRIES)
    assert len(data) < 70_000
    for rank in range(4):
        (tmp_path / f"torch-trace-rank{rank}").write_bytes(data)
    reports = []
    # 4 dumps of 60 KB took 400 MB to read (580 KB of them ended in MemoryError)
    peak = _peak(lambda: reports.append(analyse(tmp_path)))
    assert peak < 48 * MiB, peak
    # (a report this large is never handed to an assertion whole: its text would be gigabytes)
    report = reports[0]
    assert report is not None
    assert [len(d.entries) for d in report.dumps.values()] == [MAX_ENTRIES] * 4
    summary = report.summary()
    assert "hang dumps from ranks 0-3" in summary, summary[:500]
    assert "the collectives they recorded agree" in summary, summary[:500]


def test_text_past_a_dumps_share_stops_its_older_entries_and_is_said(tmp_path: Path) -> None:
    # every entry's operation, sizes and dtypes a new text of up to 200 characters, made of its
    # own number and one long text the memo shares
    long = "y" * 400
    entries = [
        {
            "collective_seq_id": seq,
            "process_group": ["0", "default_pg"],
            "profiling_name": [str(seq), long],
            "input_sizes": [[seq], long],
            "input_dtypes": [str(seq), long],
            "state": "completed",
        }
        for seq in range(1, 6001)
    ]
    data = pickle.dumps({"version": "2.4", "entries": entries}, protocol=2)
    assert len(data) < 700_000  # and would be read as 2,600,000 characters
    (tmp_path / "torch-trace-rank0").write_bytes(data)
    report = analyse(tmp_path)
    assert report is not None
    read = report.dumps[0].entries
    assert 1000 < len(read) < 6000
    assert read[-1].seq == 6000  # the newest are the ones read
    assert sum(len(e.op) + len(e.sizes) + len(e.dtypes) for e in read) <= MAX_DUMP_TEXT
    said = f"the older ones would take more than the {MAX_DUMP_TEXT:,} characters of text jobc keeps"
    assert any(said in note for note in report.notes), report.notes


def test_many_dumps_share_one_budget_and_each_says_what_it_left(tmp_path: Path) -> None:
    entry = {
        "collective_seq_id": 1,
        "process_group": ["0", "default_pg"],
        "profiling_name": "nccl:all_reduce",
        "state": "completed",
    }
    data = pickle.dumps({"version": "2.4", "entries": [entry] * MAX_ENTRIES}, protocol=2)
    dumps = TOTAL_ENTRIES // MAX_ENTRIES + 5
    for rank in range(dumps):
        (tmp_path / f"torch-trace-rank{rank}").write_bytes(data)
    report = analyse(tmp_path)
    assert report is not None
    assert len(report.dumps) == dumps
    assert sum(len(d.entries) for d in report.dumps.values()) <= TOTAL_ENTRIES
    said = f"of its {MAX_ENTRIES:,} entries were read, as many as jobc keeps of one dump among these"
    assert sum(said in note for note in report.notes) == dumps, report.notes[:3]


def test_a_dump_read_whole_says_nothing_of_a_budget(tmp_path: Path) -> None:
    # near miss: the entries of an ordinary dump are all read, and no note says otherwise
    write(tmp_path, "2.4", {0: [Call(s) for s in range(1, 300)], 1: [Call(1)]}, world=2)
    report = analyse(tmp_path)
    assert report is not None
    assert len(report.dumps[0].entries) == 299
    assert not any("entries were read" in note for note in report.notes)
    assert json.dumps(report.notes)
