"""The job spec, version 1, as pydantic models.

These models are the single source of truth for the spec's structure: the JSON Schema in
``schema/jobc.schema.json`` is generated from them, and every rule reads a validated
:class:`JobSpec`. Field descriptions are written to be read as editor hovers.

Models are strict: YAML already produced typed values, so ``"4"`` is not silently a number and
``true`` is not silently ``1``.
"""

from __future__ import annotations

import copy
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

SPEC_VERSION = 1

NAME_PATTERN = r"^[A-Za-z0-9._-]+$"
# Environment variable names: a leading letter or underscore, then word characters only, so a
# name can never carry shell syntax into the compiled script.
ENV_NAME_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"
PositiveInt = Annotated[int, Field(ge=1)]
NonNegativeInt = Annotated[int, Field(ge=0)]
EnvName = Annotated[str, Field(pattern=ENV_NAME_PATTERN)]
EnvValue = str | int | float
ShellWord = str | int | float

Signal = Literal["SIGTERM", "SIGUSR1", "SIGUSR2", "SIGINT"]


class Section(BaseModel):
    """Base for every section: strict types, unknown keys rejected."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, populate_by_name=True)


class Partition(Section):
    max_time: str | None = Field(
        None, description='Longest wall time the partition allows, e.g. "48:00:00" or "2-00:00:00".'
    )
    default_time: str | None = Field(
        None,
        description='Wall time a job gets when it asks for none (Slurm\'s DefaultTime), e.g. "04:00:00".',
    )
    gpus_per_node: NonNegativeInt | None = Field(
        None, description="GPUs per node in this partition, when it differs from the cluster's."
    )
    cpus_per_node: PositiveInt | None = Field(
        None, description="CPU cores per node in this partition, when it differs from the cluster's."
    )
    nodes: NonNegativeInt | None = Field(None, description="Nodes in the partition.")
    max_nodes: PositiveInt | None = Field(
        None, description="Most nodes one job may use in this partition (Slurm's MaxNodes); absent: no limit."
    )
    min_nodes: PositiveInt | None = Field(
        None, description="Fewest nodes one job may ask for in this partition (Slurm's MinNodes); absent: 1."
    )
    preempt_mode: str | None = Field(
        None,
        description="What happens to a preempted job (Slurm's PreemptMode: OFF, CANCEL, REQUEUE, SUSPEND …).",
    )
    node_types: list[Annotated[str, Field(pattern=NAME_PATTERN)]] = Field(
        default_factory=list,
        description=(
            "Names of the cluster.node_types this partition's nodes are of (with their counts, what "
            "the partition has of GPUs, CPUs and features)."
        ),
    )


class NodeType(Section):
    """One kind of node of the cluster, as Slurm describes it."""

    count: NonNegativeInt | None = Field(None, description="How many nodes of this kind there are.")
    cpus: PositiveInt | None = Field(None, description="CPUs of one node (Slurm's CPUTot).")
    memory_mb: NonNegativeInt | None = Field(
        None, description="Memory of one node in MB (Slurm's RealMemory)."
    )
    gpus: NonNegativeInt | None = Field(None, description="GPUs in one node (its gpu GRES).")
    gpu_type: str | None = Field(
        None, description="The GPUs' GRES type, as a job names it in --gpus=<type>:<count>, e.g. a100."
    )
    features: list[str] = Field(
        default_factory=list, description="Node features a job can ask for with slurm.constraint."
    )


class Cluster(Section):
    """Facts about the machines. Usually written once in a cluster profile."""

    gpus_per_node: NonNegativeInt | None = Field(None, description="GPUs in one node.")
    cpus_per_node: PositiveInt | None = Field(None, description="CPU cores in one node.")
    gpu: str | None = Field(
        None, description="GPU catalogue key of the cluster's GPUs, e.g. h100-80gb (see `jobc rules`)."
    )
    partitions: dict[str, Partition] = Field(
        default_factory=dict, description="Known partitions by name, with their limits."
    )
    default_partition: str | None = Field(
        None, description="The partition a job runs in when slurm.partition is not given."
    )
    all_partitions: bool | None = Field(
        None,
        description=(
            "The profile lists every partition of the cluster (`jobc profile` says so): a partition "
            "not among them does not exist."
        ),
    )
    node_types: dict[Annotated[str, Field(pattern=NAME_PATTERN)], NodeType] = Field(
        default_factory=dict, description="The kinds of node the cluster has, by a name of your choice."
    )
    air_gapped: bool = Field(False, description="Compute nodes cannot reach the internet.")
    exclusive_nodes: bool | None = Field(
        None, description="Whether the site always allocates whole nodes (then ports cannot collide)."
    )


class Mail(Section):
    user: str | None = Field(None, description="Address for job mail (--mail-user).")
    type: list[str] = Field(
        default_factory=list,
        description="Events that send mail (--mail-type): BEGIN, END, FAIL, REQUEUE, ALL, …",
    )


class Slurm(Section):
    """Options that become #SBATCH lines."""

    partition: str | None = Field(None, description="Partition to submit to (--partition).")
    account: str | None = Field(None, description="Account to charge (--account).")
    qos: str | None = Field(None, description="Quality of service (--qos).")
    time: str | int | None = Field(
        None,
        description=(
            'Wall-time limit (--time), quoted: "HH:MM:SS", "D-HH:MM:SS", "MM" … or minutes as a '
            "number. Required for multi-node jobs."
        ),
    )
    exclusive: bool | None = Field(None, description="Whole nodes only (--exclusive).")
    constraint: str | None = Field(None, description="Node features (--constraint).")
    reservation: str | None = Field(None, description="Reservation name (--reservation).")
    mail: Mail = Field(default_factory=Mail, description="Job mail settings.")
    array: str | None = Field(None, description='Job array spec (--array), e.g. "0-9%2".')
    dependency: str | None = Field(None, description='Dependency (--dependency), e.g. "afterok:123".')
    extra: dict[str, str | int | bool | None] = Field(
        default_factory=dict,
        description=(
            "Any other sbatch long option by name (without the leading --). true writes a bare "
            "flag; names are checked against sbatch's options."
        ),
    )


