"""A console script that starts torchrun itself (`llamafactory-cli train CONFIG`): whether the
step runs torchrun, read from what the script gives it — the variables that force it or turn it
off, and the GPUs the one process sees — or not known when the script does not say."""

from __future__ import annotations

import os

from jobc.script.facts import Step, Word
from jobc.tables.launchers import CLI_TORCHRUN, ENABLED, CliLauncher


def cli_launcher(step: Step) -> tuple[CliLauncher, Word, Word] | None:
    """The entry of a console script run as it is with the command that starts torchrun, the
    program's word and the command's word; None for any other step."""
    if step.python != "none" or step.program is None or not step.program.literal or not step.args:
        return None
    command = step.args[0]
    if not command.literal:
        return None
    entry = CLI_TORCHRUN.get((os.path.basename(step.program.text), command.text))
    return None if entry is None else (entry, step.program, command)


def _enabled(step: Step, name: str) -> bool | None:
    """Whether the program sees ``name`` enabled: the step's own assignments (its command line, its
    own shell) over the batch shell's exports; None when its value is computed when the job runs."""
    value: str | None = None
    found = False
    for assign in step.env:
        if assign.name == name:
            found, value = True, assign.value
    if not found and step.exported is not None and name in step.exported:
        found, value = True, step.exported[name]
    if not found:
        return False
    return None if value is None else value.strip().lower() in ENABLED


def starts_torchrun(
    step: Step, entry: CliLauncher, gpus: int | None, tasks: int | None
) -> tuple[bool | None, str]:
    """(whether the command starts torchrun — None when the script does not say —, why). ``gpus``
    are the GPUs of each node, ``tasks`` the tasks srun starts on each (None: the batch shell runs
    it once, on a node whose GPUs it sees)."""
    off = {name: _enabled(step, name) for name in entry.off}
    if any(off.values()):
        return False, f"{next(n for n, v in off.items() if v)} is set: it trains without torchrun"
    force = {name: _enabled(step, name) for name in entry.force}
    if any(force.values()):
        return True, f"{next(n for n, v in force.items() if v)} is set"
    unknown = [name for name, v in (off | force).items() if v is None]
    if unknown:
        return None, f"{', '.join(unknown)} is computed when the job runs"
    if gpus is None:
        return None, "the GPUs it sees are not known"
    if tasks not in (None, 1):
        return None, f"{tasks} tasks on each node share its {gpus} GPUs"
    if gpus > 1:
        return True, f"it sees the {gpus} GPUs of its node"
    return False, f"it sees {gpus} GPU(s)"
