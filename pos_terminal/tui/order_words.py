"""What Show QR says about a gateway order in words: where the customer scans it (the code
drawn, or where the one not drawn is) and, when Esc leaves it open, until when it can be paid."""

from __future__ import annotations

from textual.geometry import Size

from pos_terminal import wallet_registry
from pos_terminal.base.i18n import _
from pos_terminal.base.money import format_vnd
from pos_terminal.counter.types import PaymentView
from pos_terminal.sentences.labels import wallet_name
from pos_terminal.tui.format import vn_time

EXPIRES_AFTER_MS = 15 * 60 * 1000  # the wallet's default (the terminal asks for no other)


def _its_app(view: PaymentView) -> str | None:
    """The name of the wallet's own app, which reads its QR codes: a wallet whose customers
    show codes from an app of its own (its declaration: customer-presented) has one; a wallet
    that only shows the shop's QR (a bank transfer's VietQR) has none."""
    declared = wallet_registry.wallets().get(view.provider)
    if declared is None or not declared.capabilities.customer_presented:
        return None
    return wallet_name(view.provider)


def where_to_scan(view: PaymentView, shown: str, window: Size, display: str | None) -> str:
    """What the customer scans, said beside the code: which apps read the code drawn, and
    where the one not drawn is (the customer display, or a window at least `window`). A wallet
    with an app of its own reads its order's page; a bank transfer's QR only a banking app."""
    size = f"{window.width}×{window.height}"
    app = _its_app(view)
    if shown and shown == view.qr_code:
        if app is None:
            return _("Any banking app can scan it.")
        return _("{wallet} or any banking app can scan it.").format(wallet=app)
    if shown and not view.qr_code:
        return ""  # the legacy generation: its order page is the only code
    if shown:
        page = (_("{wallet} can scan it (the order's page).").format(wallet=app) if app
                else _("A phone's camera opens it (the order's page)."))
        if display:
            return page + " " + _("The code any banking app reads is on the customer display "
                                  "({url}).").format(url=display)
        return page + " " + _("The code any banking app reads needs a window of at least "
                              "{size}.").format(size=size)
    if display:
        return _("No QR code here: it does not fit this window. The customer scans it on the "
                 "customer display ({url}), or make the window at least {size}.").format(
                     url=display, size=size)
    return _("No QR code here: it does not fit this window. Make the window at least {size} "
             "to show it.").format(size=size)


def still_open(view: PaymentView, unknown: str | None) -> str:
    """Esc left an order that may still be paid: say so, until when, and where it will show."""
    until = vn_time(view.created_ms + EXPIRES_AFTER_MS, with_date=False)
    amount = format_vnd(view.amount)
    if unknown is not None:
        return _("Order {id} ({amount}): its state could not be asked ({reason}). The customer "
                 "may still pay it until about {time}; the terminal keeps checking it (History, "
                 "F2).").format(id=view.app_trans_id, amount=amount, reason=unknown, time=until)
    return _("Order {id} ({amount}) is still open: the customer can still pay it until about "
             "{time}, when it expires. The terminal keeps checking it; a payment shows in "
             "History (F2).").format(id=view.app_trans_id, amount=amount, time=until)