class Resources(Section):
    nodes: PositiveInt = Field(1, description="Number of nodes (--nodes).")
    gpus_per_node: NonNegativeInt | None = Field(
        None,
        description="GPUs used on each node (--gpus-per-node). Defaults to cluster.gpus_per_node.",
    )
    gpu: str | None = Field(
        None,
        description=(
            "GPU catalogue key (memory, generation, GPUs per node), e.g. h100-80gb. Defaults to cluster.gpu."
        ),
    )
    tasks_per_node: PositiveInt | None = Field(
        None,
        description=(
            "Tasks on each node. Derived from launch.mode (srun: one per GPU, torchrun: one); "
            "set only to override."
        ),
    )
    cpus_per_task: PositiveInt | None = Field(None, description="CPU cores per task (--cpus-per-task).")
    mem: str | int | None = Field(None, description='Memory per node (--mem): "0" for all of it, or "200G".')
    mem_per_gpu: str | int | None = Field(None, description='Memory per GPU (--mem-per-gpu), e.g. "80G".')


class Parallelism(Section):
    """How the world of ranks is split. world = nodes × gpus_per_node = tp·pp·cp·dp."""

    tp: PositiveInt = Field(1, description="Tensor-parallel size.")
    pp: PositiveInt = Field(1, description="Pipeline-parallel size.")
    cp: PositiveInt = Field(1, description="Context-parallel size.")
    ep: PositiveInt = Field(1, description="Expert-parallel size (MoE models).")
    etp: PositiveInt | None = Field(
        None,
        description=(
            "Expert tensor-parallel size. null means the same as tp (the Megatron-Core default); "
            "state 1 explicitly when intended."
        ),
    )
    vpp: PositiveInt | None = Field(None, description="Virtual pipeline stages per pipeline rank.")
    dp: PositiveInt | None = Field(
        None, description="Data-parallel size. Derived as world/(tp·pp·cp); if given it must equal that."
    )
    sequence_parallel: bool = Field(False, description="Megatron sequence parallelism (needs tp > 1).")
    sharding: Literal["none", "distributed-optimizer", "fsdp2", "megatron-fsdp"] = Field(
        "none", description="How weights, gradients and optimizer state are sharded over data parallel."
    )


