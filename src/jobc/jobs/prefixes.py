"""Triage's second stage: who wrote a line, and what it says once its prefixes are taken off.

Launchers and loggers put their own fields in front of a program's lines, several at once:
`srun --label`'s task (`3: `), a host (pdsh: `node7: `), torchrun's `[default1]:` (a local rank)
and `[rank5]:` (a global one), accelerate's `[host:1]:`, Lightning's `[rank: 1]`, Open MPI's
`[1,3]<stderr>:`, Ray's and vLLM's `(RayWorker pid=4139, ip=10.0.0.7)`, NCCL's and UCX's
`host:pid:tid`, `[stdout]`/`[stderr]` tags, timestamps (ISO, dmesg's and `dmesg -T`'s), logging
headers and levels (glog's `E0412 10:31:02.123 8123 api.py:869] `, `[INFO]`, `INFO:root:`).

Each known field is a *labeller*: a pattern that recognises it and says what it means (task,
rank, local rank, node, an opaque writer id that keeps one process's traceback together, a
level). Labellers are peeled left to right, in any order and nesting, up to eight layers.

What a fixed list cannot know is inferred per file (`infer`, over a sample of the log's lines):
a column of pasted line numbers (its values follow the physical line numbers: +1 a line), host
prefixes that carry no digit (`master: `, `ubuntu: `) or sit under indentation, as pdsh's do when
a paste indents a block. The inference only adds readings whose structure repeats over the file;
a field seen once is read by the labellers alone.

Every number read is ASCII digits of bounded length, so a 5000-digit label or a superscript `²`
is text, never an `int()` that fails.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from jobc.jobs.normalize import clean

_N = "[0-9]{1,9}"
_SRUN = re.compile(rf"^ {{0,12}}({_N}): ")
_HOST = re.compile(r"^([A-Za-z0-9][A-Za-z0-9_.\-]{0,62}): ")
_INDENTED_HOST = re.compile(r"^\s{1,16}([A-Za-z0-9][A-Za-z0-9_.\-]{0,62}): ")
# older Slurm's slurmstepd logged under its node's name in brackets (`slurmd[curie1713]: error: *** JOB
# 2460227 CANCELLED AT … DUE TO TIME LIMIT ***`, before its lines named the node after `ON`); a
# syslog tag's brackets hold a process id (`slurmd[2211]: `), which starts with no letter
_SLURMD_NODE = re.compile(r"^(?:slurmd|slurmstepd)\[([A-Za-z][A-Za-z0-9_.\-]{0,62})\]: ")
_BRACKET = re.compile(
    rf"^\[(?:(rank|Rank|RANK) ?:? ?({_N})|([A-Za-z_]{{1,32}}?)({_N})|([A-Za-z0-9_.\-]{{1,63}}):({_N}))\]:? ?"
)
# Open MPI's --tag-output: `[1,3]<stderr>:` names the job and the global (MPI) rank
# (horovodrun's Gloo launcher tags `[2]<stderr>:` with the rank alone)
_MPI = re.compile(rf"^\[(?:[0-9]{{1,9}},)?({_N})\]<(?:stdout|stderr|stddiag)>: ?")
# torch's `[rankN]:` under a paste's indentation (a line joined to the one above it kept its space):
# the tag and its colon, never a traceback's code line
_INDENTED_RANK = re.compile(r"^[ \t]{1,8}(?=\[(?:rank|Rank|RANK) ?:? ?[0-9]{1,9}\]:)")
# a bare process index in brackets before a timestamp or a level (`[1] 2019-06-13 01:17:08.886805: E
# …`): which process wrote the line, not which rank (an opaque writer)
_INDEX = re.compile(
    r"^\[([0-9]{1,6})\] (?=[0-9]{4}-[0-9]{2}-[0-9]{2}|[IWEF][0-9]{4} |\[?(?:INFO|WARNING|ERROR)\b)"
)
# a logger's rank field before its separator: ParlAI's `rank:  3 | `, `RANK 3 | `, `rank 3: `
_RANK_FIELD = re.compile(rf"^(?:rank|Rank|RANK):? {{1,4}}({_N}) {{0,2}}[|:] ?")
# PSM3's and Intel MPI's `host:rank1: ` (after an optional `[seconds.nanos] `), `host:rank1.prog: `
_HOST_RANK = re.compile(
    rf"^(?:\[[0-9]{{9,11}}\.[0-9]{{6,9}}\] )?(?P<host>[A-Za-z0-9][A-Za-z0-9_.\-]{{0,62}}):rank(?P<rank>{_N})"
    r"(?:\.[^\s:]{1,80})?: "
)
# a logger's `[host:rank/size]` (ESPnet's distributed training, `[lion15:0/4] 2020-09-05 … INFO:`): the
# node, the global rank and the world's size; read only where the name is a host's and the rank
# is below the size (a progress counter `[epoch:3/10]` is neither)
_HOST_RANK_SIZE = re.compile(
    rf"^\[(?P<host>[A-Za-z][A-Za-z0-9_.\-]{{0,62}}):(?P<rank>{_N})/(?P<size>{_N})\] ?"
)
# Alibaba's ACCL (an NCCL fork) prints `[host][pid:tid][dev][file:line] `
_ACCL = re.compile(
    r"^\[(?P<host>[A-Za-z0-9][A-Za-z0-9_.\-]{0,62})\]\[(?P<pid>[0-9]{1,10}):[0-9]{1,10}\]\[[0-9]{1,4}\]"
    r"(?:\[[A-Za-z0-9_.\-]{1,80}:[0-9]{1,6}\])? "
)
# Open MPI's BTL error header, `[host][[jobfamily,job],rank][file.c:line:function] ` (its
# BTL_ERROR: the node's name, then the process's name, whose last number is its rank in the job)
_OMPI_BTL = re.compile(
    r"^\[(?P<host>[A-Za-z0-9][A-Za-z0-9_.\-]{0,62})\]\[\[[0-9]{1,10},[0-9]{1,10}\],(?P<rank>[0-9]{1,9})\]"
    r"(?:\[[A-Za-z0-9_.\-]{1,80}:[0-9]{1,6}:[A-Za-z0-9_]{1,80}\])? ?"
)
# Cray MPICH's message header: `MPICH ERROR [Rank 11122] [job id 41595204.0] [Thu Aug 14 08:27:11
# 2025] [nid006700] - ` (the rank, Slurm's step, the time, the node), and the older Cray MPT's
# `Rank 3 [Thu Jun 12 10:11:12 2014] [c3-0c0s5n1] `: the node is the host the rank ran on
_CRAY_MPICH = re.compile(
    rf"^(?:MPICH (?P<level>ERROR|WARNING|NOTICE|INFO) \[Rank (?P<rank>{_N})\] \[job id [^\]\s]{{1,40}}\] "
    rf"|Rank (?P<rank2>{_N}) (?=\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ))"
    r"\[[A-Za-z0-9 :.]{8,40}\] \[(?P<host>[A-Za-z0-9][A-Za-z0-9_.\-]{0,62})\](?: -)? "
)
# pdsh's own lines (`pdsh@gpu-node01: gpu-node02: ssh exited with exit code 1`): the host pdsh runs
# on, then the node the message is about (read by the host labeller)
_PDSH_SELF = re.compile(r"^pdsh@[A-Za-z0-9][A-Za-z0-9_.\-]{0,62}: ")
_TAG = re.compile(r"^\[(?:stdout|stderr|STDOUT|STDERR)\] ?|^(?:stdout|stderr): ")
# `grep -n`'s line number glued to the line it found, when a launcher's bracket follows
# (`1129:[default0]:[rank0]: torch.OutOfMemoryError: …`, `17-[rank3]: …` for a line of context):
# a paste of grep's output, whose numbers jump, so that no column of line numbers is inferred.
# srun's label has a blank after its colon (`3: `); a time (`10:31:02`) no bracket after it
_GREP_NUMBER = re.compile(r"^[0-9]{1,9}[:-](?=\[(?:default|rank|Rank|RANK)[ :]?[0-9]{1,9}\]:)")
# a writer's name before its stream tag: `x.nolog [stderr] `, `worker-3/train [stdout] `
# a YARN container's id before its line, as a cluster's log collector writes it
# (`/container_e559_1557431881457_79419_05_000002: `): the writer, one process
_YARN = re.compile(r"^/?(container_(?:e[0-9]{1,6}_)?[0-9]{10,16}_[0-9]{1,10}_[0-9]{1,4}_[0-9]{1,10}): ")
_WRITER_TAG = re.compile(r"^([A-Za-z0-9_./\-]{1,80}) \[(?:stdout|stderr|STDOUT|STDERR)\] ?")
_TIME = re.compile(
    r"^\[?[0-9]{4}-[0-9]{2}-[0-9]{2}[ T_][0-9]{2}:[0-9]{2}:[0-9]{2}(?:[.,][0-9]{1,9})?"
    r"(?:Z|[+-][0-9]{2}:?[0-9]{2})?\]?"
    # (a bracketed time may be glued to the next bracket: `[2021-01-30 08:17:46][0]<stderr>:`)
    r"(?: ?[-|:] ?| |\t|(?<=\])(?=\[))"
)
# a timestamp in CJK lenticular brackets, as a Chinese-locale logger writes it: `【2025-08-21 11:48:44】`
_CJK_TIME = re.compile(r"^【[0-9]{2,4}[-/.年][0-9][0-9 :./\-年月日T]{4,30}】 ?")
# C's asctime() glued to the tag after it, as Horovod's launcher writes its timestamped output
# (`Sat Jan 30 08:17:46 2021[0]<stderr>:`, `{time}[{index}]<{stream}>:`): the time alone is taken
# off here, the tag is read as a tag
_ASCTIME = re.compile(
    r"^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ 0-3][0-9] "
    r"[0-2][0-9]:[0-5][0-9]:[0-6][0-9] [0-9]{4} ?(?=\[)"
)
# `dmesg -T`: `[Mon Nov 27 13:11:44 2023] `
_DMESG_T = re.compile(
    r"^\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} {1,2}[0-9]{1,2} [0-9:]{8} [0-9]{4}\] ?"
)
# syslog's and journalctl's short timestamp (RFC 3164: `Mmm dd hh:mm:ss`, the day space-padded
# or, as journalctl and many log shippers write it, zero-padded): `Dec 03 10:22:16 `; a cloud
# VM's serial console adds its zone (`Dec 17 16:03:58Z `)
_SYSLOG_TIME = re.compile(
    r"^(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ 0-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-6][0-9]"
    r"(?:\.[0-9]{1,6})?(?:Z|[+-][0-9]{2}:?[0-9]{2})? "
)
# ... which a syslog line follows with the host that logged it and the program's tag (RFC 3164:
# `worker4 kernel: `, `gpu07 slurmd[2211]: `): the host is the line's node
_SYSLOG_HOST = re.compile(
    r"(?P<host>[A-Za-z0-9][A-Za-z0-9_.\-]{0,62}) [A-Za-z0-9_.\-/]{1,40}(?:\[[0-9]{1,10}\])?: "
)
# a log collector's host after its time, before torch's rank tag (`2025-03-27 17:31:09.952
# sm228-a100-40g-23 [rank1]:[E327 …]`): the node of that rank
_TIME_HOST = re.compile(r"[ \t]{0,4}(?P<host>[A-Za-z][A-Za-z0-9_.\-]{0,62}) (?=\[[Rr]ank ?[0-9]{1,9}\]:)")
# (a logger that separates its fields with bars, ParlAI's and loguru's, puts one after the level)
_LEVEL = re.compile(r"^\[?(INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL|FATAL)\]?(?::|\s)\s{0,8}(?:\| ?)?")
_WHERE = re.compile(r"^\[[A-Za-z0-9_./\-]{1,80}\.py:[0-9]{1,6}(?::[A-Za-z0-9_<>]{1,80})?\] ?")
_GLOG = re.compile(
    r"^\[?([IWEF])(?:[0-9]{3,4} [0-9:.]{8,24}(?: {1,8}[0-9]{1,10})?)? [A-Za-z0-9_./\-]{1,200}:[0-9]{1,6}\] ?"
)
_PYLOG = re.compile(r"^(INFO|WARNING|ERROR|DEBUG|CRITICAL):[A-Za-z0-9_.]{1,80}:")
# vLLM's logger after its level: `08-19 21:33:11 worker_base.py:386] `, newer `[core.py:330] `
_VLLM = re.compile(
    r"^[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,6})? "
    r"\[?[A-Za-z0-9_./\-]{1,80}\.py:[0-9]{1,6}\] ?"
)
# Ray's Python logger after its level (`worker.py:1829 -- `) and its C++ logger
# (`[2025-12-07 09:57:19,206 E 393463 393463] (raylet) node_manager.cc:3277: `)
_RAYLOG = re.compile(
    r"^[A-Za-z0-9_./\-]{1,80}\.py:[0-9]{1,6} -- "
    r"|^\[[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:,.]{8,16} ([IWEFD]) [0-9]{1,10} [0-9]{1,10}\] "
    r"(?:\([a-z_]{1,40}\) )?[A-Za-z0-9_./\-]{1,80}\.(?:cc|h):[0-9]{1,6}: "
)
# the kernel's timestamp (dmesg): `[ 1843.308145] `
_DMESG = re.compile(r"^\[ {0,8}[0-9]{1,9}\.[0-9]{6}\] ")
_VLLM_TP = re.compile(r"TP([0-9]{1,6})")
# A Ray actor's or vLLM worker's prefix: `(RayWorkerWrapper pid=4139, ip=128.1.219.180) `,
# `(VllmWorker rank=5 pid=3073) `, a named actor's `(model_worker/12 pid=43581, ip=10.0.0.7) `,
# `(raylet) `; Ray colours it, and a paste often keeps the
# colour codes without their escape character (`[36m(...)[0m `).
_ACTOR = re.compile(
    r"^(?:\[[0-9;]{1,8}m){0,3}\("
    r"(?:(?:(?P<actor>[A-Za-z_][A-Za-z0-9_.:<>/\-]{0,80}) (?:(?P<role>[A-Za-z][A-Za-z0-9_]{0,20}) )?)?"
    r"(?:rank=(?P<rank>[0-9]{1,9}) )?pid=(?P<pid>[0-9]{1,10})|raylet|gcs_server|autoscaler|monitor)"
    r"(?:, ip=(?P<ip>[0-9A-Fa-f.:]{3,45}))?\)"
    r"(?:\[[0-9;]{1,8}m){0,3} ?"
)
# UCX's prefix: `[host:pid:tid]`, `[host:pid :0:tid]`, after an optional `[seconds.micros] `
# (a pasted line may have lost its opening bracket)
_UCX = re.compile(
    r"^(?:\[[0-9]{9,11}\.[0-9]{6}\] {1,4})?\[?(?P<host>[A-Za-z0-9][A-Za-z0-9_.\-]{0,62})"
    r":(?P<pid>[0-9]{1,10}) {0,4}"
    r"(?::[0-9]{1,10}){1,2}\] {0,8}"
)
# oneCCL's log header: `2025:05:23-19:04:20:(168955) ` (its time, and the process id: the writer)
_CCL = re.compile(
    r"^[0-9]{4}:[0-9]{2}:[0-9]{2}-[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,9})?:\((?P<pid>[0-9]{1,10})\) "
)
# NCCL's debug prefix: `host:pid:tid [device] `
_NCCL = re.compile(
    r"^(?P<host>[A-Za-z0-9][A-Za-z0-9_.\-]{0,62}):(?P<pid>[0-9]{1,10}):[0-9]{1,10} \[(?P<dev>[0-9]{1,4})\] "
)
# ... which some builds write without the process and thread (`gpu-server320 [5] misc/socket.cc:46
# NCCL WARN …`): read only where NCCL's own words follow, and the name looks like a host's
_NCCL_SHORT = re.compile(
    r"^(?P<host>[A-Za-z][A-Za-z0-9_.\-]{0,62}) \[(?P<dev>[0-9]{1,4})\] "
    r"(?=(?:[A-Za-z0-9_/.]{1,80}:[0-9]{1,6} )?NCCL )"
)
NO_NODE = ("0.0.0.0", "127.0.0.1", "::1", "::")
#: more processes than any node runs: a number past it in `[host:N]` is a process id
MAX_LOCAL_RANK = 1024
# Host names that look like words a program would print before a colon are not hosts: a host
# prefix needs a digit or a dash (node12, gpu-a100-03, worker-0) or is localhost, unless the file
# shows the name as a prefix of many lines (`infer`).
_WORDISH = re.compile(r"^[A-Za-z_]+$")
# a file a program is run from: before a colon it is the program's name for itself
_PROGRAM_FILES = (".py", ".sh", ".bash", ".pl", ".rb", ".js", ".jl", ".r", ".lua", ".exe")
_SHELL_LINE = re.compile(r"line [0-9]{1,9}: ")
_NOT_HOSTS = frozenset(
    {
        "srun",
        "slurmstepd",
        # Slurm's other commands write `sbatch: error: …` as srun does
        "sbatch",
        "salloc",
        "scancel",
        "scontrol",
        "squeue",
        "sacct",
        "sattach",
        "sbcast",
        "sinfo",
        "sstat",
        "sacctmgr",
        "sshare",
        "sprio",
        "sreport",
        "strigger",
        "sdiag",
        "scrontab",
        "bash",
        "sh",
        "zsh",
        "python",
        "python3",
        "torchrun",
        "deepspeed",
        "accelerate",
        "mpirun",
        "error",
        "warning",
        "info",
        "debug",
        "note",
        "hint",
        "usage",
        "epoch",
        "step",
        "loss",
        "stderr",
        "stdout",
        "file",
        "line",
        "traceback",
        "fatal",
        "critical",
        "message",
        "reason",
        "details",
        "cause",
        "key",
        "value",
        "name",
        "type",
        "time",
        "host",
        "rank",
        "exitcode",
        "error_file",
        "what",
        "warn",
        "err",
        "out",
        "log",
        "output",
        "input",
        "result",
        "status",
        "state",
        "job",
        "task",
        "node",
        "world",
        "pid",
        "https",
        "http",
        "ftp",
        "ssh",
        "cuda",
        "nccl",
        "gpu",
        "cpu",
        "mem",
        "memory",
        "train",
        "eval",
        "test",
        "valid",
        "validation",
        "iter",
        "iteration",
        "batch",
        "lr",
        "config",
        "args",
        "jobc",
        "torch",
        "ray",
        "vllm",
        "raylet",
        "pdsh",
        "ucx",
        "mpi",
        "horovod",
        "submitit",
        "colossalai",
    }
)


@dataclass(frozen=True)
class Line:
    task: int | None  # srun's task number (`srun --label`)
    rank: int | None  # the global rank, when a prefix names it
    local_rank: int | None  # torchrun's default prefix and accelerate's name only the local rank
    text: str  # the line without its prefixes
    node: str | None = None  # a host prefix (pdsh, accelerate, NCCL, UCX, Ray's ip=)
    writer: str | None = None  # an opaque writer id (a pid, a named stream): keeps a traceback together
    level: str | None = None  # the logging level a header gave (E, F, ERROR, ...)


@dataclass(frozen=True)
class Model:
    """What `infer` learnt about one file's prefixes."""

    line_offset: int | None = None  # pasted line numbers: value - physical line number
    hosts: frozenset[str] = frozenset()  # prefixes that name nodes though they carry no digit
    indented_hosts: bool = False  # host prefixes under indentation (a paste indented the block)
    indent: int = 0  # spaces a paste put before every line (a markdown code block indented by four)
    # the (node, rank) pairs `[host:rank/size]` prefixes name: a logger that labels only some lines
    # (ESPnet's INFO lines, which the pre-filter skips) still says which nodes wrote the log
    ranked_hosts: frozenset[tuple[str, int]] = frozenset()
    # an editor's relative line numbers above its cursor (vim's `relativenumber`: 12, 11, … 1):
    # value + physical line number
    line_sum: int | None = None


