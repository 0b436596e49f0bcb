"""The one table of who may call what: each route's scopes (any one of them suffices). The
dependency in api/auth.py reads it for every call, a route missing from it is refused (and
tests/api/test_scopes.py fails), and docs/terminal-api.md's scope table is this one (the same
test reads both)."""

from __future__ import annotations

#: "METHOD /path" (the route's template) -> the scopes that allow it
CALL_SCOPES: dict[str, tuple[str, ...]] = {
    "POST /v1/payments": ("pay",),
    "GET /v1/payments": ("pay",),
    "GET /v1/payments/{app_trans_id}": ("pay",),
    "POST /v1/payments/abort": ("pay",),
    "POST /v1/payments/{payment_id}/abort": ("pay",),
    "POST /v1/refunds": ("refund",),
    "GET /v1/refunds": ("refund",),
    "GET /v1/refunds/{m_refund_id}": ("refund",),
    "GET /v1/reports/x": ("reports",),
    "POST /v1/reports/z": ("reports",),
    "GET /v1/receipts/{subject_id}": ("reports",),
    # the POS's stream carries cashier messages, masked codes and refunds: not the display's
    "GET /v1/events": ("pay", "refund", "reports"),
    # a wallet's notice: no token (the wallet cannot send one), its signature instead
    "POST /v1/webhooks/{wallet}": (),
    # on loopback (a screen plugged into the counter) no token at all
    "GET /display": ("display",),
    "GET /display/events": ("display",),
    "GET /display/qr/{app_trans_id}.svg": ("display",),
    "GET /display/static/{name}": ("display",),
}


def scopes_of(method: str, path: str) -> tuple[str, ...]:
    """The scopes of a route; none (so: refused) for a route the table does not name."""
    return CALL_SCOPES.get(f"{method} {path}", ())
