"""The back office: the journal opened on its own, without a checkout or a wallet client, for
the commands that read history and reports or look after the file (`journal list/show/export`,
`journal info/compact`, `report x/z`). The same services as a counter's, over the same ports."""

from __future__ import annotations

from pos_terminal.config import Settings
from pos_terminal.counter.cashiers import CashierService
from pos_terminal.counter.history import HistoryService
from pos_terminal.counter.reports import ReportService
from pos_terminal.journal import Journal


class BackOffice:
    def __init__(self, journal: Journal, settings: Settings) -> None:
        #: the file itself, for its upkeep (info, compact)
        self.journal = journal
        self.cashiers = CashierService(journal, settings)
        self.history = HistoryService(journal)
        self.reports = ReportService(journal, settings, self.cashiers.open_shift_of)

    @classmethod
    def open(cls, settings: Settings) -> BackOffice:
        """Raises JournalError (with its sentence) when the journal cannot be opened."""
        return cls(Journal.open(settings.terminal.journal, private=settings.private_files,
                                busy_timeout_s=settings.terminal.journal_wait_s),
                   settings)

    def close(self) -> None:
        self.journal.close()

    def __enter__(self) -> BackOffice:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
