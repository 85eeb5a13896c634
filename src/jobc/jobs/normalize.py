"""Triage's first stage: a line as a terminal or a paste left it, made into the text its writer
printed, and the lines that belong together put back together.

A log pasted into an issue or a chat carries debris the program never printed: markdown quoting
(`> `), code fences and a backtick glued to the first line of a fenced block, colour codes without
their escape character, ANSI escapes, carriage-return progress bars. `clean` removes it from the
text that is matched, never from the numbering: every record keeps the line (or lines) it came from.

Some messages span lines: a terminal or a pasting tool that wraps at a fixed width cuts a message
anywhere, and a torchrun table or a traceback pasted with its newlines lost sits on one line.
`wrap_width` finds a fixed wrapping width from the lines' lengths (a width many lines reach
exactly); where only a few reach it (`weak_wrap_width`: two different lines at the longest
length), a line at that width is joined to the next only when the cut itself says so
(`continues`: it fell inside a token, and the rest cannot start a line); `split_flat_table`
gives back the fields of a ChildFailedError table flattened onto its `Root Cause` line;
`tagged` and `tag_goes_on` find a kernel driver's message split over lines that each repeat its
tag (`NVRM: The NVIDIA GPU 0000:b3:00.0` / `NVRM: (PCI ID: 10de:26b5) installed in this system
has` / `NVRM: fallen off the bus …`, dmesg indenting the lines after the first);
`split_records` gives back the records one line holds (a text glued to a progress bar whose
carriage return a paste lost, a whole log pasted on one line). The lines that continue a
statement (`what():` after `terminate called`, `Last error:` after an NCCL error, `Exception
raised from …` after a c10 error) are attached to it by the events stage, which knows which
statement is open.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import pairwise

# ANSI escape sequences (colours, cursor moves) and other C0 controls but tab.
ANSI = re.compile(
    r"\x1b\[[0-9;?]{0,32}[ -/]{0,4}[@-~]|\x1b\][^\x07\x1b]{0,256}(?:\x07|\x1b\\)?|\x1b[@-_]"
    r"|[\x00-\x08\x0b-\x1f\x7f]"
)
# Colour codes whose escape character a paste lost: `[36m(RayWorker pid=1)[0m`. Only removed from
# a line that also holds a reset code, so `[5m]` in ordinary text stays.
_COLOUR = re.compile(r"\[[0-9]{1,3}(?:;[0-9]{1,3}){0,4}m")
_RESET = ("[0m", "[39m", "[49m", "[22m")
# markdown: a code fence (with or without a language), a quote marker, a backtick glued to text
_FENCE = re.compile(r"^\s{0,3}(?:```|~~~)[A-Za-z0-9_+\-]{0,20}\s*$")
_QUOTE = re.compile(r"^(?:\s{0,3}>(?: |$)){1,4}")
_GLUED = re.compile(r"^\s{0,3}`{1,3}(?=[^`\s])")
_TRAILING_FENCE = re.compile(r"`{3}\s*$")


def has_control(text: str) -> bool:
    return any((ord(c) < 32 and c != "\t") or c == "\x7f" for c in text)


def clean(raw: str) -> str:
    """The text a writer printed, without a paste's and a terminal's debris."""
    text = ANSI.sub("", raw) if has_control(raw) else raw
    if "[" in text and any(r in text for r in _RESET):
        text = _COLOUR.sub("", text)
    if "`" in text or "~~~" in text:
        if _FENCE.match(text):
            return ""
        whole = text.strip()
        if len(whole) > 2 and whole[0] == "`" and whole[-1] == "`" and "`" not in whole[1:-1]:
            return whole[1:-1]  # a line pasted as one inline-code span: `salloc: error: …`
        text = _TRAILING_FENCE.sub("", _GLUED.sub("", text, count=1), count=1)
    if text[:4].lstrip().startswith(">"):
        text = _QUOTE.sub("", text, count=1)
    return text


#: A line break a paste wrote as its escape (a log quoted as a JSON or Python string): `\r\n`
#: always, a lone `\n` only where a line holds several (one is a message's own repr of a string).
_ESCAPED_CRLF = "\\r\\n"
_ESCAPED_LF = "\\n"
ESCAPED_LF_MIN = 3


def escaped_lines(piece: str) -> list[str]:
    r"""A piece split at the line breaks a paste wrote as escapes (`…NCCL INFO init.cc:1641 ->
    2\r\nnode1:…`): the lines the log had."""
    if "\\" not in piece:
        return [piece]
    if _ESCAPED_CRLF in piece:
        piece = piece.replace(_ESCAPED_CRLF, "\n")
    if piece.count(_ESCAPED_LF) >= ESCAPED_LF_MIN:
        piece = piece.replace(_ESCAPED_LF, "\n")
    return [p for p in piece.split("\n") if p]


#: Lines this long or longer are candidates for a fixed wrapping width; shorter ones are prose.
MIN_WRAP = 60
#: A record's fields of fixed width: numbers, and hashes (hex runs of eight and more)
_FIELDS = re.compile(r"[0-9a-f]{8,128}|[0-9]{1,20}")


def is_rule(text: str) -> bool:
    """Whether a line is a rule, one character repeated (Open MPI's banner of 74 dashes around its
    help text): drawn at its own length, never cut at a terminal's."""
    return text.strip(text[:1]) == ""


