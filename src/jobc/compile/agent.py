"""The torchrun agent as the step script starts it: `python -c AGENT torchrun-options… program…`.

It is torch.distributed.run's own `main`, with two things around it, written for every Python
and torch the runtime supports (no newer syntax, no torch internals beyond `main` and
`ChildFailedError`):

* SIGURG, which the batch shell's `scancel` sends to every process of the step and which every
  other process ignores, makes the agent send the spec's signal (`JOBC_SIGNAL`) to its own
  children, the workers, once. The agent never sees the spec's signal itself, so it neither dies
  of a SIGUSR1/SIGUSR2 it does not handle (older torch handles only TERM, INT, HUP and QUIT), nor
  forwards a second copy, nor SIGKILLs the workers after its shutdown timeout (30 s, fixed in all
  but the newest torch): the workers keep the whole grace window on any torch. torchrun also
  stops every worker (SIGTERM, a second signal) as soon as one has exited, so after relaying the
  agent waits, up to JOBC_GRACE_S, until all the workers it signalled have exited: one that is
  done with its checkpoint first does not cut the others' short.
* torchrun turns any worker failure into exit code 1. When a worker exited with the requeue code
  (`JOBC_REQUEUE_EXIT_CODE`) and every other failed worker either did the same or was ended by a
  signal (the agent stops the rest of its workers after the first exit), the agent exits with the
  requeue code instead, so that the batch shell requeues the job. The same holds for the
  runtime's hang code (the hang watchdog ended the workers), so that the job's exit code says so.
"""

from __future__ import annotations

from jobc.tables.contract import AGENT_HANG, AGENT_REQUEUE, HANG_EXIT_CODE, REQUEUE_EXIT_CODE

_SOURCE = """\
import os
import signal
import sys
import time


def jobc_children():
    me = str(os.getpid())
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/" + name + "/stat") as stat:
                text = stat.read()
        except OSError:
            continue
        # The command name may hold spaces and parentheses; the fields follow the last ')'.
        fields = text[text.rfind(")") + 2 :].split()
        if len(fields) > 1 and fields[1] == me:
            found.append(int(name))
    return found


jobc_relayed = []


def jobc_running(pid):
    # An exited worker stays a zombie until torchrun reaps it (and reads its exit code).
    try:
        with open("/proc/" + str(pid) + "/stat") as stat:
            text = stat.read()
    except OSError:
        return False
    return text[text.rfind(")") + 2 :][:1] not in ("Z", "X")


def jobc_relay(signum, frame):
    if jobc_relayed:
        return
    jobc_relayed.append(signum)
    name = os.environ.get("JOBC_SIGNAL", "SIGTERM")
    sig = getattr(signal, name, signal.SIGTERM) if name.startswith("SIG") else signal.SIGTERM
    sent = []
    for pid in jobc_children():
        try:
            os.kill(pid, sig)
            sent.append(pid)
        except OSError:
            pass
    # torchrun stops every worker (SIGTERM, then SIGKILL) as soon as it sees one exit: the first
    # worker done with its checkpoint would cut the others' short and give them a second signal.
    # This handler runs in the agent's main thread, so torchrun looks again only once every
    # worker has exited or the grace window (JOBC_GRACE_S) is over.
    try:
        grace = float(os.environ.get("JOBC_GRACE_S", "0"))
    except ValueError:
        grace = 0.0
    end = time.monotonic() + grace
    while time.monotonic() < end and any(jobc_running(pid) for pid in sent):
        time.sleep(0.1)


signal.signal(signal.SIGURG, jobc_relay)
# Tells jobc.runtime in the workers that this agent never SIGKILLs them after the spec's signal.
os.environ["JOBC_SIGNAL_RELAY"] = "agent"

from torch.distributed.elastic.multiprocessing.errors import ChildFailedError  # noqa: E402
from torch.distributed.run import main  # noqa: E402

jobc_requeue = int(os.environ.get("JOBC_REQUEUE_EXIT_CODE", "@REQUEUE_EXIT_CODE@"))
jobc_hang = @HANG_EXIT_CODE@
try:
    main(sys.argv[1:])
except ChildFailedError as error:
    codes = [failure.exitcode for failure in error.failures.values()]
    if jobc_requeue in codes and all(code == jobc_requeue or code < 0 for code in codes):
        sys.stderr.write(
            "@AGENT_REQUEUE@\\n" % jobc_requeue
        )
        sys.exit(jobc_requeue)
    if jobc_hang in codes and all(code == jobc_hang or code < 0 for code in codes):
        sys.stderr.write("@AGENT_HANG@\\n" % jobc_hang)
        sys.exit(jobc_hang)
    raise
"""
# The exit code and the line the agent prints come from the script's contract (jobc.tables).
AGENT = (
    _SOURCE.replace("@REQUEUE_EXIT_CODE@", str(REQUEUE_EXIT_CODE))
    .replace("@AGENT_REQUEUE@", AGENT_REQUEUE.printf)
    .replace("@HANG_EXIT_CODE@", str(HANG_EXIT_CODE))
    .replace("@AGENT_HANG@", AGENT_HANG.printf)
)