PLAIN = Model()
_NUMBER_COLUMN = re.compile(r"^\s{0,8}([0-9]{1,7})(?:[:|.)\]])?(?:\s|$)")
_HOST_COLUMN = re.compile(r"^(\s{0,16})([A-Za-z0-9][A-Za-z0-9_.\-]{0,62}): \S")


def infer(sample: Iterable[tuple[int, str]]) -> Model:
    """Read the prefix structure that repeats over a sample of (line number, cleaned text)."""
    offsets: Counter[int] = Counter()
    sums: Counter[int] = Counter()
    hosts: Counter[str] = Counter()
    ranked: set[tuple[str, int]] = set()
    nonblank = indented = fences = 0
    least = 64
    for number, text in sample:
        if not text.strip():
            continue
        nonblank += 1
        # (a markdown fence around the paste is no line of it: no number of an editor's)
        fences += text.lstrip().startswith(("```", ":::"))
        if text[:1] == "[" and len(ranked) < 64 and (r := _host_rank_size(text)) is not None:
            ranked.add(r[:2])
        least = min(least, len(text) - len(text.lstrip(" ")))
        m = _NUMBER_COLUMN.match(text)
        if m is not None:
            offsets[int(m.group(1)) - number] += 1
            sums[int(m.group(1)) + number] += 1
        h = _HOST_COLUMN.match(text)
        if h is not None and _host_shaped(h.group(2)):
            hosts[h.group(2)] += 1
            indented += bool(h.group(1))
    offset = None
    if offsets:
        d, count = offsets.most_common(1)[0]
        if count >= 3 and count >= 0.8 * nonblank:
            offset = d
    line_sum = None
    if offset is None and sums:
        d, count = sums.most_common(1)[0]
        if count >= 3 and count >= 0.8 * (nonblank - fences):
            line_sum = d
    repeated = frozenset(name for name, count in hosts.items() if count >= 3)
    many = sum(hosts[n] for n in repeated)
    # every line indented alike: the paste's, taken off before anything is read (a traceback's
    # frames keep the indentation they have beyond it)
    indent = least if nonblank >= 2 and 2 <= least < 64 else 0
    return Model(
        offset,
        repeated,
        indented_hosts=bool(repeated) and indented * 2 >= many,
        indent=indent,
        ranked_hosts=frozenset(ranked),
        line_sum=line_sum,
    )


