"""The packaged JSON that every lint reads, as Python literals: the JSON Schema's definitions
(`jobc.schema.json`), the GPU catalogue (`gpus.json`) and the model presets (`models.json`).

Loaded from bytecode, these cost a fresh process a fraction of importing `json` and parsing
the files. The JSON files stay the packaged facts; a test holds these to them.

Generated from them by `tools/regen.py`; do not edit."""

from __future__ import annotations

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

SCHEMA_DEFS: dict[str, Any] = {
    "Caches": {
        "additionalProperties": False,
        "properties": {
            "hf_home": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "HF_HOME (Hugging Face cache).",
                "title": "Hf Home",
            },
            "uv_cache_dir": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "UV_CACHE_DIR.",
                "title": "Uv Cache Dir",
            },
            "torch_home": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "TORCH_HOME.",
                "title": "Torch Home",
            },
            "triton_cache_dir": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "TRITON_CACHE_DIR.",
                "title": "Triton Cache Dir",
            },
            "nemo_home": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "NEMO_HOME (NeMo cache).",
                "title": "Nemo Home",
            },
            "pip_cache_dir": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "PIP_CACHE_DIR.",
                "title": "Pip Cache Dir",
            },
        },
        "title": "Caches",
        "type": "object",
    },
    "CheckpointInfo": {
        "additionalProperties": False,
        "properties": {
            "async": {
                "default": False,
                "description": "Checkpoints are saved asynchronously.",
                "title": "Async",
                "type": "boolean",
            },
            "size_gb": {
                "anyOf": [{"exclusiveMinimum": 0, "type": "number"}, {"type": "null"}],
                "default": None,
                "description": "Size of one checkpoint in GB.",
                "title": "Size Gb",
            },
            "write_gbps": {
                "anyOf": [{"exclusiveMinimum": 0, "type": "number"}, {"type": "null"}],
                "default": None,
                "description": "Sustained checkpoint write bandwidth in GB/s.",
                "title": "Write Gbps",
            },
        },
        "title": "CheckpointInfo",
        "type": "object",
    },
    "Cluster": {
        "additionalProperties": False,
        "description": "Facts about the machines. Usually written once in a cluster profile.",
        "properties": {
            "gpus_per_node": {
                "anyOf": [{"minimum": 0, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "GPUs in one node.",
                "title": "Gpus Per Node",
            },
            "cpus_per_node": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "CPU cores in one node.",
                "title": "Cpus Per Node",
            },
            "gpu": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "GPU catalogue key of the cluster's GPUs, e.g. h100-80gb (see `jobc rules`).",
                "title": "Gpu",
            },
            "partitions": {
                "additionalProperties": {"$ref": "#/$defs/Partition"},
                "description": "Known partitions by name, with their limits.",
                "title": "Partitions",
                "type": "object",
            },
            "default_partition": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "The partition a job runs in when slurm.partition is not given.",
                "title": "Default Partition",
            },
            "all_partitions": {
                "anyOf": [{"type": "boolean"}, {"type": "null"}],
                "default": None,
                "description": "The profile lists every partition "
                "of the cluster (`jobc profile` says "
                "so): a partition not among them "
                "does not exist.",
                "title": "All Partitions",
            },
            "node_types": {
                "description": "The kinds of node the cluster has, by a name of your choice.",
                "title": "Node Types",
                "type": "object",
                "propertyNames": {"pattern": "^[A-Za-z0-9._-]+$"},
                "additionalProperties": {"$ref": "#/$defs/NodeType"},
            },
            "air_gapped": {
                "default": False,
                "description": "Compute nodes cannot reach the internet.",
                "title": "Air Gapped",
                "type": "boolean",
            },
            "exclusive_nodes": {
                "anyOf": [{"type": "boolean"}, {"type": "null"}],
                "default": None,
                "description": "Whether the site always allocates whole nodes (then ports cannot collide).",
                "title": "Exclusive Nodes",
            },
        },
        "title": "Cluster",
        "type": "object",
    },
    "Container": {
        "additionalProperties": False,
        "description": "A pyxis/enroot container for every rank.",
        "properties": {
            "image": {
                "description": "An enroot squashfs path (absolute or "
                "./relative, ending .sqsh) or a registry "
                'image "registry#repo:tag".',
                "title": "Image",
                "type": "string",
            },
            "mounts": {
                "description": 'Bind mounts, "src:dst[:flags]".',
                "items": {"type": "string"},
                "title": "Mounts",
                "type": "array",
            },
            "workdir": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "Working directory inside the container.",
                "title": "Workdir",
            },
            "mount_home": {
                "default": False,
                "description": "Mount the home directory into the container.",
                "title": "Mount Home",
                "type": "boolean",
            },
            "remap_root": {
                "default": False,
                "description": "Run as root inside the container.",
                "title": "Remap Root",
                "type": "boolean",
            },
            "env": {
                "description": "Extra variable names to pass into the container (pyxis --container-env).",
                "items": {"pattern": "^[A-Za-z_][A-Za-z0-9_]*$", "type": "string"},
                "title": "Env",
                "type": "array",
            },
        },
        "required": ["image"],
        "title": "Container",
        "type": "object",
    },
    "Fabric": {
        "additionalProperties": False,
        "properties": {
            "interface": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": "auto",
                "description": "Network interface for NCCL and Gloo. "
                "auto: the first InfiniBand interface that "
                "is up on the node at run time; a name; or "
                "null to leave it to NCCL.",
                "title": "Interface",
            },
            "ib": {
                "default": True,
                "description": "Use InfiniBand (NCCL_IB_DISABLE=0).",
                "title": "Ib",
                "type": "boolean",
            },
            "gdr_level": {
                "anyOf": [{"minimum": 0, "type": "integer"}, {"type": "null"}],
                "default": 2,
                "description": "GPUDirect RDMA level (NCCL_NET_GDR_LEVEL).",
                "title": "Gdr Level",
            },
            "ib_gid_index": {
                "anyOf": [{"minimum": 0, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "NCCL_IB_GID_INDEX; site-specific, belongs in a cluster profile.",
                "title": "Ib Gid Index",
            },
            "nccl_timeout_s": {
                "default": 1800,
                "description": "Collective timeout in seconds.",
                "minimum": 1,
                "title": "Nccl Timeout S",
                "type": "integer",
            },
            "nvls": {
                "anyOf": [{"type": "boolean"}, {"type": "null"}],
                "default": None,
                "description": "NVLink SHARP (NCCL_NVLS_ENABLE); null leaves NCCL's default.",
                "title": "Nvls",
            },
            "debug": {
                "anyOf": [{"enum": ["VERSION", "WARN", "INFO", "TRACE"], "type": "string"}, {"type": "null"}],
                "default": None,
                "description": "NCCL_DEBUG level.",
                "title": "Debug",
            },
            "env": {
                "description": "Further NCCL_* / TORCH_NCCL_* variables; names are checked.",
                "title": "Env",
                "type": "object",
                "propertyNames": {"pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
                "additionalProperties": {
                    "anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "number"}]
                },
            },
        },
        "title": "Fabric",
        "type": "object",
    },
    "Launch": {
        "additionalProperties": False,
        "properties": {
            "mode": {
                "default": "srun",
                "description": "srun: Slurm starts one task per GPU. torchrun: "
                "one task per node running "
                "torch.distributed.run, which starts one worker "
                "per GPU.",
                "enum": ["srun", "torchrun"],
                "title": "Mode",
                "type": "string",
            },
            "python": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": 'uv → "uv run --no-sync python"; otherwise a '
                "path to a Python interpreter. null: chosen "
                "when the job starts, in launch.workdir: uv "
                "for a uv project (a uv.lock there, no "
                "container), else the python on PATH after "
                "launch.setup. none: no interpreter, the "
                "program is an executable run as it is (a "
                "compiled binary, a console script on PATH "
                "after launch.setup); torchrun runs it with "
                "--no-python.",
                "title": "Python",
            },
            "uv_sync": {
                "default": "two-phase",
                "description": "two-phase: one `uv sync` on one node before "
                "the launch, then every rank runs with "
                "--no-sync. none: no sync.",
                "enum": ["two-phase", "none"],
                "title": "Uv Sync",
                "type": "string",
            },
            "uv": {
                "$ref": "#/$defs/UvSync",
                "description": "What the one `uv sync` installs (extras, groups, lock file).",
            },
            "workdir": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "Directory the program runs in (on shared storage).",
                "title": "Workdir",
            },
            "program": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "Python script to run, relative to workdir; "
                "with launch.python: none, an executable (a "
                "path, or a command found on PATH).",
                "title": "Program",
            },
            "module": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "Python module to run (python -m), instead of program.",
                "title": "Module",
            },
            "args": {
                "description": "Arguments, each passed as one word. {dotted.path} interpolates spec values.",
                "items": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "number"}]},
                "title": "Args",
                "type": "array",
            },
            "pythonpath": {
                "description": "Entries prepended to PYTHONPATH.",
                "items": {"type": "string"},
                "title": "Pythonpath",
                "type": "array",
            },
            "setup": {
                "description": "Shell lines run once in the batch shell "
                "before the launch (module loads and the "
                "like).",
                "items": {"type": "string"},
                "title": "Setup",
                "type": "array",
            },
            "torchrun": {"$ref": "#/$defs/Torchrun", "description": "torchrun mode settings."},
            "master_port": {
                "anyOf": [{"maximum": 65535, "minimum": 1024, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "A fixed rendezvous port. Default: "
                "derived from the job id, so jobs "
                "sharing a node never collide.",
                "title": "Master Port",
            },
        },
        "title": "Launch",
        "type": "object",
    },
    "Mail": {
        "additionalProperties": False,
        "properties": {
            "user": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "Address for job mail (--mail-user).",
                "title": "User",
            },
            "type": {
                "description": "Events that send mail (--mail-type): BEGIN, END, FAIL, REQUEUE, ALL, …",
                "items": {"type": "string"},
                "title": "Type",
                "type": "array",
            },
        },
        "title": "Mail",
        "type": "object",
    },
    "MoE": {
        "additionalProperties": False,
        "properties": {
            "experts": {
                "description": "Routed experts per MoE layer.",
                "minimum": 1,
                "title": "Experts",
                "type": "integer",
            },
            "top_k": {
                "description": "Experts each token is routed to.",
                "minimum": 1,
                "title": "Top K",
                "type": "integer",
            },
            "expert_ffn_hidden": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Hidden size of one routed expert's MLP (defaults to model.ffn_hidden).",
                "title": "Expert Ffn Hidden",
            },
            "shared_experts": {
                "default": 0,
                "description": "Shared (always active) experts per MoE layer.",
                "minimum": 0,
                "title": "Shared Experts",
                "type": "integer",
            },
            "shared_ffn_hidden": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Hidden size of one shared expert's MLP (defaults to expert_ffn_hidden).",
                "title": "Shared Ffn Hidden",
            },
            "dense_layers": {
                "default": 0,
                "description": "Leading layers that are dense, not MoE.",
                "minimum": 0,
                "title": "Dense Layers",
                "type": "integer",
            },
        },
        "required": ["experts", "top_k"],
        "title": "MoE",
        "type": "object",
    },
    "Model": {
        "additionalProperties": False,
        "description": "The model being trained or served. Optional; turns on the divisibility "
        "and memory rules.",
        "properties": {
            "preset": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "A bundled model preset, e.g. llama3-8b, "
                "mixtral-8x7b, deepseek-v3, minimax-m2 (see "
                "docs/memory.md); explicit model fields "
                "override it.",
                "title": "Preset",
            },
            "hf_config": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "Path to a Hugging Face config.json (or its "
                "directory), relative to the spec file; "
                "explicit model fields override it.",
                "title": "Hf Config",
            },
            "layers": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Transformer layers.",
                "title": "Layers",
            },
            "hidden": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Hidden size.",
                "title": "Hidden",
            },
            "heads": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Attention (query) heads.",
                "title": "Heads",
            },
            "kv_heads": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Key/value heads (GQA); defaults to heads.",
                "title": "Kv Heads",
            },
            "head_dim": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Size of one head; defaults to hidden/heads.",
                "title": "Head Dim",
            },
            "ffn_hidden": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "MLP hidden size of dense layers.",
                "title": "Ffn Hidden",
            },
            "vocab": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Vocabulary size.",
                "title": "Vocab",
            },
            "tied_embeddings": {
                "anyOf": [{"type": "boolean"}, {"type": "null"}],
                "default": None,
                "description": "Input and output embeddings shared.",
                "title": "Tied Embeddings",
            },
            "attention_bias": {
                "anyOf": [{"type": "boolean"}, {"type": "null"}],
                "default": None,
                "description": "Biases on the attention projections (query, key, value and output).",
                "title": "Attention Bias",
            },
            "mtp_layers": {
                "anyOf": [{"minimum": 0, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Multi-token-prediction modules the job "
                "builds (Megatron --mtp-num-layers); "
                "default 0, even when the checkpoint "
                "defines some.",
                "title": "Mtp Layers",
            },
            "moe": {
                "anyOf": [{"$ref": "#/$defs/MoE"}, {"type": "null"}],
                "default": None,
                "description": "Mixture-of-experts layout; null for a dense model.",
            },
            "dtype": {
                "default": "bf16",
                "description": "Weight precision at run time.",
                "enum": ["bf16", "fp16", "fp32", "fp8"],
                "title": "Dtype",
                "type": "string",
            },
            "checkpoint_dtype": {
                "anyOf": [{"enum": ["bf16", "fp16", "fp32", "fp8"], "type": "string"}, {"type": "null"}],
                "default": None,
                "description": "Precision of the checkpoint on disk, when it differs from dtype.",
                "title": "Checkpoint Dtype",
            },
        },
        "title": "Model",
        "type": "object",
    },
    "Monitoring": {
        "additionalProperties": False,
        "properties": {
            "gpu_dmon_s": {
                "default": 0,
                "description": "nvidia-smi dmon interval on local rank 0 of each node; 0 = off.",
                "minimum": 0,
                "title": "Gpu Dmon S",
                "type": "integer",
            },
            "heartbeat_s": {
                "default": 0,
                "description": "Timestamp line in the log every N seconds; 0 = off.",
                "minimum": 0,
                "title": "Heartbeat S",
                "type": "integer",
            },
            "flight_recorder": {
                "default": 2000,
                "description": "Entries per process group in "
                "torch's flight recorder "
                "(TORCH_FR_BUFFER_SIZE), dumped "
                "on a collective timeout and by "
                "the hang watchdog; 0 = off.",
                "minimum": 0,
                "title": "Flight Recorder",
                "type": "integer",
            },
            "hang_s": {
                "default": 900,
                "description": "Seconds without a completed step "
                "(world.should_stop()) before every rank "
                "writes its flight recorder and stacks "
                "and the job ends; longer than the "
                "slowest step, evaluation or checkpoint; "
                "0 = off.",
                "minimum": 0,
                "title": "Hang S",
                "type": "integer",
            },
            "dump_dir": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "Where each job gets its dump directory "
                "<job name>-<job id>.flight; default: "
                "storage.logs (else the submit "
                "directory). Must be shared storage.",
                "title": "Dump Dir",
            },
        },
        "title": "Monitoring",
        "type": "object",
    },
    "NodeType": {
        "additionalProperties": False,
        "description": "One kind of node of the cluster, as Slurm describes it.",
        "properties": {
            "count": {
                "anyOf": [{"minimum": 0, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "How many nodes of this kind there are.",
                "title": "Count",
            },
            "cpus": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "CPUs of one node (Slurm's CPUTot).",
                "title": "Cpus",
            },
            "memory_mb": {
                "anyOf": [{"minimum": 0, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Memory of one node in MB (Slurm's RealMemory).",
                "title": "Memory Mb",
            },
            "gpus": {
                "anyOf": [{"minimum": 0, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "GPUs in one node (its gpu GRES).",
                "title": "Gpus",
            },
            "gpu_type": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "The GPUs' GRES type, as a job names it in --gpus=<type>:<count>, e.g. a100.",
                "title": "Gpu Type",
            },
            "features": {
                "description": "Node features a job can ask for with slurm.constraint.",
                "items": {"type": "string"},
                "title": "Features",
                "type": "array",
            },
        },
        "title": "NodeType",
        "type": "object",
    },
    "Parallelism": {
        "additionalProperties": False,
        "description": "How the world of ranks is split. world = nodes × gpus_per_node = tp·pp·cp·dp.",
        "properties": {
            "tp": {
                "default": 1,
                "description": "Tensor-parallel size.",
                "minimum": 1,
                "title": "Tp",
                "type": "integer",
            },
            "pp": {
                "default": 1,
                "description": "Pipeline-parallel size.",
                "minimum": 1,
                "title": "Pp",
                "type": "integer",
            },
            "cp": {
                "default": 1,
                "description": "Context-parallel size.",
                "minimum": 1,
                "title": "Cp",
                "type": "integer",
            },
            "ep": {
                "default": 1,
                "description": "Expert-parallel size (MoE models).",
                "minimum": 1,
                "title": "Ep",
                "type": "integer",
            },
            "etp": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Expert tensor-parallel size. null means "
                "the same as tp (the Megatron-Core "
                "default); state 1 explicitly when "
                "intended.",
                "title": "Etp",
            },
            "vpp": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Virtual pipeline stages per pipeline rank.",
                "title": "Vpp",
            },
            "dp": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Data-parallel size. Derived as "
                "world/(tp·pp·cp); if given it must equal "
                "that.",
                "title": "Dp",
            },
            "sequence_parallel": {
                "default": False,
                "description": "Megatron sequence parallelism (needs tp > 1).",
                "title": "Sequence Parallel",
                "type": "boolean",
            },
            "sharding": {
                "default": "none",
                "description": "How weights, gradients and optimizer state are sharded over data parallel.",
                "enum": ["none", "distributed-optimizer", "fsdp2", "megatron-fsdp"],
                "title": "Sharding",
                "type": "string",
            },
        },
        "title": "Parallelism",
        "type": "object",
    },
    "Partition": {
        "additionalProperties": False,
        "properties": {
            "max_time": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": 'Longest wall time the partition allows, e.g. "48:00:00" or "2-00:00:00".',
                "title": "Max Time",
            },
            "default_time": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "Wall time a job gets when it asks "
                "for none (Slurm's DefaultTime), "
                'e.g. "04:00:00".',
                "title": "Default Time",
            },
            "gpus_per_node": {
                "anyOf": [{"minimum": 0, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "GPUs per node in this partition, when it differs from the cluster's.",
                "title": "Gpus Per Node",
            },
            "cpus_per_node": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "CPU cores per node in this partition, when it differs from the cluster's.",
                "title": "Cpus Per Node",
            },
            "nodes": {
                "anyOf": [{"minimum": 0, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Nodes in the partition.",
                "title": "Nodes",
            },
            "max_nodes": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Most nodes one job may use in this "
                "partition (Slurm's MaxNodes); absent: "
                "no limit.",
                "title": "Max Nodes",
            },
            "min_nodes": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Fewest nodes one job may ask for in "
                "this partition (Slurm's MinNodes); "
                "absent: 1.",
                "title": "Min Nodes",
            },
            "preempt_mode": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "What happens to a preempted job "
                "(Slurm's PreemptMode: OFF, CANCEL, "
                "REQUEUE, SUSPEND …).",
                "title": "Preempt Mode",
            },
            "node_types": {
                "description": "Names of the cluster.node_types this "
                "partition's nodes are of (with their "
                "counts, what the partition has of "
                "GPUs, CPUs and features).",
                "items": {"pattern": "^[A-Za-z0-9._-]+$", "type": "string"},
                "title": "Node Types",
                "type": "array",
            },
        },
        "title": "Partition",
        "type": "object",
    },
    "Preflight": {
        "additionalProperties": False,
        "description": "Checks every node runs once, before the program, in each attempt of the job.",
        "properties": {
            "checks": {
                "description": "Built-in checks: gpus (the GPUs Slurm "
                "gave are visible and as many as "
                "resources.gpus_per_node; nvidia-smi "
                "answers where it exists), paths (every "
                "storage.shared path is there and "
                "readable, storage.checkpoints is "
                "writable), port (nothing listens on the "
                "rendezvous port, on the master).",
                "items": {"enum": ["gpus", "paths", "port"], "type": "string"},
                "title": "Checks",
                "type": "array",
            },
            "command": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "A check of your own: a command line run "
                "by bash once on every node, outside any "
                "container, from the job's working "
                "directory; exit 0 means the node is fit. "
                "Its output goes to the job log.",
                "title": "Command",
            },
            "timeout_s": {
                "default": 120,
                "description": "Seconds the command may run on a node before the node counts as failed.",
                "minimum": 1,
                "title": "Timeout S",
                "type": "integer",
            },
        },
        "title": "Preflight",
        "type": "object",
    },
    "Resilience": {
        "additionalProperties": False,
        "properties": {
            "signal": {
                "anyOf": [
                    {"enum": ["SIGTERM", "SIGUSR1", "SIGUSR2", "SIGINT"], "type": "string"},
                    {"type": "null"},
                ],
                "default": None,
                "description": "Signal Slurm sends before the time limit "
                "or on preemption "
                "(--signal=B:<signal>@<grace_s>). null: "
                "none.",
                "title": "Signal",
            },
            "grace_s": {
                "default": 120,
                "description": "Seconds between the signal and the kill.",
                "minimum": 1,
                "title": "Grace S",
                "type": "integer",
            },
            "requeue": {
                "default": False,
                "description": "Requeue the job after it checkpointed (--requeue).",
                "title": "Requeue",
                "type": "boolean",
            },
            "max_restarts": {
                "default": 3,
                "description": "How often the job may be "
                "restarted, for any reason: one "
                "budget for preemption, the time "
                "limit, a node failure and every "
                "retry of resilience.retry_on.",
                "minimum": 0,
                "title": "Max Restarts",
                "type": "integer",
            },
            "checkpoint": {
                "$ref": "#/$defs/CheckpointInfo",
                "description": "Checkpoint facts; when size and "
                "bandwidth are given the grace window "
                "is checked.",
            },
            "retry_on": {
                "description": "Classes of failure the job retries by "
                "requeueing itself (within "
                "max_restarts), without the node the "
                "failure names: preflight, node_fail, "
                "gpu_error, nccl_error, hang. A bug "
                "(exception, cuda_oom, import_error, "
                "...) is never retried. Empty: only "
                "preemption and the time limit requeue.",
                "items": {
                    "enum": [
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
                    ],
                    "type": "string",
                },
                "title": "Retry On",
                "type": "array",
            },
            "exclude_failed_nodes": {
                "default": True,
                "description": "Before a retry, add the "
                "node the failure names to "
                "the job's excluded nodes "
                "(ExcNodeList), so that the "
                "next attempt runs without "
                "it.",
                "title": "Exclude Failed Nodes",
                "type": "boolean",
            },
            "preflight": {
                "anyOf": [{"$ref": "#/$defs/Preflight"}, {"type": "null"}],
                "default": None,
                "description": "Check every node before the program "
                "starts, in every attempt; a node that "
                "fails is named in the log, and the "
                "program does not start. null: no "
                "preflight.",
            },
        },
        "title": "Resilience",
        "type": "object",
    },
    "Resources": {
        "additionalProperties": False,
        "properties": {
            "nodes": {
                "default": 1,
                "description": "Number of nodes (--nodes).",
                "minimum": 1,
                "title": "Nodes",
                "type": "integer",
            },
            "gpus_per_node": {
                "anyOf": [{"minimum": 0, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "GPUs used on each node (--gpus-per-node). Defaults to cluster.gpus_per_node.",
                "title": "Gpus Per Node",
            },
            "gpu": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "GPU catalogue key (memory, generation, GPUs "
                "per node), e.g. h100-80gb. Defaults to "
                "cluster.gpu.",
                "title": "Gpu",
            },
            "tasks_per_node": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Tasks on each node. Derived from "
                "launch.mode (srun: one per GPU, "
                "torchrun: one); set only to "
                "override.",
                "title": "Tasks Per Node",
            },
            "cpus_per_task": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "CPU cores per task (--cpus-per-task).",
                "title": "Cpus Per Task",
            },
            "mem": {
                "anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}],
                "default": None,
                "description": 'Memory per node (--mem): "0" for all of it, or "200G".',
                "title": "Mem",
            },
            "mem_per_gpu": {
                "anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}],
                "default": None,
                "description": 'Memory per GPU (--mem-per-gpu), e.g. "80G".',
                "title": "Mem Per Gpu",
            },
        },
        "title": "Resources",
        "type": "object",
    },
    "Slurm": {
        "additionalProperties": False,
        "description": "Options that become #SBATCH lines.",
        "properties": {
            "partition": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "Partition to submit to (--partition).",
                "title": "Partition",
            },
            "account": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "Account to charge (--account).",
                "title": "Account",
            },
            "qos": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "Quality of service (--qos).",
                "title": "Qos",
            },
            "time": {
                "anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}],
                "default": None,
                "description": 'Wall-time limit (--time), quoted: "HH:MM:SS", '
                '"D-HH:MM:SS", "MM" … or minutes as a number. '
                "Required for multi-node jobs.",
                "title": "Time",
            },
            "exclusive": {
                "anyOf": [{"type": "boolean"}, {"type": "null"}],
                "default": None,
                "description": "Whole nodes only (--exclusive).",
                "title": "Exclusive",
            },
            "constraint": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "Node features (--constraint).",
                "title": "Constraint",
            },
            "reservation": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "Reservation name (--reservation).",
                "title": "Reservation",
            },
            "mail": {"$ref": "#/$defs/Mail", "description": "Job mail settings."},
            "array": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": 'Job array spec (--array), e.g. "0-9%2".',
                "title": "Array",
            },
            "dependency": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": 'Dependency (--dependency), e.g. "afterok:123".',
                "title": "Dependency",
            },
            "extra": {
                "additionalProperties": {
                    "anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}, {"type": "null"}]
                },
                "description": "Any other sbatch long option by name (without "
                "the leading --). true writes a bare flag; "
                "names are checked against sbatch's options.",
                "title": "Extra",
                "type": "object",
            },
        },
        "title": "Slurm",
        "type": "object",
    },
    "Storage": {
        "additionalProperties": False,
        "properties": {
            "shared": {
                "description": "Path prefixes every node sees (shared file systems).",
                "items": {"type": "string"},
                "title": "Shared",
                "type": "array",
            },
            "logs": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "Directory for the job's logs; {name} "
                "interpolates. Default: the submit directory.",
                "title": "Logs",
            },
            "checkpoints": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "Checkpoint directory (JOBC_CHECKPOINT_DIR).",
                "title": "Checkpoints",
            },
            "caches": {"$ref": "#/$defs/Caches", "description": "Cache directories, exported to every rank."},
        },
        "title": "Storage",
        "type": "object",
    },
    "Sweep": {
        "additionalProperties": False,
        "description": "Values to sweep over: their product becomes a job array, one combination per task.",
        "properties": {
            "values": {
                "description": "Names and their values. Task i of the array "
                "runs the i-th combination of the product (the "
                "last name varies fastest); {sweep.NAME} in "
                "launch.program and launch.args is its value.",
                "title": "Values",
                "type": "object",
                "propertyNames": {"pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
                "additionalProperties": {
                    "items": {
                        "anyOf": [
                            {"type": "string"},
                            {"type": "integer"},
                            {"type": "number"},
                            {"type": "boolean"},
                        ]
                    },
                    "type": "array",
                },
            },
            "max_parallel": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "How many tasks may run at once (--array=...%N); null: as many as fit.",
                "title": "Max Parallel",
            },
        },
        "title": "Sweep",
        "type": "object",
    },
    "Torchrun": {
        "additionalProperties": False,
        "properties": {
            "rdzv": {
                "default": "c10d",
                "description": "Rendezvous backend for torch.distributed.run.",
                "enum": ["c10d", "static"],
                "title": "Rdzv",
                "type": "string",
            },
            "max_restarts": {
                "default": 0,
                "description": "Worker-group restarts inside one allocation.",
                "minimum": 0,
                "title": "Max Restarts",
                "type": "integer",
            },
        },
        "title": "Torchrun",
        "type": "object",
    },
    "UvSync": {
        "additionalProperties": False,
        "description": "What phase one of `uv_sync: two-phase` installs; the ranks then run without syncing.",
        "properties": {
            "extras": {
                "description": "Extras to install (uv sync --extra NAME); a "
                "bare uv sync removes any not named.",
                "items": {"pattern": "^[A-Za-z0-9._-]+$", "type": "string"},
                "title": "Extras",
                "type": "array",
            },
            "all_extras": {
                "default": False,
                "description": "Install every extra (uv sync --all-extras).",
                "title": "All Extras",
                "type": "boolean",
            },
            "groups": {
                "description": "Dependency groups to install (uv sync --group NAME).",
                "items": {"pattern": "^[A-Za-z0-9._-]+$", "type": "string"},
                "title": "Groups",
                "type": "array",
            },
            "lock": {
                "anyOf": [{"enum": ["frozen", "locked"], "type": "string"}, {"type": "null"}],
                "default": None,
                "description": "frozen: install uv.lock as it is (--frozen); "
                "locked: stop if uv.lock is out of date "
                "(--locked); null: uv's default, which may "
                "rewrite uv.lock.",
                "title": "Lock",
            },
        },
        "title": "UvSync",
        "type": "object",
    },
    "Workload": {
        "additionalProperties": False,
        "properties": {
            "kind": {
                "default": "pretrain",
                "description": "What the job does; sets the memory budget.",
                "enum": ["pretrain", "finetune", "inference", "convert"],
                "title": "Kind",
                "type": "string",
            },
            "seq_length": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Sequence length in tokens.",
                "title": "Seq Length",
            },
            "micro_batch": {
                "default": 1,
                "description": "Micro-batch size per data-parallel rank.",
                "minimum": 1,
                "title": "Micro Batch",
                "type": "integer",
            },
            "global_batch": {
                "anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Global batch size in sequences.",
                "title": "Global Batch",
            },
            "recompute": {
                "default": "selective",
                "description": "Activation recomputation.",
                "enum": ["none", "selective", "full"],
                "title": "Recompute",
                "type": "string",
            },
            "overlap_moe_ep_comm": {
                "default": False,
                "description": "Overlap MoE expert-parallel all-to-all with compute.",
                "title": "Overlap Moe Ep Comm",
                "type": "boolean",
            },
            "framework": {
                "anyOf": [{"enum": ["megatron", "pytorch"], "type": "string"}, {"type": "null"}],
                "default": None,
                "description": "The training code: megatron "
                "(Megatron-LM, Megatron-Bridge, NeMo) or "
                "pytorch (DDP, FSDP, transformers, plain "
                "loops). Decides the activation model of "
                "the memory estimate and the "
                "Megatron-only checks. null: inferred "
                "from parallelism.sharding and the names "
                "in launch.program, launch.module and "
                "launch.workdir.",
                "title": "Framework",
            },
        },
        "title": "Workload",
        "type": "object",
    },
    "JobSpec": {
        "additionalProperties": False,
        "description": "A jobc job spec, version 1.",
        "properties": {
            "extends": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "A cluster profile to build on, relative to "
                "this file; deep-merged, this file wins.",
                "title": "Extends",
            },
            "cluster": {"$ref": "#/$defs/Cluster", "description": "Facts about the machines."},
            "slurm": {"$ref": "#/$defs/Slurm"},
            "parallelism": {"$ref": "#/$defs/Parallelism", "description": "Parallel layout."},
            "model": {
                "anyOf": [{"$ref": "#/$defs/Model"}, {"type": "null"}],
                "default": None,
                "description": "The model; turns on the model-aware rules.",
            },
            "workload": {"$ref": "#/$defs/Workload", "description": "What the job does."},
            "fabric": {"$ref": "#/$defs/Fabric", "description": "NCCL and network settings."},
            "container": {
                "anyOf": [{"$ref": "#/$defs/Container"}, {"type": "null"}],
                "default": None,
                "description": "pyxis/enroot container; omitted: none.",
            },
            "env": {
                "description": "Literal variables exported to every rank, never shell-expanded.",
                "title": "Env",
                "type": "object",
                "propertyNames": {"pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
                "additionalProperties": {
                    "anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "number"}]
                },
            },
            "secrets": {
                "description": "Names of secret variables. They must be "
                "set where sbatch runs; they are inherited, "
                "never written into the script.",
                "items": {"pattern": "^[A-Za-z_][A-Za-z0-9_]*$", "type": "string"},
                "title": "Secrets",
                "type": "array",
            },
            "storage": {
                "$ref": "#/$defs/Storage",
                "description": "Shared storage, logs, checkpoints, caches.",
            },
            "resilience": {"$ref": "#/$defs/Resilience", "description": "Preemption and requeue."},
            "monitoring": {"$ref": "#/$defs/Monitoring", "description": "Background monitors."},
            "debug": {
                "default": False,
                "description": "Debug mode: bash tracing, NCCL_DEBUG=INFO, "
                "TORCH_DISTRIBUTED_DEBUG=DETAIL, "
                "PYTHONFAULTHANDLER=1, "
                "CUDA_LAUNCH_BLOCKING=1.",
                "title": "Debug",
                "type": "boolean",
            },
            "version": {
                "const": 1,
                "description": "Spec format version. Always 1.",
                "title": "Version",
                "type": "integer",
            },
            "name": {
                "description": "Job name (--job-name): letters, digits, '.', '_' and '-'.",
                "maxLength": 200,
                "pattern": "^[A-Za-z0-9._-]+$",
                "title": "Name",
                "type": "string",
            },
            "resources": {"$ref": "#/$defs/Resources", "description": "What to allocate."},
            "launch": {"$ref": "#/$defs/Launch", "description": "How the program starts."},
            "sweep": {
                "anyOf": [{"$ref": "#/$defs/Sweep"}, {"type": "null"}],
                "default": None,
                "description": "A parameter sweep, run as a job array (slurm.array must then be unset).",
            },
        },
        "required": ["version", "name", "resources", "launch"],
        "title": "jobc job spec",
        "type": "object",
    },
    "Profile": {
        "additionalProperties": False,
        "description": "A cluster profile: the same sections as a spec, nothing required, "
        "named by `profile:`.",
        "properties": {
            "extends": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "A cluster profile to build on, relative to "
                "this file; deep-merged, this file wins.",
                "title": "Extends",
            },
            "cluster": {"$ref": "#/$defs/Cluster", "description": "Facts about the machines."},
            "slurm": {"$ref": "#/$defs/Slurm"},
            "parallelism": {"$ref": "#/$defs/Parallelism", "description": "Parallel layout."},
            "model": {
                "anyOf": [{"$ref": "#/$defs/Model"}, {"type": "null"}],
                "default": None,
                "description": "The model; turns on the model-aware rules.",
            },
            "workload": {"$ref": "#/$defs/Workload", "description": "What the job does."},
            "fabric": {"$ref": "#/$defs/Fabric", "description": "NCCL and network settings."},
            "container": {
                "anyOf": [{"$ref": "#/$defs/Container"}, {"type": "null"}],
                "default": None,
                "description": "pyxis/enroot container; omitted: none.",
            },
            "env": {
                "description": "Literal variables exported to every rank, never shell-expanded.",
                "title": "Env",
                "type": "object",
                "propertyNames": {"pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
                "additionalProperties": {
                    "anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "number"}]
                },
            },
            "secrets": {
                "description": "Names of secret variables. They must be "
                "set where sbatch runs; they are inherited, "
                "never written into the script.",
                "items": {"pattern": "^[A-Za-z_][A-Za-z0-9_]*$", "type": "string"},
                "title": "Secrets",
                "type": "array",
            },
            "storage": {
                "$ref": "#/$defs/Storage",
                "description": "Shared storage, logs, checkpoints, caches.",
            },
            "resilience": {"$ref": "#/$defs/Resilience", "description": "Preemption and requeue."},
            "monitoring": {"$ref": "#/$defs/Monitoring", "description": "Background monitors."},
            "debug": {
                "default": False,
                "description": "Debug mode: bash tracing, NCCL_DEBUG=INFO, "
                "TORCH_DISTRIBUTED_DEBUG=DETAIL, "
                "PYTHONFAULTHANDLER=1, "
                "CUDA_LAUNCH_BLOCKING=1.",
                "title": "Debug",
                "type": "boolean",
            },
            "version": {
                "anyOf": [{"const": 1, "type": "integer"}, {"type": "null"}],
                "default": None,
                "description": "Spec format version. Always 1.",
                "title": "Version",
            },
            "profile": {
                "description": "Profile name.",
                "pattern": "^[A-Za-z0-9._-]+$",
                "title": "Profile",
                "type": "string",
            },
            "resources": {"$ref": "#/$defs/Resources", "description": "Resource defaults."},
            "launch": {"$ref": "#/$defs/Launch", "description": "Launch defaults."},
        },
        "required": ["profile"],
        "title": "Profile",
        "type": "object",
    },
    "ExtendingJobSpec": {
        "additionalProperties": False,
        "description": "A jobc job spec, version 1.",
        "properties": {
            "extends": {
                "anyOf": [{"type": "string"}, {"type": "null"}],
                "default": None,
                "description": "A cluster profile to build on, "
                "relative to this file; "
                "deep-merged, this file wins.",
                "title": "Extends",
            },
            "cluster": {"$ref": "#/$defs/Cluster", "description": "Facts about the machines."},
            "slurm": {"$ref": "#/$defs/Slurm"},
            "parallelism": {"$ref": "#/$defs/Parallelism", "description": "Parallel layout."},
            "model": {
                "anyOf": [{"$ref": "#/$defs/Model"}, {"type": "null"}],
                "default": None,
                "description": "The model; turns on the model-aware rules.",
            },
            "workload": {"$ref": "#/$defs/Workload", "description": "What the job does."},
            "fabric": {"$ref": "#/$defs/Fabric", "description": "NCCL and network settings."},
            "container": {
                "anyOf": [{"$ref": "#/$defs/Container"}, {"type": "null"}],
                "default": None,
                "description": "pyxis/enroot container; omitted: none.",
            },
            "env": {
                "description": "Literal variables exported to every rank, never shell-expanded.",
                "title": "Env",
                "type": "object",
                "propertyNames": {"pattern": "^[A-Za-z_][A-Za-z0-9_]*$"},
                "additionalProperties": {
                    "anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "number"}]
                },
            },
            "secrets": {
                "description": "Names of secret variables. They "
                "must be set where sbatch runs; "
                "they are inherited, never written "
                "into the script.",
                "items": {"pattern": "^[A-Za-z_][A-Za-z0-9_]*$", "type": "string"},
                "title": "Secrets",
                "type": "array",
            },
            "storage": {
                "$ref": "#/$defs/Storage",
                "description": "Shared storage, logs, checkpoints, caches.",
            },
            "resilience": {"$ref": "#/$defs/Resilience", "description": "Preemption and requeue."},
            "monitoring": {"$ref": "#/$defs/Monitoring", "description": "Background monitors."},
            "debug": {
                "default": False,
                "description": "Debug mode: bash tracing, "
                "NCCL_DEBUG=INFO, "
                "TORCH_DISTRIBUTED_DEBUG=DETAIL, "
                "PYTHONFAULTHANDLER=1, "
                "CUDA_LAUNCH_BLOCKING=1.",
                "title": "Debug",
                "type": "boolean",
            },
            "version": {
                "const": 1,
                "description": "Spec format version. Always 1.",
                "title": "Version",
                "type": "integer",
            },
            "name": {
                "description": "Job name (--job-name): letters, digits, '.', '_' and '-'.",
                "maxLength": 200,
                "pattern": "^[A-Za-z0-9._-]+$",
                "title": "Name",
                "type": "string",
            },
            "resources": {"$ref": "#/$defs/Resources", "description": "What to allocate."},
            "launch": {"$ref": "#/$defs/Launch", "description": "How the program starts."},
            "sweep": {
                "anyOf": [{"$ref": "#/$defs/Sweep"}, {"type": "null"}],
                "default": None,
                "description": "A parameter sweep, run as a job array (slurm.array must then be unset).",
            },
        },
        "required": ["name"],
        "title": "jobc job spec that extends a cluster profile",
        "type": "object",
    },
}

