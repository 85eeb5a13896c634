"""`path:line:col: CODE [severity] message`, with the source line and a caret on a terminal."""

from __future__ import annotations

from collections.abc import Sequence

from jobc.core.colour import wanted
from jobc.core.diagnostics import Finding, Severity
from jobc.lint.report.safe import visible

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import TextIO

_COLOURS = {Severity.ERROR: "\033[31m", Severity.WARNING: "\033[33m", Severity.INFO: "\033[36m"}
_RESET, _BOLD, _DIM = "\033[0m", "\033[1m", "\033[2m"


def line(f: Finding) -> str:
    return f"{visible(f.file)}:{f.span.line}:{f.span.col}: {f.code} [{f.severity}] {visible(f.message)}"


def also(f: Finding) -> list[str]:
    """The finding's related locations, one indented line each (`  also: file:line:col: why`)."""
    return [
        f"  also: {visible(r.file or f.file)}:{r.span.line}:{r.span.col}: {visible(r.message)}"
        for r in f.related
    ]


def _redact(value: str) -> str:
    """Keep quotes and the first three characters (a token's kind, such as hf_), hide the rest."""
    quote = value[0] if value[:1] in ("'", '"') else ""
    inner = value[len(quote) : len(value) - len(quote)] if quote else value
    return quote + inner[:3] + "*" * max(len(inner) - 3, 0) + quote


def _secret_spans(findings: Sequence[Finding]) -> dict[tuple[str, int], list[tuple[int, int]]]:
    """Where JC702 found a secret, by file and line: every source line shown hides them, whichever
    finding it is shown for (JC407 on NCCL_IB_TOKEN shows the same line)."""
    out: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for f in findings:
        if f.code == "JC702" and f.span.end_line == f.span.line:
            out.setdefault((f.file, f.span.line), []).append((f.span.col - 1, f.span.end_col - 1))
    return out


def write(findings: Sequence[Finding], sources: dict[str, list[str]], out: TextIO, tty: bool) -> None:
    """Findings as text; on a terminal (`tty`) with their source line, a caret and the name, in
    colour unless `--color`, `NO_COLOR` or `TERM=dumb` says otherwise (`jobc.core.colour`)."""
    paint = wanted(out)
    bold, reset, dim = (_BOLD, _RESET, _DIM) if paint else ("", "", "")
    secrets = _secret_spans(findings) if tty else {}
    for f in findings:
        if not tty:
            if paint:  # --color=always on a pipe: the same line, coloured
                c = _COLOURS[f.severity]
                where = f"{visible(f.file)}:{f.span.line}:{f.span.col}:"
                text = f"{where} {c}{f.code}{_RESET} [{c}{f.severity}{_RESET}] {visible(f.message)}"
                out.write("".join(t + "\n" for t in (text, *also(f))))
            else:
                out.write("".join(text + "\n" for text in (line(f), *also(f))))
            continue
        colour = _COLOURS[f.severity] if paint else ""
        out.write(
            f"{bold}{visible(f.file)}:{f.span.line}:{f.span.col}:{reset} {colour}{f.code}{reset} "
            f"[{colour}{f.severity}{reset}] {visible(f.message)} {dim}({f.name}){reset}\n"
        )
        lines = sources.get(f.file, [])
        if 0 < f.span.line <= len(lines):
            text = lines[f.span.line - 1].replace("\t", " ")
            width = (f.span.end_col - f.span.col) if f.span.end_line == f.span.line else 1
            width = max(1, min(width, len(text) - f.span.col + 1))
            for start, end in secrets.get((f.file, f.span.line), ()):
                # the source line would show the secret on screen (and in any recorded terminal)
                text = text[:start] + _redact(text[start:end]) + text[end:]
            gutter = f"{f.span.line:>4} | "
            out.write(f"{dim}{gutter}{reset}{visible(text)}\n")
            out.write(" " * len(gutter) + " " * (f.span.col - 1) + colour + "^" * width + reset + "\n")
        for text in also(f):
            out.write(f"{dim}{text}{reset}\n")
    if tty and findings:
        counts = {s: sum(1 for f in findings if f.severity == s) for s in Severity}
        parts = [f"{n} {s}{'s' if n != 1 else ''}" for s, n in sorted(counts.items(), reverse=True) if n]
        out.write(f"Found {', '.join(parts)}.\n")
