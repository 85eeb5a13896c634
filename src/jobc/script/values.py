"""Shell values followed statically: what a word expands to, as far as the script itself says.

A value is a list of *fields* (the words it becomes), each field a tuple of *segments*: a piece of
text with the byte range of the script it was written at. A segment is literal (its text is what
runs) or unknown (a command substitution, a variable from the environment, a per-rank variable):
an unknown segment keeps the text as written and is never split or guessed. Because every
segment remembers where it was written, a word assembled from variables, arrays and function
arguments still points at the line that wrote each part of it.

Sources: the script's own bytes, or a text assembled from values (`bash -c "$CMD"`, `eval`) that
is parsed again; such a text maps each of its bytes back to the segment it came from.
"""

from __future__ import annotations

import bisect
import re

from jobc.core.lazyre import lazy, lazy_bytes

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

# text, start, end (byte offsets in the script; -1 when the text is written nowhere in it), literal
Seg = tuple[str, int, int, bool]
Field = tuple[Seg, ...]
Value = tuple[Field, ...]  # a scalar is one field, an indexed array its elements in order

_IFS = lazy(r"[ \t\n]+")
_GLOB = lazy(r"[*?\[]")
# a backslash in double quotes escapes only these; `\` + newline is removed
_DQ_ESCAPE = lazy_bytes(rb'\\([$`"\\\n])')
_ESCAPE = lazy_bytes(rb"\\(.)", re.S)
# names set by Slurm, MPI or the site rather than the script: `${NAME:-default}` is not assumed
# to take its default, since the environment may well hold the name
_ENVIRONMENT = lazy(
    r"^(?:SLURM_|SLURMD_|SBATCH_|PMI_|PMIX_|OMPI_|PBS_|LSB_|CUDA_|ROCR_)|^(?:HOME|USER|LOGNAME|PATH|"
    r"PWD|TMPDIR|TMP|SCRATCH|WORK|STORE|PROJECT|HOSTNAME|SHELL|LANG|CONDA_PREFIX|VIRTUAL_ENV|"
    r"RANK|LOCAL_RANK|WORLD_SIZE|NODE_RANK|LOCAL_WORLD_SIZE|GROUP_RANK)$"
)
_DEFAULTS = frozenset({":-", "-", ":=", "="})
MAX_VALUE = 1 << 16  # a value costlier than this (see size) is not followed: unknown


def text(f: Field) -> str:
    return "".join(s[0] for s in f)


def literal(f: Field) -> bool:
    return all(s[3] for s in f)


def unknown(raw: str, start: int, end: int) -> Field:
    return ((raw, start, end, False),)


def split(f: Field) -> list[Field]:
    """Word splitting on blanks, of the literal parts only (an unknown part stays one piece)."""
    out: list[list[Seg]] = [[]]
    for seg in f:
        txt, lit = seg[0], seg[3]
        if not lit or not _IFS.search(txt):
            out[-1].append(seg)
            continue
        pos = 0
        for m in _IFS.finditer(txt):
            if m.start() > pos:
                out[-1].append(_slice(seg, pos, m.start()))
            if out[-1]:
                out.append([])
            pos = m.end()
        if pos < len(txt):
            out[-1].append(_slice(seg, pos, len(txt)))
    return [tuple(x) for x in out if x]


def split_edges(f: Field) -> list[Field]:
    """As split, with an empty field first (last) when the value begins (ends) with a blank that
    splitting removes: text glued to such a value starts a word of its own (`$CMD#x` with CMD
    ending in a blank is two words), which an empty field marks for the one who glues. An
    all-blank value is two empty fields. The empty fields are the gluer's to drop."""
    out = split(f)
    texts = [s for s in f if s[0]]
    if not texts:
        return out
    lead = texts[0][3] and texts[0][0][0] in " \t\n"
    trail = texts[-1][3] and texts[-1][0][-1] in " \t\n"
    if not out:
        return [(), ()] if lead else []
    return ([()] if lead else []) + out + ([()] if trail else [])


