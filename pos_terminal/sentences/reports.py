"""X/Z reports, per-cashier / per-shift totals and head office's fleet report as the lines a
person reads (the journal computes the numbers: journal/reports.py; the ledger the fleet's:
ledger/reports.py)."""

from __future__ import annotations

from typing import Any

from pos_terminal import wallet_registry
from pos_terminal.base.clock import format_stamp
from pos_terminal.base.i18n import N_, _, ngettext
from pos_terminal.base.money import format_vnd
from pos_terminal.sentences import front_end
from pos_terminal.sentences.labels import shows_wallets, wallet_name
from pos_terminal.text_safety import clean

SALES, REFUNDS, NET, FAILED = N_("sales"), N_("refunds"), N_("net"), N_("failed")
CHARGED_LATE, STILL_OPEN, NEED_REVIEW = N_("CHARGED LATE"), N_("still open"), N_("need review")
AUTO_RETURNED, LATE_REVIEW = N_("AUTO-RETURNED"), N_("LATE, REVIEW")
ANOTHER_WAY = N_("another way")


def _row(label: str, count: int | None, amount: int | None = None) -> str:
    """``  sales             3       75.000 ₫``: label, count and amount in their columns."""
    name = _(label)
    width = max(1, 6 - max(0, len(name) - 12))  # a longer label eats into the count column
    text = f"  {name:<12} " + (f"{count:{width}d}" if count is not None else " " * width)
    return text if amount is None else f"{text}  {format_vnd(amount):>17}"


def total_lines(report: Any) -> list[str]:
    """Sales, refunds, net and failed: the lines every report starts with."""
    return [
        _row(SALES, report.sales_count, report.sales_amount),
        _row(REFUNDS, report.refunds_count, -report.refunds_amount),
        _row(NET, None, report.net_amount),
        _row(FAILED, report.failed_count),
    ]


def _late_lines(count: int, amount: int, review: int = 0) -> list[str]:
    out = []
    if count:
        out.append(_row(AUTO_RETURNED, count, amount) + " " + _(
            "(late charges returned automatically; in refunds above)"))
    if review:
        out.append(_row(LATE_REVIEW, review) + "  " + _(
            "(charged late, left for a person: refund them or keep the sale)"))
    return out


def charged_late_lines(report: Any) -> list[str]:
    """Charges after the terminal said failed, their automatic returns and those left for a
    person (an X/Z report's or a fleet report's `late_*` and `auto_returned_*`)."""
    out = []
    if report.late_count:
        out.append(
            _row(CHARGED_LATE, report.late_count, report.late_amount) + " " + _(
                "(charged after the terminal said failed; in sales above: check none was "
                "paid twice)")
        )
    return out + _late_lines(report.auto_returned_count, report.auto_returned_amount,
                             report.late_review_count)


def wallet_lines(by_provider: dict[str, dict[str, int]]) -> list[str]:
    """Each wallet's sales and refunds (a report's `by_provider`) in the registry's order, when
    there is more than the first wallet (labels.shows_wallets)."""
    if not shows_wallets(by_provider):
        return []
    out = []
    for provider in wallet_registry.in_order(by_provider):
        totals = by_provider[provider]
        out.append(_row(wallet_name(provider), totals["count"], totals["amount"]))
        if totals.get("refunds_count"):
            out.append(_row("  " + _(REFUNDS), totals["refunds_count"],
                            -totals["refunds_amount"]))
    return out


def another_way_lines(totals: Any) -> list[str]:
    """The rest of shop-QR sales paid in part that a person collected another way (a report's
    or a group's `collected_otherwise_*`): in the sales, in no wallet's amount."""
    if not totals.collected_otherwise_count:
        return []
    return [_row(ANOTHER_WAY, totals.collected_otherwise_count,
                 totals.collected_otherwise_amount) + " " + _(
        "(the rest of QR sales paid only in part, collected another way, e.g. cash; in sales "
        "above, not in any wallet's amount)")]


