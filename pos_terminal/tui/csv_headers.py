"""The exported CSV files' column names and values (states, methods, yes/no) as a person reads
them in a spreadsheet, in the cashier's language (programs use the `pos-terminal journal
export` command's own column names)."""

from __future__ import annotations

from pos_terminal.base.i18n import N_, _
from pos_terminal.counter.answers import state_label

HEADERS = {
    "app_trans_id": N_("Order"), "m_refund_id": N_("Refund"), "created_vn": N_("Time"),
    "state": N_("State"), "amount": N_("Amount (VND)"),
    "refunded_amount": N_("Refunded (VND)"), "kind": N_("Method"),
    "description": N_("Description"), "return_code": N_("Wallet code"),
    "sub_return_code": N_("Wallet sub-code"), "message": N_("Message"),
    "service_message": N_("Wallet message"), "zp_trans_id": N_("Wallet transaction"),
    "code_last4": N_("Code (last 4)"), "needs_review": N_("Needs review"),
    "z_number": N_("Z report"), "created_ms": N_("Created (ms)"),
    "updated_ms": N_("Updated (ms)"), "cashier_id": N_("Cashier"), "items": N_("Items"),
    "late": N_("Charged late"), "abandoned": N_("Given up"), "automatic": N_("Automatic"),
    "refund_id": N_("Wallet refund"), "provider": N_("Wallet"),
}


def header(column: str) -> str:
    return _(HEADERS[column]) if column in HEADERS else column


METHODS = {"quick_pay": N_("Wallet (code scanned)"), "gateway": N_("Wallet (QR shown)")}
#: columns of 0 / 1
FLAGS = frozenset({"needs_review", "late", "abandoned", "automatic"})


def value(column: str, cell: object) -> object:
    """A cell in words: the state and the method named as on screen, a flag as yes / no."""
    if column == "state" and isinstance(cell, str):
        return state_label(cell)
    if column == "kind" and isinstance(cell, str):
        return _(METHODS[cell]) if cell in METHODS else cell
    if column in FLAGS and cell in (0, 1):
        return _("yes") if cell else _("no")
    return cell
