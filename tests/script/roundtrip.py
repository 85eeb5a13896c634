"""The import→compile round trip, judged by the behaviour simulator: a script and the job compiled
from its import run the same program with the same arguments, interpreter options, environment
and directory on every node, or the import lists what it could not carry.

`round_trip(text)` imports the script, compiles the spec when it lints clean, runs both under the
simulator (scenario `complete`) and returns what differs that the import did not list. It reads
the programs from what the stubs recorded, not from jobc's reading of the script: the simulator is
the referee. A difference is *listed* when the spec's `# Not mapped` or `# Not known` lines (or a
`# jobc:` note) name it: the variable, the program, the option, the directory change.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from jobc.commands.import_ import render
from jobc.compile.agent import AGENT
from jobc.compile.script import compile_batch
from jobc.core.diagnostics import Severity
from jobc.lint.config import Config
from jobc.lint.imported import imported
from jobc.lint.pipeline import lint_file
from jobc.script.parse import read_bytes
from tests.support.simulator import Process, Run, simulate
from tests.support.simulator import launchers as torch_options
from tests.support.simulator.run import EXECUTABLES

# variables Slurm, the sandbox or the shell set, compared by the simulator's own tests: what a
# task's identity or a step's shape makes differ is no behaviour the import carries
_SYSTEM = re.compile(
    r"^(?:SLURM_|SLURMD_|SBATCH_|CUDA_VISIBLE_DEVICES$|ROCR_VISIBLE_DEVICES$|GPU_DEVICE_ORDINAL$|"
    r"PWD$|OLDPWD$|SHLVL$|_$|PATH$|HOME$|USER$|LOGNAME$|SHELL$|LANG$|TMPDIR$|HOSTNAME$)"
)
# interpreter options that take a value (python -W error, -X dev)
_PY_VALUED = frozenset({"-W", "-X", "--check-hash-based-pycs"})
_LAUNCHER_MODULES = {
    "torch.distributed.run": "torchrun",
    "torch.distributed.launch": "torchrun",
    "accelerate.commands.launch": "accelerate",
    "deepspeed.launcher.runner": "deepspeed",
}
# accelerate launch's options as its launch_command_parser has them in every version (0.x to 1.x),
# `-` and `_` alike: argparse without abbreviations, which refuses any other option before the
# program (`error: unrecognized arguments`) and starts nothing
_ACCELERATE_FLAG_NAMES = (
    "cpu debug downcast_bf16 dynamo_use_dynamic dynamo_use_fullgraph dynamo_use_regional_compilation "
    "enable_cpu_affinity fp16 fp8_use_autocast_during_eval help ipex ipex_enabled module mps "
    "multi_gpu no_python no_tpu_cluster quiet same_network tpu tpu_cluster tpu_use_sudo "
    "use_deepspeed use_fsdp use_megatron_lm use_mps_device use_parallelism_config use_tp use_xpu "
    "xpu_enabled"
)
_ACCELERATE_VALUED_NAMES = (
    "aws_access_key_id aws_secret_access_key config_file deepspeed_config_file "
    "deepspeed_exclusion_filter deepspeed_hostfile deepspeed_inclusion_filter "
    "deepspeed_moe_layer_cls_names deepspeed_multinode_launcher dynamo_backend dynamo_mode env "
    "fp8_amax_compute_algo fp8_amax_history_len fp8_backend fp8_enable_fsdp_float8_all_gather "
    "fp8_format fp8_interval fp8_margin fp8_opt_level fp8_override_linear_precision "
    "fp8_pad_inner_dim fsdp_activation_checkpointing fsdp_auto_wrap_policy fsdp_backward_prefetch "
    "fsdp_backward_prefetch_policy fsdp_cpu_ram_efficient_loading fsdp_forward_prefetch "
    "fsdp_min_num_params fsdp_offload_params fsdp_reshard_after_forward fsdp_sharding_strategy "
    "fsdp_state_dict_type fsdp_sync_module_states fsdp_transformer_layer_cls_to_wrap "
    "fsdp_use_orig_params fsdp_version gpu_ids gradient_accumulation_steps gradient_clipping "
    "log_dir machine_rank main_process_ip main_process_port main_training_function max_restarts "
    "megatron_lm_attention_backend megatron_lm_attention_dropout "
    "megatron_lm_attention_softmax_in_fp32 megatron_lm_calculate_per_token_loss "
    "megatron_lm_context_parallel_size megatron_lm_decoder_last_pipeline_num_layers "
    "megatron_lm_eod_mask_loss megatron_lm_expert_model_parallel_size "
    "megatron_lm_expert_tensor_parallel_size megatron_lm_gradient_clipping "
    "megatron_lm_hidden_dropout megatron_lm_no_load_optim megatron_lm_no_save_optim "
    "megatron_lm_num_micro_batches megatron_lm_optimizer_cpu_offload "
    "megatron_lm_overlap_cpu_optimizer_d2h_h2d megatron_lm_pp_degree "
    "megatron_lm_recompute_activations megatron_lm_recompute_granularity "
    "megatron_lm_recompute_method megatron_lm_recompute_num_layers "
    "megatron_lm_sequence_parallelism megatron_lm_tp_degree megatron_lm_use_custom_fsdp "
    "megatron_lm_use_distributed_optimizer megatron_lm_use_precision_aware_optimizer "
    "megatron_lm_use_rotary_position_embeddings min_num_params mixed_precision monitor_interval "
    "mpirun_ccl mpirun_hostfile num_cpu_threads_per_process num_machines num_processes "
    "offload_optimizer_device offload_optimizer_nvme_path offload_param_device "
    "offload_param_nvme_path offload_params parallelism_config_cp_backend "
    "parallelism_config_cp_comm_strategy parallelism_config_cp_size "
    "parallelism_config_dp_replicate_size parallelism_config_dp_shard_size "
    "parallelism_config_sp_attn_implementation parallelism_config_sp_backend "
    "parallelism_config_sp_seq_length parallelism_config_sp_seq_length_is_variable "
    "parallelism_config_sp_size parallelism_config_tp_size rdzv_backend rdzv_conf role "
    "sharding_strategy tee tp_size transformer_layer_cls_to_wrap vm zero3_init_flag "
    "zero3_save_16bit_model zero_stage"
)
_ACCELERATE_FLAGS = frozenset(f"--{n}" for n in _ACCELERATE_FLAG_NAMES.split()) | {"-h", "-m", "-q"}
_ACCELERATE_VALUED = frozenset(f"--{n}" for n in _ACCELERATE_VALUED_NAMES.split()) | {"-t"}


def _accelerate_option(word: str) -> str:
    """An accelerate option as its parser matches it: the name before `=`, `-` read as `_`, a
    short option's letter (`-t3`: `-t`)."""
    name = word.partition("=")[0]
    if not name.startswith("--"):
        return name[:2]
    return "--" + name[2:].replace("-", "_")


