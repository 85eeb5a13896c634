"""Logs, checkpoints or caches on node-local storage, or outside the declared shared storage.

`/tmp`, `/var/tmp`, `/dev/shm`, `/local`, `/localscratch`, `/lscratch`, `/scratch/local`,
`/scratch_local`, `/raid`, `/mnt/bb` (OLCF's node NVMe), `$TMPDIR` (and `$SLURM_TMPDIR`) exist
separately on every node, and on many clusters are wiped when the job ends (Slurm's
`job_container/tmpfs` gives each job a private `/tmp`). `~/.cache` is the per-user default
cache, which in a container that does not mount the home directory is the container's own.
When `storage.shared` lists the shared file systems, any absolute path outside all of them
(compared by path components: `/lustre2` is not under `/lustre`) counts as not shared too.

- checkpoints there are scattered over the nodes' disks and gone after the job: a resume, or
  a requeued job that lands on other nodes, finds nothing. Error on a multi-node job; a warning
  on one node, where the checkpoint still disappears with the job's scratch space.
- logs there are written on the first node only and cannot be read from the login node. Same
  severities.
- `hf_home`, `nemo_home`, `torch_home` and `uv_cache_dir` there make every node of a multi-node
  job download the same models and wheels again, every job (and fail on an air-gapped
  cluster). Warning. `triton_cache_dir` and `pip_cache_dir` are left alone: a node-local compile
  cache is the recommended place.

Relative paths and paths that start with other variables are not judged.

Bad:

```yaml
resources: {nodes: 4, gpus_per_node: 8}
storage:
  shared: [/lustre]
  checkpoints: /tmp/ckpt
  caches: {hf_home: /scratch/local/hf}
```

Good:

```yaml
resources: {nodes: 4, gpus_per_node: 8}
storage:
  shared: [/lustre]
  checkpoints: "/lustre/ckpt/{name}"
  caches: {hf_home: /lustre/cache/hf}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import DataPath, Hit, Severity
from jobc.core.lazyre import lazy
from jobc.lint.rules import _words as words
from jobc.lint.rules._env import lookup
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context
from jobc.tables.paths import Place, place

META = Meta(
    code="JC701",
    name="node-local-path",
    severity=Severity.ERROR,
    summary="Logs, checkpoints or caches on node-local storage or outside storage.shared",
    remediation="Put logs, checkpoints and data caches under a storage.shared prefix.",
)
# A batch script can have this pitfall in the same form: the rule runs on scripts too.
SCRIPTS = True

# data caches that every node of a job (and every later job) should share
SHARED_CACHES = ("hf_home", "nemo_home", "torch_home", "uv_cache_dir")
CACHE_VARIABLES = {
    "HF_HOME": "hf_home",
    "HF_HUB_CACHE": "hf_home",
    "TRANSFORMERS_CACHE": "hf_home",
    "HF_DATASETS_CACHE": "hf_home",
    "NEMO_HOME": "nemo_home",
    "TORCH_HOME": "torch_home",
    "UV_CACHE_DIR": "uv_cache_dir",
}


def _caches(ctx: Context) -> Iterator[tuple[DataPath, str, str]]:
    caches = ctx.spec.storage.caches
    for key in SHARED_CACHES:
        value = getattr(caches, key)
        if value is not None:
            yield ("storage", "caches", key), value, f"storage.caches.{key}"
    for name in CACHE_VARIABLES:
        setting = lookup(ctx, name)
        if setting is not None and isinstance(setting.value, str):
            yield setting.path, setting.value, setting.where
    for i, line in enumerate(ctx.spec.launch.setup):
        # a setup line that sets a cache from a value the job computes (`export HF_HOME=/mnt/bb/$USER`:
        # the node-local directory is written, the user's name is not)
        match = _SETS.fullmatch(line.strip())
        if match is not None and match.group(1) in CACHE_VARIABLES and lookup(ctx, match.group(1)) is None:
            yield ("launch", "setup", i), match.group(2).strip("'\""), match.group(1)


_SETS = lazy(r"(?:export\s+)?([A-Z_]+)=(\"[^\"]*\"|'[^']*'|[^\s;&|'\"]+)")


def check(ctx: Context) -> Iterator[Hit]:
    spec = ctx.spec
    shared = spec.storage.shared
    nodes = ctx.nodes
    severity = None if ctx.multinode else Severity.WARNING
    requeue = spec.resilience.requeue
    for at, value, what, reader in _outputs(ctx):
        key = at[-1]
        where = _in_words(ctx, place(value, shared))
        said = words.name(ctx, at, f"{'.'.join(map(str, at))} {value!r}")
        if where.kind == "local":
            scope = (
                f"each of the {nodes} nodes keeps its own {what} there"
                if ctx.multinode
                else "node-local scratch is often wiped when the job ends"
            )
            yield Hit(
                at,
                f"{said}: {where.reason}, and {scope}; {reader}; put the {what} on shared storage",
                severity=severity,
            )
        elif where.kind == "outside" and (ctx.multinode or (key == "checkpoints" and requeue)):
            yield Hit(
                at,
                f"{said}: {where.reason}, so other nodes may not see the {what}; "
                f"{reader}; move them under a shared prefix, or add their file system to "
                f"{_SHARED[words.in_script(ctx)]} if it is shared",
                severity=severity,
            )
    if not ctx.multinode:
        return
    for path, value, name in _caches(ctx):
        where = _in_words(ctx, place(value, shared))
        if where.kind in ("local", "outside"):
            said = words.name(ctx, path, f"{name} {value!r}") if path[0] == "storage" else f"{name} {value!r}"
            yield Hit(
                path,
                f"{said}: {where.reason}, so each of the {nodes} nodes downloads the "
                "same files into its own copy, again in every job (and cannot on an air-gapped "
                "cluster); put the cache on shared storage",
                severity=Severity.WARNING,
            )


_RESUME = "a resume, or a requeued job on other nodes, finds nothing"
_READ = "they cannot be read from the login node"


def _outputs(ctx: Context) -> Iterator[tuple[DataPath, str, str, str]]:
    """Where checkpoints and logs go."""
    storage = ctx.spec.storage
    if storage.checkpoints is not None:
        yield ("storage", "checkpoints"), storage.checkpoints, "checkpoints", _RESUME
    if storage.logs is not None:
        yield ("storage", "logs"), storage.logs, "logs", _READ


_SHARED = {False: "storage.shared", True: "the profile's storage.shared"}


def _in_words(ctx: Context, where: Place) -> Place:
    """A script names no storage.shared of its own: the shared prefixes are its profile's."""
    if where.kind == "outside" and words.in_script(ctx):
        return Place(where.kind, where.reason.replace("storage.shared", "the profile's storage.shared"))
    return where
