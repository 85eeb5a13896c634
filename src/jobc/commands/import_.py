"""`jobc import SCRIPT [-o SPEC]`: an sbatch script → a v1 spec that does what it does."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jobc.commands import Exit
from jobc.commands.common import CommandError, not_a_file

if TYPE_CHECKING:
    from jobc.script.facts import ScriptFacts
    from jobc.script.spec import Derived

# the order a spec's sections are written in, as in the examples
_ORDER = (
    "version",
    "name",
    "slurm",
    "resources",
    "launch",
    "env",
    "fabric",
    "container",
    "storage",
    "resilience",
)


def register(sub: Any, name: str) -> None:
    p = sub.add_parser(
        name,
        help="turn an sbatch script into a spec",
        description=(
            "Write a v1 spec that does what an sbatch script does. Each value names the script "
            "line it came from; lines that were not mapped are listed at the end, with why."
        ),
    )
    p.add_argument("script", metavar="SCRIPT")
    p.add_argument("-o", "--output", metavar="SPEC", help="write the spec here (default: stdout)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from jobc.core.text import visible
    from jobc.script.parse import read
    from jobc.script.writer import Unwritable

    shown = visible(args.script)
    path = Path(args.script)
    try:
        if not path.is_file():
            raise CommandError(f"{shown}: {not_a_file(path)}")
        facts = read(path, args.script)
    except CommandError as exc:
        print(f"jobc import: {exc}", file=sys.stderr)
        return Exit.ERROR
    except OSError as exc:
        print(f"jobc import: {shown}: cannot read: {exc.strerror or exc}", file=sys.stderr)
        return Exit.ERROR
    if not facts.readable:
        # one line: what stopped the import (a binary file, another shell, a size limit)
        why = f": {visible(_masked(facts.problems[0].message))}" if facts.problems else ""
        print(f"jobc import: {shown}: not imported: the script cannot be read{why}", file=sys.stderr)
        return Exit.FINDINGS
    split = _split_apart(facts.lines)
    if split is not None:
        row, col, name = split
        print(
            f"jobc import: {shown}:{row}:{col}: not imported: a {name} is part of a word to bash, "
            "but jobc's shell grammar ends a word there, so the spec would run another command than "
            "the script; remove it or write a space",
            file=sys.stderr,
        )
        return Exit.FINDINGS
    for problem in facts.problems:
        where = f"{visible(facts.file)}:{problem.span.line}:{problem.span.col}"
        print(f"{where}: {visible(_masked(problem.message))}", file=sys.stderr)
    from jobc.lint.imported import imported, refused

    derived = imported(facts)
    refusals = refused(facts)
    for line in refusals:
        print(visible(line), file=sys.stderr)
    try:
        text = render(derived, facts)
    except Unwritable as exc:
        span = _span_of(derived, exc.path)
        at = f"line {span.line}: " if span is not None else ""
        name = ".".join(map(str, exc.path))
        print(f"jobc import: {shown}: not imported: {at}{name}: {exc.why}", file=sys.stderr)
        return Exit.FINDINGS
    if args.output is None:
        print(summary(derived, facts, args.output), file=sys.stderr, end="")
        sys.stdout.write(text)
        _partial(shown, len(refusals), "stdout")
        return Exit.OK
    from jobc.core.atomic import replace

    try:
        replace(args.output, text)
    except OSError as exc:
        print(f"jobc import: {visible(args.output)}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return Exit.ERROR
    # said once the spec is written: a write that failed is the one line of the answer
    print(summary(derived, facts, args.output), file=sys.stderr, end="")
    _partial(shown, len(refusals), visible(args.output))
    return Exit.OK


def _partial(shown: str, refused: int, where: str) -> None:
    """The last line when the script holds values sbatch, srun or bash refuses: the spec is
    written all the same, without them. The import did its work (the exit status is 0, as for a
    program it could not read, which the spec says as not known); the script itself is what
    sbatch, srun or bash would refuse, and `jobc lint` of it fails with those JC809 findings."""
    if refused:
        print(
            f"jobc import: {shown}: note: the spec in {where} leaves out {refused} value(s) the script "
            "holds that sbatch, srun or bash refuses (JC809, above, each listed as not mapped); "
            "everything else was read",
            file=sys.stderr,
        )


#: Characters bash reads as part of a word (its blanks are space and tab) that the shell grammar
#: jobc parses with takes for whitespace between words.
_NOT_BLANKS = {"\x0b": "vertical tab (U+000B)", "\x0c": "form feed (U+000C)"}


def _split_apart(lines: list[str]) -> tuple[int, int, str] | None:
    """The first such character outside a comment line: line, column and its name."""
    for number, text in enumerate(lines, 1):
        if text.lstrip(" \t").startswith("#"):
            continue
        for col, char in enumerate(text, 1):
            if char in _NOT_BLANKS:
                return number, col, _NOT_BLANKS[char]
    return None


def _span_of(derived: Derived, path: tuple[str | int, ...]) -> Any:
    for n in range(len(path), 0, -1):
        if (span := derived.spans.get(path[:n])) is not None:
            return span
    return None


def render(derived: Derived, facts: ScriptFacts) -> str:
    """The spec's YAML text: written by `jobc.script.writer`, which escapes every text in it;
    literal braces escaped for interpolation, secrets masked in the comments. Raises
    `Unwritable` for a value no spec can hold."""
    import copy

    from jobc.script.writer import document
    from jobc.spec.interpolate import escape, fields

    data = copy.deepcopy(derived.data)
    for path, text in list(fields(data)):
        # `ckpt-{epoch}.pt` is the program's own template, not a reference to a spec value
        if path not in derived.templated:
            _put(data, path, escape(text))
    header = [
        f"Imported from {facts.file} by `jobc import`.",
        "Each value names the script line it came from; lines not mapped are listed at the end.",
        *([_masked(f"jobc: {derived.choice}")] if derived.choice else []),
        *(_masked(f"jobc: {note}") for note in derived.notes),
        *(_masked(f"jobc: {note}") for note in derived.added),
        *(_masked(f"Not known: {line}") for line in derived.unknown),
    ]
    footer = []
    if derived.unmapped:
        footer = ["", "Not mapped from the script:"]
        footer += [
            # the line whole up to a bound only hostile input reaches: the spec is where the user
            # reads what was not carried, and a word past a cut (an option a launcher refuses) is
            # what they need to see
            f"  line {u.line}: {_masked(_one_line(u.text, _LISTED))} — {_masked(u.why)}"
            for u in derived.unmapped
        ]
    notes = {path: f"line {span.line}" for path, span in derived.spans.items()}
    notes.update(derived.sources)
    required = ("version", "name", "resources", "launch")
    return document(data, order=_ORDER, header=header, notes=notes, footer=footer, required=required)


def _put(data: Any, path: tuple[str | int, ...], value: Any) -> None:
    node = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value


def _masked(text: str) -> str:
    """A script's text for a comment or a message, with every secret in it masked as JC702 masks it."""
    from jobc.tables.secrets import mask

    return mask(text)


