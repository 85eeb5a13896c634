"""Applying fixes: edits of one file at once, conflicts left for the next pass, re-lint until done.

`apply` is pure: text and fixes in, text and the fixes it applied out. A fix is applied whole or
not at all; a fix with an edit that overlaps an edit of a fix already taken waits for the next
pass, when the file has been linted again and the fix recomputed on the new text. `fix_file`
runs the passes (at most `MAX_PASSES`) and stops when nothing more applies; a pass that would
make the file unreadable (a new JC001 or JC800 error) is not kept.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from jobc.core.diagnostics import Finding, Fix, Severity, Span
from jobc.core.record import field, record

if TYPE_CHECKING:
    from jobc.lint.config import Config
    from jobc.lint.pipeline import Result

MAX_PASSES = 10
# Findings that mean the file can no longer be read; a pass that adds one is undone.
_UNREADABLE = frozenset({"JC001", "JC800"})
# Characters str.splitlines() breaks lines at besides \n: spans count lines by \n, and a file
# holding one of these could be read with other line numbers; such a file is not edited.
_OTHER_BREAKS = frozenset("\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


class Unfixable(ValueError):
    """The file's text cannot be edited safely by position (a reason, one line)."""


def _starts(text: str) -> list[int]:
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def _offset(starts: list[int], text: str, line: int, col: int) -> int:
    if line < 1 or line > len(starts) or col < 1:
        raise Unfixable(f"an edit at line {line}, column {col} is outside the file")
    begin = starts[line - 1]
    end = starts[line] - 1 if line < len(starts) else len(text)  # the line's \n (or the end)
    if begin + col - 1 > end + 1:
        raise Unfixable(f"an edit at line {line}, column {col} is outside the line")
    return begin + col - 1


def check_text(text: str) -> None:
    """Refuse a text whose lines could be counted differently from how findings count them."""
    stray = {c for c in text if c in _OTHER_BREAKS} - {"\r"}
    if stray or "\r" in text.replace("\r\n", ""):
        raise Unfixable("the file breaks lines with characters other than \\n or \\r\\n")


def apply(text: str, fixes: Sequence[Fix]) -> tuple[str, list[Fix]]:
    """The text with every fix applied that does not overlap one taken before it (in order of
    where its first edit starts), and the fixes taken. Edits' spans must be spans of `text`."""
    check_text(text)
    starts = _starts(text)
    crlf = "\r\n" in text
    taken: list[Fix] = []
    placed: list[tuple[int, int, int, str]] = []  # start, end, order, replacement
    resolved: list[tuple[int, Fix, list[tuple[int, int, str]]]] = []
    seen: set[tuple[tuple[int, int, str], ...]] = set()
    for fix in fixes:
        edits = []
        for edit in fix.edits:
            if not isinstance(edit.at, Span):
                raise Unfixable(f"{fix.description}: an edit without a place in the file")
            s, e = edit.at, edit.at
            start = _offset(starts, text, s.line, s.col)
            end = _offset(starts, text, e.end_line, e.end_col)
            if end < start:
                raise Unfixable(f"{fix.description}: an edit ends before it starts")
            replacement = edit.text.replace("\n", "\r\n") if crlf else edit.text
            edits.append((start, end, replacement))
        key = tuple(sorted(edits))
        if not edits or key in seen:
            continue  # the same repair offered by two findings is made once
        seen.add(key)
        resolved.append((min(start for start, _, _ in edits), fix, edits))
    resolved.sort(key=lambda item: item[0])
    for _, fix, edits in resolved:
        if any(_overlap(start, end, s, e) for start, end, _ in edits for s, e, _, _ in placed):
            continue
        for start, end, replacement in edits:
            placed.append((start, end, len(placed), replacement))
        taken.append(fix)
    out, cursor = [], 0
    for start, end, _, replacement in sorted(placed):
        out.append(text[cursor:start])
        out.append(replacement)
        cursor = end
    out.append(text[cursor:])
    return "".join(out), taken


def _overlap(a0: int, a1: int, b0: int, b1: int) -> bool:
    """Two edits touch the same text; insertions at one point do not (they go in the order taken),
    but an insertion strictly inside a replaced range does."""
    if a0 == a1 and b0 == b1:
        return False
    if a0 == a1:
        return b0 < a0 < b1
    if b0 == b1:
        return a0 < b0 < a1
    return a0 < b1 and b0 < a1


def wanted(finding: Finding, file: str, *, unsafe: bool) -> bool:
    """Whether `--fix` (with `--unsafe-fixes` when `unsafe`) applies this finding's fix to `file`."""
    return finding.fix is not None and finding.file == file and (unsafe or finding.fix.safe)


