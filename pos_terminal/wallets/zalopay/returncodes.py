"""Return codes: the one code that decides, what it means, and the reason it gives the cashier.

No return-code number is written outside pos_terminal/wallets/zalopay/: the checkout reads the
wallet's outcome vocabulary (results.WalletOutcome) and the predicates here (`never_arrived`).
"""

from __future__ import annotations

from pos_terminal.base.reasons import Reason
from pos_terminal.wallets.code_table import CodeClass, CodeRow

from .constants import RC_NOT_FOUND, RC_V2_FAILED

# What an answer proves is the code table's (code_table.py); the reasons below only word it.
#: Codes that refuse the *request* itself (bad data or mac, credentials, rate limit, internal
#: error, maintenance): when the request was a status query, they say nothing about the payment.
REQUEST_REFUSALS = frozenset({-92, -401, -402, -403, -405, 406, -429, -500, -999})
MAINTENANCE = frozenset({-33, -34, -35, -43, -88, -135, -999})
SYSTEM_ERRORS = frozenset({-32, -301, -500})
BUSY = frozenset({-429})
#: The code one published table calls "order not found", another "refund succeeded".
TWO_READINGS = RC_NOT_FOUND

# What each detailed code (the sub code in the current generation) says about a payment, as a
# reason code (pos_terminal/sentences/wallet_codes.py words them).
PAYMENT_REASONS: dict[int, str] = {
    1: "paid",
    2: "declined",
    3: "processing",
    10: "processing",
    -54: "declined.order_expired",
    -63: "declined.balance",
    -68: "processing.duplicate",
    -92: "refused.transaction_number",
    -101: "not_found",
    -217: "declined.bank_error",
    -322: "declined.code_expired",
    -329: "declined.cancelled",
    -401: "refused.request_data",
    -402: "refused.credentials",
    -429: "checking.busy",
    -500: "checking.system_error",
    -999: "checking.maintenance",
}
# -322 "payment code already used": the earlier use may itself have failed (e.g. a low balance),
# so its sentence must not imply an earlier charge.
CODE_ALREADY_USED = "declined.code_used"
# -401 "payment_code: unknown payment code": the code itself was not recognised (a stale or
# mistyped code), not a problem with the request's other data.
CODE_NOT_RECOGNISED = "declined.code_unknown"
# -401 about a payment code the service cannot decrypt: the terminal encrypted it with an RSA key
# that is not this app id's (the emulator says "payment_code cannot be decrypted ...").
RSA_KEY_MISMATCH = "refused.rsa_key"
_CODE_FIELD_NAMES = ("payment_code", "paymentcode", "payment code")
_NOT_RECOGNISED_WORDS = ("unknown", "not recognised", "not recognized", "not found",
                         "does not exist")

REFUND_REASONS: dict[int, str] = {
    1: "refund.done",
    2: "refund.failed",
    3: "refund.processing",
    -101: "refund.not_found",
}


def deciding_code(return_code: int, sub_return_code: int | None) -> int:
    """The one code that says what happened, for every use (outcome, sentence, refusal): a
    failure (return code 2 of the current generation, or any negative one) is detailed by its
    negative sub code when there is one; otherwise the return code decides."""
    failure = return_code == RC_V2_FAILED or return_code < 0
    if failure and sub_return_code is not None and sub_return_code < 0:
        return sub_return_code
    return return_code


def never_arrived(return_code: int | None, sub_return_code: int | None) -> bool:
    """The codes (as a journal row keeps them) say the service had no record of the order."""
    return return_code is not None and deciding_code(return_code, sub_return_code) == RC_NOT_FOUND


def success_with_failure_detail(sub_return_code: int | None) -> bool:
    """A success whose sub code is a failure's detail: an answer that contradicts itself."""
    return sub_return_code is not None and sub_return_code < 0


def checking(code: int, service_message: str = "", *, refund: bool = False,
             published: bool = True) -> Reason:
    """The reason of an answer that decides nothing (no_information, may_have_charged): what the
    service said, and that the terminal is still checking (never "not paid", never "failed")."""
    detail = service_message.strip().rstrip(".")
    if refund and code == TWO_READINGS:
        return Reason.of("checking.refund_unclear", code=code)
    if not published:
        kind = "checking.unlisted"
    elif code in MAINTENANCE:
        kind = "checking.maintenance"
    elif code in SYSTEM_ERRORS:
        kind = "checking.system_error"
    elif code in BUSY:
        kind = "checking.busy"
    else:
        kind = "checking.refused"
    return Reason.of(kind, code=code, detail=detail, refund=refund)


def describe(
    return_code: int,
    sub_return_code: int | None = None,
    service_message: str = "",
    *,
    refund: bool = False,
    row: CodeRow | None = None,
) -> Reason:
    """What a code says (a reason). An answer its table row says decides nothing (`row`'s class
    no_information or may_have_charged), and any code no reason names, says "still checking"
    with the service's own text."""
    code = deciding_code(return_code, sub_return_code)
    if row is not None and row.cls in (CodeClass.NO_INFORMATION, CodeClass.MAY_HAVE_CHARGED):
        return checking(code, service_message, refund=refund, published=row.published)
    if refund:
        if code in REFUND_REASONS:
            return Reason.of(REFUND_REASONS[code])
        if code > 1:
            return Reason.of(REFUND_REASONS[3])
    if code == -322 and "already used" in service_message.lower():
        return Reason.of(CODE_ALREADY_USED)
    if code == -401 and not refund and "decrypt" in service_message.lower():
        return Reason.of(RSA_KEY_MISMATCH)
    if code == -401 and not refund and _is_unrecognised_code(service_message):
        return Reason.of(CODE_NOT_RECOGNISED)
    known = PAYMENT_REASONS.get(code)
    if known is not None and not known.startswith("checking."):
        if code == -401 and service_message:  # the service's own words, as given
            return Reason.of(known, service_message=service_message.strip())
        return Reason.of(known)
    published = known is not None or code in REQUEST_REFUSALS or code in MAINTENANCE \
        or code in SYSTEM_ERRORS
    return checking(code, service_message, refund=refund, published=published)


def describe_bank_list_refusal(return_code: int, service_message: str = "") -> Reason:
    """A refused bank list: what was refused and why (a bank list charges nothing by nature,
    so nothing is said about charges)."""
    detail = service_message.strip().rstrip(".")
    if return_code == -402:
        kind = "banks.refused.credentials"
    elif return_code in (-429, -500, -999):
        kind = "banks.refused.busy"
    else:
        kind = "banks.refused"
    return Reason.of(kind, code=return_code, detail=detail)


def _is_unrecognised_code(service_message: str) -> bool:
    """True when a -401 says the payment code is unknown (not undecryptable or malformed: those
    come from the terminal's key or encoding, and a fresh code would not help)."""
    text = service_message.lower()
    return any(name in text for name in _CODE_FIELD_NAMES) and any(
        word in text for word in _NOT_RECOGNISED_WORDS)
