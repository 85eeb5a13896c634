"""The file is not valid YAML, or not a YAML file at all.

jobc reads specs as YAML 1.2 and reports the parser's own position. Binary files, invalid UTF-8,
files over 1 MiB, several documents in one file, documents nested too deeply, and aliases that
expand to a huge document are reported here too: a spec is one small mapping.

Bad:

```yaml
resources: {nodes: 4, gpus_per_node: 8
```

Good:

```yaml
resources: {nodes: 4, gpus_per_node: 8}
```
"""

from jobc.diagnostics import Severity
from jobc.rules.base import Meta

META = Meta(
    code="JC001",
    name="yaml-syntax",
    severity=Severity.ERROR,
    summary="The file is not valid YAML",
    remediation="Fix the YAML at the position shown; the message is the parser's.",
)