def _host_rank_size(text: str, hosts: frozenset[str] = frozenset()) -> tuple[str, int, int] | None:
    """The node and rank of a `[host:rank/size]` prefix, and where it ends, where the name is a
    host's and the rank is below the size."""
    m = _HOST_RANK_SIZE.match(text)
    if m is None:
        return None
    host, rank, size = m.group("host"), int(m.group("rank")), int(m.group("size"))
    return (host, rank, m.end()) if rank < size and (is_host(host) or host in hosts) else None


def _host_shaped(name: str) -> bool:
    """A name that may be a host: not a word a program prints before a colon."""
    if name.lower() in _NOT_HOSTS or name.endswith(("Error", "Exception", "Warning")):
        return False
    if name.lower().endswith(_PROGRAM_FILES):
        return False  # a program naming itself (`qdo-srun.py: srun#64: …`), not a host
    if any(c.isdigit() or c == "-" for c in name):
        return not name.isdigit()
    return name.islower() and len(name) >= 3


def split(raw: str, model: Model = PLAIN, number: int | None = None) -> Line:
    """Strip every prefix of one line (without its newline), keeping what they say."""
    text = clean(raw)
    if model.indent and text[: model.indent].isspace():
        text = text[model.indent :]
    if model.line_offset is not None and number is not None:
        m = _NUMBER_COLUMN.match(text)
        if m is not None and int(m.group(1)) - number == model.line_offset:
            text = text[m.end() :]
    elif model.line_sum is not None and number is not None:
        m = _NUMBER_COLUMN.match(text)
        if m is not None and int(m.group(1)) + number == model.line_sum:
            text = text[m.end() :]
    if text[:1] in (" ", "\t"):
        text = _unindent(text)
    fields: dict[str, object] = {}
    for _ in range(8):
        before = text
        text = _peel(text, fields, model)
        if text == before:
            break
    return Line(
        _int(fields.get("task")),
        _int(fields.get("rank")),
        _int(fields.get("local")),
        text,
        _str(fields.get("node")),
        _str(fields.get("writer")),
        _str(fields.get("level")),
    )


