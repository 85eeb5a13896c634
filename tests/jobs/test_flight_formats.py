"""torch's own flight-recorder dumps, in each format torch has written (tests/jobs/frdumps.py says
from which source), read without torch: who did not reach the collective, which one, where."""

from __future__ import annotations

import io
import json
import pickle
from pathlib import Path

import pytest

from jobc.cli import main
from jobc.jobs.flight import analyse
from tests.jobs.frdumps import Call, steady, write

VERSIONS = ["1.4", "2.0", "2.4", "2.10"]


def _late(rank_late: int = 2, world: int = 4) -> dict[int, list[Call]]:
    """Rank 2 stops in Python after #4 (called at line 40); the others enqueue #5 at line 52,
    rank 0 even #6 (NCCL enqueues ahead of the GPU)."""
    out: dict[int, list[Call]] = {}
    for rank in range(world):
        calls = steady(4)
        if rank != rank_late:
            calls.append(Call(5, sizes=[[4096, 8]], state="scheduled", line=52, function="sync_grads"))
        if rank == 0:
            calls.append(Call(6, state="scheduled", line=52, function="sync_grads"))
        out[rank] = calls
    return out


@pytest.mark.parametrize("version", VERSIONS)
def test_the_rank_that_never_joined_is_named_in_every_pickle_format(tmp_path: Path, version: str) -> None:
    report = analyse(write(tmp_path, version, _late(), world=4))
    assert report is not None
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks, d.others, d.seq, d.op, d.group) == (
        "late",
        [2],
        [0, 1, 3],
        5,
        "nccl:all_reduce",
        "0",
    )
    text = report.summary()
    sizes = "[[4096,8]]" if version.startswith("1.") else "[[4096,8]] Float"  # 1.x records no dtypes
    assert "rank 2 never entered nccl:all_reduce #5 of process group 0" in text
    assert f", input {sizes}, which ranks 0, 1, 3 wait in" in text
    # where rank 2 last called a collective, said as that, not as where it is now
    assert "rank 2 last called nccl:all_reduce #4 at /home/alice/train.py:40 in train_step" in text
    assert "where it is now the flight recorder does not record" in text
    assert "ranks 0, 1, 3 wait in it, called at /home/alice/train.py:52 in sync_grads" in text
    assert (d.stacks[2][0].file, d.stacks[2][0].line) == ("/home/alice/train.py", 40)


def test_the_json_variant_is_read_and_says_it_has_no_stacks(tmp_path: Path) -> None:
    report = analyse(write(tmp_path, "2.4", _late(), world=4, json_form=True))
    assert report is not None
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks, d.seq, d.op) == ("late", [2], 5, "nccl:all_reduce")
    assert "rank 2's dump records no call stack" in report.summary()


@pytest.mark.parametrize("prefix", ["nccl_trace_rank_", "trace_", "torch-trace-rank", "fr_dump."])
def test_any_prefix_and_rank_is_a_dump_and_other_files_are_passed_over(tmp_path: Path, prefix: str) -> None:
    write(tmp_path, "2.4", _late(), world=4, prefix=prefix)
    (tmp_path / "slurm-1234").write_text("a log, not a dump\n")  # a name that ends in digits too
    (tmp_path / "notes.txt").write_text("x")
    report = analyse(tmp_path)
    assert report is not None
    assert report.divergence is not None
    assert report.divergence.ranks == [2]
    assert sorted(report.dumps) == [0, 1, 2, 3]
    assert report.notes == []


def test_all_ranks_completed_is_no_hang(tmp_path: Path) -> None:
    report = analyse(write(tmp_path, "2.10", {r: steady(6) for r in range(4)}, world=4))
    assert report is not None
    assert report.divergence is None
    assert report.missing == []
    assert "completed; the dumps show no hang" in report.summary()


