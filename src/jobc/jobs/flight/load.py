"""A dump file's bytes into plain data: JSON, or a pickle read as plain data only, within
`MAX_DUMP_BYTES` and a memory budget; a FIFO or a device named like a dump is not read.

What a dump may cost to load is bounded whatever its bytes say. A pickle's operations are
counted as they run, in cells of 8 bytes: a reference one, a container (about 64 bytes, from one
byte of pickle) eight, a memo entry twelve, a dict's item four more. Past `MAX_CELLS` (122 MiB)
the load stops and the dump is refused, so a file of MARKs or empty lists cannot take
gigabytes, and its time is bounded too. Its dicts and sets are keyed only by what Python hashes
apart (text, bytes, booleans, None, integers below 2**61): keys chosen to share one hash make
every insertion compare with all the keys before it. A JSON dump is parsed only when it holds
fewer than `MAX_JSON_VALUES` values. A dump refused says why, in the note of its file.
"""

from __future__ import annotations

import io
import json
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

MAX_DUMP_BYTES = 64 << 20
#: what loading one pickle may build, in cells of 8 bytes: a reference on the stack or in a
#: container is one, a container eight, a memo entry twelve, a dict's or a set's item four more. A
#: dump of torch's 2,000 entries with 5 frames each takes about 900,000, with 60 frames (its
#: pickler writes a text once, then refers to it) about 6,200,000.
MAX_CELLS = 16_000_000
#: values a JSON dump may hold (each of its `,` `:` `[` `{` may start one): about 60 bytes each
MAX_JSON_VALUES = 2_000_000
#: an int hashes to itself below this (Python's hash modulus, 2**61 - 1): such keys never collide
_HASH_MODULUS = (1 << 61) - 1


def _read_capped(path: Path, notes: list[str]) -> bytes | None:
    """A dump's bytes, at most `MAX_DUMP_BYTES`; a FIFO or a device named like a dump (a link to
    /dev/zero) is not read: opening it does not wait for a writer, and it is refused."""
    from jobc.core.files import open_regular

    try:
        with open_regular(path) as stream:
            # as much as the file holds: a read of the cap would take the cap's memory for each dump
            want = min(os.fstat(stream.fileno()).st_size, MAX_DUMP_BYTES) + 1
            data = stream.read(want)
            if len(data) == want:  # the file grew since: read on, to the cap
                data += stream.read(MAX_DUMP_BYTES + 1 - want)
    except OSError as exc:
        notes.append(f"{path}: cannot read: {exc.strerror or exc}")
        return None
    if len(data) > MAX_DUMP_BYTES:
        notes.append(f"{path}: larger than {MAX_DUMP_BYTES >> 20} MiB; not read")
        return None
    return data


def _parse_json(path: Path, data: bytes, notes: list[str]) -> Any:
    # a count of the bytes that may start a value, made in C before any object is built
    values = sum(data.count(mark) for mark in (b",", b":", b"[", b"{"))
    if values > MAX_JSON_VALUES:
        notes.append(
            f"{path}: refused, not loaded: it holds more than {MAX_JSON_VALUES:,} values, more than "
            "a flight-recorder dump holds (reading them would take gigabytes)"
        )
        return None
    try:
        return json.loads(data.decode("utf-8", "replace"))
    except (ValueError, RecursionError) as exc:
        notes.append(f"{path}: not a readable JSON dump ({type(exc).__name__})")
        return None


def load_json(path: Path, notes: list[str]) -> Any:
    data = _read_capped(path, notes)
    return None if data is None else _parse_json(path, data, notes)


def _key(key: Any) -> None:
    """Refuse a dict key or set item that could share its hash with many others."""
    kind = type(key)
    if kind is str or kind is bytes or kind is bool or key is None:
        return
    if kind is int:
        if -_HASH_MODULUS < key < _HASH_MODULUS:
            return
        raise pickle.UnpicklingError(
            f"it keys a dict by an integer of {key.bit_length()} bits, which a flight-recorder "
            "dump never does (such keys can be chosen to share one hash, and each would be "
            "compared with all the others)"
        )
    raise pickle.UnpicklingError(
        f"it keys a dict or a set by a {kind.__name__}, which a flight-recorder dump never does "
        "(it keys by text and small numbers)"
    )


def _costed(load: Callable[[Any], None], cost: int) -> Callable[[Any], None]:
    def run(self: _PlainUnpickler) -> None:
        self.cells += cost
        if self.cells > MAX_CELLS:
            raise pickle.UnpicklingError(
                f"it would take more than {MAX_CELLS * 8 >> 20} MiB to load (over "
                f"{MAX_CELLS:,} cells of containers, memo entries and references), far more "
                "than a flight-recorder dump takes"
            )
        load(self)

    return run


