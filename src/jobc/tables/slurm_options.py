"""Slurm's option grammar for sbatch and srun: names, short letters, which take a value.

Read by the compiler (which options `slurm.extra` may name, and which the spec states itself),
by the script reader (how an `#SBATCH` line or an srun command splits into options) and by the
rules (what a directive is called in the spec). One table, so an option learned for one of them is
known to all.
"""

from __future__ import annotations

from jobc.tables._later import later

# every long option sbatch 22.05.8 has, as its getopt names them when a prefix is ambiguous (`sbatch
# --n`, tried: "option '--n' is ambiguous; possibilities: '--network' '--nice' …"); a prefix is
# judged against these and the table's options of later versions together
SBATCH_22_05 = frozenset(
    [
        "account",
        "acctg-freq",
        "array",
        "batch",
        "bb",
        "bbf",
        "begin",
        "chdir",
        "cluster",
        "cluster-constraint",
        "clusters",
        "comment",
        "constraint",
        "container",
        "context",
        "contiguous",
        "core-spec",
        "cores-per-socket",
        "cpu-freq",
        "cpus-per-gpu",
        "cpus-per-task",
        "deadline",
        "delay-boot",
        "dependency",
        "distribution",
        "error",
        "exclude",
        "exclusive",
        "export",
        "export-file",
        "extra-node-info",
        "get-user-env",
        "gid",
        "gpu-bind",
        "gpu-freq",
        "gpus",
        "gpus-per-node",
        "gpus-per-socket",
        "gpus-per-task",
        "gres",
        "gres-flags",
        "help",
        "hint",
        "hold",
        "ignore-pbs",
        "input",
        "job-name",
        "kill-on-invalid-dep",
        "licenses",
        "mail-type",
        "mail-user",
        "mcs-label",
        "mem",
        "mem-bind",
        "mem-per-cpu",
        "mem-per-gpu",
        "mincpus",
        "network",
        "nice",
        "no-kill",
        "no-requeue",
        "nodefile",
        "nodelist",
        "nodes",
        "ntasks",
        "ntasks-per-core",
        "ntasks-per-gpu",
        "ntasks-per-node",
        "ntasks-per-socket",
        "ntasks-per-tres",
        "open-mode",
        "output",
        "overcommit",
        "oversubscribe",
        "parsable",
        "partition",
        "power",
        "prefer",
        "priority",
        "profile",
        "propagate",
        "qos",
        "quiet",
        "reboot",
        "requeue",
        "reservation",
        "signal",
        "sockets-per-node",
        "spread-job",
        "switches",
        "tasks-per-node",
        "test-only",
        "thread-spec",
        "threads-per-core",
        "time",
        "time-min",
        "tmp",
        "uid",
        "usage",
        "use-min-nodes",
        "verbose",
        "version",
        "wait",
        "wait-all-nodes",
        "wckey",
        "wrap",
    ]
)

# sbatch's long options: the 22.05.8 binary's own (above) and those added since (23.02-24.11),
# less four of 22.05.8's that are not options of their own here (`--cluster` and `--context` of a
# federated or multi-cluster site and `--ntasks-per-tres`, which no reader follows yet: written in
# a script, they stay unknown options rather than be read as nothing; and `--tasks-per-node`, read
# as the `--ntasks-per-node` sbatch takes it for, by ALIASES below)
SBATCH_OPTIONS = (SBATCH_22_05 - {"cluster", "context", "ntasks-per-tres", "tasks-per-node"}) | frozenset(
    {"container-id", "extra", "oom-kill-step", "resv-ports", "segment", "tres-bind", "tres-per-task"}
)