#: Open MPI's help text sits between two rules of dashes, a few lines apart, wrapped by the hand
#: that wrote it (at about 62 characters): its lines end at one length as a terminal's cut lines
#: do, though no line was cut.
BANNER_LINES = 40


def outside_banners(lines: Sequence[str]) -> list[str]:
    """The lines that are not inside a banner (a rule of dashes, at most `BANNER_LINES` lines, a
    rule of dashes): what a wrapping width is read from. A lone rule (a separator) hides nothing."""
    rules = [i for i, text in enumerate(lines) if len(text) >= 20 and text[0] == "-" and is_rule(text)]
    hidden: set[int] = set()
    for start, end in pairwise(rules):
        if end - start <= BANNER_LINES and start not in hidden:
            hidden.update(range(start, end + 1))
    return [text for i, text in enumerate(lines) if i not in hidden]


#: LSF's `bhist -l` and `bjobs -l` write a record over lines of 79 characters, each line after the
#: first under an indent of 21 spaces (the width of its `Tue Jul 30 21:43:41: ` time), cutting
#: words where the width falls (`… The CPU time us` / `                     ed is 0.0 seconds;`).
LSF_WIDTH = 79
LSF_INDENT = 21


def hangs(text: str) -> bool:
    """Whether a line is the rest of an LSF record's line: its hanging indent, then text."""
    return text.startswith(" " * LSF_INDENT) and text[LSF_INDENT : LSF_INDENT + 1] not in ("", " ", "\t")


def lsf_layout(lines: Sequence[str]) -> bool:
    """Whether a log holds LSF's long layout: twice, a line cut at its width with its rest under
    its hanging indent on the next line."""
    cuts = 0
    for before, after in pairwise(lines):
        if len(before) == LSF_WIDTH and hangs(after):
            cuts += 1
            if cuts >= 2:
                return True
    return False


def wrap_width(lines: Iterable[str]) -> int | None:
    """The width a terminal or pasting tool wrapped the log at, when many lines end exactly there.

    A wrapped log has a spike: the lines that were cut all have the same length, and no line is
    longer. Without one (most logs), None: lines are never joined on a guess. One line repeated
    (a library's warning that every process printed) is a spike of one message, not a width: at
    least two different lines must end there, and different in more than their numbers and
    hashes (one record of fixed-width fields, such as grep's `J1744…db/stdout:Subject: Job 553065:
    <J1744…> … Exited` over hashed directories, is one message too)."""
    counts: Counter[int] = Counter()
    seen: dict[int, set[str]] = {}
    for text in lines:
        if len(text) >= MIN_WRAP and not is_rule(text):
            counts[len(text)] += 1
            bucket = seen.setdefault(len(text), set())
            if len(bucket) < 2:
                bucket.add(_FIELDS.sub("#", text))
    if not counts:
        return None
    width, hits = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
    longer = sum(c for n, c in counts.items() if n > width)
    if hits >= 3 and longer == 0 and hits >= 0.2 * sum(counts.values()) and len(seen[width]) >= 2:
        return width
    return None


def weak_wrap_width(lines: Iterable[str]) -> int | None:
    """A width a paste wrapped at that few lines reach (too few for `wrap_width`): the longest
    length, when at least two different lines have it. Evidence enough only with each cut's own
    (`continues`): identical lines (a message every rank printed) say nothing of a width."""
    at: dict[int, set[str]] = {}
    for text in lines:
        # (a progress bar is drawn to the terminal's width: bars of one length say nothing of a
        # paste's)
        if len(text) >= MIN_WRAP and not is_rule(text) and ("]" not in text or _BAR_END.search(text) is None):
            bucket = at.setdefault(len(text), set())
            if len(bucket) < 2:
                bucket.add(text)
    if not at:
        return None
    width = max(at)
    return width if len(at[width]) >= 2 else None


