"""Point-to-point hangs in torch's own dumps (pipeline parallelism): a send on rank A to B pairs
with a recv on B from A in the same group, as torch's fr_trace matches them
(torch/distributed/flight_recorder/components/types.py, ``Op``: ``nccl:send 1->2``,
``nccl:recv 2<-1``, ranks within the group)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jobc.cli import main
from jobc.jobs.flight import analyse
from tests.jobs.frdumps import Call, steady, write

# Megatron-style: 8 ranks, pipeline group "3" of stages 0-3 on global ranks 0, 2, 4, 6
PP = {"3": ("pipeline_model_parallel_group", [0, 2, 4, 6])}
STAGE = {0: 0, 2: 1, 4: 2, 6: 3}


def _send(seq: int, src: int, dst: int, state: str = "completed", line: int = 61) -> Call:
    return Call(
        seq,
        op=f"send {src}->{dst}",
        sizes=[[4, 2048, 1024]],
        state=state,
        line=line,
        function="send_forward",
        group=("3", "pipeline_model_parallel_group"),
        p2p=True,
    )


def _recv(seq: int, src: int, dst: int, state: str = "completed", line: int = 70) -> Call:
    return Call(
        seq,
        op=f"recv {dst}<-{src}",
        sizes=[[4, 2048, 1024]],
        state=state,
        line=line,
        function="recv_forward",
        group=("3", "pipeline_model_parallel_group"),
        p2p=True,
    )


def _pipeline(stuck_send: str = "started", stage2_posts: bool = False) -> dict[int, list[Call]]:
    """Two micro-batches flow 0 -> 1 -> 2 -> 3; on the third, stage 1 sends to stage 2, which
    never posts the recv (stopped in Python); stage 0's next send is still open too."""
    out: dict[int, list[Call]] = {}
    for rank, stage in STAGE.items():
        calls: list[Call] = [*steady(2)]
        seq = 0
        for _ in range(2):
            if stage > 0:
                seq += 1
                calls.append(_recv(seq, stage - 1, stage))
            if stage < 3:
                seq += 1
                calls.append(_send(seq, stage, stage + 1))
        out[rank] = calls
    out[0].append(_send(5, 0, 1))  # stage 0's third micro-batch reached stage 1
    out[2] += [_recv(5, 0, 1), _send(6, 1, 2, state=stuck_send, line=64)]
    if stage2_posts:
        out[4].append(_recv(5, 1, 2, state=stuck_send))
    for rank in (1, 3, 5, 7):  # the data-parallel peers, no point-to-point
        out[rank] = steady(2)
    return out


@pytest.mark.parametrize("version", ["2.0", "2.4", "2.10"])
def test_the_stage_that_never_posted_its_recv_is_named(tmp_path: Path, version: str) -> None:
    report = analyse(write(tmp_path, version, _pipeline(), world=8, groups=PP))
    assert report is not None
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks, d.others, d.group, d.op) == ("p2p", [4], [2], "3", "nccl:send 1->2")
    text = report.summary()
    assert (
        "rank 2's nccl:send 1->2 [[4,2048,1024]] Float (point-to-point #6 of process group 3 "
        "(pipeline_model_parallel_group), stage pair 1 → 2) is started, not completed" in text
    )
    assert "rank 4 never posted the matching recv from rank 2: rank 4 is the one it waits on" in text
    assert "rank 2 called nccl:send 1->2 at /home/alice/train.py:64 in send_forward" in text
    assert "rank 4 last called nccl:send 2->3 at /home/alice/train.py:61 in send_forward" in text
    assert d.stacks[4][0].line == 61


def test_the_json_dump_names_the_stage_too(tmp_path: Path) -> None:
    report = analyse(write(tmp_path, "2.4", _pipeline(), world=8, groups=PP, json_form=True))
    assert report is not None
    assert report.divergence is not None
    assert (report.divergence.kind, report.divergence.ranks) == ("p2p", [4])


def test_format_1_names_the_peer_from_the_operation_name(tmp_path: Path) -> None:
    # 1.x: no is_p2p, no p2p_seq_id, the default group only
    ranks = {0: [*steady(2), Call(3, op="send 0->1", state="started", p2p=True)], 1: steady(2)}
    report = analyse(write(tmp_path, "1.4", ranks, world=2))
    assert report is not None
    assert report.divergence is not None
    assert (report.divergence.kind, report.divergence.ranks) == ("p2p", [1])