# Options the spec states elsewhere: written in `extra` they would contradict the allocation
# check, the launch or the requeue logic. The value says where the spec says it.
SPEC_FIELD = {
    "job-name": "name",
    "nodes": "resources.nodes",
    "ntasks": "resources.nodes and resources.tasks_per_node",
    "ntasks-per-node": "resources.tasks_per_node (derived from launch.mode)",
    "gpus": "resources.gpus_per_node",
    "gpus-per-node": "resources.gpus_per_node",
    "cpus-per-task": "resources.cpus_per_task",
    "mem": "resources.mem",
    "mem-per-gpu": "resources.mem_per_gpu",
    "partition": "slurm.partition",
    "account": "slurm.account",
    "qos": "slurm.qos",
    "time": "slurm.time",
    "exclusive": "slurm.exclusive",
    "constraint": "slurm.constraint",
    "reservation": "slurm.reservation",
    "mail-user": "slurm.mail.user",
    "mail-type": "slurm.mail.type",
    "array": "slurm.array",
    "dependency": "slurm.dependency",
    "output": "storage.logs",
    "open-mode": "nothing (jobc always appends: a requeued job keeps its log)",
    "signal": "resilience.signal and resilience.grace_s",
    "requeue": "resilience.requeue",
    "no-requeue": "resilience.requeue",
}
# The spec field each sbatch option is written from, where one field holds it: the compiler writes
# the option from the field, the script reader reads the option back into it, and a finding on a
# script names the option where a spec's would name the field.
SPEC_PATH: dict[str, tuple[str, ...]] = {
    "job-name": ("name",),
    "nodes": ("resources", "nodes"),
    "ntasks-per-node": ("resources", "tasks_per_node"),
    "gpus-per-node": ("resources", "gpus_per_node"),
    "cpus-per-task": ("resources", "cpus_per_task"),
    "mem": ("resources", "mem"),
    "mem-per-gpu": ("resources", "mem_per_gpu"),
    "time": ("slurm", "time"),
    "partition": ("slurm", "partition"),
    "account": ("slurm", "account"),
    "qos": ("slurm", "qos"),
    "constraint": ("slurm", "constraint"),
    "reservation": ("slurm", "reservation"),
    "array": ("slurm", "array"),
    "dependency": ("slurm", "dependency"),
    "mail-user": ("slurm", "mail", "user"),
    "mail-type": ("slurm", "mail", "type"),
    "exclusive": ("slurm", "exclusive"),
    "output": ("storage", "logs"),
    "signal": ("resilience", "signal"),
    "requeue": ("resilience", "requeue"),
    "chdir": ("launch", "workdir"),
}
# sbatch and srun options that take a count, and the least each may be (sbatch and srun refuse
# less, and anything that is not a whole number)
COUNT_OPTIONS = {
    "nodes": 1,
    "ntasks": 1,
    "ntasks-per-node": 1,
    "ntasks-per-gpu": 1,
    "ntasks-per-socket": 1,
    "ntasks-per-core": 1,
    "cpus-per-task": 1,
    "cpus-per-gpu": 1,
    "gpus-per-task": 0,
    "gpus-per-node": 0,
    "gpus": 0,
}
# Command-line-only options that make no sense inside a script.
CLI_ONLY = frozenset({"help", "usage", "version", "wrap", "parsable", "test-only"})
# pyxis's options (`--container-image`, `--no-container-mount-home`, …) belong to srun; Slurm's own
# OCI options `--container` and `--container-id` are sbatch's.
_PYXIS = later(r"(no-)?container-(?!id\Z)[a-z-]+\Z")


def is_pyxis(name: str) -> bool:
    """Whether a long option name (without `--`) is one of pyxis's srun options."""
    return _PYXIS.match(name) is not None


