"""One terminal's connection to the fleet ledger: register its journal, ship a batch in one
transaction, read back what the ledger has.

Every batch is one PostgreSQL transaction that first locks the journal's row and checks that
the ledger's high-water mark is where the terminal thinks it is; so a batch lands whole or not at
all, two syncs of the same journal never interleave, and a batch sent twice (a lost answer, a
crash before the terminal recorded it) is refused before anything is written.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
from psycopg.rows import dict_row

from pos_terminal.base.i18n import _
from pos_terminal.base.wallet_types import FIRST_PROVIDER
from pos_terminal.config import Settings
from pos_terminal.journal.outbox import PAYMENT_FIELDS, REFUND_FIELDS, OutboxRow
from pos_terminal.ledger.dsn import connect_options, describe_dsn, scrub
from pos_terminal.ledger.errors import LedgerRefused, LedgerUnavailable
from pos_terminal.ledger.merge import (
    FINAL_PAYMENT,
    FINAL_REFUND,
    Problem,
    Verdict,
    decide_payment,
    decide_refund,
)
from pos_terminal.ledger.schema import (
    LedgerSchemaNotCurrent,
    LedgerSchemaTooNew,
    check_version,
    migrate,
)

#: Test hook: with POS_LEDGER_PAUSE_AT=in_batch|after_commit the sync pauses there for
#: POS_LEDGER_PAUSE_S seconds (default: until killed), after printing "paused <step>" on stderr,
#: once POS_LEDGER_PAUSE_SKIP such points have passed.
PAUSE_AT = "POS_LEDGER_PAUSE_AT"
PAUSE_S = "POS_LEDGER_PAUSE_S"


PAUSE_SKIP = "POS_LEDGER_PAUSE_SKIP"  # pass this many pause points first
_passed: dict[str, int] = {}


def pause_point(step: str) -> None:
    if os.environ.get(PAUSE_AT) != step:
        return
    _passed[step] = _passed.get(step, 0) + 1
    if _passed[step] <= int(os.environ.get(PAUSE_SKIP) or 0):
        return
    print(f"paused {step}", file=sys.stderr, flush=True)
    time.sleep(float(os.environ.get(PAUSE_S) or 3600))


Conn = psycopg.Connection[Any]
#: libpq gives a refused login no SQLSTATE: the server's (English) words for it.
#: A payload key whose ledger column has another name (ledger version 5): the merge reads rows in
#: the payload's words, the SQL writes the columns'.
COLUMN_OF = {"zp_trans_id": "provider_trans_id"}
KEY_OF = {column: key for key, column in COLUMN_OF.items()}

_LOGIN_REFUSED = ("password authentication failed", "is not permitted to log in")


class Ledger:
    """A connection to the ledger with verified TLS (dsn.connect_options); a malformed DSN or
    one asking for clear text is a LedgerConfigError here, before anything is sent."""

    def __init__(self, dsn: str, *, ca_file: Path | None = None, insecure: bool = False,
                 connect_timeout_s: float = 3.0, statement_timeout_s: float = 15.0) -> None:
        self.dsn = dsn
        self.where = describe_dsn(dsn)
        self._options: dict[str, Any] = connect_options(dsn, ca_file=ca_file, insecure=insecure)
        self.connect_timeout_s = connect_timeout_s
        self.statement_timeout_s = statement_timeout_s
        self._conn: Conn | None = None
        self._schema_ok = False

    @classmethod
    def from_settings(cls, settings: Settings, dsn: str) -> Ledger:
        cfg = settings.ledger
        return cls(dsn, ca_file=cfg.ca_file, insecure=cfg.insecure,
                   connect_timeout_s=cfg.connect_timeout_s,
                   statement_timeout_s=cfg.statement_timeout_s)

    # ------------------------------------------------------------ connection
    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except psycopg.OperationalError as exc:
            self._drop()
            if (exc.sqlstate or "").startswith("28") or any(  # the login: wrong, disabled
                    m in str(exc) for m in _LOGIN_REFUSED):
                raise LedgerRefused(f"the ledger at {self.where} refused the login: "
                                    f"{scrub(str(exc).strip(), self.dsn)}") from None
            reason = scrub(str(exc).strip().splitlines()[0] if str(exc).strip() else
                           type(exc).__name__, self.dsn)
            if isinstance(exc, psycopg.errors.TransactionRollback | psycopg.errors.
                          QueryCanceled):
                raise LedgerUnavailable(f"the ledger at {self.where} rolled a batch back "
                                        f"({reason}); nothing of it was kept and it is sent "
                                        "again") from None
            raise LedgerUnavailable(f"the ledger at {self.where} is unreachable: {reason}") \
                from None
        except psycopg.Error as exc:
            self._drop()
            raise LedgerRefused(f"the ledger at {self.where} refused: "
                                f"{scrub(str(exc).strip(), self.dsn)}") from None

    def _drop(self) -> None:
        if self._conn is not None:
            try:
                self._conn.close()
            finally:
                self._conn = None

    def close(self) -> None:
        self._drop()

    def conn(self) -> Conn:
        if self._conn is None or self._conn.closed:
            with self._errors():
                self._conn = psycopg.connect(
                    self.dsn, autocommit=True, application_name="pos-terminal",
                    connect_timeout=max(1, math.ceil(self.connect_timeout_s)),
                    options=f"-c statement_timeout={int(self.statement_timeout_s * 1000)}",
                    keepalives=1, keepalives_idle=10, keepalives_interval=3,
                    keepalives_count=3, **self._options)
            self._schema_ok = False
        return self._conn

    def check_schema(self) -> None:
        """Refuse a ledger whose schema is not this program's (once a connection): only
        `migrate`, with the owner's DSN, changes it."""
        conn = self.conn()
        if self._schema_ok:
            return
        try:
            with self._errors():
                check_version(conn)
        except (LedgerSchemaTooNew, LedgerSchemaNotCurrent) as exc:
            raise LedgerRefused(f"the ledger at {self.where} refused: {exc}") from None
        self._schema_ok = True

    def migrate(self) -> list[int]:
        """Create or upgrade the schema (`fleet migrate`, the owner's DSN); the versions
        applied, maybe none."""
        try:
            with self._errors():
                applied = migrate(self.conn())
        except LedgerSchemaTooNew as exc:
            raise LedgerRefused(f"the ledger at {self.where} refused: {exc}") from None
        self._schema_ok = True
        return applied

    def run(self, work: Callable[[Conn], Any]) -> Any:
        """`work(conn)` with driver errors turned into LedgerUnavailable / LedgerRefused."""
        self.check_schema()
        with self._errors():
            return work(self.conn())

    # ------------------------------------------------------------ handshake
    def register(self, terminal_id: str, app_user: str, journal_id: str, epoch_seq: int,
                 parent_journal_id: str | None) -> int:
        """Make sure the ledger knows this terminal and journal; returns the ledger's
        high-water mark for the journal (every seq up to it is in the ledger)."""

        def work(conn: Conn) -> int:
            self._check_identity(conn, terminal_id)
            # Lock order everywhere: a journals row before its terminals row. So nothing here
            # locks an existing row (DO NOTHING); the heartbeat is its own short statement.
            with conn.transaction(), conn.cursor() as cur:
                cur.execute(
                    "INSERT INTO terminals(terminal_id, app_user) VALUES (%s, %s) "
                    "ON CONFLICT (terminal_id) DO NOTHING", (terminal_id, app_user))
                cur.execute("INSERT INTO journals(terminal_id, journal_id, parent_journal_id, "
                            "first_seq, shipped_seq) VALUES (%s, %s, %s, %s, %s) "
                            "ON CONFLICT DO NOTHING RETURNING journal_id",
                            (terminal_id, journal_id, parent_journal_id, epoch_seq,
                             epoch_seq - 1))
                if cur.fetchone() is not None:
                    self._note_new_journal(cur, terminal_id, journal_id, epoch_seq,
                                           parent_journal_id)
                cur.execute("SELECT shipped_seq FROM journals WHERE terminal_id=%s AND "
                            "journal_id=%s", (terminal_id, journal_id))
                row = cur.fetchone()
                assert row is not None
            conn.execute("UPDATE terminals SET last_seen=now(), app_user=%s WHERE "
                         "terminal_id=%s", (app_user, terminal_id))
            return int(row[0])

        return int(self.run(work))

    def _check_identity(self, conn: Conn, terminal_id: str) -> None:
        """The login must be this terminal's own (fleet add-counter): a journal claiming
        another counter's terminal id, or shipped with any other login, writes nothing."""
        row = conn.execute("SELECT ledger_my_terminal(), session_user").fetchone()
        mine, login = (row[0], row[1]) if row else (None, "")
        if mine == terminal_id:
            return
        if mine is None:
            raise LedgerRefused(_(
                "the ledger at {where} refused: the login {login} is not a counter of this "
                "ledger (or was removed); nothing was written. Head office runs `pos-terminal "
                "fleet add-counter {terminal_id}` and gives this counter the DSN it prints"
            ).format(where=self.where, login=login, terminal_id=terminal_id))
        raise LedgerRefused(_(
            "the ledger at {where} refused: this journal claims terminal {terminal_id} but the "
            "login {login} belongs to counter {mine}; nothing was written. Each counter ships "
            "with its own login: check [terminal] terminal_id and [ledger] dsn"
        ).format(where=self.where, terminal_id=terminal_id, login=login, mine=mine))

    @staticmethod
    def _note_new_journal(cur: psycopg.Cursor[Any], terminal_id: str, journal_id: str,
                          epoch_seq: int, parent: str | None) -> None:
        if parent is not None:
            note = (f"journal restored from an older copy: from row {epoch_seq} on it differs "
                    f"from what journal {parent} had shipped; both are kept")
            field, old = "journal_id", parent
        else:
            cur.execute("SELECT string_agg(journal_id, ', ') FROM journals WHERE "
                        "terminal_id=%s AND journal_id<>%s AND parent_journal_id IS NULL",
                        (terminal_id, journal_id))
            others = cur.fetchone()
            if not others or not others[0]:
                return
            note = ("a second journal ships under this terminal id: a new journal on this "
                    "counter, or two counters configured with the same terminal_id (give each "
                    "its own)")
            field, old = "terminal_id", others[0]
        cur.execute("INSERT INTO disagreements(terminal_id, journal_id, seq, kind, key, field, "
                    "ledger_value, journal_value, note) VALUES (%s,%s,%s,'journal',%s,%s,%s,%s,%s)"
                    " ON CONFLICT DO NOTHING",
                    (terminal_id, journal_id, epoch_seq, terminal_id, field, old, journal_id,
                     note))

    def digests(self, terminal_id: str, journal_id: str, after_seq: int,
                upto_seq: int) -> dict[int, str]:
        def work(conn: Conn) -> dict[int, str]:
            with conn.cursor() as cur:
                cur.execute("SELECT seq, digest FROM receipts WHERE terminal_id=%s AND "
                            "journal_id=%s AND seq > %s AND seq <= %s",
                            (terminal_id, journal_id, after_seq, upto_seq))
                return {int(s): str(d) for s, d in cur.fetchall()}

        result: dict[int, str] = self.run(work)
        return result

    # ------------------------------------------------------------ one batch
    def apply_batch(self, terminal_id: str, app_user: str, journal_id: str, prev_seq: int,
                    rows: Sequence[OutboxRow]) -> bool:
        """Ship `rows` (the outbox rows after `prev_seq`) in one transaction. False (nothing
        written) when the ledger's high-water mark is not `prev_seq`: start over."""

        def work(conn: Conn) -> bool:
            with conn.transaction(), conn.cursor() as cur:
                cur.execute("SELECT shipped_seq FROM journals WHERE terminal_id=%s AND "
                            "journal_id=%s FOR UPDATE", (terminal_id, journal_id))
                row = cur.fetchone()
                if row is None or int(row[0]) != prev_seq:
                    return False
                self._write(cur, terminal_id, app_user, journal_id, rows)
                cur.execute("UPDATE journals SET shipped_seq=%s, last_sync_at=now() WHERE "
                            "terminal_id=%s AND journal_id=%s",
                            (rows[-1].seq, terminal_id, journal_id))
                cur.execute("UPDATE terminals SET last_seen=now(), app_user=%s WHERE "
                            "terminal_id=%s", (app_user, terminal_id))
                pause_point("in_batch")
            return True

        return bool(self.run(work))

    def _write(self, cur: psycopg.Cursor[Any], terminal_id: str, app_user: str, journal_id: str,
               rows: Sequence[OutboxRow]) -> None:
        cur.executemany(
            "INSERT INTO receipts(terminal_id, journal_id, seq, kind, key, digest, created_ms) "
            "VALUES (%s,%s,%s,%s,%s,%s,%s) ON CONFLICT DO NOTHING",
            [(terminal_id, journal_id, r.seq, r.kind, r.key, r.digest, r.created_ms)
             for r in rows])
        payments: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        refunds: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        events: list[tuple[Any, ...]] = []
        zs: list[tuple[int, dict[str, Any]]] = []
        for r in rows:
            data = json.loads(r.payload)
            if r.kind == "payment":
                payments.setdefault(r.key, []).append((r.seq, data))
            elif r.kind == "refund":
                refunds.setdefault(r.key, []).append((r.seq, data))
            elif r.kind == "event":
                events.append((terminal_id, journal_id, r.seq, data["id"], data["app_trans_id"],
                               data["m_refund_id"], data["time_ms"], data["kind"],
                               data["from_state"], data["to_state"], data["return_code"],
                               data["sub_return_code"], data["message"], data["reason"],
                               data["who"]))
            elif r.kind == "z_report":
                zs.append((r.seq, data))
        if events:
            cur.executemany(
                "INSERT INTO events(terminal_id, journal_id, seq, event_id, app_trans_id, "
                "m_refund_id, time_ms, kind, from_state, to_state, return_code, "
                "sub_return_code, message, reason, who) VALUES "
                "(%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT DO NOTHING", events)
        for batch in in_order(payments, FINAL_PAYMENT):
            self._merge(cur, "payments", "app_trans_id", PAYMENT_FIELDS, batch, decide_payment,
                        terminal_id, app_user, journal_id)
        for batch in in_order(refunds, FINAL_REFUND):
            self._merge(cur, "refunds", "m_refund_id", REFUND_FIELDS, batch, decide_refund,
                        terminal_id, app_user, journal_id)
        for seq, z in zs:
            self._z_report(cur, terminal_id, journal_id, seq, z)

    @staticmethod
    def _merge(cur: psycopg.Cursor[Any], table: str, key: str, fields: tuple[str, ...],
               snapshots: dict[str, tuple[int, dict[str, Any]]],
               decide: Callable[[dict[str, Any] | None, dict[str, Any], str], Verdict],
               terminal_id: str, app_user: str, journal_id: str) -> None:
        if not snapshots:
            return
        flags = FLAGS.get(table, ())
        columns = (*(COLUMN_OF.get(f, f) for f in fields), *flags, "provider", "terminal_id",
                   "cashier", "journal_id", "seq")
        with cur.connection.cursor(row_factory=dict_row) as dcur:
            # created_ms never changes: it names the month partition to look in
            dcur.execute(f"SELECT * FROM {table} WHERE {key} = ANY(%s) "  # noqa: S608
                         f"AND created_ms = ANY(%s) ORDER BY {key} FOR UPDATE",
                         (list(snapshots), sorted({d["created_ms"] for _, d in
                                                   snapshots.values()})))
            # the row of the same wallet provider (ids of two wallets never stand for each other)
            existing = {row[key]: {KEY_OF.get(c, c): v for c, v in row.items()}
                        for row in dcur.fetchall()
                        if row["provider"] == (snapshots[row[key]][1].get("provider")
                                               or FIRST_PROVIDER)}
            # Rows of another terminal are not visible to this counter's login: only that
            # they exist, and whose they are, so that they become a disagreement.
            dcur.execute("SELECT key, terminal_id FROM ledger_claimed_elsewhere(%s, %s)",
                         (table, list(snapshots)))
            existing.update({row["key"]: {"terminal_id": row["terminal_id"]}
                             for row in dcur.fetchall()})
        upserts: list[tuple[Any, ...]] = []
        problems: list[tuple[Any, ...]] = []
        for k, (seq, data) in snapshots.items():
            data["needs_review"] = bool(data["needs_review"])
            for flag in flags:  # false in a payload of a journal before version 15
                data[flag] = bool(data.get(flag))
            verdict = decide(existing.get(k), data, terminal_id)
            if verdict.apply:
                cashier = str(data.get("cashier") or app_user)
                # rows shipped before the journal named providers were all the first's
                provider = str(data.get("provider") or FIRST_PROVIDER)
                upserts.append((*(data[f] for f in fields), *(data[f] for f in flags),
                                provider, terminal_id, cashier, journal_id, seq))
            problems.extend(_problem_row(terminal_id, journal_id, seq, table[:-1], k, p)
                            for p in verdict.problems)
        if upserts:
            # terminal_id and cashier stay as first shipped (who took the payment)
            updates = ", ".join(f"{c}=EXCLUDED.{c}" for c in columns
                                if c not in (key, "provider", "terminal_id", "cashier"))
            final = FINAL_PAYMENT if table == "payments" else FINAL_REFUND
            # The rule of merge.py again, in SQL: a row another journal inserted meanwhile
            # (unseen by the SELECT above) is still never moved out of a final state.
            guard = (f"{table}.terminal_id = EXCLUDED.terminal_id AND {table}.updated_ms <= "
                     f"EXCLUDED.updated_ms AND ({table}.state NOT IN "
                     f"({', '.join(repr(x) for x in sorted(final))}) OR {table}.state = "
                     f"EXCLUDED.state OR ({table}.state = 'succeeded' AND "
                     f"EXCLUDED.state = 'refunded'){_FAILED_MOVES.get(table, '')})"
                     f"{_LATE_KEPT.get(table, '')}")
            cur.executemany(
                f"INSERT INTO {table}({', '.join(columns)}) VALUES "  # noqa: S608
                f"({', '.join('%s' for _ in columns)}) ON CONFLICT (provider, {key}, created_ms) "
                f"DO UPDATE "
                f"SET "
                f"{updates}, received_at=clock_timestamp() WHERE {guard}", upserts)
        if problems:
            cur.executemany(_PROBLEM_SQL, problems)

    @staticmethod
    def _z_report(cur: psycopg.Cursor[Any], terminal_id: str, journal_id: str, seq: int,
                  z: dict[str, Any]) -> None:
        totals = z["totals_json"]
        cur.execute("INSERT INTO z_reports(terminal_id, journal_id, number, opened_ms, "
                    "closed_ms, totals, seq) VALUES (%s,%s,%s,%s,%s,%s::jsonb,%s) "
                    "ON CONFLICT DO NOTHING",
                    (terminal_id, journal_id, z["number"], z["opened_ms"], z["closed_ms"],
                     totals, seq))
        cur.execute("SELECT journal_id, closed_ms FROM z_reports WHERE terminal_id=%s AND "
                    "number=%s AND journal_id<>%s AND (closed_ms<>%s OR totals<>%s::jsonb)",
                    (terminal_id, z["number"], journal_id, z["closed_ms"], totals))
        other = cur.fetchone()
        if other is not None:
            cur.execute(_PROBLEM_SQL, _problem_row(
                terminal_id, journal_id, seq, "z_report", str(z["number"]),
                Problem("closed_ms", other[1], z["closed_ms"],
                        f"two different Z reports #{z['number']} (journal {other[0]} and this "
                        "one): a journal restored from an older copy closed the day again")))


