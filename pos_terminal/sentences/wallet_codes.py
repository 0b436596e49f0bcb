"""What the wallet's return codes say (wallet/returncodes.py names them; no number here)."""

from __future__ import annotations

from pos_terminal.base.i18n import N_
from pos_terminal.sentences import Said, Sentence, by_front_end, front_end, register

_PROCESSING = N_("The payment is still being processed. Wait for the result; do not charge again.")


def _request_data(said: Said) -> str:
    sentence = said.tr(N_(
        "The service refused the request data and nothing was charged. Check the amount and "
        "details and try again; if it happens again, call support."))
    if said["service_message"]:
        return said.tr(N_("{sentence} (Service: {service_message})")).format(
            sentence=sentence, service_message=said["service_message"])
    return sentence


def _detail(said: Said) -> str:
    """The provider's meaning of its code in the language shown (a table row gives both)."""
    if said.language == "vi" and said["detail_vi"]:
        return str(said["detail_vi"])
    return str(said["detail"] or "")


def _declined_code(said: Said) -> str:
    if said["detail"]:
        return said.say(N_("The payment failed: {detail} (code {code}). Ask for another way to "
                           "pay or call support."), detail=_detail(said))
    return said.say(N_("The payment failed (code {code}). Ask for another way to pay or call "
                       "support."))


def _refund_failed_code(said: Said) -> str:
    if said["detail"]:
        return said.say(N_("The refund failed: {detail} (code {code}). Call support."),
                        detail=_detail(said))
    return said.say(N_("The refund failed (code {code}). Call support."))


def _checking(payment: str, refund: str) -> Sentence:
    """An answer that decides nothing: the same words for a payment or a refund's own next step
    (its detail, when the service gave one, before the code)."""
    def sentence(said: Said) -> str:
        detail = said.tr(N_("{detail}, ")).format(detail=said["detail"]) if said["detail"] else ""
        return said.say(refund if said["refund"] else payment, detail=detail)
    return sentence


def _said(said: Said) -> str:
    if said["detail"]:
        return said.tr(N_(" ({detail}, code {code})")).format(detail=said["detail"],
                                                              code=said["code"])
    return said.tr(N_(" (code {code})")).format(code=said["code"])