#: Prefixes no program's own text starts with: under a paste's indentation (a markdown code block
#: indented by four spaces, a quoted block) they are still the line's prefixes. A traceback's frames
#: and code lines never start with one, so their indentation stays.
_STRONG = (_MPI, _ACTOR, _NCCL, _UCX, _HOST_RANK, _ACCL, _CCL, _CRAY_MPICH, _OMPI_BTL)


def _unindent(text: str) -> str:
    bare = text.lstrip(" \t")
    if len(text) - len(bare) <= 16 and any(p.match(bare) for p in _STRONG):
        return bare
    return text


def _int(v: object) -> int | None:
    return v if isinstance(v, int) else None


def _str(v: object) -> str | None:
    return v if isinstance(v, str) else None


def _peel(text: str, f: dict[str, object], model: Model) -> str:
    """Take one layer of prefix off `text`, recording what it says in `f`."""
    if "task" not in f and (m := _SRUN.match(text)):
        f["task"] = int(m.group(1))
        text = text[m.end() :]
    if (m := _ACTOR.match(text)) is not None:
        _actor(m, f)
        return text[m.end() :]
    if "node" not in f and (m := _HOST_RANK.match(text)) is not None:
        f["node"] = m.group("host")
        f.setdefault("rank", int(m.group("rank")))
        return text[m.end() :]
    if "node" not in f and text[:1] == "[" and (r := _host_rank_size(text, model.hosts)) is not None:
        f["node"] = r[0]
        f.setdefault("rank", r[1])
        return text[r[2] :]
    if "node" not in f and text[:1] in "MR" and (m := _CRAY_MPICH.match(text)) is not None:
        f["node"] = m.group("host")
        f.setdefault("rank", int(m.group("rank") or m.group("rank2")))
        if m.group("level"):
            f.setdefault("level", m.group("level"))
        return text[m.end() :]
    if "node" not in f and text[:1] == "[" and (m := _OMPI_BTL.match(text)) is not None:
        f["node"] = m.group("host")
        f.setdefault("rank", int(m.group("rank")))
        return text[m.end() :]
    if "node" not in f:
        for pattern in (_NCCL, _ACCL, _UCX):
            m = pattern.match(text)
            # (a bracketed time, `[2012-03-01T09:00:00] `, is shaped like UCX's `[host:pid:tid]`)
            if m is not None and not m.group("host").isdigit() and _DATE.match(m.group("host")) is None:
                f["node"] = m.group("host")
                f.setdefault("writer", f"{m.group('host')}:{m.group('pid')}")
                return text[m.end() :]
    if "node" not in f and (m := _NCCL_SHORT.match(text)) is not None and is_host(m.group("host")):
        f["node"] = m.group("host")
        f.setdefault("writer", f"{m.group('host')} [{m.group('dev')}]")
        return text[m.end() :]
    if (m := _CCL.match(text)) is not None:
        f.setdefault("writer", "pid " + m.group("pid"))
        return text[m.end() :]
    if "rank" not in f and (
        (m := _MPI.match(text)) is not None or (m := _RANK_FIELD.match(text)) is not None
    ):
        f["rank"] = int(m.group(1))
        return text[m.end() :]
    if (m := _INDENTED_RANK.match(text)) is not None:
        return text[m.end() :]
    if "writer" not in f and (m := _INDEX.match(text)) is not None:
        f["writer"] = f"[{m.group(1)}]"
        return text[m.end() :]
    if (m := _BRACKET.match(text)) is not None:
        _bracket(m, f)
        return text[m.end() :]
    if not f and text[:1].isdigit() and (m := _GREP_NUMBER.match(text)) is not None:
        return text[m.end() :]
    if "writer" not in f and (m := _PDSH_SELF.match(text)) is not None:
        f["writer"] = "pdsh"
        return text[m.end() :]
    if "writer" not in f and (m := _YARN.match(text)) is not None:
        f["writer"] = m.group(1)  # a YARN container's log line (Hadoop's, Microsoft's PAI)
        return text[m.end() :]
    if (m := _WRITER_TAG.match(text)) is not None:
        f.setdefault("writer", m.group(1))
        host = host_in_name(m.group(1))
        if host is not None:
            f.setdefault("node", host)
        return text[m.end() :]
    for pattern in (
        _TAG,
        _RAYLOG,
        _TIME,
        _ASCTIME,
        _CJK_TIME,
        _SYSLOG_TIME,
        _DMESG_T,
        _GLOG,
        _WHERE,
        _LEVEL,
        _PYLOG,
        _VLLM,
        _DMESG,
    ):
        m = pattern.match(text)
        if m is not None and m.end() > 0:
            if pattern in (_GLOG, _LEVEL, _PYLOG, _RAYLOG) and m.group(1):
                f.setdefault("level", m.group(1))
            if pattern in (_SYSLOG_TIME, _TIME):
                return _after_time(text, m, pattern is _TIME, f)
            return text[m.end() :]
    return _host(text, f, model)


