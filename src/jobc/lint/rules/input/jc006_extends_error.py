"""`extends:` names a profile that cannot be used: the file is missing, it is not a cluster
profile, or profiles extend each other in a cycle.

Paths are relative to the file that says `extends:`. A profile is a file with
`profile: <name>` instead of `name:`; it may itself extend another profile.

Bad:

```yaml
extends: clusters/h100.yaml   # no such file
```

Good:

```yaml
extends: clusters/h100-ib.yaml
```
"""

from jobc.core.diagnostics import Severity
from jobc.lint.rules.base import Meta

META = Meta(
    code="JC006",
    name="extends-error",
    severity=Severity.ERROR,
    summary="A cluster profile named by `extends:` cannot be used",
    remediation="Point `extends:` at an existing profile file (relative to this file) and break any cycle.",
)
