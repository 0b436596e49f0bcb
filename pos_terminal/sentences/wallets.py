"""What any wallet provider's answers and limits say (the provider named as a parameter), and
the two-step payments (held, captured, cancelled): checkout/two_step.py."""

from __future__ import annotations

from pos_terminal.base.i18n import N_
from pos_terminal.sentences import Said, by_front_end, register


def _out_of_range(said: Said) -> str:
    if said["call"] == "refund":
        return said.say(N_("The refund amount {amount} is outside {wallet}'s limits for one "
                           "refund: {minimum} to {maximum}. Nothing was sent."))
    return said.say(N_("The amount {amount} is outside {wallet}'s limits for one payment: "
                       "{minimum} to {maximum}. Nothing was sent: ask for another way to pay."))


def _no_information(said: Said) -> str:
    if said["detail"]:
        return said.say(N_("{wallet} answered code {code} ({detail}), which says nothing about "
                           "the money: the terminal keeps asking; do not charge again."))
    return said.say(N_("{wallet} answered code {code}, which says nothing about the money: the "
                       "terminal keeps asking; do not charge again."))


register({
    "wallet.amount_out_of_range": _out_of_range,
    "wallet.no_hosted_orders": N_("{wallet} takes only the code the customer shows: it makes no "
                                  "QR code for the customer to scan. Scan the customer's code."),
    "unknown.no_information": _no_information,
    "wallet.shop_qr_only": N_("{wallet} takes no code from the customer: the shop shows its QR "
                              "for the customer's bank app (F5, or pay --qr)."),
    "wallet.no_refunds": by_front_end(N_(
        "{wallet} has no refund: return the money by a bank transfer from the shop, then record "
        "it with a supervisor: pos-terminal refund <payment> --returned-by-shop --reason "
        "\"<the transfer>\". Nothing was sent."), N_(
        "{wallet} has no refund: return the money by a bank transfer from the shop, then record "
        "it with a supervisor in History (F: the shop's transfer). Nothing was sent.")),
    "notice.form": N_("This is not a notice of {wallet} ({what} missing or of the wrong form): "
                      "it was ignored and nothing changed."),
    "notice.signature": N_("This notice does not carry {wallet}'s signature made with this "
                           "counter's key: it was ignored and nothing changed."),
    "notice.not_taken": N_("This counter takes no wallet named {wallet}: the notice was ignored "
                           "and nothing changed."),
    "notice.no_webhook": N_("{wallet} sends no notices to the terminal (it is followed by status "
                            "queries): the notice was ignored and nothing changed."),
    "notice.registration_refused": N_("{wallet} did not register the webhook (code {code}: "
                                      "{detail}). Check that the address is public, in HTTPS, "
                                      "and that pos-terminal serve answers there."),
    "shop_qr.closed": N_("{wallet} closed the QR ({status}) and no money arrived: not paid."),
    "shop_qr.underpaid": N_("{wallet}: {amount} arrived of {ordered}; {missing} is missing. Not "
                            "paid yet: collect the rest another way, or have the shop return "
                            "what arrived."),
    "shop_qr.closed_with_money": N_("{wallet} closed the QR after {amount} arrived of {ordered} "
                                    "({missing} missing): the money is there; collect the rest "
                                    "another way or have the shop return it. Never charge "
                                    "again."),
    "shop_qr.more_after_settled": N_("{wallet} now counts {amount} arrived of {ordered}, "
                                     "{returned} of it returned by the shop before: more arrived "
                                     "after this payment was settled by hand ({decided}). Check "
                                     "the account and settle it again. Never charge again."),
    "refused.provider_credentials": by_front_end(N_(
        "{wallet} refused this terminal's credentials (code {code}): nothing is known of the "
        "money yet. Check the [providers] settings of {wallet} (partner code, access key, secret "
        "key), or call support."), N_(
        "{wallet} refused this terminal's credentials (code {code}). Tell your supervisor: the "
        "terminal's {wallet} settings need fixing.")),
    "two_step.authorised": N_("{wallet} holds the amount in the customer's wallet; the terminal "
                              "is taking it now."),
    "two_step.capturing": N_("Taking the amount the wallet holds (capture sent)."),
    "two_step.voiding": N_("Cancelling the payment: the held amount goes back to the customer."),
    "two_step.capturing_unanswered": N_("No answer to taking the held amount ({detail}). The "
                                        "terminal asks again; do not charge again."),
    "two_step.voiding_unanswered": N_("No answer to cancelling the held amount ({detail}). The "
                                      "terminal asks again."),
    "two_step.undecided": N_("The wallet's answer (code {code}: {detail}) does not settle the "
                             "held amount yet; the terminal asks again."),
    "two_step.voided": N_("The payment was cancelled: the amount {wallet} held went back to the "
                          "customer. Nothing was charged."),
    "two_step.cannot_confirm": N_("The wallet holds the amount of payment {app_trans_id} but "
                                  "this terminal cannot take or release it: check the merchant "
                                  "portal."),
})