register({
    "paid": N_("Payment received. The sale is complete."),
    "declined": N_("The payment failed and the customer was not charged. Ask for another way to "
                   "pay."),
    "processing": _PROCESSING,
    "declined.order_expired": N_("The order expired before it was paid. Start a new payment."),
    "declined.balance": N_("The customer's wallet balance is too low. Ask the customer to top up "
                           "the wallet or pay another way."),
    "processing.duplicate": N_("This transaction was already sent to the service. The terminal "
                               "is checking its status; do not charge again."),
    "refused.transaction_number": N_("The service refused the transaction number (wrong date or "
                                     "format). Check the terminal's clock, then start a new "
                                     "payment."),
    "not_found": N_("The service has no record of this payment. If it was just sent, wait and "
                    "check again; otherwise the customer was not charged."),
    "declined.bank_error": N_("The customer's bank reported an error and nothing was charged. "
                              "Ask the customer to try again or pay another way."),
    "declined.code_expired": N_("The payment code expired and the customer was not charged. Ask "
                                "the customer to refresh the code in the wallet app and scan "
                                "again."),
    "declined.cancelled": N_("The customer cancelled the payment. Ask how they would like to "
                             "pay."),
    "refused.request_data": _request_data,
    "refused.credentials": by_front_end(N_(
        "The service refused this terminal's credentials and nothing was charged. Check "
        "[service] app_id and key1 (or the environment variable POS_KEY1) in the configuration, "
        "or call support."), N_(
        "The service refused this terminal's credentials and nothing was charged. Ask the "
        "customer to pay another way and tell your supervisor: the terminal's wallet settings "
        "need fixing.")),
    "declined.code_used": N_(
        "This payment code was already used once and cannot be used again; the customer was not "
        "charged for this attempt. Ask the customer to refresh the code in the wallet app and "
        "scan the new one."),
    "declined.code_unknown": N_(
        "The service did not recognise this payment code and the customer was not charged. Ask "
        "the customer to refresh the code in the wallet app and scan again."),
    "refused.rsa_key": by_front_end(N_(
        "The terminal's RSA public key does not match this app id: the service cannot decrypt "
        "the payment code, and nothing was charged. Check [service] rsa_public_key / "
        "POS_RSA_PUBLIC_KEY."), N_(
        "The terminal's encryption key does not match its app id: the service cannot read the "
        "payment code, and nothing was charged. Ask the customer to pay another way and tell "
        "your supervisor: the terminal's wallet settings need fixing.")),
    "declined.code": _declined_code,
    # Answers that say nothing about the money (docs/protocol.md, "The codes"): keep checking.
    "checking.maintenance": _checking(
        N_("The wallet is under maintenance: we are still checking; do not charge again."),
        N_("The wallet is under maintenance: we are still checking the refund; do not refund "
           "again.")),
    "checking.system_error": _checking(
        N_("The wallet service reported a system error: we are still checking; do not charge "
           "again."),
        N_("The wallet service reported a system error: we are still checking the refund; do "
           "not refund again.")),
    "checking.busy": _checking(
        N_("The wallet service is busy (too many requests): we are still checking; do not "
           "charge again."),
        N_("The wallet service is busy (too many requests): we are still checking the refund; "
           "do not refund again.")),
    "checking.refused": _checking(
        N_("The wallet service refused the request ({detail}code {code}): we are still "
           "checking; do not charge again."),
        N_("The wallet service refused the request ({detail}code {code}): we are still "
           "checking the refund; do not refund again.")),
    "checking.unlisted": _checking(
        N_("The wallet answered with a code it does not publish ({detail}code {code}): we are "
           "still checking; do not charge again."),
        N_("The wallet answered with a code it does not publish ({detail}code {code}): we are "
           "still checking the refund; do not refund again.")),
    "checking.refund_unclear": N_(
        "The wallet answered code {code}, which it publishes both as \"not found\" and as "
        "\"refund succeeded\": we are still checking the refund; do not refund again."),
    "refund.done": N_("The refund is complete."),
    "refund.failed": N_("The refund failed and no money moved. Check the amount and try again, "
                        "or call support."),
    "refund.processing": N_("The refund is being processed. Check its status again later."),
    "refund.not_found": N_("The service has no record of this refund. If it was just sent, "
                           "check again shortly."),
    "refund.failed.code": _refund_failed_code,
    "banks.refused.credentials": lambda said: said.tr(N_(
        "The service refused the bank list request: it does not accept this terminal's app id "
        "or signature{said}. Check [service] app_id and key1 (or the environment variable "
        "POS_KEY1).") if front_end() != "screen" else N_(
        "The service refused the bank list request: it does not accept this terminal's app id "
        "or signature{said}. Tell your supervisor: the terminal's wallet settings need "
        "fixing.")).format(said=_said(said)),
    "banks.refused.busy": lambda said: said.tr(N_(
        "The service refused the bank list request for now{said}: it is busy or in maintenance. "
        "Try again in a few minutes.")).format(said=_said(said)),
    "banks.refused": lambda said: said.tr(N_(
        "The service refused the bank list request{said}. Check [service] app_id, key1 and "
        "gateway_url in the configuration.") if front_end() != "screen" else N_(
        "The service refused the bank list request{said}. Tell your supervisor: the "
        "terminal's wallet settings need checking.")).format(said=_said(said)),
    "gateway.refused": N_("The service refused the order: {why}"),
    "gateway.not_created": lambda said: said.tr(N_(
        "it did not create it{said}, so there is nothing to pay. Try again in a moment.")
    ).format(said=_said(said)),
})
