"""Plain classes mirroring `jobc.spec.model`: frozen value objects, like frozen dataclasses.

Written out in full rather than made by `@dataclass`, which generates each class's methods
with `exec` at import time: for two dozen classes that cost more than linting a spec.

Generated from jobc.spec.model by `tools/regen.py`; do not edit."""

from __future__ import annotations

from collections.abc import Mapping

TYPE_CHECKING = False  # as typing.TYPE_CHECKING: a lint has no use for typing at run time
if TYPE_CHECKING:
    from typing import Any, Literal

_set = object.__setattr__


class _Frozen:
    """Immutable after `__init__`; equal, hashed and shown by its fields in order."""

    __slots__ = ()
    __match_args__: tuple[str, ...] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__match_args__)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Frozen) or other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__match_args__)
        return f"{type(self).__name__}({inner})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")


class Partition(_Frozen):
    __slots__ = (
        "cpus_per_node",
        "default_time",
        "gpus_per_node",
        "max_nodes",
        "max_time",
        "min_nodes",
        "node_types",
        "nodes",
        "preempt_mode",
    )
    __match_args__ = (
        "max_time",
        "default_time",
        "gpus_per_node",
        "cpus_per_node",
        "nodes",
        "max_nodes",
        "min_nodes",
        "preempt_mode",
        "node_types",
    )

    max_time: str | None
    default_time: str | None
    gpus_per_node: int | None
    cpus_per_node: int | None
    nodes: int | None
    max_nodes: int | None
    min_nodes: int | None
    preempt_mode: str | None
    node_types: list[str]

    def __init__(
        self,
        *,
        max_time: str | None = None,
        default_time: str | None = None,
        gpus_per_node: int | None = None,
        cpus_per_node: int | None = None,
        nodes: int | None = None,
        max_nodes: int | None = None,
        min_nodes: int | None = None,
        preempt_mode: str | None = None,
        node_types: list[str] | None = None,
    ) -> None:
        _set(self, "max_time", max_time)
        _set(self, "default_time", default_time)
        _set(self, "gpus_per_node", gpus_per_node)
        _set(self, "cpus_per_node", cpus_per_node)
        _set(self, "nodes", nodes)
        _set(self, "max_nodes", max_nodes)
        _set(self, "min_nodes", min_nodes)
        _set(self, "preempt_mode", preempt_mode)
        _set(self, "node_types", [] if node_types is None else node_types)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Partition:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "max_time" in data:
            kwargs["max_time"] = data["max_time"]
        if "default_time" in data:
            kwargs["default_time"] = data["default_time"]
        if "gpus_per_node" in data:
            kwargs["gpus_per_node"] = data["gpus_per_node"]
        if "cpus_per_node" in data:
            kwargs["cpus_per_node"] = data["cpus_per_node"]
        if "nodes" in data:
            kwargs["nodes"] = data["nodes"]
        if "max_nodes" in data:
            kwargs["max_nodes"] = data["max_nodes"]
        if "min_nodes" in data:
            kwargs["min_nodes"] = data["min_nodes"]
        if "preempt_mode" in data:
            kwargs["preempt_mode"] = data["preempt_mode"]
        if "node_types" in data:
            kwargs["node_types"] = list(data["node_types"])
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "max_time": self.max_time,
            "default_time": self.default_time,
            "gpus_per_node": self.gpus_per_node,
            "cpus_per_node": self.cpus_per_node,
            "nodes": self.nodes,
            "max_nodes": self.max_nodes,
            "min_nodes": self.min_nodes,
            "preempt_mode": self.preempt_mode,
            "node_types": list(self.node_types),
        }


class NodeType(_Frozen):
    """One kind of node of the cluster, as Slurm describes it."""

    __slots__ = ("count", "cpus", "features", "gpu_type", "gpus", "memory_mb")
    __match_args__ = ("count", "cpus", "memory_mb", "gpus", "gpu_type", "features")

    count: int | None
    cpus: int | None
    memory_mb: int | None
    gpus: int | None
    gpu_type: str | None
    features: list[str]

    def __init__(
        self,
        *,
        count: int | None = None,
        cpus: int | None = None,
        memory_mb: int | None = None,
        gpus: int | None = None,
        gpu_type: str | None = None,
        features: list[str] | None = None,
    ) -> None:
        _set(self, "count", count)
        _set(self, "cpus", cpus)
        _set(self, "memory_mb", memory_mb)
        _set(self, "gpus", gpus)
        _set(self, "gpu_type", gpu_type)
        _set(self, "features", [] if features is None else features)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> NodeType:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "count" in data:
            kwargs["count"] = data["count"]
        if "cpus" in data:
            kwargs["cpus"] = data["cpus"]
        if "memory_mb" in data:
            kwargs["memory_mb"] = data["memory_mb"]
        if "gpus" in data:
            kwargs["gpus"] = data["gpus"]
        if "gpu_type" in data:
            kwargs["gpu_type"] = data["gpu_type"]
        if "features" in data:
            kwargs["features"] = list(data["features"])
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "count": self.count,
            "cpus": self.cpus,
            "memory_mb": self.memory_mb,
            "gpus": self.gpus,
            "gpu_type": self.gpu_type,
            "features": list(self.features),
        }


class Cluster(_Frozen):
    """Facts about the machines. Usually written once in a cluster profile."""

    __slots__ = (
        "air_gapped",
        "all_partitions",
        "cpus_per_node",
        "default_partition",
        "exclusive_nodes",
        "gpu",
        "gpus_per_node",
        "node_types",
        "partitions",
    )
    __match_args__ = (
        "gpus_per_node",
        "cpus_per_node",
        "gpu",
        "partitions",
        "default_partition",
        "all_partitions",
        "node_types",
        "air_gapped",
        "exclusive_nodes",
    )

    gpus_per_node: int | None
    cpus_per_node: int | None
    gpu: str | None
    partitions: dict[str, Partition]
    default_partition: str | None
    all_partitions: bool | None
    node_types: dict[str, NodeType]
    air_gapped: bool
    exclusive_nodes: bool | None

    def __init__(
        self,
        *,
        gpus_per_node: int | None = None,
        cpus_per_node: int | None = None,
        gpu: str | None = None,
        partitions: dict[str, Partition] | None = None,
        default_partition: str | None = None,
        all_partitions: bool | None = None,
        node_types: dict[str, NodeType] | None = None,
        air_gapped: bool = False,
        exclusive_nodes: bool | None = None,
    ) -> None:
        _set(self, "gpus_per_node", gpus_per_node)
        _set(self, "cpus_per_node", cpus_per_node)
        _set(self, "gpu", gpu)
        _set(self, "partitions", {} if partitions is None else partitions)
        _set(self, "default_partition", default_partition)
        _set(self, "all_partitions", all_partitions)
        _set(self, "node_types", {} if node_types is None else node_types)
        _set(self, "air_gapped", air_gapped)
        _set(self, "exclusive_nodes", exclusive_nodes)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Cluster:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "gpus_per_node" in data:
            kwargs["gpus_per_node"] = data["gpus_per_node"]
        if "cpus_per_node" in data:
            kwargs["cpus_per_node"] = data["cpus_per_node"]
        if "gpu" in data:
            kwargs["gpu"] = data["gpu"]
        if "partitions" in data:
            kwargs["partitions"] = {k: Partition.build(v) for k, v in data["partitions"].items()}
        if "default_partition" in data:
            kwargs["default_partition"] = data["default_partition"]
        if "all_partitions" in data:
            kwargs["all_partitions"] = data["all_partitions"]
        if "node_types" in data:
            kwargs["node_types"] = {k: NodeType.build(v) for k, v in data["node_types"].items()}
        if "air_gapped" in data:
            kwargs["air_gapped"] = data["air_gapped"]
        if "exclusive_nodes" in data:
            kwargs["exclusive_nodes"] = data["exclusive_nodes"]
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "gpus_per_node": self.gpus_per_node,
            "cpus_per_node": self.cpus_per_node,
            "gpu": self.gpu,
            "partitions": {k: v.dump() for k, v in self.partitions.items()},
            "default_partition": self.default_partition,
            "all_partitions": self.all_partitions,
            "node_types": {k: v.dump() for k, v in self.node_types.items()},
            "air_gapped": self.air_gapped,
            "exclusive_nodes": self.exclusive_nodes,
        }