def test_one_rank_dump_names_nobody_and_says_the_others_are_unknown(tmp_path: Path) -> None:
    report = analyse(write(tmp_path, "2.4", {0: _late()[0]}, world=4))
    assert report is not None
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks, d.others) == ("lost", [], [0])
    assert report.missing == [1, 2, 3]
    text = report.summary()
    assert "ranks 1-3 wrote no dump (or their files are not in" in text
    # the oldest collective rank 0 has not completed, not #6 it enqueued after it
    assert "rank 0 was last in nccl:all_reduce #5 of process group 0 (default_pg) (scheduled)" in text
    assert "rank 0 waits in it, called at /home/alice/train.py:52 in sync_grads" in text
    assert "which of ranks 1-3 did not reach it cannot be told without their dumps" in text


def test_one_missing_rank_among_waiting_ones_is_named(tmp_path: Path) -> None:
    ranks = {r: [*steady(4), Call(5, state="scheduled", line=52)] for r in (0, 1, 3)}
    report = analyse(write(tmp_path, "2.0", ranks, world=4))
    assert report is not None
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks, d.others, d.seq) == ("lost", [2], [0, 1, 3], 5)


def test_every_rank_in_and_none_done_is_said_plainly(tmp_path: Path) -> None:
    ranks = {r: [*steady(4), Call(5, state="scheduled", line=52)] for r in range(4)}
    report = analyse(write(tmp_path, "2.4", ranks, world=4))
    assert report is not None
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks, d.seq) == ("stuck", [], 5)
    assert "every rank that wrote a dump (0-3) entered nccl:all_reduce [[1024]]" in report.summary()
    assert "cannot tell which rank's GPU or network link held it up" in report.summary()


def test_the_tutorials_extra_collective_is_a_desync_of_sizes(tmp_path: Path) -> None:
    # the flight recorder tutorial's crash.py: rank 0 all-reduces a (4, 5) tensor the others skip
    r0 = [Call(1, sizes=[[3, 4]]), Call(2, sizes=[[3, 4]]), Call(3, sizes=[[4, 5]], line=35)]
    r0 += [Call(4, sizes=[[3, 4]], line=44), Call(5, sizes=[[3, 4]], state="scheduled", line=44)]
    r1 = [Call(1, sizes=[[3, 4]]), Call(2, sizes=[[3, 4]]), Call(3, sizes=[[3, 4]], line=44)]
    r1 += [Call(4, sizes=[[3, 4]], line=44)]
    report = analyse(write(tmp_path, "2.4", {0: r0, 1: r1}, world=2, prefix="trace_"))
    assert report is not None
    d = report.divergence
    assert d is not None
    assert (d.kind, d.seq) == ("desync", 3)
    text = report.summary()
    assert "rank 0 calls nccl:all_reduce [[4,5]] Float; rank 1 calls nccl:all_reduce [[3,4]] Float" in text
    assert "rank 0 called nccl:all_reduce #3 at /home/alice/train.py:35" in text


def test_an_unknown_format_version_is_read_and_said(tmp_path: Path) -> None:
    write(tmp_path, "2.4", _late(), world=4)
    data = pickle.loads((tmp_path / "nccl_trace_rank_0").read_bytes())
    data["version"] = "3.1"
    (tmp_path / "nccl_trace_rank_0").write_bytes(pickle.dumps(data, protocol=2))
    report = analyse(tmp_path)
    assert report is not None
    assert report.divergence is not None
    assert report.divergence.ranks == [2]
    assert any("format version '3.1' is not one jobc knows" in n for n in report.notes)


