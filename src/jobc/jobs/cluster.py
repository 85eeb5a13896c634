"""Ask the live cluster what it is: `scontrol show config|partition|node`, and accounting's
accounts and QOS (`sacctmgr`) when it answers.

One call per command, whatever is linted or profiled afterwards, each read a line at a time as
Slurm prints it. Failures are `SlurmError`s with one line: no scontrol on this machine, a
controller that does not answer.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable
from typing import TypeVar

from jobc.jobs import slurm
from jobc.spec.slurmfacts import (
    ClusterFacts,
    assemble,
    parse_config,
    parse_names,
    parse_nodes,
    parse_partitions,
)

T = TypeVar("T")


def _scontrol(what: tuple[str, ...], parse: Callable[[Iterable[str]], T]) -> T:
    with slurm.output(["scontrol", "show", *what], check=False) as done:
        if done.returncode != 0:
            reason = slurm.last_line(done.stderr) or f"exit code {done.returncode}"
            raise slurm.SlurmError(f"scontrol show {what[0]} failed: {reason}")
        return parse(done.lines())


def _sacctmgr(entity: str, column: str) -> frozenset[str] | None:
    """Names of one kind of accounting record; None when accounting does not answer."""
    if shutil.which("sacctmgr") is None:
        return None
    try:
        with slurm.output(["sacctmgr", "-n", "-P", "show", entity, f"format={column}"], check=False) as done:
            return parse_names(done.lines()) if done.returncode == 0 else None
    except slurm.SlurmError:
        return None


def read(*, accounting: bool = True) -> ClusterFacts:
    """The cluster's partitions, nodes and configuration (and, with `accounting`, the accounts
    and QOS that sacctmgr knows)."""
    slurm.require("scontrol")
    config = _scontrol(("config",), parse_config)
    # --all: hidden partitions too (a user may be allowed in one); one line a record
    partitions = _scontrol(("partition", "-o", "--all"), parse_partitions)
    nodes = _scontrol(("node", "-o", "--all"), parse_nodes)
    accounts = qos = None
    if accounting and "accounting_storage/none" not in config.get("AccountingStorageType", ""):
        accounts = _sacctmgr("account", "account")
        qos = _sacctmgr("qos", "name") if accounts is not None else None
    return assemble(partitions, nodes, config, accounts=accounts, qos=qos)
