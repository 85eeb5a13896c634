"""Shell syntax (`$VAR`, `${VAR}`, `$(…)`, backticks, `~`) in a value jobc passes literally.

`env` values, `launch.args`, paths and mounts are written into the compiled script quoted, so
they reach the program exactly as typed: `HF_HOME: $HOME/hf` gives a directory literally named
`$HOME` under the working directory, and `~/data` is a directory named `~`. jobc does this on
purpose (a spec value can never run a command), so values must be written out in full.

`${X:0}` deserves its own word: even in a shell it is not a default. It is the substring of
`$X` from offset 0 (empty when X is unset); the default is `${X:-0}`. In `launch.setup`, which
the batch shell does run, `export CUDA_LAUNCH_BLOCKING=${CUDA_LAUNCH_BLOCKING:0}` is therefore
reported too. Per-rank variables (`$SLURM_PROCID`, `$LOCAL_RANK`, …) are JC106's.

Warning: the value might be meant literally (a regular expression, a password with a `$`).

Bad:

```yaml
env: {HF_HOME: "$HOME/.cache/hf", CUDA_LAUNCH_BLOCKING: "${CUDA_LAUNCH_BLOCKING:0}"}
```

Good:

```yaml
env: {HF_HOME: /lustre/me/cache/hf, CUDA_LAUNCH_BLOCKING: "0"}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import DataPath, Hit, Severity
from jobc.core.lazyre import lazy
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context
from jobc.tables.ranks import RUNTIME_VAR

META = Meta(
    code="JC507",
    name="env-shell-syntax",
    severity=Severity.WARNING,
    summary="Shell syntax ($VAR, ${X:0}, backticks, ~) in a value that is passed literally",
    remediation="Write the value out in full; env values, args and paths are never shell-expanded.",
)

_REF = lazy(r"\$\{[^}]*\}?|\$\([^)]*\)?|\$[A-Za-z_][A-Za-z0-9_]*|`[^`]*`")
_SUBSTRING = lazy(r"\$\{([A-Za-z_][A-Za-z0-9_]*):([0-9]+)\}")


def _literal_fields(ctx: Context) -> Iterator[tuple[DataPath, str]]:
    spec = ctx.spec
    for name, value in spec.fabric.env.items():
        if isinstance(value, str):
            yield ("fabric", "env", name), value
    for name, value in spec.env.items():
        if isinstance(value, str):
            yield ("env", name), value
    launch = spec.launch
    for i, arg in enumerate(launch.args):
        if isinstance(arg, str):
            yield ("launch", "args", i), arg
    for key in ("workdir", "program"):
        value = getattr(launch, key)
        if value is not None:
            yield ("launch", key), value
    for i, entry in enumerate(launch.pythonpath):
        yield ("launch", "pythonpath", i), entry
    storage = spec.storage
    if storage.checkpoints is not None:
        yield ("storage", "checkpoints"), storage.checkpoints
    for key, value in storage.caches.dump().items():
        if isinstance(value, str):
            yield ("storage", "caches", key), value
    if spec.container is not None:
        yield ("container", "image"), spec.container.image
        for i, mount in enumerate(spec.container.mounts):
            yield ("container", "mounts", i), mount
        if spec.container.workdir is not None:
            yield ("container", "workdir"), spec.container.workdir


def _name(path: DataPath) -> str:
    if path[0] in ("env",) or path[:2] == ("fabric", "env"):
        return ".".join(str(p) for p in path[:-1]) + f" {path[-1]}"
    parts = [str(p) for p in path]
    if isinstance(path[-1], int):
        return ".".join(parts[:-1]) + f"[{path[-1]}]"
    return ".".join(parts)


def _problem(text: str) -> str | None:
    if "$" not in text and "`" not in text and not text.startswith("~"):
        return None  # no expansion and no `~`: most values
    substring = _SUBSTRING.search(text)
    if substring:
        var, offset = substring.groups()
        return (
            f"holds {substring.group(0)}, which is not expanded here, and even in a shell is not a "
            f"default: it is the substring of ${var} from offset {offset}, empty when {var} is "
            f"unset (the default would be ${{{var}:-{offset}}}); write the value itself"
        )
    for match in _REF.finditer(text):
        if RUNTIME_VAR.match(text, match.start()):
            continue  # a per-rank variable: JC106 says what to do instead
        ref = match.group(0)
        if ref.startswith(("$(", "`")):
            return "holds a command substitution, which is never run: the text is passed as it is"
        return (
            f"holds {ref}, which is never expanded: the program receives the text {ref} itself; "
            "write the value out in full"
        )
    if text == "~" or text.startswith("~/"):
        return "starts with '~', which only a shell expands: the path is taken literally; write it in full"
    return None


def check(ctx: Context) -> Iterator[Hit]:
    for path, text in _literal_fields(ctx):
        problem = _problem(text)
        if problem:
            yield Hit(path, f"{_name(path)} {problem}")
    for i, line in enumerate(ctx.spec.launch.setup):
        for match in _SUBSTRING.finditer(line):
            var, offset = match.groups()
            yield Hit(
                ("launch", "setup", i),
                f"setup line {i + 1}: {match.group(0)} is the substring of ${var} from offset "
                f"{offset} (empty when {var} is unset), not a default value; write "
                f"${{{var}:-{offset}}}",
            )