def test_a_malicious_pickle_is_refused_in_one_line_and_not_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "ran"
    # GLOBAL os.system, then call it: what a hostile dump would do on a plain pickle.load
    (tmp_path / "nccl_trace_rank_0").write_bytes(
        b"\x80\x02cos\nsystem\n(S'touch " + str(marker).encode() + b"'\ntR."
    )
    log = tmp_path / "job.out"
    log.write_text("x\n")
    assert main(["triage", str(log), "--dumps", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert not marker.exists()
    line = next(x for x in out.splitlines() if "refused" in x)
    assert "refused, not loaded: it names the Python object os.system" in line
    assert f"no readable flight-recorder dump in {tmp_path}" in out


def test_triage_reads_torch_dumps_named_by_torch_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dumps = write(tmp_path / "fr", "2.10", _late(), world=4)
    log = tmp_path / "job.out"
    log.write_text("[rank0]:[E ProcessGroupNCCL.cpp:616] Watchdog caught collective operation timeout\n")
    assert main(["triage", str(log), "--dumps", str(dumps), "--format", "json"]) == 0
    first = json.loads(capsys.readouterr().out)["findings"][0]
    assert (first["kind"], first["rank"]) == ("hang", 2)
    assert first["user_frame"] == "train_step at /home/alice/train.py:40"
    assert (
        "never entered nccl:all_reduce #5 of process group 0 (default_pg), input [[4096,8]] Float"
        in first["summary"]
    )


def test_a_dump_directory_without_dumps_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "d").mkdir()
    log = tmp_path / "job.out"
    log.write_text("x\n")
    assert main(["triage", str(log), "--dumps", str(tmp_path / "d")]) == 0
    assert f"no flight-recorder dump in {tmp_path / 'd'}" in capsys.readouterr().out


def test_real_torch_dumps_under_torchs_default_name_name_the_late_rank() -> None:
    # tests/jobs/flight/torch-late: written by torch 2.15 itself (README.md there)
    report = analyse(Path(__file__).parent / "flight" / "torch-late")
    assert report is not None
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks, d.others, d.seq, d.op) == ("late", [2], [0, 1], 4, "gloo:all_reduce")
    assert "rank 2 last called gloo:all_reduce #3 at /tmp/frreal/late.py:12 in run" in report.summary()
    assert "ranks 0, 1 wait in it, called at /tmp/frreal/late.py:14 in run" in report.summary()


def test_dumps_copied_node_by_node_into_subdirectories_are_read(tmp_path: Path) -> None:
    late = _late()
    write(tmp_path / "node1", "2.4", {0: late[0], 1: late[1]}, world=4)
    write(tmp_path / "node2" / "fr", "2.4", {2: late[2], 3: late[3]}, world=4)
    big = tmp_path / "node2" / "train.log.1"  # ends in a digit, is no dump, is not read whole
    big.write_bytes(b"x" * 1000)
    report = analyse(tmp_path)
    assert report is not None
    assert sorted(report.dumps) == [0, 1, 2, 3]
    assert report.divergence is not None
    assert report.divergence.ranks == [2]
    assert report.notes == []


def test_without_pg_config_a_single_dump_claims_nothing(tmp_path: Path) -> None:
    write(tmp_path, "2.4", {0: _late()[0]}, world=4)
    data = pickle.loads((tmp_path / "nccl_trace_rank_0").read_bytes())
    data["pg_config"] = {}
    (tmp_path / "nccl_trace_rank_0").write_bytes(pickle.dumps(data, protocol=2))
    report = analyse(tmp_path)
    assert report is not None
    assert report.divergence is None  # not "stuck": a member may have written no dump
    assert "do not list the members of process group 0" in report.summary()
    assert "whether one is missing cannot be told" in report.summary()


@pytest.mark.parametrize(
    "content",
    [
        b"\x80\x02}q\x00(X\x07\x00\x00\x00entries",  # cut off
        pickle.dumps([1, 2, 3], protocol=2),  # not a dict
        b"\x80\x02X\x01\x00\x00\x00aQ.",  # a persistent id
        pickle.dumps({"entries": "x", "version": 5}, protocol=2),
        b"{not json",
        b"\x80\x02" + b"(" * 100_000,
    ],
)
def test_hostile_torch_dumps_are_notes(
    tmp_path: Path, content: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, "2.4", {1: _late()[1]}, world=2)
    (tmp_path / "nccl_trace_rank_0").write_bytes(content)
    report = analyse(tmp_path)
    assert report is not None
    report.summary()
    assert report.notes
    log = tmp_path / "job.out"
    log.write_text("x\n")
    assert main(["triage", str(log), "--dumps", str(tmp_path)]) == 0
    assert "nccl_trace_rank_0" in capsys.readouterr().out


