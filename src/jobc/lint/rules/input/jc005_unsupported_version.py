"""The spec names a format version this jobc does not know.

Only `version: 1` exists. A spec written for a later format may use fields whose meaning
this jobc would get wrong, so it is refused rather than half-understood.

Bad:

```yaml
version: 2
```

Good:

```yaml
version: 1
```
"""

from jobc.core.diagnostics import Severity
from jobc.lint.rules.base import Meta

META = Meta(
    code="JC005",
    name="unsupported-version",
    severity=Severity.ERROR,
    summary="The spec's format version is not supported",
    remediation="Write `version: 1`, or upgrade jobc if the spec needs a newer format.",
)
