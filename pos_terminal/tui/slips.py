"""X and Z reports as slips (receipts/slips.py lays them out for the paper and the screen): the
cashier's words for each labelled line, in the language shown now."""

from __future__ import annotations

from pos_terminal import wallet_registry
from pos_terminal.base.clock import format_datetime
from pos_terminal.base.i18n import N_, _, current_language, ngettext
from pos_terminal.counter.types import Report
from pos_terminal.receipts import ENGLISH, LABELS, RULE, Slip, SlipLine
from pos_terminal.sentences.labels import shows_wallets, wallet_name
from pos_terminal.sentences.reports import ANOTHER_WAY

SALES, REFUNDS, NET, FAILED = N_("sales"), N_("refunds"), N_("net"), N_("failed")
CHARGED_LATE, STILL_OPEN, NEED_REVIEW = N_("CHARGED LATE"), N_("still open"), N_("need review")
RETURNED, LATE_REVIEW = N_("returned"), N_("late, review")


def reprint_mark() -> str:
    """The reprint mark of the receipts, in the language shown now."""
    return LABELS.get(current_language(), ENGLISH).reprint


def report_title(report: Report) -> str:
    if report.kind == "z":
        return _("Z report #{number} (day closed)").format(number=report.number)
    return _("X report (day still open)")


def wallet_slip_lines(by_provider: dict[str, dict[str, int]]) -> list[SlipLine]:
    """Each wallet's sales (and refunds) under the totals, in the registry's order, when the
    counter took more than the first wallet (as the CLI's text report:
    sentences/reports.py::wallet_lines)."""
    if not shows_wallets(by_provider):
        return []
    out = [RULE]
    for provider in wallet_registry.in_order(by_provider):
        totals = by_provider[provider]
        out.append(SlipLine(wallet_name(provider), totals["count"], totals["amount"]))
        if totals.get("refunds_count"):
            out.append(SlipLine("  " + _(REFUNDS), totals["refunds_count"],
                                -totals["refunds_amount"]))
    return out


def report_slip(report: Report, terminal_id: str, *, reprint: bool = False,
                printed_ms: int | None = None) -> Slip:
    """The report as labelled lines: amounts in VND, times day first in Vietnam time, and words
    (not a lone dash) when the day has no payment yet. A reprint says when it was reprinted."""
    until = format_datetime(report.closed_ms or report.generated_ms)
    facts: list[tuple[str, str]] = [(_("Counter"), terminal_id)]
    if report.opened_ms is None:
        facts.append((_("No payments yet, as of"), until))
    else:
        facts += [(_("From"), format_datetime(report.opened_ms)), (_("To"), until)]
    if reprint and printed_ms is not None:
        facts.append((_("Reprinted"), format_datetime(printed_ms)))
    lines = [
        SlipLine(_(SALES), report.sales_count, report.sales_amount),
        SlipLine(_(REFUNDS), report.refunds_count, -report.refunds_amount),
        SlipLine(_(NET), None, report.net_amount),
        SlipLine(_(FAILED), report.failed_count),
    ]
    lines += wallet_slip_lines(report.by_provider)
    if report.collected_otherwise_count:
        lines.append(SlipLine(_(ANOTHER_WAY), report.collected_otherwise_count,
                              report.collected_otherwise_amount,
                              _("rest of QR sales paid only in part, collected another way "
                                "(e.g. cash): in sales, not in a wallet")))
    extra: list[SlipLine] = []
    if report.late_count:
        extra.append(SlipLine(_(CHARGED_LATE), report.late_count, report.late_amount,
                              _("charged after the terminal said failed (in sales): check none "
                                "was paid twice")))
    if report.auto_returned_count:
        extra.append(SlipLine(_(RETURNED), report.auto_returned_count,
                              report.auto_returned_amount,
                              _("late charges returned automatically (in refunds)")))
    if report.late_review_count:
        extra.append(SlipLine(_(LATE_REVIEW), report.late_review_count, None,
                              _("charged late and left for a person: refund them or keep the "
                                "sale")))
    if report.refunds_failed_count:
        extra.append(SlipLine(_("refunds failed"), report.refunds_failed_count))
    if report.unresolved_count or report.refunds_pending_count:
        pending = report.refunds_pending_count
        note = (ngettext("(+{count} refund in progress)", "(+{count} refunds in progress)",
                         pending).format(count=pending) + " " if pending else "")
        extra.append(SlipLine(_(STILL_OPEN), report.unresolved_count, report.unresolved_amount,
                              note + _("checked in the background and carried to the next "
                                       "day")))
    if report.needs_review_count:
        extra.append(SlipLine(_(NEED_REVIEW), report.needs_review_count, None,
                              _("too old for a status query: check the wallet's merchant "
                                "portal, then override in History")))
    if extra:
        lines += [RULE, *extra]
    return Slip(report_title(report), tuple(facts), tuple(lines),
                reprint=reprint_mark() if reprint else "")
