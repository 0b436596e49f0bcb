"""Journal errors. Each carries a sentence a cashier or integrator can act on."""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path

from pos_terminal.base.errors import ExitCode, PosError
from pos_terminal.base.reasons import Reason


class JournalError(PosError):
    """The journal refused or could not record: nothing more is sent (exit 2 unless a payment
    was already sent, see checkout.AnswerNotRecorded)."""

    exit_code = ExitCode.NOTHING_SENT


class JournalUnavailable(JournalError):
    """The journal cannot record right now (locked, read-only, full, unreadable).

    New payments stop: a charge is never sent without its record.
    """

    def __init__(self, message: str | Reason, reason: str = "unavailable") -> None:
        super().__init__(message)
        self.reason = reason


class IllegalTransition(JournalError):
    """A move the state machine forbids (backward, or out of a final state)."""


class UnknownPayment(JournalError, LookupError):
    def __init__(self, app_trans_id: str) -> None:
        super().__init__(Reason.of("payment.unknown", app_trans_id=app_trans_id))
        self.app_trans_id = app_trans_id


class UnknownRefund(JournalError, LookupError):
    def __init__(self, m_refund_id: str) -> None:
        super().__init__(Reason.of("refund.unknown", m_refund_id=m_refund_id))
        self.m_refund_id = m_refund_id


class UnknownZReport(JournalError, LookupError):
    def __init__(self, number: int) -> None:
        super().__init__(Reason.of("report.z_unknown", number=number))
        self.number = number


class RefundNotAllowed(JournalError):
    """A refund the journal refuses: wrong state, or more than what is left."""


class AlreadyReturned(RefundNotAllowed):
    """A late charge's automatic return exists already (at most one per payment)."""


class JournalCorrupt(JournalError):
    """The file is not a journal this version can read (newer schema, not SQLite)."""


_STOP = "New payments are stopped so that nothing is charged without a record."


def _read_only_place(path: Path) -> bool:
    """The file or its folder cannot be written (read-only mount, permissions)."""
    try:
        folder = path.parent
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return True
        if path.exists() and not os.access(path, os.W_OK):
            return True
        return not os.access(folder, os.W_OK)
    except OSError:
        return False


#: Less free space than this next to the journal counts as a full disk: SQLite then fails with
#: a bare "disk I/O error" (it cannot grow the -wal or map the -shm file), not "disk is full".
_NEARLY_FULL_BYTES = 256 * 1024


def _disk_full(path: Path) -> bool:
    try:
        stats = os.statvfs(path.parent)
    except OSError:
        return False
    return stats.f_bavail * stats.f_frsize < _NEARLY_FULL_BYTES


def unavailable_from(exc: BaseException, path: Path) -> JournalUnavailable:
    """Translate an sqlite3/OS error into the cashier sentence for it."""
    text = str(exc).lower()
    code = getattr(exc, "sqlite_errorcode", None)
    os_errno = getattr(exc, "errno", None)
    if "malformed" in text or "not a database" in text or code in (
            sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return JournalUnavailable(
            f"The payment journal {path} is damaged ({exc}). {_STOP} Move it aside and keep it "
            "for inspection (a new journal is then created at this path), then run "
            "`pos-terminal reconcile`.",
            "damaged",
        )
    if "locked" in text or "busy" in text or code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return JournalUnavailable(
            f"The payment journal {path} is locked by another program. {_STOP} "
            "Close the other pos-terminal (or whatever holds the file) and try again.",
            "locked",
        )
    if "readonly" in text or "read-only" in text or os_errno in (errno.EROFS, errno.EACCES) or (
        code == sqlite3.SQLITE_READONLY or _read_only_place(path)
    ):
        return JournalUnavailable(
            f"The payment journal {path} is read-only. {_STOP} "
            "Make the file and its folder writable, then try again.",
            "read-only",
        )
    if "full" in text or os_errno == errno.ENOSPC or code == sqlite3.SQLITE_FULL or (
            ("disk i/o" in text or code == sqlite3.SQLITE_IOERR) and _disk_full(path)):
        return JournalUnavailable(
            f"The disk holding the payment journal {path} is full. {_STOP} "
            "Free some space, then try again.",
            "full",
        )
    if "unable to open" in text or isinstance(exc, OSError):
        return JournalUnavailable(
            f"The payment journal {path} cannot be opened ({exc}). {_STOP} "
            "Check that its folder exists and is writable.",
            "unopenable",
        )
    return JournalUnavailable(
        f"The payment journal {path} cannot be written ({exc}). {_STOP} "
        "Check the disk and the file, then try again.",
        "error",
    )


class CodeClaimed(JournalError):
    """The payment code is already charged ("charged") or belongs to an unresolved payment
    ("in_flight" within the reuse window, else "unresolved"): found inside the intent's write
    transaction, so nothing was written."""

    def __init__(self, reason: str, app_trans_id: str) -> None:
        super().__init__(f"The payment code belongs to payment {app_trans_id} ({reason}).")
        self.reason = reason
        self.app_trans_id = app_trans_id


class SaleRefTaken(JournalError):
    """A payment under this sale reference exists already (found inside the intent's write
    transaction, so nothing was written): the sale is answered with that payment, never charged
    again."""

    def __init__(self, sale_ref: str, app_trans_id: str) -> None:
        super().__init__(f"Sale {sale_ref!r} already has payment {app_trans_id}.")
        self.sale_ref = sale_ref
        self.app_trans_id = app_trans_id


class RefundRefTaken(JournalError):
    """A refund under this reference exists already: answered with it, never sent again."""

    def __init__(self, refund_ref: str, m_refund_id: str) -> None:
        super().__init__(f"Refund reference {refund_ref!r} already has refund {m_refund_id}.")
        self.refund_ref = refund_ref
        self.m_refund_id = m_refund_id
