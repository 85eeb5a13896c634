"""Everything the script needs, resolved once from the spec: interpolated, defaulted, counted."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jobc.compile.errors import CompileError
from jobc.compile.shell import scalar

if TYPE_CHECKING:
    from jobc.spec.context import Context
    from jobc.spec.plain import JobSpec

# srun's --wait floor: how long the other ranks may run on after the first one exits.
MIN_STEP_WAIT_S = 60
#: The interpreter words of `launch.python: uv`: the project's venv, never synced by a rank.
UV_PYTHON = ("uv", "run", "--no-sync", "python")
#: `launch.python: none`: the program is an executable, run with no interpreter in front.
NO_PYTHON = "none"

CACHE_VARIABLES = (
    ("hf_home", "HF_HOME"),
    ("uv_cache_dir", "UV_CACHE_DIR"),
    ("torch_home", "TORCH_HOME"),
    ("triton_cache_dir", "TRITON_CACHE_DIR"),
    ("nemo_home", "NEMO_HOME"),
    ("pip_cache_dir", "PIP_CACHE_DIR"),
)


def spec_sha256(data: Mapping[str, Any]) -> str:
    """sha256 of what the spec says: sorted-key JSON of the merged data as written (the spec file
    over its profiles, then --set), so neither key order nor formatting in the YAML changes it,
    and neither does a default jobc fills in (a new field with a default leaves it alone)."""
    # str for anything JSON has no form for (a date ruamel read): the hash needs only stability
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Plan:
    ctx: Context
    sha256: str
    attach: str | None  # the job id of an allocation to attach to, or None for a batch script
    python: tuple[str, ...]
    program: tuple[str, ...]  # `script args…` or `-m module args…`
    workdir: str | None
    logs: str | None
    dumps: str | None  # the directory under which each job gets its hang-dump directory
    checkpoints: str | None
    caches: tuple[tuple[str, str], ...]
    env: tuple[tuple[str, str], ...]
    mounts: tuple[str, ...]
    container_workdir: str | None

    @property
    def spec(self) -> JobSpec:
        return self.ctx.spec

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def mode(self) -> str:
        return self.spec.launch.mode

    @property
    def nodes(self) -> int:
        return self.ctx.nodes

    @property
    def tasks_per_node(self) -> int:
        return self.ctx.tasks_per_node

    @property
    def ranks_per_node(self) -> int:
        """Ranks on each node: srun's tasks, or the workers torchrun starts (one per GPU)."""
        if self.mode == "torchrun":
            return max(self.ctx.gpus_per_node, 1)
        return self.tasks_per_node

    @property
    def world(self) -> int:
        return self.nodes * self.ranks_per_node

    @property
    def dp(self) -> int | None:
        p = self.spec.parallelism
        denom = p.tp * p.pp * p.cp
        return self.world // denom if self.world % denom == 0 else None

    @property
    def uv(self) -> bool:
        """The spec says uv."""
        return self.spec.launch.python == "uv"

    @property
    def python_chosen_at_start(self) -> bool:
        """launch.python is not set and there is no container: the batch shell chooses uv for a
        uv project (a uv.lock in the workdir) and the python on PATH otherwise. In a container
        the image's python is the one on PATH, and the host's workdir says nothing of it."""
        return self.spec.launch.python is None and self.spec.container is None

    @property
    def step_wait_s(self) -> int:
        return max(self.spec.resilience.grace_s, MIN_STEP_WAIT_S)

    @property
    def grace_s(self) -> int:
        """The runtime's watchdog window: the spec's grace less a margin in which the batch shell
        can still requeue the job before Slurm kills it."""
        grace = self.spec.resilience.grace_s
        return max(grace - 10, grace // 2, 1)


def _render(text: str, values: dict[str, Any], where: str) -> str:
    from jobc.spec.interpolate import InterpolationError, render

    try:
        return render(text, values)
    except InterpolationError as exc:
        raise CompileError(f"{where}: {exc}") from None


def make_plan(ctx: Context, attach: str | None = None) -> Plan:
    from jobc.spec.interpolate import interpolation_values

    spec = ctx.spec
    values = interpolation_values(ctx)
    launch = spec.launch

    def r(value: str | int | float | bool, where: str) -> str:
        return _render(value, values, where) if isinstance(value, str) else scalar(value)

    if launch.program is not None and launch.module is None:
        head: tuple[str, ...] = (r(launch.program, "launch.program"),)
    elif launch.module is not None and launch.program is None:
        head = ("-m", r(launch.module, "launch.module"))
    else:
        raise CompileError("launch needs exactly one of 'program' and 'module'")
    args = tuple(r(arg, f"launch.args[{i}]") for i, arg in enumerate(launch.args))
    if launch.python == NO_PYTHON and launch.module is not None:
        raise CompileError(
            "launch.module runs under an interpreter: launch.python none runs a program as it is"
        )
    python: tuple[str, ...] = UV_PYTHON if launch.python == "uv" else (launch.python or "python",)
    if launch.python == NO_PYTHON:
        # an executable run as it is: srun's tasks run it directly; in torchrun mode the python
        # on PATH runs the agent, and torchrun's --no-python runs the program
        python = ("python",) if spec.launch.mode == "torchrun" else ()
    storage = spec.storage
    caches = tuple(
        (variable, r(getattr(storage.caches, key), f"storage.caches.{key}"))
        for key, variable in CACHE_VARIABLES
        if getattr(storage.caches, key) is not None
    )
    # Sorted: the order of keys in the YAML must not change the script.
    env = tuple((key, r(spec.env[key], f"env.{key}")) for key in sorted(spec.env))
    container = spec.container
    mounts: tuple[str, ...] = ()
    container_workdir = None
    if container is not None:
        mounts = tuple(r(m, f"container.mounts[{i}]") for i, m in enumerate(container.mounts))
        if any("," in m for m in mounts):
            raise CompileError("container.mounts: a mount cannot contain ','")
        if container.workdir is not None:
            container_workdir = r(container.workdir, "container.workdir")
    return Plan(
        ctx=ctx,
        sha256=spec_sha256(ctx.data),
        attach=attach,
        python=python,
        program=head + args,
        workdir=None if launch.workdir is None else r(launch.workdir, "launch.workdir"),
        logs=None if storage.logs is None else r(storage.logs, "storage.logs"),
        dumps=(
            r(spec.monitoring.dump_dir, "monitoring.dump_dir")
            if spec.monitoring.dump_dir is not None
            else None
            if storage.logs is None
            else r(storage.logs, "storage.logs")
        ),
        checkpoints=None if storage.checkpoints is None else r(storage.checkpoints, "storage.checkpoints"),
        caches=caches,
        env=env,
        mounts=mounts,
        container_workdir=container_workdir,
    )
