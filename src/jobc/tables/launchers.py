"""The launchers jobc recognises in a batch script: one entry each, saying how it is spelled and
where it reads its sizes, ranks and rendezvous from.

The script reader finds a launcher by its command words (`torchrun`, `python -m
torch.distributed.run`, `accelerate launch`, `deepspeed`, `mpirun`, …); the rules and the import
ask its entry instead of matching names: how many nodes it expects, how many processes per node it
starts, which option carries the node rank and the rendezvous address and port, whether one copy
runs per node (and so wants one task per node) and whether it reaches the other nodes by itself
(ssh, pdsh or MPI) rather than through srun. Option names are normalised: leading dashes dropped,
`-` turned to `_` (`--nproc-per-node` → `nproc_per_node`).
"""

from __future__ import annotations


class Launcher:
    """One launcher. A plain class: a NamedTuple's class is built through `exec` at import, which
    cost a script lint more than everything else this module does."""

    __slots__ = (
        "address",
        "config",
        "endpoint",
        "env_node_rank",
        "flags",
        "module_flags",
        "name",
        "names",
        "node_rank",
        "nodes",
        "per_node",
        "port",
        "procs_per_node",
        "procs_total",
        "reaches_always",
        "reaches_nodes",
        "single_node",
        "spellings",
        "strict",
        "valued",
    )

    def __init__(
        self,
        *,
        name: str,
        spellings: tuple[tuple[str, ...], ...],
        per_node: bool,
        nodes: tuple[str, ...] = (),
        procs_per_node: tuple[str, ...] = (),
        procs_total: tuple[str, ...] = (),
        node_rank: tuple[str, ...] = (),
        address: tuple[str, ...] = (),
        port: tuple[str, ...] = (),
        endpoint: tuple[str, ...] = (),
        single_node: tuple[str, ...] = (),
        reaches_nodes: tuple[str, ...] = (),
        reaches_always: bool = False,
        flags: frozenset[str] = frozenset(),
        module_flags: tuple[str, ...] = (),
        config: tuple[str, ...] = (),
        env_node_rank: tuple[str, ...] = (),
        valued: frozenset[str] = frozenset(),
        strict: bool = False,
        abbreviations: bool = False,
    ) -> None:
        # torchrun | accelerate | deepspeed | mpirun | composer | python
        self.name = name
        # the command words that start it; "python" stands for any interpreter (python3, /env/bin/python)
        self.spellings = spellings
        # one copy per node starts that node's workers: it wants one task per node
        self.per_node = per_node
        # options giving the number of nodes
        self.nodes = nodes
        # options giving the processes each node starts
        self.procs_per_node = procs_per_node
        # options giving the processes of the whole job
        self.procs_total = procs_total
        # options giving this node's rank
        self.node_rank = node_rank
        # options giving the rendezvous host
        self.address = address
        # options giving the rendezvous port
        self.port = port
        # options giving host:port together
        self.endpoint = endpoint
        # flags that make it one node's job (rendezvous on localhost)
        self.single_node = single_node
        # options that make it start the other nodes' processes itself (ssh, pdsh, MPI): no srun needed
        self.reaches_nodes = reaches_nodes
        # it always does (mpirun inside an allocation)
        self.reaches_always = reaches_always
        # options that take no value
        self.flags = flags
        # flags after which the target is a module, not a file
        self.module_flags = module_flags
        # options naming a config file with more of these values
        self.config = config
        # variables it reads the node rank from
        self.env_node_rank = env_node_rank
        # options that take a value, every one it has (with `strict`)
        self.valued = valued
        # it refuses an option that is neither a flag nor valued (argparse)
        self.strict = strict
        # its option strings as its parser has them (`--nproc-per-node`, `--nproc_per_node`, `-m`),
        # when it reads a long option's unique prefix as that option (argparse's default) and
        # refuses one that begins several: only then is the spelling its own
        self.names: frozenset[str] = frozenset()
        if abbreviations:
            self.names = frozenset(
                {f"--{n}" for n in flags | valued if len(n) > 1}
                | {f"--{n.replace('_', '-')}" for n in flags | valued if len(n) > 1}
                | {f"-{n}" for n in flags | valued if len(n) == 1}
            )

    def knows(self, option: str) -> bool:
        """Whether it has this option (normalised); a launcher that is not strict knows them all."""
        return not self.strict or option in self.flags or option in self.valued

    def matches(self, written: str) -> tuple[str, ...]:
        """The options a launcher that reads abbreviations takes ``written`` (before any `=`) for:
        itself, else each long option it begins (one: that option; several: the launcher refuses
        it as ambiguous), or a short option's letter with its value or more letters after it."""
        if written in self.names:
            return (written,)
        if not written.startswith("--"):
            return (written[:2],) if written[:2] in self.names else ()
        return tuple(sorted(n for n in self.names if n.startswith(written) and n.startswith("--")))

    def __repr__(self) -> str:
        return f"Launcher(name={self.name!r})"


