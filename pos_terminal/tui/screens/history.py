"""History: the journal as a table (today by default, filter by state and date), a detail view
with the event timeline, refund, manual override and export."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import ClassVar

from rich.cells import cell_len
from rich.table import Table
from textual import events, on, work
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Input, Static

from pos_terminal.base.amounts import read_amount
from pos_terminal.base.clock import day_bounds_ms, iso_day
from pos_terminal.base.codes import mask_last4
from pos_terminal.base.errors import cashier_message
from pos_terminal.base.files import open_private
from pos_terminal.base.i18n import N_, _, ngettext
from pos_terminal.base.money import format_vnd
from pos_terminal.base.paths import shown_path
from pos_terminal.counter import PrintOutcome
from pos_terminal.counter.answers import state_label
from pos_terminal.counter.types import (
    EventView,
    PaymentState,
    PaymentView,
    RefundState,
    RefundView,
    late_charge_note,
    refund_of,
)
from pos_terminal.sentences.labels import wallet_name
from pos_terminal.text_safety import clean
from pos_terminal.tui.csv_headers import header, value
from pos_terminal.tui.format import day_hint, parse_day, show_day, vn_time
from pos_terminal.tui.messages import ReceiptUpdate
from pos_terminal.tui.screens.base import PosScreen
from pos_terminal.tui.screens.dialogs import (
    ConfirmDialog,
    OverrideDialog,
    OverrideRequestUi,
    RefundDialog,
    RefundRequestUi,
)
from pos_terminal.tui.screens.supervisor import authorise
from pos_terminal.tui.widgets.line import cell
from pos_terminal.tui.widgets.phrases import PhraseLine, PhraseText, shorten, wrap_phrases
from pos_terminal.tui.widgets.table import MeasuredTable

#: The journal's own (English) words for the moves it records itself, as the cashier reads them
#: (a person's override reason is shown as typed).
JOURNAL_REASONS = {
    "abandoned: the cashier stopped waiting": N_("the cashier stopped waiting"),
    "late success: charged after the terminal had concluded failed":
        N_("charged after the terminal had said it failed"),
}
JOURNAL_WHO = {"wallet service": N_("wallet service")}
#: The journal's kinds of event other than a plain state change, as the timeline names them.
EVENT_KINDS = {"override": N_("override"), "review": N_("needs review")}
STATE_FILTERS: tuple[PaymentState | None, ...] = (None, *PaymentState)
MIN_NOTE = 30  # cells of note below which the Order column shows only its unique tail
MIN_NARROW_NOTE = 16  # ... and below which it goes (the detail, Enter, names the order)
SHORT_ORDER = 5  # characters of an order id that tell a day's rows apart
NOTICE_PATH = 34  # cells of a path in a notice (a toast is 40 columns wide at 80)


def items_text(view: PaymentView) -> str:
    """The items as "tea ×2, cake" ("" without items)."""
    try:
        items = json.loads(view.items_json or "[]")
    except ValueError:
        return ""
    parts = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict):
            name = str(item.get("itemname", "?"))
            quantity = item.get("itemquantity", 1)
            parts.append(name if quantity == 1 else f"{name} ×{quantity}")
    return ", ".join(parts)


def row_state(view: PaymentView, refunds: Sequence[RefundView] = ()) -> str:
    """The State column: a late charge says where its return is, never just "succeeded"."""
    auto = next((r for r in refunds if r.auto), None)
    if view.charged_late and auto is not None and auto.state is RefundState.REFUNDING:
        return _("returning")
    if view.charged_late and view.state is PaymentState.SUCCEEDED:
        return _("charged late")
    return state_label(view.state.value)


def _flags(view: PaymentView, refunds: Sequence[RefundView]) -> list[str]:
    """What must never be cut from a row's note: review, late charge, refunds."""
    parts = []
    if view.needs_review:
        parts.append(_("NEEDS REVIEW"))
    auto = next((r for r in refunds if r.auto), None)
    late = late_charge_note(view, auto)
    if late:
        parts.append(late)
    elif view.refunded_amount:
        parts.append(_("refunded {amount}").format(amount=format_vnd(view.refunded_amount)))
    in_flight = sum(1 for r in refunds if r.state is RefundState.REFUNDING and not r.auto)
    if in_flight:
        parts.append(ngettext("{count} refund in progress", "{count} refunds in progress",
                              in_flight).format(count=in_flight))
    return parts


