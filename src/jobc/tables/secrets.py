"""What a literal secret looks like: token shapes, secret names, and the prefilter built from them.

One table (`SHAPES`) lists every well-known token shape with the literal prefix it starts with;
the cheap prefilter (`PREFILTER`) is built from those prefixes and from the words that make a
name secret, so a text the prefilter passes over holds nothing `find` could report. Spec rules
and the script reader both ask here, and every message that shows text which may hold a secret
masks it with `mask`, the same way everywhere.

Every pattern reads a line in time proportional to its length, whatever the line holds: a token
pattern starts only where a run of its characters starts (its look-behind refuses every character
the run may hold), quantifiers that could scan the same text twice are possessive, and the
URL-password check runs on the text before each `@` once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import cache

from jobc.tables._later import later as _later

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

# The shapes of well-known tokens: what it is, the literal prefix (a regex that matches only
# literal text), and what follows it. Messages show the prefix, never the rest.
_ALNUM = "(?<![A-Za-z0-9_])"
_ALNUM_DASH = "(?<![A-Za-z0-9_-])"
SHAPES: tuple[tuple[str, str, str, str], ...] = (
    # (what, look-behind, prefix, body)
    ("a Hugging Face token", _ALNUM, "hf_", r"[A-Za-z0-9]{30,}+"),
    ("a GitHub token", _ALNUM, "gh[pousr]_", r"[A-Za-z0-9]{30,}+"),
    ("a GitHub token", _ALNUM, "github_pat_", r"[A-Za-z0-9_]{30,}+"),
    ("a GitLab token", _ALNUM_DASH, "glpat-", r"[A-Za-z0-9_-]{20,}+"),
    ("an AWS access key", "(?<![A-Z0-9])", "AKIA|ASIA", r"[A-Z0-9]{16}(?![A-Z0-9])"),
    ("an API key", _ALNUM_DASH, "sk-", r"(?=[A-Za-z_-]*+[0-9])[A-Za-z0-9_-]{20,}+"),
    ("a Slack token", _ALNUM_DASH, "xox[abprs]-", r"[A-Za-z0-9-]{10,}+"),
    ("an NVIDIA API key", _ALNUM_DASH, "nvapi-", r"[A-Za-z0-9_-]{30,}+"),
    ("a Google API key", _ALNUM_DASH, "AIza", r"[0-9A-Za-z_-]{35}"),
    (
        "a JSON Web Token",
        _ALNUM_DASH,
        "eyJ",
        r"[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]{8,}+",
    ),
    ("a bearer token", "(?<![A-Za-z])", r"Bearer\s++", r"(?!\$)[A-Za-z0-9._~+/-]{16,}+"),
)
_URL_WHAT = "a URL with a password"
# Words that make a variable or flag name secret when they end it (HF_TOKEN, --api-key) ...
SECRET_WORDS = frozenset(
    ["TOKEN", "KEY", "APIKEY", "SECRET", "PASSWORD", "PASSWD", "PASS", "PASSPHRASE", "CREDENTIALS", "PAT"]
)
# ... and words that make it secret wherever they stand (SECRET_KEY_BASE), unless the name ends in
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
# commands whose -p is a password (`docker login -u me -p pw`, `sshpass -p pw ssh host`); for
# others it is a port, a parent directory or a pipeline size
TAKES_PASSWORD_P = frozenset(["login", "sshpass", "mysql", "mysqldump", "mysqladmin"])
# `wandb login KEY` takes W&B's 40-hex-digit API key as a word
_WANDB = "wandb"

_NOT_SECRET_VALUES = frozenset(["true", "false", "yes", "no", "on", "off", "none", "null", "0", "1", ""])
# defaults a tool publishes in its own documentation: written in a script they reveal nothing
# (Ray's `--redis-password='5241580000000000'`, ray_constants.REDIS_DEFAULT_PASSWORD, is in every
# Ray-on-Slurm guide)
_PUBLISHED_DEFAULTS = frozenset(["5241580000000000"])
# words that say the value is no key at all: what a client passes to a server started without
# one (vLLM's guides pass `api_key="EMPTY"`; a local OpenAI-compatible server takes any key, so
# scripts write `local`, `dummy` or `none`). Compared case-blind, the whole value.
_DUMMY_VALUES = frozenset(
    [
        "empty",
        "dummy",
        "local",
        "placeholder",
        "unused",
        "not-needed",
        "not_needed",
        "no-key",
        "nokey",
        "fake",
    ]
)
HASHLIKE_NAME = _later(r"SHA|COMMIT|REV|HASH|DIGEST|VERSION|CHECKSUM", re.IGNORECASE)
# (a path segment of 40 hex digits is a commit hash, as in Hugging Face's cache,
# `…/snapshots/<commit>/`, or git's objects: a key is never a directory of a path)
HEX40 = _later(r"(?<![0-9A-Za-z/])[0-9a-f]{40}(?![0-9A-Za-z/])")
_NAME_PARTS = _later(r"[_\-.]+")


@cache
def _pattern(index: int) -> re.Pattern[str]:
    """The pattern of `SHAPES[index]`, compiled the first time a text holds its prefix: most texts
    hold none, and compiling all of them was most of a cold lint's time in this module. Built
    from `jobc.tables.compiled`, which holds every shape's pattern (`shape_pattern`)."""
    from jobc.tables.compiled import compile

    return compile(shape_pattern(index))