#: What the forward-only rule weighs of a stored final row, besides fields a journal only moves
#: forward (refunded_amount, z_number, the wallet's ids): its state, whether it is flagged
#: (a person's override) and whether it was charged late.
WEIGHED = ("state", "needs_review", "late")


def in_order(snapshots: dict[str, list[tuple[int, dict[str, Any]]]],
             final: frozenset[str]) -> list[dict[str, tuple[int, dict[str, Any]]]]:
    """The snapshots of a batch (each key's in seq order) as rounds merged one after another:
    round i holds each key's i-th snapshot, so the ledger takes a key's snapshots in the order
    the journal wrote them, as if each had been shipped in its own batch; a move it takes only
    from what it has stored (a failed row flagged, then settled by a person) is then taken
    however the syncs fell. A snapshot is left out when the next one of its key stands for it:
    it is open (the rule weighs only a stored final row), or the next has the same WEIGHED
    values. That changes nothing but an extra disagreement (docs/fleet.md)."""
    def stands_in(row: dict[str, Any], after: dict[str, Any]) -> bool:
        return row["state"] not in final or all(row.get(f) == after.get(f) for f in WEIGHED)

    kept = {key: [s for s, after in zip(rows, [*rows[1:], None], strict=True)
                  if after is None or not stands_in(s[1], after[1])]
            for key, rows in snapshots.items()}
    depth = max((len(rows) for rows in kept.values()), default=0)
    return [{key: rows[i] for key, rows in kept.items() if i < len(rows)} for i in range(depth)]


