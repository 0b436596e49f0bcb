"""The Host rule every door of this machine applies (the Terminal API, the customer display,
the emulator): a request whose Host header names something other than this machine is refused
(421), before any route.

Why: DNS rebinding. A web page on a name its author controls (evil.example) can make that name
resolve to 127.0.0.1 and then read the door as its own origin, no CORS involved. The page
cannot change the Host header its browser sends, so a door that answers only its own names is
out of its reach. Own names: `localhost`, an IP address of this machine (checked by binding to
it, so every interface counts), this machine's host name, the bound host, and the names the
configuration adds (a counter reached by name on the shop's network)."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def is_loopback(host: str) -> bool:
    """Whether binding `host` keeps a server on this machine only."""
    if host.lower().rstrip(".") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@lru_cache(maxsize=256)
def is_own_address(address: str) -> bool:
    """Whether `address` (an IP literal) belongs to this machine: only then can a socket be
    bound to it (nothing is sent)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if ip.is_unspecified or ip.is_multicast:  # 0.0.0.0 binds, but names no machine
        return False
    if ip.is_loopback:
        return True
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((address, 0))
    except OSError:
        return False
    return True


def host_name_of(header: str) -> str | None:
    """The host of a Host header ("[::1]:8765" -> "::1"), lower case; None if unreadable."""
    if not header or any(c in header for c in "/?#@\\ \t"):
        return None
    try:
        parts = urlsplit("//" + header)
        name = parts.hostname
        _ = parts.port  # a port that is not a number makes the header unreadable
    except ValueError:
        return None
    return name.rstrip(".") if name else None


def _unspecified(host: str) -> bool:
    try:
        return ipaddress.ip_address(_clean(host)).is_unspecified
    except ValueError:
        return False


def _clean(name: str) -> str:
    return name.lower().strip().strip("[]").rstrip(".")


@dataclass(frozen=True)
class HostRule:
    """The names a door answers to."""

    names: frozenset[str]

    @classmethod
    def for_bind(cls, host: str, allowed_hosts: Iterable[str] = ()) -> HostRule:
        machine = socket.gethostname().lower()
        names = {*LOOPBACK_NAMES, machine, f"{machine}.local",
                 *(_clean(h) for h in allowed_hosts if h.strip())}
        if host and not _unspecified(host):  # 0.0.0.0 binds every address, names none
            names.add(_clean(host))
        return cls(frozenset(names))

    def allows(self, header: str) -> bool:
        name = host_name_of(header)
        if name is None:
            return False
        return name in self.names or is_own_address(name)
