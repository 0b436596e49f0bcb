"""Journal schema, one migration per version (PRAGMA user_version).

A migration is applied in one transaction together with the new user_version, so a crash leaves
the file at the old version or the new one, never between.
"""

from __future__ import annotations

from pos_terminal.journal.outbox import (
    OUTBOX_MIGRATION,
    cashier_triggers_migration,
    late_flags_migration,
)
from pos_terminal.journal.state_triggers import state_triggers_migration

CASHIERS_MIGRATION = """
    CREATE TABLE cashiers (
        id              TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 32),
        name            TEXT NOT NULL,
        role            TEXT NOT NULL CHECK (role IN ('cashier', 'supervisor')),
        pin_hash        TEXT NOT NULL,
        failed_attempts INTEGER NOT NULL DEFAULT 0,
        locked_until_ms INTEGER,
        created_ms      INTEGER NOT NULL,
        removed_ms      INTEGER
    ) STRICT;
    CREATE TRIGGER cashiers_no_delete BEFORE DELETE ON cashiers
    BEGIN SELECT RAISE(ABORT, 'a cashier is removed by marking it, never deleted'); END;

    CREATE TABLE cashier_events (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        cashier_id TEXT NOT NULL,
        time_ms    INTEGER NOT NULL,
        kind       TEXT NOT NULL CHECK (kind IN ('added', 'removed', 'unlocked', 'pin_ok',
                       'pin_failed', 'locked', 'shift_opened', 'shift_closed')),
        detail     TEXT NOT NULL DEFAULT ''
    ) STRICT;
    CREATE INDEX cashier_events_cashier ON cashier_events(cashier_id);
    CREATE TRIGGER cashier_events_no_update BEFORE UPDATE ON cashier_events
    BEGIN SELECT RAISE(ABORT, 'cashier events are append-only'); END;
    CREATE TRIGGER cashier_events_no_delete BEFORE DELETE ON cashier_events
    BEGIN SELECT RAISE(ABORT, 'cashier events are append-only'); END;

    CREATE TABLE shifts (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        cashier_id TEXT NOT NULL REFERENCES cashiers(id),
        opened_ms  INTEGER NOT NULL,
        closed_ms  INTEGER CHECK (closed_ms IS NULL OR closed_ms >= opened_ms)
    ) STRICT;
    CREATE UNIQUE INDEX shifts_one_open ON shifts(cashier_id) WHERE closed_ms IS NULL;

    CREATE TABLE receipts_printed (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        kind       TEXT NOT NULL CHECK (kind IN ('payment', 'refund')),
        subject_id TEXT NOT NULL,
        time_ms    INTEGER NOT NULL,
        reprint    INTEGER NOT NULL,
        target     TEXT NOT NULL,
        cashier_id TEXT
    ) STRICT;
    CREATE INDEX receipts_printed_subject ON receipts_printed(kind, subject_id);

    ALTER TABLE payments ADD COLUMN cashier_id TEXT;
    ALTER TABLE refunds ADD COLUMN cashier_id TEXT;
    ALTER TABLE events ADD COLUMN cashier_id TEXT;
    CREATE INDEX payments_cashier ON payments(cashier_id);
""" + cashier_triggers_migration()

_MOVE_SUPERVISORS_REFUNDS = """
    UPDATE refunds SET authorised_by = cashier_id,
        cashier_id = (SELECT p.cashier_id FROM payments p
                      WHERE p.app_trans_id = refunds.app_trans_id)
        WHERE auto = 0 AND cashier_id IN (SELECT id FROM cashiers WHERE role = 'supervisor');
"""
# the outbox triggers first, so that the moved rows are shipped with both
REFUND_AUTHORITY_MIGRATION = ("ALTER TABLE refunds ADD COLUMN authorised_by TEXT;\n"
                              + cashier_triggers_migration(("refund",),
                                                           {"refund": ("authorised_by",)})
                              + _MOVE_SUPERVISORS_REFUNDS)

