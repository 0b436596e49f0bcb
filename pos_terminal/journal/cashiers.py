"""Cashiers and supervisors: ids, PINs (salted scrypt hashes only), lock-out, shifts.

A PIN is 4 to 8 ASCII digits. It is stored as `scrypt$N$r$p$<salt hex>$<hash hex>` made by
`hashlib.scrypt` with N=2**14, r=8, p=1 (about 16 MiB and a few tens of ms per try), a random
16-byte salt per cashier and a 32-byte key; the PIN itself is never stored or logged. Checking
recomputes the hash with the stored parameters and compares in constant time
(`hmac.compare_digest`). After `max_attempts` wrong PINs in a row the id is locked for
`lockout_s` seconds; every failure, lock-out, unlock and sign-in is an append-only row of
`cashier_events`. A removed cashier keeps its row (history shows its name) but cannot sign in.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pos_terminal.base.clock import format_stamp
from pos_terminal.base.reasons import Reason
from pos_terminal.journal.errors import JournalError
from pos_terminal.journal.store import Journal
from pos_terminal.text_safety import control_character

SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1
SALT_BYTES = 16
KEY_BYTES = 32
_PIN = re.compile(r"[0-9]{4,8}")
_ID = re.compile(r"[A-Za-z0-9_.-]{1,32}")
ROLES = ("cashier", "supervisor")


class CashierError(JournalError):
    """A cashier operation refused; the message says what to do."""


class UnknownCashier(CashierError, LookupError):
    pass


class PinRejected(CashierError):
    def __init__(self, message: Reason | str, attempts_left: int) -> None:
        super().__init__(message)
        self.attempts_left = attempts_left


class CashierLocked(CashierError):
    def __init__(self, message: Reason | str, locked_until_ms: int) -> None:
        super().__init__(message)
        self.locked_until_ms = locked_until_ms


class NotSupervisor(CashierError):
    pass


def check_pin_format(pin: str) -> str:
    if not _PIN.fullmatch(pin):
        raise CashierError(Reason.of("pin.format"))
    return pin


def check_cashier_id(cashier_id: str) -> str:
    if not _ID.fullmatch(cashier_id):
        raise CashierError(Reason.of("cashier.bad_id", cashier_id=cashier_id))
    return cashier_id


def check_cashier_name(name: str) -> str:
    """The name as stored (trimmed): printed on receipts and shown on screens, so plain text."""
    if not name.strip():
        raise CashierError(Reason.of("cashier.name_missing"))
    bad = control_character(name)
    if bad is not None:
        raise CashierError(Reason.of("cashier.name_control_character", bad=bad))
    return name.strip()


def hash_pin(pin: str, *, salt: bytes | None = None) -> str:
    """The stored form of a PIN: scrypt$N$r$p$salt$hash (hex)."""
    check_pin_format(pin)
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    key = hashlib.scrypt(pin.encode("ascii"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P,
                         dklen=KEY_BYTES)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${key.hex()}"


def pin_matches(pin: str, stored: str) -> bool:
    """Constant-time check of a PIN against its stored hash (with the stored parameters)."""
    try:
        scheme, n, r, p, salt_hex, key_hex = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = bytes.fromhex(key_hex)
        key = hashlib.scrypt(pin.encode("utf-8"), salt=bytes.fromhex(salt_hex), n=int(n),
                             r=int(r), p=int(p), dklen=len(expected))
    except ValueError:
        return False
    return hmac.compare_digest(key, expected)


@dataclass(frozen=True)
class Cashier:
    id: str
    name: str
    role: str
    failed_attempts: int
    locked_until_ms: int | None
    created_ms: int
    removed_ms: int | None

    @property
    def is_supervisor(self) -> bool:
        return self.role == "supervisor"

    @property
    def active(self) -> bool:
        return self.removed_ms is None

    def to_json(self) -> dict[str, Any]:
        """Everything but the PIN hash."""
        return {
            "id": self.id, "name": self.name, "role": self.role,
            "failed_attempts": self.failed_attempts, "locked_until_ms": self.locked_until_ms,
            "locked_until_vn": format_stamp(self.locked_until_ms) or None,
            "created_ms": self.created_ms, "created_vn": format_stamp(self.created_ms),
            "removed_ms": self.removed_ms, "removed_vn": format_stamp(self.removed_ms) or None,
        }


@dataclass(frozen=True)
class Shift:
    id: int
    cashier_id: str
    opened_ms: int
    closed_ms: int | None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "cashier_id": self.cashier_id, "opened_ms": self.opened_ms,
                "opened_vn": format_stamp(self.opened_ms), "closed_ms": self.closed_ms,
                "closed_vn": format_stamp(self.closed_ms) or None}


_COLUMNS = "id, name, role, failed_attempts, locked_until_ms, created_ms, removed_ms"


def _cashier(row: Sequence[Any]) -> Cashier:
    return Cashier(*row)


class Cashiers:
    """The cashier book of one journal (same file, same connection and lock)."""

    def __init__(self, journal: Journal, *, max_attempts: int = 5,
                 lockout_s: float = 300.0) -> None:
        self.journal = journal
        self.max_attempts = max_attempts
        self.lockout_ms = int(lockout_s * 1000)

    @staticmethod
    def _event(conn: sqlite3.Connection, cashier_id: str, t: int, kind: str,
               detail: str = "") -> None:
        conn.execute("INSERT INTO cashier_events(cashier_id, time_ms, kind, detail) "
                     "VALUES (?,?,?,?)", (cashier_id, t, kind, detail))

    @staticmethod
    def _get_in(conn: sqlite3.Connection, cashier_id: str) -> Cashier:
        row = conn.execute(f"SELECT {_COLUMNS} FROM cashiers WHERE id=?",  # noqa: S608
                           (cashier_id,)).fetchone()
        if row is None:
            raise UnknownCashier(Reason.of("cashier.unknown", cashier_id=cashier_id))
        return _cashier(row)

    # ------------------------------------------------------------ the book
    def add(self, cashier_id: str, name: str, pin: str, *, supervisor: bool = False) -> Cashier:
        check_cashier_id(cashier_id)
        name = check_cashier_name(name)
        stored = hash_pin(pin)
        t = self.journal.now()
        with self.journal._tx() as conn:
            if conn.execute("SELECT 1 FROM cashiers WHERE id=?", (cashier_id,)).fetchone():
                raise CashierError(Reason.of("cashier.id_taken", cashier_id=cashier_id))
            conn.execute(
                "INSERT INTO cashiers(id, name, role, pin_hash, created_ms) VALUES (?,?,?,?,?)",
                (cashier_id, name, "supervisor" if supervisor else "cashier", stored, t))
            self._event(conn, cashier_id, t, "added",
                        "supervisor" if supervisor else "cashier")
            return self._get_in(conn, cashier_id)

    def get(self, cashier_id: str) -> Cashier:
        rows = self.journal._read(f"SELECT {_COLUMNS} FROM cashiers WHERE id=?",  # noqa: S608
                                  (cashier_id,))
        if not rows:
            raise UnknownCashier(Reason.of("cashier.unknown", cashier_id=cashier_id))
        return _cashier(rows[0])

    def all(self, *, include_removed: bool = True) -> list[Cashier]:
        where = "" if include_removed else " WHERE removed_ms IS NULL"
        rows = self.journal._read(f"SELECT {_COLUMNS} FROM cashiers{where} "  # noqa: S608
                                  "ORDER BY created_ms, id")
        return [_cashier(r) for r in rows]

    def names(self) -> dict[str, str]:
        return {c.id: c.name for c in self.all()}

    def any_active(self) -> bool:
        return bool(self.journal._read(
            "SELECT 1 FROM cashiers WHERE removed_ms IS NULL LIMIT 1"))

    def any_supervisor(self) -> bool:
        return bool(self.journal._read(
            "SELECT 1 FROM cashiers WHERE removed_ms IS NULL AND role='supervisor' LIMIT 1"))

    def remove(self, cashier_id: str) -> Cashier:
        t = self.journal.now()
        with self.journal._tx() as conn:
            current = self._get_in(conn, cashier_id)
            if not current.active:
                return current
            conn.execute("UPDATE shifts SET closed_ms=? WHERE cashier_id=? AND closed_ms IS NULL",
                         (t, cashier_id))
            conn.execute("UPDATE cashiers SET removed_ms=? WHERE id=?", (t, cashier_id))
            self._event(conn, cashier_id, t, "removed")
            return self._get_in(conn, cashier_id)

    def unlock(self, cashier_id: str, *, by: str | None = None) -> Cashier:
        """Clear the wrong tries and the lock; `by`, the supervisor who authorised it, is the
        event's detail ("" when no supervisor is set up)."""
        t = self.journal.now()
        with self.journal._tx() as conn:
            self._get_in(conn, cashier_id)
            conn.execute("UPDATE cashiers SET failed_attempts=0, locked_until_ms=NULL "
                         "WHERE id=?", (cashier_id,))
            self._event(conn, cashier_id, t, "unlocked", by or "")
            return self._get_in(conn, cashier_id)

    def set_pin(self, cashier_id: str, pin: str, *, by: str | None = None) -> Cashier:
        """A new PIN (a supervisor's tool: the old one forgotten, or the cashier asks); the
        failed tries and a lock go with the old PIN. Journaled as `pin_changed`, its detail the
        supervisor `by` ("" when no supervisor is set up); never the PIN."""
        stored = hash_pin(pin)
        t = self.journal.now()
        with self.journal._tx() as conn:
            current = self._get_in(conn, cashier_id)
            if not current.active:
                raise UnknownCashier(Reason.of("cashier.not_active", cashier_id=cashier_id))
            conn.execute("UPDATE cashiers SET pin_hash=?, failed_attempts=0, "
                         "locked_until_ms=NULL WHERE id=?", (stored, cashier_id))
            self._event(conn, cashier_id, t, "pin_changed", by or "")
            return self._get_in(conn, cashier_id)

    def events(self, cashier_id: str) -> list[tuple[int, str, str]]:
        """(time_ms, kind, detail) of one cashier, oldest first."""
        rows = self.journal._read("SELECT time_ms, kind, detail FROM cashier_events "
                                  "WHERE cashier_id=? ORDER BY id", (cashier_id,))
        return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]

    # ------------------------------------------------------------ PINs
    def verify_pin(self, cashier_id: str, pin: str) -> Cashier:
        """The cashier when `pin` is theirs; raises UnknownCashier, CashierLocked, PinRejected.

        Each wrong PIN is journaled; the `max_attempts`-th in a row locks the id for
        `lockout_s` (a locked id is refused without looking at the PIN)."""
        t = self.journal.now()
        refusal: CashierError
        with self.journal._tx() as conn:
            current = self._get_in(conn, cashier_id)
            if not current.active:
                raise UnknownCashier(Reason.of(
                    "cashier.removed", cashier_id=cashier_id, name=current.name,
                    time_ms=current.removed_ms))
            if current.locked_until_ms is not None and current.locked_until_ms > t:
                raise CashierLocked(
                    Reason.of("cashier.locked", cashier_id=cashier_id, count=self.max_attempts,
                              time_ms=current.locked_until_ms),
                    current.locked_until_ms)
            stored = conn.execute("SELECT pin_hash FROM cashiers WHERE id=?",
                                  (cashier_id,)).fetchone()[0]
            if pin_matches(pin, str(stored)):
                conn.execute("UPDATE cashiers SET failed_attempts=0, locked_until_ms=NULL "
                             "WHERE id=?", (cashier_id,))
                self._event(conn, cashier_id, t, "pin_ok")
                return self._get_in(conn, cashier_id)
            # A wrong PIN: the failure (and the lock) are committed, then refused.
            failed = current.failed_attempts + 1
            self._event(conn, cashier_id, t, "pin_failed")
            if failed >= self.max_attempts:
                until = t + self.lockout_ms
                conn.execute("UPDATE cashiers SET failed_attempts=0, locked_until_ms=? "
                             "WHERE id=?", (until, cashier_id))
                self._event(conn, cashier_id, t, "locked", f"until {format_stamp(until)}")
                refusal = CashierLocked(
                    Reason.of("pin.locked_now", cashier_id=cashier_id, count=failed,
                              time_ms=until), until)
            else:
                conn.execute("UPDATE cashiers SET failed_attempts=? WHERE id=?",
                             (failed, cashier_id))
                left = self.max_attempts - failed
                refusal = PinRejected(Reason.of(
                    "pin.wrong", cashier_id=cashier_id, left=left,
                    seconds=self.lockout_ms // 1000), left)
        raise refusal

    def require_supervisor(self, pin: str, supervisor_id: str | None = None) -> Cashier:
        """The supervisor whose PIN this is. Without an id, the only active supervisor is
        meant (with several, the id must be given)."""
        if supervisor_id is None:
            rows = self.journal._read("SELECT id FROM cashiers WHERE removed_ms IS NULL AND "
                                      "role='supervisor' ORDER BY id")
            if len(rows) != 1:
                raise NotSupervisor(
                    "No supervisor is set up; add one with `pos-terminal cashier add ID --name "
                    "NAME --supervisor`." if not rows else
                    "Several supervisors are set up: name the one who authorises "
                    "(--supervisor ID).")
            supervisor_id = str(rows[0][0])
        cashier = self.get(supervisor_id)
        if not cashier.is_supervisor:
            raise NotSupervisor(Reason.of("cashier.not_supervisor", cashier_id=supervisor_id,
                                          name=cashier.name))
        return self.verify_pin(supervisor_id, pin)

    # ------------------------------------------------------------ shifts
    def open_shift(self, cashier_id: str) -> Shift:
        t = self.journal.now()
        with self.journal._tx() as conn:
            cashier = self._get_in(conn, cashier_id)
            if not cashier.active:
                raise CashierError(Reason.of("shift.cashier_removed", cashier_id=cashier_id))
            row = conn.execute("SELECT id, cashier_id, opened_ms, closed_ms FROM shifts "
                               "WHERE cashier_id=? AND closed_ms IS NULL",
                               (cashier_id,)).fetchone()
            if row is not None:
                return Shift(*row)
            cur = conn.execute("INSERT INTO shifts(cashier_id, opened_ms) VALUES (?,?)",
                               (cashier_id, t))
            self._event(conn, cashier_id, t, "shift_opened", f"shift {cur.lastrowid}")
            return Shift(int(cur.lastrowid or 0), cashier_id, t, None)

    def close_shift(self, cashier_id: str) -> Shift:
        t = self.journal.now()
        with self.journal._tx() as conn:
            self._get_in(conn, cashier_id)
            row = conn.execute("SELECT id, opened_ms FROM shifts WHERE cashier_id=? AND "
                               "closed_ms IS NULL", (cashier_id,)).fetchone()
            if row is None:
                raise CashierError(Reason.of("shift.none_open", cashier_id=cashier_id))
            conn.execute("UPDATE shifts SET closed_ms=? WHERE id=?", (t, row[0]))
            self._event(conn, cashier_id, t, "shift_closed", f"shift {row[0]}")
            return Shift(int(row[0]), cashier_id, int(row[1]), t)

    def open_shift_of(self, cashier_id: str) -> Shift | None:
        rows = self.journal._read("SELECT id, cashier_id, opened_ms, closed_ms FROM shifts "
                                  "WHERE cashier_id=? AND closed_ms IS NULL", (cashier_id,))
        return Shift(*rows[0]) if rows else None

    def shifts(self, *, limit: int | None = None) -> list[Shift]:
        sql = "SELECT id, cashier_id, opened_ms, closed_ms FROM shifts ORDER BY id DESC"
        args: list[Any] = []
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return [Shift(*r) for r in self.journal._read(sql, args)]