class Mail(_Frozen):
    __slots__ = ("type", "user")
    __match_args__ = ("user", "type")

    user: str | None
    type: list[str]

    def __init__(self, *, user: str | None = None, type: list[str] | None = None) -> None:
        _set(self, "user", user)
        _set(self, "type", [] if type is None else type)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Mail:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "user" in data:
            kwargs["user"] = data["user"]
        if "type" in data:
            kwargs["type"] = list(data["type"])
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "user": self.user,
            "type": list(self.type),
        }


class Slurm(_Frozen):
    """Options that become #SBATCH lines."""

    __slots__ = (
        "account",
        "array",
        "constraint",
        "dependency",
        "exclusive",
        "extra",
        "mail",
        "partition",
        "qos",
        "reservation",
        "time",
    )
    __match_args__ = (
        "partition",
        "account",
        "qos",
        "time",
        "exclusive",
        "constraint",
        "reservation",
        "mail",
        "array",
        "dependency",
        "extra",
    )

    partition: str | None
    account: str | None
    qos: str | None
    time: str | int | None
    exclusive: bool | None
    constraint: str | None
    reservation: str | None
    mail: Mail
    array: str | None
    dependency: str | None
    extra: dict[str, str | int | bool | None]

    def __init__(
        self,
        *,
        partition: str | None = None,
        account: str | None = None,
        qos: str | None = None,
        time: str | int | None = None,
        exclusive: bool | None = None,
        constraint: str | None = None,
        reservation: str | None = None,
        mail: Mail | None = None,
        array: str | None = None,
        dependency: str | None = None,
        extra: dict[str, str | int | bool | None] | None = None,
    ) -> None:
        _set(self, "partition", partition)
        _set(self, "account", account)
        _set(self, "qos", qos)
        _set(self, "time", time)
        _set(self, "exclusive", exclusive)
        _set(self, "constraint", constraint)
        _set(self, "reservation", reservation)
        _set(self, "mail", Mail() if mail is None else mail)
        _set(self, "array", array)
        _set(self, "dependency", dependency)
        _set(self, "extra", {} if extra is None else extra)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Slurm:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "partition" in data:
            kwargs["partition"] = data["partition"]
        if "account" in data:
            kwargs["account"] = data["account"]
        if "qos" in data:
            kwargs["qos"] = data["qos"]
        if "time" in data:
            kwargs["time"] = data["time"]
        if "exclusive" in data:
            kwargs["exclusive"] = data["exclusive"]
        if "constraint" in data:
            kwargs["constraint"] = data["constraint"]
        if "reservation" in data:
            kwargs["reservation"] = data["reservation"]
        if "mail" in data:
            kwargs["mail"] = Mail.build(data["mail"])
        if "array" in data:
            kwargs["array"] = data["array"]
        if "dependency" in data:
            kwargs["dependency"] = data["dependency"]
        if "extra" in data:
            kwargs["extra"] = dict(data["extra"])
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "partition": self.partition,
            "account": self.account,
            "qos": self.qos,
            "time": self.time,
            "exclusive": self.exclusive,
            "constraint": self.constraint,
            "reservation": self.reservation,
            "mail": self.mail.dump(),
            "array": self.array,
            "dependency": self.dependency,
            "extra": dict(self.extra),
        }


class Parallelism(_Frozen):
    """How the world of ranks is split. world = nodes × gpus_per_node = tp·pp·cp·dp."""

    __slots__ = ("cp", "dp", "ep", "etp", "pp", "sequence_parallel", "sharding", "tp", "vpp")
    __match_args__ = ("tp", "pp", "cp", "ep", "etp", "vpp", "dp", "sequence_parallel", "sharding")

    tp: int
    pp: int
    cp: int
    ep: int
    etp: int | None
    vpp: int | None
    dp: int | None
    sequence_parallel: bool
    sharding: Literal["none", "distributed-optimizer", "fsdp2", "megatron-fsdp"]

    def __init__(
        self,
        *,
        tp: int = 1,
        pp: int = 1,
        cp: int = 1,
        ep: int = 1,
        etp: int | None = None,
        vpp: int | None = None,
        dp: int | None = None,
        sequence_parallel: bool = False,
        sharding: Literal["none", "distributed-optimizer", "fsdp2", "megatron-fsdp"] = "none",
    ) -> None:
        _set(self, "tp", tp)
        _set(self, "pp", pp)
        _set(self, "cp", cp)
        _set(self, "ep", ep)
        _set(self, "etp", etp)
        _set(self, "vpp", vpp)
        _set(self, "dp", dp)
        _set(self, "sequence_parallel", sequence_parallel)
        _set(self, "sharding", sharding)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Parallelism:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "tp" in data:
            kwargs["tp"] = data["tp"]
        if "pp" in data:
            kwargs["pp"] = data["pp"]
        if "cp" in data:
            kwargs["cp"] = data["cp"]
        if "ep" in data:
            kwargs["ep"] = data["ep"]
        if "etp" in data:
            kwargs["etp"] = data["etp"]
        if "vpp" in data:
            kwargs["vpp"] = data["vpp"]
        if "dp" in data:
            kwargs["dp"] = data["dp"]
        if "sequence_parallel" in data:
            kwargs["sequence_parallel"] = data["sequence_parallel"]
        if "sharding" in data:
            kwargs["sharding"] = data["sharding"]
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "tp": self.tp,
            "pp": self.pp,
            "cp": self.cp,
            "ep": self.ep,
            "etp": self.etp,
            "vpp": self.vpp,
            "dp": self.dp,
            "sequence_parallel": self.sequence_parallel,
            "sharding": self.sharding,
        }


