"""What a self-healing job may retry: the classes of `resilience.retry_on`, and why each may or
may not be retried.

An attempt of a job ends with one class: triage's vocabulary (`jobc.jobs.signatures.CLASSES`,
the `class` of `jobc triage --format json`) plus two the job itself names, `preflight` (a node
failed a check before the program started) and `hang` (the runtime's hang watchdog ended the
ranks, exit code 86, or a collective never completed). The spec's `retry_on` lists the ones the
job retries by requeueing itself, without the node the failure names.

Only a fault of a node (or of the fabric between nodes) is worth retrying: the same program on
other nodes has a fair chance. A bug, a wrong spec, a full disk or a limit fails again on any
node, so retrying it only spends the restart budget and the allocation's hours; jobc never
retries those, and rule JC606 says so of a spec that asks for it. The spec (`jobc.spec.model`),
the rule and the job's own judge (`jobc.jobs.heal`) all read this one table; a test checks that
it names every class triage knows.
"""

from __future__ import annotations

#: Classes a job may retry: the node's or the fabric's fault. Each with what it means here.
RETRYABLE: dict[str, str] = {
    "preflight": "a node failed a preflight check (its GPUs, a shared path, the rendezvous port, "
    "the spec's own check command) before the program started",
    "node_fail": "Slurm lost a node of the job (its slurmd stopped answering, the node went down)",
    "gpu_error": "a GPU failed (an ECC or Xid error, fallen off the bus, an illegal access the "
    "driver reports)",
    "nccl_error": "NCCL or the network under it failed (a link, an InfiniBand port)",
    "hang": "the ranks stopped making progress (the runtime's hang watchdog, exit code 86, or a "
    "collective that never completed)",
}

#: Classes a job never retries, each with why: a retry would fail the same way on any node.
NEVER: dict[str, str] = {
    "exception": "a Python exception is the program's: it raises again on any node",
    "cuda_oom": "running out of GPU memory is the program's or the spec's (batch size, "
    "parallelism): it runs out again on any node",
    "host_oom": "running out of host memory is the program's or the spec's (resources.mem, "
    "DataLoader workers): it runs out again on any node",
    "import_error": "a missing module is the environment's: it is missing on every node",
    "missing_program": "a missing program or command is the spec's or the environment's: it is "
    "missing on every node",
    "disk_full": "a full file system is full for every node: free space first",
    "rendezvous": "a rendezvous that never completes is as often a wrong endpoint (the spec's or "
    "the script's MASTER_ADDR, MASTER_PORT, a firewall) as a bad node, and the log does not say "
    "which node it was",
    "port_in_use": "the rendezvous port follows the job id, which a requeue keeps: the next "
    "attempt asks for the same port (set launch.master_port or free the port)",
    "slurm_refused": "Slurm refused what the job asks for: it refuses it again",
    "collective_timeout": "a collective timeout is the hang class here: write hang",
    "signal": "a process ended by a signal names no cause: a retry would be a guess",
    "exit_code": "an exit code alone names no cause: a retry would be a guess",
    "time_limit": "the time limit is the spec's (slurm.time); resilience.requeue already "
    "requeues a job that checkpointed at its limit",
    "preempted": "resilience.requeue already requeues a preempted job that checkpointed, within "
    "the same budget",
    "cancelled": "a cancelled job was cancelled on purpose",
    "unknown": "a cause triage cannot name is never taken for a node's fault: a retry would be a guess",
}

#: Every class `resilience.retry_on` accepts, in the order the schema lists them.
CLASSES: tuple[str, ...] = (*RETRYABLE, *NEVER)

#: What the job calls an attempt whose end it cannot read: never retried as a node's fault.
UNKNOWN = "unknown"


def retryable(cls: str) -> bool:
    return cls in RETRYABLE