def report_lines(report: Any) -> list[str]:
    """An X or Z report (journal.Report)."""
    title = (_("Z report #{number}").format(number=report.number) if report.kind == "z"
             else _("X report (day still open)"))
    until = format_stamp(report.closed_ms or report.generated_ms)
    period = ("  " + _("from {start} to {end} (Vietnam time)").format(
                  start=format_stamp(report.opened_ms), end=until) if report.opened_ms
              else "  " + _("no payments yet; as of {time} (Vietnam time)").format(time=until))
    out = [title, period, *total_lines(report), *wallet_lines(report.by_provider),
           *another_way_lines(report)]
    out.extend(charged_late_lines(report))
    if report.refunds_failed_count:
        out.append("  " + _("refunds failed {count}").format(
            count=f"{report.refunds_failed_count:4d}"))
    screen = front_end() == "screen"  # the Reports screen and its slips: the cashier's words
    if report.unresolved_count or report.refunds_pending_count:
        out.append(
            _row(STILL_OPEN, report.unresolved_count, report.unresolved_amount) + " " + (_(
                "(+{count} refunds in progress); the terminal keeps checking them; they are "
                "carried to the next day") if screen else _(
                "(+{count} refunds in progress); run `pos-terminal reconcile`; they are "
                "carried to the next day")).format(count=report.refunds_pending_count)
        )
    if report.needs_review_count:
        out.append(
            _row(NEED_REVIEW, report.needs_review_count) + "  " + (_(
                "(too old for a status query: check the merchant portal, then mark them in "
                "History, O)") if screen else _(
                "(too old for a status query: check the merchant portal, then "
                "`pos-terminal override`)"))
        )
    return out


def group_title(group: Any) -> str:
    """One cashier's or one shift's heading (journal.GroupTotals)."""
    who = (f"{group.cashier_name} ({group.cashier_id})" if group.cashier_id
           else _("(no cashier signed in)"))
    if group.by == "cashier":
        return who
    until = format_stamp(group.closed_ms) if group.closed_ms else _("still open")
    return _("shift {key}: {who}, {start} to {end}").format(
        key=group.key, who=who, start=format_stamp(group.opened_ms), end=until)


def group_lines(group: Any) -> list[str]:
    return [
        group_title(group),
        *total_lines(group),
        *another_way_lines(group),
        *_late_lines(group.auto_returned_count, group.auto_returned_amount),
    ]


def _fleet_totals(title: str, totals: Any) -> list[str]:
    """One part of the fleet report (ledger.reports.Totals): its title, then its totals."""
    out = [title, *total_lines(totals), *another_way_lines(totals), *charged_late_lines(totals)]
    if totals.open_count or totals.refunds_pending_count:
        out.append(_row(STILL_OPEN, totals.open_count, totals.open_amount) + " " + _(
            "(+{count} refunds in progress)").format(count=totals.refunds_pending_count))
    if totals.needs_review_count:
        out.append(_row(NEED_REVIEW, totals.needs_review_count))
    return out


def fleet_lines(report: Any) -> list[str]:
    """Head office's day (ledger.reports.FleetReport): the shop, each counter, each wallet and
    each cashier, in the current language. What a counter wrote (its id, a cashier's name, a
    wallet this program does not know) is shown cleaned of escape sequences."""
    count = len(report.terminals)
    out = _fleet_totals(ngettext("Shop, {day} (Vietnam time), {count} counter",
                                 "Shop, {day} (Vietnam time), {count} counters", count).format(
        day=report.day.isoformat(), count=count), report.shop)
    for terminal, totals in sorted(report.terminals.items()):
        out += _fleet_totals(_("Counter {terminal} (last synced {when})").format(
            terminal=clean(terminal), when=report.last_seen.get(terminal) or _("never")), totals)
    for provider, totals in report.wallets_in_order():
        out += _fleet_totals(_("Wallet {name}").format(name=clean(wallet_name(provider))),
                             totals)
    for cashier, totals in sorted(report.cashiers.items()):
        out += _fleet_totals(_("Cashier {name}").format(name=clean(cashier)), totals)
    return out