def test_every_send_and_recv_completed_is_no_hang(tmp_path: Path) -> None:
    ranks = _pipeline(stuck_send="completed")
    ranks[4].append(_recv(5, 1, 2))
    report = analyse(write(tmp_path, "2.4", ranks, world=8, groups=PP))
    assert report is not None
    assert report.divergence is None
    assert report.completed
    assert "the dumps show no hang" in report.summary()


def test_a_pair_both_posted_and_both_open_says_both_wait(tmp_path: Path) -> None:
    report = analyse(write(tmp_path, "2.4", _pipeline(stage2_posts=True), world=8, groups=PP))
    assert report is not None
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks) == ("p2p-stuck", [2, 4])
    assert "both sides are waiting" in d.detail
    assert "not a missing rank" in d.detail


def test_a_peer_without_a_dump_is_named_as_waited_on_not_as_having_skipped(tmp_path: Path) -> None:
    ranks = _pipeline()
    del ranks[4]
    report = analyse(write(tmp_path, "2.4", ranks, world=8, groups=PP))
    assert report is not None
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks) == ("p2p", [4])
    assert "it waits on rank 4, which wrote no dump: whether it posted the matching recv" in d.detail


def test_a_group_without_members_names_no_rank(tmp_path: Path) -> None:
    ranks = _pipeline()
    report = analyse(write(tmp_path, "2.4", ranks, world=8))  # pg_config lists group 0 only
    assert report is not None
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks) == ("p2p", [])
    assert "whose global rank the dumps do not say" in d.detail


def _batch(state: str, *, peer_posts: bool) -> dict[int, list[Call]]:
    """batch_isend_irecv: torch records each op (never updated: 'scheduled') and then one
    nccl:coalesced entry of the same p2p sequence number that carries the batch's state."""
    g = ("0", "default_pg")
    r0 = [
        *steady(1),
        Call(1, op="send 0->1", state="scheduled", group=g, p2p=True),
        Call(1, op="recv 0<-1", state="scheduled", group=g, p2p=True),
        Call(1, op="coalesced", sizes=[], state=state, group=g, p2p=True),
    ]
    r1 = [*steady(1)]
    if peer_posts:
        r1 += [
            Call(1, op="recv 1<-0", state="scheduled", group=g, p2p=True),
            Call(1, op="send 1->0", state="scheduled", group=g, p2p=True),
            Call(1, op="coalesced", sizes=[], state=state, group=g, p2p=True),
        ]
    return {0: r0, 1: r1}


def test_a_completed_batch_is_no_hang_though_its_ops_say_scheduled(tmp_path: Path) -> None:
    report = analyse(write(tmp_path, "2.4", _batch("completed", peer_posts=True), world=2))
    assert report is not None
    assert report.divergence is None
    assert report.completed


def test_an_open_batch_whose_peer_posted_nothing_names_the_peer(tmp_path: Path) -> None:
    report = analyse(write(tmp_path, "2.4", _batch("started", peer_posts=False), world=2))
    assert report is not None
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks, d.others) == ("p2p", [1], [0])


def test_triage_reports_the_stage_in_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dumps = write(tmp_path / "dumps", "2.4", _pipeline(), world=8, groups=PP)
    log = tmp_path / "job.out"
    log.write_text("0: [rank0]: Watchdog caught collective operation timeout\n")
    assert main(["triage", str(log), "--dumps", str(dumps), "--format", "json"]) == 0
    first = json.loads(capsys.readouterr().out)["findings"][0]
    assert (first["kind"], first["rank"]) == ("hang", 4)
    assert "stage pair 1 → 2" in first["summary"]


def test_one_dump_file_is_read_and_its_peer_named_as_waited_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dumps = write(tmp_path / "dumps", "2.4", _pipeline(), world=8, groups=PP)
    log = tmp_path / "job.out"
    log.write_text("0: [rank0]: Watchdog caught collective operation timeout\n")
    assert main(["triage", str(log), "--format", "json", "--dumps", str(dumps / "nccl_trace_rank_2")]) == 0
    first = json.loads(capsys.readouterr().out)["findings"][0]
    assert (first["kind"], first["rank"]) == ("hang", 4)
    assert "it waits on rank 4, which wrote no dump" in first["summary"]


