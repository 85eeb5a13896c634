"""The command line's verbs: parsed arguments in, an exit code and printed output out.

One module per command: `register(sub, name)` adds its parser under the name `COMMANDS` gives
it, `args.run(args)` runs it. A command only wires the stages together (read and lint, compile,
plan, report) and turns their results and errors into text, the exit codes below and one-line
usage messages.

This module is imported on every run, before the one command that runs: it holds names only.
"""

from __future__ import annotations

from enum import IntEnum

#: Every command, in the order `jobc --help` lists them: its name on the command line and the
#: module under `jobc.commands` that implements it. A run imports only the module it needs.
COMMANDS: dict[str, str] = {
    "init": "init_",
    "lint": "lint",
    "import": "import_",
    "compile": "compile_",
    "plan": "plan",
    "submit": "submit",
    "status": "status",
    "logs": "logs",
    "cancel": "cancel",
    "triage": "triage",
    "heal": "heal",
    "profile": "profile",
    "rule": "rules",
    "rules": "rules",
    "schema": "schema",
}


class Exit(IntEnum):
    """What `jobc` exits with; every command returns one of these."""

    #: Done: no finding at or above the failing severity, the output was written.
    OK = 0
    #: Lint found errors (or warnings, with `--strict`); compile and submit refuse such a spec.
    FINDINGS = 1
    #: A usage or configuration problem, an environment jobc cannot work in (no Slurm, an
    #: unreadable ledger), or an internal error; one line on stderr says which.
    ERROR = 2
    #: Interrupted (Ctrl-C): 128 + SIGINT, as a shell reports it.
    INTERRUPTED = 130
