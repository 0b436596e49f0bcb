"""Refusals decided on this terminal: bad input, a payment code already in use, cashiers' PINs."""

from __future__ import annotations

from collections.abc import Callable

from pos_terminal.base.i18n import N_
from pos_terminal.sentences import Said, by_front_end, front_end, register


def _in_flight(said: Said) -> str:
    if said["app_trans_id"]:
        return said.say(N_("This payment code ({code}) is already being charged in payment "
                           "{app_trans_id}. Wait for its result; do not charge again."))
    return said.say(N_("This payment code ({code}) is already being charged (its payment is "
                       "being prepared). Wait for its result; do not charge again."))


def _cashier(said: Said, msgid: str) -> str:
    """Cashier sentences name the id quoted, and plainly in a command to type."""
    return said.say(msgid, cashier_id=repr(said["cashier_id"]), plain_id=said["cashier_id"],
                    time=said.format("time_ms", said["time_ms"]))


def _duration(said: Said, seconds: int) -> str:
    """A waiting time as a person says it ("5 minutes", not "300 s"), in the reason's language."""
    for unit, one, many in ((3600, N_("{count} hour"), N_("{count} hours")),
                            (60, N_("{count} minute"), N_("{count} minutes"))):
        if seconds >= unit and seconds % unit == 0:
            count = seconds // unit
            return said.tr(one if count == 1 else many).format(count=count)
    return said.tr(N_("{count} second") if seconds == 1 else N_("{count} seconds")).format(
        count=seconds)


def _code_length(said: Said) -> str:
    """A code of the wrong length, against the [scanner] lengths (never the code itself)."""
    if said["low"] == said["high"]:
        return said.say(N_("{field} has {count} characters, but a payment code has {low} "
                           "([scanner] code_min_length / code_max_length). Nothing was sent: "
                           "scan or type the customer's whole code."))
    return said.say(N_("{field} has {count} characters, but a payment code has {low} to {high} "
                       "([scanner] code_min_length / code_max_length). Nothing was sent: scan "
                       "or type the customer's whole code."))


def _named(unnamed: str, named: str) -> Callable[[Said], str]:
    """A sale's input refused by its rule (checkout/validation.py): in the sale's words, or in
    the names a front end gives its fields (`field`, `amount_field`: the CLI's options)."""
    return lambda said: said.say(unnamed if said["field"] is None else named,
                                 total=said.format("amount", said["total"]))


def _sums(msgid: str) -> Callable[[Said], str]:
    """A refund's sums: the amount paid, refunded, in flight, wanted and left, as VND."""
    return lambda said: said.say(msgid, **{name: said.format("amount", said[name]) for name in
                                           ("paid", "refunded", "in_flight", "wanted", "left")})


def _value(msgid: str) -> Callable[[Said], str]:
    """The refused value as it was given (not formatted as money: it may not be an amount)."""
    return lambda said: said.say(msgid, amount=said["value"])