# torchrun's options: torch.distributed.run's argparse parser (get_args_parser), every version's
# (1.9 to 2.9), each under both spellings, with torch.distributed.launch's own (--use-env, and
# --logdir before 1.9). argparse reads a long option's unique prefix as that option and refuses,
# before starting anything, an option it does not have or a prefix of several, wherever on the
# line the prefix stands but after a `--` (pytorch/pytorch issue #120601)
_TORCH_FLAGS = frozenset({"standalone", "no_python", "module", "m", "run_path", "use_env", "h", "help"})
_TORCH_VALUED = frozenset(
    (  # noqa: SIM905 (a list of words)
        "nnodes nproc_per_node rdzv_backend rdzv_endpoint rdzv_id rdzv_conf max_restarts "
        "monitor_interval start_method event_log_handler role log_dir r redirects t tee "
        "local_ranks_filter node_rank master_addr master_port local_addr logs_specs numa_binding "
        "signals_to_handle logdir"
    ).split()
)

TORCHRUN = Launcher(
    name="torchrun",
    spellings=(
        ("torchrun",),
        ("python", "-m", "torch.distributed.run"),
        ("python", "-m", "torch.distributed.launch"),
    ),
    per_node=True,
    nodes=("nnodes",),
    procs_per_node=("nproc_per_node",),
    node_rank=("node_rank",),
    address=("master_addr",),
    port=("master_port",),
    endpoint=("rdzv_endpoint",),
    single_node=("standalone",),
    flags=_TORCH_FLAGS,
    module_flags=("module", "m"),
    env_node_rank=("NODE_RANK", "GROUP_RANK"),
    valued=_TORCH_VALUED,
    strict=True,
    abbreviations=True,
)

