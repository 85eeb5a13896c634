"""A sweep: named lists of values whose product becomes a job array, one combination per task.

Task i gets the i-th combination of the product, the last name varying fastest (as
`itertools.product` lists them), so `jobc plan` and the script agree on which task runs what.
`{sweep.NAME}` in `launch.program` and `launch.args` is compiled to a marker that the batch shell
replaces with the task's value, word by word, after picking the combination from
SLURM_ARRAY_TASK_ID; the values are quoted words of bash arrays like every other spec value.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING

from jobc.compile.shell import array, scalar, sq
from jobc.spec.interpolate import sweep_marker as marker

if TYPE_CHECKING:
    from jobc.spec.plain import JobSpec, Sweep


def size(sweep: Sweep) -> int:
    count = 1
    for values in sweep.values.values():
        count *= len(values)
    return count


def combinations(sweep: Sweep) -> list[dict[str, object]]:
    names = list(sweep.values)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*sweep.values.values())]


def array_value(sweep: Sweep) -> str:
    """The --array value: every combination, throttled by max_parallel."""
    text = f"0-{size(sweep) - 1}"
    if sweep.max_parallel is not None:
        text += f"%{sweep.max_parallel}"
    return text


def lines(spec: JobSpec) -> Iterator[str]:
    """Batch-shell lines that pick this task's combination and put it into jobc_program."""
    sweep = spec.sweep
    if sweep is None or not sweep.values:
        return
    names = list(sweep.values)
    yield f"# sweep: task i runs combination i of {' x '.join(names)} ({size(sweep)} in all)."
    for index, name in enumerate(names):
        yield array(f"jobc_sweep_{index}", (scalar(v) for v in sweep.values[name]))
    yield 'jobc_sweep_task=${SLURM_ARRAY_TASK_ID:?"a sweep runs as a job array; submit it with sbatch"}'
    yield "jobc_sweep_rest=$jobc_sweep_task"
    for index in reversed(range(len(names))):
        count = len(sweep.values[names[index]])
        yield f"jobc_sweep_value_{index}=${{jobc_sweep_{index}[jobc_sweep_rest % {count}]}}"
        yield f"jobc_sweep_rest=$((jobc_sweep_rest / {count}))"
    shown = " ".join(f"{name}=%s" for name in names)
    values = " ".join(f'"$jobc_sweep_value_{i}"' for i in range(len(names)))
    yield f"printf 'jobc: sweep task %s: {shown}\\n' \"$jobc_sweep_task\" {values}"
    yield 'for jobc_i in "${!jobc_program[@]}"; do'
    yield "  jobc_word=${jobc_program[jobc_i]}"
    for index, name in enumerate(names):
        yield f'  jobc_word=${{jobc_word//{sq(marker(name))}/"$jobc_sweep_value_{index}"}}'
    yield "  jobc_program[jobc_i]=$jobc_word"
    yield "done"
