"""What a receipt says, as lines of a fixed width (the text format; the ESC/POS bytes print
the same lines). Every text from data (shop, cashier, items, description) is cleaned of control
characters here: an ESC or GS byte in a name would be a printer command (ESC p kicks the cash
drawer open)."""

from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass, replace

from pos_terminal.base.clock import format_datetime
from pos_terminal.base.errors import PosError
from pos_terminal.base.money import format_vnd
from pos_terminal.base.reasons import Reason
from pos_terminal.journal import PaymentState, PaymentView, RefundState, RefundView
from pos_terminal.journal.reports import collected_otherwise
from pos_terminal.receipts.labels import ENGLISH, ReceiptLabels
from pos_terminal.text_safety import clean

#: Only money that moved gets a receipt.
RECEIPT_STATES = (PaymentState.SUCCEEDED, PaymentState.REFUNDED)


class NoReceipt(PosError):
    """This payment or refund gets no receipt; the message says why."""


@dataclass(frozen=True)
class Shop:
    name: str = ""
    address: str = ""
    tax_id: str = ""


@dataclass(frozen=True)
class Receipt:
    kind: str           # "payment" or "refund"
    subject_id: str     # app_trans_id or m_refund_id
    lines: tuple[str, ...]
    reprint: bool

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


class _Lines:
    def __init__(self, width: int) -> None:
        self.width = width
        self.out: list[str] = []

    def center(self, text: str) -> None:
        for part in textwrap.wrap(clean(text), self.width) or [""]:
            self.out.append(part.center(self.width).rstrip())

    def rule(self) -> None:
        self.out.append("-" * self.width)

    def pair(self, label: str, value: str) -> None:
        """`label ....... value` on one line, or the value right-aligned below when too long."""
        label, value = clean(label), clean(value)
        room = self.width - len(label) - 1
        if len(value) <= room:
            self.out.append(label + value.rjust(self.width - len(label)))
            return
        self.out += textwrap.wrap(label, self.width, break_long_words=True) or [""]
        for part in textwrap.wrap(value, self.width, break_long_words=True) or [""]:
            self.out.append(part.rjust(self.width))


def shop_header(lines: _Lines, shop: Shop, tax_id_label: str = "MST") -> None:
    """The shop's name, address and tax id centred, then a rule (nothing when none is set)."""
    if shop.name:
        lines.center(shop.name)
    if shop.address:
        lines.center(shop.address)
    if shop.tax_id:
        lines.center(f"{tax_id_label}: {shop.tax_id}")
    if shop.name or shop.address or shop.tax_id:
        lines.rule()


def _header(lines: _Lines, shop: Shop, labels: ReceiptLabels, title: str, reprint: bool,
            terminal_id: str, cashier: str | None, time_ms: int, *,
            authorised_by: str | None = None) -> None:
    shop_header(lines, shop, labels.tax_id)
    lines.center(title)
    if reprint:
        lines.center(labels.reprint)
    lines.pair(labels.counter, terminal_id)
    lines.pair(labels.cashier, cashier or labels.no_cashier)
    if authorised_by:
        lines.pair(labels.authorised_by, authorised_by)
    lines.pair(labels.time, format_datetime(time_ms))  # day first, as the screens say it
    lines.rule()


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**63


def _items(lines: _Lines, payment: PaymentView, labels: ReceiptLabels) -> None:
    try:
        items = json.loads(payment.items_json)
    except ValueError:
        items = []
    if not isinstance(items, list) or not items:
        # the description, wrapped; none: "Payment" (the order id has its own line below)
        for part in textwrap.wrap(clean(payment.description), lines.width)[:-1]:
            lines.out.append(part)
        last = (textwrap.wrap(clean(payment.description), lines.width) or [labels.payment])[-1]
        lines.pair(last, format_vnd(payment.amount))
        return
    for item in items:
        if not isinstance(item, dict):
            continue
        name = clean(str(item.get("itemname", "")))
        qty, price = item.get("itemquantity", 1), item.get("itemprice", 0)
        if not (_whole(qty) and _whole(price)):  # checked when paid: a damaged row
            qty, price = 1, payment.amount
        amount = format_vnd(price * qty)
        for part in textwrap.wrap(name, lines.width) or [""]:
            lines.out.append(part)
        lines.pair(f"  {qty} x {format_vnd(price)}", amount)


