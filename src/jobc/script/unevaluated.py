"""The variables a command sets in a way the script reader does not evaluate.

bash sets a variable through more than assignments: `read B`, `mapfile B` (`readarray`),
`printf -v B …`, `getopts … B`, `wait -p B`, `let B=…`, an arithmetic `((B=3))` or `$((B++))`,
a `for B in …` or `select B in …` loop, and `declare -i B=2+3` (its value is arithmetic) or
`declare -n B=C` (a name for another variable). The reader follows none of these: after one, the
variable's value is not known, never the value it had before (`export B=1` then `read B <<< 5`
runs the program with B=5, not 1). Each function here names what a form sets, from its words as
written; the walk (`jobc.script.flow`) makes those variables unknown.
"""

from __future__ import annotations

from jobc.core.lazyre import lazy

_NAME = lazy(r"[A-Za-z_][A-Za-z0-9_]*")
# in arithmetic: NAME = …, NAME += … (every compound operator), NAME++, NAME--, ++NAME, --NAME
_ARITH_SET = lazy(
    r"(?<![\w$])([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?\s*(?:(?:[-+*/%&|^]|<<|>>)?=(?!=)|\+\+|--)"
    r"|(?:\+\+|--)\s*([A-Za-z_][A-Za-z0-9_]*)"
)

# the builtins that set variables they are given by name, with their options that take a value
# (the next word, or the rest of the option's word), the option whose value is a name they set,
# and the variable they set when given none
_BUILTINS: dict[str, tuple[str, str, str | None]] = {
    "read": ("adinNptu", "a", "REPLY"),
    "mapfile": ("dnOsuCc", "", "MAPFILE"),
    "readarray": ("dnOsuCc", "", "MAPFILE"),
    "printf": ("v", "v", None),
    "wait": ("p", "p", None),
}


def _options(words: list[str], valued: str, naming: str) -> tuple[list[str], list[str]]:
    """The names an option gives (`-a NAME`, `-vNAME`) and the words after the options."""
    named: list[str] = []
    i = 0
    while i < len(words) and words[i].startswith("-") and len(words[i]) > 1:
        word = words[i]
        i += 1
        if word == "--":
            break
        for k, letter in enumerate(word[1:], start=1):
            if letter not in valued:
                continue
            value = word[k + 1 :]
            if not value and i < len(words):
                value = words[i]
                i += 1
            if letter in naming:
                named.append(value)
            break
    return named, words[i:]


def sets(command: str, words: list[str]) -> list[str]:
    """The variables ``command`` with its arguments ``words`` (as written) sets and the reader
    does not evaluate."""
    if command == "let":
        return [n for w in words for n in arithmetic(w)]
    if command == "getopts":
        return [words[1]] if len(words) > 1 and _NAME.fullmatch(words[1]) else []
    form = _BUILTINS.get(command)
    if form is None:
        return []
    valued, naming, default = form
    named, rest = _options(words, valued, naming)
    if command in ("printf", "wait"):
        names = named
    elif command == "read":
        names = named + rest if named or rest else [default or ""]
    else:
        names = named + rest[-1:] if rest else [default or ""]
    return [n for n in names if _NAME.fullmatch(n)]


def arithmetic(text: str) -> list[str]:
    """The variables an arithmetic text assigns (`B=3`, `B+=2`, `B++`, `--B`)."""
    return [m.group(1) or m.group(2) for m in _ARITH_SET.finditer(text)]


def leading_options(words: list[str]) -> list[str]:
    """The option words a builtin reads (`export -n`, `declare +x`): those before its first
    argument that is not one, as bash's option reader stops there (`--` ends them too). In
    `export A=1 --gpus-per-node=8` there is none: the last word is an argument, a name bash
    refuses, not `-n`."""
    out = []
    for w in words:
        if w == "--" or w[:1] not in ("-", "+") or w in ("-", "+"):
            break
        out.append(w)
    return out


def declared(options: list[str]) -> str | None:
    """Why `declare`/`typeset`/`local` with these options gives a value the reader does not
    evaluate (`-i`: arithmetic; `-n`: another variable's name), or None."""
    letters = "".join(o[1:] for o in options if o.startswith("-"))
    if "n" in letters:
        return "a name for another variable (`-n`)"
    if "i" in letters:
        return "an integer's arithmetic (`-i`)"
    return None