def _torchrun_argv(p: Process) -> list[str] | None:
    """torchrun's own command line, when the process is torchrun (`torchrun`, `python -m
    torch.distributed.run` or `.launch`)."""
    if p.name == "torchrun":
        return list(p.argv)
    if _is_python(p.name):
        rest = _python(list(p.argv))[1]
        if rest[:1] == ["-m"] and rest[1:2] in (["torch.distributed.run"], ["torch.distributed.launch"]):
            return rest[2:]
    return None


def refused(p: Process) -> str | None:
    """The option an `accelerate launch` or a torchrun the stubs recorded has and the launcher
    refuses (it has no such option, or it begins several of torchrun's), if any: that step starts
    no program."""
    argv = list(p.argv)
    if _is_python(p.name) and (bad := torch_options.python_refuses(argv)) is not None:
        # CPython's own option reader: `unknown option`, exit 2, nothing run; a refusal that matters
        # where the line names a program (`python -H --time=4` runs none either way)
        return bad if _python(argv)[1] else None
    if p.name == "uv" and argv[:1] == ["run"]:
        return torch_options.uv_run_refuses(argv)  # uv's parser: `unexpected argument`, exit 2
    torchrun = _torchrun_argv(p)
    if torchrun is not None:
        return torch_options.refused(torchrun)
    if p.name == "accelerate" and argv[:1] == ["launch"]:
        argv = argv[1:]
    elif _is_python(p.name) and _python(argv)[1][:2] == ["-m", "accelerate.commands.launch"]:
        argv = _python(argv)[1][2:]
    else:
        return None
    i = 0
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "--":
        option = _accelerate_option(argv[i])
        if option not in _ACCELERATE_FLAGS and option not in _ACCELERATE_VALUED:
            return argv[i]
        i += 2 if option in _ACCELERATE_VALUED and "=" not in argv[i] and argv[i].startswith("--") else 1
    return None


@dataclass(frozen=True)
class Invocation:
    """One program the job runs, as the simulator recorded it, with its launcher taken off."""

    host: str
    target: str  # `program train.py`, `module pkg.train`, `code …` (python -c)
    args: tuple[str, ...]
    options: tuple[str, ...]  # the interpreter's own options (python -O, -W error)
    cwd: str
    env: Mapping[str, str] = field(compare=False)