def _slice(seg: Seg, a: int, b: int) -> Seg:
    """Characters a..b of a literal segment, with the byte range they were written at."""
    txt, start, end, lit = seg
    part = txt[a:b]
    if start < 0:
        return (part, -1, -1, lit)
    if txt.isascii() and end - start == len(txt):
        return (part, start + a, start + b, lit)
    head = len(txt[:a].encode("utf-8", "surrogateescape"))
    size = len(part.encode("utf-8", "surrogateescape"))
    if end - start != len(txt.encode("utf-8", "surrogateescape")):
        return (part, start, end, lit)  # not written verbatim: the whole segment's place
    return (part, start + head, start + head + size, lit)


def cut(f: Field, at: int, end: int | None = None) -> Field:
    """Characters ``at`` to ``end`` of the field (the value of `--name=value`, an endpoint's host)."""
    stop = len(text(f)) if end is None else end
    out: list[Seg] = []
    pos = 0
    for seg in f:
        n = len(seg[0])
        lo, hi = max(at - pos, 0), min(stop - pos, n)
        if lo < hi:
            out.append(seg if (lo == 0 and hi == n) or not seg[3] else _slice(seg, lo, hi))
        pos += n
    return tuple(out)


def join(fields: list[Field], sep: str = " ") -> Field:
    out: list[Seg] = []
    for i, f in enumerate(fields):
        if i and sep:
            out.append((sep, -1, -1, True))
        out.extend(f)
    return tuple(out)


def place(f: Field) -> tuple[int, int] | None:
    """Where a field was written: one byte range when its parts were written together; None when
    they come from several places (`"$HOST:$PORT"`), where the word that joins them is the place."""
    placed = [s for s in f if s[1] >= 0]
    if not placed:
        return None
    # one place when the parts follow each other (a quote or a `\`-newline between them at most)
    if all(0 <= placed[i][1] - placed[i - 1][2] <= 3 for i in range(1, len(placed))):
        return placed[0][1], placed[-1][2]
    return None


class Src:
    """The bytes a parse tree was made from, and where each of them was written in the script."""

    def __init__(self, raw: bytes, pieces: list[tuple[int, Seg]] | None = None) -> None:
        self.raw = raw
        # for a text assembled from values: (offset in raw, segment) for each piece, in order
        self.pieces = pieces
        self.starts = [p[0] for p in pieces] if pieces is not None else []
        self.fallback: Any = None  # the span of the command that runs an assembled text

    def show(self, a: int, b: int) -> str:
        """Bytes a..b as text, each unknown part as it was written."""
        if self.pieces is None:
            return self.raw[a:b].decode("utf-8", "surrogateescape")
        text = self.raw[a:b].decode("utf-8", "surrogateescape")
        if "JOBCUNKNOWN" not in text:
            return text
        return PLACEHOLDER.sub(lambda m: self._raw_of(m.group(0)), text)

    def _raw_of(self, placeholder: str) -> str:
        index = int(placeholder[len("JOBCUNKNOWN") : -1])
        return self.pieces[index][1][0] if self.pieces is not None and index < len(self.pieces) else ""

    def segs(self, a: int, b: int, *, lit: bool = True) -> list[Seg]:
        """Segments for bytes a..b of this source, written literally (after quote removal)."""
        if a >= b:
            return []
        if self.pieces is None:
            return [(self.raw[a:b].decode("utf-8", "surrogateescape"), a, b, lit)]
        out: list[Seg] = []
        i = max(bisect.bisect_right(self.starts, a) - 1, 0)
        while i < len(self.pieces) and self.pieces[i][0] < b:
            at, seg = self.pieces[i]
            size = len(seg[0].encode("utf-8", "surrogateescape")) if seg[3] else _placeholder_len(i)
            lo, hi = max(a, at), min(b, at + size)
            if lo < hi:
                if not seg[3]:
                    if not out or out[-1] is not seg:
                        out.append(seg)
                else:
                    part = self.raw[lo:hi].decode("utf-8", "surrogateescape")
                    if seg[1] >= 0 and seg[2] - seg[1] == size:
                        out.append((part, seg[1] + lo - at, seg[1] + hi - at, lit))
                    else:
                        out.append((part, seg[1], seg[2], lit))
            i += 1
        return out

    def range(self, a: int, b: int) -> tuple[int, int] | None:
        """The script bytes that bytes a..b of this source were written at, if any."""
        if self.pieces is None:
            return a, b
        placed = [s for s in self.segs(a, b) if s[1] >= 0]
        if not placed:
            return None
        return placed[0][1], placed[-1][2]

    def unknown_at(self, a: int, b: int) -> Seg | None:
        """The unknown segment a placeholder at a..b stands for."""
        if self.pieces is None:
            return None
        for seg in self.segs(a, b):
            if not seg[3]:
                return seg
        return None