class MoE(Section):
    experts: PositiveInt = Field(description="Routed experts per MoE layer.")
    top_k: PositiveInt = Field(description="Experts each token is routed to.")
    expert_ffn_hidden: PositiveInt | None = Field(
        None, description="Hidden size of one routed expert's MLP (defaults to model.ffn_hidden)."
    )
    shared_experts: NonNegativeInt = Field(0, description="Shared (always active) experts per MoE layer.")
    shared_ffn_hidden: PositiveInt | None = Field(
        None, description="Hidden size of one shared expert's MLP (defaults to expert_ffn_hidden)."
    )
    dense_layers: NonNegativeInt = Field(0, description="Leading layers that are dense, not MoE.")


class Model(Section):
    """The model being trained or served. Optional; turns on the divisibility and memory rules."""

    preset: str | None = Field(
        None,
        description=(
            "A bundled model preset, e.g. llama3-8b, mixtral-8x7b, deepseek-v3, minimax-m2 "
            "(see docs/memory.md); explicit model fields override it."
        ),
    )
    hf_config: str | None = Field(
        None,
        description=(
            "Path to a Hugging Face config.json (or its directory), relative to the spec file; "
            "explicit model fields override it."
        ),
    )
    layers: PositiveInt | None = Field(None, description="Transformer layers.")
    hidden: PositiveInt | None = Field(None, description="Hidden size.")
    heads: PositiveInt | None = Field(None, description="Attention (query) heads.")
    kv_heads: PositiveInt | None = Field(None, description="Key/value heads (GQA); defaults to heads.")
    head_dim: PositiveInt | None = Field(None, description="Size of one head; defaults to hidden/heads.")
    ffn_hidden: PositiveInt | None = Field(None, description="MLP hidden size of dense layers.")
    vocab: PositiveInt | None = Field(None, description="Vocabulary size.")
    tied_embeddings: bool | None = Field(None, description="Input and output embeddings shared.")
    attention_bias: bool | None = Field(
        None, description="Biases on the attention projections (query, key, value and output)."
    )
    mtp_layers: NonNegativeInt | None = Field(
        None,
        description=(
            "Multi-token-prediction modules the job builds (Megatron --mtp-num-layers); default 0, "
            "even when the checkpoint defines some."
        ),
    )
    moe: MoE | None = Field(None, description="Mixture-of-experts layout; null for a dense model.")
    dtype: Literal["bf16", "fp16", "fp32", "fp8"] = Field("bf16", description="Weight precision at run time.")
    checkpoint_dtype: Literal["bf16", "fp16", "fp32", "fp8"] | None = Field(
        None, description="Precision of the checkpoint on disk, when it differs from dtype."
    )


class Workload(Section):
    kind: Literal["pretrain", "finetune", "inference", "convert"] = Field(
        "pretrain", description="What the job does; sets the memory budget."
    )
    seq_length: PositiveInt | None = Field(None, description="Sequence length in tokens.")
    micro_batch: PositiveInt = Field(1, description="Micro-batch size per data-parallel rank.")
    global_batch: PositiveInt | None = Field(None, description="Global batch size in sequences.")
    recompute: Literal["none", "selective", "full"] = Field(
        "selective", description="Activation recomputation."
    )
    overlap_moe_ep_comm: bool = Field(
        False, description="Overlap MoE expert-parallel all-to-all with compute."
    )
    framework: Literal["megatron", "pytorch"] | None = Field(
        None,
        description=(
            "The training code: megatron (Megatron-LM, Megatron-Bridge, NeMo) or pytorch (DDP, "
            "FSDP, transformers, plain loops). Decides the activation model of the memory "
            "estimate and the Megatron-only checks. null: inferred from parallelism.sharding and "
            "the names in launch.program, launch.module and launch.workdir."
        ),
    )


