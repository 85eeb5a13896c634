"""Exceptions raised by the runtime.

Every message names the variables and values involved, so a log line alone is
enough to see what disagreed; none of these is ever raised after the first
collective, which is what keeps a misconfigured job from hanging.
"""

from __future__ import annotations

import sys


class RuntimeSetupError(RuntimeError):
    """Base class: the job cannot start as configured."""


class ContractError(RuntimeSetupError):
    """A ``JOBC_*`` variable is malformed."""


class LaunchError(RuntimeSetupError):
    """The launcher's variables are missing, malformed or contradict each other."""


class WorldMismatchError(RuntimeSetupError):
    """The live world differs from the one the spec describes."""


class RendezvousError(RuntimeSetupError):
    """The ranks could not all meet at MASTER_ADDR:MASTER_PORT in time."""


class DeviceError(RuntimeSetupError):
    """This rank's accelerator cannot be chosen."""


class HostlistError(ValueError):
    """A Slurm hostlist or task-count list does not follow the grammar."""


class TorchMissingError(ModuleNotFoundError):
    """torch is not installed, and ``init`` (and everything that talks to other ranks) needs it.

    A ModuleNotFoundError still, named "torch", so code that already handles a missing torch
    keeps working; the message says how to install it.
    """


def require_torch(error: ModuleNotFoundError) -> None:
    """Raise TorchMissingError when ``error`` is torch itself missing; return otherwise."""
    if (error.name or "").partition(".")[0] != "torch":
        return
    raise TorchMissingError(
        "No module named 'torch': jobc.runtime's init() needs torch, which is not installed "
        f"for {sys.executable}. Install jobc with its runtime extra, jobc[runtime] "
        f"(pip install 'jobc[runtime] @ git+{_repository()}'), or install torch itself "
        "(pip install torch).",
        name="torch",
    ) from error


def _repository() -> str:
    """The repository jobc is installed from, as its package metadata names it."""
    from importlib import metadata

    try:
        urls = metadata.metadata("jobc").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        urls = []
    for entry in map(str, urls):
        label, _, url = entry.partition(",")
        if label.strip() == "Repository":
            return url.strip()
    return "<the jobc repository URL>"
