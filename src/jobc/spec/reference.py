"""The spec's fields as a reference: each field's type, default and description from the schema,
and what it becomes in the compiled script, from `COMPILES_TO` (the one place that says so).

`docs/spec.md` is generated from this (with the rules that read each field, which the lint stage
adds); `defaults_left` names the fields a spec left to a default whose default reaches the
script, for the header of the compiled script and for `jobc plan`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jobc.spec.context import Context

# What each field becomes in the compiled script. A path names a field; `*` stands for any key
# of a mapping (a partition's name). Every leaf of the schema has an entry: a test fails when a
# new field has none. Fields that only facts or rules read say so.
_RULES_ONLY = "nothing in the script: read by the rules"
_MODEL = "nothing in the script: read by the memory estimate, the model rules and `jobc plan`"
COMPILES_TO: dict[str, str] = {
    "version": "nothing: the format version jobc reads the spec as",
    "name": "`#SBATCH --job-name`, `JOBC_SPEC_NAME`, `{name}` in interpolated values",
    "extends": "nothing itself: the profile's values are merged under the spec's",
    # cluster: facts about the machines
    "cluster.gpus_per_node": "`#SBATCH --gpus-per-node` when resources.gpus_per_node is not set",
    "cluster.cpus_per_node": _RULES_ONLY + " (JC109)",
    "cluster.gpu": _MODEL + ", when resources.gpu is not set",
    "cluster.partitions.*.max_time": _RULES_ONLY + " (JC108)",
    "cluster.partitions.*.default_time": _RULES_ONLY,
    "cluster.partitions.*.gpus_per_node": _RULES_ONLY,
    "cluster.partitions.*.cpus_per_node": _RULES_ONLY,
    "cluster.partitions.*.nodes": _RULES_ONLY,
    "cluster.partitions.*.max_nodes": _RULES_ONLY + " (JC121)",
    "cluster.partitions.*.min_nodes": _RULES_ONLY + " (JC121)",
    "cluster.partitions.*.preempt_mode": _RULES_ONLY,
    "cluster.partitions.*.node_types": _RULES_ONLY,
    "cluster.default_partition": _RULES_ONLY + " (the partition assumed when slurm.partition is not set)",
    "cluster.all_partitions": _RULES_ONLY + " (JC120: whether a partition not listed exists)",
    "cluster.node_types.*.count": _RULES_ONLY,
    "cluster.node_types.*.cpus": _RULES_ONLY,
    "cluster.node_types.*.memory_mb": _RULES_ONLY,
    "cluster.node_types.*.gpus": _RULES_ONLY,
    "cluster.node_types.*.gpu_type": _RULES_ONLY,
    "cluster.node_types.*.features": _RULES_ONLY,
    "cluster.air_gapped": "`HF_HUB_OFFLINE=1` and `HF_DATASETS_OFFLINE=1` exported to every rank",
    "cluster.exclusive_nodes": _RULES_ONLY + " (JC104: whether ports can collide)",
    # slurm: #SBATCH lines
    "slurm.partition": "`#SBATCH --partition`",
    "slurm.account": "`#SBATCH --account`",
    "slurm.qos": "`#SBATCH --qos`",
    "slurm.time": "`#SBATCH --time`",
    "slurm.exclusive": "`#SBATCH --exclusive` when true",
    "slurm.constraint": "`#SBATCH --constraint`",
    "slurm.reservation": "`#SBATCH --reservation`",
    "slurm.mail.user": "`#SBATCH --mail-user`",
    "slurm.mail.type": "`#SBATCH --mail-type`, comma-separated",
    "slurm.array": "`#SBATCH --array`; the log name gets `%A_%a`",
    "slurm.dependency": "`#SBATCH --dependency`",
    "slurm.extra": "one `#SBATCH --NAME[=VALUE]` per entry, in name order",
    # resources
    "resources.nodes": (
        "`#SBATCH --nodes`, `JOBC_NODES`, the launcher's node count; checked against the allocation"
    ),
    "resources.gpus_per_node": (
        "`#SBATCH --gpus-per-node`, `JOBC_GPUS_PER_NODE`, torchrun's `--nproc-per-node`"
    ),
    "resources.gpu": _MODEL + " (GPU memory and generation; CUDA_DEVICE_MAX_CONNECTIONS)",
    "resources.tasks_per_node": "`#SBATCH --ntasks-per-node` (default from launch.mode)",
    "resources.cpus_per_task": "`#SBATCH --cpus-per-task` and the step's `srun --cpus-per-task`",
    "resources.mem": "`#SBATCH --mem`",
    "resources.mem_per_gpu": "`#SBATCH --mem-per-gpu`",
    # parallelism
    "parallelism.tp": "`JOBC_TP` (jobc.runtime's device mesh); `{parallelism.tp}` in launch.args",
    "parallelism.pp": "`JOBC_PP`; `{parallelism.pp}` in launch.args",
    "parallelism.cp": "`JOBC_CP`; `{parallelism.cp}` in launch.args",
    "parallelism.ep": "`JOBC_EP`; `{parallelism.ep}` in launch.args",
    "parallelism.etp": _MODEL,
    "parallelism.vpp": _MODEL,
    "parallelism.dp": "`JOBC_DP` (derived when not given)",
    "parallelism.sequence_parallel": _MODEL,
    "parallelism.sharding": _MODEL + " (and CUDA_DEVICE_MAX_CONNECTIONS)",
    # model
    "model.preset": _MODEL,
    "model.hf_config": _MODEL,
    "model.layers": _MODEL,
    "model.hidden": _MODEL,
    "model.heads": _MODEL,
    "model.kv_heads": _MODEL,
    "model.head_dim": _MODEL,
    "model.ffn_hidden": _MODEL,
    "model.vocab": _MODEL,
    "model.tied_embeddings": _MODEL,
    "model.attention_bias": _MODEL,
    "model.mtp_layers": _MODEL,
    "model.moe.experts": _MODEL,
    "model.moe.top_k": _MODEL,
    "model.moe.expert_ffn_hidden": _MODEL,
    "model.moe.shared_experts": _MODEL,
    "model.moe.shared_ffn_hidden": _MODEL,
    "model.moe.dense_layers": _MODEL,
    "model.dtype": _MODEL,
    "model.checkpoint_dtype": _MODEL,
    # workload
    "workload.kind": _MODEL,
    "workload.seq_length": _MODEL,
    "workload.micro_batch": _MODEL,
    "workload.global_batch": _MODEL,
    "workload.recompute": _MODEL,
    "workload.overlap_moe_ep_comm": _MODEL + " (and CUDA_DEVICE_MAX_CONNECTIONS=32)",
    "workload.framework": _MODEL,
    # fabric
    "fabric.interface": (
        "`NCCL_SOCKET_IFNAME` and `GLOO_SOCKET_IFNAME`: a name as given; auto: the first InfiniBand "
        "interface that is up, found on each node at run time; null: not exported"
    ),
    "fabric.ib": "`NCCL_IB_DISABLE` (0 when true, 1 when false)",
    "fabric.gdr_level": "`NCCL_NET_GDR_LEVEL` (null: not exported)",
    "fabric.ib_gid_index": "`NCCL_IB_GID_INDEX`",
    "fabric.nccl_timeout_s": "`JOBC_COLLECTIVE_TIMEOUT_S` (jobc.runtime's process group timeout)",
    "fabric.nvls": "`NCCL_NVLS_ENABLE`",
    "fabric.debug": "`NCCL_DEBUG`",
    "fabric.env": "one export per entry, after the fabric's own (an entry wins)",
    # container
    "container.image": "srun's `--container-image` on every step",
    "container.mounts": "srun's `--container-mounts`",
    "container.workdir": "srun's `--container-workdir`",
    "container.mount_home": "srun's `--container-mount-home` or `--no-container-mount-home`",
    "container.remap_root": "srun's `--container-remap-root` or `--no-container-remap-root`",
    "container.env": "srun's `--container-env`, with every variable jobc exports",
    # environment
    "env": "one `export NAME='value'` per entry, to every rank, never shell-expanded",
    "secrets": "a check that each is set where sbatch runs (`${NAME:?…}`); never the value",
    # storage
    "storage.shared": _RULES_ONLY + " (JC503, JC701, JC703, JC704)",
    "storage.logs": "`#SBATCH --output=<logs>/%x-%j.out` (jobc submit creates the directory)",
    "storage.checkpoints": "`JOBC_CHECKPOINT_DIR`",
    "storage.caches.hf_home": "`export HF_HOME`",
    "storage.caches.uv_cache_dir": "`export UV_CACHE_DIR`",
    "storage.caches.torch_home": "`export TORCH_HOME`",
    "storage.caches.triton_cache_dir": "`export TRITON_CACHE_DIR`",
    "storage.caches.nemo_home": "`export NEMO_HOME`",
    "storage.caches.pip_cache_dir": "`export PIP_CACHE_DIR`",
    # resilience
    "resilience.signal": (
        "`#SBATCH --signal=B:<signal>@<grace_s>`, a trap that passes it to every rank, `JOBC_SIGNAL`"
    ),
    "resilience.grace_s": "the `@<grace_s>` of `--signal`, `JOBC_GRACE_S` (less the margin jobc keeps)",
    "resilience.requeue": "`#SBATCH --requeue` (else `--no-requeue`) and the script's own `scontrol requeue`",
    "resilience.max_restarts": "`JOBC_MAX_RESTARTS`: how often the script requeues the job",
    "resilience.checkpoint.async": _RULES_ONLY + " (JC603)",
    "resilience.checkpoint.size_gb": _RULES_ONLY + " (JC603)",
    "resilience.checkpoint.write_gbps": _RULES_ONLY + " (JC603)",
    "resilience.retry_on": (
        "`jobc heal start` and `jobc heal end` in the batch shell, around the launch: the job "
        "judges each attempt and requeues itself on these classes (`--retry-on`)"
    ),
    "resilience.exclude_failed_nodes": (
        "`--exclude-failed-nodes` of `jobc heal`: a retry sets ExcNodeList to the node the failure names"
    ),
    "resilience.preflight.checks": 'the checks of the preflight step (`srun … bash -c "$jobc_preflight"`)',
    "resilience.preflight.command": "the preflight step's own check, run by bash on every node",
    "resilience.preflight.timeout_s": "the command's `timeout` in the preflight step (the step: 120 s more)",
    # monitoring
    "monitoring.gpu_dmon_s": "an `nvidia-smi dmon` in the background on local rank 0 of each node (0: none)",
    "monitoring.heartbeat_s": "a timestamp line in the log every N seconds (0: none)",
    "monitoring.flight_recorder": (
        "`TORCH_FR_BUFFER_SIZE` and `TORCH_NCCL_TRACE_BUFFER_SIZE` (and dump on timeout)"
    ),
    "monitoring.hang_s": "`JOBC_HANG_S`: jobc.runtime's hang watchdog",
    "monitoring.dump_dir": "`JOBC_DUMP_DIR`, the directory of the job's hang dumps",
    "debug": (
        "`set -x`, `NCCL_DEBUG=INFO`, `TORCH_DISTRIBUTED_DEBUG=DETAIL`, `PYTHONFAULTHANDLER=1`, "
        "`CUDA_LAUNCH_BLOCKING=1`"
    ),
    # launch
    "launch.mode": (
        "how the step starts: srun one task per GPU, or torchrun once per node; `JOBC_LAUNCH_MODE`"
    ),
    "launch.python": (
        "the interpreter words of the launch: `uv run --no-sync python` for uv, a path as given; "
        "null: chosen when the job starts (uv for a uv project, else the python on PATH); none: "
        "no interpreter, the program runs as it is (torchrun's `--no-python`)"
    ),
    "launch.uv_sync": "two-phase: one `uv sync` step on one node before the launch",
    "launch.uv.extras": "`uv sync --extra NAME`",
    "launch.uv.all_extras": "`uv sync --all-extras`",
    "launch.uv.groups": "`uv sync --group NAME`",
    "launch.uv.lock": "`uv sync --frozen` or `--locked`",
    "launch.workdir": "`cd` in the batch shell before the launch",
    "launch.program": "the program the interpreter runs on every rank (with `python: none`, the executable)",
    "launch.module": "`python -m MODULE` instead of a program",
    "launch.args": "the program's arguments, each one word, `{dotted.path}` interpolated",
    "launch.pythonpath": "`PYTHONPATH` entries, prepended",
    "launch.setup": "shell lines run once in the batch shell before the launch",
    "launch.torchrun.rdzv": "torchrun's `--rdzv-backend`",
    "launch.torchrun.max_restarts": "torchrun's `--max-restarts`",
    "launch.master_port": "`MASTER_PORT` (default: 20000 + job id % 9000, derived at run time)",
    # sweeps
    "sweep.values": "`#SBATCH --array` over their product; each task picks its combination",
    "sweep.max_parallel": "the `%N` of `--array`",
}


@dataclass(frozen=True)
class Field:
    path: str  # dotted, `*` for a mapping's key
    type: str
    default: str  # as YAML would write it; "required" or "none" (no value) when there is none
    description: str
    compiles_to: str


def _schema() -> dict[str, Any]:
    # the packaged copy of the schema (kept current by a test): reading it costs nothing next to
    # building it from the models
    from jobc.data import read_text

    schema: dict[str, Any] = json.loads(read_text("jobc.schema.json"))
    return schema


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    return node


def _object(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any] | None:
    """The object schema a field holds (through a reference or `X | null`), or None."""
    node = _resolve(node, defs)
    if "properties" in node:
        return node
    for option in node.get("anyOf", ()):
        inner = _resolve(option, defs)
        if "properties" in inner:
            return inner
    return None


def _type(node: dict[str, Any], defs: dict[str, Any]) -> str:
    node = _resolve(node, defs)
    if "anyOf" in node:
        return " or ".join(dict.fromkeys(_type(o, defs) for o in node["anyOf"]))
    if "enum" in node:
        return " \\| ".join(json.dumps(v) for v in node["enum"])
    if "const" in node:
        return json.dumps(node["const"])
    kind = node.get("type", "any")
    if kind == "array":
        return f"list of {_type(node.get('items', {}), defs)}"
    if kind == "object":
        values = node.get("additionalProperties")
        return f"map of {_type(values, defs)}" if isinstance(values, dict) else "map"
    bounds = [
        f"≥ {node['minimum']}" if "minimum" in node else "",
        f"≤ {node['maximum']}" if "maximum" in node else "",
    ]
    extra = ", ".join(b for b in bounds if b)
    return f"{kind} ({extra})" if extra else str(kind)


def _default(node: dict[str, Any], kind: str, required: bool) -> str:
    if required:
        return "required"
    if "default" not in node:
        # a list or mapping made fresh for each spec (a default factory) is empty
        return "[]" if kind.startswith("list") else "{}" if kind.startswith("map") else "none"
    value = node["default"]
    return "null" if value is None else json.dumps(value, ensure_ascii=False)


def _walk(node: dict[str, Any], defs: dict[str, Any], path: list[str]) -> Iterator[Field]:
    obj = _object(node, defs)
    assert obj is not None
    required = set(obj.get("required", ()))
    for name, child in obj["properties"].items():
        here = [*path, name]
        inner = _object(child, defs)
        if inner is not None:
            yield from _walk(child, defs, here)
            continue
        values = _resolve(child, defs).get("additionalProperties")
        if isinstance(values, dict) and _object(values, defs) is not None:
            yield from _walk(values, defs, [*here, "*"])
            continue
        dotted = ".".join(here)
        kind = _type(child, defs)
        yield Field(
            path=dotted,
            type=kind,
            default=_default(child, kind, name in required),
            description=str(_resolve(child, defs).get("description", child.get("description", ""))),
            compiles_to=COMPILES_TO.get(dotted, ""),
        )


@cache
def fields() -> list[Field]:
    """Every leaf field of a job spec, in the schema's order."""
    schema = _schema()
    defs = schema["$defs"]
    return list(_walk(defs["JobSpec"], defs, []))


