"""The file is not valid YAML, or not a YAML file at all.

jobc reads specs as YAML 1.2 and reports the parser's own position. Binary files, UTF-16 and
invalid UTF-8, control characters, tabs used for indentation, files over 1 MiB, several documents
in one file, documents nested more than 64 levels deep, and aliases that expand to more than
100 000 nodes are reported here too: a spec is one small mapping. Anchors, aliases and merge keys
(`<<: *base`) are read as ruamel and PyYAML read them: the merged keys join the mapping, and keys
written next to `<<` win; a finding about a merged key points at the key of the mapping that
merges it.

Bad:

```yaml
resources: {nodes: 4, gpus_per_node: 8
```

Good:

```yaml
resources: {nodes: 4, gpus_per_node: 8}
```
"""

from jobc.core.diagnostics import Severity
from jobc.lint.rules.base import Meta

META = Meta(
    code="JC001",
    name="yaml-syntax",
    severity=Severity.ERROR,
    summary="The file is not valid YAML",
    remediation="Fix the YAML at the position shown; the message is the parser's.",
)
