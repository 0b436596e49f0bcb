"""Head office reports over the ledger: the day's totals per counter, per cashier, per wallet
and for the shop (Vietnam time), every open payment or refund across counters, and the
disagreements."""

from __future__ import annotations

import csv
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any, TextIO

from psycopg.rows import dict_row

from pos_terminal import wallet_registry
from pos_terminal.base.clock import VN_TZ, format_moment_stamp, format_stamp
from pos_terminal.base.reasons import Reason, render
from pos_terminal.journal.reports import REST_COLLECTED_MARK, collected_otherwise
from pos_terminal.ledger.store import Conn
from pos_terminal.text_safety import clean, csv_cell

SALE = ("succeeded", "refunded")
#: Only rows a counter could have written with its own login (or a terminal head office
#: registered with add-counter): a terminal nobody registered, written by some other login
#: (the shared login of before, a repair by hand), is never counted.
LEGIT = "terminal_id IN (SELECT terminal_id FROM counters)"
PENDING = ("submitting", "processing", "unknown")


def vn_day_bounds(day: date) -> tuple[int, int]:
    start = datetime.combine(day, time(0), VN_TZ)
    return int(start.timestamp() * 1000), int((start + timedelta(days=1)).timestamp() * 1000)


def vn_today() -> date:
    return datetime.now(VN_TZ).date()


@dataclass
class Totals:
    sales_count: int = 0
    sales_amount: int = 0
    refunds_count: int = 0
    refunds_amount: int = 0
    net_amount: int = 0
    failed_count: int = 0
    open_count: int = 0
    open_amount: int = 0
    needs_review_count: int = 0
    refunds_pending_count: int = 0
    refunds_pending_amount: int = 0
    #: shop-QR sales paid in part whose rest was collected another way (cash at the till): in
    #: the sales above; a wallet's sales_amount is only what arrived through it
    collected_otherwise_count: int = 0
    collected_otherwise_amount: int = 0
    #: as the counter's X/Z count them (journal/reports.py): sales charged after the counter had
    #: said failed (in the sales above), their automatic returns (in the refunds above), and
    #: late charges left for a person; 0 for rows of a journal before version 15
    late_count: int = 0
    late_amount: int = 0
    auto_returned_count: int = 0
    auto_returned_amount: int = 0
    late_review_count: int = 0


@dataclass
class FleetReport:
    day: date
    generated_ms: int
    shop: Totals
    terminals: dict[str, Totals] = field(default_factory=dict)
    cashiers: dict[str, Totals] = field(default_factory=dict)
    #: by wallet provider (its declared name, an installed wallet's too)
    wallets: dict[str, Totals] = field(default_factory=dict)
    last_seen: dict[str, str] = field(default_factory=dict)

    def wallets_in_order(self) -> list[tuple[str, Totals]]:
        """Each wallet's totals in the registry's order; a wallet this program does not know
        (a counter's installed one) after them, by name."""
        return [(key, self.wallets[key]) for key in wallet_registry.in_order(self.wallets)]

    def to_json(self) -> dict[str, Any]:
        return {
            "day": self.day.isoformat(), "timezone": "+07:00",
            "generated_ms": self.generated_ms, "generated_vn": format_stamp(self.generated_ms),
            "shop": asdict(self.shop),
            "terminals": [{"terminal_id": clean(t), "last_seen": self.last_seen.get(t),
                           **asdict(v)} for t, v in sorted(self.terminals.items())],
            "cashiers": [{"cashier": clean(c), **asdict(v)}
                         for c, v in sorted(self.cashiers.items())],
            "wallets": [{"provider": clean(p), "name": _wallet_name(p), **asdict(v)}
                        for p, v in self.wallets_in_order()],
        }

    def write_csv(self, out: TextIO) -> None:
        names = [f for f in Totals.__dataclass_fields__]
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["day", "scope", "name", *names])
        rows = [("shop", "", self.shop)]
        rows += [("counter", t, v) for t, v in sorted(self.terminals.items())]
        rows += [("cashier", c, v) for c, v in sorted(self.cashiers.items())]
        rows += [("wallet", p, v) for p, v in self.wallets_in_order()]
        for scope, name, v in rows:
            data = asdict(v)
            writer.writerow([self.day.isoformat(), csv_cell(scope), csv_cell(name),
                             *(data[n] for n in names)])


