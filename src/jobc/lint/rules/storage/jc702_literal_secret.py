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
  `$VAR` references, true/false-like values and `<special>` tokens are not secrets; nor is a
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

import re
from collections.abc import Iterator
from typing import Any

from jobc.core.diagnostics import DataPath, Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC702",
    name="literal-secret",
    severity=Severity.ERROR,
    summary="A token, key or password written into the spec as a literal value",
    remediation="List the variable's name under secrets: and export its value where sbatch runs.",
)

_SECRET_WORDS = frozenset(
    ["TOKEN", "KEY", "APIKEY", "SECRET", "PASSWORD", "PASSWD", "PASS", "PASSPHRASE", "CREDENTIALS", "PAT"]
)
# Words that make a name secret wherever they stand (SECRET_KEY_BASE), unless the name ends in
# one of _POINTERS: then it names where the secret is, not the secret (PASSWORD_FILE).
_STRONG_WORDS = frozenset(["SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIALS", "APIKEY"])
_POINTERS = frozenset(
    ["PATH", "FILE", "DIR", "NAME", "ID", "ARN", "REF", "VAR", "ENV", "TYPE", "LEN", "LENGTH"]
)
# What a TOKEN or KEY is when these come before it: a tokenizer's special token, a column or
# metric name, a cache key (--pad-token, --text-key, --metric-key, CACHE_KEY).
_ORDINARY_QUALIFIERS = frozenset(
    [
        "PAD", "EOS", "BOS", "UNK", "SEP", "CLS", "MASK", "SPECIAL", "START", "END", "STOP",
        "TEXT", "LABEL", "INPUT", "OUTPUT", "IMAGE", "PROMPT", "RESPONSE", "COLUMN", "FIELD",
        "DATA", "DATASET", "METRIC", "MONITOR", "LOSS", "SORT", "CACHE", "HASH", "PARTITION",
        "SHARD", "GROUP", "SEED", "RANDOM", "PRIMARY", "JSON", "DICT", "BATCH", "MESSAGES",
    ]
)  # fmt: skip
_NOT_SECRET_VALUES = frozenset(["true", "false", "yes", "no", "on", "off", "none", "null", "0", "1", ""])
_HASHLIKE_NAME = re.compile(r"SHA|COMMIT|REV|HASH|DIGEST|VERSION|CHECKSUM", re.IGNORECASE)
_B = r"(?<![A-Za-z0-9_])"
_SHAPES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a Hugging Face token", re.compile(_B + r"(hf_)[A-Za-z0-9]{30,}")),
    ("a GitHub token", re.compile(_B + r"(gh[pousr]_)[A-Za-z0-9]{30,}")),
    ("a GitHub token", re.compile(_B + r"(github_pat_)[A-Za-z0-9_]{30,}")),
    ("a GitLab token", re.compile(_B + r"(glpat-)[A-Za-z0-9_-]{20,}")),
    ("an AWS access key", re.compile(r"(?<![A-Z0-9])(AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])")),
    ("an API key", re.compile(_B + r"(sk-)(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{20,}")),
    ("a Slack token", re.compile(_B + r"(xox[abprs]-)[A-Za-z0-9-]{10,}")),
    ("an NVIDIA API key", re.compile(_B + r"(nvapi-)[A-Za-z0-9_-]{30,}")),
    ("a Google API key", re.compile(_B + r"(AIza)[0-9A-Za-z_-]{35}")),
    ("a JSON Web Token", re.compile(_B + r"(eyJ)[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("a bearer token", re.compile(r"(?<![A-Za-z])(Bearer\s+)(?!\$)[A-Za-z0-9._~+/-]{16,}")),
    # scheme://user:password@host, and pyxis's user:password@registry#image
    (
        "a URL with a password",
        re.compile(r"(?:^|(?<=://)|(?<=[\s'\"=(]))([^\s:/@'\"=]+:)(?![$*])[^\s/@'\"]+@[\w.-]"),
    ),
)
# the literal prefix each shape above starts with: one search rules most text out of all nine
_ANY_PREFIX = re.compile(
    r"hf_|gh[pousr]_|github_pat_|glpat-|AKIA|ASIA|sk-|xox[abprs]-|nvapi-|AIza|eyJ|Bearer|@"
)
_HEX40 = re.compile(r"(?<![0-9A-Za-z])[0-9a-f]{40}(?![0-9A-Za-z])")
_ASSIGN = re.compile(
    r"(?:^|[\s;&|(])(?:export\s+|declare\s+-x\s+)?([A-Za-z_][A-Za-z0-9_]*)="
    r"(\"[^\"]*\"|'[^']*'|[^\s;&|)]*)"
)
# commands whose -p is a password (`docker login -u me -p pw`, `sshpass -p pw ssh host`); for
# others it is a port, a parent directory or a pipeline size
_TAKES_PASSWORD_P = frozenset(["login", "sshpass", "mysql", "mysqldump", "mysqladmin"])
# sections whose values the checks above already read, shapes included
_CHECKED = (("fabric", "env"), ("launch", "args"), ("launch", "setup"))
_NAME_PARTS = re.compile(r"[_\-.]+")
_LEAKS = "it would be written into the compiled script, which is committed, copied and printed in logs"


def secret_name(name: str) -> bool:
    """Whether a variable or flag name says its value is a secret (HF_TOKEN, --wandb-api-key)."""
    parts = [p for p in _NAME_PARTS.split(name.strip("-").upper()) if p]
    if not parts:
        return False
    last = parts[-1]
    if last in _SECRET_WORDS:
        ordinary = last in ("TOKEN", "KEY") and len(parts) > 1 and parts[-2] in _ORDINARY_QUALIFIERS
        return not ordinary or any(p in _STRONG_WORDS for p in parts[:-1])
    return last not in _POINTERS and any(p in _STRONG_WORDS for p in parts)


def literal(value: Any) -> bool:
    """Whether ``value`` is written out, rather than a path, a reference or a switch."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return False
    text = str(value).strip().strip("'\"")  # a number is a literal too: DB_PASSWORD: 123456
    if text.lower() in _NOT_SECRET_VALUES or "$" in text:
        return False
    if text.startswith("<") and text.endswith(">"):
        return False  # a tokenizer's special token or a placeholder: <|endoftext|>, </s>, <your-key>
    return not text.startswith(("/", "./", "../", "~"))


def shape(text: str) -> str | None:
    """``what (prefix…)`` for the first known token shape in ``text``; never the token itself."""
    if _ANY_PREFIX.search(text) is None:
        return None
    for what, pattern in _SHAPES:
        match = pattern.search(text)
        if match:
            return f"{what} ({match.group(1)}…)"
    return None


def _walk(node: Any, path: DataPath) -> Iterator[tuple[DataPath, str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _walk(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _walk(value, (*path, i))
    elif isinstance(node, str):
        yield path, node


def _flag_values(words: list[str]) -> Iterator[tuple[int, str, str]]:
    """(index of the value, flag, value) for `--flag=value` and `--flag value` pairs."""
    for i, word in enumerate(words):
        if not word.startswith("-"):
            continue
        flag, eq, value = word.partition("=")
        if eq:
            yield i, flag, value
        elif i + 1 < len(words) and not words[i + 1].startswith("-"):
            yield i + 1, flag, words[i + 1]


def _env(ctx: Context) -> Iterator[Hit]:
    spec = ctx.spec
    for section, mapping in ((("fabric", "env"), spec.fabric.env), (("env",), spec.env)):
        where = ".".join(section)
        for name, value in mapping.items():
            text = str(value)
            found = shape(text)
            if found is None and secret_name(name) and literal(value):
                found = "a literal value"
            if found is None and _HEX40.search(text) and not _HASHLIKE_NAME.search(name):
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


def _args(ctx: Context) -> Iterator[Hit]:
    args = ctx.spec.launch.args
    words = [a if isinstance(a, str) else "" for a in args]
    flagged: set[int] = set()
    for i, flag, value in _flag_values(words):
        if secret_name(flag) and literal(value):
            flagged.add(i)
            yield Hit(
                ("launch", "args", i),
                f"launch.args[{i}] passes a literal secret{_prefix(value)} to {flag}: {_LEAKS}; list "
                "the variable the program reads under secrets: instead",
            )
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
        reason: str | None = None
        for match in _ASSIGN.finditer(line):
            name, value = match.groups()
            if secret_name(name) and literal(value):
                reason = f"assigns a literal secret to {name}"
                break
        if reason is None:
            import shlex

            try:
                words = shlex.split(line, comments=True)
            except ValueError:
                words = line.split()
            for _, flag, value in _flag_values(words):
                if secret_name(flag) and literal(value):
                    reason = f"passes a literal secret to {flag}"
                    break
            if reason is None and _TAKES_PASSWORD_P & set(words):
                for _, flag, value in _flag_values(words):
                    if flag == "-p" and literal(value):
                        reason = "passes a literal password to -p"
                        break
            if reason is None and "wandb" in words and "login" in words and _HEX40.search(line):
                reason = "logs in to W&B with a literal 40-hex-digit API key"
        found = shape(line)
        if reason is None and found is not None:
            reason = f"holds {found}"
        if reason is not None:
            yield Hit(
                ("launch", "setup", i),
                f"setup line {i + 1} {reason}: {_LEAKS}; list the variable under secrets: and use it by name",
            )


def check(ctx: Context) -> Iterator[Hit]:
    reported: set[DataPath] = set()
    for hit in (*_env(ctx), *_args(ctx), *_setup(ctx)):
        reported.add(hit.path)
        yield hit
    for path, text in _walk(ctx.data, ()):
        if path in reported or path[:1] == ("env",) or path[:2] in _CHECKED:
            continue
        found = shape(text)
        if found is not None:
            name = ".".join(str(p) for p in path)
            yield Hit(path, f"{name} holds what looks like {found}: {_LEAKS}; remove it from the spec")