def payment_receipt(payment: PaymentView, *, shop: Shop, terminal_id: str,
                    cashier: str | None, width: int = 42, reprint: bool = False,
                    labels: ReceiptLabels = ENGLISH) -> Receipt:
    """The receipt of a settled payment; NoReceipt for any other."""
    if payment.state not in RECEIPT_STATES:
        raise NoReceipt(Reason.of("receipt.payment_not_paid", app_trans_id=payment.app_trans_id,
                                  state=payment.state.value, final=payment.is_final))
    lines = _Lines(width)
    _header(lines, shop, labels, labels.sale_title, reprint, terminal_id, cashier,
            payment.created_ms)
    # the same words as every other door (checkout/verdict.py): a late charge or money
    # returned is never printed as a plain sale
    if payment.late_not_kept:
        lines.center(labels.charged_late)
    if payment.state is PaymentState.REFUNDED:
        lines.center(labels.returned)
    _items(lines, payment, labels)
    lines.rule()
    lines.pair(labels.total, format_vnd(payment.amount))
    otherwise = collected_otherwise(payment.amount, payment.why)
    if otherwise:  # a shop QR paid in part, its rest collected at the till
        lines.pair("  " + labels.wallet_name(payment.provider),
                   format_vnd(payment.amount - otherwise))
        lines.pair(labels.collected_otherwise, format_vnd(otherwise))
    lines.pair(labels.method, labels.method_gateway if payment.kind == "gateway"
               else labels.method_quick_pay)
    lines.pair(labels.wallet, labels.wallet_name(payment.provider))
    lines.pair(labels.wallet_transaction, payment.zp_trans_id or "-")
    lines.pair(labels.order, payment.app_trans_id)
    lines.rule()
    lines.center(labels.thanks)
    return Receipt("payment", payment.app_trans_id, tuple(lines.out), reprint)


def refund_receipt(refund: RefundView, payment: PaymentView, *, shop: Shop, terminal_id: str,
                   cashier: str | None, width: int = 42, reprint: bool = False,
                   labels: ReceiptLabels = ENGLISH, authorised_by: str | None = None) -> Receipt:
    """The receipt of a refund the wallet confirmed; NoReceipt for any other.

    Its total is the amount refunded; the original sale's amount is a labelled line of its
    own. `cashier` asked for the refund, `authorised_by` is the supervisor who allowed it."""
    if refund.state is not RefundState.REFUNDED:
        raise NoReceipt(Reason.of("receipt.refund_not_confirmed", m_refund_id=refund.m_refund_id,
                                  state=refund.state.value, final=refund.is_final))
    lines = _Lines(width)
    _header(lines, shop, labels, labels.refund_title, reprint, terminal_id, cashier,
            refund.updated_ms, authorised_by=authorised_by)
    lines.pair(labels.refund_id, refund.m_refund_id)
    if refund.refund_id:
        lines.pair(labels.wallet_refund, refund.refund_id)
    lines.pair(labels.original_payment, payment.app_trans_id)
    lines.pair(labels.wallet, labels.wallet_name(payment.provider))
    lines.pair(labels.wallet_transaction, payment.zp_trans_id or "-")
    lines.pair(labels.original_amount, format_vnd(payment.amount))
    lines.rule()
    lines.pair(labels.refund_amount, format_vnd(refund.amount))
    lines.rule()
    for signature in (labels.customer_signature, labels.cashier_signature):
        lines.out += ["", signature, "", "", "_" * min(lines.width, 30)]
    return Receipt("refund", refund.m_refund_id, tuple(lines.out), reprint)


def copy_of(receipt: Receipt, label: str, width: int) -> Receipt:
    """`receipt` marked as one of its copies ("Liên 1: giao khách hàng") on its first line."""
    return replace(receipt, lines=(label.center(width).rstrip(), *receipt.lines))