class MoE(_Frozen):
    __slots__ = (
        "dense_layers",
        "expert_ffn_hidden",
        "experts",
        "shared_experts",
        "shared_ffn_hidden",
        "top_k",
    )
    __match_args__ = (
        "experts",
        "top_k",
        "expert_ffn_hidden",
        "shared_experts",
        "shared_ffn_hidden",
        "dense_layers",
    )

    experts: int
    top_k: int
    expert_ffn_hidden: int | None
    shared_experts: int
    shared_ffn_hidden: int | None
    dense_layers: int

    def __init__(
        self,
        *,
        experts: int,
        top_k: int,
        expert_ffn_hidden: int | None = None,
        shared_experts: int = 0,
        shared_ffn_hidden: int | None = None,
        dense_layers: int = 0,
    ) -> None:
        _set(self, "experts", experts)
        _set(self, "top_k", top_k)
        _set(self, "expert_ffn_hidden", expert_ffn_hidden)
        _set(self, "shared_experts", shared_experts)
        _set(self, "shared_ffn_hidden", shared_ffn_hidden)
        _set(self, "dense_layers", dense_layers)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> MoE:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "experts" in data:
            kwargs["experts"] = data["experts"]
        if "top_k" in data:
            kwargs["top_k"] = data["top_k"]
        if "expert_ffn_hidden" in data:
            kwargs["expert_ffn_hidden"] = data["expert_ffn_hidden"]
        if "shared_experts" in data:
            kwargs["shared_experts"] = data["shared_experts"]
        if "shared_ffn_hidden" in data:
            kwargs["shared_ffn_hidden"] = data["shared_ffn_hidden"]
        if "dense_layers" in data:
            kwargs["dense_layers"] = data["dense_layers"]
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "experts": self.experts,
            "top_k": self.top_k,
            "expert_ffn_hidden": self.expert_ffn_hidden,
            "shared_experts": self.shared_experts,
            "shared_ffn_hidden": self.shared_ffn_hidden,
            "dense_layers": self.dense_layers,
        }


class Model(_Frozen):
    """The model being trained or served. Optional; turns on the divisibility and memory rules."""

    __slots__ = (
        "attention_bias",
        "checkpoint_dtype",
        "dtype",
        "ffn_hidden",
        "head_dim",
        "heads",
        "hf_config",
        "hidden",
        "kv_heads",
        "layers",
        "moe",
        "mtp_layers",
        "preset",
        "tied_embeddings",
        "vocab",
    )
    __match_args__ = (
        "preset",
        "hf_config",
        "layers",
        "hidden",
        "heads",
        "kv_heads",
        "head_dim",
        "ffn_hidden",
        "vocab",
        "tied_embeddings",
        "attention_bias",
        "mtp_layers",
        "moe",
        "dtype",
        "checkpoint_dtype",
    )

    preset: str | None
    hf_config: str | None
    layers: int | None
    hidden: int | None
    heads: int | None
    kv_heads: int | None
    head_dim: int | None
    ffn_hidden: int | None
    vocab: int | None
    tied_embeddings: bool | None
    attention_bias: bool | None
    mtp_layers: int | None
    moe: MoE | None
    dtype: Literal["bf16", "fp16", "fp32", "fp8"]
    checkpoint_dtype: Literal["bf16", "fp16", "fp32", "fp8"] | None

    def __init__(
        self,
        *,
        preset: str | None = None,
        hf_config: str | None = None,
        layers: int | None = None,
        hidden: int | None = None,
        heads: int | None = None,
        kv_heads: int | None = None,
        head_dim: int | None = None,
        ffn_hidden: int | None = None,
        vocab: int | None = None,
        tied_embeddings: bool | None = None,
        attention_bias: bool | None = None,
        mtp_layers: int | None = None,
        moe: MoE | None = None,
        dtype: Literal["bf16", "fp16", "fp32", "fp8"] = "bf16",
        checkpoint_dtype: Literal["bf16", "fp16", "fp32", "fp8"] | None = None,
    ) -> None:
        _set(self, "preset", preset)
        _set(self, "hf_config", hf_config)
        _set(self, "layers", layers)
        _set(self, "hidden", hidden)
        _set(self, "heads", heads)
        _set(self, "kv_heads", kv_heads)
        _set(self, "head_dim", head_dim)
        _set(self, "ffn_hidden", ffn_hidden)
        _set(self, "vocab", vocab)
        _set(self, "tied_embeddings", tied_embeddings)
        _set(self, "attention_bias", attention_bias)
        _set(self, "mtp_layers", mtp_layers)
        _set(self, "moe", moe)
        _set(self, "dtype", dtype)
        _set(self, "checkpoint_dtype", checkpoint_dtype)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Model:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "preset" in data:
            kwargs["preset"] = data["preset"]
        if "hf_config" in data:
            kwargs["hf_config"] = data["hf_config"]
        if "layers" in data:
            kwargs["layers"] = data["layers"]
        if "hidden" in data:
            kwargs["hidden"] = data["hidden"]
        if "heads" in data:
            kwargs["heads"] = data["heads"]
        if "kv_heads" in data:
            kwargs["kv_heads"] = data["kv_heads"]
        if "head_dim" in data:
            kwargs["head_dim"] = data["head_dim"]
        if "ffn_hidden" in data:
            kwargs["ffn_hidden"] = data["ffn_hidden"]
        if "vocab" in data:
            kwargs["vocab"] = data["vocab"]
        if "tied_embeddings" in data:
            kwargs["tied_embeddings"] = data["tied_embeddings"]
        if "attention_bias" in data:
            kwargs["attention_bias"] = data["attention_bias"]
        if "mtp_layers" in data:
            kwargs["mtp_layers"] = data["mtp_layers"]
        if "moe" in data:
            kwargs["moe"] = None if data["moe"] is None else MoE.build(data["moe"])
        if "dtype" in data:
            kwargs["dtype"] = data["dtype"]
        if "checkpoint_dtype" in data:
            kwargs["checkpoint_dtype"] = data["checkpoint_dtype"]
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "preset": self.preset,
            "hf_config": self.hf_config,
            "layers": self.layers,
            "hidden": self.hidden,
            "heads": self.heads,
            "kv_heads": self.kv_heads,
            "head_dim": self.head_dim,
            "ffn_hidden": self.ffn_hidden,
            "vocab": self.vocab,
            "tied_embeddings": self.tied_embeddings,
            "attention_bias": self.attention_bias,
            "mtp_layers": self.mtp_layers,
            "moe": (None if self.moe is None else self.moe.dump()),
            "dtype": self.dtype,
            "checkpoint_dtype": self.checkpoint_dtype,
        }


