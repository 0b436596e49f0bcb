"""Export journal rows as CSV (one line per payment, or per refund) or JSON (payments with
events and refunds)."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from typing import TextIO

from pos_terminal.journal.store import Journal
from pos_terminal.journal.views import PaymentView, RefundView, vn_time
from pos_terminal.text_safety import csv_cell, json_line

CSV_COLUMNS = (
    "app_trans_id", "created_vn", "state", "amount", "refunded_amount", "kind", "description",
    "return_code", "sub_return_code", "message", "service_message", "zp_trans_id", "code_last4",
    "needs_review", "z_number", "created_ms", "updated_ms", "cashier_id", "items", "late",
    "abandoned",
)
REFUND_CSV_COLUMNS = (
    "m_refund_id", "app_trans_id", "created_vn", "state", "amount", "automatic", "description",
    "return_code", "sub_return_code", "message", "service_message", "refund_id", "cashier_id",
    "needs_review", "z_number", "created_ms", "updated_ms",
)


def _items(items_json: str) -> str:
    """The items as "name x quantity @ price" separated by "; "."""
    try:
        items = json.loads(items_json or "[]")
    except ValueError:
        return ""
    return "; ".join(
        f"{i.get('itemname', '')} x {i.get('itemquantity', '')} @ {i.get('itemprice', '')}"
        for i in (items if isinstance(items, list) else []) if isinstance(i, dict))


def write_csv(payments: Sequence[PaymentView], out: TextIO) -> None:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for p in payments:
        # every text cell cleaned of escape sequences and never a spreadsheet formula
        writer.writerow(csv_cell(cell) for cell in [
            p.app_trans_id, vn_time(p.created_ms), p.state.value, p.amount, p.refunded_amount,
            p.kind, p.description, "" if p.return_code is None else p.return_code,
            "" if p.sub_return_code is None else p.sub_return_code, p.message, p.service_message,
            p.zp_trans_id or "", p.code_last4 or "", int(p.needs_review),
            "" if p.z_number is None else p.z_number, p.created_ms, p.updated_ms,
            p.cashier_id or "", _items(p.items_json), int(p.late), int(p.abandoned),
        ])


def write_refunds_csv(refunds: Sequence[RefundView], out: TextIO) -> None:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(REFUND_CSV_COLUMNS)
    for r in refunds:
        writer.writerow(csv_cell(cell) for cell in [
            r.m_refund_id, r.app_trans_id, vn_time(r.created_ms), r.state.value, r.amount,
            int(r.auto), r.description, "" if r.return_code is None else r.return_code,
            "" if r.sub_return_code is None else r.sub_return_code, r.message,
            r.service_message, r.refund_id or "", r.cashier_id or "", int(r.needs_review),
            "" if r.z_number is None else r.z_number, r.created_ms, r.updated_ms,
        ])


def write_json(journal: Journal, payments: Sequence[PaymentView], out: TextIO) -> None:
    rows = []
    for p in payments:
        data = p.to_json()
        data["events"] = [e.to_json() for e in journal.events(p.app_trans_id)]
        data["refunds"] = [r.to_json() for r in journal.refunds(p.app_trans_id)]
        rows.append(data)
    out.write(json_line({"payments": rows}, indent=2))
    out.write("\n")
