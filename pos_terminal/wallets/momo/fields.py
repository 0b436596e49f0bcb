"""MoMo's request fields: its ids, its amount limits, what it refuses, checked before sending.

A request MoMo would refuse is refused here, before anything is recorded or sent, with a reason
(an amount outside MoMo's limits names them, in VND).
"""

from __future__ import annotations

import re
import secrets

from pos_terminal.wallets import request_fields
from pos_terminal.wallets.errors import FieldError

WALLET_NAME = "MoMo"
#: One payment (POS, Quick Pay v2), VND.
PAYMENT_LIMITS = (1_000, 5_000_000)
#: One refund, VND.
REFUND_LIMITS = (1_000, 50_000_000)
#: MoMo's orderId (its docs' pattern); a requestId is at most 50 characters.
ORDER_ID = re.compile(r"[0-9a-zA-Z]([-_.]*[0-9a-zA-Z]+)*")
REQUEST_ID_MAX = 50
ORDER_ID_MAX = 40  # leaves room for the capture's and cancel's requestIds (orderId + 8)
DESCRIPTION_MAX = 255  # orderInfo / description (unconfirmed: MoMo gives no limit for POS)

CAPTURE, CANCEL = "capture", "cancel"


#: MoMo's refusals of a request field are the shared FieldError (the name kept for callers).
MomoFieldError = FieldError


def check_amount(call: str, amount: int, limits: tuple[int, int]) -> None:
    request_fields.check_amount(WALLET_NAME, call, amount, limits)


def check_order_id(order_id: str) -> None:
    if len(order_id) > ORDER_ID_MAX or ORDER_ID.fullmatch(order_id) is None:
        raise FieldError("orderId", f"orderId {order_id!r} is not one MoMo accepts "
                                    f"(letters and digits, '-', '_' or '.' between them, "
                                    f"at most {ORDER_ID_MAX} characters)")


def check_text(field: str, text: str) -> str:
    return request_fields.check_text(field, text, DESCRIPTION_MAX)


def check_code(code: str) -> None:
    """MoMo publishes no format: printable ASCII only (routing by pattern is the registry's)."""
    request_fields.check_printable_code("paymentCode", code)


def new_order_id(terminal_id: str, now_ms: int) -> str:
    """``<terminal>-<ms><4 random digits>``: unique per terminal, MoMo's pattern, <= 32 chars."""
    return request_fields.new_order_id(terminal_id, now_ms)


def new_refund_id(terminal_id: str, now_ms: int) -> str:
    """A refund's own orderId (MoMo wants a new one per refund)."""
    return request_fields.new_order_id(terminal_id, now_ms, "R")


def confirm_request_id(order_id: str, request_type: str) -> str:
    """The one requestId of a capture (or cancel) of `order_id`: every retry, by any process,
    after any crash, repeats the same request, which MoMo answers once (its idempotency)."""
    return f"{order_id}-{request_type}"


def new_request_id(order_id: str) -> str:
    """A fresh requestId (a status query: each is a request of its own)."""
    return f"{order_id}-q{secrets.token_hex(4)}"[:REQUEST_ID_MAX]
