"""MoMo's request fields: its ids, its amount limits, what it refuses, checked before sending.

A request MoMo would refuse is refused here, before anything is recorded or sent, with a reason
(an amount outside MoMo's limits names them, in VND).
"""

from __future__ import annotations

import re
import secrets

from pos_terminal.base.errors import ExitCode
from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_errors import WalletError

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


class MomoFieldError(WalletError):
    """A request MoMo would refuse, refused here: nothing was recorded or sent."""

    exit_code = ExitCode.NOTHING_SENT
    kind = "wallet.field_refused"

    def __init__(self, field: str, message: Reason | str) -> None:
        super().__init__(message)
        self.field = field


def out_of_range(call: str, amount: int, limits: tuple[int, int]) -> Reason:
    """An amount outside the wallet's limits for one `call` ("payment" or "refund")."""
    return Reason.of("wallet.amount_out_of_range", wallet=WALLET_NAME, call=call, amount=amount,
                     minimum=limits[0], maximum=limits[1])


def check_amount(call: str, amount: int, limits: tuple[int, int]) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise MomoFieldError("amount", Reason.of("amount.not_whole", value=repr(amount)))
    if not limits[0] <= amount <= limits[1]:
        raise MomoFieldError("amount", out_of_range(call, amount, limits))


def check_order_id(order_id: str) -> None:
    if len(order_id) > ORDER_ID_MAX or ORDER_ID.fullmatch(order_id) is None:
        raise MomoFieldError("orderId", f"orderId {order_id!r} is not one MoMo accepts "
                                        f"(letters and digits, '-', '_' or '.' between them, "
                                        f"at most {ORDER_ID_MAX} characters)")


def check_text(field: str, text: str) -> str:
    if len(text) > DESCRIPTION_MAX:
        raise MomoFieldError(field, f"{field} is {len(text)} characters long; the limit is "
                                    f"{DESCRIPTION_MAX}")
    return text


def check_code(code: str) -> None:
    """MoMo publishes no format: printable ASCII only (routing by pattern is the registry's)."""
    if not code or not code.isascii() or not code.isprintable():
        raise MomoFieldError("paymentCode", Reason.of("code.unreadable_characters"))


def _terminal_part(terminal_id: str) -> str:
    kept = "".join(ch for ch in terminal_id if ch.isascii() and ch.isalnum())
    return (kept or "pos")[:12]


def new_order_id(terminal_id: str, now_ms: int) -> str:
    """``<terminal>-<ms><4 random digits>``: unique per terminal, MoMo's pattern, <= 32 chars."""
    return f"{_terminal_part(terminal_id)}-{now_ms}{secrets.randbelow(10_000):04d}"


def new_refund_id(terminal_id: str, now_ms: int) -> str:
    """A refund's own orderId (MoMo wants a new one per refund)."""
    return f"{_terminal_part(terminal_id)}-R{now_ms}{secrets.randbelow(10_000):04d}"


def confirm_request_id(order_id: str, request_type: str) -> str:
    """The one requestId of a capture (or cancel) of `order_id`: every retry, by any process,
    after any crash, repeats the same request, which MoMo answers once (its idempotency)."""
    return f"{order_id}-{request_type}"


def new_request_id(order_id: str) -> str:
    """A fresh requestId (a status query: each is a request of its own)."""
    return f"{order_id}-q{secrets.token_hex(4)}"[:REQUEST_ID_MAX]
