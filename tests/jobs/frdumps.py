"""Flight-recorder dumps written the way torch writes them, for the formats jobc reads.

The fields, their names and their order follow torch's own writers in pytorch/pytorch:
``NCCLTraceBuffer::dump`` in ``torch/csrc/distributed/c10d/TraceUtils.h`` (format "1.4": ``seq_id``
and ``pg_id``, ``pg_config`` mapping a group's number to its ranks; format "2.0": ``process_group``
as a (name, desc) tuple, ``collective_seq_id``, ``p2p_seq_id``, ``is_p2p``, dtypes, ``pg_config``
mapping a name to ``{"name", "desc", "ranks": "[0, 1]"}``), and ``FlightRecorder.cpp``
(format "2.4": ``pg_status`` and ``timeout_ms`` added; ``dump_json`` writes the same entries as JSON,
without ``frames``, ``process_group`` as a list, ``pg_status`` values as strings and the discovery
times as 0). Format "2.10" (torch 2.15) adds ``comm_lib_version``, ``thread_id`` and ``thread_name``.
The file name is ``TORCH_NCCL_DEBUG_INFO_TEMP_FILE`` (default ``/tmp/nccl_trace_rank_``) + the rank.
torch pickles with protocol 2 and plain containers only, as ``pickle.dumps(..., protocol=2)`` does.
Point-to-point names carry the ranks within the group, ``nccl:send 1->2`` and ``nccl:recv 2<-1``
(``Op`` in torch/distributed/flight_recorder/components/types.py); a coalesced group is its
operations and then one ``nccl:coalesced`` entry of the same sequence number
(``find_coalesced_group`` in that package's utils.py).
"""

from __future__ import annotations

import json
import pickle
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Call:
    """One collective as a rank recorded it."""

    seq: int
    op: str = "all_reduce"
    sizes: list[list[int]] = field(default_factory=lambda: [[1024]])
    state: str = "completed"
    line: int = 40
    function: str = "train_step"
    group: tuple[str, str] = ("0", "default_pg")
    p2p: bool = False


def _v(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def frames(line: int, function: str, op: str) -> list[dict[str, Any]]:
    """Innermost first, torch's frames before the program's (as the tutorial's dump shows)."""
    lib = "/opt/venv/lib/python3.11/site-packages/torch/distributed"
    return [
        {"name": op.split(" ", maxsplit=1)[0], "filename": f"{lib}/distributed_c10d.py", "line": 2696},
        {"name": "wrapper", "filename": f"{lib}/c10d_logger.py", "line": 83},
        {"name": function, "filename": "/home/alice/train.py", "line": line},
        {"name": "main", "filename": "/home/alice/train.py", "line": 120},
        {"name": "<module>", "filename": "/home/alice/train.py", "line": 130},
    ]


def entry(version: str, index: int, call: Call, *, json_form: bool = False) -> dict[str, Any]:
    name = f"nccl:{call.op}"
    t = 1_724_779_239_936_775_119 + index * 1_000_000
    done = call.state == "completed"
    if version.startswith("1."):
        return {
            "record_id": index,
            "pg_id": int(call.group[0]),
            "seq_id": call.seq,
            "op_id": call.seq,
            "profiling_name": name,
            "time_created_ns": t,
            "input_sizes": call.sizes,
            "output_sizes": call.sizes,
            "state": call.state,
            "time_discovered_started_ns": None,
            "time_discovered_completed_ns": t + 500 if done else None,
            "retired": done,
            "frames": frames(call.line, call.function, call.op),
        }
    out: dict[str, Any] = {}
    if not json_form:
        out["frames"] = frames(call.line, call.function, call.op)
    out |= {
        "record_id": index,
        "pg_id": int(call.group[0]),
        "process_group": list(call.group) if json_form else tuple(call.group),
        "collective_seq_id": 0 if call.p2p else call.seq,
        "p2p_seq_id": call.seq if call.p2p else 0,
        "op_id": call.seq,
        "profiling_name": name,
        "time_created_ns": t,
        "input_sizes": call.sizes,
        "input_dtypes": ["Float"] * len(call.sizes),
        "output_sizes": call.sizes,
        "output_dtypes": ["Float"] * len(call.sizes),
        "state": call.state,
        "time_discovered_started_ns": 0 if json_form else None,
        "time_discovered_completed_ns": (t + 500 if done else (0 if json_form else None)),
        "retired": done,
    }
    if _v(version) >= (2, 4):
        out["timeout_ms"] = 600_000
    if version == "2.10":
        out["thread_id"] = "140432770370432"
        out["thread_name"] = "python"
    out["is_p2p"] = call.p2p
    return out


def dump(
    version: str,
    calls: list[Call],
    world: int,
    *,
    json_form: bool = False,
    groups: dict[str, tuple[str, list[int]]] | None = None,
) -> dict[str, Any]:
    """``groups``: further process groups (name -> (desc, global ranks)), as ``pg_config`` lists
    each group torch made (a pipeline group of Megatron, say)."""
    entries = [entry(version, i, c, json_form=json_form) for i, c in enumerate(calls)]
    if version.startswith("1."):
        return {"entries": entries, "version": version, "pg_config": {0: list(range(world))}}
    ranks = "[" + ", ".join(str(r) for r in range(world)) + "]"
    out: dict[str, Any] = {"version": version}
    if version == "2.10":
        out["comm_lib_version"] = "2.27.3"
    out["pg_config"] = {"0": {"name": "0", "desc": "default_pg", "ranks": ranks}}
    for name, (desc, members) in (groups or {}).items():
        listed = "[" + ", ".join(str(r) for r in members) + "]"
        out["pg_config"][name] = {"name": name, "desc": desc, "ranks": listed}
    if _v(version) >= (2, 4):
        enqueued = max((c.seq for c in calls if not c.p2p), default=0)
        completed = max((c.seq for c in calls if not c.p2p and c.state == "completed"), default=0)
        status = {"last_enqueued_collective": enqueued, "last_started_collective": -1}
        status["last_completed_collective"] = completed
        out["pg_status"] = {"0": {k: str(v) for k, v in status.items()} if json_form else status}
    out["entries"] = entries
    return out


def write(
    directory: Path,
    version: str,
    ranks: dict[int, list[Call]],
    *,
    world: int,
    prefix: str = "nccl_trace_rank_",
    json_form: bool = False,
    groups: dict[str, tuple[str, list[int]]] | None = None,
) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for rank, calls in ranks.items():
        data = dump(version, calls, world, json_form=json_form, groups=groups)
        path = directory / f"{prefix}{rank}"
        if json_form:
            path.write_text(json.dumps(data))
        else:
            path.write_bytes(pickle.dumps(data, protocol=2))
    return directory


def steady(n: int, **kw: Any) -> list[Call]:
    """Collectives #1..#n, all completed."""
    return [Call(seq, **kw) for seq in range(1, n + 1)]