GPUS: dict[str, Any] = {
    "_comment": "Nominal memory in bytes (decimal GB as sold; slightly below what nvidia-smi reports, "
    "so estimates err on the safe side), architecture generation, and GPUs in one node of "
    "the usual server.",
    "a100-40gb": {
        "memory_bytes": 40000000000,
        "generation": "ampere",
        "gpus_per_node": 8,
        "title": "NVIDIA A100 40GB",
    },
    "a100-80gb": {
        "memory_bytes": 80000000000,
        "generation": "ampere",
        "gpus_per_node": 8,
        "title": "NVIDIA A100 80GB",
    },
    "h100-80gb": {
        "memory_bytes": 80000000000,
        "generation": "hopper",
        "gpus_per_node": 8,
        "title": "NVIDIA H100 80GB (SXM)",
    },
    "h100-94gb": {
        "memory_bytes": 94000000000,
        "generation": "hopper",
        "gpus_per_node": 8,
        "title": "NVIDIA H100 NVL 94GB",
    },
    "gh200": {
        "memory_bytes": 96000000000,
        "generation": "hopper",
        "gpus_per_node": 4,
        "title": "NVIDIA GH200 96GB",
    },
    "h200-141gb": {
        "memory_bytes": 141000000000,
        "generation": "hopper",
        "gpus_per_node": 8,
        "title": "NVIDIA H200 141GB",
    },
    "b200-180gb": {
        "memory_bytes": 180000000000,
        "generation": "blackwell",
        "gpus_per_node": 8,
        "title": "NVIDIA B200 180GB",
    },
    "gb200": {
        "memory_bytes": 186000000000,
        "generation": "blackwell",
        "gpus_per_node": 4,
        "title": "NVIDIA GB200 186GB",
    },
    "b300-288gb": {
        "memory_bytes": 288000000000,
        "generation": "blackwell",
        "gpus_per_node": 8,
        "title": "NVIDIA B300 288GB",
    },
    "l40s-48gb": {
        "memory_bytes": 48000000000,
        "generation": "ada",
        "gpus_per_node": 8,
        "title": "NVIDIA L40S 48GB",
    },
}

