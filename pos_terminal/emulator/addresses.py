"""Which address to print for the emulator, so that a phone on the same network can open it.

Bound to a wildcard (0.0.0.0 or ::) the emulator listens on every interface, but "0.0.0.0" is not
an address a browser can open: the URL to show uses this machine's address on its network
(the one the default route uses, found without sending anything), and the terminal running
in the same process talks to it over loopback.
"""

from __future__ import annotations

import socket

WILDCARDS = frozenset({"0.0.0.0", "::", ""})  # noqa: S104 (names of wildcards, not a bind)
_ROUTE_PROBE = {socket.AF_INET: "192.0.2.1", socket.AF_INET6: "2001:db8::1"}  # never reached


def network_address(ipv6: bool = False) -> str:
    """This machine's address on its network (the default route's), or loopback if none."""
    family = socket.AF_INET6 if ipv6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((_ROUTE_PROBE[family], 9))  # UDP connect: nothing is sent
            address = str(probe.getsockname()[0]).split("%", 1)[0]
    except OSError:
        return "::1" if ipv6 else "127.0.0.1"
    return address


def url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def reachable_host(bound: str) -> str:
    """The host to put in URLs shown to people (a phone): the bound one, or the network's."""
    return network_address(ipv6=bound == "::") if bound in WILDCARDS else bound


def local_host(bound: str) -> str:
    """The host this machine's own clients use (loopback for a wildcard bind)."""
    if bound in WILDCARDS:
        return "::1" if bound == "::" else "127.0.0.1"
    return bound