def _wallet_name(provider: str) -> str:
    """A wallet's name as head office reads it (its declaration's English one); a wallet this
    program does not know, by the key the counter wrote."""
    known = wallet_registry.wallets().get(provider)
    return known.display_name("en") if known is not None else clean(provider)


def _in(states: tuple[str, ...]) -> str:
    return "(" + ",".join(f"'{s}'" for s in states) + ")"


_PAYMENTS_SQL = f"""
SELECT terminal_id, cashier, provider, GROUPING(terminal_id, cashier, provider) AS g,
    count(*) FILTER (WHERE state IN {_in(SALE)}) AS sales_count,
    coalesce(sum(amount) FILTER (WHERE state IN {_in(SALE)}), 0) AS sales_amount,
    count(*) FILTER (WHERE state = 'failed') AS failed_count,
    count(*) FILTER (WHERE state IN {_in(PENDING)}) AS open_count,
    coalesce(sum(amount) FILTER (WHERE state IN {_in(PENDING)}), 0) AS open_amount,
    count(*) FILTER (WHERE needs_review) AS needs_review_count,
    count(*) FILTER (WHERE late AND state IN {_in(SALE)}) AS late_count,
    coalesce(sum(amount) FILTER (WHERE late AND state IN {_in(SALE)}), 0) AS late_amount,
    count(*) FILTER (WHERE state = 'succeeded' AND needs_review AND (late OR abandoned))
        AS late_review_count
FROM payments WHERE created_ms >= %s AND created_ms < %s AND {LEGIT}
GROUP BY GROUPING SETS ((terminal_id), (cashier), (provider), ())
"""  # noqa: S608
_REFUNDS_SQL = f"""
SELECT terminal_id, cashier, provider, GROUPING(terminal_id, cashier, provider) AS g,
    count(*) FILTER (WHERE state = 'refunded') AS refunds_count,
    coalesce(sum(amount) FILTER (WHERE state = 'refunded'), 0) AS refunds_amount,
    count(*) FILTER (WHERE state = 'refunding') AS refunds_pending_count,
    coalesce(sum(amount) FILTER (WHERE state = 'refunding'), 0) AS refunds_pending_amount,
    count(*) FILTER (WHERE needs_review) AS needs_review_count,
    count(*) FILTER (WHERE auto AND state = 'refunded') AS auto_returned_count,
    coalesce(sum(amount) FILTER (WHERE auto AND state = 'refunded'), 0) AS auto_returned_amount
FROM refunds WHERE created_ms >= %s AND created_ms < %s AND {LEGIT}
GROUP BY GROUPING SETS ((terminal_id), (cashier), (provider), ())
"""  # noqa: S608
# The sales settled "rest collected" (their reason names its code; few rows): their JSON is read
# here, by the same rule as the counter's reports, never parsed by the database (a row a
# counter wrote badly counts whole instead of failing the report).
_OTHERWISE_SQL = f"""
SELECT terminal_id, cashier, provider, amount, message FROM payments
WHERE created_ms >= %s AND created_ms < %s AND {LEGIT} AND state IN {_in(SALE)}
    AND strpos(message, %s) > 0
"""  # noqa: S608


def _split_collected_otherwise(cur: Any, report: FleetReport, start: int, end: int) -> None:
    """Move the rest of each part-paid shop-QR sale out of its wallet's sales into
    `collected_otherwise_*` (every scope counts it; the shop's sales stay whole)."""
    cur.execute(_OTHERWISE_SQL, (start, end, REST_COLLECTED_MARK))
    for row in cur.fetchall():
        rest = collected_otherwise(int(row["amount"]), Reason.loads(row["message"]))
        if not rest:
            continue
        wallet = report.wallets.setdefault(row["provider"], Totals())
        wallet.sales_amount -= rest
        for target in (report.shop, report.terminals.setdefault(row["terminal_id"], Totals()),
                       report.cashiers.setdefault(row["cashier"], Totals()), wallet):
            target.collected_otherwise_count += 1
            target.collected_otherwise_amount += rest


