"""Slurm's own commands, run as subprocesses: sbatch, scontrol, sacct, squeue, sinfo, scancel.

Every failure becomes a `SlurmError` with one line that says what to do: no Slurm on this
machine, a controller that does not answer, a job id Slurm does not know. Accounting (sacct) is
optional: many small clusters run without slurmdbd, and then `scontrol show job` is the only
record of a finished job, for MinJobAge seconds.

What Slurm prints is read as it comes, a line at a time, from a temporary file (a cluster's
`scontrol show node` or `scontrol show job` is never held whole), each line at most `MAX_LINE`
long. A command that does not answer is stopped after `timeout_s()` seconds: twice Slurm's own
default MessageTimeout, so that Slurm's own error comes first when the controller is slow;
`JOBC_SLURM_TIMEOUT` sets it. Jobs are asked about in chunks of `CHUNK_CHARS` characters of
job ids: the kernel takes no single argument past 128 KiB.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import IO

from jobc.spec.slurmfacts import parse_record

DEFAULT_TIMEOUT_S = 20.0
TIMEOUT_ENV = "JOBC_SLURM_TIMEOUT"
#: a line of Slurm's output longer than this is cut: no record Slurm prints comes near it
MAX_LINE = 1 << 20
#: what is kept of a command's stderr: its last line is the message of its failure
MAX_STDERR = 1 << 16
#: what `run` keeps of a command's output, whose answer is short (a few node names, a state)
MAX_OUTPUT = 1 << 24
#: characters of job ids in one `-j` argument (the kernel's MAX_ARG_STRLEN is 128 KiB)
CHUNK_CHARS = 16_000

_JOB_ID = re.compile(r"^[0-9]+(?:_[0-9]+)?$")


class SlurmError(Exception):
    """A Slurm command could not do what was asked; the message is one line."""


class NotSlurm(SlurmError):
    """This machine has no Slurm client commands."""


class JobUnknown(SlurmError):
    """Slurm answered, and has no record of the job (neither the controller nor accounting)."""


def valid_job_id(text: str) -> bool:
    """A job id as jobc takes it: digits, or an array task `123_4`."""
    return bool(_JOB_ID.match(text))


def require(command: str) -> str:
    path = shutil.which(command)
    if path is None:
        raise NotSlurm(f"{command} not found on PATH: this is not a Slurm installation")
    return path


def timeout_s() -> float:
    """How long a Slurm command may take: `JOBC_SLURM_TIMEOUT` seconds, else the default."""
    raw = os.environ.get(TIMEOUT_ENV, "").strip()
    if not raw:
        return DEFAULT_TIMEOUT_S
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not 0 < value <= 3600:  # nan and inf fail this too
        raise SlurmError(
            f"{TIMEOUT_ENV} must be a number of seconds, above 0 and at most 3600, not {raw[:40]!r}"
        )
    return value


class Output:
    """A finished command: its exit code, the end of its stderr, and its stdout line by line."""

    def __init__(self, returncode: int, stdout: IO[bytes], stderr: str) -> None:
        self.returncode, self._stdout, self.stderr = returncode, stdout, stderr

    def lines(self) -> Iterator[str]:
        """stdout's lines without their line break, each cut at `MAX_LINE` characters."""
        stream = self._stdout
        stream.seek(0)
        while True:
            raw = stream.readline(MAX_LINE)
            if not raw:
                return
            if not raw.endswith(b"\n"):
                while (rest := stream.readline(MAX_LINE)) and not rest.endswith(b"\n"):
                    pass  # the rest of a line past the cut
            yield raw.decode("utf-8", "replace").rstrip("\r\n")


def _tail(stream: IO[bytes]) -> str:
    size = stream.seek(0, os.SEEK_END)
    stream.seek(max(size - MAX_STDERR, 0))
    return stream.read().decode("utf-8", "replace")