def _is_python(name: str) -> bool:
    """Whether a command's name is Python's interpreter (`python`, `python3`, `python3.11`): a
    name that only starts so (`pythonexport`) is another command, which `uv run` or the shell does
    not find."""
    return re.fullmatch(r"python[0-9]*(?:\.[0-9]+)?", Path(name).name) is not None


def _python(argv: list[str]) -> tuple[tuple[str, ...], list[str]]:
    """A python command line: its interpreter options, and the rest (`-m x …`, `-c …`, a file)."""
    options: list[str] = []
    i = 0
    while i < len(argv) and argv[i].startswith("-") and argv[i] not in ("-m", "-c", "-"):
        options.append(argv[i])
        if argv[i] in _PY_VALUED and i + 1 < len(argv):
            options.append(argv[i + 1])
            i += 1
        i += 1
    return tuple(options), argv[i:]


def _past_options(argv: list[str], flags: frozenset[str]) -> list[str]:
    i = 0
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "--":
        i += 1 if "=" in argv[i] or argv[i] in flags else 2
    if i < len(argv) and argv[i] == "--":
        i += 1
    return argv[i:]


def _launched(kind: str, argv: list[str]) -> tuple[str, tuple[str, ...], tuple[str, ...]] | None:
    """What a launcher's command line runs: the target, its arguments, interpreter options."""
    if kind == "accelerate":
        argv = argv[1:] if argv[:1] == ["launch"] else argv
        flags = frozenset(w for w in argv if _accelerate_option(w) in _ACCELERATE_FLAGS)
        flags |= frozenset(w for w in argv if w[:2] == "-t" and len(w) > 2)  # `-t3`: the value in the word
        module = any(
            _accelerate_option(w) in ("-m", "--module")
            for w in argv[: len(argv) - len(_past_options(argv, flags))]
        )
        rest = _past_options(argv, flags)
    else:
        # torchrun, read as its own parser reads it: nothing when it refuses the line
        at, _ = torch_options.parse(argv)
        if at is None:
            return None
        head = {torch_options.option(w)[0] for w in argv[:at] if w.startswith("-")}
        module = "-m" in head or "--module" in head
        rest = argv[at:]
        if ("--no-python" in head or "--no_python" in head) and rest and _is_python(rest[0]):
            options, rest = _python(rest[1:])
            return _target(rest, options)
    if not rest:
        return None
    if module:
        return f"module {rest[0]}", tuple(rest[1:]), ()
    return f"program {rest[0]}", tuple(rest[1:]), ()


def _target(rest: list[str], options: tuple[str, ...]) -> tuple[str, tuple[str, ...], tuple[str, ...]] | None:
    if not rest:
        return None
    if rest[0] == "-m" and len(rest) > 1:
        launcher = _LAUNCHER_MODULES.get(rest[1])
        if launcher is not None:
            return _launched(launcher, rest[2:])
        return f"module {rest[1]}", tuple(rest[2:]), options
    if rest[0] == "-c" and len(rest) > 1:
        if rest[1].rstrip("\n") == AGENT.rstrip("\n"):  # jobc's torchrun agent: torchrun's own main
            return _launched("torchrun", rest[2:])
        return f"code {rest[1]}", tuple(rest[2:]), options
    return f"program {rest[0]}", tuple(rest[1:]), options


def invocation(p: Process) -> Invocation | None:
    """The program a recorded process runs, launcher and `uv run` taken off; None for a step
    (srun itself) or a command that runs no program."""
    if p.kind == "step" or refused(p) is not None:
        return None
    name, argv = p.name, list(p.argv)
    if name == "uv":
        if argv[:1] != ["run"]:
            return None
        argv = _past_options(argv[1:], frozenset({"--no-sync", "--frozen", "--locked", "--no-project"}))
        if not argv:
            return None
        if argv[0].endswith(".py"):
            name = "python"  # `uv run x.py` runs the file with the project's python, whatever its name
        else:
            name, argv = Path(argv[0]).name, argv[1:]
    found: tuple[str, tuple[str, ...], tuple[str, ...]] | None
    if _is_python(name):
        options, rest = _python(argv)
        found = _target(rest, options)
    elif name in ("torchrun", "accelerate", "deepspeed"):
        found = _launched(name, argv)
    elif name in EXECUTABLES:
        found = f"program {name}", tuple(argv), ()  # an executable run as it is
    else:
        return None
    if found is None:
        return None
    target, args, options = found
    return Invocation(p.host, target, args, options, p.cwd, p.env)


def invocations(run: Run) -> list[Invocation]:
    return [i for p in run.processes if (i := invocation(p)) is not None]