def _after_time(text: str, m: re.Match[str], iso: bool, f: dict[str, object]) -> str:
    """The line past a timestamp (syslog's, or an ISO time), and past the host a line names after
    it: syslog's `host tag: `, a log collector's host before torch's rank tag."""
    if not iso:
        if (h := _SYSLOG_HOST.match(text, m.end())) is not None:
            f.setdefault("node", h.group("host"))
            return text[h.end() :]
        return text[m.end() :]
    if "node" not in f and (h := _TIME_HOST.match(text, m.end())) is not None and is_host(h.group("host")):
        f["node"] = h.group("host")
        return text[h.end() :]
    if (
        text[10:11] == "T"
        and (h := _SYSLOG_HOST.match(text, m.end())) is not None
        and is_host(h.group("host"))
    ):
        # rsyslog's and `journalctl -o short-iso`'s RFC 3339 time before the host and the tag
        # (`2024-12-17T16:03:58.123+00:00 gpu-17 kernel: `): the host is the line's node
        f.setdefault("node", h.group("host"))
        return text[h.end() :]
    return text[m.end() :]


def _actor(m: re.Match[str], f: dict[str, object]) -> None:
    """What a Ray actor's or a vLLM worker's prefix says: its rank, node and process."""
    if m.group("rank") is not None:
        f.setdefault("rank", int(m.group("rank")))
    elif m.group("actor") == "VllmWorker" and (tp := _VLLM_TP.fullmatch(m.group("role") or "")):
        # vLLM names a worker by its place in each parallel group it has more than one of
        # (`VllmWorker TP4`, `VllmWorker PP1 TP4`): with tensor parallelism alone, the TP index
        # is the worker's rank
        f.setdefault("rank", int(tp.group(1)))
    ip = m.group("ip")
    if ip is not None and ip not in NO_NODE:
        f.setdefault("node", ip)
    if m.group("pid") is not None:
        f.setdefault("writer", "pid " + m.group("pid"))


