"""A checked spec and the facts that follow from it: what rules read and the compiler plans from."""

from __future__ import annotations

from jobc.core.diagnostics import DataPath
from jobc.core.record import field, record

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

    from jobc.spec.catalog import Gpu
    from jobc.spec.framework import Framework
    from jobc.spec.plain import JobSpec


@record(frozen=False)
class Context:
    """What a rule sees: the validated, merged spec and the facts derived from it."""

    spec: JobSpec
    data: dict[str, Any]  # the merged plain data, as written (defaults not filled in)
    spec_dir: str = "."
    facts: dict[str, Any] = field(default_factory=dict)  # memoised derived values
    own: dict[str, Any] = field(default_factory=dict)  # the spec file alone: no profile, no --set

    def written_in_spec(self, *path: str | int) -> bool:
        """Whether the spec file itself (not a cluster profile or --set) writes this path."""
        node: Any = self.own
        for part in path:
            if isinstance(node, dict) and part in node:
                node = node[part]
            else:
                return False
        return True

    def given(self, *path: str | int) -> bool:
        """Whether the user wrote this path (in the spec, a profile or --set)."""
        node: Any = self.data
        for part in path:
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                node = node[part]
            else:
                return False
        return True

    @property
    def gpus_per_node(self) -> int:
        r, c = self.spec.resources, self.spec.cluster
        if r.gpus_per_node is not None:
            return r.gpus_per_node
        return c.gpus_per_node if c.gpus_per_node is not None else 0

    @property
    def nodes(self) -> int:
        return self.spec.resources.nodes

    @property
    def world(self) -> int:
        return self.nodes * self.gpus_per_node

    @property
    def tasks_per_node(self) -> int:
        r = self.spec.resources
        if r.tasks_per_node is not None:
            return r.tasks_per_node
        return max(self.gpus_per_node, 1) if self.spec.launch.mode == "srun" else 1

    @property
    def gpu(self) -> Gpu | None:
        from jobc.spec.catalog import gpus

        key = self.spec.resources.gpu or self.spec.cluster.gpu
        return gpus().get(key) if key else None

    @property
    def gpu_path(self) -> DataPath:
        return ("resources", "gpu") if self.given("resources", "gpu") else ("cluster", "gpu")

    @property
    def partition_name(self) -> str | None:
        """The partition the job runs in: slurm.partition, else the profile's default partition."""
        return self.spec.slurm.partition or self.spec.cluster.default_partition

    @property
    def partition_limits(self) -> Any:
        """The cluster's record of the chosen partition, if the profile describes it."""
        name = self.partition_name
        return self.spec.cluster.partitions.get(name) if name else None

    @property
    def cpus_per_node(self) -> int | None:
        part = self.partition_limits
        if part is not None and part.cpus_per_node is not None:
            return int(part.cpus_per_node)
        return self.spec.cluster.cpus_per_node

    @property
    def node_gpu_capacity(self) -> int | None:
        part = self.partition_limits
        if part is not None and part.gpus_per_node is not None:
            return int(part.gpus_per_node)
        return self.spec.cluster.gpus_per_node

    @property
    def dp(self) -> int | None:
        p = self.spec.parallelism
        denom = p.tp * p.pp * p.cp
        if self.world == 0 or self.world % denom:
            return None
        return self.world // denom

    @property
    def etp(self) -> int:
        p = self.spec.parallelism
        return p.etp if p.etp is not None else p.tp

    @property
    def framework(self) -> Framework:
        """The training code (Megatron or PyTorch-style), stated in the spec or inferred from it."""
        found: Framework | None = self.facts.get("framework")
        if found is None:
            from jobc.spec.framework import framework

            found = self.facts["framework"] = framework(self.spec)
        return found

    @property
    def multinode(self) -> bool:
        return self.nodes > 1

    @property
    def strings(self) -> list[tuple[DataPath, str]]:
        """Every string of the merged data with its data path, in the order the data holds them
        (a mapping's values, then a list's items, depth first). Made once: several checks read
        every string of a spec."""
        found: list[tuple[DataPath, str]] | None = self.facts.get("strings")
        if found is None:
            found = self.facts["strings"] = _strings(self.data)
        return found

    @property
    def uses_uv(self) -> bool | None:
        """Whether the ranks run under uv. `launch.python: uv` says so and a path says not; left
        unset, the compiled script chooses when the job starts (uv for a uv project: a uv.lock in
        the workdir, and no container), which lint can tell only when it can read that workdir
        from here (None when it cannot: the submit directory, an interpolated path, another
        machine's file system)."""
        launch = self.spec.launch
        if launch.python is not None:
            return launch.python == "uv"
        if self.spec.container is not None:
            return False
        if "uses_uv" not in self.facts:
            self.facts["uses_uv"] = _uv_project(self.spec_dir, launch.workdir)
        found: bool | None = self.facts["uses_uv"]
        return found


def _uv_project(spec_dir: str, workdir: str | None) -> bool | None:
    """Whether `workdir` holds a uv.lock; None when that cannot be known from here."""
    import os

    if workdir is None or "{" in workdir or "\0" in workdir:
        return None
    path = os.path.join(spec_dir, os.path.expanduser(workdir))
    try:
        if not os.path.isdir(path):
            return None
        return os.path.isfile(os.path.join(path, "uv.lock"))
    except (OSError, ValueError):
        return None


def _strings(data: Any) -> list[tuple[DataPath, str]]:
    out: list[tuple[DataPath, str]] = []
    if isinstance(data, str):
        out.append(((), data))
    elif isinstance(data, dict | list):
        _walk(data, (), out)
    return out


_COLLECTIONS = (dict, list)  # a tuple: `dict | list` would make a union object at every call


def _walk(node: dict[str, Any] | list[Any], path: DataPath, out: list[tuple[DataPath, str]]) -> None:
    """The strings below one mapping or list, depth first; a path is made only for a string or a
    collection (most of a spec's other values are numbers and booleans)."""
    for key, value in node.items() if isinstance(node, dict) else enumerate(node):
        if isinstance(value, str):
            out.append(((*path, key), value))
        elif isinstance(value, _COLLECTIONS):
            _walk(value, (*path, key), out)
