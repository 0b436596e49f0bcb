"""The exported CSV files' column names as a person reads them in a spreadsheet, in the
cashier's language (programs use the `pos-terminal export` command's own column names)."""

from __future__ import annotations

from pos_terminal.base.i18n import N_, _

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
