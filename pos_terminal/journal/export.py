"""Export journal rows as CSV (one line per payment) or JSON (payments with events and refunds)."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from typing import TextIO

from pos_terminal.journal.store import Journal
from pos_terminal.journal.views import PaymentView, vn_time
from pos_terminal.text_safety import csv_cell

CSV_COLUMNS = (
    "app_trans_id", "created_vn", "state", "amount", "refunded_amount", "kind", "description",
    "return_code", "sub_return_code", "message", "service_message", "zp_trans_id", "code_last4",
    "needs_review", "z_number", "created_ms", "updated_ms",
)


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
        ])


def write_json(journal: Journal, payments: Sequence[PaymentView], out: TextIO) -> None:
    rows = []
    for p in payments:
        data = p.to_json()
        data["events"] = [e.to_json() for e in journal.events(p.app_trans_id)]
        data["refunds"] = [r.to_json() for r in journal.refunds(p.app_trans_id)]
        rows.append(data)
    json.dump({"payments": rows}, out, ensure_ascii=False, indent=2)
    out.write("\n")
