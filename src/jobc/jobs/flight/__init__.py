"""Hang dumps: which rank parted from the others, in which collective, at which line.

`jobc.runtime`'s hang watchdog leaves, per rank, in the job's dump directory:

* ``rank<R>-restart<N>.fr.json`` — torch's flight recorder, as ``_dump_fr_trace_json`` (gloo) or
  ``_dump_nccl_trace_json`` writes it: ``entries``, each with ``process_group`` (name,
  description), ``collective_seq_id``, ``profiling_name`` (``gloo:all_reduce``), ``input_sizes``,
  ``input_dtypes``, ``is_p2p``;
* ``rank<R>-restart<N>.stacks.json`` — every thread's Python stack at that moment (innermost
  first), the reason, and the members of each process group.

The reader is plain JSON, no torch: it lines up each process group's collectives by sequence
number across ranks and names the first point where they part:

* **desync** — at one sequence number the ranks recorded different operations, sizes or dtypes
  (one rank calls ``broadcast`` where the others ``all_reduce``, or a rank skipped a collective
  and its next one meets theirs): the ranks in the minority are named;
* **late** — some ranks never entered the collective the others wait in (their last sequence
  number is lower): those ranks are named;
* **lost** — a member wrote no dump at all (gloo aborts a process on a size mismatch, and its
  recorder dies with it). Such a rank's stack can still be in the job log: the runtime turns on
  ``faulthandler``, which prints it on a fatal signal. The rank whose own line differs from the
  others' is then named.

torch's own dumps (one file a rank, ``<prefix><rank>``, pickled on a timeout or JSON; formats 1.x
and 2.x) are read when the watchdog left none. They list each group's members (``pg_config``), so
a member without a dump can be told from one that was never a member; they record where each
collective was *called*, not where a rank is now, and the report says which it shows. When every
rank entered a collective and none completed it (**stuck**), no rank is named: the dumps cannot
tell which GPU or link held it up.
Point-to-point operations (pipeline parallelism) are matched by peer, as torch's fr_trace does:
a send or recv left open whose partner the peer never posted names that peer.

Every named rank comes with its stack, the program's own frame first (not torch's, not the
standard library's, not jobc's). Input is untrusted: a file that is too large, not JSON, or not
shaped like a dump becomes a note, never a traceback; a pickle is loaded as plain data only.
"""

from __future__ import annotations

from jobc.jobs.flight.analysis import analyse
from jobc.jobs.flight.logstacks import fatal_stacks
from jobc.jobs.flight.model import Divergence, Entry, FlightReport, Frame, RankDump, user_first
from jobc.jobs.flight.read import TORCH_PREFIX, find_dump_dir, read_dump_files, read_dumps

__all__ = [
    "TORCH_PREFIX",
    "Divergence",
    "Entry",
    "FlightReport",
    "Frame",
    "RankDump",
    "analyse",
    "fatal_stacks",
    "find_dump_dir",
    "read_dump_files",
    "read_dumps",
    "user_first",
]
