"""A secret written into the spec: a token, key or password as a literal value.

Everything in a spec ends up in the compiled script, which is committed, copied between
machines, attached to tickets and echoed into job logs (`set -x` in debug mode prints every
line). `export HF_TOKEN=hf_…` in a committed script is how tokens leak. jobc's `secrets:` list
holds names only: they must be set in the shell that runs `sbatch`, are inherited by the job
and never written down.

jobc looks for:

- an `env` or `fabric.env` variable whose name ends in `TOKEN`, `KEY`, `SECRET`, `PASSWORD`,
  `PASSWD`, `PASS`, `PASSPHRASE`, `CREDENTIALS` or `PAT`, or holds `SECRET`, `PASSWORD` or
  `CREDENTIALS` anywhere (`SECRET_KEY_BASE`), with a literal value, numbers included (paths,
  `$VAR` references, true/false-like values, `<special>` tokens, a default a tool publishes
  in its own guides (Ray's `--redis-password='5241580000000000'`) and a word that says there is
  no key (`EMPTY`, `dummy`, `local`: what a client passes to a local server started without
  one) are not secrets; nor is a
  `PAD_TOKEN`, `TEXT_KEY`, `METRIC_KEY` or `CACHE_KEY`, nor a `PASSWORD_FILE`);
- such a name as a command-line flag with a value in `launch.args` (`--hf-token=…`,
  `--wandb-api-key …`) or in `launch.setup`, `NAME=value` assignments in `launch.setup`, and
  `-p` after `docker login`, `sshpass` or `mysql`;
- anywhere in the spec, a value shaped like a known token: Hugging Face `hf_…`, GitHub `ghp_…`
  / `github_pat_…`, GitLab `glpat-…`, AWS `AKIA…`, `sk-…` API keys, Slack `xox…-`, NVIDIA
  `nvapi-…`, Google `AIza…`, JSON Web Tokens, `Bearer …` headers, a password in a URL
  (`postgres://user:pw@host`, `user:pw@registry#image`), and 40-hex-digit W&B API keys in env
  values and after `wandb login`.

Messages never repeat the value, at most its well-known prefix.

Error: a leaked token has to be revoked, whatever else happens to the job.

Bad:

```yaml
env: {HF_TOKEN: hf_EXAMPLEexampleEXAMPLEexample0000}
launch: {program: train.py, args: ["--wandb-api-key", "0123456789abcdef0123456789abcdef01234567"]}
```

Good:

```yaml
secrets: [HF_TOKEN, WANDB_API_KEY]      # exported where sbatch runs, inherited by every rank
launch: {program: train.py}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import DataPath, Hit, Severity, Span
from jobc.lint.rules.base import Meta
from jobc.lint.rules.script._facts import facts, hit
from jobc.spec.context import Context
from jobc.tables.secrets import (
    HASHLIKE_NAME,
    HEX40,
    flag_values,
    in_line,
    literal,
    secret_name,
    shape,
    shapeless,
)

META = Meta(
    code="JC702",
    name="literal-secret",
    severity=Severity.ERROR,
    summary="A token, key or password written into the spec or script as a literal value",
    remediation="List the variable's name under secrets: and export its value where sbatch runs.",
)

# sections whose values the checks above already read, shapes included
_CHECKED = (("fabric", "env"), ("launch", "args"), ("launch", "setup"))
_LEAKS = "it would be written into the compiled script, which is committed, copied and printed in logs"


def _env(ctx: Context, clean: bool) -> Iterator[Hit]:
    spec = ctx.spec
    for section, mapping in ((("fabric", "env"), spec.fabric.env), (("env",), spec.env)):
        where = ".".join(section)
        for name, value in mapping.items():
            text = str(value)
            found = None if clean else shape(text)
            if found is None and secret_name(name) and literal(value):
                found = "a literal value"
            if found is None and HEX40.search(text) and not HASHLIKE_NAME.search(name):
                found = "a 40-hex-digit key (a W&B API key's shape)"
            if found is None:
                continue
            listed = " (it is also listed in secrets:, whose value this would override)"
            also = listed if name in spec.secrets else ""
            yield Hit(
                (*section, name),
                f"{where} {name} holds {found}{also}: {_LEAKS}; list {name} under secrets: "
                "and export it where sbatch runs",
            )


def _args(ctx: Context, clean: bool) -> Iterator[Hit]:
    args = ctx.spec.launch.args
    words = [a if isinstance(a, str) else "" for a in args]
    flagged: set[int] = set()
    for i, flag, value in flag_values(words):
        if secret_name(flag) and literal(value):
            flagged.add(i)
            yield Hit(
                ("launch", "args", i),
                f"launch.args[{i}] passes a literal secret{_prefix(value)} to {flag}: {_LEAKS}; list "
                "the variable the program reads under secrets: instead",
            )
    if clean:
        return
    for i, word in enumerate(words):
        found = shape(word)
        if found and i not in flagged:
            yield Hit(
                ("launch", "args", i),
                f"launch.args[{i}] holds {found}: {_LEAKS}; pass it through a variable listed "
                "under secrets: instead",
            )


def _prefix(value: str) -> str:
    found = shape(value)
    return f", {found}," if found else ""


def _setup(ctx: Context) -> Iterator[Hit]:
    for i, line in enumerate(ctx.spec.launch.setup):
        found = in_line(line)
        if found:
            yield Hit(
                ("launch", "setup", i),
                f"setup line {i + 1} {found[0].reason}: {_LEAKS}; list the variable under secrets: "
                "and use it by name",
            )


def check(ctx: Context) -> Iterator[Hit]:
    # no string of the spec holds a token's shape (most specs): then neither do the values of
    # env and fabric.env (strings, or numbers and booleans, whose text holds none) nor the args
    clean = shapeless([text for _, text in ctx.strings])
    reported: set[DataPath] = set()
    for each in (*_env(ctx, clean), *_args(ctx, clean), *_setup(ctx)):
        reported.add(each.path)
        yield each
    if clean:
        return
    for path, text in ctx.strings:
        if path in reported or path[:1] == ("env",) or path[:2] in _CHECKED:
            continue
        found = shape(text)
        if found is not None:
            name = ".".join(str(p) for p in path)
            yield Hit(path, f"{name} holds what looks like {found}: {_LEAKS}; remove it from the spec")


_LEAKS_SCRIPT = (
    "the script is committed, copied and printed in logs (set -x echoes the line); export the "
    "variable in the shell that runs sbatch (the job inherits it) and use it by name"
)


def check_script(ctx: Context) -> Iterator[Hit]:
    """In a script, every line that writes a secret: exports, commands, directives, heredocs."""
    # the script reader's module, imported here: a spec lint runs `check` alone, and importing
    # the directives (with the script's facts) was half a millisecond of every spec lint
    from jobc.script.directives import is_directive

    f = facts(ctx)
    if f is None:
        return
    reported: set[int] = set()
    for number, line in enumerate(f.lines, 1):
        if line.lstrip().startswith("#") and not is_directive(line):
            continue  # a comment
        found = in_line(line)
        if found:
            reported.add(number)
            first = found[0]
            yield hit(
                Span(number, first.start + 1, number, first.end + 1), f"{first.reason}: {_LEAKS_SCRIPT}"
            )
    for e in f.exports:
        # a W&B API key's shape, which only the variable it is in tells from a commit hash
        text = e.value or ""
        if e.span.line in reported or not HEX40.search(text) or HASHLIKE_NAME.search(e.name):
            continue
        yield hit(e.value_span, f"{e.name} holds a 40-hex-digit key (a W&B API key's shape): {_LEAKS_SCRIPT}")