def test_several_dump_files_are_read_together(tmp_path: Path) -> None:
    dumps = write(tmp_path, "2.4", _pipeline(), world=8, groups=PP)
    report = analyse(sorted(dumps.iterdir()))
    assert report is not None
    assert report.divergence is not None
    assert (report.divergence.kind, report.divergence.ranks) == ("p2p", [4])
    assert sorted(report.dumps) == list(range(8))


def test_a_named_file_that_is_no_dump_is_said(tmp_path: Path) -> None:
    (tmp_path / "trace_3").write_text("not a dump\n")
    (tmp_path / "notes").write_text("x")
    report = analyse([tmp_path / "trace_3", tmp_path / "notes"])
    assert report is not None
    assert report.dumps == {}
    assert any("trace_3: neither a pickle nor JSON" in n for n in report.notes)
    assert any("notes: its name ends in no rank" in n for n in report.notes)


def test_a_dumps_path_that_is_neither_file_nor_directory_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "job.out"
    log.write_text("hello\n")
    assert main(["triage", str(log), "--dumps", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"jobc triage: --dumps {tmp_path / 'nowhere'}: neither a directory nor a dump file"


def test_the_open_sends_timeout_is_said(tmp_path: Path) -> None:
    report = analyse(write(tmp_path, "2.4", _pipeline(), world=8, groups=PP))
    assert report is not None
    assert "its timeout was 600 s (timeout_ms 600000)" in report.summary()


def test_many_open_sends_and_peers_out_of_range_stay_bounded(tmp_path: Path) -> None:
    # 5,000 open sends a rank in 8 ranks, half to group ranks no group has: each group's members
    # are looked up once, the peers out of range are said unknown, never guessed
    ranks = {
        r: [
            Call(i, op=f"send {r}->{(r + 1) % 8 if i % 2 else 9_999_999}", state="started", p2p=True)
            for i in range(1, 5_001)
        ]
        for r in range(8)
    }
    report = analyse(write(tmp_path, "2.4", ranks, world=8, json_form=True))
    assert report is not None
    d = report.divergence
    assert d is not None
    assert d.kind == "p2p"
    assert all(0 <= r < 8 for r in d.ranks)


def test_the_pipeline_groups_dumps_alone_name_the_stage_not_the_ranks_without_dumps(tmp_path: Path) -> None:
    # only the pipeline group's four files given: the data-parallel peers wrote none, but every
    # collective recorded completed, so the open send is what waits
    dumps = write(tmp_path, "2.4", _pipeline(), world=8, groups=PP)
    report = analyse([dumps / f"nccl_trace_rank_{r}" for r in (0, 2, 4, 6)])
    assert report is not None
    d = report.divergence
    assert d is not None
    assert (d.kind, d.ranks) == ("p2p", [4])
    assert "ranks 1, 3, 5, 7 wrote no dump (or their files were not given)" in report.notes


def test_ranks_without_dumps_in_an_open_collective_still_come_first(tmp_path: Path) -> None:
    ranks = _pipeline()
    for r in (0, 2, 4, 6):
        ranks[r].append(Call(3, state="started", line=90))
    report = analyse(
        [write(tmp_path, "2.4", ranks, world=8, groups=PP) / f"nccl_trace_rank_{r}" for r in (0, 2, 4, 6)]
    )
    assert report is not None
    assert report.divergence is not None
    assert report.divergence.kind == "lost"
    assert any(n.startswith("point-to-point: rank 2's nccl:send 1->2") for n in report.notes)


def test_the_peers_last_call_is_its_newest_entry_collective_or_not(tmp_path: Path) -> None:
    ranks = _pipeline()
    # a collective (in a group of its own) after its last send
    ranks[4].append(Call(1, line=99, function="log_loss", group=("7", "tensor_model_parallel_group")))
    report = analyse(write(tmp_path, "2.4", ranks, world=8, groups=PP))
    assert report is not None
    assert report.divergence is not None
    assert "rank 4 last called nccl:all_reduce at /home/alice/train.py:99 in log_loss" in report.summary()


def test_a_log_written_after_dumps_is_told_to_come_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dumps = write(tmp_path / "dumps", "2.4", _pipeline(), world=8, groups=PP)
    log = tmp_path / "job.out"
    log.write_text("hello\n")
    assert main(["triage", "--dumps", str(dumps / "nccl_trace_rank_2"), str(log)]) == 2
    assert "--dumps takes every path after it, so put it last" in capsys.readouterr().err