#: The journal's flags a row's payload carries since journal version 15 (ledger version 7).
FLAGS = {"payments": ("late", "abandoned"), "refunds": ("auto",)}
#: merge.settled_by_a_person and merge.charged_late in the upsert's guard: a flagged failed
#: payment settled as paid; a failed payment charged late (maybe returned since)
_FAILED_MOVES = {
    "payments": " OR (payments.state = 'failed' AND payments.needs_review AND "
                "EXCLUDED.state = 'succeeded' AND NOT EXCLUDED.needs_review)"
                " OR (payments.state = 'failed' AND NOT payments.late AND EXCLUDED.state IN "
                "('succeeded', 'refunded') AND EXCLUDED.late)"}
#: a payment charged late stays late
_LATE_KEPT = {"payments": " AND (EXCLUDED.late OR NOT payments.late)"}


_PROBLEM_SQL = (
    "INSERT INTO disagreements(terminal_id, journal_id, seq, kind, key, field, ledger_value, "
    "journal_value, note) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT DO NOTHING")


def _problem_row(terminal_id: str, journal_id: str, seq: int, kind: str, key: str,
                 p: Problem) -> tuple[Any, ...]:
    return (terminal_id, journal_id, seq, kind, key, p.field,
            None if p.ledger_value is None else str(p.ledger_value),
            None if p.journal_value is None else str(p.journal_value), p.note)
