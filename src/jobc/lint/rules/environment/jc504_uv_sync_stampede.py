"""Every rank running `uv sync` (or a syncing `uv run`) at the same time.

`uv run` syncs the project's environment before it runs anything. Started by every rank, that
is hundreds of processes resolving, downloading and installing into the same `.venv` and the
same uv cache on a shared file system at once: a metadata storm on Lustre or GPFS, and, where
the file system's locks are node-local (Lustre mounted with `localflock`, NFS without lockd),
concurrent writers that corrupt the environment, so ranks fail at random on import. jobc's
`uv_sync: two-phase` runs one `uv sync` on one node first and then every rank with
`uv run --no-sync`; this rule fires when the spec gets around that: a `launch.python` that calls
`uv run` without `--no-sync`, or a setup line that runs `uv sync`/`uv run` under `srun` on more
than one task.

Error: the failure is intermittent and costs a whole allocation when it happens.

Bad:

```yaml
launch:
  python: uv run python
  setup: ["srun uv sync"]
```

Good:

```yaml
launch:
  python: uv             # jobc: one uv sync on one node, then uv run --no-sync python
  uv_sync: two-phase
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules import _words as words
from jobc.lint.rules._env import lookup, truthy
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC504",
    name="uv-sync-stampede",
    severity=Severity.ERROR,
    summary="Every rank runs `uv sync` (or a syncing `uv run`) on the same environment at once",
    remediation="Use python: uv with uv_sync: two-phase (one sync on one node, then uv run --no-sync).",
)
# A batch script can have this pitfall in the same form: the rule runs on scripts too.
SCRIPTS = True


_QUOTING = ("'", '"', "\\")


def _can_hold(line: str, word: str) -> bool:
    """Whether one of the shell words of ``line`` can be ``word``: shlex only takes characters
    away (quotes, escapes, a comment), so without ``word`` in the text and without quoting, none
    is (and shlex, its import and its character-by-character reading are not needed)."""
    return word in line or any(quote in line for quote in _QUOTING)


def _words(line: str) -> list[str]:
    import shlex

    try:
        return shlex.split(line, comments=True)
    except ValueError:  # unbalanced quotes: words are still good enough to spot commands
        return line.split()


def _syncs(words: list[str]) -> bool:
    """Whether ``words`` (a command from `uv` on) syncs an environment."""
    if len(words) < 2 or not _uv(words[0]):
        return False
    if words[1] == "sync":
        return True
    if words[1] == "pip" and len(words) > 2 and words[2] in ("install", "sync"):
        return True
    return words[1] == "run" and "--no-sync" not in words


def _uv(word: str) -> bool:
    """uv by its name or by a path (`~/.local/bin/uv`, `$HOME/.local/bin/uv`, where its installer
    puts it off PATH): the same program, which syncs the same way."""
    return word.rsplit("/", 1)[-1] == "uv"


def _one_task(options: list[str]) -> bool:
    for i, word in enumerate(options):
        if word in ("-n1", "--ntasks=1"):
            return True
        if word in ("-n", "--ntasks") and i + 1 < len(options) and options[i + 1] == "1":
            return True
    return False


def check(ctx: Context) -> Iterator[Hit]:
    launch = ctx.spec.launch
    tasks = ctx.nodes * ctx.tasks_per_node
    if tasks <= 1:
        return
    no_sync = lookup(ctx, "UV_NO_SYNC")
    if no_sync is not None and truthy(no_sync.value):
        return
    if launch.python not in (None, "uv") and _can_hold(launch.python, "uv") and _syncs(_words(launch.python)):
        yield Hit(
            ("launch", "python"),
            f"launch.python {launch.python!r} makes each of the {tasks} tasks sync the uv "
            "environment before starting, all at once on the same .venv and cache; use "
            "python: uv (jobc syncs once on one node, then runs uv run --no-sync)",
        )
    for i, line in enumerate(launch.setup):
        if not _can_hold(line, "srun"):
            continue
        words = _words(line)
        for j, word in enumerate(words):
            if word != "srun":
                continue
            rest = words[j + 1 :]
            start = next((k for k, w in enumerate(rest) if _uv(w)), None)
            if start is None or _one_task(rest[:start]) or not _syncs(rest[start:]):
                continue
            yield Hit(
                ("launch", "setup", i),
                _stampede(ctx, i, tasks),
            )
            break


def _stampede(ctx: Context, i: int, tasks: int) -> str:
    if words.in_script(ctx):
        return (
            f"this srun runs uv on every task of the allocation ({tasks}), all syncing the same "
            "environment and cache at once; sync once (srun --ntasks=1 uv sync, or uv sync before "
            "the steps) and start the program with uv run --no-sync"
        )
    return (
        f"setup line {i + 1} runs uv under srun on every task of the allocation ({tasks}), all "
        "syncing the same .venv and cache at once; drop it (launch.uv_sync: two-phase syncs once "
        "on one node) or run it with srun --ntasks=1"
    )