class Torchrun(Section):
    rdzv: Literal["c10d", "static"] = Field(
        "c10d", description="Rendezvous backend for torch.distributed.run."
    )
    max_restarts: NonNegativeInt = Field(0, description="Worker-group restarts inside one allocation.")


class UvSync(Section):
    """What phase one of `uv_sync: two-phase` installs; the ranks then run without syncing."""

    extras: list[Annotated[str, Field(pattern=NAME_PATTERN)]] = Field(
        default_factory=list,
        description="Extras to install (uv sync --extra NAME); a bare uv sync removes any not named.",
    )
    all_extras: bool = Field(False, description="Install every extra (uv sync --all-extras).")
    groups: list[Annotated[str, Field(pattern=NAME_PATTERN)]] = Field(
        default_factory=list, description="Dependency groups to install (uv sync --group NAME)."
    )
    lock: Literal["frozen", "locked"] | None = Field(
        None,
        description=(
            "frozen: install uv.lock as it is (--frozen); locked: stop if uv.lock is out of date "
            "(--locked); null: uv's default, which may rewrite uv.lock."
        ),
    )


class Launch(Section):
    mode: Literal["srun", "torchrun"] = Field(
        "srun",
        description=(
            "srun: Slurm starts one task per GPU. torchrun: one task per node running "
            "torch.distributed.run, which starts one worker per GPU."
        ),
    )
    python: str | None = Field(
        None,
        description=(
            'uv → "uv run --no-sync python"; otherwise a path to a Python interpreter. null: chosen '
            "when the job starts, in launch.workdir: uv for a uv project (a uv.lock there, no "
            "container), else the python on PATH after launch.setup. none: no interpreter, the "
            "program is an executable run as it is (a compiled binary, a console script on PATH "
            "after launch.setup); torchrun runs it with --no-python."
        ),
    )
    uv_sync: Literal["two-phase", "none"] = Field(
        "two-phase",
        description=(
            "two-phase: one `uv sync` on one node before the launch, then every rank runs with "
            "--no-sync. none: no sync."
        ),
    )
    uv: UvSync = Field(
        default_factory=UvSync, description="What the one `uv sync` installs (extras, groups, lock file)."
    )
    workdir: str | None = Field(None, description="Directory the program runs in (on shared storage).")
    program: str | None = Field(
        None,
        description=(
            "Python script to run, relative to workdir; with launch.python: none, an executable (a "
            "path, or a command found on PATH)."
        ),
    )
    module: str | None = Field(None, description="Python module to run (python -m), instead of program.")
    args: list[ShellWord] = Field(
        default_factory=list,
        description="Arguments, each passed as one word. {dotted.path} interpolates spec values.",
    )
    pythonpath: list[str] = Field(default_factory=list, description="Entries prepended to PYTHONPATH.")
    setup: list[str] = Field(
        default_factory=list,
        description=(
            "Shell lines run once in the batch shell before the launch (module loads and the like)."
        ),
    )
    torchrun: Torchrun = Field(default_factory=Torchrun, description="torchrun mode settings.")
    master_port: Annotated[int, Field(ge=1024, le=65535)] | None = Field(
        None,
        description=(
            "A fixed rendezvous port. Default: derived from the job id, so jobs sharing a node never collide."
        ),
    )


class Fabric(Section):
    interface: str | None = Field(
        "auto",
        description=(
            "Network interface for NCCL and Gloo. auto: the first InfiniBand interface that is up "
            "on the node at run time; a name; or null to leave it to NCCL."
        ),
    )
    ib: bool = Field(True, description="Use InfiniBand (NCCL_IB_DISABLE=0).")
    gdr_level: NonNegativeInt | None = Field(2, description="GPUDirect RDMA level (NCCL_NET_GDR_LEVEL).")
    ib_gid_index: NonNegativeInt | None = Field(
        None, description="NCCL_IB_GID_INDEX; site-specific, belongs in a cluster profile."
    )
    nccl_timeout_s: PositiveInt = Field(1800, description="Collective timeout in seconds.")
    nvls: bool | None = Field(
        None, description="NVLink SHARP (NCCL_NVLS_ENABLE); null leaves NCCL's default."
    )
    debug: Literal["VERSION", "WARN", "INFO", "TRACE"] | None = Field(None, description="NCCL_DEBUG level.")
    env: dict[EnvName, EnvValue] = Field(
        default_factory=dict, description="Further NCCL_* / TORCH_NCCL_* variables; names are checked."
    )


