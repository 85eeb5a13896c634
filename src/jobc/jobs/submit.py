"""Submit a compiled script with sbatch and record it in the ledger.

Takes a linted spec's context (the command refuses specs with errors before this) and gives the
ledger entry of the submitted job. The log directory is created first: Slurm opens `--output`
before the script runs and does not create directories, so a missing one loses the whole log.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from jobc.jobs import ledger, slurm, userledger

if TYPE_CHECKING:
    from jobc.spec.context import Context


class SubmitError(Exception):
    """The job could not be submitted; one line."""


def log_pattern(ctx: Context, logs: str | None, submit_dir: Path) -> str:
    """The job's --output file with the job name filled in; %j, %A and %a are Slurm's to fill."""
    sweep = ctx.spec.sweep
    array = ctx.spec.slurm.array is not None or (sweep is not None and bool(sweep.values))
    if logs is None:
        return str(submit_dir / ("slurm-%A_%a.out" if array else "slurm-%j.out"))
    pattern = "%x-%A_%a.out" if array else "%x-%j.out"
    directory = Path(logs)
    if not directory.is_absolute():
        directory = submit_dir / directory
    return str(directory / pattern.replace("%x", ctx.spec.name))


def expand_log(pattern: str, job_id: str) -> str:
    """The log of one job or array task; `123` of an array is its task 0's log's siblings."""
    head, _, task = job_id.partition("_")
    return pattern.replace("%j", job_id).replace("%A", head).replace("%a", task or "0")


def git_commit(spec: Path) -> tuple[str | None, bool]:
    """The commit of the spec's repository and whether the spec differs from it.

    Only `git rev-parse` is run, and the comparison is made here: `git status` would refresh the
    index, which runs what the repository's own configuration names (core.fsmonitor, a clean
    filter of .gitattributes), so submitting a spec from an unpacked archive or a clone could run
    its commands."""
    git = shutil.which("git")
    if git is None:
        return None, False
    path = spec.resolve()
    head = _rev_parse(git, path.parent, "HEAD")
    if head is None:
        return None, False
    committed = _rev_parse(git, path.parent, f"HEAD:./{path.name}")
    try:
        data = path.read_bytes()
    except OSError:
        return head, True
    # a blob's id: the hash of its header and content (SHA-256 in a repository of 64-digit ids)
    digest = hashlib.sha256 if len(head) == 64 else hashlib.sha1
    blob = digest(b"blob %d\0" % len(data) + data).hexdigest()
    return head, committed != blob


def _rev_parse(git: str, where: Path, name: str) -> str | None:
    try:
        done = subprocess.run(
            [git, "-c", "core.fsmonitor=false", "-C", str(where), "rev-parse", "--verify", "-q", name],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    value = done.stdout.strip()
    return value if done.returncode == 0 and value else None


def submit(
    ctx: Context,
    spec_path: Path,
    script: str,
    logs: str | None,
    ledger_dir: Path,
    *,
    after: Sequence[str] = (),
    sweep: Sequence[dict[str, object]] = (),
    warn: Callable[[str], None] | None = None,
) -> ledger.Entry:
    """Create the log directory, sbatch the script, write the ledger entry. ``warn`` hears what
    went wrong around a submission that happened (by default, on stderr): sbatch's exit code
    after it printed the job id, a job id the ledger holds already."""
    warn = warn or _stderr
    submit_dir = Path.cwd()
    pattern = log_pattern(ctx, logs, submit_dir)
    try:
        Path(pattern).parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SubmitError(
            f"cannot create the log directory {Path(pattern).parent}: {exc.strerror or exc}"
        ) from None
    options = []
    if after:
        dependency = "afterok:" + ":".join(after)
        if ctx.spec.slurm.dependency:
            dependency += "," + ctx.spec.slurm.dependency
        options.append(f"--dependency={dependency}")
    job_id, cluster, warnings = slurm.sbatch(script, options, cwd=str(submit_dir))
    for warning in warnings:
        warn(warning)
    # the user's ledger keeps jobs by cluster, since clusters hand out the same ids
    cluster = cluster or userledger.cluster_name()
    commit, dirty = git_commit(spec_path)
    entry = ledger.Entry(
        job_id=job_id,
        spec=str(spec_path.resolve()),
        spec_sha256=hashlib.sha256(spec_path.read_bytes()).hexdigest(),
        script=script,
        submitted=datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        name=ctx.spec.name,
        cluster=cluster,
        partition=ctx.spec.slurm.partition,
        git_commit=commit,
        git_dirty=dirty,
        log=pattern,
        submit_dir=str(submit_dir),
        after=list(after),
        array=ctx.spec.slurm.array or _sweep_array(ctx),
        sweep=[dict(item) for item in sweep],
    )
    earlier = ledger.recorded(ledger_dir, job_id)
    try:
        path = ledger.write(ledger_dir, entry)
    except OSError as exc:
        raise SubmitError(
            f"job {job_id} was submitted, but its ledger entry could not be written to {ledger_dir}: "
            f"{exc.strerror or exc}"
        ) from None
    if earlier:
        warn(_reused(job_id, earlier[-1], path))
    try:
        userledger.record(entry)
    except OSError as exc:
        # the job and the project's entry stand; only finding it from elsewhere is lost
        warn(
            f"job {job_id}: not recorded in the user ledger {userledger.root()} "
            f"({exc.strerror or exc}); jobc finds it from {ledger_dir.parent} only"
        )
    return entry


def _reused(job_id: str, before: ledger.Entry, path: Path) -> str:
    where = f" on cluster {before.cluster}" if before.cluster else ""
    return (
        f"job id {job_id} is in the ledger already (submitted {before.submitted}{where} from "
        f"{before.spec}): Slurm handed it out again (its job ids started over, or another cluster "
        f"shares this ledger); both entries are kept, this one as {path.name}"
    )


def _stderr(message: str) -> None:
    print(f"jobc submit: warning: {message}", file=sys.stderr)


def _sweep_array(ctx: Context) -> str | None:
    from jobc.compile.sweep import array_value

    sweep = ctx.spec.sweep
    return array_value(sweep) if sweep is not None and sweep.values else None