def _bracket(m: re.Match[str], f: dict[str, object]) -> None:
    if m.group(2) is not None:
        f["rank"] = int(m.group(2))
    elif m.group(4) is not None:
        # MPICH's simple PMI client tags its lines with its PMI rank, the MPI world rank: `[cli_3]: `
        if m.group(3).lower() in ("rank", "cli_"):
            f["rank"] = int(m.group(4))
        else:
            f["local"] = int(m.group(4))
    elif m.group(6) is not None:
        f.setdefault("node", m.group(5))
        # accelerate's `[host:1]:` names a local rank; Open MPI's signal report
        # `[host:236649] Signal: …` a process id, which is no rank of any node
        if int(m.group(6)) < MAX_LOCAL_RANK:
            f["local"] = int(m.group(6))
        else:
            f.setdefault("writer", f"{m.group(5)}:{m.group(6)}")


def _host(text: str, f: dict[str, object], model: Model) -> str:
    if (
        "node" not in f
        and text[:1] == "s"
        and (m := _SLURMD_NODE.match(text)) is not None
        and is_host(m.group(1))
    ):
        f["node"] = m.group(1)
        return "slurmstepd: " + text[m.end() :]
    m = _HOST.match(text)
    if m is None and model.indented_hosts:
        m = _INDENTED_HOST.match(text)
    if m is None or "node" in f:
        return text
    name = m.group(1)
    if name.startswith("slurmstepd-"):
        # some sites name slurmstepd after its node: `slurmstepd-gpu07: error: …`
        f["node"] = name.removeprefix("slurmstepd-") or None
        return "slurmstepd: " + text[m.end() :]
    # `NAME: line 62: …` is bash naming its script (the compiled step's jobc-step, a job's
    # run-node1.sh), not a host
    if (_prefix_host(name) or name in model.hosts) and _SHELL_LINE.match(text, m.end()) is None:
        f["node"] = name
        return text[m.end() :]
    return text


