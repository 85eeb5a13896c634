"""`#SBATCH` directives, in a fixed order, and the checks on what may become one."""

from __future__ import annotations

from collections.abc import Iterator

from jobc.compile.errors import CompileError
from jobc.core.diagnostics import DataPath, Hit
from jobc.core.lazyre import lazy
from jobc.tables.slurm_options import CLI_ONLY, SBATCH_OPTIONS, SPEC_FIELD, is_pyxis

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

    from jobc.spec.context import Context

_OPTION_NAME = lazy(r"[a-z][a-z0-9-]*\Z")


# C0 controls (line breaks among them), DEL and the C1 controls
_CONTROL = lazy("[\x00-\x1f\x7f-\x9f]")


def _value_problem(value: str) -> str | None:
    if _CONTROL.search(value) is not None:
        return "a line break or control character cannot be written into an #SBATCH line"
    return None


# How sbatch reads an #SBATCH line's argument: a backslash takes the next character literally
# (inside quotes too), ' and " group words and are removed, an unquoted # starts a comment, an
# unmatched quote stops sbatch, and whitespace ends the argument even after a backslash.
_SBATCH_SPECIAL = frozenset("'\"#\\")


def directive_text(value: str) -> str:
    """An option value written so that sbatch reads back exactly ``value``."""
    problem = _value_problem(value)
    if problem:
        raise CompileError(problem)
    if not any(c in _SBATCH_SPECIAL or c.isspace() for c in value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _extra_name_problem(name: str) -> str | None:
    if is_pyxis(name):
        return (
            f"slurm.extra: --{name} is a pyxis flag of srun, not an sbatch option; use the container section"
        )
    if not _OPTION_NAME.match(name) or name not in SBATCH_OPTIONS:
        import difflib  # only for a name that is wrong; lint checks slurm.extra on every run

        close = difflib.get_close_matches(name, sorted(SBATCH_OPTIONS), n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        return f"slurm.extra: {name!r} is not an sbatch option (write long names without '--'){hint}"
    if name in SPEC_FIELD:
        return f"slurm.extra: --{name} is set by jobc from {SPEC_FIELD[name]}; write it there"
    if name in CLI_ONLY:
        return f"slurm.extra: --{name} is a command-line option of sbatch, not one for a script"
    return None


def problems(ctx: Context) -> Iterator[Hit]:
    """What the schema cannot say about values that become #SBATCH lines (reported as JC003)."""
    slurm = ctx.spec.slurm
    for name, value in slurm.extra.items():
        # pyxis flags are rule JC501's finding; reporting them here too would say it twice
        problem = None if is_pyxis(name) else _extra_name_problem(name)
        if problem:
            yield Hit(("slurm", "extra", name), problem, at_value=False)
        elif isinstance(value, str) and (text_problem := _value_problem(value)):
            yield Hit(("slurm", "extra", name), f"slurm.extra.{name}: {text_problem}")
    for key in ("partition", "account", "qos", "constraint", "reservation", "array", "dependency"):
        value = getattr(slurm, key)
        if isinstance(value, str) and (text_problem := _value_problem(value)):
            yield Hit(("slurm", key), f"slurm.{key}: {text_problem}")
    if isinstance(slurm.time, str) and (text_problem := _value_problem(slurm.time)):
        yield Hit(("slurm", "time"), f"slurm.time: {text_problem}")
    if slurm.mail.user is not None and (text_problem := _value_problem(slurm.mail.user)):
        yield Hit(("slurm", "mail", "user"), f"slurm.mail.user: {text_problem}")
    for i, kind in enumerate(slurm.mail.type):
        if (text_problem := _value_problem(kind)) or "," in kind:
            message = text_problem or "one event per item"
            yield Hit(("slurm", "mail", "type", i), f"slurm.mail.type: {message}")
    for key in ("mem", "mem_per_gpu"):
        value = getattr(ctx.spec.resources, key)
        if isinstance(value, str) and (text_problem := _value_problem(value)):
            yield Hit(("resources", key), f"resources.{key}: {text_problem}")
    # interpolated values are checked as the compiler renders them; a reference that does not
    # render is JC008's finding
    from jobc.spec.interpolate import InterpolationError, interpolation_values, render

    values = interpolation_values(ctx)

    def rendered(text: str) -> str | None:
        try:
            return render(text, values)
        except InterpolationError:
            return None

    logs = ctx.spec.storage.logs
    if logs is not None and (text := rendered(logs)) is not None and (text_problem := _value_problem(text)):
        yield Hit(("storage", "logs"), f"storage.logs: {text_problem}")
    if "\0" in "".join([text for _, text in ctx.strings]):
        yield from _nul_bytes(ctx.data)
    container = ctx.spec.container
    if container is not None:
        for i, mount in enumerate(container.mounts):
            if "," in (rendered(mount) or ""):
                yield Hit(
                    ("container", "mounts", i),
                    "container.mounts: a mount cannot contain ',' (pyxis separates mounts with commas)",
                )


# Checked where they are read: the #SBATCH values above (a control character), setup lines (JC509)
# and a profile's facts (never written into the script).
_NUL_CHECKED = frozenset({("slurm",), ("resources",), ("cluster",), ("launch", "setup"), ("storage", "logs")})


def _nul_bytes(data: dict[str, Any]) -> Iterator[Hit]:
    """Every other string holding a NUL: no argument, path or environment value can hold one
    (bash drops it while reading the script), so the job would run something else."""
    stack: list[tuple[DataPath, Any]] = [((), data)]
    while stack:
        where, value = stack.pop()
        if where[:1] in _NUL_CHECKED or where[:2] in _NUL_CHECKED:
            continue
        if isinstance(value, dict):
            stack.extend(((*where, k), v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend(((*where, i), v) for i, v in reversed(list(enumerate(value))))
        elif isinstance(value, str) and "\0" in value:
            name = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in where).lstrip(".")
            yield Hit(
                where,
                f"{name}: a NUL byte cannot be written into the script (bash drops it, and no "
                "argument, path or environment value can hold one); remove it",
            )


def signal_name(signal: str) -> str:
    return signal.removeprefix("SIG")


def directives(ctx: Context, logs: str | None) -> list[str]:
    """The #SBATCH lines, always in this order."""
    spec = ctx.spec
    slurm, res = spec.slurm, spec.resources
    lines: list[tuple[str, str | None]] = [("job-name", spec.name)]
    for key in ("partition", "account", "qos"):
        value = getattr(slurm, key)
        if value is not None:
            lines.append((key, str(value)))
    if slurm.time is not None:
        lines.append(("time", str(slurm.time)))
    lines.append(("nodes", str(ctx.nodes)))
    lines.append(("ntasks-per-node", str(ctx.tasks_per_node)))
    if ctx.gpus_per_node:
        lines.append(("gpus-per-node", str(ctx.gpus_per_node)))
    if res.cpus_per_task is not None:
        lines.append(("cpus-per-task", str(res.cpus_per_task)))
    if res.mem is not None:
        lines.append(("mem", str(res.mem)))
    if res.mem_per_gpu is not None:
        lines.append(("mem-per-gpu", str(res.mem_per_gpu)))
    if slurm.exclusive:
        lines.append(("exclusive", None))
    for key in ("constraint", "reservation"):
        value = getattr(slurm, key)
        if value is not None:
            lines.append((key, str(value)))
    if slurm.mail.user is not None:
        lines.append(("mail-user", slurm.mail.user))
    if slurm.mail.type:
        lines.append(("mail-type", ",".join(slurm.mail.type)))
    sweep = ctx.spec.sweep
    if slurm.array is not None:
        lines.append(("array", slurm.array))
    elif sweep is not None and sweep.values:
        from jobc.compile.sweep import array_value

        lines.append(("array", array_value(sweep)))
    if slurm.dependency is not None:
        lines.append(("dependency", slurm.dependency))
    if logs is not None:
        # %x job name, %j job id (%A_%a for an array element): one file per job, kept on requeue.
        is_array = slurm.array is not None or (sweep is not None and bool(sweep.values))
        pattern = "%x-%A_%a.out" if is_array else "%x-%j.out"
        lines.append(("output", f"{logs.rstrip('/')}/{pattern}"))
    lines.append(("open-mode", "append"))
    res_ = spec.resilience
    if res_.signal is not None:
        lines.append(("signal", f"B:{signal_name(res_.signal)}@{res_.grace_s}"))
    lines.append(("requeue" if res_.requeue else "no-requeue", None))
    for name in sorted(slurm.extra):
        value = slurm.extra[name]
        if value is None or value is False:
            continue
        problem = _extra_name_problem(name)
        if problem:
            raise CompileError(problem)
        lines.append((name, None if value is True else str(value)))
    return [
        f"#SBATCH --{name}" if value is None else f"#SBATCH --{name}={directive_text(value)}"
        for name, value in lines
    ]
