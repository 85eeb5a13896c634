"""How a finding names a value and the change to make, in the language of the file it is in.

A rule that runs on specs and scripts alike reasons about one spec-shaped Context, but the user
reads a spec (`slurm.exclusive`, `env MASTER_PORT`) or a script (`#SBATCH --exclusive`,
`export MASTER_PORT=6000`). These helpers give either, so one rule writes one message.
"""

from __future__ import annotations

from jobc.core.diagnostics import DataPath
from jobc.core.numbers import shown
from jobc.lint.rules.script._facts import derived
from jobc.spec.context import Context
from jobc.tables.secrets import mask
from jobc.tables.slurm_options import SPEC_PATH

_OPTION = {path: option for option, path in SPEC_PATH.items()}


def in_script(ctx: Context) -> bool:
    return derived(ctx) is not None


def dotted(path: DataPath) -> str:
    """`slurm.time`, `launch.args[2]`, `env MASTER_PORT`: a data path as a spec's reader says it."""
    if path[:1] == ("env",) and len(path) == 2:
        return f"env {path[1]}"
    if path[:2] == ("fabric", "env") and len(path) == 3:
        return f"fabric.env {path[2]}"
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def option(path: DataPath) -> str | None:
    """The sbatch option a spec field is written as (`slurm.exclusive` → `--exclusive`)."""
    name = _OPTION.get(tuple(str(p) for p in path))
    return f"--{name}" if name is not None else None


def name(ctx: Context, path: DataPath, spec: str | None = None) -> str:
    """What the file calls the value at `path`: in a spec `spec` (or the dotted path); in a
    script the words that set it (`#SBATCH --time=2:00:00`, `export MASTER_PORT=6000`), or
    the line it is on, or the directive that would set it."""
    d = derived(ctx)
    if d is None:
        return spec if spec is not None else dotted(path)
    label = d.labels.get(path)
    if label is not None:
        return shown(mask(label), keep=40)
    span = d.spans.get(path)
    if span is not None:
        return f"line {span.line}"
    flag = option(path)
    if flag is not None:
        return f"#SBATCH {flag}"
    if path[:1] == ("env",) and len(path) == 2:
        return f"{path[1]}"
    return spec if spec is not None else dotted(path)


def setting(ctx: Context, path: DataPath, value: str, spec: str | None = None) -> str:
    """How to write `value` at `path`: `slurm.exclusive: true` in a spec, `#SBATCH --exclusive`
    in a script (`value` is the option's value; "" for a flag)."""
    if derived(ctx) is None:
        return spec if spec is not None else f"{dotted(path)}: {value}"
    flag = option(path)
    if flag is not None:
        return f"#SBATCH {flag}" + (f"={value}" if value else "")
    if path[:1] == ("env",) and len(path) == 2:
        return f"export {path[1]}={value}"
    return spec if spec is not None else f"{dotted(path)}: {value}"
