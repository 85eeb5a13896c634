"""`jobc logs -f` follows the log while the job runs: Slurm not answering (a command that times out
on a busy controller) is no word that the job ended, so following goes on, and stops with an error
that says so only when Slurm keeps failing."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from jobc.jobs.logs import SLURM_TRIES, LogError, follow, running
from jobc.jobs.slurm import JobUnknown, SlurmError


def test_a_slurm_command_that_fails_is_no_end_of_the_job(tmp_path: Path) -> None:
    log = tmp_path / "job.out"
    log.write_bytes(b"step start\n")
    answers: list[object] = [
        SlurmError("squeue timed out"),
        SlurmError("squeue timed out"),
        "RUNNING",
        "DONE",
    ]
    got: list[bytes] = []

    def ask(job_id: str) -> list[object]:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        if answer == "RUNNING":
            # the job writes its last line while Slurm could not be asked
            with log.open("ab") as stream:
                stream.write(b"step end\n")
            return [SimpleNamespace(state="RUNNING")]
        return [SimpleNamespace(state="COMPLETED")]

    follow(log, got.append, running("42", ask), poll_s=0)
    assert got == [b"step start\n", b"step end\n"]
    assert answers == []


def test_slurm_that_keeps_failing_stops_following_with_an_error(tmp_path: Path) -> None:
    log = tmp_path / "job.out"
    log.write_bytes(b"step start\n")
    calls: list[str] = []

    def ask(job_id: str) -> list[object]:
        calls.append(job_id)
        raise SlurmError("squeue: error: Socket timed out on send/recv operation")

    with pytest.raises(LogError, match="Slurm did not say whether it still runs"):
        follow(log, lambda raw: None, running("42", ask), poll_s=0)
    assert len(calls) == SLURM_TRIES
    # near misses: a job Slurm says has ended, or has no record of, ends following at once
    assert not running("42", lambda job_id: [SimpleNamespace(state="COMPLETED")])()

    def unknown(job_id: str) -> list[object]:
        raise JobUnknown(f"job {job_id}: Slurm does not know it")

    assert not running("42", unknown)()