MODELS: dict[str, Any] = {
    "_comment": "Model presets: the shape-relevant keys of each model's published Hugging Face "
    "config.json, read by the same code as model.hf_config. Parameter counts are exact "
    "(see docs/memory.md).",
    "llama3-8b": {
        "title": "Llama 3 8B",
        "hf_id": "meta-llama/Meta-Llama-3-8B",
        "config": {
            "model_type": "llama",
            "hidden_size": 4096,
            "num_hidden_layers": 32,
            "num_attention_heads": 32,
            "num_key_value_heads": 8,
            "intermediate_size": 14336,
            "vocab_size": 128256,
            "tie_word_embeddings": False,
            "attention_bias": False,
            "mlp_bias": False,
            "torch_dtype": "bfloat16",
        },
    },
    "llama3-70b": {
        "title": "Llama 3 70B",
        "hf_id": "meta-llama/Meta-Llama-3-70B",
        "config": {
            "model_type": "llama",
            "hidden_size": 8192,
            "num_hidden_layers": 80,
            "num_attention_heads": 64,
            "num_key_value_heads": 8,
            "intermediate_size": 28672,
            "vocab_size": 128256,
            "tie_word_embeddings": False,
            "attention_bias": False,
            "mlp_bias": False,
            "torch_dtype": "bfloat16",
        },
    },
    "llama3.1-8b": {
        "title": "Llama 3.1 8B",
        "hf_id": "meta-llama/Llama-3.1-8B",
        "config": {
            "model_type": "llama",
            "hidden_size": 4096,
            "num_hidden_layers": 32,
            "num_attention_heads": 32,
            "num_key_value_heads": 8,
            "intermediate_size": 14336,
            "vocab_size": 128256,
            "tie_word_embeddings": False,
            "attention_bias": False,
            "mlp_bias": False,
            "torch_dtype": "bfloat16",
        },
    },
    "llama3.1-70b": {
        "title": "Llama 3.1 70B",
        "hf_id": "meta-llama/Llama-3.1-70B",
        "config": {
            "model_type": "llama",
            "hidden_size": 8192,
            "num_hidden_layers": 80,
            "num_attention_heads": 64,
            "num_key_value_heads": 8,
            "intermediate_size": 28672,
            "vocab_size": 128256,
            "tie_word_embeddings": False,
            "attention_bias": False,
            "mlp_bias": False,
            "torch_dtype": "bfloat16",
        },
    },
    "llama3.1-405b": {
        "title": "Llama 3.1 405B",
        "hf_id": "meta-llama/Llama-3.1-405B",
        "config": {
            "model_type": "llama",
            "hidden_size": 16384,
            "num_hidden_layers": 126,
            "num_attention_heads": 128,
            "num_key_value_heads": 8,
            "intermediate_size": 53248,
            "vocab_size": 128256,
            "tie_word_embeddings": False,
            "attention_bias": False,
            "mlp_bias": False,
            "torch_dtype": "bfloat16",
        },
    },
    "mistral-7b": {
        "title": "Mistral 7B v0.1",
        "hf_id": "mistralai/Mistral-7B-v0.1",
        "config": {
            "model_type": "mistral",
            "hidden_size": 4096,
            "num_hidden_layers": 32,
            "num_attention_heads": 32,
            "num_key_value_heads": 8,
            "intermediate_size": 14336,
            "vocab_size": 32000,
            "tie_word_embeddings": False,
            "torch_dtype": "bfloat16",
        },
    },
    "mixtral-8x7b": {
        "title": "Mixtral 8x7B",
        "hf_id": "mistralai/Mixtral-8x7B-v0.1",
        "config": {
            "model_type": "mixtral",
            "hidden_size": 4096,
            "num_hidden_layers": 32,
            "num_attention_heads": 32,
            "num_key_value_heads": 8,
            "intermediate_size": 14336,
            "num_local_experts": 8,
            "num_experts_per_tok": 2,
            "vocab_size": 32000,
            "tie_word_embeddings": False,
            "torch_dtype": "bfloat16",
        },
    },
    "qwen2.5-0.5b": {
        "title": "Qwen2.5 0.5B",
        "hf_id": "Qwen/Qwen2.5-0.5B",
        "config": {
            "model_type": "qwen2",
            "hidden_size": 896,
            "num_hidden_layers": 24,
            "num_attention_heads": 14,
            "num_key_value_heads": 2,
            "intermediate_size": 4864,
            "vocab_size": 151936,
            "tie_word_embeddings": True,
            "torch_dtype": "bfloat16",
        },
    },
    "qwen3-8b": {
        "title": "Qwen3 8B",
        "hf_id": "Qwen/Qwen3-8B",
        "config": {
            "model_type": "qwen3",
            "hidden_size": 4096,
            "num_hidden_layers": 36,
            "num_attention_heads": 32,
            "num_key_value_heads": 8,
            "head_dim": 128,
            "intermediate_size": 12288,
            "vocab_size": 151936,
            "tie_word_embeddings": False,
            "attention_bias": False,
            "torch_dtype": "bfloat16",
        },
    },
    "qwen3-30b-a3b": {
        "title": "Qwen3 30B-A3B",
        "hf_id": "Qwen/Qwen3-30B-A3B",
        "config": {
            "model_type": "qwen3_moe",
            "hidden_size": 2048,
            "num_hidden_layers": 48,
            "num_attention_heads": 32,
            "num_key_value_heads": 4,
            "head_dim": 128,
            "intermediate_size": 6144,
            "moe_intermediate_size": 768,
            "num_experts": 128,
            "num_experts_per_tok": 8,
            "decoder_sparse_step": 1,
            "mlp_only_layers": [],
            "vocab_size": 151936,
            "tie_word_embeddings": False,
            "attention_bias": False,
            "torch_dtype": "bfloat16",
        },
    },
    "deepseek-v3": {
        "title": "DeepSeek-V3",
        "hf_id": "deepseek-ai/DeepSeek-V3",
        "config": {
            "model_type": "deepseek_v3",
            "hidden_size": 7168,
            "num_hidden_layers": 61,
            "num_attention_heads": 128,
            "num_key_value_heads": 128,
            "intermediate_size": 18432,
            "moe_intermediate_size": 2048,
            "n_routed_experts": 256,
            "n_shared_experts": 1,
            "num_experts_per_tok": 8,
            "first_k_dense_replace": 3,
            "moe_layer_freq": 1,
            "topk_method": "noaux_tc",
            "q_lora_rank": 1536,
            "kv_lora_rank": 512,
            "qk_nope_head_dim": 128,
            "qk_rope_head_dim": 64,
            "v_head_dim": 128,
            "vocab_size": 129280,
            "num_nextn_predict_layers": 1,
            "tie_word_embeddings": False,
            "attention_bias": False,
            "torch_dtype": "bfloat16",
            "quantization_config": {
                "quant_method": "fp8",
                "fmt": "e4m3",
                "activation_scheme": "dynamic",
                "weight_block_size": [128, 128],
            },
        },
    },
    "gpt-oss-20b": {
        "title": "gpt-oss-20b",
        "hf_id": "openai/gpt-oss-20b",
        "config": {
            "model_type": "gpt_oss",
            "hidden_size": 2880,
            "num_hidden_layers": 24,
            "num_attention_heads": 64,
            "num_key_value_heads": 8,
            "head_dim": 64,
            "intermediate_size": 2880,
            "num_local_experts": 32,
            "num_experts_per_tok": 4,
            "vocab_size": 201088,
            "tie_word_embeddings": False,
            "attention_bias": True,
            "torch_dtype": "bfloat16",
            "quantization_config": {"quant_method": "mxfp4"},
        },
    },
    "gpt-oss-120b": {
        "title": "gpt-oss-120b",
        "hf_id": "openai/gpt-oss-120b",
        "config": {
            "model_type": "gpt_oss",
            "hidden_size": 2880,
            "num_hidden_layers": 36,
            "num_attention_heads": 64,
            "num_key_value_heads": 8,
            "head_dim": 64,
            "intermediate_size": 2880,
            "num_local_experts": 128,
            "num_experts_per_tok": 4,
            "vocab_size": 201088,
            "tie_word_embeddings": False,
            "attention_bias": True,
            "torch_dtype": "bfloat16",
            "quantization_config": {"quant_method": "mxfp4"},
        },
    },
    "minimax-m2": {
        "title": "MiniMax-M2",
        "hf_id": "MiniMaxAI/MiniMax-M2",
        "config": {
            "model_type": "minimax_m2",
            "hidden_size": 3072,
            "num_hidden_layers": 62,
            "num_attention_heads": 48,
            "num_key_value_heads": 8,
            "head_dim": 128,
            "intermediate_size": 1536,
            "num_local_experts": 256,
            "num_experts_per_tok": 8,
            "shared_intermediate_size": 0,
            "use_qk_norm": True,
            "qk_norm_type": "per_layer",
            "use_routing_bias": True,
            "scoring_func": "sigmoid",
            "num_mtp_modules": 3,
            "mtp_transformer_layers": 1,
            "rotary_dim": 64,
            "vocab_size": 200064,
            "tie_word_embeddings": False,
            "attention_bias": False,
            "torch_dtype": "bfloat16",
            "quantization_config": {
                "quant_method": "fp8",
                "fmt": "float8_e4m3fn",
                "activation_scheme": "dynamic",
                "weight_block_size": [128, 128],
            },
        },
    },
}
