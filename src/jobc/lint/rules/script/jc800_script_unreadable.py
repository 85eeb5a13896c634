"""A batch script jobc cannot read, in whole or in part.

jobc reads bash (and POSIX sh) scripts with a real bash parser. A binary file, a script for
another shell (csh, zsh, fish) or another language (a Python file with `#SBATCH` lines), or bash
that does not parse (an unterminated quote, a missing `fi`) is reported here with the place
where reading stopped; the findings of the parts that were read are still given.

Bad:

```bash
#!/bin/bash
#SBATCH --nodes=2
echo "starting
srun python train.py
```

Good:

```bash
#!/bin/bash
#SBATCH --nodes=2
echo "starting"
srun python train.py
```
"""

from jobc.core.diagnostics import Severity
from jobc.lint.rules.base import Meta

META = Meta(
    code="JC800",
    name="script-unreadable",
    severity=Severity.WARNING,
    summary="The script cannot be read as bash, in whole or in part",
    remediation="Fix the syntax at the place shown, or write the job as a bash script (or a spec).",
)
