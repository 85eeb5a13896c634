"""A dump file's bytes into plain data: JSON, or a pickle read as plain data only, within
`MAX_DUMP_BYTES`; a FIFO or a device named like a dump is not read."""

from __future__ import annotations

import io
import json
import pickle
from pathlib import Path
from typing import Any

MAX_DUMP_BYTES = 64 << 20


def _read_capped(path: Path, notes: list[str]) -> bytes | None:
    """A dump's bytes, at most `MAX_DUMP_BYTES`; a FIFO or a device named like a dump (a link to
    /dev/zero) is not read: opening it does not wait for a writer, and it is refused."""
    from jobc.core.files import open_regular

    try:
        with open_regular(path) as stream:
            data = stream.read(MAX_DUMP_BYTES + 1)
    except OSError as exc:
        notes.append(f"{path}: cannot read: {exc.strerror or exc}")
        return None
    if len(data) > MAX_DUMP_BYTES:
        notes.append(f"{path}: larger than {MAX_DUMP_BYTES >> 20} MiB; not read")
        return None
    return data


def load_json(path: Path, notes: list[str]) -> Any:
    data = _read_capped(path, notes)
    if data is None:
        return None
    try:
        return json.loads(data.decode("utf-8", "replace"))
    except (ValueError, RecursionError) as exc:
        notes.append(f"{path}: not a readable JSON dump ({type(exc).__name__})")
        return None


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
    Python one keeps its memo in a dict and reads no more than the file holds (about 2 s for
    10 MB of the smallest operations)."""

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
        text = str(exc).splitlines()[0][:200] if str(exc) else "not a pickle"
        if text.startswith("it "):
            notes.append(
                f"{path}: refused, not loaded: {text} (a flight-recorder dump holds plain data only)"
            )
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
        try:
            return json.loads(data.decode("utf-8", "replace"))
        except (ValueError, RecursionError) as exc:
            notes.append(f"{path}: not a readable JSON dump ({type(exc).__name__})")
            return None
    return NOT_A_DUMP


NOT_A_DUMP = object()
