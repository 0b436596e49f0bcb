"""Export journal rows as CSV (one line per payment, or per refund) or JSON (payments with
events and refunds, or refunds). Rows are written as they are read (Journal.iter_payments,
iter_refunds): an export of years holds one batch in memory, not the years. Each writer returns
how many rows it wrote."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, TextIO

from pos_terminal.base.clock import format_stamp
from pos_terminal.journal.views import EventView, PaymentView, RefundView
from pos_terminal.text_safety import csv_cell, json_line

CSV_COLUMNS = (
    "app_trans_id", "created_vn", "state", "amount", "refunded_amount", "kind", "description",
    "return_code", "sub_return_code", "message", "service_message", "zp_trans_id", "code_last4",
    "needs_review", "z_number", "created_ms", "updated_ms", "cashier_id", "items", "late",
    "abandoned", "provider",
)
REFUND_CSV_COLUMNS = (
    "m_refund_id", "app_trans_id", "created_vn", "state", "amount", "automatic", "description",
    "return_code", "sub_return_code", "message", "service_message", "refund_id", "cashier_id",
    "needs_review", "z_number", "created_ms", "updated_ms", "provider",
)


class PaymentHistory(Protocol):
    """What a JSON export reads beside each payment (journal.Journal has it)."""

    def events(self, app_trans_id: str) -> list[EventView]: ...
    def refunds(self, app_trans_id: str | None = ...) -> list[RefundView]: ...


def _items(items_json: str) -> str:
    """The items as "name x quantity @ price" separated by "; "."""
    try:
        items = json.loads(items_json or "[]")
    except ValueError:
        return ""
    return "; ".join(
        f"{i.get('itemname', '')} x {i.get('itemquantity', '')} @ {i.get('itemprice', '')}"
        for i in (items if isinstance(items, list) else []) if isinstance(i, dict))


def _header(headers: Sequence[str], columns: Sequence[str]) -> Sequence[str]:
    if len(headers) != len(columns):
        raise ValueError(f"{len(headers)} headers for {len(columns)} columns")
    return headers


#: a cell's value as a person reads it: (column, value) -> what is written
Values = Callable[[str, object], object]


def _as_is(_column: str, value: object) -> object:
    return value


def write_csv(payments: Iterable[PaymentView], out: TextIO,
              headers: Sequence[str] = CSV_COLUMNS, values: Values = _as_is) -> int:
    """`headers`: the first line's names, one per column of CSV_COLUMNS (a person's export
    names them in their language; the column names are for programs); `values` the cells (a
    person's export has states and methods in words of their language). Returns the rows
    written."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(_header(headers, CSV_COLUMNS))
    count = 0
    for p in payments:
        count += 1
        # every text cell cleaned of escape sequences and never a spreadsheet formula
        writer.writerow(csv_cell(values(column, cell)) for column, cell in zip(CSV_COLUMNS, [
            p.app_trans_id, format_stamp(p.created_ms), p.state.value, p.amount, p.refunded_amount,
            p.kind, p.description, "" if p.return_code is None else p.return_code,
            "" if p.sub_return_code is None else p.sub_return_code, p.message, p.service_message,
            p.zp_trans_id or "", p.code_last4 or "", int(p.needs_review),
            "" if p.z_number is None else p.z_number, p.created_ms, p.updated_ms,
            p.cashier_id or "", _items(p.items_json), int(p.late), int(p.abandoned),
            p.provider,
        ], strict=True))
    return count


def write_refunds_csv(refunds: Iterable[RefundView], out: TextIO,
                      headers: Sequence[str] = REFUND_CSV_COLUMNS,
                      values: Values = _as_is) -> int:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(_header(headers, REFUND_CSV_COLUMNS))
    count = 0
    for r in refunds:
        count += 1
        writer.writerow(csv_cell(values(column, cell)) for column, cell in zip(
            REFUND_CSV_COLUMNS, [
                r.m_refund_id, r.app_trans_id, format_stamp(r.created_ms), r.state.value, r.amount,
            int(r.auto), r.description, "" if r.return_code is None else r.return_code,
            "" if r.sub_return_code is None else r.sub_return_code, r.message,
            r.service_message, r.refund_id or "", r.cashier_id or "", int(r.needs_review),
            "" if r.z_number is None else r.z_number, r.created_ms, r.updated_ms, r.provider,
        ], strict=True))
    return count


def write_json(journal: PaymentHistory, payments: Iterable[PaymentView], out: TextIO) -> int:
    """{"payments": [...]}: each payment with its events and refunds."""
    def rows() -> Iterable[dict[str, object]]:
        for p in payments:
            data = p.to_json()
            data["events"] = [e.to_json() for e in journal.events(p.app_trans_id)]
            data["refunds"] = [r.to_json() for r in journal.refunds(p.app_trans_id)]
            yield data

    return write_json_list("payments", rows(), out)


def write_refunds_json(refunds: Iterable[RefundView], out: TextIO) -> int:
    return write_json_list("refunds", (r.to_json() for r in refunds), out)


def write_json_list(key: str, rows: Iterable[dict[str, object]], out: TextIO,
                    tail: Callable[[int], dict[str, object]] | None = None) -> int:
    """One JSON object {key: [rows...], **tail(count)} (indented), written row by row."""
    out.write("{\n  " + json.dumps(key) + ": [")
    count = 0
    for count, row in enumerate(rows, 1):
        text = json_line(row, indent=2).replace("\n", "\n    ")
        out.write(("," if count > 1 else "") + "\n    " + text)
    out.write("\n  ]" if count else "]")
    for name, value in (tail(count) if tail else {}).items():
        out.write(",\n  " + json.dumps(name) + ": " + json_line(value))
    out.write("\n}\n")
    return count
