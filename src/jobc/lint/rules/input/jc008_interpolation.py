"""A `{dotted.path}` in a string names no spec value, or a value that is not a scalar.

`launch.args`, `launch.program`, `env` values, and the `storage` paths may interpolate spec
values, such as `{parallelism.tp}` or `{name}`. A reference to a value that does not exist
would otherwise reach the program as literal text. Write `{{` and `}}` for literal braces.

`jobc import` writes `{unknown.NAME}` where a script passed a value it computed only when the job
ran (`--data "$DATA"`): the argument keeps its place, and this finding names it until the value
is written.

Bad:

```yaml
launch:
  args: ["--tp", "{parallelism.tensor}"]
```

Good:

```yaml
launch:
  args: ["--tp", "{parallelism.tp}"]
```
"""

from jobc.core.diagnostics import Severity
from jobc.lint.rules.base import Meta

META = Meta(
    code="JC008",
    name="bad-interpolation",
    severity=Severity.ERROR,
    summary="A {dotted.path} interpolation names no scalar spec value",
    remediation="Use an existing dotted path such as {parallelism.tp}, or write {{ }} for literal braces.",
)
