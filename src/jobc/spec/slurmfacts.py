"""What a live Slurm cluster says about itself: partitions, kinds of node, accounts and QOS.

Read from the text of `scontrol show partition -o`, `scontrol show node -o` (one `Key=Value …`
line per record) and `scontrol show config` (`Key = Value` lines), the forms every Slurm since
long before 20.x prints (Debian 12's 22.05 has no `--json` for scontrol). Running those
commands is `jobc.jobs.cluster`'s business; this module only reads their output, so that a
profile and a `--live` lint learn the same facts from the same text.

Nothing here is guessed: a value Slurm prints as UNLIMITED, NONE, N/A or (null) is None.

The readers take the text or its lines one at a time (a cluster's `scontrol show node` is read
as it comes, never held whole), and their work is linear in the text: a record is split into
words once, a record's continuation lines are joined once, and nodes of the same kind share
their lists of features, partitions and GPU types.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

from jobc.core.lazyre import lazy
from jobc.core.numbers import ascii_int
from jobc.core.record import field, record

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

_NOTHING = frozenset({"", "(null)", "none", "n/a", "unlimited", "infinite"})
_SPACE = lazy(r"\s")
#: one GRES item: name[:type][:count][(S:…)|(IDX:…)]; the count may carry K/M/G (mps, shards)
_GRES = lazy(r"^(?P<name>[^:()]+)(?::(?P<rest>[^()]*))?(?:\(.*\))?$")


@record
class PartitionFacts:
    name: str
    default: bool = False
    max_time: str | None = None  # as Slurm prints it ("2-00:00:00"); None: no limit
    default_time: str | None = None
    max_nodes: int | None = None  # per job; None: no limit
    min_nodes: int | None = None
    total_nodes: int | None = None
    preempt_mode: str | None = None
    state: str = "UP"
    allow_accounts: tuple[str, ...] | None = None  # None: ALL
    allow_qos: tuple[str, ...] | None = None
    oversubscribe: str | None = None  # NO, YES, FORCE, EXCLUSIVE (with :count)


@record
class NodeFacts:
    name: str
    cpus: int | None = None
    memory_mb: int | None = None
    gpus: int | None = 0  # None: Slurm printed a count jobc cannot read
    gpu_types: tuple[str, ...] = ()  # the types of its gpu GRES; () when untyped
    features: tuple[str, ...] = ()
    partitions: tuple[str, ...] = ()
    state: str = ""


@record
class ClusterFacts:
    """One cluster as its controller described it. `accounts`/`qos` are None when accounting
    did not answer (then jobc cannot say whether they exist)."""

    name: str | None
    partitions: tuple[PartitionFacts, ...]
    nodes: tuple[NodeFacts, ...]
    config: Mapping[str, str] = field(default_factory=dict)
    accounts: frozenset[str] | None = None
    qos: frozenset[str] | None = None

    def partition(self, name: str) -> PartitionFacts | None:
        return next((p for p in self.partitions if p.name == name), None)

    @property
    def default_partition(self) -> PartitionFacts | None:
        return next((p for p in self.partitions if p.default), None)

    def nodes_of(self, partition: str) -> tuple[NodeFacts, ...]:
        return tuple(n for n in self.nodes if partition in n.partitions)

    @property
    def version(self) -> str | None:
        return self.config.get("SLURM_VERSION")


Text = str | Iterable[str]


def _lines(text: Text) -> Iterable[str]:
    return text.splitlines() if isinstance(text, str) else text


def parse_record(line: str) -> dict[str, str]:
    """One `Key=Value Key=Value` record (`scontrol show … -o`). A value may hold spaces (Reason,
    Command, OS), so it runs until the next word that starts with a key and `=`; a key is the
    part of a word before its first `=`. The line is split into words once: a long word or a
    long value costs its length, not its length squared (as a pattern tried at every place of
    it did)."""
    out: dict[str, str] = {}
    key: str | None = None
    value: list[str] = []
    for word in line.strip().split(" "):
        name, equals, rest = word.partition("=")
        if equals and name and _SPACE.search(name) is None:
            if key is not None:
                out[key] = " ".join(value)
            key, value = name, [rest]
        elif key is not None:
            value.append(word)
    if key is not None:
        out[key] = " ".join(value)
    return out


def parse_records(text: Text) -> Iterator[dict[str, str]]:
    """`Key=Value Key=Value` records: one a line (`scontrol -o`), or, as scontrol prints them
    without `-o`, a record's first line at the margin and the rest indented below it (joined
    once, when the record ends)."""
    parts: list[str] = []
    for line in _lines(text):
        if not line.strip():
            continue
        if not (line[:1].isspace() and parts):
            yield from _record(parts)
            parts = []
        parts.append(line.strip())
    yield from _record(parts)


def _record(parts: list[str]) -> Iterator[dict[str, str]]:
    if parts:
        joined = " ".join(parts)
        if "=" in joined:
            yield {k: v.strip() for k, v in parse_record(joined).items()}


def parse_config(text: Text) -> dict[str, str]:
    """`scontrol show config`: `Key = Value` lines (a heading line and blank lines between)."""
    out: dict[str, str] = {}
    for line in _lines(text):
        key, sep, value = line.partition("=")
        key = key.strip()
        if sep and key and " " not in key:
            out.setdefault(key, value.strip())
    return out


def _value(record: Mapping[str, str], key: str) -> str | None:
    value = record.get(key)
    if value is None or value.strip().lower() in _NOTHING:
        return None
    return value.strip()


def _int(record: Mapping[str, str], key: str) -> int | None:
    value = _value(record, key)
    return ascii_int(value)  # not "²" (isdigit() is true), not past any count


def _names(value: str | None) -> tuple[str, ...] | None:
    """`ALL` → None (everyone), else the comma list."""
    if value is None or value.upper() == "ALL":
        return None
    return tuple(sorted(v for v in value.split(",") if v))


def parse_partitions(text: Text) -> list[PartitionFacts]:
    parts = []
    for rec in parse_records(text):
        name = _value(rec, "PartitionName")
        if name is None:
            continue
        parts.append(
            PartitionFacts(
                name=name,
                default=rec.get("Default", "").upper() == "YES",
                max_time=_value(rec, "MaxTime"),
                default_time=_value(rec, "DefaultTime"),
                max_nodes=_int(rec, "MaxNodes"),
                min_nodes=_int(rec, "MinNodes"),
                total_nodes=_int(rec, "TotalNodes"),
                preempt_mode=_value(rec, "PreemptMode"),
                state=(_value(rec, "State") or "UP").upper(),
                allow_accounts=_names(_value(rec, "AllowAccounts")),
                allow_qos=_names(_value(rec, "AllowQos")),
                # OverSubscribe since Slurm 16.05; Shared before it, with the same values
                oversubscribe=_value(rec, "OverSubscribe")
                if "OverSubscribe" in rec
                else _value(rec, "Shared"),
            )
        )
    return parts


def split_gres(text: str) -> list[str]:
    """GRES items are comma-separated, but a socket list `(S:0,1)` holds commas too."""
    items, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(depth - 1, 0)
        elif char == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    return [item.strip() for item in items if item.strip()]


def gpus_in(gres: str | None) -> tuple[int | None, tuple[str, ...]]:
    """GPUs and their types from a node's Gres: `gpu:a100:4(S:0-1)`, `gpu:4`,
    `gpu:a100:2,gpu:v100:2`, `gpu:tesla:2(S:0),mps:200` … Types come back sorted, without
    duplicates; untyped GPUs add to the count and no type. The count is None (unknown) when an
    item's count cannot be read (`gpu:a100:x2`, a count of thousands of digits): a node is not
    given GPUs it may not have, nor denied ones it has."""
    if gres is None or gres.strip().lower() in _NOTHING:
        return 0, ()
    total: int | None = 0
    types = set()
    for item in split_gres(gres):
        match = _GRES.match(item)
        if match is None or match["name"] != "gpu":
            continue
        parts = [p for p in (match["rest"] or "").split(":") if p and p != "no_consume"]
        count = _gres_count(parts)
        if len(parts) > 1 or (parts and not parts[0][:1].isdigit()):  # type:count, or a type
            types.add(parts[0])
        total = None if total is None or count is None else total + count
    return total, tuple(sorted(types))


_COUNT = lazy(r"([0-9]{1,12})([KMG]?)")
_SUFFIX = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3}


def _gres_count(parts: list[str]) -> int | None:
    """The count of one GRES item from its `[type:]count` parts. No count at all is Slurm's
    default of one (gres.conf: "otherwise the default value is one"); a lone part that is not a
    number is a type, counted as one; a count that cannot be read is None."""
    if not parts:
        return 1
    match = _COUNT.fullmatch(parts[-1])
    if match is not None:
        return int(match[1]) * _SUFFIX[match[2]]
    if len(parts) == 1 and not parts[0][:1].isdigit():
        return 1
    return None


def _tres_gpu_types(tres: str | None) -> tuple[str, ...]:
    """GPU types from CfgTRES (`cpu=128,mem=1000G,gres/gpu=8,gres/gpu:a100=8`): a node whose
    Gres is untyped (`gpu:8`) may still be counted by type there (AccountingStorageTRES)."""
    if tres is None:
        return ()
    return tuple(sorted({m for m in re.findall(r"(?:^|,)gres/gpu:([^=,]+)=", tres) if m}))


def _memory(rec: Mapping[str, str]) -> int | None:
    """RealMemory in MB; 1 is Slurm's default for a node whose memory is not configured
    (CfgTRES then says mem=1M), so it says nothing about the node."""
    memory = _int(rec, "RealMemory")
    return None if memory is not None and memory <= 1 else memory


def parse_nodes(text: Text) -> list[NodeFacts]:
    nodes = []
    shared: dict[object, object] = {}  # one copy of each list and state the nodes repeat

    def same(value: object) -> Any:
        return shared.setdefault(value, value)

    for rec in parse_records(text):
        name = _value(rec, "NodeName")
        if name is None:
            continue
        gpus, types = gpus_in(rec.get("Gres"))
        if gpus and not types:
            types = _tres_gpu_types(_value(rec, "CfgTRES"))
        # AvailableFeatures since Slurm 17.11; Features before
        features = _value(rec, "AvailableFeatures") if "AvailableFeatures" in rec else _value(rec, "Features")
        partitions = _value(rec, "Partitions")
        # CPUEfctv (21.08+): the CPUs jobs may use, without those CoreSpecCount/CpuSpecList keep
        cpus = _int(rec, "CPUEfctv")
        nodes.append(
            NodeFacts(
                name=name,
                cpus=cpus if cpus is not None else _int(rec, "CPUTot"),
                memory_mb=_memory(rec),
                gpus=gpus,
                gpu_types=same(types),
                features=same(tuple(sorted({f for f in (features or "").split(",") if f}))),
                partitions=same(tuple(sorted({p for p in (partitions or "").split(",") if p}))),
                state=same((_value(rec, "State") or "").upper()),
            )
        )
    return nodes


def parse_names(text: Text) -> frozenset[str]:
    """`sacctmgr -nP show account format=account`: one name a line."""
    return frozenset(line.strip() for line in _lines(text) if line.strip())


def build(
    partitions: Text,
    nodes: Text,
    config: Text,
    *,
    accounts: Iterable[str] | None = None,
    qos: Iterable[str] | None = None,
) -> ClusterFacts:
    return assemble(
        parse_partitions(partitions), parse_nodes(nodes), parse_config(config), accounts=accounts, qos=qos
    )


def assemble(
    partitions: Iterable[PartitionFacts],
    nodes: Iterable[NodeFacts],
    config: dict[str, str],
    *,
    accounts: Iterable[str] | None = None,
    qos: Iterable[str] | None = None,
) -> ClusterFacts:
    """The cluster of what each command said, read already."""
    return ClusterFacts(
        name=config.get("ClusterName") or None,
        partitions=tuple(sorted(partitions, key=lambda p: p.name)),
        nodes=tuple(sorted(nodes, key=lambda n: n.name)),
        config=config,
        accounts=None if accounts is None else frozenset(accounts),
        qos=None if qos is None else frozenset(qos),
    )