def _note(view: PaymentView, refunds: Sequence[RefundView] = ()) -> str:
    """What a cashier asks about a row: review, late charge, refunds, the failure's reason or
    what was sold, and who took it."""
    parts = _flags(view, refunds)
    if view.state is PaymentState.FAILED or not view.is_final or view.needs_review:
        parts.append(view.message)  # the reason, or what the terminal is doing about it
    else:
        parts.append(view.description or items_text(view))
    if view.cashier_id:
        parts.append(_("cashier {id}").format(id=view.cashier_id))
    return " · ".join(p for p in parts if p)


def matches(view: PaymentView, search: str) -> bool:
    """A row a cashier looks for: the code's last 4 digits, (part of) the wallet transaction
    id or the order, or the amount ("50000", "50.000 đ")."""
    if not search:
        return True
    if search == (view.code_last4 or ""):
        return True
    if len(search) >= 4 and (search in (view.zp_trans_id or "") or search in view.app_trans_id):
        return True
    return read_amount(search) == view.amount


def totals_line(rows: Sequence[PaymentView]) -> str:
    """The table's totals: what was paid (less refunds), what was refunded, what failed."""
    paid = [r for r in rows if r.state in (PaymentState.SUCCEEDED, PaymentState.REFUNDED)]
    failed = sum(1 for r in rows if r.state is PaymentState.FAILED)
    refunded = sum(r.refunded_amount for r in paid)
    return _("Total: {paid} paid {amount} · refunded {refunded} · net {net} · {failed} "
             "failed").format(paid=len(paid), amount=format_vnd(sum(r.amount for r in paid)),
                              refunded=format_vnd(refunded),
                              net=format_vnd(sum(r.amount for r in paid) - refunded),
                              failed=failed)


def short_order(app_trans_id: str) -> str:
    """The order's last characters, unique on a day's list whichever wallet made the id (one
    wallet's ids end in random letters, another's in random digits); Search (/) finds the row
    by them."""
    return "…" + app_trans_id[-SHORT_ORDER:]


def note_cell(view: PaymentView, refunds: Sequence[RefundView], width: int) -> tuple[str, int]:
    """The note as the row shows it, and the row's height: one line, cut between phrases (or at
    a word), unless its flags (review, late charge, refunds) do not fit one: then two lines,
    the flags whole."""
    note = clean(_note(view, refunds))
    if cell_len(" · ".join(_flags(view, refunds))) <= width:
        return shorten(note, width), 1
    lines = wrap_phrases(note, width)
    if len(lines) <= 2:
        return "\n".join(lines), len(lines)
    return lines[0] + "\n" + shorten(" ".join(lines[1:]), width), 2