class Container(Section):
    """A pyxis/enroot container for every rank."""

    image: str = Field(
        description=(
            "An enroot squashfs path (absolute or ./relative, ending .sqsh) or a registry image "
            '"registry#repo:tag".'
        )
    )
    mounts: list[str] = Field(default_factory=list, description='Bind mounts, "src:dst[:flags]".')
    workdir: str | None = Field(None, description="Working directory inside the container.")
    mount_home: bool = Field(False, description="Mount the home directory into the container.")
    remap_root: bool = Field(False, description="Run as root inside the container.")
    env: list[EnvName] = Field(
        default_factory=list,
        description="Extra variable names to pass into the container (pyxis --container-env).",
    )


class Caches(Section):
    hf_home: str | None = Field(None, description="HF_HOME (Hugging Face cache).")
    uv_cache_dir: str | None = Field(None, description="UV_CACHE_DIR.")
    torch_home: str | None = Field(None, description="TORCH_HOME.")
    triton_cache_dir: str | None = Field(None, description="TRITON_CACHE_DIR.")
    nemo_home: str | None = Field(None, description="NEMO_HOME (NeMo cache).")
    pip_cache_dir: str | None = Field(None, description="PIP_CACHE_DIR.")


class Storage(Section):
    shared: list[str] = Field(
        default_factory=list, description="Path prefixes every node sees (shared file systems)."
    )
    logs: str | None = Field(
        None, description="Directory for the job's logs; {name} interpolates. Default: the submit directory."
    )
    checkpoints: str | None = Field(None, description="Checkpoint directory (JOBC_CHECKPOINT_DIR).")
    caches: Caches = Field(default_factory=Caches, description="Cache directories, exported to every rank.")


class CheckpointInfo(Section):
    async_: bool = Field(False, alias="async", description="Checkpoints are saved asynchronously.")
    size_gb: Annotated[float, Field(gt=0)] | None = Field(None, description="Size of one checkpoint in GB.")
    write_gbps: Annotated[float, Field(gt=0)] | None = Field(
        None, description="Sustained checkpoint write bandwidth in GB/s."
    )


