"""`counter.reports`: the X report (running totals), the Z report (closing the day), totals per
cashier or shift, and a cashier's shift settlement. Through `ReportJournal`, the journal's
report methods this service uses."""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Protocol

from pos_terminal.config import Settings
from pos_terminal.journal import PaymentState, PaymentView, Report
from pos_terminal.journal.cashiers import Shift
from pos_terminal.journal.reports import GroupTotals

#: kind of payment -> (count, amount)
MethodTotals = dict[str, tuple[int, int]]


class ReportJournal(Protocol):
    """The journal as the reports read it."""

    def x_report(self) -> Report: ...
    def close_day(self, *, ledger: bool = ...) -> Report: ...
    def z_report(self, number: int) -> Report: ...
    def z_numbers(self) -> list[int]: ...
    def shift_report(self, shift_id: int) -> GroupTotals | None: ...
    def grouped_report(self, by: str, z_number: int | None = ...) -> list[GroupTotals]: ...
    def list_payments(
        self, *, since_ms: int | None = ..., until_ms: int | None = ...,
        states: Collection[PaymentState] | None = ..., limit: int | None = ...,
        newest_first: bool = ...,
    ) -> list[PaymentView]: ...


class ReportService:
    def __init__(self, journal: ReportJournal, settings: Settings,
                 open_shift_of: Callable[[str], Shift | None]) -> None:
        self._journal = journal
        self._settings = settings
        self._open_shift_of = open_shift_of

    def x(self) -> Report:
        """The running totals of the open day; changes nothing."""
        return self._journal.x_report()

    def z(self) -> Report:
        """The Z report: closes the day (numbered, immutable afterwards)."""
        from pos_terminal.counter.admin import has_ledger

        return self._journal.close_day(ledger=has_ledger(self._settings))

    def stored_z(self, number: int) -> Report:
        """A Z report written before (LookupError when there is none of that number)."""
        return self._journal.z_report(number)

    def closed_days(self, limit: int = 400) -> list[Report]:
        """The Z reports written so far, the newest first (at most `limit`)."""
        numbers = self._journal.z_numbers()[-limit:]
        return [self._journal.z_report(number) for number in reversed(numbers)]

    def grouped(self, by: str, z_number: int | None = None) -> list[GroupTotals]:
        """The totals of each cashier or shift (`by`), of the open day or of Z `z_number`."""
        return self._journal.grouped_report(by, z_number)

    def shift_totals(self, cashier_id: str) -> tuple[Shift, GroupTotals, MethodTotals] | None:
        """The open shift of `cashier_id`, its totals, and what was paid per method (kind ->
        (count, amount)); None without an open shift."""
        shift = self._open_shift_of(cashier_id)
        if shift is None:
            return None
        totals = self._journal.shift_report(shift.id)  # the whole shift, across a Z
        if totals is None:
            return None
        methods: MethodTotals = {}
        for view in self._journal.list_payments(since_ms=shift.opened_ms):
            if view.cashier_id == cashier_id and view.state in (PaymentState.SUCCEEDED,
                                                                PaymentState.REFUNDED):
                count, amount = methods.get(view.kind, (0, 0))
                methods[view.kind] = (count + 1, amount + view.amount)
        return shift, totals, methods