# A journal that runs for years: every everyday query reads what its day or its state bounds,
# never every row ever (tests/journal/test_query_plans.py). Rows by state and time of last change
# (reconcile's failed_since and late_charges_to_return; it replaces the index on state alone);
# the few rows still open and those that need review (reconcile, X report: partial indexes, so
# that even statistics saying "a state is a third of the rows" keep to them; their queries
# spell the states as literals, as here); refunds by Z report and by day (reports, exports);
# the newest Z report; the shifts still open or closed lately (per-shift reports); outbox rows by
# age (pruning). The code fingerprint's index keeps its first 16 hex digits (64 bits: the claim
# query compares the whole value on the few rows they find), a third of the full one. Leases of
# final payments and refunds are deleted, whoever writes: nobody sends those rows again.
SCALE_MIGRATION = """
    DROP INDEX payments_state;
    DROP INDEX payments_fingerprint;
    CREATE INDEX payments_code ON payments(substr(code_fingerprint, 1, 16));
    CREATE INDEX payments_state_updated ON payments(state, updated_ms);
    CREATE INDEX payments_review ON payments(state) WHERE needs_review = 1;
    CREATE INDEX payments_open ON payments(created_ms)
        WHERE state IN ('submitting', 'processing', 'unknown');
    CREATE INDEX refunds_open ON refunds(created_ms) WHERE state = 'refunding';
    CREATE INDEX refunds_z ON refunds(z_number);
    CREATE INDEX refunds_created ON refunds(created_ms);
    CREATE INDEX z_reports_closed ON z_reports(closed_ms);
    CREATE INDEX shifts_closed ON shifts(closed_ms);
    CREATE INDEX outbox_created ON outbox(created_ms);
    CREATE TRIGGER leases_of_final_payments AFTER UPDATE OF state ON payments
        WHEN NEW.state IN ('succeeded', 'failed', 'refunded')
    BEGIN DELETE FROM leases WHERE subject = 'payment:' || NEW.app_trans_id; END;
    CREATE TRIGGER leases_of_final_refunds AFTER UPDATE OF state ON refunds
        WHEN NEW.state IN ('refunded', 'failed')
    BEGIN DELETE FROM leases WHERE subject = 'refund:' || NEW.m_refund_id; END;
    DELETE FROM leases WHERE subject IN (
        SELECT 'payment:' || app_trans_id FROM payments
            WHERE state IN ('succeeded', 'failed', 'refunded')
        UNION ALL
        SELECT 'refund:' || m_refund_id FROM refunds WHERE state IN ('refunded', 'failed'));
"""

# What `cashier_events.kind` may be. `pin_changed` (a supervisor set a new PIN) came later: until
# then such a change was journaled as `unlocked` with the detail below, which the migration that
# added the kind turns into the `pin_changed` it was.
CASHIER_EVENT_KINDS = ("added", "removed", "unlocked", "pin_ok", "pin_failed", "locked",
                       "shift_opened", "shift_closed", "pin_changed")
_OLD_PIN_CHANGE_DETAIL = "new PIN set by a supervisor"
_KINDS_SQL = ", ".join(f"'{kind}'" for kind in CASHIER_EVENT_KINDS)
# SQLite cannot change a CHECK in place: the table is rebuilt (ids kept), with its index and
# its append-only triggers.
PIN_CHANGED_MIGRATION = f"""
    DROP TRIGGER cashier_events_no_update;
    DROP TRIGGER cashier_events_no_delete;
    ALTER TABLE cashier_events RENAME TO cashier_events_before;
    CREATE TABLE cashier_events (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        cashier_id TEXT NOT NULL,
        time_ms    INTEGER NOT NULL,
        kind       TEXT NOT NULL CHECK (kind IN ({_KINDS_SQL})),
        detail     TEXT NOT NULL DEFAULT ''
    ) STRICT;
    INSERT INTO cashier_events(id, cashier_id, time_ms, kind, detail)
        SELECT id, cashier_id, time_ms,
               CASE WHEN kind = 'unlocked' AND detail = '{_OLD_PIN_CHANGE_DETAIL}'
                    THEN 'pin_changed' ELSE kind END,
               CASE WHEN kind = 'unlocked' AND detail = '{_OLD_PIN_CHANGE_DETAIL}'
                    THEN '' ELSE detail END
        FROM cashier_events_before ORDER BY id;
    DROP TABLE cashier_events_before;
    CREATE INDEX cashier_events_cashier ON cashier_events(cashier_id);
    CREATE TRIGGER cashier_events_no_update BEFORE UPDATE ON cashier_events
    BEGIN SELECT RAISE(ABORT, 'cashier events are append-only'); END;
    CREATE TRIGGER cashier_events_no_delete BEFORE DELETE ON cashier_events
    BEGIN SELECT RAISE(ABORT, 'cashier events are append-only'); END;
"""  # noqa: S608 - the kinds and the old detail are constants of this module

