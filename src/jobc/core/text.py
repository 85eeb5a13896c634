"""Text from files, logs and names made safe to show: nothing in it can move the cursor, colour
the terminal, end a line (and so forge a CI annotation or a YAML key), or fail to encode."""

from __future__ import annotations

import re

from jobc.core.lazyre import lazy

# C0 and C1 controls, DEL, line and paragraph separators, bidirectional overrides and isolates
# (which reorder what a reader sees), byte-order marks, and lone surrogates (undecodable bytes in
# a file name, or a `\ud800` escape), which no UTF-8 stream can encode.
UNSAFE = lazy("[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff\ud800-\udfff]")
# The same for ASCII text, where only the C0 controls and DEL can occur: a class without the
# Unicode ranges compiles in a tenth of the time, and most text is ASCII. Other text that Python
# calls printable holds none of them either (each is a control, a format character, a separator
# or a surrogate), and needs no pattern at all.
_UNSAFE_ASCII = lazy("[\x00-\x1f\x7f]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\x1b": "\\e"}


def _escape(match: re.Match[str]) -> str:
    ch = match.group(0)
    named = _NAMED.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"  # a byte that is not UTF-8, as Python keeps it: the byte
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every unsafe character written as a backslash escape."""
    if text.isascii():
        return _UNSAFE_ASCII.sub(_escape, text)
    if text.isprintable():  # every unsafe character is unprintable: nothing to escape
        return text
    return UNSAFE.sub(_escape, text)


_LINES_UNSAFE = lazy("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff\ud800-\udfff]")
_LINES_UNSAFE_ASCII = lazy("[\x00-\x08\x0b-\x1f\x7f]")


def visible_lines(text: str) -> str:
    """``text`` escaped as `visible` does, but its line breaks and tabs kept: for a stream of
    messages, each of which may name a file or quote a value."""
    if text.isascii():
        return _LINES_UNSAFE_ASCII.sub(_escape, text)
    if text.replace("\n", "").replace("\t", "").isprintable():
        return text
    return _LINES_UNSAFE.sub(_escape, text)
