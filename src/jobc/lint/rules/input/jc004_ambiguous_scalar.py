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

from jobc.core.diagnostics import Applicability, Edit, Fix, Severity, Span
from jobc.core.lazyre import lazy
from jobc.lint.rules.base import Meta, Repair

META = Meta(
    code="JC004",
    name="ambiguous-scalar",
    severity=Severity.WARNING,
    summary="An unquoted value that YAML 1.1 tools read differently",
    remediation="Quote the value, or write true/false for booleans.",
)
FIX = Repair(
    Applicability.SAFE,
    "quotes the value as written (a leading zero is dropped instead), which YAML 1.2 reads the same",
    "specs",
)


# a plain scalar of one line that double quotes can hold as it is
_PLAIN = lazy(r"[^\s\"'\\\[\]{}&*!|>%@`#,][^\"\\]*")


def repair(written: str, span: Span, message: str) -> Fix | None:
    """Quote `written` (the value's text at `span`), or drop its leading zeros."""
    if message.startswith("leading zero"):
        digits = written.lstrip("0")
        if not written.isdigit() or not digits:
            return None
        return Fix.make(f"write {digits}", Edit(span, digits))
    if not _PLAIN.fullmatch(written):
        return None
    return Fix.make(f'quote it: "{written}"', Edit(span, f'"{written}"'))
