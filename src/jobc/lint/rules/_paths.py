"""Where a path in a spec lives: node-local scratch, declared shared storage, or unknown.

Paths are compared by components after normalisation, never as strings: `/lustre2/x` is not
under `/lustre`, and `/lustre//x/../y` is `/lustre/y`. Symbolic links are not resolved (the
machine that lints is not the cluster). A path jobc cannot place (relative, or starting with a
variable other than the few below) is reported as unknown, and the rules stay silent about it.
"""

from __future__ import annotations

import posixpath

from jobc.core.record import record

# Directories that exist separately on every node. /raid is the local NVMe array of DGX nodes.
NODE_LOCAL_DIRS = (
    "/tmp",
    "/var/tmp",
    "/dev/shm",
    "/local",
    "/localscratch",
    "/lscratch",
    "/scratch/local",
    "/raid",
)
# Variables that name a node's (usually per-job) scratch directory.
NODE_LOCAL_VARS = ("TMPDIR", "SLURM_TMPDIR", "LOCAL_SCRATCH")
_HOME_FORMS = ("~", "$HOME", "${HOME}")


@record
class Place:
    kind: str  # "local" | "shared" | "outside" | "unknown"
    reason: str = ""  # for local and outside: why, in words that name the path's prefix


def normalise(path: str) -> str:
    """Absolute paths with `.`, `..` and repeated slashes folded; other text unchanged."""
    if not path.startswith("/"):
        return path
    out = posixpath.normpath(path)
    return "/" + out.lstrip("/")


def under(path: str, prefix: str) -> bool:
    """Whether absolute ``path`` is ``prefix`` or inside it, comparing whole components."""
    p, q = normalise(path), normalise(prefix)
    if not (p.startswith("/") and q.startswith("/")):
        return False
    if q == "/":
        return True
    return p == q or p.startswith(q + "/")


def _local_variable(path: str) -> str | None:
    for name in NODE_LOCAL_VARS:
        for form in (f"${name}", f"${{{name}}}"):
            if path == form or path.startswith(form + "/"):
                return name
    return None


def _home_cache(path: str) -> bool:
    for home in _HOME_FORMS:
        rest = path[len(home) :] if path.startswith(home) else None
        if rest is not None and (rest == "/.cache" or rest.startswith("/.cache/")):
            return True
    return False


def place(path: str, shared: list[str]) -> Place:
    """Where ``path`` is, given the spec's ``storage.shared`` prefixes."""
    variable = _local_variable(path)
    if variable is not None:
        return Place("local", f"${variable} is the node's own scratch directory")
    if _home_cache(path):
        if any(prefix in _HOME_FORMS for prefix in shared):
            return Place("shared")
        return Place(
            "local",
            "~/.cache is the per-user default cache, not declared shared storage (in a container "
            "that does not mount the home directory it is the container's own)",
        )
    if not path.startswith("/"):
        return Place("unknown")
    for prefix in shared:
        if under(path, prefix):
            return Place("shared")
    for local in NODE_LOCAL_DIRS:
        if under(path, local):
            return Place("local", f"{local} is node-local")
    if shared:
        return Place("outside", f"it is not under storage.shared ({', '.join(shared)})")
    return Place("unknown")
