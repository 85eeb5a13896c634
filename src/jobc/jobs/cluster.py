"""Ask the live cluster what it is: `scontrol show config|partition|node`, and accounting's
accounts and QOS (`sacctmgr`) when it answers.

One call per command, whatever is linted or profiled afterwards. Failures are `SlurmError`s
with one line: no scontrol on this machine, a controller that does not answer.
"""

from __future__ import annotations

import shutil

from jobc.jobs import slurm
from jobc.spec.slurmfacts import ClusterFacts, build, parse_names


def _scontrol(*what: str) -> str:
    done = slurm.run(["scontrol", "show", *what], check=False)
    if done.returncode != 0:
        reason = slurm.last_line(done.stderr) or f"exit code {done.returncode}"
        raise slurm.SlurmError(f"scontrol show {what[0]} failed: {reason}")
    return done.stdout


def _sacctmgr(entity: str, column: str) -> frozenset[str] | None:
    """Names of one kind of accounting record; None when accounting does not answer."""
    if shutil.which("sacctmgr") is None:
        return None
    try:
        done = slurm.run(["sacctmgr", "-n", "-P", "show", entity, f"format={column}"], check=False)
    except slurm.SlurmError:
        return None
    if done.returncode != 0:
        return None
    return parse_names(done.stdout)


def read(*, accounting: bool = True) -> ClusterFacts:
    """The cluster's partitions, nodes and configuration (and, with `accounting`, the accounts
    and QOS that sacctmgr knows)."""
    slurm.require("scontrol")
    config = _scontrol("config")
    # --all: hidden partitions too (a user may be allowed in one); one line a record
    partitions = _scontrol("partition", "-o", "--all")
    nodes = _scontrol("node", "-o", "--all")
    accounts = qos = None
    if accounting and "accounting_storage/none" not in config:
        accounts = _sacctmgr("account", "account")
        qos = _sacctmgr("qos", "name") if accounts is not None else None
    return build(partitions, nodes, config, accounts=accounts, qos=qos)