@dataclass
class Outcome:
    """A round trip: the spec, whether it compiled, and what differs that was not listed."""

    spec: str | None  # None: import refused the script (with one clear line)
    compiled: str | None = None  # None: the spec does not lint clean (what it lacks is listed)
    listed: list[str] = field(default_factory=list)  # the spec's lines that say what was not carried
    unlisted: list[str] = field(default_factory=list)  # differences the spec does not name


def _listed(spec: str) -> list[str]:
    out = []
    footer = False
    for line in spec.splitlines():
        if line.startswith("# Not mapped from the script"):
            footer = True
        elif line.startswith(("# Not known:", "# jobc:")) or (footer and line.startswith("#   line ")):
            out.append(line)
    return out


def _names(what: str, listed: list[str]) -> bool:
    """Whether a listed line names ``what`` (a variable, a program, an option) as a word, as it
    is written there (bytes that are not UTF-8 or not printable shown escaped)."""
    from jobc.core.text import visible

    shown = {what, visible(what)}
    patterns = [re.compile(r"(?<![\w.-])" + re.escape(w) + r"(?![\w-])") for w in shown]
    if any(p.search(line) for p in patterns for line in listed):
        return True
    # a long name the listing shows cut, its first characters then `…` (`export MAS99…`)
    cut = re.compile(r"(?<![\w.-])([\w.-]{16,})…")
    return any(what.startswith(m.group(1)) for line in listed for m in cut.finditer(line))


def _env_differences(a: Invocation, b: Invocation, listed: list[str]) -> Iterator[str]:
    for name in sorted(set(a.env) | set(b.env)):
        if _SYSTEM.match(name) or name not in a.env:
            continue  # what jobc adds (its fabric and runtime variables) is another question
        if a.env.get(name) != b.env.get(name) and not _names(name, listed):
            yield f"{a.host}: {a.target}: env {name}: {a.env.get(name)!r} -> {b.env.get(name)!r}"


def _compare(
    a: list[Invocation], b: list[Invocation], listed: list[str], carried: str | None = None
) -> list[str]:
    """What differs between the programs the script ran (``a``) and the compiled job's (``b``).
    ``carried`` is the spec's own program (`program x.py`): another program the script ran may be
    missing from the compiled job when the spec lists the steps it did not carry."""
    out: list[str] = []
    for inv in a:
        if _nodes_unknown(listed) and not any(x.host == inv.host for x in b):
            continue  # the spec says it does not know the nodes: a node the compiled job lacks is said
        same = [x for x in b if x.host == inv.host and x.target == inv.target]
        what = inv.target.split(" ", 1)[1]
        if not same:
            other_step = inv.target != carried and _steps_listed(listed)
            # a launcher option whose value the script sets nowhere, listed as such: empty, it
            # shifted the launcher's words, and the script ran something else than it meant
            shifted = _shifted(listed) or _split_onto(inv.target, inv.args, listed, carried)
            if (
                not _program_named(what, listed)
                and not _program_unknown(listed)
                and not other_step
                and not shifted
            ):
                out.append(f"{inv.host}: {inv.target!r} {list(inv.args)} is not run by the compiled job")
            continue
        # the same task where the step's shape is the same (rank for rank), else any like it
        rank = inv.env.get("SLURM_PROCID")
        other = next(
            (x for x in same if x.args == inv.args and x.env.get("SLURM_PROCID") == rank),
            next((x for x in same if x.args == inv.args), same[0]),
        )
        if (
            other.args != inv.args
            and (_steps_listed(listed) or _run_by_value(what, listed))
            and (any(x.target == inv.target and x.args == other.args for x in a) or _runs_refused(listed))
        ):
            # the script ran the program twice, the other way in a step listed as not carried (or
            # in a value computed over several lines, listed with what it runs); or its training
            # step ran nothing, its launcher refusing an option the spec lists with the program it
            # runs all the same, so that the script's only run is the other step's
            continue
        if (
            other.args != inv.args
            and not _args_listed(inv.args, other.args, listed)
            and not _args_left_out(listed)
            and not _shifted_args(inv.args, other.args, listed)
            and not _step_never_ran(listed)
        ):
            out.append(f"{inv.host}: {inv.target}: args {list(inv.args)} -> {list(other.args)}")
        for option in set(inv.options) ^ set(other.options):
            # (a long option the listing shows cut, its first characters then `…`, is named too)
            if not _named(option, listed):
                out.append(f"{inv.host}: {inv.target}: interpreter option {option} only on one side")
        if inv.cwd != other.cwd and not any(_names(w, listed) for w in ("cd", "--chdir", "-D")):
            out.append(f"{inv.host}: {inv.target}: directory {inv.cwd!r} -> {other.cwd!r}")
        out += _env_differences(inv, other, listed)
    return out