def test_a_rank_whose_dump_holds_no_collective_never_joined(tmp_path: Path) -> None:
    ranks: dict[int, list[Call]] = {r: [Call(1, state="scheduled", line=52)] for r in (0, 1, 2)}
    ranks[3] = []  # stuck before its first collective (loading data, say): an empty recorder
    report = analyse(write(tmp_path, "2.4", ranks, world=4))
    assert report is not None
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks, d.others, d.seq) == ("late", [3], [0, 1, 2], 1)
    text = report.summary()
    assert (
        "rank 3 never entered nccl:all_reduce #1 of process group 0 (default_pg), the first collective"
        in text
    )
    assert "rank 3 recorded no collective, so where it is the dumps do not say" in text
    assert "ranks 0-2 wait in it, called at /home/alice/train.py:52" in text


def test_empty_recorders_everywhere_are_no_divergence(tmp_path: Path) -> None:
    # near miss: no rank recorded any collective; nobody is named
    report = analyse(write(tmp_path, "2.4", {r: [] for r in range(2)}, world=2))
    assert report is not None
    assert report.divergence is None
    assert "they record no collective" in report.summary()


def test_gloo_records_no_completion_so_none_is_claimed(tmp_path: Path) -> None:
    # gloo's entries stay "scheduled"; one that left the work list is retired (torch-late shows it)
    ranks = {r: [Call(s, op="all_reduce", state="scheduled") for s in (1, 2, 3)] for r in range(3)}
    write(tmp_path, "2.10", ranks, world=3)
    for rank in range(3):
        path = tmp_path / f"nccl_trace_rank_{rank}"
        data = pickle.loads(path.read_bytes())
        for e in data["entries"]:
            e["profiling_name"] = "gloo:all_reduce"
            e["retired"] = e["collective_seq_id"] < 3 or rank == 0
        path.write_bytes(pickle.dumps(data, protocol=2))
    report = analyse(tmp_path)
    assert report is not None
    assert not report.completed
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks, d.seq) == ("stuck", [], 3)
    assert "ranks 1, 2 are still in it, the others left it (gloo records no completion" in report.summary()


def test_one_long_rank_list_shared_by_many_groups_is_read_once(tmp_path: Path) -> None:
    # a pickle's memo lets one list of 2**20 ranks stand for 10,000 groups in a few bytes each
    ranks = list(range(1 << 20))
    data = {"version": "1.4", "entries": [], "pg_config": dict.fromkeys(range(10000), ranks)}
    (tmp_path / "nccl_trace_rank_0").write_bytes(pickle.dumps(data, protocol=2))
    report = analyse(tmp_path)
    assert report is not None
    assert len(report.dumps[0].groups) == 1


class _IntList(list[int]):
    """A list torch's pickler writes through build_intlist."""


class _TorchLikePickler(pickle._Pickler):  # type: ignore[name-defined,misc]
    def save(self, obj: object, save_persistent_id: bool = True) -> None:
        if type(obj) is _IntList:
            self.write(b"ctorch.jit._pickle\nbuild_intlist\n")  # GLOBAL
            self.save(list(obj))
            self.write(pickle.TUPLE1 + pickle.REDUCE)
            return
        super().save(obj, save_persistent_id)


def test_torchs_typed_list_builders_are_read_as_lists(tmp_path: Path) -> None:
    # torch's pickler writes a typed int list as GLOBAL torch.jit._pickle.build_intlist + its list
    write(tmp_path, "2.4", _late(), world=4)
    path = tmp_path / "nccl_trace_rank_1"
    data = pickle.loads(path.read_bytes())
    for entry in data["entries"]:
        entry["input_sizes"] = [_IntList(size) for size in entry["input_sizes"]]
    out = io.BytesIO()
    _TorchLikePickler(out, protocol=2).dump(data)
    assert b"build_intlist" in out.getvalue()
    path.write_bytes(out.getvalue())
    report = analyse(tmp_path)
    assert report is not None
    assert report.notes == []
    assert report.divergence is not None
    assert report.divergence.ranks == [2]


