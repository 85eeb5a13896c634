"""`#SBATCH` lines by sbatch's own rules.

sbatch reads `#SBATCH` lines from the top of the script and stops at the first line that is
neither blank nor a comment: directives after the first command are ignored without a word.
Within a line, options are split into words as a shell would (quotes group), a word starting with
`#` begins a comment, and each option is written `--name=value`, `--name value`, `-Xvalue` or
`-X value`.
"""

from __future__ import annotations

from collections.abc import Iterator

from jobc.core.diagnostics import Span
from jobc.core.lazyre import lazy
from jobc.script.facts import Directive
from jobc.tables.slurm_options import (
    FLAG_VALUES,
    OPTIONAL_VALUE,
    SBATCH_FLAGS,
    SBATCH_OPTIONS,
    SBATCH_SHORT,
    SHORT_OPTIONAL,
    is_pyxis,
    long_name,
    long_options,
)

PREFIX = "#SBATCH"

# sbatch's blanks are C's isspace(): a vertical tab and a form feed separate words too
_BLANKS = " \t\r\v\f"
_PLAIN_WORD = lazy(r"[^ \t\r\v\f]+")


def is_directive(line: str) -> bool:
    # sbatch (22.05) reads `#SBATCH--job-name=x` and `#SBATCH-J x` too: it skips blanks after
    # the prefix but needs none; `#SBATCHX --job-name=x` it refuses outright.
    return line.startswith(PREFIX) and (len(line) == len(PREFIX) or line[len(PREFIX)] in " \t\r\v\f-")


def parse_line(line: str, number: int, honoured: bool) -> Iterator[Directive]:
    """The options of one `#SBATCH` line (1-based ``number``)."""
    words = list(_words(line, len(PREFIX)))

    def make(name: str, value: str | None, start: int, end: int, text: str) -> Directive:
        # a word that ends at an unquoted `#` was cut there by sbatch's reader
        cut = end < len(line) and line[end] == "#"
        return Directive(name, value, _span(number, start, end), honoured, text, cut=cut)

    i = 0
    while i < len(words):
        text, start, end = words[i]
        i += 1
        if text.startswith("--") and len(text) > 2:
            name, eq, value = text[2:].partition("=")
            name = long_name(name)  # getopt_long reads a unique prefix as its option
            if eq:
                yield make(name, value, start, end, text)
                continue
            if (
                name in SBATCH_FLAGS
                or name in OPTIONAL_VALUE
                or i >= len(words)
                or (words[i][0].startswith("-") and not _needs_value(name))
            ):
                yield make(name, None, start, end, text)
                continue
            value, _, vend = words[i]
            i += 1
            yield make(name, value, start, vend, f"{text} {value}")
        elif text.startswith("-") and len(text) > 1:
            letter = text[1]
            name = SBATCH_SHORT.get(letter, letter)
            if letter in SHORT_OPTIONAL and len(text) > 2:
                yield make(name, text[2:], start, end, text)  # getopt's optional value: `=` and all
            elif name in SBATCH_FLAGS:
                yield make(name, None, start, end, text)
            elif len(text) > 2:
                yield make(name, text[2:].removeprefix("="), start, end, text)
            elif i < len(words):
                value, _, vend = words[i]
                i += 1
                yield make(name, value, start, vend, f"{text} {value}")
            else:
                yield make(name, None, start, end, text)
        # a stray word (not an option) is ignored by sbatch's parser too


def refused(line: str) -> bool:
    """Whether sbatch refuses (or may refuse) a script with this `#SBATCH` line: an unmatched quote
    ("Unmatched `'` in …"), a word that is neither an option nor an option's value ("Invalid
    directive found in batch script"), or an option it may not know."""
    return _unmatched_quote(line[len(PREFIX) :]) or bool(strays(line)) or _unknown_option(line)


def _unknown_option(line: str) -> bool:
    """Whether the line names an option this sbatch does not know (`sbatch: unrecognized
    option`, or `invalid option -- '='` for a letter, and no job). A site's plugin may add a long
    one, but a fix cannot know that: moving or switching on such a line could make sbatch refuse
    a script it ran."""
    for d in parse_line(line, 1, True):
        if d.name in FLAG_VALUES and d.value is not None and d.value.lower() not in FLAG_VALUES[d.name]:
            return True  # a flag given a value it does not take (`-k=40`): sbatch refuses the script
        if d.text.startswith("--") and d.name not in SBATCH_OPTIONS and not is_pyxis(d.name):
            return True  # unknown, or a prefix of several options (`--g`: sbatch refuses it)
        if d.text.startswith("-") and not d.text.startswith("--") and d.name not in SBATCH_OPTIONS:
            return True  # a letter sbatch has no short option for: no name was found for it
        short = d.text.startswith("-") and not d.text.startswith("--")
        if short and d.name in SBATCH_FLAGS and _letters_refused(d.text[2:]):
            return True  # `-s=1`: after a flag, getopt reads the word's next letter as an option
    return False