class Workload(_Frozen):
    __slots__ = (
        "framework",
        "global_batch",
        "kind",
        "micro_batch",
        "overlap_moe_ep_comm",
        "recompute",
        "seq_length",
    )
    __match_args__ = (
        "kind",
        "seq_length",
        "micro_batch",
        "global_batch",
        "recompute",
        "overlap_moe_ep_comm",
        "framework",
    )

    kind: Literal["pretrain", "finetune", "inference", "convert"]
    seq_length: int | None
    micro_batch: int
    global_batch: int | None
    recompute: Literal["none", "selective", "full"]
    overlap_moe_ep_comm: bool
    framework: Literal["megatron", "pytorch"] | None

    def __init__(
        self,
        *,
        kind: Literal["pretrain", "finetune", "inference", "convert"] = "pretrain",
        seq_length: int | None = None,
        micro_batch: int = 1,
        global_batch: int | None = None,
        recompute: Literal["none", "selective", "full"] = "selective",
        overlap_moe_ep_comm: bool = False,
        framework: Literal["megatron", "pytorch"] | None = None,
    ) -> None:
        _set(self, "kind", kind)
        _set(self, "seq_length", seq_length)
        _set(self, "micro_batch", micro_batch)
        _set(self, "global_batch", global_batch)
        _set(self, "recompute", recompute)
        _set(self, "overlap_moe_ep_comm", overlap_moe_ep_comm)
        _set(self, "framework", framework)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Workload:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "kind" in data:
            kwargs["kind"] = data["kind"]
        if "seq_length" in data:
            kwargs["seq_length"] = data["seq_length"]
        if "micro_batch" in data:
            kwargs["micro_batch"] = data["micro_batch"]
        if "global_batch" in data:
            kwargs["global_batch"] = data["global_batch"]
        if "recompute" in data:
            kwargs["recompute"] = data["recompute"]
        if "overlap_moe_ep_comm" in data:
            kwargs["overlap_moe_ep_comm"] = data["overlap_moe_ep_comm"]
        if "framework" in data:
            kwargs["framework"] = data["framework"]
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "kind": self.kind,
            "seq_length": self.seq_length,
            "micro_batch": self.micro_batch,
            "global_batch": self.global_batch,
            "recompute": self.recompute,
            "overlap_moe_ep_comm": self.overlap_moe_ep_comm,
            "framework": self.framework,
        }


class Fabric(_Frozen):
    __slots__ = ("debug", "env", "gdr_level", "ib", "ib_gid_index", "interface", "nccl_timeout_s", "nvls")
    __match_args__ = (
        "interface",
        "ib",
        "gdr_level",
        "ib_gid_index",
        "nccl_timeout_s",
        "nvls",
        "debug",
        "env",
    )

    interface: str | None
    ib: bool
    gdr_level: int | None
    ib_gid_index: int | None
    nccl_timeout_s: int
    nvls: bool | None
    debug: Literal["VERSION", "WARN", "INFO", "TRACE"] | None
    env: dict[str, str | int | float]

    def __init__(
        self,
        *,
        interface: str | None = "auto",
        ib: bool = True,
        gdr_level: int | None = 2,
        ib_gid_index: int | None = None,
        nccl_timeout_s: int = 1800,
        nvls: bool | None = None,
        debug: Literal["VERSION", "WARN", "INFO", "TRACE"] | None = None,
        env: dict[str, str | int | float] | None = None,
    ) -> None:
        _set(self, "interface", interface)
        _set(self, "ib", ib)
        _set(self, "gdr_level", gdr_level)
        _set(self, "ib_gid_index", ib_gid_index)
        _set(self, "nccl_timeout_s", nccl_timeout_s)
        _set(self, "nvls", nvls)
        _set(self, "debug", debug)
        _set(self, "env", {} if env is None else env)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Fabric:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "interface" in data:
            kwargs["interface"] = data["interface"]
        if "ib" in data:
            kwargs["ib"] = data["ib"]
        if "gdr_level" in data:
            kwargs["gdr_level"] = data["gdr_level"]
        if "ib_gid_index" in data:
            kwargs["ib_gid_index"] = data["ib_gid_index"]
        if "nccl_timeout_s" in data:
            kwargs["nccl_timeout_s"] = data["nccl_timeout_s"]
        if "nvls" in data:
            kwargs["nvls"] = data["nvls"]
        if "debug" in data:
            kwargs["debug"] = data["debug"]
        if "env" in data:
            kwargs["env"] = dict(data["env"])
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "interface": self.interface,
            "ib": self.ib,
            "gdr_level": self.gdr_level,
            "ib_gid_index": self.ib_gid_index,
            "nccl_timeout_s": self.nccl_timeout_s,
            "nvls": self.nvls,
            "debug": self.debug,
            "env": dict(self.env),
        }


class Container(_Frozen):
    """A pyxis/enroot container for every rank."""

    __slots__ = ("env", "image", "mount_home", "mounts", "remap_root", "workdir")
    __match_args__ = ("image", "mounts", "workdir", "mount_home", "remap_root", "env")

    image: str
    mounts: list[str]
    workdir: str | None
    mount_home: bool
    remap_root: bool
    env: list[str]

    def __init__(
        self,
        *,
        image: str,
        mounts: list[str] | None = None,
        workdir: str | None = None,
        mount_home: bool = False,
        remap_root: bool = False,
        env: list[str] | None = None,
    ) -> None:
        _set(self, "image", image)
        _set(self, "mounts", [] if mounts is None else mounts)
        _set(self, "workdir", workdir)
        _set(self, "mount_home", mount_home)
        _set(self, "remap_root", remap_root)
        _set(self, "env", [] if env is None else env)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Container:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "image" in data:
            kwargs["image"] = data["image"]
        if "mounts" in data:
            kwargs["mounts"] = list(data["mounts"])
        if "workdir" in data:
            kwargs["workdir"] = data["workdir"]
        if "mount_home" in data:
            kwargs["mount_home"] = data["mount_home"]
        if "remap_root" in data:
            kwargs["remap_root"] = data["remap_root"]
        if "env" in data:
            kwargs["env"] = list(data["env"])
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "image": self.image,
            "mounts": list(self.mounts),
            "workdir": self.workdir,
            "mount_home": self.mount_home,
            "remap_root": self.remap_root,
            "env": list(self.env),
        }


class Caches(_Frozen):
    __slots__ = ("hf_home", "nemo_home", "pip_cache_dir", "torch_home", "triton_cache_dir", "uv_cache_dir")
    __match_args__ = (
        "hf_home",
        "uv_cache_dir",
        "torch_home",
        "triton_cache_dir",
        "nemo_home",
        "pip_cache_dir",
    )

    hf_home: str | None
    uv_cache_dir: str | None
    torch_home: str | None
    triton_cache_dir: str | None
    nemo_home: str | None
    pip_cache_dir: str | None

    def __init__(
        self,
        *,
        hf_home: str | None = None,
        uv_cache_dir: str | None = None,
        torch_home: str | None = None,
        triton_cache_dir: str | None = None,
        nemo_home: str | None = None,
        pip_cache_dir: str | None = None,
    ) -> None:
        _set(self, "hf_home", hf_home)
        _set(self, "uv_cache_dir", uv_cache_dir)
        _set(self, "torch_home", torch_home)
        _set(self, "triton_cache_dir", triton_cache_dir)
        _set(self, "nemo_home", nemo_home)
        _set(self, "pip_cache_dir", pip_cache_dir)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Caches:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "hf_home" in data:
            kwargs["hf_home"] = data["hf_home"]
        if "uv_cache_dir" in data:
            kwargs["uv_cache_dir"] = data["uv_cache_dir"]
        if "torch_home" in data:
            kwargs["torch_home"] = data["torch_home"]
        if "triton_cache_dir" in data:
            kwargs["triton_cache_dir"] = data["triton_cache_dir"]
        if "nemo_home" in data:
            kwargs["nemo_home"] = data["nemo_home"]
        if "pip_cache_dir" in data:
            kwargs["pip_cache_dir"] = data["pip_cache_dir"]
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "hf_home": self.hf_home,
            "uv_cache_dir": self.uv_cache_dir,
            "torch_home": self.torch_home,
            "triton_cache_dir": self.triton_cache_dir,
            "nemo_home": self.nemo_home,
            "pip_cache_dir": self.pip_cache_dir,
        }