# Every wallet at one counter (issue 31): each payment and refund names the wallet provider that
# charged it (its declared name), so its status queries, refunds and reconciliation go to that
# one, and reports, exports and the fleet ledger tell the wallets apart. Rows written before were
# all ZaloPay's. A refund's provider is its payment's (set with the refund's intent); neither
# ever changes. The outbox's payment and refund payloads carry `provider`.
_PROVIDER_COLUMNS = """
    ALTER TABLE payments ADD COLUMN provider TEXT NOT NULL DEFAULT 'zalopay'
        CHECK (length(provider) BETWEEN 1 AND 32);
    ALTER TABLE refunds ADD COLUMN provider TEXT NOT NULL DEFAULT 'zalopay'
        CHECK (length(provider) BETWEEN 1 AND 32);
    CREATE TRIGGER payments_provider_fixed BEFORE UPDATE OF provider ON payments
        WHEN NEW.provider IS NOT OLD.provider
    BEGIN SELECT RAISE(ABORT, 'the wallet provider of a payment never changes'); END;
    CREATE TRIGGER refunds_provider_fixed BEFORE UPDATE OF provider ON refunds
        WHEN NEW.provider IS NOT OLD.provider
    BEGIN SELECT RAISE(ABORT, 'the wallet provider of a refund never changes'); END;
    CREATE TRIGGER refunds_provider_of_payment BEFORE INSERT ON refunds
        WHEN NEW.provider IS NOT (SELECT provider FROM payments
                                  WHERE app_trans_id = NEW.app_trans_id)
    BEGIN SELECT RAISE(ABORT, 'a refund goes to the wallet provider of its payment'); END;
"""
PROVIDER_MIGRATION = _PROVIDER_COLUMNS + cashier_triggers_migration(
    ("payment", "refund"), {"payment": ("provider",), "refund": ("authorised_by", "provider")})

#: Version 15 (a late charge in the fleet ledger): see outbox.late_flags_migration.
LATE_FLAGS_MIGRATION = late_flags_migration()

PROVIDER_TRANS_ID_MIGRATION = """
    ALTER TABLE payments RENAME COLUMN zp_trans_id TO provider_trans_id;
"""

#: Version 6's triggers, as `state_triggers_migration()` generated them until version 14 (a
#: released migration's text never changes: tests/journal/test_state_triggers.py pins it).
STATE_TRIGGERS_V6 = (
    "DROP TRIGGER IF EXISTS payments_final_state;\n"
    "CREATE TRIGGER payments_state_machine BEFORE UPDATE OF state ON payments\n"
    "    WHEN NEW.state IS NOT OLD.state\n"
    "    AND NOT ((OLD.state, NEW.state) IN (VALUES\n"
    "            ('new', 'submitting'),\n"
    "            ('processing', 'failed'),\n"
    "            ('processing', 'succeeded'),\n"
    "            ('processing', 'unknown'),\n"
    "            ('submitting', 'failed'),\n"
    "            ('submitting', 'processing'),\n"
    "            ('submitting', 'succeeded'),\n"
    "            ('submitting', 'unknown'),\n"
    "            ('succeeded', 'refunded'),\n"
    "            ('unknown', 'failed'),\n"
    "            ('unknown', 'processing'),\n"
    "            ('unknown', 'succeeded'))\n"
    "        OR (OLD.state = 'failed' AND NEW.state = 'succeeded' AND OLD.late = 0"
    " AND NEW.late = 1))\n"
    "BEGIN SELECT RAISE(ABORT, 'the state machine forbids this move of a payment"
    " (one in a final state: failed, refunded, succeeded, never changes state)'); END;\n"
    "DROP TRIGGER IF EXISTS refunds_final_state;\n"
    "CREATE TRIGGER refunds_state_machine BEFORE UPDATE OF state ON refunds\n"
    "    WHEN NEW.state IS NOT OLD.state\n"
    "    AND NOT ((OLD.state, NEW.state) IN (VALUES\n"
    "            ('new', 'refunding'),\n"
    "            ('refunding', 'failed'),\n"
    "            ('refunding', 'refunded')))\n"
    "BEGIN SELECT RAISE(ABORT, 'the state machine forbids this move of a refund (one"
    " in a final state: failed, refunded, never changes state)'); END;\n"
)

