"""A sale paid by the shop's QR (a shop-QR wallet's order: a gateway order, a bank
transfer's VietQR), as every front end takes it: the order is created and shown, followed like
a code payment; when the wait ends unresolved it is closed at its provider if it can be, then
its status decides. Money that arrived keeps the payment open for the cashier (a late payment,
what arrived said before the row is given up), never "not paid"."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pos_terminal import wallet_registry
from pos_terminal.counter import answers
from pos_terminal.journal import PaymentView

if TYPE_CHECKING:
    from pos_terminal.counter.payments import PaymentService


@dataclass(frozen=True)
class QrSale:
    """How a QR sale ended: its row, the QR's content, and (paid in part) what arrived."""

    view: PaymentView
    qr_content: str | None
    arrived: dict[str, int] = field(default_factory=dict)

    def extra(self) -> dict[str, object]:
        """What an answer adds to the payment's: `qr_content`, `amount_paid`, `amount_missing`."""
        return {"qr_content": self.qr_content, **self.arrived}


def shop_qr_wallets(wallets: tuple[str, ...]) -> tuple[str, ...]:
    """Those of this counter's `wallets` that show a shop QR, in its order."""
    return tuple(name for name in wallets if wallet_registry.wallet(name).capabilities.shop_qr)


def cancels_its_qr(provider: str) -> bool:
    """Whether giving up `provider`'s shown QR closes it at the provider (else it stays payable
    until it expires)."""
    return wallet_registry.wallet(provider).capabilities.shop_qr_cancels


def unseen(view: PaymentView) -> bool:
    """An open order whose create answer was lost, of a wallet that closes its QR: nobody saw
    it, so nobody can pay it; it is closed at once (its status then decides) instead of
    watched."""
    return (not view.is_final and not (view.qr_code or view.order_url)
            and cancels_its_qr(view.provider))


def shop_qr_wallet(wallets: tuple[str, ...], provider: str | None) -> str | None:
    """`provider`, else the first of this counter's `wallets` that shows a shop QR."""
    if provider:
        return provider
    return next(iter(shop_qr_wallets(wallets)), None)


def qr_sale(payments: PaymentService, amount: int, *, provider: str, description: str = "",
            deadline_s: float | None = None, cancel: threading.Event | None = None,
            cashier_id: str | None = None, sale: int | None = None, sale_ref: str | None = None,
            on_shown: Callable[[str | None], None] | None = None) -> QrSale:
    """Create `provider`'s order for `amount`, call `on_shown` with its QR, wait (see module)."""
    order = payments.create_gateway_order(amount, description, cashier_id=cashier_id,
                                          provider=provider, sale=sale, sale_ref=sale_ref)
    qr = order.qr_code or order.order_url
    if on_shown is not None:
        on_shown(qr)
    view = order.payment
    if not view.is_final and not unseen(view):  # unseen: closed at once below
        view = payments.follow(view.app_trans_id, deadline_s=deadline_s, cancel=cancel, sale=sale)
    arrived: dict[str, int] = {}
    if answers.of_payment(view) is answers.Verdict.UNKNOWN:  # the cashier gives up
        view = payments.cancel_gateway_order(view.app_trans_id)
        if answers.of_payment(view) is answers.Verdict.UNKNOWN:
            arrived = answers.part_paid(view)
            view = payments.abandon(view.app_trans_id, cashier_id=cashier_id)
    return QrSale(view, qr, arrived)
