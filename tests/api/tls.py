"""This machine's address beyond loopback, if it has one (a TLS test server's certificate:
tests/listeners.self_signed)."""

from __future__ import annotations

import ipaddress
import socket


def outside_address() -> str | None:
    """An IPv4 address of this machine that is not loopback (None when it has none)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks a route
        except OSError:
            return None
        address = str(probe.getsockname()[0])
    return None if ipaddress.ip_address(address).is_loopback else address