#: How the rest of a line cut at a fixed width may start: inside a word or a number (a lower-case
#: letter, a digit) or with the punctuation that goes on a token (`=`, `)`, `,`, `.`, `:` …); a
#: capital, a bracket, a quote mark or a space starts lines as often as it goes on one.
_GOES_ON = re.compile(r"[a-z0-9)\]},.;:=/_>\-]")
#: ... and the lines that start so and still start a record of their own: a traceback's lines,
#: C++'s terminate handler, a tool's `name: ` (srun, slurmstepd, a shell, pdsh's host with its
#: digits), an exception's dotted type.
_STARTS_A_LINE = re.compile(
    r"(?:frame #[0-9]|what\(\)|terminate called|"
    r"(?:srun|slurmstepd|sbatch|salloc|scontrol|pdsh|bash|sh|zsh|python[0-9.]{0,5}|mpirun|mpiexec|"
    r"torchrun|deepspeed|accelerate|ray|nvidia-smi)(?:[@:\s]|-[a-z0-9.]{1,40}:)|"
    r"[A-Za-z][A-Za-z0-9_.\-]{0,62}[0-9][A-Za-z0-9_.\-]{0,62}: |"
    r"[a-z_][a-z0-9_.\-]{0,31}@[A-Za-z0-9_.\-]{1,63}:|"  # a shell prompt, `user@host:~/dir$`
    r"(?:[A-Za-z_][A-Za-z0-9_]{0,100}\.){0,20}[A-Za-z_][A-Za-z0-9_]{0,100}(?:Error|Exception|Warning)\b)"
)


def continues(head: str, rest: str) -> bool:
    """Whether `rest` is the rest of `head`, a line a paste or a terminal cut at a width few lines
    reach: the cut fell inside a token (`head` ends with one, `rest` goes on with one) and
    `rest` cannot start a line (`…ip` / `=10.0.0.7) …`, `…gpu-a0` / `7:412:790 [3] NCCL WARN …`).
    A line that ends at a space, or a next line that starts as lines do, is never joined."""
    if not head or not rest or head[-1].isspace() or _GOES_ON.match(rest) is None:
        return False
    return _STARTS_A_LINE.match(rest) is None


_FLAT_FIELD = re.compile(
    r"\b(time|host|rank|exitcode|error_file|traceback)\s{0,16}:\s{0,4}"
    r"(.{0,500}?)(?=\s{1,16}(?:time|host|rank|exitcode|error_file|traceback)\s{0,16}:|\s{0,8}=====|\s*$)"
)


def split_flat_table(rest: str) -> dict[str, str]:
    """The fields of a ChildFailedError table pasted on one line after its `Root Cause` header:
    `[0]: time : … host : node2 rank : 5 (local_rank: 1) exitcode : -11 (pid: 42) …`."""
    fields: dict[str, str] = {}
    for m in _FLAT_FIELD.finditer(rest[:4000]):
        fields.setdefault(m.group(1), m.group(2).strip())
    return fields if "rank" in fields and len(fields) >= 2 else {}


#: Where a progress bar tqdm drew ends: `… 331/1063 [01:06<03:59,  3.06it/s]` (its postfix too).
_BAR_END = re.compile(
    r"[0-9.]{1,12}[kMG]?/[0-9.?]{1,12}[kMG]? \[[0-9:?]{1,12}<[0-9:?]{1,12}(?:,[^\]\n]{0,200})?\]"
)
#: The start of a record of its own, met inside a line (after a space): a glog or c10 header
#: (`[E ProcessGroupNCCL.cpp:455]`), C++'s terminate handler and its what(), NCCL's `Last error:`,
#: a traceback, Slurm's own error lines.
_HEAD = re.compile(
    r"(?<=\s)(?:\[[EWF][0-9]{0,4}[ :0-9.]{0,40}[A-Za-z0-9_./\-]{1,80}:[0-9]{1,6}\]|"
    r"Last error: |Traceback \(most recent call last\):)"
)
#: ... and records whose start no message holds in its middle (C++'s terminate handler and its
#: what(), Slurm's own error lines), split in a line of any length.
_ABORT = re.compile(
    r"(?<=\s)(?:terminate called after throwing|what\(\): |"
    r"(?:srun|slurmstepd|sbatch|salloc)(?:-[A-Za-z0-9_.\-]{1,60})?: error: )"
)
#: NCCL's record header (`host:pid:tid [dev] NCCL WARN …`, `host:pid:tid [dev] file.cc:line NCCL
#: INFO …`), met after a space or a backtick: a terminal's lines joined with their padding, or a
#: paste's prose before the first record (``error log `H100-2:19989:20082 [1] …``). The header is
#: specific enough (three colon-separated fields, a device in brackets, NCCL's level word) to cut a
#: line of any length at it; the cut gives the record its host, which the prefix stage reads only
#: at a line's start.
_NCCL_HEAD = re.compile(
    r"(?<=[\s`])[A-Za-z0-9][A-Za-z0-9_.\-]{0,62}:[0-9]{1,9}:[0-9]{1,9} \[[0-9]{1,4}\] "
    r"(?:[A-Za-z0-9_./\-]{1,80}:[0-9]{1,6} )?NCCL (?:WARN|INFO|ERROR|TRACE)\b"
)
#: A line at least this long may hold several records (a whole log pasted on one line).
MIN_PASTE = 200