# the width of a line's text in the terminal's summary, and in the spec's listing
_SHOWN = 70
_LISTED = 500


def _one_line(text: str, width: int | None = None) -> str:
    """``text`` on one line; cut to ``width`` with `…` (the terminal's summary, which points to
    the spec's whole listing), or whole."""
    # bash's blanks only: `str.split` also breaks at `\r`, `\x1c`–`\x1f`, `\x85` and U+2028,
    # which are characters of a word to bash (written escaped), not spaces between words
    text = " ".join(w for w in text.replace("\t", " ").replace("\n", " ").split(" ") if w)
    return text if width is None or len(text) <= width else text[: width - 3] + "…"


def summary(derived: Derived, facts: ScriptFacts, output: str | None) -> str:
    from jobc.core.text import visible

    where = visible(output) if output else "stdout"
    lines = [f"jobc import: {visible(facts.file)} → {where}"]
    if derived.choice:
        lines.append(f"  {visible(_masked(derived.choice))}")
    lines += [f"  {visible(_masked(line))}" for line in derived.added]
    lines += [f"  not known: {visible(_masked(line))}" for line in derived.unknown]
    if derived.unmapped:
        whole = f" (each up to {_LISTED} characters in {where})" if output else ""
        lines.append(f"  {len(derived.unmapped)} line(s) not mapped{whole}:")
        lines += _unmapped_lines(derived, where)
    return "\n".join(lines) + "\n"


# lines of the plainest kinds the summary shows before it counts the rest
_PLAIN_SHOWN = 10


def _unmapped_lines(derived: Derived, where: str) -> list[str]:
    """Every line not mapped for a reason the user must read; of the plain ones (a helper
    command, a line that is not a launch), the first few and a count: the spec lists them all."""
    from jobc.core.text import visible
    from jobc.script.carry import HELPER, NOT_A_LAUNCH

    out: list[str] = []
    plain = 0
    for u in derived.unmapped:
        if u.why in (HELPER, NOT_A_LAUNCH):
            plain += 1
            if plain > _PLAIN_SHOWN:
                continue
        text = visible(_masked(_one_line(u.text, _SHOWN)))
        out.append(f"    line {u.line}: {text} — {visible(_masked(u.why))}")
    if plain > _PLAIN_SHOWN:
        out.append(
            f"    … and {plain - _PLAIN_SHOWN} more helper commands or lines that are not a launch, "
            f"each listed in the spec ({where})"
        )
    return out
