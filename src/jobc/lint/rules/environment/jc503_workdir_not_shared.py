"""The program's working directory (`launch.workdir`) is not where every node, or the
container, can see it.

Every node runs the program from `launch.workdir`, and with `python: uv` the project's virtual
environment lives there too (`.venv`), synced once and then used by every rank. On a
node-local path (`/tmp`, `/local`, `$TMPDIR`, …), or outside every prefix in `storage.shared`,
the other nodes do not have the directory: "No such file or directory" on every node but the
first, or, worse, a stale copy. In a container, the directory must also be inside one of
`container.mounts` (or the home directory, when it is mounted): otherwise the container
does not see the code or the environment at all.

Error: the job fails when it starts.

Bad:

```yaml
resources: {nodes: 4, gpus_per_node: 8}
storage: {shared: [/lustre]}
launch: {workdir: /home/me/megatron, program: pretrain_gpt.py}
```

Good:

```yaml
resources: {nodes: 4, gpus_per_node: 8}
storage: {shared: [/lustre]}
launch: {workdir: /lustre/me/megatron, program: pretrain_gpt.py}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context
from jobc.tables.paths import normalise, place, under

META = Meta(
    code="JC503",
    name="workdir-not-shared",
    severity=Severity.ERROR,
    summary="launch.workdir is not on shared storage (multi-node) or not mounted into the container",
    remediation="Put the working directory under a storage.shared prefix, and mount it into the container.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("launch", "workdir"),)


def check(ctx: Context) -> Iterator[Hit]:
    workdir = ctx.spec.launch.workdir
    if workdir is None:
        return
    if ctx.multinode:
        where = place(workdir, ctx.spec.storage.shared)
        if where.kind in ("local", "outside"):
            others = "the other node" if ctx.nodes == 2 else f"the other {ctx.nodes - 1} nodes"
            yield Hit(
                ("launch", "workdir"),
                f"launch.workdir {workdir!r} is not shared: {where.reason}; {others} cannot run "
                "the program from it; use a directory on shared storage",
            )
            return
    container = ctx.spec.container
    if container is None or not workdir.startswith("/"):
        return
    sources = [m.split(":", 1)[0] for m in container.mounts if m.startswith("/")]
    if any(under(workdir, src) for src in sources):
        return
    if container.mount_home and (under(workdir, "/home") or under(workdir, "/root")):
        return
    what = "the code and its uv environment (.venv)" if ctx.uses_uv else "the code"
    mounted = ", ".join(normalise(s) for s in sources) if sources else "nothing"
    yield Hit(
        ("launch", "workdir"),
        f"launch.workdir {workdir!r} is not inside any of container.mounts ({mounted}), so the "
        f"container does not see {what}; add a mount such as {workdir}:{workdir}",
    )
