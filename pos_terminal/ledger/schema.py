"""The fleet ledger's schema in PostgreSQL, one migration per version (table schema_migrations).

Each migration runs in one transaction with its row in schema_migrations, under an advisory lock,
so two terminals syncing for the first time at once migrate once.
"""

from __future__ import annotations

import psycopg

MIGRATIONS: tuple[str, ...] = (
    # version 1
    """
    CREATE TABLE terminals (
        terminal_id  text PRIMARY KEY,
        app_user     text NOT NULL,
        first_seen   timestamptz NOT NULL DEFAULT now(),
        last_seen    timestamptz NOT NULL DEFAULT now()
    );

    -- One row per journal identity a terminal ships from; a journal restored from an older copy
    -- continues under a new journal_id (parent_journal_id, first_seq: where it forked).
    CREATE TABLE journals (
        terminal_id       text NOT NULL REFERENCES terminals(terminal_id),
        journal_id        text NOT NULL,
        parent_journal_id text,
        first_seq         bigint NOT NULL CHECK (first_seq >= 1),
        shipped_seq       bigint NOT NULL,
        created_at        timestamptz NOT NULL DEFAULT now(),
        last_sync_at      timestamptz,
        PRIMARY KEY (terminal_id, journal_id),
        CHECK (shipped_seq >= first_seq - 1)
    );

    -- Every outbox row received: the idempotence key of the sync.
    CREATE TABLE receipts (
        terminal_id text NOT NULL,
        journal_id  text NOT NULL,
        seq         bigint NOT NULL,
        kind        text NOT NULL,
        key         text NOT NULL,
        digest      text NOT NULL,
        created_ms  bigint NOT NULL,
        received_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (terminal_id, journal_id, seq),
        FOREIGN KEY (terminal_id, journal_id) REFERENCES journals(terminal_id, journal_id)
    );

    CREATE TABLE payments (
        app_trans_id     text PRIMARY KEY,
        terminal_id      text NOT NULL REFERENCES terminals(terminal_id),
        cashier          text NOT NULL,
        kind             text NOT NULL,
        generation       text NOT NULL,
        state            text NOT NULL CHECK (state IN ('new', 'submitting', 'processing',
                             'succeeded', 'failed', 'unknown', 'refunding', 'refunded')),
        amount           bigint NOT NULL CHECK (amount > 0),
        description      text NOT NULL,
        items_json       text NOT NULL,
        code_last4       text,
        return_code      integer,
        sub_return_code  integer,
        service_message  text NOT NULL,
        message          text NOT NULL,
        zp_trans_id      text,
        order_url        text,
        qr_code          text,
        refunded_amount  bigint NOT NULL,
        polls            integer NOT NULL,
        needs_review     boolean NOT NULL,
        created_ms       bigint NOT NULL,
        submitted_ms     bigint,
        updated_ms       bigint NOT NULL,
        z_number         integer,
        journal_id       text NOT NULL,
        seq              bigint NOT NULL,
        received_at      timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE INDEX payments_terminal_created ON payments(terminal_id, created_ms);
    CREATE INDEX payments_created ON payments(created_ms);
    CREATE INDEX payments_open ON payments(state) WHERE state IN ('submitting', 'processing',
        'unknown') OR needs_review;

    CREATE TABLE refunds (
        m_refund_id     text PRIMARY KEY,
        app_trans_id    text NOT NULL,
        terminal_id     text NOT NULL REFERENCES terminals(terminal_id),
        cashier         text NOT NULL,
        amount          bigint NOT NULL CHECK (amount > 0),
        description     text NOT NULL,
        state           text NOT NULL CHECK (state IN ('refunding', 'refunded', 'failed')),
        request_ms      bigint NOT NULL,
        return_code     integer,
        sub_return_code integer,
        service_message text NOT NULL,
        message         text NOT NULL,
        refund_id       text,
        needs_review    boolean NOT NULL,
        created_ms      bigint NOT NULL,
        updated_ms      bigint NOT NULL,
        z_number        integer,
        journal_id      text NOT NULL,
        seq             bigint NOT NULL,
        received_at     timestamptz NOT NULL DEFAULT clock_timestamp()
    );
    CREATE INDEX refunds_payment ON refunds(app_trans_id);
    CREATE INDEX refunds_created ON refunds(created_ms);

    CREATE TABLE events (
        terminal_id     text NOT NULL,
        journal_id      text NOT NULL,
        seq             bigint NOT NULL,
        event_id        bigint NOT NULL,
        app_trans_id    text NOT NULL,
        m_refund_id     text,
        time_ms         bigint NOT NULL,
        kind            text NOT NULL,
        from_state      text,
        to_state        text NOT NULL,
        return_code     integer,
        sub_return_code integer,
        message         text NOT NULL,
        reason          text,
        who             text,
        PRIMARY KEY (terminal_id, journal_id, seq)
    );
    CREATE INDEX events_payment ON events(app_trans_id);

    CREATE TABLE z_reports (
        terminal_id text NOT NULL,
        journal_id  text NOT NULL,
        number      integer NOT NULL,
        opened_ms   bigint,
        closed_ms   bigint NOT NULL,
        totals      jsonb NOT NULL,
        seq         bigint NOT NULL,
        PRIMARY KEY (terminal_id, journal_id, number)
    );

    -- What a journal said that the ledger did not take: a final row changed after it was
    -- final, a payment shipped by two terminals, a second journal under one terminal id.
    CREATE TABLE disagreements (
        id            bigserial PRIMARY KEY,
        detected_at   timestamptz NOT NULL DEFAULT now(),
        terminal_id   text NOT NULL,
        journal_id    text NOT NULL,
        seq           bigint,
        kind          text NOT NULL,
        key           text NOT NULL,
        field         text NOT NULL,
        ledger_value  text,
        journal_value text,
        note          text NOT NULL,
        UNIQUE (terminal_id, journal_id, seq, field)
    );

    -- The ledger only grows: nothing is ever deleted.
    CREATE FUNCTION ledger_no_delete() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'the fleet ledger never deletes rows (%)', TG_TABLE_NAME; END $$;
    CREATE TRIGGER payments_no_delete BEFORE DELETE ON payments
        FOR EACH ROW EXECUTE FUNCTION ledger_no_delete();
    CREATE TRIGGER refunds_no_delete BEFORE DELETE ON refunds
        FOR EACH ROW EXECUTE FUNCTION ledger_no_delete();
    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
        FOR EACH ROW EXECUTE FUNCTION ledger_no_delete();
    CREATE TRIGGER receipts_no_delete BEFORE DELETE ON receipts
        FOR EACH ROW EXECUTE FUNCTION ledger_no_delete();
    """,
)