def test_other_torch_objects_are_still_refused(tmp_path: Path) -> None:
    (tmp_path / "nccl_trace_rank_0").write_bytes(b"\x80\x02ctorch.jit._pickle\nrestore_type_tag\n)R.")
    report = analyse(tmp_path)
    assert report is not None
    assert any(
        "refused, not loaded: it names the Python object torch.jit._pickle.restore_type_tag" in n
        for n in report.notes
    )


@pytest.mark.parametrize("version", ["2.4", "2.10"])
def test_pg_status_confirms_the_late_ranks_last_collective_and_the_timeout_is_said(
    tmp_path: Path, version: str
) -> None:
    report = analyse(write(tmp_path, version, _late(), world=4))
    assert report is not None
    text = report.summary()
    assert "pg_status gives the last collective completed in the group: rank 2 #4" in text
    assert "its timeout was 600 s (timeout_ms 600000)" in text
    assert not any("pg_status" in n for n in report.notes)  # it agrees with the entries


def test_a_format_without_pg_status_or_timeout_says_neither(tmp_path: Path) -> None:
    report = analyse(write(tmp_path, "2.0", _late(), world=4))
    assert report is not None
    assert "pg_status" not in report.summary()
    assert "timeout" not in report.summary()


def test_pg_status_that_contradicts_the_entries_is_noted(tmp_path: Path) -> None:
    write(tmp_path, "2.4", _late(), world=4)
    data = pickle.loads((tmp_path / "nccl_trace_rank_1").read_bytes())
    data["pg_status"]["0"]["last_completed_collective"] = 2  # its entries record #4 completed
    (tmp_path / "nccl_trace_rank_1").write_bytes(pickle.dumps(data, protocol=2))
    report = analyse(tmp_path)
    assert report is not None
    assert report.divergence is not None
    assert report.divergence.ranks == [2]
    assert any(
        "rank 1: pg_status of process group 0 says the last collective completed is #2, but its "
        "entries record #4" in n
        for n in report.notes
    )


def _coalescing(last_size: int = 512, state: str = "completed") -> list[Call]:
    """_coalescing_manager: two all_reduces, then the nccl:coalesced entry of the same number
    (torch gives the collectives inside and their end marker one collective_seq_id)."""
    return [
        *steady(2),
        Call(3, sizes=[[1024]], state="scheduled", line=77, function="sync_buckets"),
        Call(3, sizes=[[last_size]], state="scheduled", line=77, function="sync_buckets"),
        Call(3, op="coalesced", sizes=[], state=state, line=77, function="sync_buckets"),
    ]


def test_a_coalesced_group_is_shown_as_the_collectives_inside_it(tmp_path: Path) -> None:
    ranks = {r: _coalescing() for r in range(3)}
    ranks[3] = _coalescing(last_size=256)
    report = analyse(write(tmp_path, "2.4", ranks, world=4))
    assert report is not None
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks, d.seq) == ("desync", [3], 3)
    assert (
        "rank 3 calls nccl:coalesced (nccl:all_reduce [[1024]] Float, nccl:all_reduce [[256]] Float) "
        "where ranks 0-2 call nccl:coalesced (nccl:all_reduce [[1024]] Float, "
        "nccl:all_reduce [[512]] Float)"
    ) in d.detail


def test_an_agreeing_completed_coalesced_group_is_no_hang(tmp_path: Path) -> None:
    report = analyse(write(tmp_path, "2.4", {r: _coalescing() for r in range(4)}, world=4))
    assert report is not None
    assert report.divergence is None
    assert "the dumps show no hang" in report.summary()