def _prefix_host(name: str) -> bool:
    """A name before a colon at a line's start that is a host by itself: numbered (`gpu-node07:`)
    or with a domain's dot. One with a dash and neither is as often a program naming itself
    (`flux-job: …`, `nvidia-smi: …`); it is a host when the log names it as one elsewhere."""
    return is_host(name) and (any(c.isdigit() for c in name) or "." in name)


#: A node's name as clusters number them: a letter, then letters, digits and dashes, ending in a
#: digit (`cn-d004`, `gpu12`, `nid005059`).
_NUMBERED_HOST = re.compile(r"^[A-Za-z][A-Za-z0-9\-]{0,62}[0-9]$")


def host_in_name(name: str) -> str | None:
    """The node a writer's dotted name holds (`bench.cn-d004`, `gpu12.cluster.org`): its first part
    shaped like a numbered node's name, or None (`x.nolog`, `worker-3/train`)."""
    for part in name.split(".")[:8]:
        if _NUMBERED_HOST.match(part):
            return part
    return None


#: A date where a prefix's host would be: a time, no host.
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def is_host(name: str) -> bool:
    if name in ("srun", "slurmstepd", "bash", "sh", "python", "python3", "torchrun"):
        return False
    if name == "localhost":
        return True
    if _WORDISH.match(name) or name.endswith(("Error", "Exception", "Warning")):
        return False
    if name.lower().endswith(_PROGRAM_FILES):
        return False  # a program naming itself (`qdo-srun.py: srun#64: …`), not a host
    return any(c.isdigit() or c == "-" for c in name) and not name[0].isdigit()