def _runs_refused(listed: list[str]) -> bool:
    """Whether the spec says the script's training step starts no program (its launcher refuses
    an option) and that the spec runs the program the rest of the line names."""
    return any("the spec runs the program the rest of the line names" in line for line in listed)


def _program_named(what: str, listed: list[str]) -> bool:
    """Whether a listed line names a program the script ran: by its first 60 characters, or as the
    script wrote the word it came from (`--rdzv_back_endpoint="$head:29400"`, which torchrun took
    for its program when the value held a blank)."""
    said = [line for line in listed if "for its program" in line]  # as written, it must say so
    return _names(what.split("\n", 1)[0][:60], listed) or any(_written_as(what, line) for line in said)


def _args_listed(script: tuple[str, ...], compiled: tuple[str, ...], listed: list[str]) -> bool:
    """Whether the listing names every argument one side passes and the other does not: each by
    itself (that some other argument of the program is named somewhere says nothing of this one).
    The same arguments in another order are a difference no listed line explains."""
    differ = list((Counter(script) - Counter(compiled)).elements())
    differ += list((Counter(compiled) - Counter(script)).elements())
    return bool(differ) and all(arg and _names(arg, listed) for arg in differ)


def _refuser(p: Process) -> str:
    """Which program refused the line: torchrun, python itself, or accelerate."""
    if _torchrun_argv(p) is not None:
        return "torchrun"
    if _is_python(p.name) and torch_options.python_refuses(list(p.argv)) is not None:
        return "python"
    return "accelerate"


def _refusals(run: Run, listed: list[str], script: str = "") -> list[str]:
    """The script's launches that start nothing, as the launcher refuses an option it does not have:
    the spec, which runs a program there, must say that the launcher refuses that option. An
    option the script writes nowhere came from a value computed when the job runs, split at its
    blanks: the listing may say only that such a word can be read as an option and refused."""
    out = []
    runtime = any("for an option of its own, which it refuses if it has none such" in line for line in listed)
    # (the script's commands, without its comments and #SBATCH lines, where a word is no option)
    script = "\n".join(line for line in script.splitlines() if not line.lstrip().startswith("#"))
    found = {(o, _refuser(p)): None for p in run.processes if (o := refused(p)) is not None}
    said = [line for line in listed if "refuses" in line]
    # a step the spec lists as not carried at all (another step, the other arm of an `if`): the
    # spec says nothing of what it runs, so that its launcher refuses its line is no claim of it
    others = [line for line in listed if re.search(r"another step|a helper step|arm of the `", line)]
    # nor is a value computed in the batch shell whose commands the listing shows, saying they run
    # a program the compiled job does not run: a refusal by the launcher those commands name
    runs = [line for line in listed if "runs a program the compiled job does not run" in line]
    # such a step that passes on a function's arguments (`"$@"`, after a `shift`) runs words of
    # the call the listing shows only as the parameters: an option the launcher refuses among them
    # is of that step, which the spec does not carry
    positional = any(re.search(r"\$\{?[@*]", line) for line in others)
    # a word of a value the batch shell computes (listed with its line, not carried) that reached
    # the launcher because bash split the value at blanks, as the listing says it may
    split = any("bash splits the value the batch shell computes at blanks" in line for line in listed)
    computed = [line for line in listed if "a value computed in the batch shell" in line] if split else []
    for option, launcher in found:
        if (
            not _named(option, said)
            and not _named(option, others)
            and not _names(option, computed)
            and not positional
            and not (runtime and script and option.split("=", 1)[0] not in script)
            and not _named(option, [line for line in runs if launcher in line])
        ):
            out.append(f"{launcher} refuses {option} and starts no program; the spec does not say so")
    return out


def _named(option: str, lines: list[str]) -> bool:
    """Whether one of ``lines`` names ``option``: itself, as the script wrote it, or by the start
    of it the listing shows (of a line past 500 characters)."""
    return _names(option, lines) or any(
        _written_as(option, line) or _cut(option, line) or _unquoted(option, line) for line in lines
    )


def _unquoted(option: str, line: str) -> bool:
    """Whether ``line`` names an option as the script wrote it with bash's quoting, which bash takes
    off: a backslash before a character (`--back\\nd`, which bash reads as `--backnd`) or quotes
    around a part (`--a"b"`); the escapes the listing writes for unprintable bytes (`\\xfb`) stay."""
    from jobc.core.text import visible

    for word in re.findall(r"(?<![\w.-])-[^\s—]*", line):
        bare = re.sub(r"\\(?!x[0-9a-f]{2}|u[0-9a-f]{4})(.)", r"\1", word.replace('"', "").replace("'", ""))
        if bare != word and bare in (option, visible(option)):
            return True
    return False