def shape_pattern(index: int) -> str:
    """The regular expression of `SHAPES[index]`: the prefix as group 1, behind its guard."""
    _, behind, prefix, body = SHAPES[index]
    return f"{behind}({prefix}){body}"


def _literal_start(alternative: str) -> str:
    """The text before the first `\\`, `[` or `(`: what the alternative starts with literally."""
    cut = len(alternative)
    for mark in "\\[(":
        at = alternative.find(mark)
        if 0 <= at < cut:
            cut = at
    return alternative[:cut]


# The literal text each shape's prefix starts with (every alternative of it): a text without any
# of them cannot match the shape's pattern, which then need not run, nor be compiled.
_NEEDLES = tuple(
    tuple(_literal_start(alternative) for alternative in prefix.split("|")) for _, _, prefix, _ in SHAPES
)
# scheme://user:password@host and pyxis's user:password@registry#image: the run of characters a
# password may hold, ending at an '@' before a host; it starts only where such a run starts. A
# host has a letter or a dot: `B:USR2@300` is sbatch's --signal, `user:1@2` no address.
_BEFORE_AT = _later(r"(?<![^\s/@'\"])([^\s/@'\"]++)@(?=[0-9_-]*+[A-Za-z.])")
# inside that run: a user name (after the run's start, an '=' or a '(') and a password that is
# not a reference ($VAR) or a glob
_USER = _later(r"(?:^|(?<=[=(]))([^:=(]++:)(?![$*]).")
# The prefilter: every prefix above, the URL's '@', every secret word (its name or flag), the
# commands that take a password after -p, and wandb. A text it does not match holds nothing the
# checks report; a literal alternation, so one pass over the text.
PREFILTER = _later(
    "|".join(
        [
            *(prefix for _, _, prefix, _ in SHAPES),
            "@",
            *sorted(SECRET_WORDS),
            *sorted(TAKES_PASSWORD_P),
            _WANDB,
        ]
    ),
    re.IGNORECASE,
)
# The same search for ASCII text, which is lowered first: the words and prefixes in lower case,
# without IGNORECASE, run several times as fast. (Only for ASCII: IGNORECASE also folds some other
# characters, the Kelvin sign to k, which lowering leaves as they are.)
_PREFILTER_ASCII = _later(
    "|".join(
        [
            *(prefix.lower() for _, _, prefix, _ in SHAPES),
            "@",
            *(word.lower() for word in sorted(SECRET_WORDS)),
            *sorted(TAKES_PASSWORD_P),
            _WANDB,
        ]
    )
)


def may_hold(text: str) -> bool:
    """Whether `PREFILTER` finds anything in ``text``: where it does not, nothing here reports."""
    if text.isascii():
        return _PREFILTER_ASCII.search(text.lower()) is not None
    return PREFILTER.search(text) is not None


# `NAME=value` in a shell line (also after export or declare -x); names and unquoted values are
# runs that end where the next one could start, so the line is read once
_ASSIGN = _later(
    r"(?:^|(?<=[\s;&|(]))(?:export\s++|declare\s++-x\s++)?+([A-Za-z_][A-Za-z0-9_]*+)="
    r"(\"[^\"]*+\"|'[^']*+'|[^\s;&|)]*+)"
)
# a shell word, quotes kept: runs of unquoted characters and quoted strings
_WORD = _later(r"(?:[^\s'\"]++|'[^']*+'|\"(?:[^\"\\]++|\\.)*+\")++")


