"""An unquoted `#` inside an `#SBATCH` word: sbatch ends the line there.

sbatch's reader takes an unquoted `#` as the start of a comment wherever it stands, even inside a
word: `#SBATCH --job-name=run#3` names the job `run`,
`#SBATCH --container-image=nvcr.io#nvidia/pytorch:24.05-py3` asks for the image `nvcr.io`, and
`#SBATCH --time=01:00:00#SBATCH --nodes=2` never asks for two nodes. No error is printed: the job
runs with what came before the `#`. Quote the value when the `#` belongs to it
(`--job-name="run#3"`), or put a blank before the `#` when it starts a comment. jobc cannot tell
which was meant, so there is no automatic fix, and `jobc import` leaves the value out.

Bad:

```bash
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --job-name=run#3
srun python train.py
```

Good:

```bash
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --job-name="run#3"
srun python train.py
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity, Span
from jobc.core.numbers import shown
from jobc.lint.rules.base import Meta
from jobc.lint.rules.script._facts import facts, hit
from jobc.spec.context import Context
from jobc.tables.secrets import mask

META = Meta(
    code="JC816",
    name="directive-cut-at-hash",
    severity=Severity.WARNING,
    summary="An unquoted `#` inside an #SBATCH word, where sbatch ends the line",
    remediation=(
        "Quote the value when the `#` belongs to it, or put a blank before the `#` when it starts a comment."
    ),
)

# this check speaks only of a script that has one of these (`ScriptFacts` members), here
# a directive cut at an unquoted #: lint neither imports nor runs the rule for a script without
FACTS = ("cut",)


def check_script(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    if f is None:
        return
    for d in f.directives:
        if not (d.honoured and d.cut):
            continue
        line = f.lines[d.span.line - 1]
        # the directive's span ends at the `#` (columns count characters, 1-based)
        rest = shown(mask(line[d.span.end_col - 1 :]), keep=40)
        yield hit(
            Span(d.span.line, d.span.end_col, d.span.line, d.span.end_col + 1),
            f"sbatch ends the line at this unquoted '#', even inside a word: it reads "
            f"#SBATCH {shown(mask(d.text), keep=40)} and ignores {rest}; quote the value "
            "if the '#' belongs to it, or put a blank before the '#' if it starts a comment",
        )
