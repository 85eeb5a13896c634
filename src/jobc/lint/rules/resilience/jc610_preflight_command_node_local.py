"""`resilience.preflight.command` names a file on node-local storage.

The preflight command runs on every node of the job, from `launch.workdir`. A script under
`/tmp`, `/dev/shm`, `$TMPDIR` or another node-local directory exists only on the machine that
wrote it (the login node, one compute node): every other node fails its preflight with "No such
file or directory", and the job counts healthy nodes as broken, excludes them, and spends its
restarts on a missing file.

Error: the check fails on every node that does not have the file.

Bad:

```yaml
resources: {nodes: 4, gpus_per_node: 8}
storage: {shared: [/lustre]}
resilience:
  preflight: {command: /tmp/check_node.sh}
```

Good:

```yaml
resources: {nodes: 4, gpus_per_node: 8}
storage: {shared: [/lustre]}
resilience:
  preflight: {command: /lustre/tools/check_node.sh}
```
"""

import posixpath
import shlex
from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context
from jobc.tables.paths import place

META = Meta(
    code="JC610",
    name="preflight-command-node-local",
    severity=Severity.ERROR,
    summary="resilience.preflight.command runs a file on node-local storage, which other nodes lack",
    remediation="Put the check script on shared storage (a storage.shared prefix) or in launch.workdir.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("resilience", "preflight"),)


def _paths(command: str, workdir: str | None) -> Iterator[str]:
    """The words of the command that name files, absolute (relative ones under the workdir)."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return  # unbalanced quotes: bash says so on the node; no path to judge here
    for word in words:
        if word.startswith(("/", "$", "~")):
            yield word
        elif word.startswith(("./", "../")) and workdir is not None and workdir.startswith("/"):
            yield posixpath.join(workdir, word)


def check(ctx: Context) -> Iterator[Hit]:
    preflight = ctx.spec.resilience.preflight
    if preflight is None or preflight.command is None:
        return
    for path in _paths(preflight.command, ctx.spec.launch.workdir):
        where = place(path, ctx.spec.storage.shared)
        if where.kind == "local":
            yield Hit(
                ("resilience", "preflight", "command"),
                f"resilience.preflight.command runs {path!r}, which is not on every node: "
                f"{where.reason}; the other nodes fail their preflight for want of the file; put "
                "it on shared storage",
            )
            return
