"""What the checkout records about payments and refunds, and the front end's next step."""

from __future__ import annotations

from collections.abc import Callable

from pos_terminal.base.i18n import N_
from pos_terminal.sentences import Said, by_front_end, front_end, keeps_checking, register

_CHECKING = N_(
    "Checking with the wallet service whether the payment went through. Do not charge again.")


def _still_open(said: Said) -> str:
    if front_end() == "screen":
        return said.tr(N_(
            "No final result after {seconds} s. The payment stays open and the terminal keeps "
            "checking it. Do not charge again.")).format(seconds=said["seconds"])
    if keeps_checking():
        return said.tr(N_(
            "No final result after {seconds} s. The payment stays open and is checked again in "
            "the background (pos-terminal reconcile). Do not charge again.")).format(
                seconds=said["seconds"])
    return said.tr(N_(
        "No final result after {seconds} s: the payment is still unresolved. Run "
        "`pos-terminal reconcile` (or `pos-terminal status {app_trans_id}`) later to learn its "
        "result; do not charge again.")).format(
            seconds=said["seconds"], app_trans_id=said["app_trans_id"] or "<app_trans_id>")


def _gave_up(said: Said) -> str:
    """Giving up on a payment whose outcome is unknown: who keeps checking it is the front
    end's to say (this program, or the `reconcile` command)."""
    if keeps_checking():
        checking = said.tr(N_("The terminal keeps checking this payment"))
    else:
        checking = said.tr(N_("Run `pos-terminal reconcile` (or `pos-terminal status {id}`) to "
                              "keep checking it")).format(
                                  id=said["app_trans_id"] or "<app_trans_id>")
    if said["returns"]:
        return said.tr(N_(
            "Outcome still unknown: ask the customer to pay another way. {checking}; if the "
            "wallet charges it after all, the charge is returned to the customer automatically."
        )).format(checking=checking)
    return said.tr(N_(
        "Outcome still unknown: do not take another payment for this sale yet. {checking}; if "
        "the wallet charges it late, it is marked NEEDS REVIEW and a supervisor refunds it or "
        "settles the sale.")).format(checking=checking)


def _not_sent(said: Said) -> str:
    if str(said["cause"] or "").startswith("TLS"):
        return by_front_end(N_(
            "Cannot open a secure connection to the wallet service ({cause}): nothing was "
            "charged. Check the terminal's date and time and the service address (base_url), "
            "then charge again."), N_(
            "Cannot open a secure connection to the wallet service ({cause}): nothing was "
            "charged. Check the terminal's date and time, then charge again; if it keeps "
            "happening, tell your supervisor."))(said)
    return by_front_end(N_(
        "Cannot reach the wallet service ({cause}): nothing was charged. Check the network or "
        "the service address, then charge again."), N_(
        "Cannot reach the wallet service ({cause}): nothing was charged. Check the network "
        "cable or Wi-Fi, then charge again; if it keeps happening, tell your supervisor."))(said)


def _with_checking(first: str) -> Callable[[Said], str]:
    return lambda said: said.say(first) + " " + said.tr(_CHECKING)


def _unexpected(said: Said) -> str:
    if said["app_trans_id"] is None:
        return said.say(N_("Unexpected error before the payment was recorded ({error}): nothing "
                           "was sent and nothing was charged."))
    return by_front_end(N_(
        "Unexpected error ({error}) after payment {app_trans_id} was recorded: its outcome is "
        "what the journal says. If it is still open, run `pos-terminal status {app_trans_id}` "
        "or `pos-terminal reconcile`; do not charge again."), N_(
        "Unexpected error ({error}) after payment {app_trans_id} was recorded: History shows "
        "its outcome, and the terminal keeps checking it while it is open. Do not charge "
        "again."))(said)


