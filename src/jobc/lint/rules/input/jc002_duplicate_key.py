"""A key appears twice in the same mapping.

YAML parsers disagree on what a duplicate key means: most silently keep the last value, so
the first one is lost without a word. jobc refuses the file and points at the duplicate,
naming where the first one is.

Bad:

```yaml
resources:
  nodes: 2
  gpus_per_node: 8
  nodes: 4
```

Good:

```yaml
resources:
  nodes: 4
  gpus_per_node: 8
```
"""

from jobc.core.diagnostics import Severity
from jobc.lint.rules.base import Meta

META = Meta(
    code="JC002",
    name="duplicate-key",
    severity=Severity.ERROR,
    summary="A key is defined twice in one mapping",
    remediation="Keep one of the two keys; the message says where the first one is.",
)