@record(frozen=False)
class Outcome:
    """What fixing one file did."""

    path: Path
    file: str  # the name findings use
    before: str
    after: str
    fixed: list[Finding] = field(default_factory=list)  # the findings whose fix was applied
    result: Result | None = None  # the lint of `after`
    stopped: str | None = None  # why fixing stopped early (a reason), when it did
    # each pass: the text it started from and the findings (placed in that text) it fixed; the
    # next pass starts from the text this one made, the last one's makes `after`
    passes: list[tuple[str, list[Finding]]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.before != self.after


LintText = Callable[[str], "Result"]


def fix_file(path: Path, file: str, text: str, lint: LintText, *, unsafe: bool) -> Outcome:
    """Fix `text` (the content of `path`, named `file` in findings) pass by pass, re-linting it."""
    outcome = Outcome(path, file, text, text)
    result = lint(text)
    for _ in range(MAX_PASSES):
        chosen = [f for f in result.findings if wanted(f, file, unsafe=unsafe)]
        if not chosen:
            break
        # a directive moved up or turned on changes the job's request, which every other rule
        # read on the text before it: those fixes go first and alone, and the others are offered
        # again on what the job then asks for (a late `--signal=B:…` makes JC807's trap moot)
        chosen = [f for f in chosen if f.code in _REQUEST_FIXES] or chosen
        try:
            new, taken = apply(outcome.after, [f.fix for f in chosen if f.fix is not None])
        except Unfixable as exc:
            outcome.stopped = str(exc)
            break
        if not taken or new == outcome.after:
            break
        again = lint(new)
        if _unreadable(again) > _unreadable(result):
            outcome.stopped = "a fix would have made the file unreadable; it was not applied"
            break
        applied = [f for f in chosen if f.fix in taken]
        outcome.passes.append((outcome.after, applied))
        outcome.fixed += applied
        outcome.after, result = new, again
    else:
        outcome.stopped = f"fixes were still offered after {MAX_PASSES} passes"
    outcome.result = result
    return outcome


#: the fixes that change which #SBATCH lines sbatch reads: JC801 moves late ones up, JC813
#: turns a misspelt one into a directive
_REQUEST_FIXES = frozenset({"JC801", "JC813"})


def _unreadable(result: Result) -> int:
    return sum(1 for f in result.findings if f.code in _UNREADABLE and f.severity >= Severity.ERROR)


def fix_path(
    path: Path,
    *,
    config: Config,
    unsafe: bool,
    display: str | None = None,
    profile: Path | None = None,
) -> Outcome:
    """Fix the spec, profile or script at `path` in memory; the caller writes `after` (or not)."""
    from jobc.lint.scripts import lint_path
    from jobc.reader.source import MAX_BYTES, SPEC_SUFFIXES
    from jobc.script.detect import HEAD, looks_like_script

    raw = path.read_bytes()
    file = display if display is not None else str(path)
    text = raw.decode("utf-8", "surrogateescape")
    script = path.suffix.lower() not in SPEC_SUFFIXES and looks_like_script(raw[:HEAD])
    # the YAML reader drops a byte-order mark before it counts columns; the script reader does not
    bom = "\ufeff" if not script and text.startswith("\ufeff") else ""
    body = text[len(bom) :]
    if not script and len(raw) > MAX_BYTES:
        # the reader refuses a spec this big (JC001) before it reads it; there is nothing to fix
        return Outcome(path, file, text, text, result=lint_path(path, config=config, display=file))

    def lint(current: str) -> Result:
        data = (bom + current).encode("utf-8", "surrogateescape")
        return lint_path(path, config=config, display=file, profile=profile, data=data)

    converted: list[Finding] = []
    if script and "\r\n" in body:
        # bash reads the \r as part of each line's last word: the line breaks are converted
        # first and alone (JC810's fix), and the other fixes are made on the converted text
        from jobc.lint.rules.script.jc810_dos_line_breaks import META as CRLF

        first = lint(body)
        crlf = [f for f in first.findings if f.code == CRLF.code and wanted(f, file, unsafe=unsafe)]
        try:
            new = apply(body, [f.fix for f in crlf if f.fix is not None])[0] if crlf else body
        except Unfixable as exc:  # a lone \r or another line break among the CRLFs
            new, stopped = body, str(exc)
        else:
            stopped = "the script ends its lines with CRLF, which bash does not read; convert it to LF first"
        if "\r\n" in new:
            outcome = Outcome(path, file, text, text, result=first)
            outcome.stopped = stopped
            return outcome
        body, converted = new, crlf
    crlf_pass = [(text[len(bom) :], converted)] if converted else []
    outcome = fix_file(path, file, body, lint, unsafe=unsafe)
    outcome.fixed[:0] = converted
    outcome.passes[:0] = crlf_pass
    outcome.passes = [(bom + before, found) for before, found in outcome.passes]
    outcome.before = text[len(bom) :]
    outcome.before, outcome.after = bom + outcome.before, bom + outcome.after
    return outcome


def diff(outcome: Outcome) -> str:
    """A unified diff of what fixing changed, with the file's name on both sides."""
    import difflib

    out = []
    name = quoted_name(outcome.file)
    for line in difflib.unified_diff(
        outcome.before.splitlines(keepends=True),
        outcome.after.splitlines(keepends=True),
        fromfile=name,
        tofile=name,
    ):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


_C_ESCAPES = {7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 34: '\\"', 92: "\\\\"}


def quoted_name(name: str) -> str:
    """A file name for a diff header: as it is, or, when it holds a control character, a byte
    that is not UTF-8 or a bidirectional override, in double quotes with C escapes, as git
    writes it and patch reads it (a raw ESC in the header reached the terminal)."""
    from jobc.core.text import UNSAFE

    if UNSAFE.search(name) is None and not name.startswith('"'):
        return name
    out = []
    for byte in name.encode("utf-8", "surrogateescape"):
        if byte in _C_ESCAPES:
            out.append(_C_ESCAPES[byte])
        elif byte < 0x20 or byte >= 0x7F:
            out.append(f"\\{byte:03o}")
        else:
            out.append(chr(byte))
    return '"' + "".join(out) + '"'
