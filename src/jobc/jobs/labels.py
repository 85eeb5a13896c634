"""Who wrote a log line, and what it says once every prefix is taken off.

Launchers and loggers put their own prefixes in front of a program's lines, and a job's log can
carry several at once: `srun --label`'s task number (`3: `), a host name (pdsh, as DeepSpeed's
multi-node launcher runs it: `node7: `), torchrun's `--tee` and log-line-prefix templates
(`[default1]:` names the local rank, `[rank5]:` the global one, as jobc's compiled script asks),
torch's own `[rank5]:` on the lines of an uncaught exception, accelerate's `[host:1]:`,
Lightning's `[rank: 1]`, `[stdout]`/`[stderr]` tags, ANSI colours, timestamps and logging
headers (`[2024-05-01 12:00:00,123] [INFO] [launch.py:315:sigkill_handler] `, glog's
`E1124 02:24:18.145000 9823 api.py:1002] `, `INFO:root:`). `parse` strips all of them and keeps
what they say: the task, the global rank, the local rank and the node, each only when a prefix
names it (a local rank is never taken for a global one).

Every number read here is ASCII digits of bounded length, so a 5000-digit label or a superscript
`²` is text, never an `int()` that fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# ANSI escape sequences (colours, cursor moves) and other C0 controls but tab.
_ANSI = re.compile(
    r"\x1b\[[0-9;?]{0,32}[ -/]{0,4}[@-~]|\x1b\][^\x07\x1b]{0,256}(?:\x07|\x1b\\)?|\x1b[@-_]"
    r"|[\x00-\x08\x0b-\x1f\x7f]"
)
_N = "[0-9]{1,9}"
_SRUN = re.compile(rf"^ {{0,12}}({_N}): ")
_HOST = re.compile(r"^([A-Za-z][A-Za-z0-9_.\-]{0,62}): ")
_BRACKET = re.compile(
    rf"^\[(?:(rank|Rank|RANK) ?:? ?({_N})|([A-Za-z_]{{1,32}}?)({_N})|([A-Za-z0-9_.\-]{{1,63}}):({_N}))\]:? ?"
)
# OpenMPI's --tag-output: `[1,3]<stderr>:` names the job and the global (MPI) rank
_MPI = re.compile(rf"^\[[0-9]{{1,9}},({_N})\]<(?:stdout|stderr|stddiag)>: ?")
_TAG = re.compile(r"^\[(?:stdout|stderr|STDOUT|STDERR)\] ?|^(?:stdout|stderr): ")
_TIME = re.compile(
    r"^\[?[0-9]{4}-[0-9]{2}-[0-9]{2}[ T_][0-9]{2}:[0-9]{2}:[0-9]{2}(?:[.,][0-9]{1,9})?"
    r"(?:Z|[+-][0-9]{2}:?[0-9]{2})?\]?"
    r"(?: ?[-|:] ?| |\t)"
)
_LEVEL = re.compile(r"^\[?(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL|FATAL)\]?(?::|\s)\s{0,8}")
_WHERE = re.compile(r"^\[[A-Za-z0-9_./\-]{1,80}\.py:[0-9]{1,6}(?::[A-Za-z0-9_<>]{1,80})?\] ?")
_GLOG = re.compile(
    r"^\[?[IWEF](?:[0-9]{4} [0-9:.]{8,24}(?: {1,8}[0-9]{1,10})?)? [A-Za-z0-9_./\-]{1,200}:[0-9]{1,6}\] ?"
)
_PYLOG = re.compile(r"^(?:INFO|WARNING|ERROR|DEBUG|CRITICAL):[A-Za-z0-9_.]{1,80}:")
# vLLM's logger after its level: `08-19 21:33:11 worker_base.py:386] `, newer `[core.py:330] `
_VLLM = re.compile(
    r"^[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,6})? "
    r"\[?[A-Za-z0-9_./\-]{1,80}\.py:[0-9]{1,6}\] ?"
)
# Ray's Python logger after its level (`worker.py:1829 -- `) and its C++ logger
# (`[2025-12-07 09:57:19,206 E 393463 393463] (raylet) node_manager.cc:3277: `)
_RAYLOG = re.compile(
    r"^[A-Za-z0-9_./\-]{1,80}\.py:[0-9]{1,6} -- "
    r"|^\[[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:,.]{8,16} [IWEFD] [0-9]{1,10} [0-9]{1,10}\] "
    r"(?:\([a-z_]{1,40}\) )?[A-Za-z0-9_./\-]{1,80}\.(?:cc|h):[0-9]{1,6}: "
)
# the kernel's timestamp (dmesg): `[ 1843.308145] `
_DMESG = re.compile(r"^\[ {0,8}[0-9]{1,9}\.[0-9]{6}\] ")
# A Ray actor's or vLLM worker's prefix: `(RayWorkerWrapper pid=4139, ip=128.1.219.180) `,
# `(VllmWorker rank=5 pid=3073) `, `(raylet) `; Ray colours it, and a paste often keeps the
# colour codes without their escape character (`[36m(...)[0m `).
_ACTOR = re.compile(
    r"^(?:\[[0-9;]{1,8}m){0,3}\("
    r"(?:(?:[A-Za-z_][A-Za-z0-9_.:<>\-]{0,80} (?:[A-Za-z][A-Za-z0-9_]{0,20} )?)?"
    r"(?:rank=(?P<rank>[0-9]{1,9}) )?pid=[0-9]{1,10}|raylet|gcs_server|autoscaler|monitor)"
    r"(?:, ip=(?P<ip>[0-9A-Fa-f.:]{3,45}))?\)"
    r"(?:\[[0-9;]{1,8}m){0,3} ?"
)
# UCX's prefix: `[host:pid:tid]`, `[host:pid :0:tid]`, after an optional `[seconds.micros] `
# (a pasted line may have lost its opening bracket)
_UCX = re.compile(
    r"^(?:\[[0-9]{9,11}\.[0-9]{6}\] {1,4})?\[?(?P<host>[A-Za-z0-9][A-Za-z0-9_.\-]{0,62}):[0-9]{1,10} {0,4}"
    r"(?::[0-9]{1,10}){1,2}\] {0,8}"
)
_NO_NODE = ("0.0.0.0", "127.0.0.1", "::1", "::")
#: more processes than any node runs: a number past it in `[host:N]` is a process id
MAX_LOCAL_RANK = 1024
# Host names that look like words a program would print before a colon are not hosts: a host
# prefix needs a digit or a dash (node12, gpu-a100-03, worker-0) or is localhost.
_WORDISH = re.compile(r"^[A-Za-z_]+$")


@dataclass(frozen=True)
class Line:
    task: int | None  # srun's task number (`srun --label`)
    rank: int | None  # the global rank, when a prefix names it
    local_rank: int | None  # torchrun's default prefix and accelerate's name only the local rank
    text: str  # the line without its prefixes
    node: str | None = None  # a host prefix (pdsh, accelerate)


def _has_control(text: str) -> bool:
    return any((ord(c) < 32 and c != "\t") or c == "\x7f" for c in text)


def parse(raw: str) -> Line:
    """Strip every known prefix of one line (without its newline), keeping what they say."""
    task = rank = local = None
    node: str | None = None
    text = _ANSI.sub("", raw) if _has_control(raw) else raw
    for _ in range(8):
        before = text
        if task is None and (m := _SRUN.match(text)):
            task = int(m.group(1))
            text = text[m.end() :]
        if (m := _ACTOR.match(text)) is not None:
            if m.group("rank") is not None and rank is None:
                rank = int(m.group("rank"))
            ip = m.group("ip")
            if ip is not None and node is None and ip not in _NO_NODE:
                node = ip
            text = text[m.end() :]
            continue
        if node is None and (m := _UCX.match(text)) is not None and not m.group("host").isdigit():
            node = m.group("host")
            text = text[m.end() :]
            continue
        if rank is None and (m := _MPI.match(text)) is not None:
            rank = int(m.group(1))
            text = text[m.end() :]
            continue
        if (m := _BRACKET.match(text)) is not None:
            if m.group(2) is not None:
                rank = int(m.group(2))
            elif m.group(4) is not None:
                name = m.group(3)
                if name.lower() == "rank":
                    rank = int(m.group(4))
                else:
                    local = int(m.group(4))
            elif m.group(6) is not None:
                node = node or m.group(5)
                # accelerate's `[host:1]:` names a local rank; Open MPI's signal report
                # `[host:236649] Signal: …` a process id, which is no rank of any node
                if int(m.group(6)) < MAX_LOCAL_RANK:
                    local = int(m.group(6))
            text = text[m.end() :]
            continue
        for pattern in (_TAG, _RAYLOG, _TIME, _GLOG, _WHERE, _LEVEL, _PYLOG, _VLLM, _DMESG):
            m = pattern.match(text)
            if m is not None and m.end() > 0:
                text = text[m.end() :]
                break
        else:
            m = _HOST.match(text)
            if m is not None and node is None and m.group(1).startswith("slurmstepd-"):
                # some sites name slurmstepd after its node: `slurmstepd-gpu07: error: …`
                node = m.group(1).removeprefix("slurmstepd-") or None
                text = "slurmstepd: " + text[m.end() :]
            elif (
                m is not None
                and node is None
                and _is_host(m.group(1))
                # `NAME: line 62: …` is bash naming its script (the compiled step's jobc-step, a
                # job's run-node1.sh), not a host
                and _SHELL_LINE.match(text, m.end()) is None
            ):
                node = m.group(1)
                text = text[m.end() :]
        if text == before:
            break
    return Line(task, rank, local, text, node)


_SHELL_LINE = re.compile(r"line [0-9]{1,9}: ")


def _is_host(name: str) -> bool:
    if name in ("srun", "slurmstepd", "bash", "sh", "python", "python3", "torchrun"):
        return False
    if name == "localhost":
        return True
    if _WORDISH.match(name) or name.endswith(("Error", "Exception", "Warning")):
        return False
    return any(c.isdigit() or c == "-" for c in name) and not name[0].isdigit()


def rank_of(line: Line, torchrun: bool, per_node: int | None = None) -> int | None:
    """The global rank that wrote the line, when its labels say it.

    A torchrun log names the rank in its prefix (`[rank5]:`); `[default1]:` names only the
    local rank, and which global rank that is depends on the order the nodes arrived at the
    rendezvous, so it is not guessed. In jobc's srun launch, srun's task number is the rank.
    `per_node` is accepted for callers that still pass it; it is not used for arithmetic.
    """
    del per_node
    if line.rank is not None:
        return line.rank
    if torchrun:
        return None
    return line.task
