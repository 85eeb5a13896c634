"""An `#SBATCH` line after the first command of the script.

sbatch reads `#SBATCH` directives only from the top of the script, up to the first line that is
not blank and not a comment. Everything after that is an ordinary comment: sbatch ignores it
without a warning, so the job runs with the default instead (one node, the partition's time
limit, no GPUs).

Bad:

```bash
#!/bin/bash
#SBATCH --nodes=2
module load cuda
#SBATCH --gpus-per-node=8
srun python train.py
```

Good:

```bash
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --gpus-per-node=8
module load cuda
srun python train.py
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity, Span
from jobc.lint.rules.base import Meta
from jobc.lint.rules.script._facts import at, facts
from jobc.spec.context import Context

META = Meta(
    code="JC801",
    name="directive-after-command",
    severity=Severity.ERROR,
    summary="An #SBATCH line after the first command (sbatch ignores it)",
    remediation="Move every #SBATCH line above the first command of the script.",
)


def check(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    if f is None or f.first_command is None:
        return
    first = f.first_command.line
    by_line: dict[int, list[str]] = {}
    for d in f.directives:
        if not d.honoured:
            by_line.setdefault(d.span.line, []).append(d.text)
    for line, options in by_line.items():
        text = f.lines[line - 1] if line <= len(f.lines) else ""
        yield Hit(
            at(Span(line, 1, line, len(text) + 1)),
            f"#SBATCH {' '.join(options)} comes after the first command (line {first}), so sbatch "
            f"ignores it and the job runs without it; move it above line {first}",
        )
