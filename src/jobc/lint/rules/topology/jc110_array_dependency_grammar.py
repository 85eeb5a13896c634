"""`slurm.array` or `slurm.dependency` that sbatch would refuse, or a sweep that cannot become one.

sbatch parses these two values itself, and a value it cannot read stops the submission only
after the queue has been asked ("Invalid job array specification", "Job dependency problem").
An array is a comma-separated list of indexes `N`, ranges `N-M` and stepped ranges `N-M:S`,
optionally followed by `%P`, the number of tasks that may run at once. A dependency is a list
of `type:jobid[:jobid…]` items (`after`, `afterany`, `afterok`, `afternotok`, `aftercorr`,
`afterburstbuffer`; `after` takes `+minutes` per job id) or `singleton`, joined all by `,`
(every one must hold) or all by `?` (any one may), never both.

A `sweep:` becomes the job's array, so it cannot also have `slurm.array`; every name needs at
least one value; and `{sweep.NAME}` is known only in `launch.program` and `launch.args`, where
the batch shell of each array task puts the task's value in.

Bad:

```yaml
slurm:
  array: "0-15%"            # nothing after %
  dependency: "afterok 123"  # type and job id are joined by ':'
```

Good:

```yaml
slurm:
  array: "0-15%4"           # 16 tasks, 4 at a time; also "1,3,5" or "0-20:4"
  dependency: "afterok:123:124,singleton"
```
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.core.lazyre import lazy
from jobc.core.numbers import ascii_int, is_digits, shown
from jobc.lint.rules import _words as words
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC110",
    name="array-dependency-grammar",
    severity=Severity.ERROR,
    summary="slurm.array or slurm.dependency is not in sbatch's grammar, or a sweep cannot be an array",
    remediation=(
        'Write the array as indexes, ranges and steps with an optional throttle ("0-15%4", "1,3,5", '
        '"0-20:4") and the dependency as type:jobid items ("afterok:123:124", "singleton").'
    ),
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("slurm", "array"), ("slurm", "dependency"), ("sweep",))

# ASCII digits only: sbatch reads no other (`\d` would also match `٣`)
_INDEX = lazy(r"([0-9]+)(?:-([0-9]+)(?::([0-9]+))?)?")
_JOB = r"[0-9]+(?:_[0-9]+)?"
_TYPES = ("after", "afterany", "afterok", "afternotok", "aftercorr", "afterburstbuffer")


# A script's #SBATCH --array and --dependency meet the same grammar: the rule runs on scripts too.
SCRIPTS = True


def check(ctx: Context) -> Iterator[Hit]:
    slurm = ctx.spec.slurm
    for key, value, problem_of in (
        ("array", slurm.array, array_problem),
        ("dependency", slurm.dependency, dependency_problem),
    ):
        if isinstance(value, str) and (problem := problem_of(value)):
            where = words.name(ctx, ("slurm", key), f"slurm.{key} {value!r}")
            refused = "; sbatch refuses the job" if words.in_script(ctx) else ""
            yield Hit(("slurm", key), f"{where}: {problem}{refused}")
    yield from _sweep(ctx)


def _sweep(ctx: Context) -> Iterator[Hit]:
    from jobc.spec.interpolate import fields, references

    sweep = ctx.spec.sweep
    if sweep is None:
        return
    if ctx.spec.slurm.array is not None:
        yield Hit(
            ("slurm", "array"),
            "slurm.array is set as well as sweep, which becomes the job array itself; drop slurm.array",
        )
    for name, values in sweep.values.items():
        if not values:
            yield Hit(("sweep", "values", name), f"sweep.values.{name} has no values; give at least one")
    for path, text in fields(ctx.data):
        if path[:2] in (("launch", "program"), ("launch", "args")):
            continue
        for ref in references(text):
            if ref.startswith("sweep."):
                where = ".".join(str(p) for p in path)
                yield Hit(
                    path,
                    f"{where} uses {{{ref}}}, which only launch.program and launch.args know "
                    "(each array task sets it in the batch shell); pass it to the program as an argument",
                )


def array_problem(text: str) -> str | None:
    """What sbatch would object to in an --array value; None when it reads it."""
    indexes, percent, throttle = text.strip().partition("%")
    if percent and not is_digits(throttle):
        return "after '%' comes the number of tasks that may run at once, e.g. '0-15%4'"
    if percent and ascii_int(throttle) == 0:
        return "'%0' lets no task run; the throttle is at least 1"
    if not indexes:
        return "no indexes; write e.g. '0-15', '1,3,5' or '0-20:4'"
    for part in indexes.split(","):
        m = _INDEX.fullmatch(part.strip())
        if m is None:
            return f"{shown(part.strip())!r} is not an index, a range N-M or a stepped range N-M:S"
        numbers = [ascii_int(g) for g in m.groups() if g is not None]
        if None in numbers:
            return f"{shown(part.strip())!r} holds a number larger than any array index"
        low, high, step = m.group(1), m.group(2), m.group(3)
        if high is not None and int(high) < int(low):
            return f"the range {part.strip()!r} runs backwards; write {high}-{low}"
        if step is not None and int(step) == 0:
            return f"the step of {part.strip()!r} is 0; a step is at least 1"
    return None


def dependency_problem(text: str) -> str | None:
    """What sbatch would object to in a --dependency value; None when it reads it."""
    text = text.strip()
    if not text:
        return "empty; leave it out instead"
    if "," in text and "?" in text:
        return "mixes ',' (all must hold) and '?' (any may); sbatch takes one or the other"
    for raw in re.split(r"[,?]", text):
        item = raw.strip()
        if item == "singleton":
            continue
        kind, colon, ids = item.partition(":")
        if kind not in _TYPES:
            known = ", ".join((*_TYPES, "singleton"))
            return f"{item!r} is not a dependency ({known}, as type:jobid)"
        if not colon or not ids:
            return f"{item!r} names no job id; write {kind}:JOBID"
        for job in ids.split(":"):
            pattern = rf"{_JOB}(?:\+[0-9]+)?" if kind == "after" else _JOB
            if not re.fullmatch(pattern, job):
                return f"{job!r} in {item!r} is not a job id (digits, 123_4 for an array task)"
    return None