class HistoryScreen(PosScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", N_("Back")),
        Binding("s", "next_state", N_("State filter")),
        Binding("d", "choose_day", N_("Date")),
        Binding("t", "today", N_("Today")),
        Binding("slash", "search", N_("Search")),
        Binding("e", "export", N_("Export CSV")),
        Binding("r", "reload", N_("Reload"), show=False),  # no room at 80 columns
        # a counter taking more than one wallet: its filter line says "W" (no room at 80)
        Binding("w", "next_wallet", N_("Wallet filter"), show=False),
    ]

    def __init__(self, day: str | None = None) -> None:
        super().__init__()
        self.day = day or iso_day(int(time.time() * 1000))
        self.state_index = 0
        self.wallets: tuple[str, ...] = ()  # the counter's, when more than one (on_mount)
        self.wallet_index = 0  # 0: every wallet, else self.wallets[index - 1]
        self.search = ""  # what the rows are narrowed to (matches())
        self.all_rows: list[PaymentView] = []  # the day's rows, before the search
        self.rows: list[PaymentView] = []
        self.refunds: dict[str, list[RefundView]] = {}

    def body(self) -> Iterable[Widget]:
        with Vertical():
            yield PhraseLine("", id="history-filter")
            yield Input(placeholder=day_hint(), id="day-input", max_length=10,
                        restrict=r"[0-9/.-]*")
            yield Input(placeholder=_("Last 4 digits of the code, transaction id or amount, "
                                      "Enter (empty: all)"), id="search-input", max_length=40)
            yield MeasuredTable(id="history-table", cursor_type="row", zebra_stripes=True)
            yield PhraseLine("", id="history-totals")

    def on_mount(self) -> None:
        wallets = self.pos.counter.payments.wallets
        self.wallets = wallets if len(wallets) > 1 else ()
        table = self.query_one("#history-table", DataTable)
        table.add_columns(_("Time"), _("Order"), _("Amount"), _("State"), _("Note"))
        table.focus()
        self.action_reload()

    @property
    def state_filter(self) -> PaymentState | None:
        return STATE_FILTERS[self.state_index]

    @property
    def wallet_filter(self) -> str | None:
        return self.wallets[self.wallet_index - 1] if self.wallet_index else None

    def _show_filter(self, extra: str = "") -> None:
        state = state_label(self.state_filter.value) if self.state_filter else _("all states")
        template = (_("Day {day} (Vietnam time) · {state} · {count} payment") if len(self.rows) == 1
                    else _("Day {day} (Vietnam time) · {state} · {count} payments"))
        text = template.format(day=show_day(self.day), state=state, count=len(self.rows))
        if self.wallets:
            text += " · " + (wallet_name(self.wallet_filter) if self.wallet_filter
                             else _("all wallets (W)"))
        if self.search:
            text += " · " + _("search {text}").format(text=repr(self.search))
        self.query_one("#history-filter", Static).update(text + (f" · {extra}" if extra else ""))
        self.query_one("#history-totals", Static).update(totals_line(self.rows))

    def action_reload(self) -> None:
        self.load(self.day, self.state_filter, self.wallet_filter)

    @work(thread=True, group="history", exclusive=True, exit_on_error=False)
    def load(self, day: str, state: PaymentState | None, wallet: str | None = None) -> None:
        since, until = day_bounds_ms(day)
        try:
            counter = self.pos.counter
            rows = counter.history.list(
                since_ms=since, until_ms=until, states=[state] if state else None,
                newest_first=True, provider=wallet)
            refunds = {p.app_trans_id: counter.refunds.list(p.app_trans_id) for p in rows}
        except Exception as exc:
            self.app.call_from_thread(self.notify, _("Cannot read the journal: {error}").format(
                error=exc), severity="error")
            return
        self.app.call_from_thread(self._loaded, rows, refunds)

    def _loaded(self, rows: list[PaymentView], refunds: dict[str, list[RefundView]]) -> None:
        self.all_rows = rows
        self._fill([r for r in rows if matches(r, self.search)], refunds)

    def action_search(self) -> None:
        field = self.query_one("#search-input", Input)
        field.add_class("shown")
        field.value = self.search
        field.focus()

    @on(Input.Submitted, "#search-input")
    def _searched(self, event: Input.Submitted) -> None:
        self.search = event.value.strip()
        if not self.search:
            event.input.remove_class("shown")
        self.query_one("#history-table", DataTable).focus()
        self._fill([r for r in self.all_rows if matches(r, self.search)])

    def _fill(self, rows: list[PaymentView],
              refunds: dict[str, list[RefundView]] | None = None) -> None:
        self.rows = rows
        if refunds is not None:
            self.refunds = refunds
        table = self.query_one("#history-table", DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        room = (table.size.width or self.app.size.width) - 2
        headers: tuple[str, ...] = (_("Time"), _("Order"), _("Amount"), _("State"))
        if self.wallets:  # a column of its own only where there is more than one
            headers += (_("Wallet"),)

        def layout(order: Callable[[str], str] | None) -> tuple[
                tuple[str, ...], list[tuple[str, ...]], int]:
            shown = headers if order is not None else (headers[0], *headers[2:])
            cells = [(vn_time(view.created_ms, with_date=False),
                      *((order(view.app_trans_id),) if order is not None else ()),
                      format_vnd(view.amount), row_state(view, self.refunds.get(
                          view.app_trans_id, ())),
                      *((wallet_name(view.provider),) if self.wallets else ()))
                     for view in rows]
            widths = [max([cell_len(h), *(cell_len(c[i]) for c in cells)])
                      for i, h in enumerate(shown)]
            # The note gets what is left of the width (a scrollbar's worth kept free) and ends
            # in "…" between phrases when longer: the whole text is in the payment's detail.
            return shown, cells, room - sum(w + 2 * table.cell_padding for w in widths) \
                - 2 * table.cell_padding

        # Narrow (80 columns): the order's unique tail, then no order at all, before a note
        # too narrow to say anything; every column as wide as its widest cell, none cut.
        shown, cells, note_width = layout(str)
        if note_width < MIN_NOTE:
            shown, cells, note_width = layout(short_order)
        if note_width < MIN_NARROW_NOTE:
            shown, cells, note_width = layout(None)
        note_width = max(note_width, cell_len(_("Note")), 1)
        table.add_columns(*shown)
        table.add_column(_("Note"), width=note_width)
        for view, row in zip(rows, cells, strict=True):
            note, height = note_cell(view, self.refunds.get(view.app_trans_id, ()), note_width)
            table.add_row(*map(cell, row), "\n".join(map(cell, note.split("\n"))),
                          key=view.app_trans_id, height=height)
        if rows:
            table.move_cursor(row=min(cursor, len(rows) - 1))
        self._show_filter()

    def on_resize(self, event: events.Resize) -> None:
        # Textual also runs PosScreen.on_resize (every class's handler is called).
        if self.rows:
            self._fill(self.rows)

    def action_next_state(self) -> None:
        self.state_index = (self.state_index + 1) % len(STATE_FILTERS)
        self.action_reload()

    def action_next_wallet(self) -> None:
        """All wallets, then each in turn (a counter taking more than one)."""
        if self.wallets:
            self.wallet_index = (self.wallet_index + 1) % (len(self.wallets) + 1)
            self.action_reload()

    def action_today(self) -> None:
        self.day = iso_day(int(time.time() * 1000))
        self.action_reload()

    def action_choose_day(self) -> None:
        field = self.query_one("#day-input", Input)
        field.add_class("shown")
        field.value = show_day(self.day)
        field.focus()

    @on(Input.Submitted, "#day-input")
    def _day_chosen(self, event: Input.Submitted) -> None:
        day = parse_day(event.value)
        if day is None:
            example = show_day("2026-11-21")
            self.notify(_("{text} is not a date: type it as {form}, e.g. {example}.").format(
                text=repr(event.value), form=day_hint().split(",")[0], example=example),
                        severity="error", markup=False)
            return
        self.day = day
        event.input.remove_class("shown")
        self.query_one("#history-table", DataTable).focus()
        self.action_reload()

    @on(DataTable.RowSelected, "#history-table")
    def _open(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.app.push_screen(PaymentDetailScreen(event.row_key.value),
                                 lambda _: self.action_reload())

    def export_names(self) -> tuple[Path, Path]:
        """The files for what is shown: the day, then the state filter and the search (a
        narrowed export never takes the whole day's name)."""
        folder = self.pos.counter.history.folder
        suffix = f"-{self.state_filter.value}" if self.state_filter else ""
        if self.search:
            term = "".join(c for c in self.search if c.isalnum())[:20] or "search"
            suffix += f"-search-{term}"
        return (folder / f"payments-{self.day}{suffix}.csv",
                folder / f"refunds-{self.day}{suffix}.csv")

    def action_export(self) -> None:
        target, refunds_target = self.export_names()
        rows = list(self.rows)
        existing = [p for p in (target, refunds_target) if p.exists()]
        if not existing:
            self.export(rows, target, refunds_target)
            return
        fresh = _free_name(target), _free_name(refunds_target)

        def answered(replace: bool | None) -> None:
            if replace is None:
                return
            self.export(rows, *((target, refunds_target) if replace else fresh))

        def question() -> str:
            return _("{file} was exported before. Replace it? Y: replace · N: keep it and "
                     "write {new}").format(file=existing[0].name, new=fresh[0].name)

        self.app.push_screen(ConfirmDialog(question), answered)

    @work(thread=True, group="export", exit_on_error=False)
    def export(self, rows: list[PaymentView], target: Path, refunds_target: Path) -> None:
        try:
            refunds = [r for p in rows for r in self.pos.counter.refunds.list(p.app_trans_id)]
            # UTF-8 with a byte-order mark: Excel on Windows then reads Vietnamese right
            with open_private(target, encoding="utf-8-sig", newline="") as out:
                self.pos.counter.history.export_csv(rows, out, header, value)
            with open_private(refunds_target, encoding="utf-8-sig", newline="") as out:
                self.pos.counter.history.export_refunds_csv(refunds, out, header, value)
        except OSError as exc:
            self.app.call_from_thread(
                self.notify, _("Export failed: {error} ({file}). Check the folder is "
                               "writable.").format(error=exc.strerror,
                                                   file=shown_path(target, NOTICE_PATH)),
                severity="error")
            return
        except Exception as exc:
            self.app.call_from_thread(self.notify, _("Export failed: {error}").format(error=exc),
                                      severity="error")
            return
        self.app.call_from_thread(
            self.notify, _("Exported {payments} to {target} and {refunds} to "
                           "{refunds_target}").format(
                payments=ngettext("{count} payment", "{count} payments", len(rows)).format(
                    count=len(rows)), target=shown_path(target, NOTICE_PATH),
                refunds_target=shown_path(refunds_target, NOTICE_PATH),
                refunds=ngettext("{count} refund", "{count} refunds", len(refunds)).format(
                    count=len(refunds))))
        self.app.call_from_thread(self._show_filter, _("exported to {file}").format(
            file=target.name))


class PaymentDetailScreen(PosScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("Back")),
        Binding("f", "refund", N_("Refund")),
        Binding("o", "override", N_("Override")),
        Binding("p", "print_receipt", N_("Print receipt")),
        Binding("n", "print_refund_receipt", N_("Refund receipt")),
        Binding("u", "status", N_("Update status")),
    ]

    def __init__(self, app_trans_id: str) -> None:
        super().__init__()
        self.app_trans_id = app_trans_id
        self.view: PaymentView | None = None
        self.refunds: list[RefundView] = []
        self.printing_here: set[str] = set()  # receipts printed from this screen

    def body(self) -> Iterable[Widget]:
        with Vertical(id="detail"):
            yield PhraseLine("", id="detail-summary")
            with VerticalScroll(id="timeline"):
                yield Static("", id="timeline-table")
            yield PhraseLine("", id="detail-message")
            yield PhraseLine("", id="detail-receipt", classes="hidden")

    def on_mount(self) -> None:
        self.load()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the actions that apply to this payment are offered (and shown in the footer)."""
        if action == "refund":
            return self.view is not None and self.view.refundable_amount > 0
        if action == "override":
            return self.view is not None and self._overridable(self.view)
        if action == "print_receipt":
            return self.view is not None and self.view.state in (PaymentState.SUCCEEDED,
                                                                 PaymentState.REFUNDED)
        if action == "print_refund_receipt":
            return self._settled_refund() is not None
        return True

    def _settled_refund(self) -> RefundView | None:
        """The newest refund the wallet confirmed (the one a refund receipt is for)."""
        done = [r for r in self.refunds if r.state is RefundState.REFUNDED]
        return done[-1] if done else None

    @staticmethod
    def _overridable(view: PaymentView) -> bool:
        return view.needs_review or view.state in (
            PaymentState.UNKNOWN, PaymentState.PROCESSING, PaymentState.SUBMITTING)

    def action_back(self) -> None:
        self.dismiss(None)

    @work(thread=True, group="detail", exclusive=True, exit_on_error=False)
    def load(self) -> None:
        counter = self.pos.counter
        try:
            view = counter.payments.get(self.app_trans_id)
            events = counter.history.events(self.app_trans_id)
            refunds = counter.refunds.list(self.app_trans_id)
        except Exception as exc:
            self.app.call_from_thread(self.say, _("Cannot read the journal: {error}").format(
                error=exc), True)
            return
        self.app.call_from_thread(self._fill, view, events, refunds)

    def _fill(self, view: PaymentView, events: list[EventView],
              refunds: list[RefundView]) -> None:
        self.view, self.refunds = view, refunds
        auto = next((r for r in refunds if r.auto), None)
        late = late_charge_note(view, auto)
        lines = [
            f"{view.app_trans_id}   {format_vnd(view.amount)}   "
            f"{state_label(view.state.value).upper()}"
            + (f"   {late.upper()}" if late else "")
            + ("   " + _("NEEDS REVIEW") if view.needs_review else ""),
            _("created {time} · code {code}").format(
                time=vn_time(view.created_ms), code=mask_last4(view.code_last4 or None))
            + " · " + _("cashier {id}").format(id=view.cashier_id or "-"),
            _("transaction {zp_trans_id}").format(zp_trans_id=view.zp_trans_id or "-")
            + " · " + wallet_name(view.provider),
        ]
        if view.description:
            lines.append(_("description: {text}").format(text=view.description))
        if items_text(view):
            lines.append(_("items: {items}").format(items=items_text(view)))
        if view.abandoned:
            lines.append(_("the cashier gave up waiting for it while its outcome was unknown"))
        if view.abandoned and view.charged_late:
            # its message is the wallet's "paid": not the story of a charge made too late
            lines.append(_("Charged after the cashier had given up waiting: {what}.").format(
                what=late))
        elif view.message:
            lines.append(view.message)
        if view.refunded_amount or refunds:
            lines.append(ngettext("refunded {amount} in {count} refund",
                                  "refunded {amount} in {count} refunds", len(refunds)).format(
                amount=format_vnd(view.refunded_amount), count=len(refunds)))
        for r in refunds:
            lines.append(_("  refund {id} {amount} {state}{auto}").format(
                id=r.m_refund_id, amount=format_vnd(r.amount), state=state_label(r.state.value),
                auto=_(" (automatic return of a late charge)") if r.auto else ""))
        self.query_one("#detail-summary", Static).update("\n".join(lines))
        # A Rich table in a scrolling Static: the Detail column wraps (between phrases), so
        # every message is shown whole at any width (80 columns included).
        table = Table(expand=True, box=None, pad_edge=False, header_style="bold")
        table.add_column(_("Time"), no_wrap=True)
        table.add_column(_("Change"), max_width=26)
        table.add_column(_("Detail"), ratio=1, overflow="fold")
        for event in events:
            detail = event.message or ""
            if event.reason:
                reason = _(JOURNAL_REASONS.get(event.reason, event.reason))
                who = _(JOURNAL_WHO.get(event.who or "", event.who or ""))
                detail = f"{who}: {reason}" if who else reason
            if event.return_code is not None:
                detail = f"[{event.return_code}] {detail}"
            change = (f"{state_label(event.from_state) if event.from_state else '-'} → "
                      f"{state_label(event.to_state)}")
            if event.kind != "transition":
                kind = EVENT_KINDS.get(event.kind)
                change = f"{_(kind) if kind else event.kind}: {change}"
            table.add_row(vn_time(event.time_ms, with_date=False), PhraseText(clean(change)),
                          PhraseText(clean(detail)))
        self.query_one("#timeline-table", Static).update(table)
        self.refresh_bindings()

    def say(self, text: str, error: bool = False) -> None:
        message = self.query_one("#detail-message", Static)
        message.update(text)
        message.set_class(error, "error")

    # ---- refund -------------------------------------------------------------------------
    def action_refund(self) -> None:
        if self.view is None:
            return
        if self.view.refundable_amount <= 0:
            self.say(_("Nothing to refund: the payment is {state} and {amount} is already "
                       "refunded.").format(state=state_label(self.view.state.value),
                                           amount=format_vnd(self.view.refunded_amount)), True)
            return
        by_shop = self.pos.counter.refunds.shop_returns(self.app_trans_id)
        self.app.push_screen(RefundDialog(self.view, self.refunds, by_shop),
                             self._refund_chosen)

    def _refund_chosen(self, request: RefundRequestUi | None) -> None:
        if request is None:
            return
        def what() -> str:
            return _("refund {amount} of {order}").format(amount=format_vnd(request.amount),
                                                          order=self.app_trans_id)

        def authorised(by: str | None) -> None:
            self.say(_("Refunding {amount}…").format(amount=format_vnd(request.amount)))
            self.refund(request.amount, by, request.returned_by_shop)

        authorise(self, what, authorised)

    @work(thread=True, group="refund", exit_on_error=False)
    def refund(self, amount: int, authorised_by: str | None = None,
               returned_by_shop: str | None = None) -> None:
        refunds = self.pos.counter.refunds
        try:  # asked by the cashier signed in here, authorised by the supervisor's PIN
            if returned_by_shop:  # the shop's own transfer: recorded, nothing sent
                result = refunds.returned_by_shop(
                    self.app_trans_id, amount, returned_by_shop,
                    authorised_by or self.pos.cashier_id or self.pos.settings.terminal.app_user,
                    cashier_id=self.pos.cashier_id, authorised_by=authorised_by)
            else:
                result = refunds.create(self.app_trans_id, amount,
                                        cashier_id=self.pos.cashier_id,
                                        authorised_by=authorised_by)
        except Exception as exc:
            text = cashier_message(exc)
            recorded = refund_of(exc)  # this refund's own id, whatever else runs meanwhile
            if recorded is None:
                self.app.call_from_thread(self.say, _("Refund not done: {reason}").format(
                    reason=text), True)
                return
            self.app.call_from_thread(self.say, _(
                "Refund {m_refund_id} recorded, its outcome not known yet: {reason}").format(
                    m_refund_id=recorded, reason=text), True)
            self.app.call_from_thread(self.load)
            return
        state = state_label(result.state.value)
        ok = result.state is RefundState.REFUNDED
        text = (_("Refund {m_refund_id}: {amount} {state}").format(
                    m_refund_id=result.m_refund_id, amount=format_vnd(result.amount), state=state)
                + (f". {result.message}" if result.message and not ok else ""))
        self.app.call_from_thread(self.say, text, result.state is RefundState.FAILED)
        self.app.call_from_thread(self.load)
        # `[printer] auto`: the counter prints its receipt; this screen shows how it went
        # (ReceiptUpdate names this payment).

    # ---- override -----------------------------------------------------------------------
    def action_override(self) -> None:
        if self.view is None:
            return
        if self.view.state not in (PaymentState.UNKNOWN, PaymentState.PROCESSING,
                                   PaymentState.SUBMITTING) and not self.view.needs_review:
            self.say(_("A {state} payment is settled; an override is only for payments the "
                       "service cannot resolve.").format(
                           state=state_label(self.view.state.value)), True)
            return
        self.app.push_screen(OverrideDialog(self.view), self._override_chosen)

    def _override_chosen(self, request: OverrideRequestUi | None) -> None:
        if request is not None:
            def what() -> str:
                return _("override of {order}").format(order=self.app_trans_id)

            def authorised(by: str | None) -> None:
                self.override(request, by or self.pos.cashier_id)

            authorise(self, what, authorised)

    @work(thread=True, group="override", exit_on_error=False)
    def override(self, request: OverrideRequestUi, cashier_id: str | None = None) -> None:
        try:
            view = self.pos.counter.payments.override(
                self.app_trans_id, request.state, request.reason,
                cashier_id or self.pos.settings.terminal.app_user, cashier_id=cashier_id)
        except Exception as exc:
            text = cashier_message(exc)
            self.app.call_from_thread(self.say, _("Override not recorded: {reason}").format(
                reason=text), True)
            return
        self.app.call_from_thread(self.say, _("Recorded: {app_trans_id} is now {state} "
                                              "({reason}).").format(
            app_trans_id=view.app_trans_id, state=state_label(view.state.value),
            reason=request.reason))
        self.app.call_from_thread(self.pos.refresh_pending)
        self.app.call_from_thread(self.load)

    # ---- receipts ---------------------------------------------------------------------
    def action_print_receipt(self) -> None:
        self._print(self.app_trans_id)

    def action_print_refund_receipt(self) -> None:
        refund = self._settled_refund()
        if refund is not None:
            self._print(refund.m_refund_id)

    def _print(self, subject_id: str) -> None:
        self.printing_here.add(subject_id)
        self._say_receipt(_("Printing the receipt…"), False)
        self.pos.receipts.print(subject_id)

    def _say_receipt(self, text: str, error: bool) -> bool:
        for line in self.query("#detail-receipt").results(Static):  # none while closing
            line.update(text)
            line.set_class(error, "error")
            line.remove_class("hidden")
            return True
        return False

    def shows_receipt(self, subject_id: str, app_trans_id: str) -> bool:
        return subject_id in self.printing_here or app_trans_id == self.app_trans_id

    def on_receipt_update(self, message: ReceiptUpdate) -> None:
        if not self.shows_receipt(message.subject_id, message.app_trans_id):
            return
        message.stop()
        if message.outcome is None:
            self._say_receipt(_("Printing the receipt…"), False)
        else:
            self.receipt_done(message.outcome)

    def receipt_done(self, outcome: PrintOutcome) -> bool:
        return self._say_receipt(
            outcome.message, not outcome.printed)

    # ---- status -------------------------------------------------------------------------
    def action_status(self) -> None:
        self.status()

    @work(thread=True, group="status", exclusive=True, exit_on_error=False)
    def status(self) -> None:
        try:
            view = self.pos.counter.payments.status(self.app_trans_id)
        except Exception as exc:
            text = cashier_message(exc)
            self.app.call_from_thread(self.say, _("Status not available: {reason}").format(
                reason=text), True)
            return
        self.app.call_from_thread(self.say, _("Status: {state}. {message}").format(
            state=state_label(view.state.value), message=view.message))
        self.app.call_from_thread(self.pos.refresh_pending)
        self.app.call_from_thread(self.load)


def _free_name(path: Path) -> Path:
    """`payments-2026-11-28.csv` -> `payments-2026-11-28-2.csv` (the first name not taken)."""
    number = 2
    while (candidate := path.with_name(f"{path.stem}-{number}{path.suffix}")).exists():
        number += 1
    return candidate
