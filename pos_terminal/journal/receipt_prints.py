"""Every receipt printed, journaled (so a second print carries the reprint mark)."""

from __future__ import annotations

from pos_terminal.journal.connection import JournalBase


class ReceiptPrints(JournalBase):
    """The `receipts_printed` table."""

    def receipt_prints(self, kind: str, subject_id: str) -> int:
        """How many times the receipt of this payment / refund was printed (0: never)."""
        rows = self._read("SELECT count(*) FROM receipts_printed WHERE kind=? AND subject_id=?",
                          (kind, subject_id))
        return int(rows[0][0])

    def record_receipt_print(self, kind: str, subject_id: str, *, target: str,
                             cashier_id: str | None = None) -> bool:
        """Journal one print of a receipt; True when it is a reprint (printed before)."""
        t = self._clock()
        with self._tx() as conn:
            before = int(conn.execute(
                "SELECT count(*) FROM receipts_printed WHERE kind=? AND subject_id=?",
                (kind, subject_id)).fetchone()[0])
            conn.execute(
                "INSERT INTO receipts_printed(kind, subject_id, time_ms, reprint, target, "
                "cashier_id) VALUES (?,?,?,?,?,?)",
                (kind, subject_id, t, int(before > 0), target, cashier_id))
            return before > 0