class Storage(_Frozen):
    __slots__ = ("caches", "checkpoints", "logs", "shared")
    __match_args__ = ("shared", "logs", "checkpoints", "caches")

    shared: list[str]
    logs: str | None
    checkpoints: str | None
    caches: Caches

    def __init__(
        self,
        *,
        shared: list[str] | None = None,
        logs: str | None = None,
        checkpoints: str | None = None,
        caches: Caches | None = None,
    ) -> None:
        _set(self, "shared", [] if shared is None else shared)
        _set(self, "logs", logs)
        _set(self, "checkpoints", checkpoints)
        _set(self, "caches", Caches() if caches is None else caches)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Storage:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "shared" in data:
            kwargs["shared"] = list(data["shared"])
        if "logs" in data:
            kwargs["logs"] = data["logs"]
        if "checkpoints" in data:
            kwargs["checkpoints"] = data["checkpoints"]
        if "caches" in data:
            kwargs["caches"] = Caches.build(data["caches"])
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "shared": list(self.shared),
            "logs": self.logs,
            "checkpoints": self.checkpoints,
            "caches": self.caches.dump(),
        }


class CheckpointInfo(_Frozen):
    __slots__ = ("async_", "size_gb", "write_gbps")
    __match_args__ = ("async_", "size_gb", "write_gbps")

    async_: bool
    size_gb: float | None
    write_gbps: float | None

    def __init__(
        self, *, async_: bool = False, size_gb: float | None = None, write_gbps: float | None = None
    ) -> None:
        _set(self, "async_", async_)
        _set(self, "size_gb", size_gb)
        _set(self, "write_gbps", write_gbps)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> CheckpointInfo:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "async" in data:
            kwargs["async_"] = data["async"]
        if "size_gb" in data:
            kwargs["size_gb"] = data["size_gb"]
        if "write_gbps" in data:
            kwargs["write_gbps"] = data["write_gbps"]
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "async": self.async_,
            "size_gb": self.size_gb,
            "write_gbps": self.write_gbps,
        }


class Preflight(_Frozen):
    """Checks every node runs once, before the program, in each attempt of the job."""

    __slots__ = ("checks", "command", "timeout_s")
    __match_args__ = ("checks", "command", "timeout_s")

    checks: list[Literal["gpus", "paths", "port"]]
    command: str | None
    timeout_s: int

    def __init__(
        self,
        *,
        checks: list[Literal["gpus", "paths", "port"]] | None = None,
        command: str | None = None,
        timeout_s: int = 120,
    ) -> None:
        _set(self, "checks", ["gpus", "paths", "port"] if checks is None else checks)
        _set(self, "command", command)
        _set(self, "timeout_s", timeout_s)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Preflight:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "checks" in data:
            kwargs["checks"] = list(data["checks"])
        if "command" in data:
            kwargs["command"] = data["command"]
        if "timeout_s" in data:
            kwargs["timeout_s"] = data["timeout_s"]
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "checks": list(self.checks),
            "command": self.command,
            "timeout_s": self.timeout_s,
        }


class Resilience(_Frozen):
    __slots__ = (
        "checkpoint",
        "exclude_failed_nodes",
        "grace_s",
        "max_restarts",
        "preflight",
        "requeue",
        "retry_on",
        "signal",
    )
    __match_args__ = (
        "signal",
        "grace_s",
        "requeue",
        "max_restarts",
        "checkpoint",
        "retry_on",
        "exclude_failed_nodes",
        "preflight",
    )

    signal: Literal["SIGTERM", "SIGUSR1", "SIGUSR2", "SIGINT"] | None
    grace_s: int
    requeue: bool
    max_restarts: int
    checkpoint: CheckpointInfo
    retry_on: list[
        Literal[
            "preflight",
            "node_fail",
            "gpu_error",
            "nccl_error",
            "hang",
            "exception",
            "cuda_oom",
            "host_oom",
            "import_error",
            "missing_program",
            "disk_full",
            "rendezvous",
            "port_in_use",
            "slurm_refused",
            "collective_timeout",
            "signal",
            "exit_code",
            "time_limit",
            "preempted",
            "cancelled",
            "unknown",
        ]
    ]
    exclude_failed_nodes: bool
    preflight: Preflight | None

    def __init__(
        self,
        *,
        signal: Literal["SIGTERM", "SIGUSR1", "SIGUSR2", "SIGINT"] | None = None,
        grace_s: int = 120,
        requeue: bool = False,
        max_restarts: int = 3,
        checkpoint: CheckpointInfo | None = None,
        retry_on: list[
            Literal[
                "preflight",
                "node_fail",
                "gpu_error",
                "nccl_error",
                "hang",
                "exception",
                "cuda_oom",
                "host_oom",
                "import_error",
                "missing_program",
                "disk_full",
                "rendezvous",
                "port_in_use",
                "slurm_refused",
                "collective_timeout",
                "signal",
                "exit_code",
                "time_limit",
                "preempted",
                "cancelled",
                "unknown",
            ]
        ]
        | None = None,
        exclude_failed_nodes: bool = True,
        preflight: Preflight | None = None,
    ) -> None:
        _set(self, "signal", signal)
        _set(self, "grace_s", grace_s)
        _set(self, "requeue", requeue)
        _set(self, "max_restarts", max_restarts)
        _set(self, "checkpoint", CheckpointInfo() if checkpoint is None else checkpoint)
        _set(self, "retry_on", [] if retry_on is None else retry_on)
        _set(self, "exclude_failed_nodes", exclude_failed_nodes)
        _set(self, "preflight", preflight)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Resilience:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "signal" in data:
            kwargs["signal"] = data["signal"]
        if "grace_s" in data:
            kwargs["grace_s"] = data["grace_s"]
        if "requeue" in data:
            kwargs["requeue"] = data["requeue"]
        if "max_restarts" in data:
            kwargs["max_restarts"] = data["max_restarts"]
        if "checkpoint" in data:
            kwargs["checkpoint"] = CheckpointInfo.build(data["checkpoint"])
        if "retry_on" in data:
            kwargs["retry_on"] = list(data["retry_on"])
        if "exclude_failed_nodes" in data:
            kwargs["exclude_failed_nodes"] = data["exclude_failed_nodes"]
        if "preflight" in data:
            kwargs["preflight"] = None if data["preflight"] is None else Preflight.build(data["preflight"])
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "signal": self.signal,
            "grace_s": self.grace_s,
            "requeue": self.requeue,
            "max_restarts": self.max_restarts,
            "checkpoint": self.checkpoint.dump(),
            "retry_on": list(self.retry_on),
            "exclude_failed_nodes": self.exclude_failed_nodes,
            "preflight": (None if self.preflight is None else self.preflight.dump()),
        }