# The classes resilience.retry_on accepts: jobc.tables.heal's CLASSES (a test keeps them equal),
# written out so that the schema lists them and mypy knows them.
RetryClass = Literal[
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
PreflightCheck = Literal["gpus", "paths", "port"]
PREFLIGHT_CHECKS: tuple[PreflightCheck, ...] = ("gpus", "paths", "port")


class Preflight(Section):
    """Checks every node runs once, before the program, in each attempt of the job."""

    checks: list[PreflightCheck] = Field(
        default_factory=lambda: list(PREFLIGHT_CHECKS),
        description=(
            "Built-in checks: gpus (the GPUs Slurm gave are visible and as many as "
            "resources.gpus_per_node; nvidia-smi answers where it exists), paths (every "
            "storage.shared path is there and readable, storage.checkpoints is writable), port "
            "(nothing listens on the rendezvous port, on the master)."
        ),
    )
    command: str | None = Field(
        None,
        description=(
            "A check of your own: a command line run by bash once on every node, outside any "
            "container, from the job's working directory; exit 0 means the node is fit. Its "
            "output goes to the job log."
        ),
    )
    timeout_s: PositiveInt = Field(
        120, description="Seconds the command may run on a node before the node counts as failed."
    )


class Resilience(Section):
    signal: Signal | None = Field(
        None,
        description=(
            "Signal Slurm sends before the time limit or on preemption (--signal=B:<signal>@<grace_s>). "
            "null: none."
        ),
    )
    grace_s: PositiveInt = Field(120, description="Seconds between the signal and the kill.")
    requeue: bool = Field(False, description="Requeue the job after it checkpointed (--requeue).")
    max_restarts: NonNegativeInt = Field(
        3,
        description=(
            "How often the job may be restarted, for any reason: one budget for preemption, the "
            "time limit, a node failure and every retry of resilience.retry_on."
        ),
    )
    checkpoint: CheckpointInfo = Field(
        default_factory=CheckpointInfo,
        description="Checkpoint facts; when size and bandwidth are given the grace window is checked.",
    )
    retry_on: list[RetryClass] = Field(
        default_factory=list,
        description=(
            "Classes of failure the job retries by requeueing itself (within max_restarts), "
            "without the node the failure names: preflight, node_fail, gpu_error, nccl_error, "
            "hang. A bug (exception, cuda_oom, import_error, ...) is never retried. Empty: only "
            "preemption and the time limit requeue."
        ),
    )
    exclude_failed_nodes: bool = Field(
        True,
        description=(
            "Before a retry, add the node the failure names to the job's excluded nodes "
            "(ExcNodeList), so that the next attempt runs without it."
        ),
    )
    preflight: Preflight | None = Field(
        None,
        description=(
            "Check every node before the program starts, in every attempt; a node that fails is "
            "named in the log, and the program does not start. null: no preflight."
        ),
    )


SweepName = Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")]
SweepValues = list[str | int | float | bool]


class Sweep(Section):
    """Values to sweep over: their product becomes a job array, one combination per task."""

    values: dict[SweepName, SweepValues] = Field(
        default_factory=dict,
        description=(
            "Names and their values. Task i of the array runs the i-th combination of the product "
            "(the last name varies fastest); {sweep.NAME} in launch.program and launch.args is "
            "its value."
        ),
    )
    max_parallel: PositiveInt | None = Field(
        None, description="How many tasks may run at once (--array=...%N); null: as many as fit."
    )


class Monitoring(Section):
    gpu_dmon_s: NonNegativeInt = Field(
        0, description="nvidia-smi dmon interval on local rank 0 of each node; 0 = off."
    )
    heartbeat_s: NonNegativeInt = Field(0, description="Timestamp line in the log every N seconds; 0 = off.")
    flight_recorder: NonNegativeInt = Field(
        2000,
        description=(
            "Entries per process group in torch's flight recorder (TORCH_FR_BUFFER_SIZE), dumped "
            "on a collective timeout and by the hang watchdog; 0 = off."
        ),
    )
    hang_s: NonNegativeInt = Field(
        900,
        description=(
            "Seconds without a completed step (world.should_stop()) before every rank writes its "
            "flight recorder and stacks and the job ends; longer than the slowest step, evaluation "
            "or checkpoint; 0 = off."
        ),
    )
    dump_dir: str | None = Field(
        None,
        description=(
            "Where each job gets its dump directory <job name>-<job id>.flight; default: "
            "storage.logs (else the submit directory). Must be shared storage."
        ),
    )


_SECTIONS_DOC = {
    "extends": "A cluster profile to build on, relative to this file; deep-merged, this file wins.",
}


class _Document(Section):
    extends: str | None = Field(None, description=_SECTIONS_DOC["extends"])
    cluster: Cluster = Field(default_factory=Cluster, description="Facts about the machines.")
    slurm: Slurm = Field(default_factory=Slurm, description="Options that become #SBATCH lines.")
    parallelism: Parallelism = Field(default_factory=Parallelism, description="Parallel layout.")
    model: Model | None = Field(None, description="The model; turns on the model-aware rules.")
    workload: Workload = Field(default_factory=Workload, description="What the job does.")
    fabric: Fabric = Field(default_factory=Fabric, description="NCCL and network settings.")
    container: Container | None = Field(None, description="pyxis/enroot container; omitted: none.")
    env: dict[EnvName, EnvValue] = Field(
        default_factory=dict,
        description="Literal variables exported to every rank, never shell-expanded.",
    )
    secrets: list[EnvName] = Field(
        default_factory=list,
        description=(
            "Names of secret variables. They must be set where sbatch runs; they are inherited, "
            "never written into the script."
        ),
    )
    storage: Storage = Field(
        default_factory=Storage, description="Shared storage, logs, checkpoints, caches."
    )
    resilience: Resilience = Field(default_factory=Resilience, description="Preemption and requeue.")
    monitoring: Monitoring = Field(default_factory=Monitoring, description="Background monitors.")
    debug: bool = Field(
        False,
        description=(
            "Debug mode: bash tracing, NCCL_DEBUG=INFO, TORCH_DISTRIBUTED_DEBUG=DETAIL, "
            "PYTHONFAULTHANDLER=1, CUDA_LAUNCH_BLOCKING=1."
        ),
    )


class JobSpec(_Document):
    """A jobc job spec, version 1."""

    model_config = ConfigDict(title="jobc job spec")

    version: Literal[1] = Field(description="Spec format version. Always 1.")
    name: Annotated[str, Field(pattern=NAME_PATTERN, max_length=200)] = Field(
        description="Job name (--job-name): letters, digits, '.', '_' and '-'."
    )
    resources: Resources = Field(description="What to allocate.")
    launch: Launch = Field(description="How the program starts.")
    sweep: Sweep | None = Field(
        None, description="A parameter sweep, run as a job array (slurm.array must then be unset)."
    )


class Profile(_Document):
    """A cluster profile: the same sections as a spec, nothing required, named by `profile:`."""

    version: Literal[1] | None = Field(None, description="Spec format version. Always 1.")
    profile: Annotated[str, Field(pattern=NAME_PATTERN)] = Field(description="Profile name.")
    resources: Resources = Field(default_factory=Resources, description="Resource defaults.")
    launch: Launch = Field(default_factory=Launch, description="Launch defaults.")


def _names_not_patterns(node: Any) -> Any:
    """pydantic writes dict[Name, V] as patternProperties, which lets non-matching keys through;
    propertyNames + additionalProperties rejects them, as the models do."""
    if isinstance(node, list):
        return [_names_not_patterns(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _names_not_patterns(v) for k, v in node.items()}
    patterns = out.pop("patternProperties", None)
    if isinstance(patterns, dict) and len(patterns) == 1:
        ((pattern, value),) = patterns.items()
        out["propertyNames"] = {"pattern": pattern}
        out["additionalProperties"] = value
    elif patterns is not None:
        out["patternProperties"] = patterns
    return out


# Required keys of a spec that a cluster profile may supply instead (Profile has all three).
_INHERITABLE = ("version", "resources", "launch")


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a spec file: a job spec or a cluster profile."""
    spec = _names_not_patterns(JobSpec.model_json_schema(by_alias=True))
    profile = _names_not_patterns(Profile.model_json_schema(by_alias=True))
    defs = dict(spec.pop("$defs", {}))
    defs.update(profile.pop("$defs", {}))
    defs["JobSpec"] = spec
    defs["Profile"] = profile
    # jobc checks the spec merged with the profiles it extends, so a file that extends one may
    # leave to it what the profile can hold; an editor sees the file alone. JobSpec stays the
    # merged spec (lint validates with it); this is the same shape minus those requirements.
    extending = copy.deepcopy(spec)
    extending["title"] = "jobc job spec that extends a cluster profile"
    extending["required"] = [key for key in spec["required"] if key not in _INHERITABLE]
    defs["ExtendingJobSpec"] = extending
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://jobc.dev/schema/v1/jobc.schema.json",
        "title": "jobc spec or cluster profile",
        "description": (
            "A jobc job spec (with `name:`) or a cluster profile (with `profile:`). "
            "See `jobc rules` for the semantic checks."
        ),
        # if/then rather than oneOf, so a validator reports the errors of the one shape meant.
        "type": "object",
        "if": {"required": ["profile"]},
        "then": {"$ref": "#/$defs/Profile"},
        "else": {
            "if": {"required": ["extends"], "properties": {"extends": {"type": "string"}}},
            "then": {"$ref": "#/$defs/ExtendingJobSpec"},
            "else": {"$ref": "#/$defs/JobSpec"},
        },
        "$defs": defs,
    }