class Secret:
    """One literal secret in a text: where its value is, and why it is one.

    A plain class: a NamedTuple's class is built through `exec` at import, which cost more than
    everything else this module does for a spec without secrets."""

    __slots__ = ("end", "prefix", "reason", "start")

    def __init__(self, start: int, end: int, reason: str, prefix: str = "") -> None:
        self.start = start  # the value's first character (0-based)
        self.end = end  # after its last
        self.reason = reason  # "holds a Hugging Face token (hf_…)", "assigns a literal secret to HF_TOKEN"
        self.prefix = prefix  # the well-known prefix messages may show (hf_), or nothing

    def _fields(self) -> tuple[int, int, str, str]:
        return (self.start, self.end, self.reason, self.prefix)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"Secret(start={self.start!r}, end={self.end!r}, reason={self.reason!r}, prefix={self.prefix!r})"
        )


def secret_name(name: str) -> bool:
    """Whether a variable or flag name says its value is a secret (HF_TOKEN, --wandb-api-key)."""
    parts = [p for p in _NAME_PARTS.split(name.strip("-").upper()) if p]
    if not parts:
        return False
    last = parts[-1]
    if last in SECRET_WORDS:
        ordinary = last in ("TOKEN", "KEY") and len(parts) > 1 and parts[-2] in _ORDINARY_QUALIFIERS
        return not ordinary or not _STRONG_WORDS.isdisjoint(parts[:-1])
    return last not in _POINTERS and not _STRONG_WORDS.isdisjoint(parts)


_SCALAR = (str, int, float)  # a tuple: a union here would be made at every call


def literal(value: Any) -> bool:
    """Whether ``value`` is written out, rather than a path, a reference or a switch."""
    if isinstance(value, bool) or not isinstance(value, _SCALAR):
        return False
    text = str(value).strip().strip("'\"")  # a number is a literal too: DB_PASSWORD: 123456
    if text.lower() in _NOT_SECRET_VALUES or text in _PUBLISHED_DEFAULTS or "$" in text:
        return False
    if text.lower() in _DUMMY_VALUES:
        return False
    if text.startswith("<") and text.endswith(">"):
        return False  # a tokenizer's special token or a placeholder: <|endoftext|>, </s>, <your-key>
    return not text.startswith(("/", "./", "../", "~"))


def _shapes(text: str) -> Iterator[Secret]:
    """Every known token shape in ``text``, in the order of `SHAPES`, then URL passwords."""
    for index, needles in enumerate(_NEEDLES):
        if not any(needle in text for needle in needles):
            continue
        what = SHAPES[index][0]
        for match in _pattern(index).finditer(text):
            prefix = match.group(1).rstrip()
            yield Secret(match.start(1), match.end(), f"{what} ({prefix}…)", prefix)
    if "@" in text:
        for run in _BEFORE_AT.finditer(text):
            inner, base = run.group(1), run.start(1)
            # the run's own start counts only after a space, a quote, `://` or the line's start
            at_start = base == 0 or text[base - 1] in " \t\r\n'\"" or text.endswith("://", 0, base)
            user = _USER.search(inner, 0 if at_start else 1)
            if user is not None:
                name = user.group(1)
                yield Secret(base + user.end(1), run.end(1), f"{_URL_WHAT} ({name}…)", name)


# Any literal a shape starts with, or a URL's `@`: a text without one holds no shape. The shapes'
# own prefilter, narrower than `PREFILTER` (whose secret words, `pat` and `key` among them, are in
# most paths and names); a spec's JC702 asks it of every string the spec holds.
_SHAPE_NEEDLES = _later("|".join([*(re.escape(n) for needles in _NEEDLES for n in needles), "@"]))


def shape(text: str) -> str | None:
    """``what (prefix…)`` for the first known token shape in ``text``; never the token itself."""
    if _SHAPE_NEEDLES.search(text) is None:
        return None
    for found in _shapes(text):
        return found.reason
    return None