LEDGER_SCHEMA_VERSION = len(MIGRATIONS)
_LOCK_KEY = 0x706F_736C_6564  # "posled": serialises migrators


class LedgerSchemaTooNew(Exception):
    def __init__(self, version: int) -> None:
        super().__init__(
            f"the ledger has schema version {version}, newer than this pos-terminal understands "
            f"({LEDGER_SCHEMA_VERSION}); upgrade pos-terminal on this machine")
        self.version = version


def current_version(conn: psycopg.Connection[tuple[object, ...]]) -> int:
    with conn.cursor() as cur:
        cur.execute("SELECT to_regclass('schema_migrations') IS NOT NULL")
        row = cur.fetchone()
        if not row or not row[0]:
            return 0
        cur.execute("SELECT coalesce(max(version), 0) FROM schema_migrations")
        found = cur.fetchone()
        return int(found[0]) if found else 0  # type: ignore[call-overload]


def migrate(conn: psycopg.Connection[tuple[object, ...]]) -> list[int]:
    """Bring the ledger to LEDGER_SCHEMA_VERSION; returns the versions applied (maybe none)."""
    applied: list[int] = []
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
        cur.execute("CREATE TABLE IF NOT EXISTS schema_migrations ("
                    "version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())")
        version = current_version(conn)
        if version > LEDGER_SCHEMA_VERSION:
            raise LedgerSchemaTooNew(version)
        for number in range(version, LEDGER_SCHEMA_VERSION):
            cur.execute(MIGRATIONS[number].encode("utf-8"))
            cur.execute("INSERT INTO schema_migrations(version) VALUES (%s)", (number + 1,))
            applied.append(number + 1)
    return applied
