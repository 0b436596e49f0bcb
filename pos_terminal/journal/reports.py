"""X report (running totals of the open day) and Z report (closes the day, numbered, immutable).

"The open day" is everything not yet in a Z report. A Z report takes every settled row (payments
succeeded/failed/refunded, refunds refunded/failed) into it; unresolved payments and refunds in
flight stay open and are counted in the next day once they settle. The totals of a Z report are
stored as JSON in its row, which triggers keep from ever changing.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict, dataclass, field
from typing import Any

from pos_terminal.base.clock import format_stamp
from pos_terminal.base.reasons import Reason
from pos_terminal.journal.errors import UnknownZReport

_SALE_STATES = ("succeeded", "refunded")
_SETTLED_PAYMENT_STATES = ("succeeded", "failed", "refunded")
_SETTLED_REFUND_STATES = ("refunded", "failed")

#: A shop-QR sale paid in part whose rest a person collected another way (an override to paid):
#: its reason's `missing` is the part that never went through the wallet. Found by a plain text
#: search of the reason's code first, so only those few rows' JSON is read (the reason is
#: stored as sorted compact JSON, base/reasons.py); a row whose text is not JSON counts whole.
REST_COLLECTED = "override.rest_collected"
REST_COLLECTED_MARK = f'"reason":"{REST_COLLECTED}"'
_OTHERWISE = (
    f"CASE WHEN instr(message, '{REST_COLLECTED_MARK}') > 0 AND json_valid(message) "
    f"AND json_extract(message, '$.reason') = '{REST_COLLECTED}' THEN max(0, min(amount, "
    "coalesce(CAST(json_extract(message, '$.params.missing') AS INTEGER), 0))) END")


def collected_otherwise(amount: int, why: Reason) -> int:
    """The part of a sale of `amount` collected another way: its reason's `missing` when a person
    settled it "rest collected" (0..amount), else 0. The same rule as `_OTHERWISE`, for readers
    of shipped rows (the fleet ledger)."""
    if why.code != REST_COLLECTED:
        return 0
    try:
        missing = int(why.params.get("missing", 0) or 0)
    except (TypeError, ValueError):
        return 0
    return max(0, min(amount, missing))


@dataclass(frozen=True)
class Report:
    kind: str  # "x" or "z"
    number: int | None
    opened_ms: int | None
    closed_ms: int | None
    generated_ms: int
    sales_count: int
    sales_amount: int
    refunds_count: int
    refunds_amount: int
    net_amount: int
    failed_count: int
    refunds_failed_count: int
    unresolved_count: int
    unresolved_amount: int
    refunds_pending_count: int
    refunds_pending_amount: int
    needs_review_count: int
    # Succeeded after the terminal had said failed (already in the sales above); 0 in Z reports
    # stored before schema version 3.
    late_count: int = 0
    late_amount: int = 0
    # Late charges (after "failed" or after the cashier gave up) returned by their automatic
    # refund (already in the refunds above), and late charges left for a person.
    auto_returned_count: int = 0
    auto_returned_amount: int = 0
    late_review_count: int = 0
    # Shop-QR sales paid in part whose rest was collected another way (cash at the till): how
    # many and the sum of those rests (already in the sales above, never in a wallet's amount).
    collected_otherwise_count: int = 0
    collected_otherwise_amount: int = 0
    # Per wallet provider (its declared name): {"count", "amount"} of its sales, its refunds
    # ("refunds_count", "refunds_amount") and "net_amount"; empty in Z reports stored before
    # the provider was journaled (every row of those was base.wallet_types.FIRST_PROVIDER's).
    # "amount" is what arrived through the wallet: a sale's rest collected another way is in
    # "collected_otherwise_count" / "collected_otherwise_amount" (present only for a wallet
    # with such a sale).
    by_provider: dict[str, dict[str, int]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["opened_vn"] = format_stamp(self.opened_ms)
        data["closed_vn"] = format_stamp(self.closed_ms)
        data["generated_vn"] = format_stamp(self.generated_ms)
        return data


def _in(states: tuple[str, ...]) -> str:
    return "(" + ",".join(f"'{s}'" for s in states) + ")"


def _totals(conn: sqlite3.Connection, z_clause: str, args: tuple[Any, ...]) -> dict[str, int]:
    """The totals of the rows `z_clause` picks: the Z report's index (z_number) must find them,
    so no other term may offer an index (the unary + on state and cashier_id): without
    statistics SQLite would rather take every failed payment ever by state."""
    def one(sql: str, a: tuple[Any, ...] = args) -> tuple[int, int]:
        row = conn.execute(sql, a).fetchone()
        return int(row[0]), int(row[1] or 0)

    row = conn.execute(
        f"SELECT count(*), sum(amount), count({_OTHERWISE}), sum({_OTHERWISE}) "  # noqa: S608
        f"FROM payments WHERE {z_clause} AND +state IN {_in(_SALE_STATES)}", args).fetchone()
    sales = int(row[0]), int(row[1] or 0)
    otherwise = int(row[2]), int(row[3] or 0)
    failed = one(
        f"SELECT count(*), 0 FROM payments WHERE {z_clause} AND +state='failed'"  # noqa: S608
    )
    refunds = one(
        "SELECT count(*), sum(amount) FROM refunds "  # noqa: S608
        f"WHERE {z_clause} AND +state='refunded'"
    )
    refunds_failed = one(
        f"SELECT count(*), 0 FROM refunds WHERE {z_clause} AND +state='failed'"  # noqa: S608
    )
    late = one(
        "SELECT count(*), sum(amount) FROM payments "  # noqa: S608
        f"WHERE {z_clause} AND late=1 AND +state IN {_in(_SALE_STATES)}"
    )
    returned = one(
        "SELECT count(*), sum(amount) FROM refunds "  # noqa: S608
        f"WHERE {z_clause} AND auto=1 AND +state='refunded'"
    )
    return {
        "sales_count": sales[0],
        "sales_amount": sales[1],
        "refunds_count": refunds[0],
        "refunds_amount": refunds[1],
        "net_amount": sales[1] - refunds[1],
        "failed_count": failed[0],
        "refunds_failed_count": refunds_failed[0],
        "late_count": late[0],
        "late_amount": late[1],
        "auto_returned_count": returned[0],
        "auto_returned_amount": returned[1],
        "collected_otherwise_count": otherwise[0],
        "collected_otherwise_amount": otherwise[1],
    }


def _by_provider(conn: sqlite3.Connection, z_clause: str,
                 args: tuple[Any, ...]) -> dict[str, dict[str, int]]:
    """The sales and refunds of the rows `z_clause` picks, per wallet provider: what went
    through the wallet, and apart the rest of its sales collected another way."""
    out: dict[str, dict[str, int]] = {}

    def slot(provider: str) -> dict[str, int]:
        return out.setdefault(provider, {"count": 0, "amount": 0, "refunds_count": 0,
                                         "refunds_amount": 0, "net_amount": 0})

    for provider, count, amount, o_count, o_amount in conn.execute(
            "SELECT provider, count(*), coalesce(sum(amount), 0), "  # noqa: S608
            f"count({_OTHERWISE}), coalesce(sum({_OTHERWISE}), 0) FROM payments "
            f"WHERE {z_clause} AND +state IN {_in(_SALE_STATES)} GROUP BY provider", args):
        slot(provider).update(count=int(count), amount=int(amount) - int(o_amount))
        if o_count:  # only a wallet with such a sale names them
            slot(provider).update(collected_otherwise_count=int(o_count),
                                  collected_otherwise_amount=int(o_amount))
    for provider, count, amount in conn.execute(
            "SELECT provider, count(*), coalesce(sum(amount), 0) FROM refunds "  # noqa: S608
            f"WHERE {z_clause} AND +state='refunded' GROUP BY provider", args):
        slot(provider).update(refunds_count=int(count), refunds_amount=int(amount))
    for totals in out.values():
        totals["net_amount"] = totals["amount"] - totals["refunds_amount"]
    return dict(sorted(out.items()))


def _open_items(conn: sqlite3.Connection) -> dict[str, int]:
    # the literals of the partial indexes payments_open and refunds_open (schema.py)
    pending = conn.execute(
        "SELECT count(*), coalesce(sum(amount),0), coalesce(sum(needs_review),0) FROM payments "
        "INDEXED BY payments_open WHERE state IN ('submitting', 'processing', 'unknown')"
    ).fetchone()
    refunds = conn.execute(
        "SELECT count(*), coalesce(sum(amount),0) FROM refunds INDEXED BY refunds_open "
        "WHERE state = 'refunding'"
    ).fetchone()
    late_review = conn.execute(
        "SELECT count(*) FROM payments WHERE state='succeeded' AND needs_review=1 "
        "AND (late=1 OR abandoned=1)"
    ).fetchone()
    return {
        "late_review_count": int(late_review[0]),
        "unresolved_count": int(pending[0]),
        "unresolved_amount": int(pending[1]),
        "needs_review_count": int(pending[2]),
        "refunds_pending_count": int(refunds[0]),
        "refunds_pending_amount": int(refunds[1]),
    }


def _opened_ms(conn: sqlite3.Connection) -> int | None:
    row = conn.execute("SELECT max(closed_ms) FROM z_reports").fetchone()
    if row[0] is not None:
        return int(row[0])
    first = conn.execute("SELECT min(created_ms) FROM payments").fetchone()
    return None if first[0] is None else int(first[0])


def stored_z_report(conn: sqlite3.Connection, number: int) -> Report:
    row = conn.execute("SELECT totals_json FROM z_reports WHERE number=?", (number,)).fetchone()
    if row is None:
        raise UnknownZReport(number)
    return Report(**json.loads(row[0]))


def compute_report(conn: sqlite3.Connection, *, close: bool, now: int) -> Report:
    """The X report, or with close=True the Z report (call it inside a write transaction)."""

    totals = _totals(conn, "z_number IS NULL", ())
    by_provider = _by_provider(conn, "z_number IS NULL", ())
    open_items = _open_items(conn)
    opened = _opened_ms(conn)
    if not close:
        return Report(kind="x", number=None, opened_ms=opened, closed_ms=None, generated_ms=now,
                      **totals, **open_items, by_provider=by_provider)

    number = int(conn.execute("SELECT coalesce(max(number), 0) + 1 FROM z_reports").fetchone()[0])
    report = Report(kind="z", number=number, opened_ms=opened, closed_ms=now, generated_ms=now,
                    **totals, **open_items, by_provider=by_provider)
    conn.execute(
        "INSERT INTO z_reports(number, opened_ms, closed_ms, totals_json) VALUES (?,?,?,?)",
        (number, opened, now, json.dumps(asdict(report), sort_keys=True)),
    )
    conn.execute(
        "UPDATE payments SET z_number=? WHERE z_number IS NULL "  # noqa: S608
        f"AND +state IN {_in(_SETTLED_PAYMENT_STATES)}",
        (number,),
    )
    conn.execute(
        "UPDATE refunds SET z_number=? WHERE z_number IS NULL "  # noqa: S608
        f"AND +state IN {_in(_SETTLED_REFUND_STATES)}",
        (number,),
    )
    return report


@dataclass(frozen=True)
class GroupTotals:
    """The totals of one cashier or one shift, within the open day (X) or one Z report."""

    by: str                 # "cashier" or "shift"
    key: str                # cashier id ("" for rows without a cashier) or shift id
    cashier_id: str | None
    cashier_name: str
    opened_ms: int | None   # the shift's sign-in / sign-out (None for by cashier)
    closed_ms: int | None
    sales_count: int
    sales_amount: int
    refunds_count: int
    refunds_amount: int
    net_amount: int
    failed_count: int
    refunds_failed_count: int
    late_count: int = 0   # paid after the terminal had concluded failed
    late_amount: int = 0
    auto_returned_count: int = 0  # late charges returned automatically (in refunds)
    auto_returned_amount: int = 0
    collected_otherwise_count: int = 0  # shop-QR sales whose rest was collected another way
    collected_otherwise_amount: int = 0  # (in sales: cash in the till, not in a wallet)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["opened_vn"] = format_stamp(self.opened_ms) or None
        data["closed_vn"] = format_stamp(self.closed_ms) or None
        return data


def grouped_report(conn: sqlite3.Connection, *, by: str, z_number: int | None,
                   names: dict[str, str]) -> list[GroupTotals]:
    """Per-cashier or per-shift totals of the open day (z_number None) or of Z report #N.

    A row counts for the cashier recorded on it; for a shift, the rows of that shift's cashier
    created between its sign-in and sign-out."""
    z_clause = "z_number IS NULL" if z_number is None else "z_number = ?"
    z_args: tuple[Any, ...] = () if z_number is None else (z_number,)
    out: list[GroupTotals] = []
    if by == "cashier":
        ids = [r[0] for r in conn.execute(
            f"SELECT DISTINCT cashier_id FROM (SELECT cashier_id FROM payments WHERE {z_clause} "  # noqa: S608
            f"UNION SELECT cashier_id FROM refunds WHERE {z_clause}) ORDER BY cashier_id",
            z_args + z_args).fetchall()]
        for cid in ids:
            totals = _totals(conn, f"{z_clause} AND +cashier_id IS ?", (*z_args, cid))
            out.append(GroupTotals(by="cashier", key=cid or "", cashier_id=cid,
                                   cashier_name=names.get(cid or "", ""), opened_ms=None,
                                   closed_ms=None, **totals))
        return out
    if by != "shift":
        raise ValueError(f"by must be 'cashier' or 'shift', not {by!r}")
    for sid, cid, opened, closed in _shifts_of(conn, z_clause, z_args):
        clause = (f"{z_clause} AND +cashier_id = ? AND +created_ms >= ? "
                  "AND (? IS NULL OR +created_ms <= ?)")
        totals = _totals(conn, clause, (*z_args, cid, opened, closed, closed))
        busy = totals["sales_count"] + totals["refunds_count"] + totals["failed_count"]
        if busy or (closed is None and z_number is None):
            out.append(GroupTotals(by="shift", key=str(sid), cashier_id=cid,
                                   cashier_name=names.get(cid, ""), opened_ms=opened,
                                   closed_ms=closed, **totals))
    return out


def shift_totals(conn: sqlite3.Connection, shift_id: int,
                 names: dict[str, str]) -> GroupTotals | None:
    """The totals of one shift, whole: every row of its cashier from its sign-in to its
    sign-out, in whatever Z reports they are (a day closed in the middle of a shift does not
    empty the cashier's settlement). None for no such shift."""
    row = conn.execute("SELECT cashier_id, opened_ms, closed_ms FROM shifts WHERE id=?",
                       (shift_id,)).fetchone()
    if row is None:
        return None
    cid, opened, closed = row
    clause = "created_ms >= ? AND (? IS NULL OR created_ms <= ?) AND +cashier_id = ?"
    totals = _totals(conn, clause, (opened, closed, closed, cid))
    return GroupTotals(by="shift", key=str(shift_id), cashier_id=cid,
                       cashier_name=names.get(cid, ""), opened_ms=opened, closed_ms=closed,
                       **totals)


def _shifts_of(conn: sqlite3.Connection, z_clause: str,
               z_args: tuple[Any, ...]) -> list[tuple[int, str, int, int | None]]:
    """The shifts that may hold rows of the open day or of one Z report: open ones, and those
    overlapping the time its rows were created (never every shift ever)."""
    lo, hi = None, None
    for table, settled in (("payments", _SETTLED_PAYMENT_STATES),
                           ("refunds", _SETTLED_REFUND_STATES)):
        row = conn.execute(f"SELECT min(created_ms), max(created_ms) FROM {table} "  # noqa: S608
                           f"WHERE {z_clause} AND +state IN {_in(settled)}", z_args).fetchone()
        if row[0] is not None:
            lo = row[0] if lo is None else min(lo, row[0])
            hi = row[1] if hi is None else max(hi, row[1])
    if lo is None:
        return conn.execute("SELECT id, cashier_id, opened_ms, closed_ms FROM shifts "
                            "WHERE closed_ms IS NULL ORDER BY id").fetchall()
    return conn.execute(
        "SELECT id, cashier_id, opened_ms, closed_ms FROM shifts WHERE closed_ms IS NULL "
        "OR (closed_ms >= ? AND opened_ms <= ?) ORDER BY id", (lo, hi)).fetchall()