register({
    # amounts
    "amount.not_whole": _value(N_("The amount must be a whole number of VND, not {amount}.")),
    "amount.not_positive": _value(N_("The amount must be a positive number of VND, not "
                                     "{amount}.")),
    "amount.too_small": N_("The amount {amount} is too small: the minimum is {minimum}."),
    "amount.too_large": N_("The amount {amount} is above the maximum of {maximum} for one "
                           "payment."),
    "amount.missing": N_("No amount was given: type it in VND, e.g. 50000 or 50.000 đ."),
    "amount.not_digits": N_("{text} is not an amount: give whole VND in digits 0-9, e.g. 50000 "
                            "or 50.000 đ (no decimals)."),
    "amount.not_digits.other_scripts": N_(
        "{text} is not an amount: give whole VND in digits 0-9, e.g. 50000 or 50.000 đ (digits "
        "of other scripts such as ١٢٣ or １２３ do not count)."),
    "amount.far_too_large": N_("The amount {text}... has more than 16 digits: far above what one "
                               "payment can be."),
    "refund.amount.not_whole": _value(N_("A refund amount must be a whole number of VND, not "
                                         "{amount}.")),
    "refund.amount.not_positive": _value(N_("A refund amount must be positive, not {amount}.")),
    "refund.not_allowed.state": N_("Payment {app_trans_id} is {state}; only a succeeded payment "
                                   "can be refunded."),
    "refund.already_returned": N_("Payment {app_trans_id} already has its automatic "
                                  "return."),
    "refund.nothing_left": lambda said: _sums(N_(
        "Nothing is left to refund on {app_trans_id}: {paid} paid, {refunded} refunded "
        "(refunds still in progress count too).") if said["in_flight"] else N_(
        "Nothing is left to refund on {app_trans_id}: {paid} paid, {refunded} refunded."))(said),
    "refund.more_than_left": _sums(N_(
        "Cannot refund {wanted} on {app_trans_id}: only {left} is left ({paid} paid, "
        "{refunded} refunded, {in_flight} in progress).")),
    "refund.illegal_move": N_("Refund {m_refund_id} cannot go from {state} to {to_state}."),
    "refund.not_allowed.no_transaction_number": N_(
        "Payment {app_trans_id} has no wallet transaction number (it was marked paid by hand); "
        "refund it from the merchant portal."),
    # payment codes
    "code.empty": N_("The payment code is empty: scan the customer's payment code."),
    "code.unreadable_characters": N_(
        "The scanned payment code holds characters a payment code never has (binary or control "
        "characters): scan it again."),
    "code.length": _code_length,
    "code.alphabet": N_(
        "{field} holds characters a payment code never has (allowed: {alphabet}, the [scanner] "
        "code_alphabet). Nothing was sent: scan or type the customer's code again."),
    "refused.code_in_flight": _in_flight,
    # wallets (checkout/providers.py): a code is sent to one wallet or to none
    "refused.wallet_unknown": N_(
        "This counter does not take the wallet {wallet} (it takes {wallets}). Nothing was "
        "sent."),
    "refused.code_no_wallet": by_front_end(N_(
        "The payment code ({code}) is no wallet's this counter knows (it takes {wallets}), so "
        "it was not sent. Name the wallet: --provider, PROVIDER= or \"provider\"."), N_(
        "The payment code ({code}) is no wallet's this counter knows (it takes {wallets}), so "
        "it was not sent. Choose the customer's wallet.")),
    "refused.code_many_wallets": by_front_end(N_(
        "The payment code ({code}) could belong to more than one wallet ({wallets}), so it was "
        "not sent. Name the wallet: --provider, PROVIDER= or \"provider\"."), N_(
        "The payment code ({code}) could belong to more than one wallet ({wallets}), so it was "
        "not sent. Choose the customer's wallet.")),
    "refused.code_charged": N_(
        "This payment code ({code}) was already charged on this terminal (payment "
        "{app_trans_id}). Ask the customer to show a fresh code in the wallet app."),
    "refused.code_unresolved": by_front_end(N_(
        "This payment code ({code}) belongs to payment {app_trans_id}, whose result is still "
        "unknown. Run pos-terminal reconcile, and ask the customer to show a fresh code."), N_(
        "This payment code ({code}) belongs to payment {app_trans_id}, whose result is still "
        "unknown: the terminal keeps checking it. Ask the customer to show a fresh code.")),
    # a sale's description and items
    "description.not_text": _named(N_("The description must be text."),
                                   N_("{field} must be text.")),
    "description.control_character": _named(
        N_("The description holds a control character ({bad}: a newline, tab or similar). "
           "Use plain text on one line; nothing was sent."),
        N_("{field} holds a control character ({bad}: a newline, tab or similar). Use plain "
           "text on one line; nothing was sent.")),
    "items.control_character": _named(
        N_("The items: an {name} holds a control character ({bad}). Use plain text; nothing "
           "was sent."),
        N_("The {field} values: an {name} holds a control character ({bad}). Use plain text; "
           "nothing was sent.")),
    "items.total": _named(
        N_("The items add up to {total} but the amount is {amount}. Make the amount equal to "
           "the items' total (or leave the items out); nothing was sent."),
        N_("The {field} values add up to {total} but {amount_field} is {amount}. Make "
           "{amount_field} equal to the items' total (or leave the items out); nothing was "
           "sent.")),
    # cashiers
    "pin.format": N_("A PIN is 4 to 8 digits (0-9), nothing else."),
    "cashier.name_missing": N_("A cashier needs a name (it is printed on receipts)."),
    "cashier.name_control_character": N_(
        "A cashier's name is printed on receipts and shown on screens, so it cannot hold a "
        "control character ({bad}: an escape, a newline, a tab or similar). Type the name as "
        "plain text; nothing changed."),
    # the Terminal API's tokens
    "token.unknown_scope": N_("Unknown scope {scopes}: use some of {allowed}."),
    "token.bad_name": N_("{name} is not a usable token name: use 1 to 64 letters, digits, '.', "
                         "'_' or '-'."),
    "token.exists": N_("A token named {name} exists already: remove it first (pos-terminal "
                       "api-token remove {name}) or pick another name."),
    "token.unknown": N_("There is no token named {name}; see pos-terminal api-token list."),
    # the journal's file
    "journal.others_can_write": N_("Other users can change the payment journal {path}. Nothing "
                                   "was sent. Run: chmod 600 {files}"),
    "journal.others_can_read": N_(
        "Other users can read the payment journal {path}, which holds the payments and the "
        "cashiers' PIN hashes. Nothing was sent. Run: chmod 600 {files}"),
    "cashier.removed": lambda said: _cashier(said, N_(
        "Cashier {cashier_id} ({name}) was removed on {time} and cannot sign in.")),
    "cashier.locked": lambda said: _cashier(said, N_(
        "Cashier {cashier_id} is locked after {count} wrong PINs until {time} (Vietnam "
        "time); a supervisor can unlock it now: `pos-terminal cashier unlock {plain_id}`.")
        if front_end() != "screen" else N_(
        "Cashier {cashier_id} is locked after {count} wrong PINs until {time} (Vietnam "
        "time); a supervisor can unlock it now on the sign-in screen: Ctrl+U.")),
    "pin.locked_now": lambda said: _cashier(said, N_(
        "Wrong PIN for {cashier_id}: {count} wrong PINs in a row, so it is locked until "
        "{time} (Vietnam time); a supervisor can unlock it: `pos-terminal cashier unlock "
        "{plain_id}`.") if front_end() != "screen" else N_(
        "Wrong PIN for {cashier_id}: {count} wrong PINs in a row, so it is locked until "
        "{time} (Vietnam time); a supervisor can unlock it on the sign-in screen: Ctrl+U.")),
    "pin.wrong": lambda said: said.say(N_(
        "Wrong PIN for {cashier_id}; {left} more wrong try locks it for {duration}.")
        if said["left"] == 1 else N_(
        "Wrong PIN for {cashier_id}; {left} more wrong tries lock it for {duration}."),
        cashier_id=repr(said["cashier_id"]), duration=_duration(said, said["seconds"])),
    "cashier.not_supervisor": lambda said: _cashier(said, N_(
        "{cashier_id} ({name}) is a cashier, not a supervisor: a supervisor must authorise "
        "this.")),
    "cashier.bad_id": lambda said: _cashier(said, N_(
        "{cashier_id} is not a usable cashier id: use 1 to 32 letters, digits, '.', '_' or "
        "'-'.")),
    "cashier.unknown": lambda said: _cashier(said, N_(
        "There is no cashier {cashier_id} in this journal; see `pos-terminal cashier list`.")
        if front_end() != "screen" else N_(
        "There is no cashier {cashier_id} in this journal: check the id in the list.")),
    "cashier.id_taken": lambda said: _cashier(said, N_(
        "The cashier id {cashier_id} is already taken (ids are never reused, even after a "
        "removal); pick another.")),
    "cashier.not_active": lambda said: _cashier(said, N_(
        "There is no active cashier {cashier_id}.")),
    "shift.cashier_removed": lambda said: _cashier(said, N_(
        "Cashier {cashier_id} was removed; no shift can open.")),
    "shift.none_open": lambda said: _cashier(said, N_("Cashier {cashier_id} has no open shift.")),
})