# accelerate launch's options, every version's (its launch_command_parser, 0.x to 1.x); it reads
# them with argparse without abbreviations, `-` and `_` alike, and refuses any other before the
# program (`error: unrecognized arguments`)
_ACCELERATE_FLAGS = (
    "cpu debug downcast_bf16 dynamo_use_dynamic dynamo_use_fullgraph dynamo_use_regional_compilation "
    "enable_cpu_affinity fp16 fp8_use_autocast_during_eval h help ipex ipex_enabled m module mps "
    "multi_gpu no_python no_tpu_cluster q quiet same_network tpu tpu_cluster tpu_use_sudo use_deepspeed "
    "use_fsdp use_megatron_lm use_mps_device use_parallelism_config use_tp use_xpu xpu_enabled"
)
_ACCELERATE_VALUED = (
    "aws_access_key_id aws_secret_access_key config_file deepspeed_config_file "
    "deepspeed_exclusion_filter deepspeed_hostfile deepspeed_inclusion_filter "
    "deepspeed_moe_layer_cls_names deepspeed_multinode_launcher dynamo_backend dynamo_mode env "
    "fp8_amax_compute_algo fp8_amax_history_len fp8_backend fp8_enable_fsdp_float8_all_gather "
    "fp8_format fp8_interval fp8_margin fp8_opt_level fp8_override_linear_precision fp8_pad_inner_dim "
    "fsdp_activation_checkpointing fsdp_auto_wrap_policy fsdp_backward_prefetch "
    "fsdp_backward_prefetch_policy fsdp_cpu_ram_efficient_loading fsdp_forward_prefetch "
    "fsdp_min_num_params fsdp_offload_params fsdp_reshard_after_forward fsdp_sharding_strategy "
    "fsdp_state_dict_type fsdp_sync_module_states fsdp_transformer_layer_cls_to_wrap "
    "fsdp_use_orig_params fsdp_version gpu_ids gradient_accumulation_steps gradient_clipping log_dir "
    "machine_rank main_process_ip main_process_port main_training_function max_restarts "
    "megatron_lm_attention_backend megatron_lm_attention_dropout megatron_lm_attention_softmax_in_fp32 "
    "megatron_lm_calculate_per_token_loss megatron_lm_context_parallel_size "
    "megatron_lm_decoder_last_pipeline_num_layers megatron_lm_eod_mask_loss "
    "megatron_lm_expert_model_parallel_size megatron_lm_expert_tensor_parallel_size "
    "megatron_lm_gradient_clipping megatron_lm_hidden_dropout megatron_lm_no_load_optim "
    "megatron_lm_no_save_optim megatron_lm_num_micro_batches megatron_lm_optimizer_cpu_offload "
    "megatron_lm_overlap_cpu_optimizer_d2h_h2d megatron_lm_pp_degree megatron_lm_recompute_activations "
    "megatron_lm_recompute_granularity megatron_lm_recompute_method megatron_lm_recompute_num_layers "
    "megatron_lm_sequence_parallelism megatron_lm_tp_degree megatron_lm_use_custom_fsdp "
    "megatron_lm_use_distributed_optimizer megatron_lm_use_precision_aware_optimizer "
    "megatron_lm_use_rotary_position_embeddings min_num_params mixed_precision monitor_interval "
    "mpirun_ccl mpirun_hostfile num_cpu_threads_per_process num_machines num_processes "
    "offload_optimizer_device offload_optimizer_nvme_path offload_param_device offload_param_nvme_path "
    "offload_params parallelism_config_cp_backend parallelism_config_cp_comm_strategy "
    "parallelism_config_cp_size parallelism_config_dp_replicate_size parallelism_config_dp_shard_size "
    "parallelism_config_sp_attn_implementation parallelism_config_sp_backend "
    "parallelism_config_sp_seq_length parallelism_config_sp_seq_length_is_variable "
    "parallelism_config_sp_size parallelism_config_tp_size rdzv_backend rdzv_conf role "
    "sharding_strategy t tee tp_size transformer_layer_cls_to_wrap vm zero3_init_flag "
    "zero3_save_16bit_model zero_stage"
)

ACCELERATE = Launcher(
    name="accelerate",
    spellings=(("accelerate", "launch"), ("python", "-m", "accelerate.commands.launch")),
    per_node=True,
    nodes=("num_machines",),
    procs_total=("num_processes",),
    node_rank=("machine_rank",),
    address=("main_process_ip",),
    port=("main_process_port",),
    endpoint=("rdzv_endpoint",),
    flags=frozenset(_ACCELERATE_FLAGS.split()),
    module_flags=("module", "m"),
    config=("config_file",),
    valued=frozenset(_ACCELERATE_VALUED.split()),
    strict=True,
)