# every long option srun 22.05.8 has, as its getopt names them when a prefix is ambiguous (`srun
# --n`, tried: "option '--n' is ambiguous; possibilities: '--network' '--nice' …"; `--k` and `--x`,
# which no other option begins, are `--kill-on-bad-exit` and `--x11`)
SRUN_22_05 = frozenset(
    [
        "accel-bind",
        "account",
        "acctg-freq",
        "bcast",
        "bcast-exclude",
        "begin",
        "bb",
        "bbf",
        "cluster-constraint",
        "chdir",
        "cluster",
        "clusters",
        "comment",
        "compress",
        "container",
        "context",
        "contiguous",
        "constraint",
        "core-spec",
        "cores-per-socket",
        "cpu-bind",
        "cpu_bind",
        "cpu-freq",
        "cpus-per-gpu",
        "cpus-per-task",
        "deadline",
        "debugger-test",
        "delay-boot",
        "dependency",
        "disable-status",
        "distribution",
        "epilog",
        "error",
        "exact",
        "exclude",
        "exclusive",
        "export",
        "extra-node-info",
        "gid",
        "gpu-bind",
        "gpu-freq",
        "gpus",
        "gpus-per-node",
        "gpus-per-socket",
        "gpus-per-task",
        "gres",
        "gres-flags",
        "help",
        "het-group",
        "hint",
        "hold",
        "immediate",
        "input",
        "interactive",
        "jobid",
        "job-name",
        "label",
        "licenses",
        "mail-type",
        "mail-user",
        "mcs-label",
        "mem",
        "mem-bind",
        "mem-per-cpu",
        "mem-per-gpu",
        "mincpus",
        "mpi",
        "msg-timeout",
        "multi-prog",
        "network",
        "nice",
        "no-allocate",
        "no-kill",
        "nodefile",
        "nodelist",
        "nodes",
        "ntasks",
        "ntasks-per-core",
        "ntasks-per-gpu",
        "ntasks-per-node",
        "ntasks-per-socket",
        "ntasks-per-tres",
        "open-mode",
        "output",
        "overcommit",
        "overlap",
        "oversubscribe",
        "pack-group",
        "partition",
        "power",
        "prefer",
        "preserve-env",
        "priority",
        "profile",
        "prolog",
        "propagate",
        "pty",
        "qos",
        "quiet",
        "quit-on-interrupt",
        "reboot",
        "relative",
        "reservation",
        "resv-ports",
        "send-libs",
        "signal",
        "slurmd-debug",
        "sockets-per-node",
        "spread-job",
        "switches",
        "threads",
        "task-epilog",
        "task-prolog",
        "tasks-per-node",
        "test-only",
        "thread-spec",
        "threads-per-core",
        "time",
        "time-min",
        "tmp",
        "uid",
        "unbuffered",
        "use-min-nodes",
        "usage",
        "verbose",
        "version",
        "wait",
        "wckey",
        "whole",
        "kill-on-bad-exit",
        "x11",
    ]
)
# srun's long options: 22.05.8's and those added since (23.02-24.11); pyxis's `--container-*`
# are a site's plugin's (is_pyxis)
SRUN_OPTIONS = SRUN_22_05 | frozenset(
    {"container-id", "external-launcher", "oom-kill-step", "segment", "tres-bind", "tres-per-task"}
)


def srun_refuses(name: str) -> str | None:
    """How srun refuses a long option (its name without `--`): `unrecognized` when none of its
    options begins so, `ambiguous` when several do (getopt takes a prefix that names one); None
    when srun takes it. A name pyxis's options may begin with is left to the site's plugins."""
    if name in SRUN_OPTIONS or is_pyxis(name) or name.startswith(("container-", "no-container-")):
        return None
    begun = [o for o in SRUN_OPTIONS if o.startswith(name)]
    if len(begun) == 1:
        return None
    return "ambiguous" if begun else "unrecognized"


