"""Where a path lives: node-local scratch, declared shared storage, or unknown.

Paths are compared by their components after normalisation, never as strings: `/lustre2/x` is
not under `/lustre`, `/scratch_localx` is not under `/scratch_local`, and `/lustre//x/../y` is
`/lustre/y`. Symbolic links are not resolved (the machine that reads a spec or a script is not
the cluster). A path jobc cannot place (relative, or starting with a variable other than the few
below) is unknown, and whoever asks stays silent about it.
"""

from __future__ import annotations

import posixpath

# Directories that exist separately on every node of a cluster: what one node writes there the
# others never see, and many sites wipe them when the job ends.
NODE_LOCAL_DIRS = (
    # POSIX's temporary directory; with Slurm's job_container/tmpfs each job even has its own
    "/tmp",
    # the temporary directory that survives a reboot, still on the node's own disk
    "/var/tmp",
    # the RAM-backed POSIX shared-memory file system (NCCL and DataLoader workers use it)
    "/dev/shm",
    # the usual mount point of a node's local disk (many university and national clusters)
    "/local",
    # node-local scratch at Compute Canada / the Digital Research Alliance and others
    "/localscratch",
    # node-local scratch at NIH's Biowulf (/lscratch/$SLURM_JOB_ID) and sites that copied it
    "/lscratch",
    # the local half of sites that mount shared scratch at /scratch and the node's disk below it
    "/scratch/local",
    # the same, spelt with an underscore where a site keeps it beside /scratch
    "/scratch_local",
    # the local NVMe RAID of NVIDIA DGX nodes
    "/raid",
    # the node-local NVMe of OLCF's Frontier and Summit (`#SBATCH -C nvme`, `/mnt/bb/$USER`)
    "/mnt/bb",
)
# Variables that name a node's (usually per-job) scratch directory: TMPDIR is POSIX's and what
# Slurm's job_container/tmpfs and many prolog scripts set, SLURM_TMPDIR the Alliance's per-job
# directory, LOCAL_SCRATCH the name several site guides export.
NODE_LOCAL_VARS = ("TMPDIR", "SLURM_TMPDIR", "LOCAL_SCRATCH")
_HOME_FORMS = ("~", "$HOME", "${HOME}")


class Place:
    """Where a path is. A plain class: a NamedTuple's class is built through `exec` at import,
    which cost a lint more than all its uses of this module."""

    __slots__ = ("kind", "reason")

    def __init__(self, kind: str, reason: str = "") -> None:
        self.kind = kind  # "local" | "shared" | "outside" | "unknown"
        self.reason = reason  # for local and outside: why, in words that name the path's prefix

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Place) and (self.kind, self.reason) == (other.kind, other.reason)

    def __hash__(self) -> int:
        return hash((self.kind, self.reason))

    def __repr__(self) -> str:
        return f"Place(kind={self.kind!r}, reason={self.reason!r})"


def normalise(path: str) -> str:
    """Absolute paths with `.`, `..` and repeated slashes folded; other text unchanged."""
    if not path.startswith("/"):
        return path
    if "//" not in path and "/." not in path and not path.endswith("/"):
        return path  # nothing to fold: most paths a spec writes
    out = posixpath.normpath(path)
    return "/" + out.lstrip("/")


def under(path: str, prefix: str) -> bool:
    """Whether absolute ``path`` is ``prefix`` or inside it, comparing whole components."""
    p, q = normalise(path), normalise(prefix)
    if not (p.startswith("/") and q.startswith("/")):
        return False
    # normalised, each is "/" or "/a/b" (no empty, "." or ".." part, no trailing slash), so a
    # prefix of whole components is the text itself or the text and a slash; comparing
    # PurePosixPath parts did the same, at two path objects a call (a tenth of a spec's rules)
    return q in ("/", p) or p.startswith(q + "/")


def node_local(path: str) -> str | None:
    """The node-local directory or variable ``path`` is in (`/tmp`, `$TMPDIR`), if any."""
    variable = _local_variable(path)
    if variable is not None:
        return f"${variable}"
    for local in NODE_LOCAL_DIRS:
        if under(path, local):
            return local
    return None


def _local_variable(path: str) -> str | None:
    if not path.startswith("$"):
        return None
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
    local = node_local(path)
    if local is not None:
        return Place("local", f"{local} is node-local")
    if shared:
        return Place("outside", f"it is not under storage.shared ({', '.join(shared)})")
    return Place("unknown")