DEEPSPEED = Launcher(
    name="deepspeed",
    spellings=(("deepspeed",), ("python", "-m", "deepspeed.launcher.runner")),
    per_node=True,
    nodes=("num_nodes",),
    procs_per_node=("num_gpus",),
    node_rank=("node_rank",),
    address=("master_addr",),
    port=("master_port",),
    # with a host file (or pdsh/openmpi/mvapich/slurm as its launcher) deepspeed starts the
    # other nodes' processes itself, from the first node
    reaches_nodes=("hostfile", "H", "launcher"),
    flags=frozenset(
        {
            "no_python",
            "module",
            "m",
            "no_local_rank",
            "force_multi",
            "autotuning",
            "elastic_training",
            "save_pid",
            "enable_each_rank_log",
            "bind_cores_to_rank",
            "no_ssh_check",
            "no_ssh",
        }
    ),
    module_flags=("module", "m"),
)

MPIRUN = Launcher(
    name="mpirun",
    # Horovod's horovodrun starts every rank itself too (through mpirun, or Gloo over ssh): `-np`
    # ranks on the hosts of `-H`/`--hosts`
    spellings=(("mpirun",), ("mpiexec",), ("mpiexec.hydra",), ("orterun",), ("horovodrun",)),
    per_node=False,
    procs_per_node=("npernode", "N", "ppn"),
    procs_total=("np", "n"),
    # inside an allocation mpirun reads the node list from Slurm and starts every rank itself
    reaches_always=True,
    flags=frozenset(
        {
            "oversubscribe",
            "allow_run_as_root",
            "tag_output",
            "timestamp_output",
            "report_bindings",
            "display_map",
            "v",
            "q",
            "quiet",
            "noprefix",
            "prefix_output",
            "l",
            # horovodrun's switches
            "gloo",
            "mpi",
            "jsrun",
            "verbose",
            "disable_cache",
            "check_build",
            "cb",
        }
    ),
)

# MosaicML's composer launcher: one copy per node starts that node's workers with torchrun's
# environment (RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR); --world_size counts the whole job
COMPOSER = Launcher(
    name="composer",
    spellings=(("composer",), ("python", "-m", "composer.cli.launcher")),
    per_node=True,
    procs_per_node=("nproc", "n"),
    procs_total=("world_size",),
    node_rank=("node_rank",),
    address=("master_addr",),
    port=("master_port",),
    flags=frozenset({"verbose", "v", "module_mode", "m", "command_mode", "c"}),
    module_flags=("module_mode", "m"),
)

# Lightning (and any program that srun starts once per GPU): no launcher command of its own; its
# sizes are the Trainer's arguments, which must match srun's tasks
LIGHTNING = Launcher(
    name="lightning",
    spellings=(),
    per_node=False,
    nodes=("num_nodes", "trainer.num_nodes"),
    procs_per_node=("devices", "trainer.devices"),
)

ALL = (TORCHRUN, ACCELERATE, DEEPSPEED, MPIRUN, COMPOSER)

# Python programs that are launchers themselves, by file name: run once, they start a per-node
# launcher with a program and arguments of their own making, so the mode is a per-node
# launcher's and the program is not the file the script names (GPT-NeoX's `python ./deepy.py
# train.py configs/x.yml` runs DeepSpeed's launcher, with the arguments its YAML configs give)
PROGRAM_LAUNCHERS = {
    "deepy.py": "GPT-NeoX's launcher, which starts DeepSpeed's launcher with the program and the "
    "arguments its YAML configs give",
    # the same command line, but torchrun once per node (srun's task on each node; its node rank
    # is $RANK, its processes $SLURM_GPUS_ON_NODE)
    "deepy_torchrun.py": "GPT-NeoX's torchrun launcher, which starts torchrun on its node with the "
    "program and the arguments its YAML configs give",
}
# Console scripts whose subcommand is a launcher under another name: `oumi distributed torchrun
# [torchrun's options] -m oumi train -c x.yaml` runs torchrun on its own node with the node count,
# node rank, processes per node and rendezvous it reads from Slurm's environment (Oumi's
# `distributed` command; `accelerate` likewise runs `accelerate launch`). Once from the batch
# shell it is one launcher on the first node, whatever the nodes of the job.
SUBCOMMAND_LAUNCHERS = {
    ("oumi", "distributed", "torchrun"): TORCHRUN,
    ("oumi", "distributed", "accelerate"): ACCELERATE,
}
BY_NAME = {entry.name: entry for entry in ALL}
# mpirun options that take a value even though their names look like flags
MPI_VALUED = frozenset(
    {
        "x",
        "mca",
        "bind_to",
        "map_by",
        "rank_by",
        "hostfile",
        "machinefile",
        "H",
        "host",
        "hosts",
        "wdir",
        "genv",
    }
)