def _cut(option: str, line: str) -> bool:
    """Whether ``line`` names an option by the start the listing shows of a long text (its first
    characters, the rest `…`: a line past 500 characters)."""
    from jobc.core.text import visible

    # the shown text from its option on (`torchrun --rdzv_bac99…`), or its last word (`srun … torchrun
    # --nnodes=2 --nproc_ngl…`, a step past the cut)
    shown = [m.group(1) for m in [re.match(r"#   line \d+: (?:\S+ )?(-\S.*)… — ", line)] if m]
    shown += re.findall(r"(?<!\S)(-\S*)… — ", line)
    if any(o.startswith(s) for s in shown for o in (option, visible(option))):
        return True
    # ... as written, with its quotes and substitutions, which the option holds expanded
    for s in shown:
        parts = re.split(r"\$\{\w+\}|\$[0-9]|\$\w+|\$\([^()]*\)|`[^`]*`", s.replace('"', "").replace("'", ""))
        pattern = ".*".join(re.escape(p) for p in parts)
        if len(parts) > 1 and any(re.match(pattern, o, re.S) for o in (option, visible(option))):
            return True
    return False


def _written_as(option: str, line: str) -> bool:
    """Whether ``line`` names an option as the script wrote it, which expands to ``option`` (the
    listing names `--num_machinesR$SLURM_NNODES`, accelerate refuses `--num_machinesR2`)."""
    from jobc.core.text import visible

    # a `$` the batch shell keeps (`\$(…)` in a command string run by `bash -c "$CMD"`) is
    # expanded by the step's own shell: a substitution all the same
    line = re.sub(r"\\\$(?=[({A-Za-z_])", "$", line)
    # a substitution as written may hold blanks (`--a`b c`d`, `--a$(b c)d`): one part of the word
    line = re.sub(r"`[^`\n]*`|\$\([^()\n]*\)", "$()", line)
    for word in re.findall(r"(?<![\w.-])-[^\s—]*\$[^\s—]*", line):
        # the listing shows the word as written: its quotes, and a byte no text has escaped; a
        # quote may be a character of the word (a `'` inside `"…"`), which bash keeps
        for bare in (word.replace('"', "").replace("'", ""), word.replace('"', ""), word):
            # (`$9999` is bash's `$9` and the text `999`: a positional parameter is one digit)
            parts = re.split(r"\$\{\w+\}|\$[0-9]|\$\w+|\$\([^()]*\)|`[^`]*`", bare)
            pattern = ".*".join(re.escape(p) for p in parts)
            if re.fullmatch(pattern, option) or re.fullmatch(pattern, visible(option)):
                return True
    return False


def _args_left_out(listed: list[str]) -> bool:
    """Whether the import says it left an argument of the program out (a token, JC702), or that
    the step's words may be missing (lines the grammar read around)."""
    return any(
        re.search(r"launch\.args\.\d+ — left out", line)
        or "words of this step may be missing from what the spec runs" in line
        for line in listed
    )


def _counts(
    a: list[Invocation], b: list[Invocation], listed: list[str], carried: str | None = None
) -> list[str]:
    """Each program runs as many times on each node (tasks, or launchers) both ways, with the
    same arguments (two steps of the script may run one program with others)."""
    ca = Counter((i.host, i.target, i.args) for i in a)
    cb = Counter((i.host, i.target, i.args) for i in b)
    out = []
    runs = {(t, args) for _, t, args in ca}
    for key in sorted(set(ca) | {k for k in cb if (k[1], k[2]) in runs}):
        n, m = ca.get(key, 0), cb.get(key, 0)
        what = key[1].split(" ", 1)[1].split("\n")[0][:60]
        named = _program_named(key[1].split(" ", 1)[1], listed)
        if not m and (named or (key[1] != carried and _steps_listed(listed))):
            continue  # a step the import lists as not carried
        if not m and any(k[1] == key[1] and k[0] == key[0] for k in cb) and _steps_listed(listed):
            continue  # the same program with other arguments: another step, listed
        if not m and any(k[1] == key[1] and k[0] == key[0] for k in cb) and _args_left_out(listed):
            continue  # the same program, with an argument the import left out and said so
        if not m and (_shifted(listed) or _split_onto(key[1], key[2], listed, carried)):
            continue  # a launcher option read empty or split, listed as such: its words shifted
        if 0 < m < n and _names(what, listed) and (_steps_listed(listed) or _run_by_value(what, listed)):
            continue  # two steps run the program alike: the compiled job runs one, the other is listed
        hosts = bool(n and m) or not (_hosts_listed(listed) or _nodes_unknown(listed) or _header_read(listed))
        if m > n and key[1] == carried and _run_by_shebang(what, listed):
            continue  # the script's step runs the file itself, which the sandbox does not hold
        looped = _looped(listed) and key[1] == carried  # the spec runs once what a loop ran n times
        if m != n and hosts and not _tasks_listed(listed) and not looped and not _header_read(listed):
            out.append(f"{key[0]}: {key[1]} runs {n} time(s), {m} in the compiled job")
    return out


