"""The user's ledger: every job this user submitted, whichever directory its spec was in, so
that `jobc status`, `logs`, `cancel` and `triage` find a job from any directory.

`jobc submit` writes each entry twice: beside the spec (the project's ledger, `.jobc/`) and here,
in the user's state directory (`$XDG_STATE_HOME/jobc/ledger`, by default
`~/.local/state/jobc/ledger`), under the cluster's name, since two clusters hand out the same job
ids. An entry here is the same file as the project's, read with the same checks.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from jobc.jobs import ledger

# The directory of a job whose cluster is not known (sbatch named none and Slurm did not say).
UNNAMED = "default"
_SAFE = re.compile(r"[A-Za-z0-9._-]{1,64}\Z")


def root(env: Mapping[str, str] | None = None) -> Path:
    """`$XDG_STATE_HOME/jobc/ledger`, or `~/.local/state/jobc/ledger` when that is unset or not an
    absolute path (the XDG Base Directory rules)."""
    environ = os.environ if env is None else env
    state = environ.get("XDG_STATE_HOME", "")
    base = Path(state) if state and os.path.isabs(state) else Path.home() / ".local" / "state"
    return base / "jobc" / "ledger"


def directory(cluster: str | None, env: Mapping[str, str] | None = None) -> Path:
    """The directory of one cluster's jobs: its name, when it is a plain name, else `default`."""
    name = cluster if cluster is not None and _SAFE.match(cluster) and cluster not in (".", "..") else UNNAMED
    return root(env) / name


def record(entry: ledger.Entry, env: Mapping[str, str] | None = None) -> Path:
    """Write the entry (atomically, as the project's ledger does); raises OSError."""
    return ledger.write(directory(entry.cluster, env), entry)


def clusters(env: Mapping[str, str] | None = None) -> list[Path]:
    """The cluster directories the user ledger has, by name."""
    base = root(env)
    if not base.is_dir():
        return []
    return sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith("."))


def find(job_id: str, cluster: str | None = None, env: Mapping[str, str] | None = None) -> list[ledger.Entry]:
    """The entries recorded for a job id: the given cluster's only, when one is given, else every
    cluster's (more than one when two clusters gave out the same id)."""
    places = [directory(cluster, env)] if cluster is not None else clusters(env)
    found = []
    for place in places:
        entry = ledger.find(place, job_id)
        if entry is not None:
            found.append(entry)
    return found


def entries(env: Mapping[str, str] | None = None) -> Iterator[ledger.Entry | ledger.LedgerError]:
    """Every entry of every cluster, each cluster's oldest job first."""
    for place in clusters(env):
        yield from ledger.entries(place)


def cluster_name() -> str | None:
    """The name of the cluster this machine's Slurm talks to (`ClusterName` of `scontrol show
    config`), or None when Slurm does not say."""
    from jobc.jobs import slurm

    try:
        done = slurm.run(["scontrol", "show", "config"], check=False)
    except slurm.SlurmError:  # NotSlurm too: no Slurm here
        return None
    for line in done.stdout.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip() == "ClusterName":
            name = value.strip()
            return name if _SAFE.match(name) else None
    return None


def locate(
    directory: Path, job_id: str, env: Mapping[str, str] | None = None
) -> tuple[Path, ledger.Entry | None]:
    """Where a job is recorded, and its entry: the project's ledger `directory` first, then the
    user's (of this cluster, when two clusters gave out the id; else the latest submitted).
    `(directory, None)` when neither has it."""
    entry = ledger.find(directory, job_id)
    if entry is not None:
        return directory, entry
    found = find(job_id, env=env)
    if not found:
        return directory, None
    if len({e.cluster for e in found}) > 1:
        here = cluster_name()
        mine = [e for e in found if e.cluster == here]
        found = mine or found
    chosen = max(found, key=lambda e: e.submitted)
    return ledger_path_of(chosen, env), chosen


def ledger_path_of(entry: ledger.Entry, env: Mapping[str, str] | None = None) -> Path:
    """The user-ledger directory an entry is kept in."""
    return directory(entry.cluster, env)


def recent(
    limit: int, env: Mapping[str, str] | None = None
) -> tuple[list[ledger.Entry], list[ledger.LedgerError], int]:
    """The `limit` most recently submitted entries of the user ledger (oldest first), the
    entries that could not be read, and how many entries there are in all."""
    good: list[ledger.Entry] = []
    bad: list[ledger.LedgerError] = []
    for item in entries(env):
        if isinstance(item, ledger.LedgerError):
            bad.append(item)
        else:
            good.append(item)
    good.sort(key=lambda e: e.submitted)
    return good[-limit:], bad, len(good)
