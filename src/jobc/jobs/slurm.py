"""Slurm's own commands, run as subprocesses: sbatch, scontrol, sacct, squeue, scancel.

Every failure becomes a `SlurmError` with one line that says what to do: no Slurm on this
machine, a controller that does not answer, a job id Slurm does not know. Accounting (sacct) is
optional: many small clusters run without slurmdbd, and then `scontrol show job` is the only
record of a finished job, for MinJobAge seconds.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Sequence

from jobc.core.numbers import is_digits

TIMEOUT_S = 60.0

_JOB_ID = re.compile(r"^[0-9]+(?:_[0-9]+)?$")


class SlurmError(Exception):
    """A Slurm command could not do what was asked; the message is one line."""


class NotSlurm(SlurmError):
    """This machine has no Slurm client commands."""


def valid_job_id(text: str) -> bool:
    """A job id as jobc takes it: digits, or an array task `123_4`."""
    return bool(_JOB_ID.match(text))


def require(command: str) -> str:
    path = shutil.which(command)
    if path is None:
        raise NotSlurm(f"{command} not found on PATH: this is not a Slurm installation")
    return path


def run(
    argv: Sequence[str], *, cwd: str | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run a Slurm client command; its stderr's last line becomes the error when it fails."""
    exe = require(argv[0])
    try:
        done = subprocess.run(
            [exe, *argv[1:]],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=TIMEOUT_S,
            cwd=cwd,
            env=os.environ.copy(),
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise SlurmError(f"{argv[0]} did not answer within {TIMEOUT_S:.0f} s") from None
    except OSError as exc:
        raise SlurmError(f"{argv[0]}: cannot run: {exc.strerror or exc}") from None
    if check and done.returncode != 0:
        raise SlurmError(f"{argv[0]} failed: {last_line(done.stderr) or f'exit code {done.returncode}'}")
    return done


def last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def sbatch(script: str, options: Sequence[str], *, cwd: str | None = None) -> tuple[str, str | None]:
    """Submit a script (given as text on stdin) and return (job id, cluster or None)."""
    exe = require("sbatch")
    try:
        done = subprocess.run(
            [exe, "--parsable", *options],
            input=script,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=TIMEOUT_S,
            cwd=cwd,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise SlurmError(f"sbatch did not answer within {TIMEOUT_S:.0f} s") from None
    except OSError as exc:
        raise SlurmError(f"sbatch: cannot run: {exc.strerror or exc}") from None
    if done.returncode != 0:
        raise SlurmError(
            f"sbatch refused the job: {last_line(done.stderr) or f'exit code {done.returncode}'}"
        )
    answer = last_line(done.stdout)
    job_id, _, cluster = answer.partition(";")
    if not is_digits(job_id):
        raise SlurmError(f"sbatch printed {answer!r}, not a job id")
    return job_id, cluster or None


def parse_record(line: str) -> dict[str, str]:
    """`scontrol show … -o` prints `Key=Value Key=Value`; a value may hold spaces (Reason,
    Command), so a value runs until the next ` Key=`."""
    return dict(re.findall(r"(\S+?)=(.*?)(?= \S+?=|$)", line.strip()))


def scontrol_job(job_id: str) -> list[dict[str, str]] | None:
    """`scontrol show job -o`: one record per job (several for an array), None when unknown."""
    done = run(["scontrol", "show", "job", "-o", job_id], check=False)
    if done.returncode != 0:
        if "invalid job id" in done.stderr.lower():
            return None
        raise SlurmError(f"scontrol show job {job_id} failed: {last_line(done.stderr)}")
    records = [parse_record(line) for line in done.stdout.splitlines() if line.strip()]
    return records or None


SACCT_FIELDS = ("JobID", "JobName", "State", "ExitCode", "Elapsed", "NNodes", "NodeList", "Partition")


def sacct(job_id: str) -> list[dict[str, str]] | None:
    """sacct's allocation records of the job, with `--duplicates` so that every run of a requeued
    job is there; None when accounting is not configured here."""
    if shutil.which("sacct") is None:
        return None
    done = run(
        [
            "sacct",
            "-j",
            job_id,
            "--duplicates",
            "-X",
            "-n",
            "-P",
            "-o",
            ",".join(SACCT_FIELDS),
        ],
        check=False,
    )
    if done.returncode != 0:
        # "Slurm accounting storage is disabled", no slurmdbd, no configuration: no accounting.
        return None
    rows = []
    for line in done.stdout.splitlines():
        values = line.split("|")
        if len(values) == len(SACCT_FIELDS):
            rows.append(dict(zip(SACCT_FIELDS, values, strict=True)))
    return rows


STEP_FIELDS = (*SACCT_FIELDS, "Start", "End")


def sacct_jobs(job_ids: Sequence[str]) -> list[dict[str, str]] | None:
    """sacct's records of many jobs in one call: every run of each job (`--duplicates`), each
    followed by its steps (`123.batch`, `123.0` …), in sacct's order; None without accounting."""
    if not job_ids or shutil.which("sacct") is None:
        return None if shutil.which("sacct") is None else []
    done = run(
        ["sacct", "-j", ",".join(job_ids), "--duplicates", "-n", "-P", "-o", ",".join(STEP_FIELDS)],
        check=False,
    )
    if done.returncode != 0:
        return None
    rows = []
    for line in done.stdout.splitlines():
        values = line.split("|")
        if len(values) == len(STEP_FIELDS):
            rows.append(dict(zip(STEP_FIELDS, values, strict=True)))
    return rows


def scontrol_jobs() -> list[dict[str, str]]:
    """`scontrol show job -o` without an id: every job the controller still holds, one call."""
    done = run(["scontrol", "show", "job", "-o"], check=False)
    if done.returncode != 0:
        reason = last_line(done.stderr) or f"exit code {done.returncode}"
        raise SlurmError(f"scontrol show job failed: {reason}")
    return [parse_record(line) for line in done.stdout.splitlines() if line.strip() and "=" in line]


def unavailable_nodes(node_lists: Sequence[str]) -> dict[str, tuple[str, str]]:
    """Of the nodes in these node lists (`n[0-3]` expressions), those Slurm has down, drained,
    failing or not responding now, with their state and reason: one sinfo for all of them."""
    if not node_lists:
        return {}
    done = run(["sinfo", "-h", "-N", "-n", ",".join(node_lists), "-o", "%N|%T|%E"], check=False)
    return parse_unavailable(done.stdout)


def parse_unavailable(text: str) -> dict[str, tuple[str, str]]:
    """The nodes of sinfo's `%N|%T|%E` lines that jobs cannot use now."""
    found = {}
    for line in text.splitlines():
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
    """State and reason of the jobs Slurm still holds in its queue, by job id."""
    if not job_ids:
        return {}
    done = run(["squeue", "-h", "-j", ",".join(job_ids), "-o", "%i|%T|%r"], check=False)
    found = {}
    for line in done.stdout.splitlines():
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
    done = run([*argv, job_id], check=False)
    if done.returncode != 0 or "invalid job id" in done.stderr.lower():
        raise SlurmError(
            f"scancel {job_id} failed: {last_line(done.stderr) or f'exit code {done.returncode}'}"
        )