register({
    # a payment on its way
    "sending": N_("Sending the payment to the wallet service. Do not charge again."),
    "checking": _CHECKING,
    "gateway.creating": N_("Creating the order."),
    "gateway.waiting": N_("Waiting for the customer to pay with the QR code or the order page."),
    # no verdict yet
    "unknown.no_answer": N_(
        "No clear answer from the wallet service ({detail}). The payment may or may not have "
        "gone through: the terminal checks its status. Do not charge again."),
    "unknown.unexpected": N_(
        "Unexpected error while waiting for the answer ({error}). The payment may or may not "
        "have gone through: the terminal checks its status. Do not charge again."),
    "unknown.still_open": _still_open,
    "unknown.other_payment": _with_checking(N_(
        "An answer about another payment ({app_trans_id}) was ignored.")),
    "unknown.untied_answer": _with_checking(N_(
        "The wallet service's answer names no payment: it cannot be tied to this one "
        "({app_trans_id}) and was not applied.")),
    "unknown.not_found_yet": _with_checking(N_(
        "The wallet service has no record of this payment yet.")),
    "unknown.sender_live": N_(
        "The wallet service has no record of this payment yet, and the terminal process sending "
        "it is still running (it may be paused or slow): the payment may still arrive. Checking "
        "with the wallet service whether the payment went through. Do not charge again."),
    "unknown.not_found_after_accepted": N_(
        "The wallet service no longer finds this payment, which it had accepted: its outcome is "
        "still unknown and it will be checked again. Do not charge again."),
    "unknown.query_refused": N_(
        "The status query was refused ({reason}). The payment's outcome is still unknown; it "
        "will be checked again. Do not charge again."),
    "unknown.answer_not_recorded": by_front_end(N_(
        "Payment {app_trans_id} was sent, but its answer could not be recorded: {error} Its "
        "intent is in the journal: once the journal is fixed, run pos-terminal reconcile to "
        "learn the result. Do not charge again."), N_(
        "Payment {app_trans_id} was sent, but its answer could not be recorded: {error} Tell "
        "your supervisor; once the journal is fixed, the terminal learns the result by itself. "
        "Do not charge again.")),
    "unknown.gave_up": _gave_up,
    "unexpected": _unexpected,
    # definitely not charged
    "not_sent": _not_sent,
    "not_sent.stopped": N_(
        "Stopped before the payment was sent: nothing was charged. Charge again if the customer "
        "still wants to pay."),
    "not_sent.lease_lost": N_(
        "This terminal was held up after recording the payment and before sending it, and "
        "another process has concluded it: the payment was NOT sent from here and nothing was "
        "charged by it."),
    "not_sent.never_arrived": N_(
        "The payment never reached the wallet service and the customer was not charged. It is "
        "safe to retry with a new transaction."),
    "stopped.before_intent": N_("Stopped before the payment was recorded: nothing was sent."),
    # a person decides
    "review.answer_mismatch": by_front_end(N_(
        "The wallet service's answer does not fit this order: {problems}. The customer may or "
        "may not have been charged: do not charge again and do not treat it as paid. Check "
        "payment {app_trans_id} in the merchant portal, then mark it with pos-terminal "
        "override."), N_(
        "The wallet service's answer does not fit this order: {problems}. The customer may or "
        "may not have been charged: do not charge again and do not treat it as paid. Check "
        "payment {app_trans_id} in the merchant portal, then mark it in History (O: override).")),
    "review.other_order": by_front_end(N_(
        "The wallet service answered about another order ({detail}). The outcome of payment "
        "{app_trans_id} is unknown: do not charge again. Check it in the merchant portal, then "
        "mark it with pos-terminal override."), N_(
        "The wallet service answered about another order ({detail}). The outcome of payment "
        "{app_trans_id} is unknown: do not charge again. Check it in the merchant portal, then "
        "mark it in History (O: override).")),
    "review.too_old": by_front_end(N_(
        "Older than {hours} h: the wallet service no longer answers status queries for it. "
        "Check it in the merchant portal, then mark it paid or failed with pos-terminal "
        "override."), N_(
        "Older than {hours} h: the wallet service no longer answers status queries for it. "
        "Check it in the merchant portal, then mark it paid or failed in History (O: "
        "override).")),
    "problem.negative_amount": N_("it reports a negative amount ({amount})"),
    "problem.other_amount": N_("it reports {amount} for an order of {ordered}"),
    "problem.failure_subcode": N_(
        "it says success (return code {code}) with the failure sub-code {sub_code}"),
    "problem.no_transaction_number": N_(
        "it says success without a wallet transaction number (zp_trans_id), so the payment "
        "could never be refunded"),
    "override.paid": N_("Marked paid by hand by {who}: {reason}"),
    "override.failed": N_("Marked failed by hand by {who}: {reason}"),
    "override.rest_collected": N_("{wallet}: {amount} arrived of {ordered}; the missing "
                                  "{missing} was collected another way. Marked paid by hand by "
                                  "{who}: {reason}"),
    "override.part_returned": N_("{wallet}: the {amount} that arrived was returned by the shop "
                                 "(not by {wallet}). Marked not paid by hand by {who}: {reason}"),
    "override.unconfirmed": N_("{wallet} could not confirm what arrived for payment "
                               "{app_trans_id} ({detail}). Nothing changed: try again when it "
                               "answers."),
    "override.answer_changed": N_("{wallet} now says of payment {app_trans_id}: {said} Nothing "
                                  "was overridden: look at the payment again."),
    # late charges
    "late.success": by_front_end(N_(
        "CHARGED LATE: the wallet service reports this payment charged ({amount}) after the "
        "terminal had said it failed. The customer WAS charged: do not charge again. It is "
        "returned automatically with [checkout] late_success = \"refund\"; otherwise, if the "
        "customer already paid another way, refund this payment."), N_(
        "CHARGED LATE: the wallet service reports this payment charged ({amount}) after the "
        "terminal had said it failed. The customer WAS charged: do not charge again. If the "
        "customer already paid another way and it is not returned automatically, refund it in "
        "History (F: refund, supervisor PIN).")),
    "late.charged": N_(
        "CHARGED LATE: the wallet charged {amount} after the sale was given up. It is not the "
        "sale's payment: do not charge again, and do not hand over the goods for it. The terminal "
        "returns it to the customer automatically, or leaves it for a person to refund."),
    "late.review": by_front_end(N_(
        "CHARGED LATE: the wallet charged {amount} after the cashier had given up or the "
        "terminal had said it failed. Check whether the customer also paid another way; if so, "
        "refund it (pos-terminal refund, supervisor PIN)."), N_(
        "CHARGED LATE: the wallet charged {amount} after the cashier had given up or the "
        "terminal had said it failed. Check whether the customer also paid another way; if so, "
        "refund it in History (F: refund, supervisor PIN).")),
    "late.return_failed": by_front_end(N_(
        "CHARGED LATE and the automatic return of {amount} failed ({why}). Refund it by hand "
        "(pos-terminal refund, supervisor PIN) or from the merchant portal."), N_(
        "CHARGED LATE and the automatic return of {amount} failed ({why}). Refund it by hand "
        "in History (F: refund, supervisor PIN) or from the merchant portal.")),
    "late.returned": N_("Charged late and returned automatically ({amount}): the customer has "
                        "the money back."),
    # refunds
    "refund.sending": N_("Sending the refund to the wallet service."),
    "refund.intent": N_("refund {amount}"),
    "refund.full": N_("Refunded in full ({amount})."),
    "refund.by_shop": N_("{amount} returned to the customer by the shop's own bank transfer, "
                         "not by {wallet}. Recorded by {who}: {reason}"),
    "refund.by_shop.no_reason": N_("Recording money the shop returned needs a reason (the "
                                   "bank transfer's reference). Nothing was recorded."),
    "refund.by_shop.no_who": N_("Recording money the shop returned needs the name of who "
                                "decided. Nothing was recorded."),
    "refund.by_shop.wallet_refunds": N_("{wallet} returns money with its own refund: refund "
                                        "this payment the usual way. Nothing was recorded."),
    "refund.no_answer": N_(
        "No clear answer to the refund ({detail}). It may or may not have been made: the "
        "terminal checks its status. Do not refund again."),
    "refund.not_sent": N_(
        "Cannot reach the wallet service ({cause}): no money moved. Check the network or the "
        "service address, then refund again."),
    "refund.never_arrived": N_(
        "The refund never reached the wallet service; no money moved. You can refund again."),
    "refund.sender_live": N_(
        "The wallet service has no record of this refund yet, and the terminal process sending "
        "it is still running: it may still arrive. Do not refund again."),
    "refund.not_found_yet": N_(
        "The wallet service has no record of this refund yet; checking again."),
    "refund.query_refused": N_(
        "The refund status query was refused ({reason}); it will be checked again."),
    "refund.other_refund": N_("An answer about another refund was ignored."),
    "refund.untied_answer": N_(
        "The wallet service's answer names no refund: it cannot be tied to this one and was not "
        "applied; the terminal checks the refund again."),
})