# sbatch's short options and the long option each stands for
SBATCH_SHORT = {
    "A": "account",
    "a": "array",
    "B": "extra-node-info",
    "b": "begin",
    "C": "constraint",
    "c": "cpus-per-task",
    "D": "chdir",
    "d": "dependency",
    "e": "error",
    "F": "nodefile",
    "G": "gpus",
    "H": "hold",
    "i": "input",
    "J": "job-name",
    "k": "no-kill",
    "L": "licenses",
    "M": "clusters",
    "m": "distribution",
    "N": "nodes",
    "n": "ntasks",
    "O": "overcommit",
    "o": "output",
    "p": "partition",
    "q": "qos",
    "Q": "quiet",
    "s": "oversubscribe",
    "S": "core-spec",
    "t": "time",
    "V": "version",
    "v": "verbose",
    "W": "wait",
    "w": "nodelist",
    "x": "exclude",
}
# sbatch options that never take a value (pyxis's flags among them: sbatch passes them on)
SBATCH_FLAGS = frozenset(
    {
        "exclusive",
        "requeue",
        "no-requeue",
        "hold",
        "no-kill",
        "overcommit",
        "quiet",
        "oversubscribe",
        "verbose",
        "wait",
        "parsable",
        "test-only",
        "contiguous",
        "spread-job",
        "use-min-nodes",
        "ignore-pbs",
        "container-mount-home",
        "no-container-mount-home",
        "container-remap-root",
        "no-container-remap-root",
        "container-writable",
        "container-readonly",
        "no-container-entrypoint",
        "export-file",
    }
)
# long options whose value is optional: a bare `--exclusive` is a flag, `--exclusive=user` a value
OPTIONAL_VALUE = frozenset({"exclusive", "requeue", "kill-on-invalid-dep"})
# short options whose value is optional (getopt's `k::`): the rest of the word is the value, never
# the next word (`-k=40` gives `=40`, `-k 40` leaves 40 a word of its own)
SHORT_OPTIONAL = frozenset({"k"})
# the values a flag takes when one is written (`--no-kill=off`); any other, sbatch refuses the
# script ("Invalid --no-kill specification", tried with sbatch 22.05: `-k=40`, `-kx`, `--no-kill=40`)
FLAG_VALUES: dict[str, frozenset[str]] = {"no-kill": frozenset({"set", "off", "no"})}
# sbatch's other spellings of an option: `--tasks-per-node` is its `--ntasks-per-node` (sbatch's
# man page: "equivalent to --ntasks-per-node"). `--cpus` and `--job_name` are no spellings: sbatch
# 22.05.8 refuses them (tried: the first is a prefix of two options, the second no option)
ALIASES: dict[str, str] = {"tasks-per-node": "ntasks-per-node"}


def long_options(written: str) -> list[str]:
    """The sbatch long options ``written`` (without `--` and `=…`) stands for, as getopt_long reads
    it: the option itself when one has that name, else every option it is a prefix of. One: that
    option (`--gpus-per-n` is `--gpus-per-node`); several: sbatch refuses the script ("option '--g'
    is ambiguous"); none: an option sbatch does not know (a site's plugin's, pyxis's)."""
    name = ALIASES.get(written, written)
    if not name or name in SBATCH_OPTIONS or name in SBATCH_22_05 or is_pyxis(name):
        return [ALIASES.get(name, name)]
    return sorted({ALIASES.get(o, o) for o in SBATCH_OPTIONS | SBATCH_22_05 if o.startswith(name)})


def long_name(written: str) -> str:
    """The option a long name written in a directive is read as: the one option it stands for, or
    itself (a prefix of several options, or of none, which sbatch refuses or jobc does not know)."""
    found = long_options(written)
    return found[0] if len(found) == 1 else written


# srun options that never take a value (long names, and the short letters of such flags); srun's
# `--wait` takes seconds (`--wait 60`), unlike sbatch's
SRUN_FLAGS = frozenset(
    {
        "label",
        "unbuffered",
        "no-kill",
        "overlap",
        "exclusive",
        "kill-on-bad-exit",
        "quiet",
        "verbose",
        "pty",
        "overcommit",
        "oversubscribe",
        "disable-status",
        "no-allocate",
        "container-mount-home",
        "no-container-mount-home",
        "container-remap-root",
        "no-container-remap-root",
        "container-writable",
        "container-readonly",
        "no-container-entrypoint",
        "container-entrypoint",
        "container-save",
        "whole",
        "exact",
        "test-only",
        "multi-prog",
        "spread-job",
        "use-min-nodes",
        "contiguous",
        "preserve-env",
    }
)
SRUN_SHORT_FLAGS = {
    "l": "label",
    "u": "unbuffered",
    "K": "kill-on-bad-exit",
    "Q": "quiet",
    "v": "verbose",
    "X": "disable-status",
    "Z": "no-allocate",
    "E": "preserve-env",
    "O": "overcommit",
    "s": "oversubscribe",
    "k": "no-kill",
    "H": "hold",
    "I": "immediate",
}
# srun's short options that take a value: sbatch's, and the few srun adds
SRUN_SHORT = {**SBATCH_SHORT, "r": "relative", "T": "threads", "W": "wait"}
