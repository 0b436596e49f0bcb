"""Return codes: the one code that decides, what it means, and one sentence for the cashier.

No return-code number is written outside pos_terminal/wallet/: the checkout reads the wallet's
outcome vocabulary (results.WalletOutcome) and the predicates here (`never_arrived`).
"""

from __future__ import annotations

from pos_terminal.base.i18n import N_, _

from .constants import RC_NOT_FOUND, RC_V2_FAILED

#: Codes that refuse the *request* itself (bad data or mac, credentials, rate limit, internal
#: error, maintenance): when the request was a status query, they say nothing about the payment.
REQUEST_REFUSALS = frozenset({-92, -401, -402, -429, -500, -999})
#: On a quick pay, codes after which the charge may still have happened: query before deciding.
SEND_AMBIGUOUS = frozenset({-500})

# Payment sentences, by the detailed code (the sub code in the current generation).
PAYMENT_SENTENCES: dict[int, str] = {
    1: N_("Payment received. The sale is complete."),
    2: N_("The payment failed and the customer was not charged. Ask for another way to pay."),
    3: N_("The payment is still being processed. Wait for the result; do not charge again."),
    10: N_("The payment is still being processed. Wait for the result; do not charge again."),
    -54: N_("The order expired before it was paid. Start a new payment."),
    -63: N_("The customer's wallet balance is too low. Ask the customer to top up the wallet "
    "or pay another way."),
    -68: N_("This transaction was already sent to the service. The terminal is checking its "
    "status; do not charge again."),
    -92: N_("The service refused the transaction number (wrong date or format). Check the "
    "terminal's clock, then start a new payment."),
    -101: N_("The service has no record of this payment. If it was just sent, wait and check "
    "again; otherwise the customer was not charged."),
    -217: N_("The customer's bank reported an error and nothing was charged. Ask the customer to "
    "try again or pay another way."),
    -322: N_("The payment code expired and the customer was not charged. Ask the customer to "
    "refresh the code in the wallet app and scan again."),
    -329: N_("The customer cancelled the payment. Ask how they would like to pay."),
    -401: N_("The service refused the request data and nothing was charged. Check the amount and "
    "details and try again; if it happens again, call support."),
    -402: N_("The service refused this terminal's credentials and nothing was charged. Check "
    "[service] app_id and key1 (or the environment variable POS_KEY1) in the configuration, or "
    "call support."),
    -429: N_("The service is busy and refused the payment. Wait a few seconds, then scan again."),
    -500: N_("The wallet service had an internal error and refused the payment. Wait a moment, "
    "then try again."),
    -999: N_("The wallet service is down for maintenance. Ask the customer to pay another way "
    "for now."),
}

# -322 "payment code already used": the earlier use may itself have failed (e.g. a low balance),
# so the sentence must not imply an earlier charge.
CODE_ALREADY_USED = N_(
    "This payment code was already used once and cannot be used again; the customer was not "
    "charged for this attempt. Ask the customer to refresh the code in the wallet app and scan "
    "the new one."
)

# -401 "payment_code: unknown payment code": the code itself was not recognised (a stale or
# mistyped code), not a problem with the request's other data.
CODE_NOT_RECOGNISED = N_(
    "The service did not recognise this payment code and the customer was not charged. Ask the "
    "customer to refresh the code in the wallet app and scan again."
)
# -401 about a payment code the service cannot decrypt: the terminal encrypted it with an RSA key
# that is not this app id's (the emulator says "payment_code cannot be decrypted ...").
RSA_KEY_MISMATCH = N_(
    "The terminal's RSA public key does not match this app id: the service cannot decrypt the "
    "payment code, and nothing was charged. Check [service] rsa_public_key / "
    "POS_RSA_PUBLIC_KEY."
)
_CODE_FIELD_NAMES = ("payment_code", "paymentcode", "payment code")
_NOT_RECOGNISED_WORDS = ("unknown", "not recognised", "not recognized", "not found",
                         "does not exist")

REFUND_SENTENCES: dict[int, str] = {
    1: N_("The refund is complete."),
    2: N_("The refund failed and no money moved. Check the amount and try again, or call support."),
    3: N_("The refund is being processed. Check its status again later."),
    -101: N_("The service has no record of this refund. If it was just sent, check again shortly."),
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


def describe(
    return_code: int,
    sub_return_code: int | None = None,
    service_message: str = "",
    *,
    refund: bool = False,
) -> str:
    """The cashier sentence for a code; unknown codes fall back to the service's own text."""
    code = deciding_code(return_code, sub_return_code)
    if refund:
        if code in REFUND_SENTENCES:
            return _(REFUND_SENTENCES[code])
        if code > 1:
            return _(REFUND_SENTENCES[3])
    if code == -322 and "already used" in service_message.lower():
        return _(CODE_ALREADY_USED)
    if code == -401 and not refund and "decrypt" in service_message.lower():
        return _(RSA_KEY_MISMATCH)
    if code == -401 and not refund and _is_unrecognised_code(service_message):
        return _(CODE_NOT_RECOGNISED)
    sentence = PAYMENT_SENTENCES.get(code)
    if sentence is not None:
        if code == -401 and service_message:  # the service's own words, as given
            return _("{sentence} (Service: {service_message})").format(
                sentence=_(sentence), service_message=service_message.strip())
        return _(sentence)
    detail = service_message.strip().rstrip(".")
    if refund:
        if detail:
            return _("The refund failed: {detail} (code {code}). Call support.").format(
                detail=detail, code=code)
        return _("The refund failed (code {code}). Call support.").format(code=code)
    if detail:
        return _("The payment failed: {detail} (code {code}). Ask for another way to pay or "
                 "call support.").format(detail=detail, code=code)
    return _("The payment failed (code {code}). Ask for another way to pay or call "
             "support.").format(code=code)


def describe_bank_list_refusal(return_code: int, service_message: str = "") -> str:
    """A refused bank list: what was refused and why (a bank list charges nothing by nature,
    so nothing is said about charges)."""
    detail = service_message.strip().rstrip(".")
    said = (_(" ({detail}, code {code})").format(detail=detail, code=return_code) if detail
            else _(" (code {code})").format(code=return_code))
    if return_code == -402:
        return _("The service refused the bank list request: it does not accept this terminal's "
                 "app id or signature{said}. Check [service] app_id and key1 (or the environment "
                 "variable POS_KEY1).").format(said=said)
    if return_code in (-429, -500, -999):
        return _("The service refused the bank list request for now{said}: it is busy or in "
                 "maintenance. Try again in a few minutes.").format(said=said)
    return _("The service refused the bank list request{said}. Check [service] app_id, key1 "
             "and gateway_url in the configuration.").format(said=said)


def _is_unrecognised_code(service_message: str) -> bool:
    """True when a -401 says the payment code is unknown (not undecryptable or malformed: those
    come from the terminal's key or encoding, and a fresh code would not help)."""
    text = service_message.lower()
    return any(name in text for name in _CODE_FIELD_NAMES) and any(
        word in text for word in _NOT_RECOGNISED_WORDS)
