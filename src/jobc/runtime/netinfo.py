"""Which network interface a rank talks to the master through.

Used by the check program: the most common multi-node failure on a new cluster
is NCCL or Gloo picking a management or docker interface, so every rank reports
the configured interface and the one the kernel routes MASTER_ADDR through.
"""

from __future__ import annotations

import fcntl
import socket
import struct
from collections.abc import Mapping

__all__ = ["address_is_local", "describe_interface", "interface_for_address", "route_source_address"]

_SIOCGIFADDR = 0x8915


def route_source_address(host: str, port: int = 9) -> str | None:
    """The local IPv4 address the kernel would use to reach ``host`` (nothing is sent)."""
    try:
        infos = socket.getaddrinfo(host, port, socket.AF_INET, socket.SOCK_DGRAM)
    except OSError:
        return None
    for *_, address in infos:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect(address)
            except OSError:
                continue
            local: str = sock.getsockname()[0]
            return local
    return None


def address_is_local(host: str) -> bool | None:
    """Whether ``host`` names an address of this machine; None when it does not resolve."""
    try:
        infos = socket.getaddrinfo(host, 0, type=socket.SOCK_STREAM)
    except OSError:
        return None
    for family, kind, proto, _, address in infos:
        with socket.socket(family, kind, proto) as sock:
            try:
                sock.bind((address[0], 0))
            except OSError:
                continue
            return True
    return False


def _interface_address(sock: socket.socket, name: str) -> str | None:
    request = struct.pack("256s", name.encode()[:15])
    try:
        reply = fcntl.ioctl(sock.fileno(), _SIOCGIFADDR, request)
    except OSError:
        return None
    return socket.inet_ntoa(reply[20:24])


def interface_for_address(address: str) -> str | None:
    """The name of the interface that holds the IPv4 ``address``."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _, name in socket.if_nameindex():
            if _interface_address(sock, name) == address:
                return name
    return None


def describe_interface(master_addr: str, env: Mapping[str, str]) -> dict[str, str | None]:
    """The interface this rank uses and where that answer came from."""
    source_address = route_source_address(master_addr)
    routed = interface_for_address(source_address) if source_address else None
    chosen: str | None
    for variable in ("NCCL_SOCKET_IFNAME", "GLOO_SOCKET_IFNAME"):
        configured = env.get(variable, "").strip()
        if configured:
            chosen, source = configured, variable
            break
    else:
        chosen, source = routed, f"route to MASTER_ADDR={master_addr}"
    return {
        "interface": chosen,
        "interface_source": source,
        "route_interface": routed,
        "route_address": source_address,
        "nccl_socket_ifname": env.get("NCCL_SOCKET_IFNAME") or None,
        "gloo_socket_ifname": env.get("GLOO_SOCKET_IFNAME") or None,
    }
