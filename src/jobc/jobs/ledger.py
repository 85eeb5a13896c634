"""The ledger: one small JSON file per submitted job, in a directory beside the spec.

Each entry is written to a temporary file in the same directory and linked into place, so a
reader sees a whole entry or none, a crash mid-write leaves at most a hidden temporary file
(ignored by readers), and two submits at the same moment write two different files. An entry
holds the hash of its own script, so that an entry edited by hand is recognised as such.

An entry is named by its job id, `123.json`. Slurm may hand out an id again (its ids restarted,
or another cluster shares the ledger): an entry never replaces another, and the later one is
named by its cluster and submission time as well, `123@CLUSTER-20260101T000000Z.json` (or
`123@20260101T000000Z.json` when sbatch names no cluster).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from jobc.core.numbers import ascii_int

DEFAULT_DIR = ".jobc"
SUFFIX = ".json"
FORMAT = 1


class LedgerError(Exception):
    """An entry that is missing or cannot be trusted; the message names the file."""


@dataclass(frozen=True)
class Entry:
    job_id: str
    spec: str
    spec_sha256: str
    script: str
    submitted: str
    name: str
    cluster: str | None = None
    partition: str | None = None
    git_commit: str | None = None
    git_dirty: bool = False
    log: str | None = None
    submit_dir: str = "."
    after: list[str] = field(default_factory=list)
    array: str | None = None
    sweep: list[dict[str, Any]] = field(default_factory=list)

    @property
    def script_sha256(self) -> str:
        return sha256_text(self.script)

    def as_json(self) -> dict[str, Any]:
        return {"format": FORMAT, **asdict(self), "script_sha256": self.script_sha256}


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def ledger_dir(spec: Path, configured: str | None, config_source: str | None) -> Path:
    """`[tool.jobc] ledger` (relative to the file that sets it), else `.jobc/` beside the spec."""
    if configured:
        path = Path(configured).expanduser()
        if not path.is_absolute() and config_source is not None:
            path = Path(config_source).parent / path
        return path
    return spec.resolve().parent / DEFAULT_DIR


def entry_path(directory: Path, job_id: str) -> Path:
    return directory / f"{job_id}{SUFFIX}"


_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9.-]+")


def later_names(entry: Entry) -> list[str]:
    """The names an entry takes when its job id is taken: its cluster and submission time, then
    those with a count (`123@c-20260101T000000Z-2`)."""
    cluster = _UNSAFE_NAME.sub("-", entry.cluster or "").strip("-.")[:40]
    when = re.sub(r"[^0-9TZ]", "", entry.submitted)[:20]
    base = f"{entry.job_id}@{cluster}-{when}" if cluster else f"{entry.job_id}@{when}"
    return [base, *(f"{base}-{n}" for n in range(2, 100))]


def write(directory: Path, entry: Entry) -> Path:
    """Write one entry atomically and durably, beside any other of the same job id (never in
    its place); returns its path."""
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{entry.job_id}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(entry.as_json(), out, indent=2, sort_keys=True)
            out.write("\n")
            out.flush()
            os.fsync(out.fileno())
        for name in [entry.job_id, *later_names(entry)]:
            target = directory / f"{name}{SUFFIX}"
            if _place(tmp, target):
                return target
        raise FileExistsError(f"{directory}: job id {entry.job_id} is recorded a hundred times already")
    finally:
        Path(tmp).unlink(missing_ok=True)


def _place(tmp: str, target: Path) -> bool:
    """The written entry at ``target``, unless an entry has that name already (False)."""
    try:
        os.link(tmp, target)  # a link never replaces: it fails where the name is taken
        return True
    except FileExistsError:
        return False
    except OSError:  # a file system without hard links: claim the name, then fill it
        try:
            os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            return False
        os.replace(tmp, target)
        return True


_REQUIRED_STR = ("job_id", "spec", "spec_sha256", "script", "submitted", "name", "script_sha256")


# An entry holds one compiled script: far below this. A larger file is not read whole.
MAX_ENTRY_BYTES = 16 << 20
# The type each field must have in the file (None allowed where the field is optional).
_OPTIONAL_STR = ("cluster", "partition", "git_commit", "log", "array")


def read(path: Path) -> Entry:
    data = _load(path)
    for key in _REQUIRED_STR:
        if not isinstance(data.get(key), str):
            raise LedgerError(f"{path}: not a ledger entry ({key!r} missing or not a string)")
    for key in _OPTIONAL_STR:
        if data.get(key) is not None and not isinstance(data[key], str):
            raise LedgerError(f"{path}: not a ledger entry ({key!r} is not a string)")
    if not isinstance(data.get("submit_dir", "."), str) or not isinstance(data.get("git_dirty", False), bool):
        raise LedgerError(f"{path}: not a ledger entry ('submit_dir' or 'git_dirty' of the wrong type)")
    after, sweep = data.get("after", []), data.get("sweep", [])
    lists = isinstance(after, list) and isinstance(sweep, list)
    if not lists or not all(isinstance(a, str) for a in after) or not all(isinstance(s, dict) for s in sweep):
        raise LedgerError(
            f"{path}: not a ledger entry ('after' and 'sweep' must be lists: of job ids, of objects)"
        )
    known = set(Entry.__dataclass_fields__)
    values = {key: value for key, value in data.items() if key in known}
    entry = Entry(**values)
    if entry.script_sha256 != data["script_sha256"]:
        raise LedgerError(
            f"{path}: the entry was edited after submission (its script no longer matches "
            "script_sha256); the record of what ran cannot be trusted"
        )
    if path.stem != entry.job_id and path.stem not in later_names(entry):
        raise LedgerError(f"{path}: the entry was edited after submission (it names job {entry.job_id})")
    return entry


def _read_regular(path: Path) -> bytes:
    from jobc.core.files import open_regular  # a FIFO named like an entry must not be waited on

    with open_regular(path) as stream:
        return stream.read(MAX_ENTRY_BYTES + 1)


def _load(path: Path) -> dict[str, Any]:
    """The entry's JSON object; text that is not UTF-8 (a lone surrogate written as \\ud800 too)
    or nested past what the decoder follows is not an entry."""
    try:
        raw = _read_regular(path)
    except FileNotFoundError:
        raise LedgerError(f"{path}: no such ledger entry") from None
    except OSError as exc:
        raise LedgerError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(raw) > MAX_ENTRY_BYTES:
        raise LedgerError(f"{path}: not a ledger entry (larger than {MAX_ENTRY_BYTES:,} bytes)")
    try:
        data = json.loads(raw.decode("utf-8"))
        # every string must be text that can be written again (and hashed): no lone surrogate
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (UnicodeError, ValueError) as exc:
        raise LedgerError(f"{path}: not a ledger entry (not JSON in UTF-8: {exc})") from None
    except RecursionError:
        raise LedgerError(f"{path}: not a ledger entry (nested too deeply)") from None
    if not isinstance(data, dict):
        raise LedgerError(f"{path}: not a ledger entry (not a JSON object)")
    return data


def paths(directory: Path) -> list[Path]:
    """Entry files, oldest job first (job ids grow); temporaries of a crashed write are skipped."""
    if not directory.is_dir():
        return []
    found = [p for p in directory.iterdir() if p.suffix == SUFFIX and not p.name.startswith(".")]
    return sorted(found, key=lambda p: _job_key(p.stem))


def _job_key(stem: str) -> tuple[int, int, str]:
    head, _, task = stem.split("@", 1)[0].partition("_")
    first, second = ascii_int(head), ascii_int(task)
    return (-1 if first is None else first, -1 if second is None else second, stem)


def entries(directory: Path) -> Iterator[Entry | LedgerError]:
    for path in paths(directory):
        try:
            yield read(path)
        except LedgerError as exc:
            yield exc


def recorded(directory: Path, job_id: str) -> list[Entry]:
    """Every entry of one job id, the earliest submitted first (several when Slurm handed the id
    out again); an entry that cannot be read is skipped."""
    found = []
    for path in [
        entry_path(directory, job_id),
        *(directory / name for name in _later(directory).get(job_id, [])),
    ]:
        if path.exists():
            try:
                found.append(read(path))
            except LedgerError:
                continue
    return sorted(found, key=lambda e: e.submitted)


def _later(directory: Path) -> dict[str, list[str]]:
    """The entries named after a job id handed out again, by job id: listed once while the
    directory is unchanged (looking up every job of a large ledger must not list it each time)."""
    try:
        stamp = directory.stat().st_mtime_ns
    except OSError:
        return {}
    return _listed(str(directory), stamp)


@functools.lru_cache(maxsize=4)
def _listed(directory: str, stamp: int) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return found
    for name in names:
        if "@" in name and name.endswith(SUFFIX) and not name.startswith("."):
            found.setdefault(name.split("@", 1)[0], []).append(name)
    return found


def find(directory: Path, job_id: str) -> Entry | None:
    """The entry of a job, or of the array a task `123_4` belongs to (the latest submitted when
    Slurm handed the id out more than once); None when not recorded."""
    base = job_id.split("_", 1)[0]
    for candidate in (job_id, base):
        path = entry_path(directory, candidate)
        if path.exists():
            later = recorded(directory, candidate)
            return later[-1] if later else read(path)
    return None