def split_records(text: str) -> list[str]:
    """The records one line holds: a text glued to the progress bar it followed when a paste lost
    the bar's carriage return (`…3.06it/s]Killed`), and the records of a log pasted on one line
    (`[E …] Some NCCL operations have failed … terminate called after throwing … what(): …`).
    Most lines hold one record and come back as they are."""
    cuts: list[int] = []
    if "]" in text and "/" in text:
        for m in _BAR_END.finditer(text):
            if text[m.end() :].strip():
                cuts.append(m.end())
    if len(text) >= MIN_PASTE:
        cuts += [m.start() for m in _HEAD.finditer(text)]
    if "what(): " in text or ": error: " in text:
        cuts += [m.start() for m in _ABORT.finditer(text)]
    if "NCCL " in text:
        cuts += [m.start() for m in _NCCL_HEAD.finditer(text)]
    if not cuts:
        return [text]
    parts = []
    start = 0
    for cut in sorted(set(cuts)):
        if text[start:cut].strip():
            parts.append(text[start:cut])
            start = cut
    parts.append(text[start:])
    return parts


__all__ = [
    "ANSI",
    "clean",
    "continues",
    "has_control",
    "split_flat_table",
    "split_records",
    "weak_wrap_width",
    "wrap_width",
]


#: A driver's message under its tag (`NVRM: …`): the tag, and the message after it.
_TAGGED = re.compile(r"^\s{0,40}(?P<tag>[A-Za-z][A-Za-z0-9_\-]{1,30}): (?P<msg>\S.{0,4000})$")
#: How a message that goes on over the next line ends: inside a sentence (no full stop, colon,
#: closing bracket of a list), as `The NVIDIA GPU 0000:b3:00.0` does
_SENTENCE_END = re.compile(r"[.!?:;\]}]\s*$")
#: The rest of a sentence: a lower-case word or a parenthesis, never a field's or tag's own
#: name (`error: …`, `task 0: …`), which starts a record of its own
_REST_OF_SENTENCE = re.compile(r"^(?:\(|[a-z][a-z\-]{0,40}(?![A-Za-z0-9_\-]*:)(?:\s|$))")


def tagged(text: str) -> tuple[str, str] | None:
    """A driver's line (`NVRM: The NVIDIA GPU 0000:b3:00.0`) whose sentence goes on over the
    next line: its tag and message, or None."""
    m = _TAGGED.match(text)
    if m is None or _SENTENCE_END.search(m.group("msg")) is not None:
        return None
    return m.group("tag"), m.group("msg")


def tag_goes_on(tag: str, text: str) -> str | None:
    """The rest of a tagged sentence, when `text` carries it under the same tag (`NVRM: fallen
    off the bus and is not responding to commands.`), or None."""
    m = _TAGGED.match(text)
    if m is None or m.group("tag") != tag or _REST_OF_SENTENCE.match(m.group("msg")) is None:
        return None
    return m.group("msg")


#: A kernel log's record: dmesg's time (`[ 1843.308145]`, `dmesg -T`'s `[Thu Nov 28 10:00:01 2026]`)
#: or a syslog's `kernel: `. Only the kernel's drivers split one sentence over lines under a tag.
KERNEL_RECORD = re.compile(
    r"^\s{0,8}\[\s{0,12}[0-9]{1,10}\.[0-9]{1,9}\]|"
    r"^\s{0,8}\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]{1,2} [0-9:]{8} [0-9]{4}\]|\bkernel: "
)
#: dmesg's line of a record that goes on: indented to the text's column, with no time of its own
_DMESG_GOES_ON = re.compile(r"^ {8,40}\S")


def kernel_goes_on(raw: str) -> bool:
    """Whether a line can carry the rest of a kernel record: dmesg's indented line, or a record
    of the same log (a syslog repeats its prefix on every line)."""
    return _DMESG_GOES_ON.match(raw) is not None or KERNEL_RECORD.search(raw[:200]) is not None
