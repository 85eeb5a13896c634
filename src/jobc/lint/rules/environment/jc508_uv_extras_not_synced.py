"""The project in `launch.workdir` declares extras, and the one `uv sync` installs none of them.

With `python: uv` and `uv_sync: two-phase`, one task runs `uv sync` before the launch and every
rank then runs `uv run --no-sync`. A `uv sync` installs exactly what it is told: the base
dependencies, the default groups, and only the extras it is given, and it removes what else is
installed. A project whose training code lives in an extra (Megatron-LM's `--extra training`)
then starts every rank without it, and each one fails on its first import, after the queue wait.
This rule reads `pyproject.toml` in the working directory (relative to the spec file when the
path is relative); when its `[project.optional-dependencies]` names extras and `launch.uv` names
none (`extras` or `all_extras`), it says which there are.

Warning: a project may keep optional things in extras that the job does not need.

Bad:

```yaml
launch:
  python: uv
  uv_sync: two-phase
  workdir: /lustre/me/Megatron-LM     # pyproject.toml: [project.optional-dependencies] training = […]
  program: pretrain_gpt.py
```

Good:

```yaml
launch:
  python: uv
  uv_sync: two-phase
  uv: {extras: [training], lock: frozen}   # phase one: uv sync --extra training --frozen
  workdir: /lustre/me/Megatron-LM
  program: pretrain_gpt.py
```
"""

import os
from collections.abc import Iterator

from jobc.core import paths
from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from jobc.core.paths import PathArg

META = Meta(
    code="JC508",
    name="uv-extras-not-synced",
    severity=Severity.WARNING,
    summary="The workdir's pyproject.toml declares extras and the uv sync before the launch installs none",
    remediation="Name the extras the job needs in launch.uv.extras (or set launch.uv.all_extras).",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("launch", "workdir"),)


def declared_extras(pyproject: "PathArg") -> list[str]:
    """The extras `pyproject.toml` declares; none when it is missing or unreadable."""
    try:
        with open(pyproject, encoding="utf-8") as fh:  # Path.read_text, without pathlib
            text = fh.read()
    except (OSError, ValueError):  # ValueError: undecodable, or a NUL in the path
        return []
    if "optional-dependencies" not in text and "\\" not in text:
        # without the key's name, written out or in escapes, there are no extras: most workdirs'
        # files are read without importing (and running) a TOML parser
        return []
    import tomllib

    try:
        data = tomllib.loads(text)
    except ValueError:  # not TOML
        return []
    project = data.get("project")
    extras = project.get("optional-dependencies") if isinstance(project, dict) else None
    return sorted(str(name) for name in extras) if isinstance(extras, dict) else []


def check(ctx: Context) -> Iterator[Hit]:
    launch = ctx.spec.launch
    if ctx.uses_uv is not True or launch.uv_sync != "two-phase" or launch.workdir is None:
        return
    if launch.uv.extras or launch.uv.all_extras or "{" in launch.workdir:
        return
    # the path as `pathlib` writes it (`jobc.core.paths`), without importing it
    pyproject = paths.plain(os.path.join(ctx.spec_dir, launch.workdir, "pyproject.toml"))
    extras = declared_extras(pyproject)
    if not extras:
        return
    named = ", ".join(extras)
    yield Hit(
        ("launch", "workdir"),
        f"{pyproject} declares the extras {named}, but launch.uv names none, so "
        "the uv sync before the launch installs none of them (and removes any installed) and "
        f"every rank runs without them; name the ones the job needs, e.g. launch.uv.extras: [{extras[0]}]",
    )