def entry(name: str) -> Launcher | None:
    return BY_NAME.get(name)


def by_command(first: str, second: str | None) -> tuple[Launcher, int] | None:
    """The launcher a command starts (`torchrun`, `accelerate launch`, `/opt/bin/deepspeed`), and
    how many of its words name it; None for any other command."""
    base = first.rsplit("/", 1)[-1]
    for launcher in ALL:
        for spelling in launcher.spellings:
            if spelling[0] == "python" or spelling[0] != base:
                continue
            if len(spelling) == 1:
                return launcher, 1
            if second == spelling[1]:
                return launcher, 2
    return None


def by_module(module: str) -> Launcher | None:
    """The launcher `python -m MODULE` starts, if MODULE is one."""
    for launcher in ALL:
        for spelling in launcher.spellings:
            if spelling[0] == "python" and spelling[2] == module:
                return launcher
    return None


# Hydra's launcher plugins (`python app.py -m hydra/launcher=NAME hydra.launcher.KEY=VALUE …`): a
# launcher plugin runs only in a multirun (`-m`, `--multirun`, or `hydra.mode=MULTIRUN`); a
# single run calls the program in its own process whatever launcher is named. The torchrun
# plugins (NVIDIA's DeepLearningExamples hydra_torchrun_launcher and its forks) start an elastic
# agent in the program's process, once per node, which forks that node's workers: torchrun's
# behaviour, with torchrun's option names as the keys of `hydra.launcher`.
HYDRA_TORCHRUN = frozenset({"torchrun"})
# the plugins that run the job in the program's own process, one after the other
HYDRA_IN_PROCESS = frozenset({"basic"})


class CliLauncher:
    """A console script that starts torchrun itself for one of its commands, on its own node: the
    module torchrun then runs, and the environment variables that decide whether it does."""

    __slots__ = ("force", "module", "off", "said")

    def __init__(self, *, module: str, force: tuple[str, ...], off: tuple[str, ...], said: str) -> None:
        # the module torchrun runs with the command's other arguments
        self.module = module
        # variables that make it start torchrun whatever the devices it sees
        self.force = force
        # variables that make it train another way (Ray), never through torchrun
        self.off = off
        # the console script, in words
        self.said = said


# LLaMA-Factory's `llamafactory-cli train CONFIG` (its alias `lmf`): when FORCE_TORCHRUN (or
# USE_MCA, USE_MEGATRON_BRIDGE) is enabled, or it sees more than one device and neither USE_RAY
# nor USE_KT is, it runs `torchrun --nnodes $NNODES --node_rank $NODE_RANK --nproc_per_node
# $NPROC_PER_NODE … llamafactory/launcher.py CONFIG` on its node; else it trains in its own
# process. A variable is enabled when its value is true, y or 1 (any case).
_LLAMAFACTORY = CliLauncher(
    module="llamafactory.launcher",
    force=("FORCE_TORCHRUN", "USE_MCA", "USE_MEGATRON_BRIDGE"),
    off=("USE_RAY", "USE_KT"),
    said="LLaMA-Factory's CLI",
)
CLI_TORCHRUN = {("llamafactory-cli", "train"): _LLAMAFACTORY, ("lmf", "train"): _LLAMAFACTORY}
ENABLED = frozenset({"true", "y", "1"})