def fleet_report(conn: Conn, day: date, now_ms: int) -> FleetReport:
    """Totals of the Vietnam-time day: sales and failures by the payment's creation time,
    refunds by the refund's; still-open rows as they stand now."""
    start, end = vn_day_bounds(day)
    report = FleetReport(day=day, generated_ms=now_ms, shop=Totals())
    with conn.cursor(row_factory=dict_row) as cur:
        cur.execute(f"SELECT terminal_id, last_seen FROM terminals WHERE {LEGIT}")  # noqa: S608
        for row in cur.fetchall():
            report.last_seen[row["terminal_id"]] = format_moment_stamp(row["last_seen"])
        for sql in (_PAYMENTS_SQL, _REFUNDS_SQL):
            cur.execute(sql, (start, end))
            for row in cur.fetchall():
                g = row.pop("g")  # a bit set for each column not grouped by
                terminal, cashier = row.pop("terminal_id"), row.pop("cashier")
                provider = row.pop("provider")
                if g == 7:
                    target = report.shop
                elif g == 3:  # grouped by terminal
                    target = report.terminals.setdefault(terminal, Totals())
                elif g == 6:  # grouped by wallet provider
                    target = report.wallets.setdefault(provider, Totals())
                else:
                    target = report.cashiers.setdefault(cashier, Totals())
                for k, v in row.items():
                    setattr(target, k, getattr(target, k) + int(v))
        _split_collected_otherwise(cur, report, start, end)
    for terminal in report.last_seen:  # a counter that took nothing that day shows zeros
        report.terminals.setdefault(terminal, Totals())
    for totals in (report.shop, *report.terminals.values(), *report.cashiers.values(),
                   *report.wallets.values()):
        totals.net_amount = totals.sales_amount - totals.refunds_amount
    return report


OPEN_COLUMNS = ("type", "terminal_id", "cashier", "id", "app_trans_id", "state", "amount",
                "needs_review", "created_vn", "updated_vn", "message")


def open_items(conn: Conn) -> list[dict[str, Any]]:
    """Every payment not final or flagged for review, and every refund in flight or flagged
    (the `open_rows` table the ledger's triggers keep: its cost is the open rows', not the
    history's)."""
    with conn.cursor(row_factory=dict_row) as cur:
        cur.execute("SELECT type, terminal_id, cashier, id, app_trans_id, state, amount, "  # noqa: S608
                    "needs_review, created_ms, updated_ms, message FROM open_rows "
                    f"WHERE {LEGIT} ORDER BY created_ms, id")
        rows = cur.fetchall()
    for row in rows:
        row["message"] = render(Reason.loads(row["message"]))  # a reason, or an older row's text
        row["created_vn"] = format_stamp(row.pop("created_ms"))
        row["updated_vn"] = format_stamp(row.pop("updated_ms"))
    return [_cleaned(row) for row in rows]


DISAGREEMENT_COLUMNS = ("id", "detected_vn", "terminal_id", "journal_id", "seq", "kind", "key",
                        "field", "ledger_value", "journal_value", "note")


def disagreements(conn: Conn) -> list[dict[str, Any]]:
    with conn.cursor(row_factory=dict_row) as cur:
        cur.execute(f"SELECT * FROM disagreements WHERE {LEGIT} ORDER BY id")  # noqa: S608
        rows = cur.fetchall()
    for row in rows:
        row["detected_vn"] = format_moment_stamp(row.pop("detected_at"))
    return [_cleaned(row) for row in rows]


def _cleaned(row: dict[str, Any]) -> dict[str, Any]:
    """A row as counters wrote it, every text without escape sequences or control characters:
    it goes to a terminal, a JSON reader or a spreadsheet."""
    return {k: clean(v) if isinstance(v, str) else v for k, v in row.items()}


def write_rows_csv(rows: list[dict[str, Any]], columns: tuple[str, ...], out: TextIO) -> None:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if row.get(c) is None else csv_cell(row.get(c)) for c in columns])