def _run_by_shebang(what: str, listed: list[str]) -> bool:
    """Whether the import says a step runs the program file itself (`srun train.py`, by its `#!`
    line), which the spec runs with launch.python: the sandbox holds no program file, so the
    script's step starts nothing there and the compiled job's runs are more than the script's."""
    return any(
        re.match(
            r"#   line \d+: (?:\S*/)?" + re.escape(Path(what).name) + " — an executable Python file", line
        )
        for line in listed
    )


def _shifted(listed: list[str]) -> bool:
    """Whether the spec lists a launcher option whose value the script sets nowhere."""
    return any("is set nowhere in the script" in line for line in listed)


def _shifted_args(script: tuple[str, ...], compiled: tuple[str, ...], listed: list[str]) -> bool:
    """Whether the script's arguments are the compiled job's less the words at their front that a
    launcher option read empty took (its value, then options), as the listing says: the script's
    step starts the next word, which may be the program the spec runs."""
    said = any("is that value and the script's step starts" in line for line in listed)
    if not said or not _shifted(listed) or len(script) >= len(compiled):
        return False
    return compiled[len(compiled) - len(script) :] == script


def _split_onto(target: str, args: tuple[str, ...], listed: list[str], carried: str | None) -> bool:
    """Whether a program the script ran and the compiled job does not is a word of a launcher
    option's value split at its blanks, as the listing says it may be: the launcher took it for
    its program, and the program the spec carries is among that program's arguments."""
    if carried is None or target == carried or not carried.startswith("program "):
        return False
    said = any("bash splits the value the batch shell computes at blanks" in line for line in listed)
    return said and carried.split(" ", 1)[1] in args


def _header_read(listed: list[str]) -> bool:
    """Whether the spec says it reads as the job's request an #SBATCH header that sbatch ignores
    (below the first command, JC801): the script ran with Slurm's defaults, the spec with the
    header's tasks and nodes."""
    return any("below its first command, where sbatch ignores them" in line for line in listed)


def _run_by_value(what: str, listed: list[str]) -> bool:
    """Whether the spec lists a value computed in the batch shell, not carried, whose commands run
    the program (`X=$(…\nsrun python train.py\n)`, listed with what it runs over its lines): a
    step the compiled job does not run, said as such."""
    return any(_names(what, [line.split("it runs: ", 1)[1]]) for line in listed if "it runs: " in line)


def _looped(listed: list[str]) -> bool:
    """Whether the spec says its training step ran inside a loop of the script, or ran a function
    that starts itself again (a loop by recursion)."""
    return any(
        "runs inside the loop on line" in line or "runs a function that starts itself again" in line
        for line in listed
    )


def _nodes_unknown(listed: list[str]) -> bool:
    """Whether the spec says it does not know the job's nodes (`# Not known: resources.nodes`)."""
    return any(line.startswith("# Not known: resources.nodes") for line in listed)


def _hosts_listed(listed: list[str]) -> bool:
    return any("once, on the first of" in line for line in listed)


def _tasks_listed(listed: list[str]) -> bool:
    return any(re.search(r"tasks? per node|tasks_per_node|ntasks", line) for line in listed)


def _steps_listed(listed: list[str]) -> bool:
    """Whether the spec lists steps of the script it does not carry (it carries one)."""
    return any("another step" in line or "a helper step" in line for line in listed)


def _step_never_ran(listed: list[str]) -> bool:
    """Whether the spec says its training step never runs in the script (an `exit`, or a line bash
    cannot parse, before every step): what the script ran of the same program elsewhere (in a
    value's `$(…)`) is no run of that step to match."""
    return any(
        line.startswith("# jobc: the training step is line") and "never runs in the script" in line
        for line in listed
    )


def _program_unknown(listed: list[str]) -> bool:
    return any(line.startswith("# Not known: launch.program") for line in listed)