class Monitoring(_Frozen):
    __slots__ = ("dump_dir", "flight_recorder", "gpu_dmon_s", "hang_s", "heartbeat_s")
    __match_args__ = ("gpu_dmon_s", "heartbeat_s", "flight_recorder", "hang_s", "dump_dir")

    gpu_dmon_s: int
    heartbeat_s: int
    flight_recorder: int
    hang_s: int
    dump_dir: str | None

    def __init__(
        self,
        *,
        gpu_dmon_s: int = 0,
        heartbeat_s: int = 0,
        flight_recorder: int = 2000,
        hang_s: int = 900,
        dump_dir: str | None = None,
    ) -> None:
        _set(self, "gpu_dmon_s", gpu_dmon_s)
        _set(self, "heartbeat_s", heartbeat_s)
        _set(self, "flight_recorder", flight_recorder)
        _set(self, "hang_s", hang_s)
        _set(self, "dump_dir", dump_dir)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Monitoring:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "gpu_dmon_s" in data:
            kwargs["gpu_dmon_s"] = data["gpu_dmon_s"]
        if "heartbeat_s" in data:
            kwargs["heartbeat_s"] = data["heartbeat_s"]
        if "flight_recorder" in data:
            kwargs["flight_recorder"] = data["flight_recorder"]
        if "hang_s" in data:
            kwargs["hang_s"] = data["hang_s"]
        if "dump_dir" in data:
            kwargs["dump_dir"] = data["dump_dir"]
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "gpu_dmon_s": self.gpu_dmon_s,
            "heartbeat_s": self.heartbeat_s,
            "flight_recorder": self.flight_recorder,
            "hang_s": self.hang_s,
            "dump_dir": self.dump_dir,
        }


class Resources(_Frozen):
    __slots__ = ("cpus_per_task", "gpu", "gpus_per_node", "mem", "mem_per_gpu", "nodes", "tasks_per_node")
    __match_args__ = (
        "nodes",
        "gpus_per_node",
        "gpu",
        "tasks_per_node",
        "cpus_per_task",
        "mem",
        "mem_per_gpu",
    )

    nodes: int
    gpus_per_node: int | None
    gpu: str | None
    tasks_per_node: int | None
    cpus_per_task: int | None
    mem: str | int | None
    mem_per_gpu: str | int | None

    def __init__(
        self,
        *,
        nodes: int = 1,
        gpus_per_node: int | None = None,
        gpu: str | None = None,
        tasks_per_node: int | None = None,
        cpus_per_task: int | None = None,
        mem: str | int | None = None,
        mem_per_gpu: str | int | None = None,
    ) -> None:
        _set(self, "nodes", nodes)
        _set(self, "gpus_per_node", gpus_per_node)
        _set(self, "gpu", gpu)
        _set(self, "tasks_per_node", tasks_per_node)
        _set(self, "cpus_per_task", cpus_per_task)
        _set(self, "mem", mem)
        _set(self, "mem_per_gpu", mem_per_gpu)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Resources:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "nodes" in data:
            kwargs["nodes"] = data["nodes"]
        if "gpus_per_node" in data:
            kwargs["gpus_per_node"] = data["gpus_per_node"]
        if "gpu" in data:
            kwargs["gpu"] = data["gpu"]
        if "tasks_per_node" in data:
            kwargs["tasks_per_node"] = data["tasks_per_node"]
        if "cpus_per_task" in data:
            kwargs["cpus_per_task"] = data["cpus_per_task"]
        if "mem" in data:
            kwargs["mem"] = data["mem"]
        if "mem_per_gpu" in data:
            kwargs["mem_per_gpu"] = data["mem_per_gpu"]
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "nodes": self.nodes,
            "gpus_per_node": self.gpus_per_node,
            "gpu": self.gpu,
            "tasks_per_node": self.tasks_per_node,
            "cpus_per_task": self.cpus_per_task,
            "mem": self.mem,
            "mem_per_gpu": self.mem_per_gpu,
        }


class UvSync(_Frozen):
    """What phase one of `uv_sync: two-phase` installs; the ranks then run without syncing."""

    __slots__ = ("all_extras", "extras", "groups", "lock")
    __match_args__ = ("extras", "all_extras", "groups", "lock")

    extras: list[str]
    all_extras: bool
    groups: list[str]
    lock: Literal["frozen", "locked"] | None

    def __init__(
        self,
        *,
        extras: list[str] | None = None,
        all_extras: bool = False,
        groups: list[str] | None = None,
        lock: Literal["frozen", "locked"] | None = None,
    ) -> None:
        _set(self, "extras", [] if extras is None else extras)
        _set(self, "all_extras", all_extras)
        _set(self, "groups", [] if groups is None else groups)
        _set(self, "lock", lock)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> UvSync:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "extras" in data:
            kwargs["extras"] = list(data["extras"])
        if "all_extras" in data:
            kwargs["all_extras"] = data["all_extras"]
        if "groups" in data:
            kwargs["groups"] = list(data["groups"])
        if "lock" in data:
            kwargs["lock"] = data["lock"]
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "extras": list(self.extras),
            "all_extras": self.all_extras,
            "groups": list(self.groups),
            "lock": self.lock,
        }


class Torchrun(_Frozen):
    __slots__ = ("max_restarts", "rdzv")
    __match_args__ = ("rdzv", "max_restarts")

    rdzv: Literal["c10d", "static"]
    max_restarts: int

    def __init__(self, *, rdzv: Literal["c10d", "static"] = "c10d", max_restarts: int = 0) -> None:
        _set(self, "rdzv", rdzv)
        _set(self, "max_restarts", max_restarts)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Torchrun:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "rdzv" in data:
            kwargs["rdzv"] = data["rdzv"]
        if "max_restarts" in data:
            kwargs["max_restarts"] = data["max_restarts"]
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "rdzv": self.rdzv,
            "max_restarts": self.max_restarts,
        }