MIGRATIONS: tuple[str, ...] = (
    # version 1
    """
    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value ANY NOT NULL
    ) STRICT;

    CREATE TABLE z_reports (
        number      INTEGER PRIMARY KEY,
        opened_ms   INTEGER,
        closed_ms   INTEGER NOT NULL,
        totals_json TEXT NOT NULL
    ) STRICT;

    CREATE TABLE payments (
        app_trans_id     TEXT PRIMARY KEY,
        kind             TEXT NOT NULL CHECK (kind IN ('quick_pay', 'gateway')),
        generation       TEXT NOT NULL,
        state            TEXT NOT NULL CHECK (state IN ('new', 'submitting', 'processing',
                             'succeeded', 'failed', 'unknown', 'refunding', 'refunded')),
        amount           INTEGER NOT NULL CHECK (amount > 0),
        description      TEXT NOT NULL DEFAULT '',
        items_json       TEXT NOT NULL DEFAULT '[]',
        code_fingerprint TEXT,
        code_last4       TEXT,
        payload_hash     TEXT,
        return_code      INTEGER,
        sub_return_code  INTEGER,
        service_message  TEXT NOT NULL DEFAULT '',
        message          TEXT NOT NULL DEFAULT '',
        zp_trans_id      TEXT,
        order_url        TEXT,
        qr_code          TEXT,
        refunded_amount  INTEGER NOT NULL DEFAULT 0
                             CHECK (refunded_amount >= 0 AND refunded_amount <= amount),
        polls            INTEGER NOT NULL DEFAULT 0,
        needs_review     INTEGER NOT NULL DEFAULT 0,
        created_ms       INTEGER NOT NULL,
        submitted_ms     INTEGER,
        updated_ms       INTEGER NOT NULL,
        z_number         INTEGER REFERENCES z_reports(number)
    ) STRICT;
    CREATE INDEX payments_state ON payments(state);
    CREATE INDEX payments_fingerprint ON payments(code_fingerprint);
    CREATE INDEX payments_created ON payments(created_ms);
    CREATE INDEX payments_z ON payments(z_number);

    CREATE TABLE refunds (
        m_refund_id     TEXT PRIMARY KEY,
        app_trans_id    TEXT NOT NULL REFERENCES payments(app_trans_id),
        amount          INTEGER NOT NULL CHECK (amount > 0),
        description     TEXT NOT NULL DEFAULT '',
        state           TEXT NOT NULL CHECK (state IN ('refunding', 'refunded', 'failed')),
        request_ms      INTEGER NOT NULL,
        return_code     INTEGER,
        sub_return_code INTEGER,
        service_message TEXT NOT NULL DEFAULT '',
        message         TEXT NOT NULL DEFAULT '',
        refund_id       TEXT,
        needs_review    INTEGER NOT NULL DEFAULT 0,
        created_ms      INTEGER NOT NULL,
        updated_ms      INTEGER NOT NULL,
        z_number        INTEGER REFERENCES z_reports(number)
    ) STRICT;
    CREATE INDEX refunds_payment ON refunds(app_trans_id);
    CREATE INDEX refunds_state ON refunds(state);

    CREATE TABLE events (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        app_trans_id    TEXT NOT NULL,
        m_refund_id     TEXT,
        time_ms         INTEGER NOT NULL,
        kind            TEXT NOT NULL CHECK (kind IN ('transition', 'override', 'review')),
        from_state      TEXT,
        to_state        TEXT NOT NULL,
        return_code     INTEGER,
        sub_return_code INTEGER,
        message         TEXT NOT NULL DEFAULT '',
        reason          TEXT,
        who             TEXT
    ) STRICT;
    CREATE INDEX events_payment ON events(app_trans_id);

    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    CREATE TRIGGER z_reports_no_update BEFORE UPDATE ON z_reports
    BEGIN SELECT RAISE(ABORT, 'a Z report is immutable'); END;
    CREATE TRIGGER z_reports_no_delete BEFORE DELETE ON z_reports
    BEGIN SELECT RAISE(ABORT, 'a Z report is immutable'); END;
    CREATE TRIGGER payments_no_delete BEFORE DELETE ON payments
    BEGIN SELECT RAISE(ABORT, 'payments are never deleted'); END;
    CREATE TRIGGER refunds_no_delete BEFORE DELETE ON refunds
    BEGIN SELECT RAISE(ABORT, 'refunds are never deleted'); END;
    CREATE TRIGGER payments_z_fixed BEFORE UPDATE OF z_number ON payments
        WHEN OLD.z_number IS NOT NULL
    BEGIN SELECT RAISE(ABORT, 'a payment in a Z report stays in it'); END;
    CREATE TRIGGER refunds_z_fixed BEFORE UPDATE OF z_number ON refunds
        WHEN OLD.z_number IS NOT NULL
    BEGIN SELECT RAISE(ABORT, 'a refund in a Z report stays in it'); END;
    CREATE TRIGGER payments_amount_fixed BEFORE UPDATE OF amount, app_trans_id ON payments
        WHEN NEW.amount IS NOT OLD.amount OR NEW.app_trans_id IS NOT OLD.app_trans_id
    BEGIN SELECT RAISE(ABORT, 'amount and app_trans_id of a payment never change'); END;
    """,
    # version 2: the database itself refuses what the state machine forbids, whoever writes.
    # A final state never moves (SUCCEEDED may only become REFUNDED), refunds only add up, and
    # what identifies a charge (amount, app_trans_id, code fingerprint) never changes. Rows
    # written before version 2 keep no code characters when the code was shorter than 4.
    """
    UPDATE payments SET code_last4 = NULL
        WHERE code_last4 IS NOT NULL AND length(code_last4) < 4;

    CREATE TRIGGER payments_final_state BEFORE UPDATE OF state ON payments
        WHEN NEW.state IS NOT OLD.state AND (
            OLD.state IN ('failed', 'refunded')
            OR (OLD.state = 'succeeded' AND NEW.state IS NOT 'refunded'))
    BEGIN SELECT RAISE(ABORT, 'a payment in a final state never changes state'); END;
    CREATE TRIGGER payments_refunded_only_grows BEFORE UPDATE OF refunded_amount ON payments
        WHEN NEW.refunded_amount < OLD.refunded_amount
    BEGIN SELECT RAISE(ABORT, 'the refunded amount of a payment never decreases'); END;
    CREATE TRIGGER payments_code_fixed BEFORE UPDATE OF code_fingerprint ON payments
        WHEN NEW.code_fingerprint IS NOT OLD.code_fingerprint
    BEGIN SELECT RAISE(ABORT, 'the code fingerprint of a payment never changes'); END;
    CREATE TRIGGER refunds_final_state BEFORE UPDATE OF state ON refunds
        WHEN NEW.state IS NOT OLD.state AND OLD.state IN ('refunded', 'failed')
    BEGIN SELECT RAISE(ABORT, 'a refund in a final state never changes state'); END;
    CREATE TRIGGER refunds_identity_fixed BEFORE UPDATE OF amount, app_trans_id, m_refund_id
        ON refunds
        WHEN NEW.amount IS NOT OLD.amount OR NEW.app_trans_id IS NOT OLD.app_trans_id
            OR NEW.m_refund_id IS NOT OLD.m_refund_id
    BEGIN SELECT RAISE(ABORT, 'amount and ids of a refund never change'); END;
    """,
    # version 3 (fleet ledger): the outbox. See outbox.py: triggers copy every payment, refund,
    # event and Z report row into `outbox` inside the writer's own transaction, whoever writes.
    OUTBOX_MIGRATION,
    # version 4 (money safety): the lease of the process sending a payment or refund
    # (journal/lease.py, table `leases`), the moment its sending went quiet on the monotonic
    # clock of one boot (the not-found grace is counted from there, never on the wall clock),
    # and the `late` flag of a success that came after the terminal had concluded FAILED: the
    # only move out of a final state besides a refund, and only together with setting `late`.
    """
    ALTER TABLE payments ADD COLUMN late INTEGER NOT NULL DEFAULT 0 CHECK (late IN (0, 1));

    -- One row per payment ('payment:<app_trans_id>') or refund ('refund:<m_refund_id>') being
    -- or having been sent. Apart from the payments and refunds tables: coordination between
    -- processes, not payment data (renewing a lease changes no payment row).
    CREATE TABLE leases (
        subject             TEXT PRIMARY KEY,
        owner               TEXT,
        until_mono_ms       INTEGER,
        quiet_boot_id       TEXT,
        quiet_mono_ms       INTEGER
    ) STRICT;

    DROP TRIGGER payments_final_state;
    CREATE TRIGGER payments_final_state BEFORE UPDATE OF state ON payments
        WHEN NEW.state IS NOT OLD.state
            AND NOT (OLD.state = 'failed' AND NEW.state = 'succeeded'
                     AND OLD.late = 0 AND NEW.late = 1)
            AND (OLD.state IN ('failed', 'refunded')
                 OR (OLD.state = 'succeeded' AND NEW.state IS NOT 'refunded'))
    BEGIN SELECT RAISE(ABORT, 'a payment in a final state never changes state'); END;
    CREATE TRIGGER payments_late_only_with_late_success BEFORE UPDATE OF late ON payments
        WHEN NEW.late IS NOT OLD.late
            AND NOT (OLD.late = 0 AND NEW.late = 1 AND OLD.state = 'failed'
                     AND NEW.state = 'succeeded')
    BEGIN SELECT RAISE(ABORT, 'late is set only by a late success and never cleared'); END;
    """,
    # version 5 (cashiers and receipts): who took each payment, refund and override; PINs
    # only as salted scrypt hashes (cashiers.py); shifts (sign-in to sign-out) for the
    # per-shift reports; PIN failures, lock-outs and the like in `cashier_events`; every
    # receipt printed (so a second print carries the reprint mark). Payment and refund rows
    # reach the outbox with their cashier (payload key `cashier`, the ledger's `cashier`).
    CASHIERS_MIGRATION,
    # version 6 (one state machine): the final-state triggers of versions 2 and 4 are replaced by
    # triggers generated from the table in states.py, which also refuse a move between pending
    # states that the table does not list (processing -> submitting, a payment -> refunding).
    STATE_TRIGGERS_V6,
    # version 7 (void of abandoned payments): `abandoned` marks a payment the cashier gave up
    # waiting for while its outcome was unknown (set only on an open row, never cleared); a
    # success after that, like a late success, is returned by a refund with `auto` = 1, at most
    # one per payment, whoever reconciles.
    """
    ALTER TABLE payments ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0
        CHECK (abandoned IN (0, 1));
    ALTER TABLE refunds ADD COLUMN auto INTEGER NOT NULL DEFAULT 0 CHECK (auto IN (0, 1));
    CREATE UNIQUE INDEX refunds_one_auto_return ON refunds(app_trans_id) WHERE auto = 1;
    CREATE TRIGGER payments_abandoned_once BEFORE UPDATE OF abandoned ON payments
        WHEN NEW.abandoned IS NOT OLD.abandoned
            AND NOT (OLD.abandoned = 0 AND NEW.abandoned = 1
                     AND OLD.state IN ('submitting', 'processing', 'unknown'))
    BEGIN SELECT RAISE(ABORT, 'abandoned is set only on an open payment and never cleared'); END;
    CREATE TRIGGER refunds_auto_fixed BEFORE UPDATE OF auto ON refunds
        WHEN NEW.auto IS NOT OLD.auto
    BEGIN SELECT RAISE(ABORT, 'a refund never changes whether it was automatic'); END;
    """,
    # version 8 (who asked, who authorised): a refund's `cashier_id` is the cashier who asked for
    # it (reports count it for them) and `authorised_by` the supervisor whose PIN allowed it
    # (null when no supervisor was set up). Before, a supervisor's refund kept only the
    # supervisor: such rows move to the payment's cashier, the supervisor to `authorised_by`.
    # The outbox's refund payload carries `authorised_by` too.
    REFUND_AUTHORITY_MIGRATION,
    # version 9: a journal that runs for years (see SCALE_MIGRATION).
    SCALE_MIGRATION,
    # Terminal API (issue 23): the sale system's own references, unique, set with the intent in
    # its write transaction (so two processes can never both charge one sale) and never changed;
    # the API's bearer tokens, only as SHA-256 hashes (api_tokens.py), removed by marking.
    """
    ALTER TABLE payments ADD COLUMN sale_ref TEXT;
    CREATE UNIQUE INDEX payments_sale_ref ON payments(sale_ref) WHERE sale_ref IS NOT NULL;
    ALTER TABLE refunds ADD COLUMN refund_ref TEXT;
    CREATE UNIQUE INDEX refunds_refund_ref ON refunds(refund_ref) WHERE refund_ref IS NOT NULL;
    CREATE TRIGGER payments_sale_ref_fixed BEFORE UPDATE OF sale_ref ON payments
        WHEN NEW.sale_ref IS NOT OLD.sale_ref
    BEGIN SELECT RAISE(ABORT, 'the sale reference of a payment never changes'); END;
    CREATE TRIGGER refunds_refund_ref_fixed BEFORE UPDATE OF refund_ref ON refunds
        WHEN NEW.refund_ref IS NOT OLD.refund_ref
    BEGIN SELECT RAISE(ABORT, 'the reference of a refund never changes'); END;

    CREATE TABLE api_tokens (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        name         TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
        token_hash   TEXT NOT NULL UNIQUE,
        scopes       TEXT NOT NULL,
        authorised_by TEXT,
        created_ms   INTEGER NOT NULL,
        removed_ms   INTEGER
    ) STRICT;
    CREATE UNIQUE INDEX api_tokens_active_name ON api_tokens(name) WHERE removed_ms IS NULL;
    CREATE TRIGGER api_tokens_no_delete BEFORE DELETE ON api_tokens
    BEGIN SELECT RAISE(ABORT, 'a token is removed by marking it, never deleted'); END;
    CREATE TRIGGER api_tokens_fixed BEFORE UPDATE ON api_tokens
        WHEN NEW.token_hash IS NOT OLD.token_hash OR NEW.scopes IS NOT OLD.scopes
            OR NEW.name IS NOT OLD.name OR OLD.removed_ms IS NOT NULL
    BEGIN SELECT RAISE(ABORT, 'a token only changes by being removed, once'); END;
    """,
    # A new PIN set by a supervisor is an event kind of its own, `pin_changed` (its detail: the
    # supervisor who set it); see PIN_CHANGED_MIGRATION.
    PIN_CHANGED_MIGRATION,
    # Every wallet at one counter: the provider of each payment and refund (PROVIDER_MIGRATION).
    PROVIDER_MIGRATION,
    # A wallet is a folder (issue 40): the wallet's own id of a payment, whichever wallet charged
    # it, lives in `provider_trans_id` (it was `zp_trans_id`, ZaloPay's name, holding every wallet's
    # ids; SQLite carries the rename into every trigger). The outbox's payload keeps the key
    # `zp_trans_id` (the ledger reads both), and JSON answers carry both names.
    PROVIDER_TRANS_ID_MIGRATION,
    # Settling money found after a shop's QR closed (issue 41): the state triggers regenerated
    # from the table, which now lets a person override a failed row flagged for review (paid:
    # the rest collected; not paid: what arrived returned by the shop). The database allows
    # failed -> succeeded without `late` only from a row flagged `needs_review`, clearing it.
    state_triggers_migration(),
    # A late charge in the fleet ledger: the outbox's payment payload carries `late` and
    # `abandoned`, a refund's `auto`, so the ledger tells a late success (failed -> succeeded,
    # which it takes) from a journal restored and settled differently (which it reports); rows
    # already late, abandoned or returned automatically are shipped again with them (see
    # outbox.late_flags_migration).
    LATE_FLAGS_MIGRATION,
)

SCHEMA_VERSION = len(MIGRATIONS)
