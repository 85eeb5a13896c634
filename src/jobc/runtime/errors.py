"""Exceptions raised by the runtime.

Every message names the variables and values involved, so a log line alone is
enough to see what disagreed; none of these is ever raised after the first
collective, which is what keeps a misconfigured job from hanging.
"""

from __future__ import annotations


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
