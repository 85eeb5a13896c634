"""Meeting at MASTER_ADDR:MASTER_PORT with a deadline and a head count.

``init_process_group`` on its own waits up to its collective timeout (30 min
by default) when a rank is missing and then reports nothing useful. Here rank 0
hosts a TCPStore, every rank registers a record and bumps an arrival counter,
and rank 0 waits for the full count until ``JOBC_RENDEZVOUS_TIMEOUT_S``. On
timeout every rank fails with the address, the count and the missing ranks;
when all arrived, rank 0 checks the records (``worldcheck``) and publishes a
verdict that every rank obeys. The same store then backs the process group.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import time
from collections.abc import Mapping
from datetime import timedelta
from typing import Any, cast

from torch._C._distributed_c10d import PrefixStore, Store, TCPStore

from jobc.runtime.contract import Contract
from jobc.runtime.errors import RendezvousError, WorldMismatchError
from jobc.runtime.launch import Launch
from jobc.runtime.netinfo import address_is_local
from jobc.runtime.worldcheck import Member, verify_members

__all__ = ["rendezvous"]

log = logging.getLogger("jobc.runtime")

_ARRIVED = "arrived"
_ACKED = "acked"
_VERDICT = "verdict"
# How long rank 0 keeps its store up after a failed verdict so that the other
# ranks can read why, and how much longer than rank 0 the others wait for it.
_LINGER_S = 5.0
_MARGIN_S = 10.0
_MAX_LISTED = 16


def _member_key(rank: int) -> str:
    return f"member/{rank}"


def _where(launch: Launch) -> str:
    return f"MASTER_ADDR:MASTER_PORT = {launch.master}"


def _await_listener(host: str, port: int, deadline: float) -> str | None:
    """Wait until something accepts connections at host:port; the last error if nothing did.

    TCPStore's own client retries past its timeout (up to about twice it) and logs a
    C++ stack trace per attempt; probing first keeps the deadline ours and the log short.
    """
    last_error = "no connection attempt was made"
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return last_error
        try:
            with socket.create_connection((host, port), timeout=min(1.0, remaining)):
                return None
        except OSError as exc:
            last_error = f"{type(exc).__name__}: {exc}"
        time.sleep(min(0.1, max(0.0, deadline - time.monotonic())))


def _open_store(launch: Launch, env: Mapping[str, str], timeout_s: float) -> TCPStore:
    use_agent_store = launch.mode == "torchrun" and env.get("TORCHELASTIC_USE_AGENT_STORE") == "True"
    is_master = launch.rank == 0 and not use_agent_store
    if is_master and (hint := _not_here(launch)):
        log.warning("jobc.runtime: %s", hint)
    if not is_master:
        failure = _await_listener(launch.master_addr, launch.master_port, time.monotonic() + timeout_s)
        if failure is not None:
            raise RendezvousError(
                f"rank {launch.rank} could not reach the rendezvous store at {_where(launch)} "
                f"within {timeout_s:g} s, so 0 of {launch.world_size} ranks could be counted: "
                f"rank 0, which hosts the store, never opened it (it did not start, crashed "
                f"before init(), or MASTER_ADDR is not the host it runs on; this rank runs on "
                f"{launch.node_name}). Last error: {failure}"
            )
    try:
        return TCPStore(
            launch.master_addr,
            launch.master_port,
            launch.world_size,
            is_master=is_master,
            timeout=timedelta(seconds=timeout_s),
            wait_for_workers=False,
        )
    except RuntimeError as exc:
        if is_master:
            raise RendezvousError(
                f"rank 0 could not open the rendezvous store on port {launch.master_port} "
                f"({_where(launch)}): {_first_line(exc)}. Another process on this node "
                "probably holds the port (a second job or step with the same MASTER_PORT); "
                "export a different MASTER_PORT"
            ) from None
        raise RendezvousError(
            f"rank {launch.rank} reached {_where(launch)} but could not open the rendezvous "
            f"store there: {_first_line(exc)}. Is another service listening on that port?"
        ) from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _missing_ranks(store: Store, world_size: int) -> list[int]:
    return [r for r in range(world_size) if not store.check([_member_key(r)])]


def _not_here(launch: Launch) -> str | None:
    """A hint when rank 0 hosts the store but MASTER_ADDR names another machine."""
    if address_is_local(launch.master_addr) is False:
        return (
            f"MASTER_ADDR={launch.master_addr} is not an address of the host rank 0 runs on "
            f"({launch.node_name}), so the other ranks look for the store elsewhere"
        )
    return None


def _timeout_message(launch: Launch, arrived: int, missing: list[int], timeout_s: float) -> str:
    shown = ", ".join(str(r) for r in missing[:_MAX_LISTED])
    if len(missing) > _MAX_LISTED:
        shown += f" and {len(missing) - _MAX_LISTED} more"
    message = (
        f"rendezvous at {_where(launch)} did not complete within {timeout_s:g} s: "
        f"{arrived} of {launch.world_size} ranks arrived; missing ranks: {shown or 'unknown'}. "
        "A missing rank usually crashed before init() (see its own log), was started with "
        f"a different MASTER_ADDR/MASTER_PORT, or cannot reach {launch.master} "
        "(firewall, wrong interface); raise JOBC_RENDEZVOUS_TIMEOUT_S only if ranks start slowly"
    )
    hint = _not_here(launch)
    return f"{message}. Note: {hint}" if hint else message


def _publish(store: Store, verdict: dict[str, Any]) -> None:
    store.set(_VERDICT, json.dumps(verdict))


def _linger(store: Store, arrived: int) -> None:
    # The store dies with rank 0; give the ranks that did arrive a moment to read
    # the verdict so that they fail with the same message rather than a reset.
    deadline = time.monotonic() + _LINGER_S
    while time.monotonic() < deadline:
        if store.add(_ACKED, 0) >= arrived - 1:
            return
        time.sleep(0.02)


def rendezvous(
    launch: Launch,
    contract: Contract,
    member: Member,
    env: Mapping[str, str],
    *,
    timeout_s: float,
) -> Store:
    """Count every rank in, check the world, and return the store for the process group."""
    started = time.monotonic()
    root = _open_store(launch, env, timeout_s)
    remaining = max(0.1, timeout_s - (time.monotonic() - started))
    root.set_timeout(timedelta(seconds=remaining + _MARGIN_S))
    # Keyed by job as well: a rank of another job that reaches this store by mistake
    # (same port, wrong MASTER_ADDR) must not count as one of ours.
    store = PrefixStore(f"jobc/{launch.job_id or 'nojob'}/attempt_{launch.elastic_restart_count}/", root)
    try:
        store.set(_member_key(launch.rank), json.dumps(member))
        store.add(_ARRIVED, 1)
    except RuntimeError as exc:
        raise RendezvousError(
            f"rank {launch.rank} lost the rendezvous store at {_where(launch)} while "
            f"registering: {_first_line(exc)}"
        ) from None
    if launch.rank == 0:
        _lead(store, launch, contract, started + timeout_s, timeout_s)
    else:
        _follow(store, launch, remaining + _MARGIN_S)
    return PrefixStore(f"torch/attempt_{launch.elastic_restart_count}/", root)


def _lead(store: Store, launch: Launch, contract: Contract, deadline: float, timeout_s: float) -> None:
    pause = 0.005
    while (arrived := store.add(_ARRIVED, 0)) < launch.world_size:
        if time.monotonic() >= deadline:
            missing = _missing_ranks(store, launch.world_size)
            message = _timeout_message(launch, arrived, missing, timeout_s)
            _publish(store, {"ok": False, "kind": "timeout", "message": message})
            _linger(store, arrived)
            raise RendezvousError(message)
        time.sleep(pause)
        pause = min(pause * 2, 0.1)
    keys = [_member_key(r) for r in range(launch.world_size)]
    members = [cast(Member, json.loads(raw)) for raw in store.multi_get(keys)]
    problems = verify_members(members, contract)
    if problems:
        spec = f" {contract.spec_name!r}" if contract.spec_name else ""
        message = f"the live world does not match the spec{spec}:\n" + "\n".join(f"  - {p}" for p in problems)
        _publish(store, {"ok": False, "kind": "mismatch", "message": message})
        _linger(store, arrived)
        raise WorldMismatchError(message)
    _publish(store, {"ok": True})


def _follow(store: Store, launch: Launch, wait_s: float) -> None:
    try:
        store.wait([_VERDICT], timedelta(seconds=wait_s))
        verdict = json.loads(store.get(_VERDICT))
    except RuntimeError as exc:
        try:
            arrived = str(store.add(_ARRIVED, 0))
        except RuntimeError:
            arrived = "an unknown number"
        raise RendezvousError(
            f"rank {launch.rank} got no verdict from rank 0 at {_where(launch)} within "
            f"{wait_s:g} s: {arrived} of {launch.world_size} ranks had arrived; rank 0 "
            f"stopped answering ({_first_line(exc)})"
        ) from None
    if verdict.get("ok"):
        return
    with contextlib.suppress(RuntimeError):
        store.add(_ACKED, 1)
    message = str(verdict.get("message", "rank 0 rejected the world"))
    if verdict.get("kind") == "mismatch":
        raise WorldMismatchError(message)
    raise RendezvousError(message)
