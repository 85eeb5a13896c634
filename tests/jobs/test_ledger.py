"""The ledger: whole entries or none, two writers at once, hand edits recognised."""

from __future__ import annotations

import json
import multiprocessing
import os
from pathlib import Path

import pytest

from jobc.jobs import ledger


def _entry(job_id: str, script: str = "#!/bin/bash\necho hi\n") -> ledger.Entry:
    return ledger.Entry(
        job_id=job_id,
        spec="/s/spec.yaml",
        spec_sha256="0" * 64,
        script=script,
        submitted="2026-01-01T00:00:00Z",
        name="demo",
        partition="debug",
        log="/logs/demo-%j.out",
    )


def test_round_trip_and_order(tmp_path: Path) -> None:
    for job_id in ("10", "9", "10_2"):
        ledger.write(tmp_path, _entry(job_id))
    got = [e.job_id for e in ledger.entries(tmp_path) if isinstance(e, ledger.Entry)]
    assert got == ["9", "10", "10_2"]
    assert ledger.find(tmp_path, "10_3") == _entry("10")  # an array task finds its array's entry
    assert ledger.find(tmp_path, "11") is None


def test_a_crashed_write_leaves_only_a_hidden_temporary(tmp_path: Path) -> None:
    ledger.write(tmp_path, _entry("1"))
    (tmp_path / ".2.abc.tmp").write_text('{"job_id": "2", "scr', encoding="utf-8")
    assert [e.job_id for e in ledger.entries(tmp_path) if isinstance(e, ledger.Entry)] == ["1"]


def _write_many(args: tuple[str, int]) -> None:
    directory, start = args
    for i in range(start, start + 20):
        ledger.write(Path(directory), _entry(str(i), "x" * 100_000))


def test_writers_at_the_same_moment(tmp_path: Path) -> None:
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.map(_write_many, [(str(tmp_path), 0), (str(tmp_path), 20)])
    entries = list(ledger.entries(tmp_path))
    assert len(entries) == 40
    assert all(isinstance(e, ledger.Entry) for e in entries)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(script=d["script"] + "rm -rf /\n"), "edited after submission"),
        (lambda d: d.update(job_id="77"), "it names job 77"),
        (lambda d: d.pop("spec"), "'spec' missing"),
        (lambda d: d.update(after="12"), "must be lists"),
    ],
)
def test_hand_edited_entries_are_refused_with_a_message(tmp_path: Path, edit: object, message: str) -> None:
    path = ledger.write(tmp_path, _entry("5"))
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)  # type: ignore[operator]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ledger.LedgerError, match=message):
        ledger.read(path)


@pytest.mark.parametrize("content", [b"", b"{not json", b"[1, 2]", b"\xff\xfe\x00garbage"])
def test_broken_files_are_refused_with_a_message(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "5.json"
    path.write_bytes(content)
    with pytest.raises(ledger.LedgerError, match="not a ledger entry"):
        ledger.read(path)


def test_ledger_location(tmp_path: Path) -> None:
    spec = tmp_path / "jobs" / "a.yaml"
    assert ledger.ledger_dir(spec, None, None) == spec.resolve().parent / ".jobc"
    conf = tmp_path / "pyproject.toml"
    assert ledger.ledger_dir(spec, "runs/ledger", str(conf)) == tmp_path / "runs/ledger"
    assert ledger.ledger_dir(spec, "/abs/l", str(conf)) == Path("/abs/l")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        # a lone surrogate is valid JSON but no text: hashing or printing it failed
        (lambda d: d.update(script="#!/bin/bash\n\ud800\n"), "not JSON in UTF-8"),
        (lambda d: d.update(log=5), "'log' is not a string"),
        (lambda d: d.update(cluster={"a": 1}), "'cluster' is not a string"),
        (lambda d: d.update(submit_dir=["a"]), "of the wrong type"),
        (lambda d: d.update(git_dirty="yes"), "of the wrong type"),
        (lambda d: d.update(after=[{}]), "must be lists"),
        (lambda d: d.update(sweep=[1, 2]), "must be lists"),
    ],
)
def test_entries_of_the_wrong_shape_are_refused_with_a_message(
    tmp_path: Path, edit: object, message: str
) -> None:
    path = ledger.write(tmp_path, _entry("5"))
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)  # type: ignore[operator]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ledger.LedgerError, match=message):
        ledger.read(path)


def test_a_deep_a_huge_a_fifo_and_a_directory_entry_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ledger, "MAX_ENTRY_BYTES", 200_000)
    (tmp_path / "1.json").write_bytes(b"[" * 100_000)
    (tmp_path / "2.json").write_bytes(b" " * 200_001 + b"{}")
    os.mkfifo(tmp_path / "3.json")  # opening it must not wait for a writer
    (tmp_path / "4.json").mkdir()
    messages = [str(item) for item in ledger.entries(tmp_path)]
    assert messages == [
        f"{tmp_path / '1.json'}: not a ledger entry (nested too deeply)",
        f"{tmp_path / '2.json'}: not a ledger entry (larger than 200,000 bytes)",
        f"{tmp_path / '3.json'}: cannot read: a FIFO, not a regular file",
        f"{tmp_path / '4.json'}: cannot read: a directory, not a regular file",
    ]
