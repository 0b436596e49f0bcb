"""A wallet's notice (its webhook, `POST /v1/webhooks/<wallet>` of the Terminal API): checked by
the wallet's own function its declaration names (`WalletDeclaration.webhook`: its signature,
its form), then never believed. All it does is make the counter ask the wallet about that
payment once (`PaymentService.recheck`), as `status` and `reconcile` would: a transfer that
reached a QR given up on is found at once as a late payment, and a notice sent again changes
nothing the status query does not.

An order this journal does not know, or one of another wallet, is received and nothing is done
(the wallet's own test notice when its webhook is registered is one)."""

from __future__ import annotations

from typing import Protocol

from pos_terminal import wallet_registry
from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_errors import NoticeRefused
from pos_terminal.config import Settings
from pos_terminal.journal import PaymentView


class Payments(Protocol):
    """What a notice needs of the payments service (counter/payments.py)."""

    @property
    def wallets(self) -> tuple[str, ...]: ...
    def find(self, app_trans_id: str) -> PaymentView | None: ...
    def recheck(self, app_trans_id: str) -> PaymentView: ...


def _refused(code: str, wallet: str) -> NoticeRefused:
    return NoticeRefused(Reason.of(code, wallet=wallet), "no_webhook")


def take_notice(settings: Settings, payments: Payments, wallet: str,
                body: bytes) -> PaymentView | None:
    """The payment `body` (wallet `wallet`'s notice) is about, asked about once; None when this
    journal has no such payment of that wallet. NoticeRefused (a reason) when the wallet is not
    one this counter takes, sends no notices, or the notice is not its own (nothing changes)."""
    declared = wallet_registry.wallets().get(wallet)
    if declared is None or wallet not in payments.wallets:
        raise _refused("notice.not_taken", wallet)
    if declared.webhook is None:
        raise _refused("notice.no_webhook", declared.display_name("en"))
    order_id = wallet_registry.resolve(declared.webhook)(settings, body)
    view = payments.find(order_id)
    if view is None or view.provider != wallet:
        return None
    return payments.recheck(view.app_trans_id)