class Launch(_Frozen):
    __slots__ = (
        "args",
        "master_port",
        "mode",
        "module",
        "program",
        "python",
        "pythonpath",
        "setup",
        "torchrun",
        "uv",
        "uv_sync",
        "workdir",
    )
    __match_args__ = (
        "mode",
        "python",
        "uv_sync",
        "uv",
        "workdir",
        "program",
        "module",
        "args",
        "pythonpath",
        "setup",
        "torchrun",
        "master_port",
    )

    mode: Literal["srun", "torchrun"]
    python: str | None
    uv_sync: Literal["two-phase", "none"]
    uv: UvSync
    workdir: str | None
    program: str | None
    module: str | None
    args: list[str | int | float]
    pythonpath: list[str]
    setup: list[str]
    torchrun: Torchrun
    master_port: int | None

    def __init__(
        self,
        *,
        mode: Literal["srun", "torchrun"] = "srun",
        python: str | None = None,
        uv_sync: Literal["two-phase", "none"] = "two-phase",
        uv: UvSync | None = None,
        workdir: str | None = None,
        program: str | None = None,
        module: str | None = None,
        args: list[str | int | float] | None = None,
        pythonpath: list[str] | None = None,
        setup: list[str] | None = None,
        torchrun: Torchrun | None = None,
        master_port: int | None = None,
    ) -> None:
        _set(self, "mode", mode)
        _set(self, "python", python)
        _set(self, "uv_sync", uv_sync)
        _set(self, "uv", UvSync() if uv is None else uv)
        _set(self, "workdir", workdir)
        _set(self, "program", program)
        _set(self, "module", module)
        _set(self, "args", [] if args is None else args)
        _set(self, "pythonpath", [] if pythonpath is None else pythonpath)
        _set(self, "setup", [] if setup is None else setup)
        _set(self, "torchrun", Torchrun() if torchrun is None else torchrun)
        _set(self, "master_port", master_port)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Launch:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "mode" in data:
            kwargs["mode"] = data["mode"]
        if "python" in data:
            kwargs["python"] = data["python"]
        if "uv_sync" in data:
            kwargs["uv_sync"] = data["uv_sync"]
        if "uv" in data:
            kwargs["uv"] = UvSync.build(data["uv"])
        if "workdir" in data:
            kwargs["workdir"] = data["workdir"]
        if "program" in data:
            kwargs["program"] = data["program"]
        if "module" in data:
            kwargs["module"] = data["module"]
        if "args" in data:
            kwargs["args"] = list(data["args"])
        if "pythonpath" in data:
            kwargs["pythonpath"] = list(data["pythonpath"])
        if "setup" in data:
            kwargs["setup"] = list(data["setup"])
        if "torchrun" in data:
            kwargs["torchrun"] = Torchrun.build(data["torchrun"])
        if "master_port" in data:
            kwargs["master_port"] = data["master_port"]
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "mode": self.mode,
            "python": self.python,
            "uv_sync": self.uv_sync,
            "uv": self.uv.dump(),
            "workdir": self.workdir,
            "program": self.program,
            "module": self.module,
            "args": list(self.args),
            "pythonpath": list(self.pythonpath),
            "setup": list(self.setup),
            "torchrun": self.torchrun.dump(),
            "master_port": self.master_port,
        }


class Sweep(_Frozen):
    """Values to sweep over: their product becomes a job array, one combination per task."""

    __slots__ = ("max_parallel", "values")
    __match_args__ = ("values", "max_parallel")

    values: dict[str, list[str | int | float | bool]]
    max_parallel: int | None

    def __init__(
        self,
        *,
        values: dict[str, list[str | int | float | bool]] | None = None,
        max_parallel: int | None = None,
    ) -> None:
        _set(self, "values", {} if values is None else values)
        _set(self, "max_parallel", max_parallel)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Sweep:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "values" in data:
            kwargs["values"] = {k: list(v) for k, v in data["values"].items()}
        if "max_parallel" in data:
            kwargs["max_parallel"] = data["max_parallel"]
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "values": {k: list(v) for k, v in self.values.items()},
            "max_parallel": self.max_parallel,
        }


class JobSpec(_Frozen):
    """A jobc job spec, version 1."""

    __slots__ = (
        "cluster",
        "container",
        "debug",
        "env",
        "extends",
        "fabric",
        "launch",
        "model",
        "monitoring",
        "name",
        "parallelism",
        "resilience",
        "resources",
        "secrets",
        "slurm",
        "storage",
        "sweep",
        "version",
        "workload",
    )
    __match_args__ = (
        "version",
        "name",
        "resources",
        "launch",
        "extends",
        "cluster",
        "slurm",
        "parallelism",
        "model",
        "workload",
        "fabric",
        "container",
        "env",
        "secrets",
        "storage",
        "resilience",
        "monitoring",
        "debug",
        "sweep",
    )

    version: Literal[1]
    name: str
    resources: Resources
    launch: Launch
    extends: str | None
    cluster: Cluster
    slurm: Slurm
    parallelism: Parallelism
    model: Model | None
    workload: Workload
    fabric: Fabric
    container: Container | None
    env: dict[str, str | int | float]
    secrets: list[str]
    storage: Storage
    resilience: Resilience
    monitoring: Monitoring
    debug: bool
    sweep: Sweep | None

    def __init__(
        self,
        *,
        version: Literal[1],
        name: str,
        resources: Resources,
        launch: Launch,
        extends: str | None = None,
        cluster: Cluster | None = None,
        slurm: Slurm | None = None,
        parallelism: Parallelism | None = None,
        model: Model | None = None,
        workload: Workload | None = None,
        fabric: Fabric | None = None,
        container: Container | None = None,
        env: dict[str, str | int | float] | None = None,
        secrets: list[str] | None = None,
        storage: Storage | None = None,
        resilience: Resilience | None = None,
        monitoring: Monitoring | None = None,
        debug: bool = False,
        sweep: Sweep | None = None,
    ) -> None:
        _set(self, "version", version)
        _set(self, "name", name)
        _set(self, "resources", resources)
        _set(self, "launch", launch)
        _set(self, "extends", extends)
        _set(self, "cluster", Cluster() if cluster is None else cluster)
        _set(self, "slurm", Slurm() if slurm is None else slurm)
        _set(self, "parallelism", Parallelism() if parallelism is None else parallelism)
        _set(self, "model", model)
        _set(self, "workload", Workload() if workload is None else workload)
        _set(self, "fabric", Fabric() if fabric is None else fabric)
        _set(self, "container", container)
        _set(self, "env", {} if env is None else env)
        _set(self, "secrets", [] if secrets is None else secrets)
        _set(self, "storage", Storage() if storage is None else storage)
        _set(self, "resilience", Resilience() if resilience is None else resilience)
        _set(self, "monitoring", Monitoring() if monitoring is None else monitoring)
        _set(self, "debug", debug)
        _set(self, "sweep", sweep)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> JobSpec:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "extends" in data:
            kwargs["extends"] = data["extends"]
        if "cluster" in data:
            kwargs["cluster"] = Cluster.build(data["cluster"])
        if "slurm" in data:
            kwargs["slurm"] = Slurm.build(data["slurm"])
        if "parallelism" in data:
            kwargs["parallelism"] = Parallelism.build(data["parallelism"])
        if "model" in data:
            kwargs["model"] = None if data["model"] is None else Model.build(data["model"])
        if "workload" in data:
            kwargs["workload"] = Workload.build(data["workload"])
        if "fabric" in data:
            kwargs["fabric"] = Fabric.build(data["fabric"])
        if "container" in data:
            kwargs["container"] = None if data["container"] is None else Container.build(data["container"])
        if "env" in data:
            kwargs["env"] = dict(data["env"])
        if "secrets" in data:
            kwargs["secrets"] = list(data["secrets"])
        if "storage" in data:
            kwargs["storage"] = Storage.build(data["storage"])
        if "resilience" in data:
            kwargs["resilience"] = Resilience.build(data["resilience"])
        if "monitoring" in data:
            kwargs["monitoring"] = Monitoring.build(data["monitoring"])
        if "debug" in data:
            kwargs["debug"] = data["debug"]
        if "version" in data:
            kwargs["version"] = data["version"]
        if "name" in data:
            kwargs["name"] = data["name"]
        if "resources" in data:
            kwargs["resources"] = Resources.build(data["resources"])
        if "launch" in data:
            kwargs["launch"] = Launch.build(data["launch"])
        if "sweep" in data:
            kwargs["sweep"] = None if data["sweep"] is None else Sweep.build(data["sweep"])
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "extends": self.extends,
            "cluster": self.cluster.dump(),
            "slurm": self.slurm.dump(),
            "parallelism": self.parallelism.dump(),
            "model": (None if self.model is None else self.model.dump()),
            "workload": self.workload.dump(),
            "fabric": self.fabric.dump(),
            "container": (None if self.container is None else self.container.dump()),
            "env": dict(self.env),
            "secrets": list(self.secrets),
            "storage": self.storage.dump(),
            "resilience": self.resilience.dump(),
            "monitoring": self.monitoring.dump(),
            "debug": self.debug,
            "version": self.version,
            "name": self.name,
            "resources": self.resources.dump(),
            "launch": self.launch.dump(),
            "sweep": (None if self.sweep is None else self.sweep.dump()),
        }


