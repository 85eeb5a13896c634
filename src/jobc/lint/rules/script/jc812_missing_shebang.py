"""A batch script whose first line is not a `#!` line: sbatch refuses it.

sbatch runs a batch script with the interpreter its first line names, and refuses a script whose
first line does not start with `#!` ("This does not look like a batch script. The first line
must start with #! followed by the path to an interpreter"). A script that starts with its
`#SBATCH` lines, a comment or a blank line is such a script. Add `#!/bin/bash` as the first line.

Bad:

```bash
#SBATCH --nodes=1
#SBATCH --time=01:00:00
srun python train.py
```

Good:

```bash
#!/bin/bash
#SBATCH --nodes=1
#SBATCH --time=01:00:00
srun python train.py
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, Edit, Fix, Hit, Severity, Span
from jobc.lint.rules.base import Meta, Repair
from jobc.lint.rules.script._facts import facts, hit
from jobc.spec.context import Context

META = Meta(
    code="JC812",
    name="missing-shebang",
    severity=Severity.ERROR,
    summary="The script's first line is not a #! line, so sbatch refuses it",
    remediation="Make #!/bin/bash the first line of the script.",
)

FIX = Repair(Applicability.SAFE, "adds #!/bin/bash as the first line", "scripts")

# this check speaks only of a script that has one of these (`ScriptFacts` members), here
# a first line that is not #!: lint neither imports nor runs the rule for a script without
FACTS = ("no_shebang",)


def check_script(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    if f is None:
        return
    first = f.lines[0].removeprefix("\ufeff") if f.lines else ""
    if first.startswith("#!"):
        return
    yield hit(
        Span(1, 1, 1, max(len(f.lines[0]) if f.lines else 0, 1) + 1),
        "the first line is not a #! line naming the interpreter, so sbatch refuses the script "
        '("This does not look like a batch script"); add #!/bin/bash as the first line',
        fix=Fix.make("add #!/bin/bash as the first line", Edit(Span(1, 1, 1, 1), "#!/bin/bash\n")),
    )
