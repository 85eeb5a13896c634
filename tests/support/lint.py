"""Linting YAML text in tests, and asserting where findings land."""

from __future__ import annotations

import textwrap
from pathlib import Path

from jobc.core.diagnostics import Finding
from jobc.lint.config import Config
from jobc.lint.pipeline import Result, lint_file, parse_override

# A small valid multi-node spec that rule tests extend or override.
BASE = """\
version: 1
name: test-job
slurm:
  partition: batch
  time: "04:00:00"
resources:
  nodes: 2
  gpus_per_node: 8
launch:
  mode: srun
  program: train.py
storage:
  shared: [/shared]
"""


def lint_text(
    text: str,
    tmp_path: Path,
    *,
    name: str = "spec.yaml",
    files: dict[str, str] | None = None,
    config: Config | None = None,
    sets: list[str] | None = None,
) -> Result:
    """Write ``text`` (dedented) and any extra ``files`` under tmp_path and lint the spec."""
    for rel, content in (files or {}).items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(content))
    spec = tmp_path / name
    spec.parent.mkdir(parents=True, exist_ok=True)
    spec.write_text(textwrap.dedent(text))
    overrides = [parse_override(s) for s in sets or []]
    return lint_file(spec, config=config, overrides=overrides, display=name)


def where(result: Result, code: str) -> list[tuple[int, int]]:
    """(line, col) of every finding with this code."""
    return [(f.span.line, f.span.col) for f in result.findings if f.code == code]


def codes(result: Result) -> list[str]:
    return [f.code for f in result.findings]


def only(result: Result, code: str) -> Finding:
    found = [f for f in result.findings if f.code == code]
    assert len(found) == 1, f"expected one {code}, got {result.findings}"
    return found[0]


def script_example(example: str, *, whole: bool) -> str:
    """A rule docstring's ```bash example as the script it stands for.

    Examples show what cannot be seen as escapes: `\\r` at a line's end is a carriage return (a
    DOS line break), `\\ufeff` at the start a byte-order mark. An example set that writes its own
    first line (``whole``: its Good example starts with `#!`) is the whole script; any other gets
    `#!/bin/bash` above it."""
    import re

    text = re.sub(r"\\r$", "\r", example, flags=re.M)
    text = text.replace("\\ufeff", "\ufeff") if text.startswith("\\ufeff") else text
    return text if whole else "#!/bin/bash\n" + text