_ALL_NEEDLES = (*(n for needles in _NEEDLES for n in needles), "@")


def shapeless(texts: Iterable[str]) -> bool:
    """Whether `shape` finds nothing in any of ``texts``: each literal a shape starts with (and
    the URL's `@`) looked for once in all of them, joined by line breaks, which none holds (a
    spec's JC702 asks it of its every string; over a long text a substring search per literal
    is several times as fast as the alternation `shape` runs on one value)."""
    joined = "\n".join(texts)
    for needle in _ALL_NEEDLES:  # noqa: SIM110 - a generator costs more than the searches
        if needle in joined:
            return False
    return True


def shapes(text: str) -> list[Secret]:
    """Every known token shape in ``text``, with where its value is."""
    if _SHAPE_NEEDLES.search(text) is None:
        return []
    return [Secret(s.start, s.end, f"holds {s.reason}", s.prefix) for s in _shapes(text)]


def words(line: str) -> list[tuple[str, int, int]]:
    """A shell line's words with quotes removed, and where each stands (start, end; 0-based)."""
    out = []
    for match in _WORD.finditer(line):
        raw = match.group()
        if raw.startswith("#"):
            break  # a comment
        text = raw if "'" not in raw and '"' not in raw else _unquote(raw)
        out.append((text, match.start(), match.end()))
    return out


def _unquote(raw: str) -> str:
    return re.sub(r"'([^']*+)'|\"((?:[^\"\\]++|\\.)*+)\"", lambda m: m.group(1) or m.group(2) or "", raw)


def flag_values(items: list[str]) -> Iterator[tuple[int, str, str]]:
    """(index of the value, flag, value) for `--flag=value` and `--flag value` pairs."""
    for i, word in enumerate(items):
        if not word.startswith("-"):
            continue
        flag, eq, value = word.partition("=")
        if eq:
            yield i, flag, value
        elif i + 1 < len(items) and not items[i + 1].startswith("-"):
            yield i + 1, flag, items[i + 1]


def in_line(line: str) -> list[Secret]:
    """The literal secrets a shell line writes: assignments, flag values, passwords, token shapes.

    The first is the line's reason; each secret's value is where `mask` hides it.
    """
    if not may_hold(line):
        return []
    found: list[Secret] = []
    for match in _ASSIGN.finditer(line):
        name, value = match.groups()
        if secret_name(name) and literal(value):
            found.append(Secret(match.start(2), match.end(2), f"assigns a literal secret to {name}"))
    ws = words(line)
    texts = [text for text, _, _ in ws]
    for i, flag, value in flag_values(texts):
        start, end = ws[i][1], ws[i][2]
        if texts[i].startswith("-") and "=" in texts[i]:
            start += line.index("=", start, end) + 1 - start
        if secret_name(flag) and literal(value):
            found.append(Secret(start, end, f"passes a literal secret to {flag}"))
        elif flag == "-p" and literal(value) and TAKES_PASSWORD_P & set(texts):
            found.append(Secret(start, end, "passes a literal password to -p"))
    if _WANDB in texts and "login" in texts:
        for match in HEX40.finditer(line):
            reason = "logs in to W&B with a literal 40-hex-digit API key"
            found.append(Secret(match.start(), match.end(), reason))
    found += shapes(line)
    return found


def mask(text: str, secrets: list[Secret] | None = None) -> str:
    """``text`` with every secret's value replaced by its well-known prefix and `…`.

    Messages that quote a script's or a spec's text (a directive, a setup line) pass it through
    here, so they never repeat a token, whichever rule writes them.
    """
    found = in_line(text) if secrets is None else secrets
    if not found:
        return text
    spans: list[tuple[int, int, str]] = []
    for s in sorted(found, key=lambda s: (s.start, -s.end)):
        if spans and s.start < spans[-1][1]:
            last = spans[-1]
            spans[-1] = (last[0], max(last[1], s.end), last[2])
            continue
        # a shape's span starts at its prefix, which stays; any other value is hidden whole
        keep = s.prefix if text.startswith(s.prefix, s.start) and s.prefix else ""
        spans.append((s.start, s.end, keep))
    out, at = [], 0
    for start, end, keep in spans:
        out.append(text[at:start])
        out.append(f"{keep}…")
        at = end
    out.append(text[at:])
    return "".join(out)
