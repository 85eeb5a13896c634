"""The spec does not match the spec format: a wrong type, a value out of range or not one of
the allowed choices, a missing required field, or an unknown key.

Unknown keys are errors, with a "did you mean" hint, because a misspelt key is otherwise
silently ignored and its default used. The same JSON Schema (`jobc schema`) drives editor
completion and hover through the yaml-language-server modeline.

Bad:

```yaml
resources:
  node: 4          # unknown key: did you mean 'nodes'?
  gpus_per_node: "8"   # a string, not a number
```

Good:

```yaml
resources:
  nodes: 4
  gpus_per_node: 8
```
"""

from jobc.core.diagnostics import Applicability, Severity
from jobc.lint.rules.base import Meta, Repair

META = Meta(
    code="JC003",
    name="schema",
    severity=Severity.ERROR,
    summary="The spec does not match the spec format",
    remediation="Use the field names and value types of `jobc schema`; the message names the fix.",
)
FIX = Repair(
    Applicability.UNSAFE,
    "renames a misspelt key to the known key it is closest to, and writes true or false for a "
    "yes/no where a boolean belongs; a quoted number where a number belongs loses its quotes (safe)",
    "specs",
)
