"""An unquoted value that YAML 1.1 tools read differently from YAML 1.2.

jobc reads YAML 1.2, but many tools around a spec (PyYAML, older editors, CI templating) read
YAML 1.1, where `12:00:00` is the number 43200, `no` and `off` are false, `010` is 8 and
`2024-01-01` is a date. A value that means different things to different readers is a bug
waiting for the next tool; quoting it settles it.

Bad:

```yaml
slurm:
  time: 12:00:00
  exclusive: yes
```

Good:

```yaml
slurm:
  time: "12:00:00"
  exclusive: true
```
"""

from jobc.core.diagnostics import Severity
from jobc.lint.rules.base import Meta

META = Meta(
    code="JC004",
    name="ambiguous-scalar",
    severity=Severity.WARNING,
    summary="An unquoted value that YAML 1.1 tools read differently",
    remediation="Quote the value, or write true/false for booleans.",
)
