"""The attempts file of a self-healing job, and one attempt's part of the log under triage."""

from __future__ import annotations

import json
from pathlib import Path

from jobc.jobs import attempts
from jobc.jobs.heal.segment import diagnose


def test_beside_the_log() -> None:
    assert attempts.path_for(Path("/l/train-42.out")) == Path("/l/train-42.attempts.jsonl")


def test_start_and_end_merge_and_a_later_end_wins(tmp_path: Path) -> None:
    path = tmp_path / "a.attempts.jsonl"
    attempts.append(
        path, {"event": "start", "restart": 0, "nodes": ["n1", "n2"], "batch_host": "n1", "log_offset": 0}
    )
    attempts.append(
        path, {"event": "end", "restart": 0, "state": "FAILED", "class": "unknown", "excluded": []}
    )
    attempts.append(path, {"event": "start", "restart": 1, "nodes": ["n2", "n3"], "log_offset": 120})
    attempts.append(
        path, {"event": "end", "restart": 0, "state": "NODE_FAIL", "class": "node_fail", "excluded": ["n1"]}
    )
    first, second = attempts.read(path)
    assert first.as_json()["state"] == "NODE_FAIL"
    assert (first.as_json()["attempt"], first.excluded, first.batch_host) == (1, ["n1"], "n1")
    assert (second.as_json()["state"], second.log_offset, second.end) == ("RUNNING", 120, None)
    assert attempts.excluded([first, second]) == ["n1"]


def test_a_damaged_or_hostile_file_is_read_without_harm(tmp_path: Path) -> None:
    path = tmp_path / "x.attempts.jsonl"
    lines = [
        b"not json",
        b"[1, 2]",
        b'{"event": "start", "restart": "0"}',  # a count must be a number
        b'{"event": "start", "restart": true}',
        b'{"event": "start", "restart": -1}',
        b"[" * 100_000,  # deep nesting
        json.dumps(
            {
                "event": "start",
                "restart": 0,
                "nodes": ["n1", "None assigned", "a;rm -rf /", 7, "n2"],
                "batch_host": "$(reboot)",
                "log_offset": "12",
            }
        ).encode(),
        json.dumps(
            {"event": "end", "restart": 0, "excluded": ["n1,n2", "n2"], "node": "x y", "cause": 5}
        ).encode(),
        b"\xff\xfe garbage",
    ]
    path.write_bytes(b"\n".join(lines) + b"\n")
    (only,) = attempts.read(path)
    assert only.nodes == ["n1", "n2"]  # a name that could not be a node never reaches ExcNodeList
    assert (only.batch_host, only.log_offset) == (None, None)
    assert only.excluded == ["n2"]
    assert only.as_json()["node"] is None
    assert only.as_json()["cause"] is None


def test_reading_is_bounded(tmp_path: Path) -> None:
    path = tmp_path / "big.attempts.jsonl"
    record = json.dumps({"event": "start", "restart": 0, "nodes": ["n1"]}).encode() + b"\n"
    path.write_bytes(record * (attempts.MAX_BYTES // len(record) + 1000))
    assert len(attempts.read(path)) == 1
    assert attempts.read(tmp_path / "none.jsonl") == []
    assert attempts.read(tmp_path) == []  # a directory in its place


LOG = """\
jobc: t job 7 on 2 nodes (n[1-2])
jobc: master n1:22007, restart 0
1: Traceback (most recent call last):
1:   File "/w/train.py", line 3, in <module>
1: ValueError: first attempt's bug
jobc: the step ended with exit code 1
jobc: t job 7 on 2 nodes (n[2-3])
jobc: master n2:22007, restart 1
0: RuntimeError: CUDA error: an illegal memory access was encountered
jobc: the step ended with exit code 1
"""


def test_one_attempts_part_of_the_log(tmp_path: Path) -> None:
    log = tmp_path / "t-7.out"
    log.write_text(LOG)
    second = LOG.index("jobc: t job 7 on 2 nodes (n[2-3])")
    first = diagnose(log, 0, second)
    assert "ValueError" in first.causes[0].summary
    later = diagnose(log, second)
    (cause,) = later.causes
    assert cause.cls == "gpu_error"
    # the evidence points at the line in the whole file, not in the part
    assert cause.evidence[0].line == 9, cause.evidence
    # an offset in the middle of a line starts at the next whole line
    assert diagnose(log, second - 5).causes[0].evidence[0].line == 9


def test_triage_reads_every_attempt_on_its_own(tmp_path: Path) -> None:
    from jobc.jobs.story import render_attempts, triage_attempts

    log = tmp_path / "t-7.out"
    log.write_text(LOG)
    second = LOG.index("jobc: t job 7 on 2 nodes (n[2-3])")
    ledger = attempts.path_for(log)
    attempts.append(ledger, {"event": "start", "restart": 0, "nodes": ["n1", "n2"], "log_offset": 0})
    attempts.append(
        ledger,
        {
            "event": "end",
            "restart": 0,
            "state": "FAILED",
            "class": "exception",
            "cause": "ValueError",
            "decision": "stop",
        },
    )
    attempts.append(ledger, {"event": "start", "restart": 1, "nodes": ["n2", "n3"], "log_offset": second})
    found = triage_attempts(log, "7", state="FAILED", exit_code="1:0")
    assert found is not None
    last, rows = found
    assert [r["attempt"] for r in rows] == [1, 2]
    assert rows[0]["findings"][0]["class"] == "exception"
    assert rows[1]["findings"][0]["class"] == "gpu_error"
    # the job's own diagnosis is its last attempt's, with the job's state
    assert (last.state, last.exit_code, last.causes[0].cls) == ("FAILED", "1:0", "gpu_error")
    text = render_attempts(rows)
    assert "attempt 1 on n1,n2: FAILED -> stop" in text
    assert "first cause in its log: [gpu_error]" in text
    assert triage_attempts(tmp_path / "other.out", "8") is None