class Profile(_Frozen):
    """A cluster profile: the same sections as a spec, nothing required, named by `profile:`."""

    __slots__ = (
        "cluster",
        "container",
        "debug",
        "env",
        "extends",
        "fabric",
        "launch",
        "model",
        "monitoring",
        "parallelism",
        "profile",
        "resilience",
        "resources",
        "secrets",
        "slurm",
        "storage",
        "version",
        "workload",
    )
    __match_args__ = (
        "profile",
        "extends",
        "cluster",
        "slurm",
        "parallelism",
        "model",
        "workload",
        "fabric",
        "container",
        "env",
        "secrets",
        "storage",
        "resilience",
        "monitoring",
        "debug",
        "version",
        "resources",
        "launch",
    )

    profile: str
    extends: str | None
    cluster: Cluster
    slurm: Slurm
    parallelism: Parallelism
    model: Model | None
    workload: Workload
    fabric: Fabric
    container: Container | None
    env: dict[str, str | int | float]
    secrets: list[str]
    storage: Storage
    resilience: Resilience
    monitoring: Monitoring
    debug: bool
    version: Literal[1] | None
    resources: Resources
    launch: Launch

    def __init__(
        self,
        *,
        profile: str,
        extends: str | None = None,
        cluster: Cluster | None = None,
        slurm: Slurm | None = None,
        parallelism: Parallelism | None = None,
        model: Model | None = None,
        workload: Workload | None = None,
        fabric: Fabric | None = None,
        container: Container | None = None,
        env: dict[str, str | int | float] | None = None,
        secrets: list[str] | None = None,
        storage: Storage | None = None,
        resilience: Resilience | None = None,
        monitoring: Monitoring | None = None,
        debug: bool = False,
        version: Literal[1] | None = None,
        resources: Resources | None = None,
        launch: Launch | None = None,
    ) -> None:
        _set(self, "profile", profile)
        _set(self, "extends", extends)
        _set(self, "cluster", Cluster() if cluster is None else cluster)
        _set(self, "slurm", Slurm() if slurm is None else slurm)
        _set(self, "parallelism", Parallelism() if parallelism is None else parallelism)
        _set(self, "model", model)
        _set(self, "workload", Workload() if workload is None else workload)
        _set(self, "fabric", Fabric() if fabric is None else fabric)
        _set(self, "container", container)
        _set(self, "env", {} if env is None else env)
        _set(self, "secrets", [] if secrets is None else secrets)
        _set(self, "storage", Storage() if storage is None else storage)
        _set(self, "resilience", Resilience() if resilience is None else resilience)
        _set(self, "monitoring", Monitoring() if monitoring is None else monitoring)
        _set(self, "debug", debug)
        _set(self, "version", version)
        _set(self, "resources", Resources() if resources is None else resources)
        _set(self, "launch", Launch() if launch is None else launch)

    @classmethod
    def build(cls, data: Mapping[str, Any]) -> Profile:
        """From plain data that has passed the schema check."""
        kwargs: dict[str, Any] = {}
        if "extends" in data:
            kwargs["extends"] = data["extends"]
        if "cluster" in data:
            kwargs["cluster"] = Cluster.build(data["cluster"])
        if "slurm" in data:
            kwargs["slurm"] = Slurm.build(data["slurm"])
        if "parallelism" in data:
            kwargs["parallelism"] = Parallelism.build(data["parallelism"])
        if "model" in data:
            kwargs["model"] = None if data["model"] is None else Model.build(data["model"])
        if "workload" in data:
            kwargs["workload"] = Workload.build(data["workload"])
        if "fabric" in data:
            kwargs["fabric"] = Fabric.build(data["fabric"])
        if "container" in data:
            kwargs["container"] = None if data["container"] is None else Container.build(data["container"])
        if "env" in data:
            kwargs["env"] = dict(data["env"])
        if "secrets" in data:
            kwargs["secrets"] = list(data["secrets"])
        if "storage" in data:
            kwargs["storage"] = Storage.build(data["storage"])
        if "resilience" in data:
            kwargs["resilience"] = Resilience.build(data["resilience"])
        if "monitoring" in data:
            kwargs["monitoring"] = Monitoring.build(data["monitoring"])
        if "debug" in data:
            kwargs["debug"] = data["debug"]
        if "version" in data:
            kwargs["version"] = data["version"]
        if "profile" in data:
            kwargs["profile"] = data["profile"]
        if "resources" in data:
            kwargs["resources"] = Resources.build(data["resources"])
        if "launch" in data:
            kwargs["launch"] = Launch.build(data["launch"])
        return cls(**kwargs)

    def dump(self) -> dict[str, Any]:
        """Plain data, by alias, defaults included."""
        return {
            "extends": self.extends,
            "cluster": self.cluster.dump(),
            "slurm": self.slurm.dump(),
            "parallelism": self.parallelism.dump(),
            "model": (None if self.model is None else self.model.dump()),
            "workload": self.workload.dump(),
            "fabric": self.fabric.dump(),
            "container": (None if self.container is None else self.container.dump()),
            "env": dict(self.env),
            "secrets": list(self.secrets),
            "storage": self.storage.dump(),
            "resilience": self.resilience.dump(),
            "monitoring": self.monitoring.dump(),
            "debug": self.debug,
            "version": self.version,
            "profile": self.profile,
            "resources": self.resources.dump(),
            "launch": self.launch.dump(),
        }
