"""What the Result screen shows of a payment: its verdict in words, kept apart from the screen
so that the App and its messages can carry one without importing a screen."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pos_terminal.base.i18n import _
from pos_terminal.counter import answers
from pos_terminal.counter.types import PaymentState, PaymentView
from pos_terminal.sentences.labels import wallet_name
from pos_terminal.tui.format import vn_time


@dataclass(frozen=True)
class ResultSummary:
    """What the Result screen shows; built from a PaymentView or from an error sentence."""

    success: bool
    headline: str
    amount: int
    lines: tuple[str, ...]
    receipt_id: str | None = None  # a settled payment: its receipt can be printed
    retry: bool = False  # certainly not charged: the same sale may be charged again
    view: PaymentView | None = field(default=None, compare=False)  # to redraw in a language

    @classmethod
    def from_view(cls, view: PaymentView) -> ResultSummary:
        """By the one outcome rule (pos_terminal.checkout.verdict)."""
        return replace(cls._judge(view), view=view)

    @classmethod
    def _judge(cls, view: PaymentView) -> ResultSummary:
        judged = answers.of_payment(view)
        if judged is answers.Verdict.NEEDS_REVIEW:
            return cls(False, answers.headline(view), view.amount, (
                view.message,
                *_wallet_and_order(view),
            ))
        if judged in (answers.Verdict.LATE, answers.Verdict.RETURNED):
            # charged after the sale was given up, or returned: never "paid", never a success
            return cls(False, answers.headline(view), view.amount, (
                view.message,
                _("Transaction: {zp_trans_id}").format(zp_trans_id=view.zp_trans_id or "-"),
                *_wallet_and_order(view),
            ), receipt_id=view.app_trans_id)
        if judged is answers.Verdict.PAID:
            return cls(True, _("PAID"), view.amount, (
                _("Time: {time}").format(time=vn_time(view.updated_ms)),
                _("Transaction: {zp_trans_id}").format(zp_trans_id=view.zp_trans_id or "-"),
                *_wallet_and_order(view),
            ), receipt_id=view.app_trans_id)
        if view.abandoned and not view.is_final:
            return cls(False, _("GAVE UP WAITING: OUTCOME UNKNOWN"), view.amount, (
                view.message,
                *_wallet_and_order(view),
            ))
        if view.state in (PaymentState.PROCESSING, PaymentState.UNKNOWN,
                          PaymentState.SUBMITTING):
            return cls(False, _("NOT CONFIRMED YET"), view.amount, (
                view.message or _("The wallet service has not answered yet."),
                _("It is being checked in the background: see History before charging again."),
                *_wallet_and_order(view),
            ))
        return cls(False, _("NOT PAID"), view.amount, (
            view.message or _("The payment was declined."),
            *_wallet_and_order(view),
        ), retry=view.state is PaymentState.FAILED and not view.needs_review)

    @classmethod
    def from_error(cls, amount: int, message: str, *, retry: bool = False) -> ResultSummary:
        """`retry`: the error says for certain nothing was charged (never for an open
        payment, which is still being checked)."""
        return cls(False, _("NOT PAID"), amount, (message,), retry=retry)


def _wallet_and_order(view: PaymentView) -> tuple[str, str]:
    """The wallet the payment went to (the customer's app to look at) and its order."""
    return (_("Wallet: {wallet}").format(wallet=wallet_name(view.provider)),
            _("Order: {app_trans_id}").format(app_trans_id=view.app_trans_id))
