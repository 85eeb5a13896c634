"""A shell variable, command substitution or `~` in a value that becomes an `#SBATCH` line.

`#SBATCH` lines are comments to bash: sbatch reads them itself, before any shell runs, and does
not expand `$USER`, `${SLURM_JOB_ID}`, `$(whoami)` or `~`. `--output=$HOME/logs/x.out` makes Slurm
open a path that literally starts with `$HOME` (and, since Slurm does not create directories,
the job runs with its log lost); `--account=$USER` charges an account named `$USER`, which sbatch
refuses. Values checked: the job name, every `slurm.*` option (including `mail` and `extra`) and
`storage.logs` (it becomes `--output`/`--error`).

File-name options have Slurm's own placeholders: `%u` user, `%j` job id, `%x` job name, `%N`
first node, `%A`/`%a` array job and task. For everything else, write the value itself.

Bad:

```yaml
slurm: {account: "$USER", extra: {chdir: "~/runs"}}
storage: {logs: "/scratch/$USER/logs"}
```

Good:

```yaml
slurm: {account: proj-123, extra: {chdir: /home/alice/runs}}
storage: {logs: /scratch/alice/logs}     # or /scratch/%u/logs
```

In a script, a log file named after the user (fixed as `%u`):

Bad in a script:

```bash
#!/bin/bash
#SBATCH --output=/scratch/$USER/logs/%x-%j.out
srun python train.py
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, DataPath, Edit, Fix, Hit, Severity
from jobc.core.lazyre import lazy
from jobc.lint.rules import _words as words
from jobc.lint.rules.base import Meta, Repair
from jobc.spec.context import Context
from jobc.tables.secrets import mask

META = Meta(
    code="JC107",
    name="shell-var-in-directive",
    severity=Severity.ERROR,
    summary="`$VAR`, `$(…)` or `~` in a value that becomes an #SBATCH line (never expanded there)",
    remediation=(
        "Write the value itself; in file names use Slurm's placeholders %u (user), %j (job id), "
        "%x (job name), %N (node)."
    ),
)
FIX = Repair(
    Applicability.SAFE,
    "writes `$USER`, `$SLURM_JOB_ID`, `$SLURM_JOB_NAME`, … in a log or input file name as the pattern "
    "Slurm fills in with the same value (`%u`, `%j`, `%x`, …); other values are the user's to write",
    "scripts, and a spec's slurm.extra output, error and input",
)
# A batch script can have this pitfall in the same form: the rule runs on scripts too.
SCRIPTS = True

_SLURM_FIELDS = ("partition", "account", "qos", "time", "constraint", "reservation", "array", "dependency")
# sbatch options whose values are file names and so take %-placeholders
_FILE_OPTIONS = frozenset({"output", "error", "input"})
_SHELL = lazy(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)[^}]*\}|([A-Za-z_][A-Za-z0-9_]*)|\(|\{)|`")
_TILDE = lazy(r"(?:^|[=:,])~(?=[A-Za-z0-9_./-]|$)")
_PLACEHOLDER = {
    "USER": "%u",
    "LOGNAME": "%u",
    "SLURM_JOB_ID": "%j",
    "SLURM_JOBID": "%j",
    "SLURM_JOB_NAME": "%x",
    "SLURMD_NODENAME": "%N",
    "HOSTNAME": "%N",
    "SLURM_ARRAY_JOB_ID": "%A",
    "SLURM_ARRAY_TASK_ID": "%a",
}


def check(ctx: Context) -> Iterator[Hit]:
    for path, text, is_file in _directive_values(ctx):
        problem = _problem(text, is_file)
        if problem:
            name = ".".join(str(p) for p in path)
            # not storage.logs: the compiled script also uses it where the shell, not Slurm, reads it
            new = substitute(text) if is_file and path[:2] == ("slurm", "extra") else None
            # JSON's string is YAML's double-quoted one: the value stays a string whatever it holds
            # (json is imported here, for a fix, so that a clean lint does not import it)
            import json

            fix = Fix.make("use Slurm's filename patterns", Edit(path, json.dumps(new))) if new else None
            if words.in_script(ctx):
                message = f"{words.name(ctx, path)} is read by sbatch itself, {problem}"
            else:
                message = f"{name} {mask(text)!r} becomes an #SBATCH line, {problem}"
            yield Hit(path, message, fix=fix)


def check_script(ctx: Context) -> Iterator[Hit]:
    """The spec's values as `check` reads them, and every other `#SBATCH` option with a shell
    word in it: a count (`--nodes=$NUM_NODES`) never reaches the spec, which holds numbers only,
    and sbatch reads it as the text it is."""
    # the script's facts, imported here: a spec lint runs `check` alone
    from jobc.lint.rules.script._facts import derived, facts, hit

    f, d = facts(ctx), derived(ctx)
    seen: set[int] = set()
    for each in check(ctx):
        span = d.spans.get(each.path) if d is not None else None
        if span is not None:
            seen.add(span.line)
        yield each
    if f is None:
        return
    for directive in f.directives:
        if not directive.honoured or directive.value is None or directive.span.line in seen:
            continue
        problem = _problem(directive.value, directive.name in _FILE_OPTIONS)
        if problem:
            seen.add(directive.span.line)
            yield hit(directive.span, f"--{directive.name} is read by sbatch itself, {problem}")


def _directive_values(ctx: Context) -> Iterator[tuple[DataPath, str, bool]]:
    spec = ctx.spec
    yield ("name",), spec.name, False
    for field in _SLURM_FIELDS:
        value = getattr(spec.slurm, field)
        if isinstance(value, str):
            yield ("slurm", field), value, False
    mail = spec.slurm.mail
    if mail.user is not None:
        yield ("slurm", "mail", "user"), mail.user, False
    for i, kind in enumerate(mail.type):
        yield ("slurm", "mail", "type", i), kind, False
    for key, value in spec.slurm.extra.items():
        if isinstance(value, str):
            yield ("slurm", "extra", key), value, key in _FILE_OPTIONS
    if spec.storage.logs is not None:
        yield ("storage", "logs"), spec.storage.logs, True


def substitute(text: str) -> str | None:
    """A file option's value with each `$VAR` or `${VAR}` written as the filename pattern Slurm
    fills in with the same value (`$USER` → `%u`); None when one has no such pattern."""
    if _TILDE.search(text):
        return None
    out, last = [], 0
    for match in _SHELL.finditer(text):
        var = match.group(1) or match.group(2)
        if var is None or match.group(0) not in (f"${var}", f"${{{var}}}") or var not in _PLACEHOLDER:
            return None
        out += [text[last : match.start()], _PLACEHOLDER[var]]
        last = match.end()
    return "".join([*out, text[last:]]) if out else None


def _problem(text: str, is_file: bool) -> str | None:
    """What is wrong with ``text`` in an #SBATCH line, with the fix; None when nothing is."""
    if "$" not in text and "`" not in text and "~" not in text:
        return None  # nothing a shell would expand: most values
    match = _SHELL.search(text)
    if match:
        var = match.group(1) or match.group(2)
        shown = match.group(0) if var is None else f"${var}"
        placeholder = _PLACEHOLDER.get(var or "")
        if is_file and placeholder:
            fix = f"use Slurm's {placeholder} instead"
        elif is_file:
            fix = "write the value itself, or use Slurm's %u, %j, %x or %N"
        else:
            fix = "write the value itself"
        return f"where sbatch never expands {shown}; {fix}"
    if _TILDE.search(text):
        return "where sbatch never expands ~; write the absolute path"
    return None
