"""`counter.refunds`: return money of a succeeded payment and look refunds up. A settled
refund is published (RefundSettled), and the payment it returned in full too (PaymentSettled,
RETURNED). The rows are read through `RefundRows`, the journal methods this service uses."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol

from pos_terminal import wallet_registry
from pos_terminal.base.reasons import Reason
from pos_terminal.checkout import Checkout
from pos_terminal.counter.bus import EventBus
from pos_terminal.counter.events import RefundSettled, Via
from pos_terminal.counter.payments import publish_end
from pos_terminal.journal import (
    PaymentState,
    PaymentView,
    RefundNotAllowed,
    RefundState,
    RefundView,
)


class RefundRows(Protocol):
    """The journal as the refunds service reads it."""

    def get_refund(self, m_refund_id: str) -> RefundView: ...
    def find_refund_by_ref(self, refund_ref: str) -> RefundView | None: ...
    def refunds(self, app_trans_id: str | None = ...) -> list[RefundView]: ...
    def get(self, app_trans_id: str) -> PaymentView: ...


def publish_refund_end(bus: EventBus, rows: RefundRows, refund: RefundView, via: Via) -> None:
    """A refund's end as the bus says it; and, when it returned the rest of its payment, the
    payment's new state too (RETURNED: its money is back with the customer)."""
    bus.publish(RefundSettled(refund, via))
    payment = rows.get(refund.app_trans_id)
    if refund.state is RefundState.REFUNDED and payment.state is PaymentState.REFUNDED:
        publish_end(bus, None, payment, via)


class RefundService:
    """The refunds of one counter."""

    def __init__(self, checkout: Checkout, rows: RefundRows, bus: EventBus,
                 at_counter: Callable[[], str | None]) -> None:
        self._checkout = checkout
        self._rows = rows
        self._bus = bus
        self._at_counter = at_counter

    def create(self, app_trans_id: str, amount: int | None = None, description: str = "", *,
               deadline_s: float | None = None, cancel: threading.Event | None = None,
               cashier_id: str | None = None, authorised_by: str | None = None,
               refund_ref: str | None = None) -> RefundView:
        """`cashier_id` asked for it (default: the cashier signed in here, else the payment's
        cashier); `authorised_by` is the supervisor whose PIN was checked
        (`counter.cashiers.authorise`). With `refund_ref`: RefundRefTaken when that reference
        has a refund already."""
        view = self._checkout.refund(app_trans_id, amount, description, deadline_s=deadline_s,
                                     cancel=cancel, cashier_id=cashier_id or self._at_counter(),
                                     authorised_by=authorised_by, refund_ref=refund_ref)
        if view.is_final:
            publish_refund_end(self._bus, self._rows, view, "refund")
        return view

    def shop_returns(self, app_trans_id: str) -> bool:
        """Whether this payment's wallet has no refund of its own (a bank transfer's QR): money
        goes back by the shop's own bank transfer, recorded with `returned_by_shop`."""
        return not wallet_registry.wallet(self._rows.get(app_trans_id).provider).capabilities.refund

    def returned_by_shop(self, app_trans_id: str, amount: int | None, reason: str, who: str,
                         *, cashier_id: str | None = None,
                         authorised_by: str | None = None) -> RefundView:
        """Record money the shop returned to the customer by its own bank transfer: only for a
        wallet with no refund call, else RefundNotAllowed (refund it the usual way).
        Nothing is sent; the refund is REFUNDED at once, with `reason` and `who`."""
        name = wallet_registry.wallet(self._rows.get(app_trans_id).provider).display_name("en")
        if not self.shop_returns(app_trans_id):
            raise RefundNotAllowed(Reason.of("refund.by_shop.wallet_refunds", wallet=name))
        view = self._checkout.returned_by_shop(
            app_trans_id, amount, wallet=name, reason=reason, who=who,
            cashier_id=cashier_id or self._at_counter(), authorised_by=authorised_by)
        publish_refund_end(self._bus, self._rows, view, "refund")
        return view

    def get(self, m_refund_id: str) -> RefundView:
        """UnknownRefund when the journal has no such refund."""
        return self._rows.get_refund(m_refund_id)

    def find_by_ref(self, refund_ref: str) -> RefundView | None:
        return self._rows.find_refund_by_ref(refund_ref)

    def list(self, app_trans_id: str | None = None) -> list[RefundView]:
        """The refunds of one payment (of every payment without one), oldest first."""
        return self._rows.refunds(app_trans_id)
