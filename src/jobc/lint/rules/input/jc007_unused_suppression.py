"""A `# jobc: ignore[...]` comment that suppresses nothing.

Suppressions outlive the problems they hid. One that no longer matches a finding is noise
that hides the next real problem on that line, so it is reported until removed. A
suppression applies to findings on its own line or, when the comment stands alone on a line,
on the next line.

Bad:

```yaml
resources:
  nodes: 2   # jobc: ignore[JC201]   (nothing wrong here any more)
  gpus_per_node: 8
```

Good:

```yaml
resources:
  nodes: 2
  gpus_per_node: 8
```
"""

from jobc.core.diagnostics import Applicability, Severity
from jobc.lint.rules.base import Meta, Repair

META = Meta(
    code="JC007",
    name="unused-suppression",
    severity=Severity.WARNING,
    summary="A suppression comment that suppresses nothing",
    remediation="Remove the comment, or the codes in it that no longer match a finding.",
)
FIX = Repair(
    Applicability.SAFE,
    "removes the codes that match nothing from the comment, and a comment left with none (its whole "
    "line when it stands alone)",
)