def missing_entries() -> list[str]:
    """Leaf fields without a `COMPILES_TO` entry, and entries that name no field."""
    paths = [f.path for f in fields()]
    return [p for p in paths if p not in COMPILES_TO] + [
        f"{p} (no such field)" for p in COMPILES_TO if p not in paths
    ]


# Fields whose default reaches the compiled script: left unwritten, each still decides a line of
# it, so the script's header and `jobc plan` name them. The others are facts for the rules, or
# leave nothing in the script when unset.
SCRIPT_DEFAULTS: tuple[str, ...] = (
    "launch.mode",
    "launch.python",
    "launch.uv_sync",
    "resources.tasks_per_node",
    "fabric.interface",
    "fabric.ib",
    "fabric.gdr_level",
    "fabric.nccl_timeout_s",
    "resilience.signal",
    "resilience.requeue",
    "monitoring.flight_recorder",
    "monitoring.hang_s",
    "launch.master_port",
    "storage.logs",
)


def _effective(ctx: Context, path: str, default: str) -> str:
    """What an unwritten field comes to for this spec, in words where the schema's default
    (null, a derived value) would not say it."""
    spec = ctx.spec
    if path == "resources.tasks_per_node":
        each = "per GPU" if spec.launch.mode == "srun" else "per node"
        return f"{ctx.tasks_per_node} (one {each}, from launch.mode)"
    if path == "launch.python":
        if spec.container is not None:
            return "the container's python on PATH"
        return "chosen when the job starts (uv if the workdir has a uv.lock, else python on PATH)"
    if path == "launch.uv_sync" and ctx.uses_uv is False:
        return default + " (not used: no uv)"
    if path == "storage.logs":
        return "the submit directory (slurm-%j.out)"
    if path == "launch.master_port":
        return "20000 + job id % 9000"
    if path == "resilience.signal":
        return "null (no warning before the time limit)"
    if len(default) > 2 and default[0] == default[-1] == '"' and " " not in default:
        return default[1:-1]  # a plain word needs no quotes in prose
    return default


def defaults_left(ctx: Context) -> list[tuple[str, str]]:
    """(field, value) for each of `SCRIPT_DEFAULTS` the spec, its profiles and --set left
    unwritten: the choices jobc made for the spec, which its script's header and `jobc plan`
    name so that none of them is a surprise once the job runs."""
    by_path = {f.path: f for f in fields()}
    return [
        (path, _effective(ctx, path, by_path[path].default))
        for path in SCRIPT_DEFAULTS
        if not ctx.given(*path.split("."))
    ]
