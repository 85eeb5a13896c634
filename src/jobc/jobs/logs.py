"""A job's log: where it is, one rank's lines of it, and following it while the job runs."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

from jobc.jobs import labels, ledger, slurm
from jobc.jobs.submit import expand_log

MAX_LINE = 1 << 16
ACTIVE = frozenset(
    {
        "PENDING",
        "RUNNING",
        "REQUEUED",
        "REQUEUE_HOLD",
        "REQUEUE_FED",
        "CONFIGURING",
        "COMPLETING",
        "RESIZING",
        "SUSPENDED",
        "STAGE_OUT",
        "SIGNALING",
    }
)


class LogError(Exception):
    """The log cannot be found or read; one line."""


#: Times in a row Slurm may fail to say whether the job still runs (a command that times out on
#: a busy controller) before following stops, with an error: never as if the job had ended.
SLURM_TRIES = 5


def running(job_id: str, ask: Callable[[str], Sequence[object]]) -> Callable[[], bool]:
    """Whether the job still runs, as `follow` asks it on each quiet poll. Slurm not answering is
    no answer: following goes on (stopping then would cut the job's last lines off, without a
    word), and only after SLURM_TRIES failures in a row does it stop with an error that says so."""
    failures = 0

    def active() -> bool:
        nonlocal failures
        try:
            states = ask(job_id)
        except slurm.JobUnknown:
            return False  # Slurm answered: it has no record of the job, which is over
        except slurm.SlurmError as exc:
            failures += 1
            if failures >= SLURM_TRIES:
                raise LogError(
                    f"job {job_id}: Slurm did not say whether it still runs ({exc}); its log may go on"
                ) from None
            return True
        failures = 0
        return any(getattr(s, "state", None) in ACTIVE for s in states)

    return active


def log_path(job_id: str, directory: Path) -> Path:
    """The job's output file: Slurm's StdOut while it remembers the job, else the ledger's."""
    try:
        records = slurm.scontrol_job(job_id)
    except slurm.NotSlurm:
        records = None
    if records:
        wanted = [r for r in records if _record_id(r) == job_id] or records
        out = wanted[0].get("StdOut")
        if out and out != "(null)":
            return Path(out)
    entry = ledger.find(directory, job_id)
    if entry is None or entry.log is None:
        from jobc.jobs import userledger

        where = f"the ledger {directory}"
        if not directory.is_relative_to(userledger.root()):
            where += f" nor in the user ledger {userledger.root()}"
        raise LogError(f"job {job_id}: no log known (Slurm has no record of it and it is not in {where})")
    return Path(expand_log(entry.log, job_id))


def _record_id(record: dict[str, str]) -> str:
    if record.get("ArrayTaskId") and record.get("ArrayJobId"):
        return f"{record['ArrayJobId']}_{record['ArrayTaskId']}"
    return record.get("JobId", "")


def lines(stream: BinaryIO) -> Iterator[bytes]:
    while True:
        raw = stream.readline(MAX_LINE)
        if not raw:
            return
        yield raw


def keep(raw: bytes, rank: int | None, torchrun: bool, per_node: int | None) -> bool:
    if rank is None:
        return True
    line = labels.parse(raw.decode("utf-8", "replace"))
    return labels.rank_of(line, torchrun, per_node) == rank


def follow(
    path: Path,
    write: Callable[[bytes], None],
    active: Callable[[], bool],
    *,
    rank: int | None = None,
    torchrun: bool = False,
    per_node: int | None = None,
    poll_s: float = 1.0,
) -> None:
    """Copy the log to `write`, then its new lines as they come, until the job is over and the
    file stops growing."""
    waited = 0.0
    while not path.exists():
        if not active():
            raise LogError(f"{path}: no such file, and the job is no longer running")
        time.sleep(poll_s)
        waited += poll_s
    from jobc.core.files import open_regular  # a FIFO as the job's output is not waited on

    try:
        opened = open_regular(path)
    except OSError as exc:
        raise LogError(f"{path}: cannot read: {exc.strerror or exc}") from None
    with opened as stream:
        partial = b""
        while True:
            got = False
            for raw in lines(stream):
                got = True
                if not raw.endswith(b"\n") and len(raw) < MAX_LINE:
                    partial += raw  # the rest is still being written
                    continue
                whole, partial = partial + raw, b""
                if keep(whole, rank, torchrun, per_node):
                    write(whole)
            if not got:
                if not active():
                    if partial and keep(partial, rank, torchrun, per_node):
                        write(partial)
                    return
                time.sleep(poll_s)