def _past_missing_workdir(
    compiled: str, after: Run, launch: dict[str, object], listed: list[str]
) -> str | None:
    """The compiled job with its `cd` to launch.workdir run as the script ran its own, when the
    directory is missing in the sandbox (the compiled job stopped there) and the spec says that
    the script runs on past a failed `cd` where the compiled job stops: the rest of the job is
    then compared as the script ran it, in the directory it was in."""
    from jobc.compile.shell import sq

    workdir = launch.get("workdir")
    said = any(
        line.startswith("# jobc: launch.workdir: the compiled job stops when it cannot enter")
        for line in listed
    )
    if not isinstance(workdir, str) or not said:
        return None
    if f"cd: {workdir}: No such file or directory" not in after.output:
        return None
    line = f"cd -- {sq(workdir)}\n"
    if line not in compiled:
        return None
    return compiled.replace(line, f"cd -- {sq(workdir)} || :\n", 1)


_SITE_COMMAND = re.compile(r"^#   line \d+: (.+?) — a site's command around (?:torchrun|accelerate)\b")


def _site_runs(
    a: list[Invocation], b: list[Invocation], listed: list[str], output: str, carried: str | None
) -> list[Invocation]:
    """The script's runs, with what its site's command around torchrun or accelerate starts.
    The spec's training step is such a command (`torchrun_jsc`), which it says it reads as the
    launcher and lists what the command adds as not carried; the sandbox has no such command, so
    the script's step started nothing there (srun or bash: no such file): what it would start is
    the program the spec carries, as the compiled job runs it. Only when the sandbox said so."""
    from jobc.core.text import visible

    if carried is None:
        return a
    names = [m.group(1) for line in listed if (m := _SITE_COMMAND.match(line))]
    missing = [
        line
        for line in output.splitlines()
        if "No such file or directory" in line or "command not found" in line
    ]
    # a byte that is not UTF-8 is written `\udcee` in the stubs' words (Python's surrogate
    # escape) and `\xee` in the listing
    missing = [re.sub(r"\\udc([0-9a-f]{2})", r"\\x\1", line) for line in missing]
    if not any(n in line or n in visible(line) for n in names for line in missing):
        return a
    return a + [x for x in b if x.target == carried]


def round_trip(script: bytes, tmp: Path, name: str = "job.sh") -> Outcome:
    """Import ``script``, compile the spec, simulate both; what differs that was not listed."""
    facts = read_bytes(script, name, tmp)
    if not facts.readable:
        return Outcome(None)
    derived = imported(facts)
    spec = render(derived, facts)
    outcome = Outcome(spec, listed=_listed(spec))
    # launch.setup is the script's own lines (module loads, activation), which source files the
    # sandbox does not have: the compiled job, which stops at a failed setup line, runs without
    # them, as the script runs on past them
    derived.data["launch"].pop("setup", None)
    path = tmp / "imported.yaml"
    path.write_text(render(derived, facts), encoding="utf-8")
    result = lint_file(path, config=Config())
    if any(f.severity >= Severity.ERROR for f in result.findings) or result.context is None:
        return outcome  # the spec says what it lacks (the invariant test holds it to that)
    outcome.compiled = compile_batch(result.context)
    before = simulate(script, name=name, scenarios=("complete",))["complete"]
    after = simulate(outcome.compiled, name=name, scenarios=("complete",))["complete"]
    lenient = _past_missing_workdir(outcome.compiled, after, derived.data["launch"], outcome.listed)
    if lenient is not None:
        after = simulate(lenient, name=name, scenarios=("complete",))["complete"]
    if before.refused is not None or any("JC809" in line for line in outcome.listed):
        # sbatch refuses the script (as the simulator reads it, or as jobc reads a value sbatch,
        # srun or bash refuses, JC809): it runs nothing to compare
        return outcome
    if (
        after.refused is not None
        and after.refused.startswith("too large to simulate: ")
        and _header_read(outcome.listed)
    ):
        # the spec asks for more nodes, tasks or GPUs than the simulator runs, read from an
        # #SBATCH header below the first command, which the script ran without and the import
        # reads, JC801, as it says: a cluster would run it, the simulator cannot, so there is
        # nothing to compare (a compiled job too large for any other reason is a difference)
        return outcome
    if after.refused is not None:
        outcome.unlisted = [f"sbatch refuses the compiled job: {after.refused}"]
        return outcome
    a, b = invocations(before), invocations(after)
    launch = derived.data["launch"]
    carried = f"program {launch['program']}" if "program" in launch else None
    if "module" in launch:
        carried = f"module {launch['module']}"
    a = _site_runs(a, b, outcome.listed, before.output, carried)
    found = _compare(a, b, outcome.listed, carried) + _counts(a, b, outcome.listed, carried)
    found += _refusals(before, outcome.listed, script.decode("utf-8", "surrogateescape"))
    outcome.unlisted = list(dict.fromkeys(re.sub(r"^node\d+: ", "", line) for line in found))
    return outcome
