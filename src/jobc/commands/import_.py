"""`jobc import SCRIPT [-o SPEC]`: an sbatch script → a v1 spec that does what it does."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jobc.commands import Exit
from jobc.commands.common import CommandError

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
            raise CommandError(f"{shown}: no such file")
        facts = read(path, args.script)
    except CommandError as exc:
        print(f"jobc import: {exc}", file=sys.stderr)
        return Exit.ERROR
    except OSError as exc:
        print(f"jobc import: {shown}: cannot read: {exc.strerror or exc}", file=sys.stderr)
        return Exit.ERROR
    for problem in facts.problems:
        where = f"{visible(facts.file)}:{problem.span.line}:{problem.span.col}"
        print(f"{where}: {visible(_masked(problem.message))}", file=sys.stderr)
    if not facts.readable:
        print(f"jobc import: {shown}: not imported: the script cannot be read", file=sys.stderr)
        return Exit.FINDINGS
    derived = imported(facts)
    refused = _refused(facts)
    for line in refused:
        print(visible(line), file=sys.stderr)
    try:
        text = render(derived, facts)
    except Unwritable as exc:
        span = _span_of(derived, exc.path)
        at = f"line {span.line}: " if span is not None else ""
        name = ".".join(map(str, exc.path))
        print(f"jobc import: {shown}: not imported: {at}{name}: {exc.why}", file=sys.stderr)
        return Exit.FINDINGS
    print(summary(derived, facts, args.output), file=sys.stderr, end="")
    if args.output is None:
        sys.stdout.write(text)
        return Exit.FINDINGS if refused else Exit.OK
    from jobc.core.atomic import replace

    try:
        replace(args.output, text)
    except OSError as exc:
        print(f"jobc import: {visible(args.output)}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return Exit.ERROR
    return Exit.FINDINGS if refused else Exit.OK


def _span_of(derived: Derived, path: tuple[str | int, ...]) -> Any:
    for n in range(len(path), 0, -1):
        if (span := derived.spans.get(path[:n])) is not None:
            return span
    return None


def imported(facts: ScriptFacts) -> Derived:
    """The import view, with every value the spec rules object to taken out (and said why)."""
    from jobc.script.spec import derive

    derived = derive(facts, for_lint=False)
    _leave_out_refused(facts, derived)
    for _ in range(3):
        problems = _pitfalls(derived)
        if not problems:
            break
        for path, code, message in problems:
            span = derived.spans.get(path)
            if _remove(derived.data, path):
                line = derived.labels.get(path) or ".".join(map(str, path))
                derived.skip(span or _first(facts), line, f"left out, {code}: {message.split(';')[0]}")
    resilience = derived.data.get("resilience", {})
    if "signal" not in resilience:
        resilience.pop("grace_s", None)  # a grace window without its signal means nothing
    derived.unmapped.sort(key=lambda u: u.line)
    return derived


def _refused(facts: ScriptFacts) -> list[str]:
    """The JC809 findings of the script, as lint prints them: import left their values out."""
    from jobc.lint.rules import RULES
    from jobc.script.refused import problems

    meta = RULES["JC809"].meta
    return [
        f"{facts.file}:{p.span.line}:{p.span.col}: JC809 [{meta.severity}] {_masked(p.message)}"
        for p in problems(facts)
    ]


def _leave_out_refused(facts: ScriptFacts, derived: Derived) -> None:
    """Values sbatch, srun, bash or the launcher refuse (JC809): out of the spec, said why."""
    from jobc.script.refused import problems

    for problem in problems(facts):
        for path in [p for p, span in derived.spans.items() if span == problem.span]:
            if _remove(derived.data, path):
                name = ".".join(map(str, path))
                derived.unknown.append(f"{name}: line {problem.span.line} is refused (JC809); write it")
            derived.spans.pop(path, None)
        derived.skip(problem.span, problem.what, f"left out, JC809: {problem.message}")


def _first(facts: ScriptFacts) -> Any:
    from jobc.core.diagnostics import Span

    return Span.point(1, 1)


def _pitfalls(derived: Derived) -> list[tuple[tuple[str | int, ...], str, str]]:
    from jobc.lint.rules import RULES
    from jobc.spec import fastcheck
    from jobc.spec.context import Context
    from jobc.spec.plain import JobSpec

    if not fastcheck.valid(derived.data, "JobSpec"):
        return []
    ctx = Context(spec=JobSpec.build(derived.data), data=derived.data, own=derived.data)
    out = []
    for code, rule in RULES.items():
        # the pitfalls linting the script reports; the spec-only advice stays for the user to read
        if rule.check is None or rule.script_check is None:
            continue
        for hit in rule.check(ctx):
            if hit.severity is None and rule.meta.severity.name == "INFO":
                continue
            if _exists(derived.data, hit.path) and hit.path[:1] not in (("name",), ("version",)):
                out.append((hit.path, code, hit.message))
    return out


def _exists(data: Any, path: tuple[str | int, ...]) -> bool:
    node = data
    for part in path:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            return False
    return not isinstance(node, dict)


def _remove(data: Any, path: tuple[str | int, ...]) -> bool:
    node = data
    for part in path[:-1]:
        if not _exists_in(node, part):
            return False
        node = node[part]
    last = path[-1]
    if isinstance(node, dict) and last in node:
        del node[last]
        return True
    if isinstance(node, list) and isinstance(last, int) and 0 <= last < len(node):
        del node[last]
        return True
    return False


def _exists_in(node: Any, part: str | int) -> bool:
    if isinstance(node, dict):
        return part in node
    return isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)


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
        _put(data, path, escape(text))
    header = [
        f"Imported from {facts.file} by `jobc import`.",
        "Each value names the script line it came from; lines not mapped are listed at the end.",
        *(_masked(f"jobc: {note}") for note in derived.notes),
        *(_masked(f"Not known: {line}") for line in derived.unknown),
    ]
    footer = []
    if derived.unmapped:
        footer = ["", "Not mapped from the script:"]
        footer += [
            f"  line {u.line}: {_masked(_one_line(u.text))} — {_masked(u.why)}" for u in derived.unmapped
        ]
    notes = {path: f"line {span.line}" for path, span in derived.spans.items()}
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


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 70 else text[:67] + "…"


def summary(derived: Derived, facts: ScriptFacts, output: str | None) -> str:
    from jobc.core.text import visible

    where = visible(output) if output else "stdout"
    lines = [f"jobc import: {visible(facts.file)} → {where}"]
    lines += [f"  not known: {visible(_masked(line))}" for line in derived.unknown]
    if derived.unmapped:
        lines.append(f"  {len(derived.unmapped)} line(s) not mapped:")
        lines += [
            f"    line {u.line}: {visible(_masked(_one_line(u.text)))} — {visible(_masked(u.why))}"
            for u in derived.unmapped
        ]
    return "\n".join(lines) + "\n"