def _keyed(load: Callable[[Any], None], keys: Callable[[list[Any]], list[Any]]) -> Callable[[Any], None]:
    def run(self: _PlainUnpickler) -> None:
        hashed = keys(self.stack)
        for key in hashed:
            _key(key)
        self.cells += 4 * len(hashed)  # a hash table's slot, key and value: about 32 bytes an item
        load(self)

    return run


_BASE: dict[int, Callable[[Any], None]] = pickle._Unpickler.dispatch
# each builds a container (a MARK too: a list of its own), or a memo entry (an int key and a
# slot of the memo's dict: about 96 bytes)
_CONTAINER = frozenset(b"(]}\x8ftl\x85\x86\x87d\x91")
_MEMO = frozenset(b"pqr\x94")
_DISPATCH = {
    op: _costed(load, 12 if op in _MEMO else 8 if op in _CONTAINER else 1) for op, load in _BASE.items()
}
# the keys each operation is about to hash: since the last MARK (SETITEMS, DICT: every other
# item), the item below the top (SETITEM), every item since the MARK (ADDITEMS, FROZENSET)
for _op, _keys in (
    (pickle.SETITEMS, lambda stack: stack[0::2]),
    (pickle.DICT, lambda stack: stack[0::2]),
    (pickle.SETITEM, lambda stack: stack[-2:-1]),
    (pickle.ADDITEMS, lambda stack: stack),
    (pickle.FROZENSET, lambda stack: stack),
):
    _DISPATCH[_op[0]] = _keyed(_DISPATCH[_op[0]], _keys)


class _PlainUnpickler(pickle._Unpickler):
    """Plain data only: a pickle that names any class or function is refused, never run.

    torch writes its dumps with its own pickler (``pickle_str``), which uses only containers,
    strings, numbers, booleans and None: a dump that asks for a Python object is not torch's.
    The one exception is the list builders that pickler writes for a typed list
    (``torch.jit._pickle.build_intlist`` …, torch/csrc/jit/serialization/pickler.cpp): they only
    return the list they are given, and are read as that list.

    The Python unpickler, not the C one: the C one sizes its memo by the largest index a pickle
    names and zeroes it (8 bytes a slot: `r\xff\xff\xff\x7f` asked for 17 GB), and allocates a
    BINBYTES8's length before reading it, so a few bytes could exhaust the machine's memory. The
    Python one keeps its memo in a dict and reads no more than the file holds; its operations
    are counted here (`MAX_CELLS`), and the keys of its dicts and sets checked."""

    dispatch = _DISPATCH
    cells = 0
    stack: list[Any]

    def find_class(self, module: str, name: str) -> Any:
        if module == "torch.jit._pickle" and name in _LIST_BUILDERS:
            return _same_list
        raise pickle.UnpicklingError(f"it names the Python object {module[:80]}.{name[:80]}")

    def persistent_load(self, pid: Any) -> Any:
        raise pickle.UnpicklingError("it asks for a persistent object")


_LIST_BUILDERS = frozenset({"build_intlist", "build_doublelist", "build_boollist"})


def _same_list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise pickle.UnpicklingError("a list builder given something else than a list")
    return value


def _load_pickle(path: Path, notes: list[str], data: bytes | None = None) -> Any:
    data = _read_capped(path, notes) if data is None else data
    if data is None:
        return None
    try:
        return _PlainUnpickler(io.BytesIO(data)).load()
    except pickle.UnpicklingError as exc:
        text = str(exc).splitlines()[0][:300] if str(exc) else "not a pickle"
        if text.startswith(("it names", "it asks")):
            notes.append(
                f"{path}: refused, not loaded: {text} (a flight-recorder dump holds plain data only)"
            )
        elif text.startswith("it "):
            notes.append(f"{path}: refused, not loaded: {text}")
        else:
            notes.append(f"{path}: not a readable flight-recorder dump (UnpicklingError: {text})")
        return None
    except Exception as exc:  # any other way a hostile or cut-off pickle can fail to load
        notes.append(f"{path}: not a readable flight-recorder dump ({type(exc).__name__})")
        return None


def load_torch(path: Path, notes: list[str]) -> Any:
    """A dump of torch's flight recorder, pickled (on a timeout) or JSON (the JSON dump API):
    the first byte tells which. Anything else is not a dump and is passed over quietly."""
    from jobc.core.files import open_regular

    try:
        with open_regular(path) as stream:
            first = stream.read(256).lstrip()[:1]
    except OSError as exc:
        notes.append(f"{path}: cannot read: {exc.strerror or exc}")
        return None
    if first not in (b"\x80", b"{"):
        return NOT_A_DUMP  # a log or anything else whose name ends in digits: not read whole
    data = _read_capped(path, notes)
    if data is None:
        return None
    head = data.lstrip()[:1]
    if data[:1] == b"\x80":
        return _load_pickle(path, notes, data)
    if head == b"{":
        return _parse_json(path, data, notes)
    return NOT_A_DUMP


NOT_A_DUMP = object()
