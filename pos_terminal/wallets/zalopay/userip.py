"""The terminal's own IP address, sent as ``userip`` on quick pay (the service's samples do).

Found without network traffic: connecting a UDP socket sends nothing, it only asks the routing
table which local address would be used towards the service. The service host is used as is
when it is an IP address; a host name is not resolved here (that would be a DNS query), the
default route's address is taken instead (towards a documentation address, RFC 5737). When
there is no route (offline), the answer is 127.0.0.1.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

FALLBACK = "127.0.0.1"
_DEFAULT_ROUTE_PROBE = "192.0.2.1"  # TEST-NET-1: never reached, only routed
_PORT = 9  # discard; nothing is sent anyway


def _probe_target(service_url: str) -> str:
    host = (urlsplit(service_url).hostname or "").strip("[]")
    if host == "localhost":
        return "127.0.0.1"
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return _DEFAULT_ROUTE_PROBE


def terminal_address(service_url: str) -> str:
    """The local address this machine uses to reach ``service_url``'s host (or 127.0.0.1)."""
    target = _probe_target(service_url)
    family = socket.AF_INET6 if ":" in target else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((target, _PORT))
            address = str(probe.getsockname()[0])
    except OSError:
        return FALLBACK
    if address in ("0.0.0.0", "::"):  # noqa: S104 (read, not bound)
        return FALLBACK
    return address.split("%", 1)[0]  # an IPv6 scope id is not part of the address


def check_user_ip(value: str) -> str:
    """``value`` as an IP address text; ValueError when it is not one."""
    return str(ipaddress.ip_address(value.strip()))