@contextmanager
def output(
    argv: Sequence[str], *, cwd: str | None = None, check: bool = True, stdin: str | None = None
) -> Iterator[Output]:
    """Run a Slurm client command (``stdin``: the text it reads, else nothing), and read what it
    printed line by line; its stderr's last line becomes the error when it fails and ``check`` is
    set."""
    exe = require(argv[0])
    limit = timeout_s()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        try:
            done = subprocess.run(
                [exe, *argv[1:]],
                input=stdin.encode("utf-8") if stdin is not None else None,
                stdin=None if stdin is not None else subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                timeout=limit,
                cwd=cwd,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise SlurmError(
                f"{argv[0]} did not answer within {limit:g} s ({TIMEOUT_ENV} sets how long jobc waits)"
            ) from None
        except OSError as exc:
            raise SlurmError(f"{argv[0]}: cannot run: {exc.strerror or exc}") from None
        result = Output(done.returncode, out, _tail(err))
        if check and done.returncode != 0:
            raise SlurmError(
                f"{argv[0]} failed: {last_line(result.stderr) or f'exit code {done.returncode}'}"
            )
        yield result


def run(
    argv: Sequence[str], *, cwd: str | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """A Slurm command whose output is small, as one text (at most `MAX_OUTPUT` characters: a
    command that prints more is cut there); what may be large is read with `output`."""
    with output(argv, cwd=cwd, check=check) as done:
        lines: list[str] = []
        size = 0
        for line in done.lines():
            size += len(line) + 1
            if size > MAX_OUTPUT:
                break
            lines.append(line)
    text = "".join(f"{line}\n" for line in lines)
    return subprocess.CompletedProcess(list(argv), done.returncode, text, done.stderr)


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def chunks(job_ids: Sequence[str]) -> Iterator[str]:
    """Job ids as `-j` arguments of at most `CHUNK_CHARS` characters each."""
    chunk: list[str] = []
    size = 0
    for job_id in job_ids:
        if chunk and size + len(job_id) + 1 > CHUNK_CHARS:
            yield ",".join(chunk)
            chunk, size = [], 0
        chunk.append(job_id)
        size += len(job_id) + 1
    if chunk:
        yield ",".join(chunk)


# --- sbatch

# sbatch --parsable prints `jobid` or `jobid;cluster`; without it, `Submitted batch job N`
_PARSABLE = re.compile(r"([0-9]{1,18})(?:;([^\s;]{1,200}))?")
_SUBMITTED = re.compile(r"Submitted batch job ([0-9]{1,18})(?: on cluster (\S{1,200}))?")


def submitted_ids(lines: Iterable[str]) -> list[tuple[str, str | None]]:
    """Every (job id, cluster) sbatch's output states, in order, without repeats: a line that is
    only an id (`--parsable`), or `Submitted batch job N`, among whatever else a site's wrapper
    prints before or after it."""
    found: dict[tuple[str, str | None], None] = {}
    for line in lines:
        text = line.strip()
        m = _PARSABLE.fullmatch(text) or _SUBMITTED.fullmatch(text)
        if m is not None:
            found[(m[1], m[2] or None)] = None
    return list(found)


def sbatch(
    script: str, options: Sequence[str], *, cwd: str | None = None
) -> tuple[str, str | None, list[str]]:
    """Submit a script (given as text on stdin): (job id, cluster or None, warnings). Whenever
    sbatch's output states one job id, the job is taken as submitted, whatever else it printed
    or its exit code (a wrapper's failure after the submission is a warning)."""
    try:
        with output(["sbatch", "--parsable", *options], cwd=cwd, check=False, stdin=script) as done:
            ids = submitted_ids(done.lines())
            stdout = [line for line in done.lines() if line.strip()][:5]
    except SlurmError as exc:
        if "did not answer" in str(exc):
            raise SlurmError(
                f"{exc}: whether the job was submitted is unknown (`squeue --me` lists it if it was)"
            ) from None
        raise
    reason = last_line(done.stderr) or f"exit code {done.returncode}"
    if len({job_id for job_id, _ in ids}) > 1:
        listed = ", ".join(job_id for job_id, _ in ids[:5])
        raise SlurmError(
            f"sbatch printed several job ids ({listed}); which is this job's is unknown, so none is recorded"
        )
    if not ids:
        if done.returncode != 0:
            raise SlurmError(f"sbatch refused the job: {reason}")
        printed = " / ".join(stdout) if stdout else "nothing"
        raise SlurmError(f"sbatch printed {printed[:200]!r}, not a job id")
    job_id, cluster = ids[0]
    warnings = []
    if done.returncode != 0:
        warnings.append(
            f"sbatch exited with code {done.returncode} after it printed job id {job_id}: {reason}"
        )
    return job_id, cluster, warnings


# --- what Slurm knows of jobs


def scontrol_job(job_id: str) -> list[dict[str, str]] | None:
    """`scontrol show job -o`: one record per job (several for an array), None when unknown."""
    with output(["scontrol", "show", "job", "-o", job_id], check=False) as done:
        if done.returncode != 0:
            if "invalid job id" in done.stderr.lower():
                return None
            raise SlurmError(f"scontrol show job {job_id} failed: {last_line(done.stderr)}")
        records = [parse_record(line) for line in done.lines() if line.strip()]
    return records or None


SACCT_FIELDS = ("JobID", "JobName", "State", "ExitCode", "Elapsed", "NNodes", "NodeList", "Partition")


def _rows(lines: Iterable[str], fields: Sequence[str]) -> Iterator[dict[str, str]]:
    for line in lines:
        values = line.split("|")
        if len(values) == len(fields):
            yield dict(zip(fields, values, strict=True))


def sacct(job_id: str) -> list[dict[str, str]] | None:
    """sacct's allocation records of the job, with `--duplicates` so that every run of a requeued
    job is there; None when accounting is not configured here."""
    if shutil.which("sacct") is None:
        return None
    argv = ["sacct", "-j", job_id, "--duplicates", "-X", "-n", "-P", "-o", ",".join(SACCT_FIELDS)]
    with output(argv, check=False) as done:
        if done.returncode != 0:
            # "Slurm accounting storage is disabled", no slurmdbd, no configuration: no accounting.
            return None
        return list(_rows(done.lines(), SACCT_FIELDS))


STEP_FIELDS = (*SACCT_FIELDS, "Start", "End")


def sacct_jobs(job_ids: Sequence[str]) -> list[dict[str, str]] | None:
    """sacct's records of many jobs, one call a chunk of them: every run of each job
    (`--duplicates`), each followed by its steps (`123.batch`, `123.0` …), in sacct's order;
    None without accounting."""
    if shutil.which("sacct") is None:
        return None
    rows: list[dict[str, str]] = []
    for chunk in chunks(job_ids):
        argv = ["sacct", "-j", chunk, "--duplicates", "-n", "-P", "-o", ",".join(STEP_FIELDS)]
        with output(argv, check=False) as done:
            if done.returncode != 0:
                return None
            rows.extend(_rows(done.lines(), STEP_FIELDS))
    return rows


def scontrol_jobs() -> Iterator[dict[str, str]]:
    """`scontrol show job -o` without an id: every job the controller still holds, one call,
    read a record at a time."""
    with output(["scontrol", "show", "job", "-o"], check=False) as done:
        if done.returncode != 0:
            reason = last_line(done.stderr) or f"exit code {done.returncode}"
            raise SlurmError(f"scontrol show job failed: {reason}")
        for line in done.lines():
            if line.strip() and "=" in line:
                yield parse_record(line)


def unavailable_nodes(node_lists: Sequence[str]) -> dict[str, tuple[str, str]]:
    """Of the nodes in these node lists (`n[0-3]` expressions), those Slurm has down, drained,
    failing or not responding now, with their state and reason: one sinfo for all of them."""
    if not node_lists:
        return {}
    with output(["sinfo", "-h", "-N", "-n", ",".join(node_lists), "-o", "%N|%T|%E"], check=False) as done:
        return parse_unavailable(done.lines())


def parse_unavailable(text: str | Iterable[str]) -> dict[str, tuple[str, str]]:
    """The nodes of sinfo's `%N|%T|%E` lines that jobs cannot use now."""
    found = {}
    for line in text.splitlines() if isinstance(text, str) else text:
        parts = line.strip().split("|", 2)
        if len(parts) == 3:
            name, state, reason = parts
            if unavailable(state):
                found[name] = (state, reason)
    return found


def unavailable(state: str) -> bool:
    """Whether sinfo's state (`%T`: `down~`, `drained*`, `draining@`, `mixed-`, `idle+drain` …)
    is one a job cannot run in. A trailing flag is stripped first (sinfo(1), NODE STATE CODES:
    `*` not responding, which is itself unavailable; `~` powered off, `#` powering up, `!` and `%`
    powering down, `$` maintenance, `@` reboot pending, `^` rebooting, `-` planned)."""
    state = state.strip().lower()
    if state.endswith("*"):
        return True
    base = state.rstrip("~#!%$@^-")
    return any(part in _UNAVAILABLE for part in base.split("+"))


_UNAVAILABLE = frozenset(
    {"down", "drained", "draining", "drain", "fail", "failing", "no_respond", "not_responding", "inval"}
)


def squeue_states(job_ids: Sequence[str]) -> dict[str, tuple[str, str]]:
    """State and reason of the jobs Slurm still holds in its queue, by job id (one squeue a
    chunk of them)."""
    found = {}
    for chunk in chunks(job_ids):
        with output(["squeue", "-h", "-j", chunk, "-o", "%i|%T|%r"], check=False) as done:
            for line in done.lines():
                parts = line.strip().split("|")
                if len(parts) == 3:
                    found[parts[0]] = (parts[1], parts[2])
    return found


def scancel(job_id: str, *, signal: str | None = None, batch: bool = False) -> None:
    argv = ["scancel"]
    if signal is not None:
        argv.append(f"--signal={signal}")
    if batch:
        argv.append("--batch")
    with output([*argv, job_id], check=False) as done:
        if done.returncode != 0 or "invalid job id" in done.stderr.lower():
            reason = last_line(done.stderr) or f"exit code {done.returncode}"
            raise SlurmError(f"scancel {job_id} failed: {reason}")