def _letters_refused(rest: str) -> bool:
    """Whether getopt refuses the letters after a short flag in one word (`-s=1` is `-s` then `-=`,
    which sbatch has not): each is an option of its own, up to one that takes the rest as its value."""
    for letter in rest:
        name = SBATCH_SHORT.get(letter)
        if name is None:
            return True
        if name not in SBATCH_FLAGS:
            return False
    return False


def sbatch_comment_at(line: str) -> int:
    """Where sbatch's reading of an `#SBATCH` line ends: the index of its first unquoted `#` after
    the prefix (a backslash takes the next character), or -1 when the whole line is words to it."""
    quote, i = "", len(PREFIX)
    while i < len(line):
        ch = line[i]
        if ch == "\\":
            i += 2
            continue
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            return i
        i += 1
    return -1


def _unmatched_quote(rest: str) -> bool:
    """sbatch's own reading: a backslash takes the next character, an unquoted `#` ends the line."""
    quote, i = "", 0
    while i < len(rest):
        ch = rest[i]
        if ch == "\\":
            i += 2
            continue
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#":  # sbatch ends the line at any unquoted `#`, even inside a word
            return False
        i += 1
    return bool(quote)


def strays(line: str) -> list[str]:
    """The words of an `#SBATCH` line that are neither an option nor an option's value: sbatch
    refuses a script with one ("Invalid directive found in batch script")."""
    words = [w for w, _, _ in _words(line, len(PREFIX))]
    out, i = [], 0
    while i < len(words):
        text = words[i]
        i += 1
        if text.startswith("--") and len(text) > 2:
            name = long_name(text[2:].partition("=")[0])
            takes = "=" not in text and name not in SBATCH_FLAGS and name not in OPTIONAL_VALUE
            if takes and i < len(words) and (not words[i].startswith("-") or _needs_value(name)):
                i += 1
        elif text.startswith("-") and len(text) > 1:
            name = SBATCH_SHORT.get(text[1], text[1])
            if len(text) == 2 and name not in SBATCH_FLAGS and i < len(words):
                i += 1
        elif text:
            out.append(text)
    return out


def _needs_value(name: str) -> bool:
    """Whether sbatch's getopt takes the next word as this long option's value whatever it is:
    `#SBATCH --nodes --ntasks=2` asks for the node count `--ntasks=2` (which sbatch refuses), not
    for two tasks. An option sbatch does not know (a site's plugin's) may take no value, so a word
    after it that starts with `-` stays an option of its own."""
    return name in SBATCH_OPTIONS and name not in SBATCH_FLAGS and name not in OPTIONAL_VALUE


def _span(line: int, start: int, end: int) -> Span:
    return Span(line, start + 1, line, end + 1)


def _words(line: str, offset: int) -> Iterator[tuple[str, int, int]]:
    """Shell-like words from ``offset``: (text without quotes, start, end) in 0-based columns."""
    if "'" not in line and '"' not in line:
        # no quotes (nearly every line): a word is a run of non-blanks, found by the regex engine
        for m in _PLAIN_WORD.finditer(line, offset):
            hash_at = m.group().find("#")
            if hash_at == 0:
                return
            if hash_at > 0:
                # sbatch ends the line at a `#` even inside a word (`--job-name=abc#def` names the
                # job abc: tried on the test cluster)
                yield m.group()[:hash_at], m.start(), m.start() + hash_at
                return
            yield m.group(), m.start(), m.end()
        return
    i, n = offset, len(line)
    while i < n:
        while i < n and line[i] in _BLANKS:
            i += 1
        if i >= n or line[i] == "#":
            return
        start = i
        out: list[str] = []
        quote = ""
        while i < n and (quote or line[i] not in _BLANKS):
            ch = line[i]
            if ch == "#" and not quote:
                yield "".join(out), start, i  # the rest of the line is a comment to sbatch
                return
            if quote:
                if ch == quote:
                    quote = ""
                else:
                    out.append(ch)
            elif ch in "'\"":
                quote = ch
            else:
                out.append(ch)
            i += 1
        yield "".join(out), start, i


def ambiguous(d: Directive) -> list[str]:
    """The options a directive's long name is a prefix of when it is a prefix of several: sbatch's
    getopt_long refuses it ("option '--g' is ambiguous") and sbatch the script; else none."""
    if not d.text.startswith("--"):
        return []
    found = long_options(d.text[2:].partition("=")[0].partition(" ")[0])
    return found if len(found) > 1 else []
