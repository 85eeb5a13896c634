"""`torchrun` called by name while the program runs through uv.

With `launch.python: uv` the project's interpreter is reached through `uv run --no-sync python`;
the project's virtual environment is never activated, so a bare `torchrun` is whatever the shell
finds on `PATH`: a system or module-provided torch of another version, or nothing at all
(`torchrun: command not found` on every node). `launch.mode: torchrun` runs
`python -m torch.distributed.run` through the same interpreter as the program, with the node
rank taken inside the step. `uv run torchrun …` and an explicit path to a `torchrun` are not
flagged.

Warning, not error: on a machine whose `PATH` happens to hold the right `torchrun` it works.

Bad:

```yaml
launch:
  python: uv
  setup: ["torchrun --nproc-per-node 8 train.py"]
  program: train.py
```

Good:

```yaml
launch:
  python: uv
  mode: torchrun
  program: train.py
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import DataPath, Hit, Severity
from jobc.core.lazyre import lazy
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC105",
    name="bare-torchrun",
    severity=Severity.WARNING,
    summary="`torchrun` called directly while `launch.python: uv` (it may not see the venv)",
    remediation=(
        "Use launch.mode: torchrun, which runs python -m torch.distributed.run through the "
        "project's interpreter."
    ),
)

# `torchrun` as a command word: not part of a longer name and not an explicit path
_TORCHRUN = lazy(r"(?<![\w./-])torchrun(?![\w.-])")
_UV_RUN = lazy(r"\buv\s+run\b")
_COMMAND_BREAK = lazy(r"&&|\|\||[;&|\n(]")


def check(ctx: Context) -> Iterator[Hit]:
    launch = ctx.spec.launch
    if ctx.uses_uv is not True:
        return
    why = "launch.python is uv" if launch.python == "uv" else "the workdir is a uv project (uv.lock)"
    places: list[tuple[DataPath, str, str]] = [
        (("launch", "setup", i), line, f"setup line {i + 1}") for i, line in enumerate(launch.setup)
    ]
    if launch.program is not None:
        places.append((("launch", "program"), launch.program, "launch.program"))
    places += [
        (("launch", "args", i), arg, f"launch.args[{i}]")
        for i, arg in enumerate(launch.args)
        if isinstance(arg, str)
    ]
    for path, text, what in places:
        if _bare_torchrun(text):
            yield Hit(
                path,
                f"{what} calls torchrun by name, but {why} and the project's venv is "
                "not on PATH, so this runs another torch or none; use launch.mode: torchrun, which "
                "runs python -m torch.distributed.run through uv",
            )


_WRAPPERS = frozenset({"srun", "exec", "env", "nohup", "time", "command", "stdbuf", "numactl"})


def _bare_torchrun(text: str) -> bool:
    """torchrun in command position: first word of a command, or after a wrapper such as srun.

    A mention in an argument (echo "starting torchrun") is not a call.
    """
    for match in _TORCHRUN.finditer(text):
        command = _COMMAND_BREAK.split(text[: match.start()])[-1]
        if _UV_RUN.search(command):
            continue
        words = [w for w in command.split() if "=" not in w or w.startswith("-")]
        if not words or (words[0] in _WRAPPERS and "'" not in command and '"' not in command):
            return True
    return False