def _placeholder(i: int) -> str:
    return f"JOBCUNKNOWN{i:06d}X"


def _placeholder_len(i: int) -> int:
    return len(_placeholder(i))


def assemble(f: Field) -> Src:
    """A text made of a field's segments, to be parsed as shell: unknown parts become placeholder
    words, so they are neither expanded nor mistaken for something that runs."""
    parts: list[bytes] = []
    pieces: list[tuple[int, Seg]] = []
    at = 0
    for seg in f:
        data = seg[0].encode("utf-8", "surrogateescape") if seg[3] else _placeholder(len(pieces)).encode()
        pieces.append((at, seg))
        parts.append(data)
        at += len(data)
    return Src(b"".join(parts), pieces)


PLACEHOLDER = lazy(r"JOBCUNKNOWN\d{6}X")


def dq_segs(src: Src, a: int, b: int) -> list[Seg]:
    """The segments of string content in double quotes at a..b (escapes removed)."""
    raw = src.raw[a:b]
    if b"\\" not in raw:
        return src.segs(a, b)
    out: list[Seg] = []
    pos = 0
    for m in _DQ_ESCAPE.finditer(raw):
        out += src.segs(a + pos, a + m.start())
        if m.group(1) != b"\n":
            out += src.segs(a + m.start(1), a + m.end(1))
        pos = m.end()
    out += src.segs(a + pos, b)
    return out


def word_segs(src: Src, a: int, b: int) -> list[Seg]:
    """The segments of an unquoted word at a..b (escapes removed; a glob is not literal)."""
    raw = src.raw[a:b]
    lit = not _GLOB.search(raw.decode("utf-8", "surrogateescape"))
    if b"\\" not in raw:
        return src.segs(a, b, lit=lit)
    out: list[Seg] = []
    pos = 0
    for m in _ESCAPE.finditer(raw):
        out += src.segs(a + pos, a + m.start(), lit=lit)
        if m.group(1) != b"\n":
            out += src.segs(a + m.start(1), a + m.end(1), lit=lit)
        pos = m.end()
    out += src.segs(a + pos, b, lit=lit)
    return out


def environment_name(name: str) -> bool:
    """Whether ``name`` is usually set by Slurm, MPI or the site rather than by the script.

    A name with Slurm's beginning that Slurm neither sets nor reads (ROCm Megatron's
    `SLURM_MASTER_PORT`) is the script's own, as `MASTER_PORT` is: its default is its value."""
    from jobc.tables import slurm_env

    return bool(_ENVIRONMENT.match(name)) and not slurm_env.unknown(name)


def is_default(op: str) -> bool:
    return op in _DEFAULTS


def size(v: Value) -> int:
    """What holding a value costs: its characters, and a little for each of its parts."""
    return sum(len(s[0]) + 32 for f in v for s in f)


def key(v: Value | None) -> Any:
    """What a value says, without where it was written: two values that read the same compare equal."""
    if v is None:
        return None
    return tuple((text(f), literal(f)) for f in v)
