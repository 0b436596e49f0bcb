"""The journal's refusals of a move or a look-up: a move its state table forbids or whose guard
does not hold (journal/machine.py), a payment, refund or Z report it does not hold."""

from __future__ import annotations

from collections.abc import Callable

from pos_terminal.base.i18n import N_
from pos_terminal.sentences import Said, register
from pos_terminal.sentences.labels import STATE_LABELS


def _moved(msgid: str) -> Callable[[Said], str]:
    """Ids quoted as the journal shows them, a state in the reason's language."""
    def sentence(said: Said) -> str:
        state = said["state"]
        return said.say(msgid, state=said.tr(STATE_LABELS.get(state, state)) if state else state)
    return sentence


def _not_quiet(owner_live: str, grace: str) -> Callable[[Said], str]:
    """Not concluded "never arrived": its sender still runs, or it was not quiet long enough."""
    return lambda said: said.say(owner_live if said["verdict"] == "owner_live" else grace)


register({
    "payment.unknown": lambda said: said.say(N_(
        "No payment {app_trans_id} in this terminal's journal."),
        app_trans_id=repr(said["app_trans_id"])),
    "refund.unknown": lambda said: said.say(N_(
        "No refund {m_refund_id} in this terminal's journal."),
        m_refund_id=repr(said["m_refund_id"])),
    "report.z_unknown": N_("There is no Z report #{number} in this journal."),
    "payment.no_move": _moved(N_(
        "Payment {app_trans_id} is {state}: the state table has no move for {event} from "
        "there; nothing changed.")),
    "refund.no_move": _moved(N_(
        "Refund {m_refund_id} is {state}: the state table has no move for {event} from there; "
        "nothing changed.")),
    "payment.guard": _moved(N_(
        "Payment {app_trans_id} is {state}: the move {event} needs {guard}; nothing changed.")),
    "refund.guard": _moved(N_(
        "Refund {m_refund_id} is {state}: the move {event} needs {guard}; nothing changed.")),
    "payment.not_overridable": _moved(N_(
        "Payment {app_trans_id} is already {state}; only an unresolved payment (submitting, "
        "processing, unknown) or one flagged for review can be overridden. Nothing changed.")),
    "payment.by_own_write": N_("Payment {app_trans_id}: {event} is {how} ({writer}); nothing "
                               "changed."),
    "refund.by_own_write": N_("Refund {m_refund_id}: {event} is {how} ({writer}); nothing "
                              "changed."),
    "move.with_the_row": N_("recorded with the row itself"),
    "move.with_the_refund_row": N_("recorded with the refund row"),
    "move.by_the_last_refund": N_("made by the refund that completes the amount"),
    "payment.not_quiet": _not_quiet(N_(
        "Payment {app_trans_id} is still being sent by the process that holds it; nothing "
        "changed."), N_(
        "Payment {app_trans_id} has not been quiet long enough to conclude that it never "
        "arrived; nothing changed.")),
    "refund.not_quiet": _not_quiet(N_(
        "Refund {m_refund_id} is still being sent by the process that holds it; nothing "
        "changed."), N_(
        "Refund {m_refund_id} has not been quiet long enough to conclude that it never "
        "arrived; nothing changed.")),
})
