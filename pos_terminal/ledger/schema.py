"""The fleet ledger's schema in PostgreSQL, one migration per version (table schema_migrations).

Each migration runs in one transaction with its row in schema_migrations, under an advisory lock,
so two migrators at once migrate once. Only `pos-terminal fleet migrate`, with the ledger owner's
DSN, migrates; a counter refuses a ledger whose version is not its own (check_version).
"""

from __future__ import annotations

import psycopg

#: The forward-only rule (merge.py's, for every writer), with the moves a final payment may make
#: spelled in `final_moves`: each release that changes them replaces the function whole.
_PAYMENT_FORWARD = """
    CREATE OR REPLACE FUNCTION ledger_payment_forward() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF (NEW.terminal_id, NEW.cashier, NEW.amount, NEW.kind, NEW.created_ms)
                IS DISTINCT FROM (OLD.terminal_id, OLD.cashier, OLD.amount, OLD.kind,
                                  OLD.created_ms) THEN
            RAISE EXCEPTION 'payment %: who took it, its amount and its time never change',
                OLD.app_trans_id USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF NEW.updated_ms < OLD.updated_ms THEN
            RAISE EXCEPTION 'payment %: an older snapshot never replaces a newer one',
                OLD.app_trans_id USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF OLD.state IN ('succeeded', 'failed', 'refunded') AND (
{final_moves}                OR (OLD.provider_trans_id IS NOT NULL
                    AND NEW.provider_trans_id IS DISTINCT FROM OLD.provider_trans_id)
                OR NEW.refunded_amount < OLD.refunded_amount
                OR (OLD.z_number IS NOT NULL AND NEW.z_number IS DISTINCT FROM OLD.z_number)) THEN
            RAISE EXCEPTION 'payment %: a final payment only moves forward', OLD.app_trans_id
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END $$;
"""
_FINAL_MOVES_V5 = (
    "                NOT (NEW.state = OLD.state OR (OLD.state = 'succeeded' AND NEW.state = "
    "'refunded'))\n")
#: version 6: a failed payment flagged for review becomes succeeded when a person settles it
#: (the journal's `failed --override_paid--> succeeded`, which clears the flag)
_FINAL_MOVES_V6 = """\
                NOT (NEW.state = OLD.state OR (OLD.state = 'succeeded' AND NEW.state = 'refunded')
                     OR (OLD.state = 'failed' AND NEW.state = 'succeeded' AND OLD.needs_review
                         AND NOT NEW.needs_review))
"""
#: version 7: a late charge (the journal's `failed --late_success--> succeeded`, which sets `late`,
#: maybe returned since: refunded) leaves FAILED when the row comes `late`; `late` is never cleared
_FINAL_MOVES_V7 = """\
                NOT (NEW.state = OLD.state OR (OLD.state = 'succeeded' AND NEW.state = 'refunded')
                     OR (OLD.state = 'failed' AND NEW.state = 'succeeded' AND OLD.needs_review
                         AND NOT NEW.needs_review)
                     OR (OLD.state = 'failed' AND NEW.state IN ('succeeded', 'refunded')
                         AND NEW.late AND NOT OLD.late))
                OR (OLD.late AND NOT NEW.late)
"""

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
    # version 2: every counter its own login, writing only its own terminal's rows (row-level
    # security keyed on the login, docs/fleet.md "Least privilege"); rows only move forward.
    """
    CREATE TABLE counters (
        terminal_id text PRIMARY KEY,
        role_name   text NOT NULL UNIQUE,
        created_at  timestamptz NOT NULL DEFAULT now(),
        disabled_at timestamptz
    );

    -- The terminal the logged-in counter writes for; NULL for any other login. session_user,
    -- not current_user: inside this function current_user is its owner.
    CREATE FUNCTION ledger_my_terminal() RETURNS text LANGUAGE sql STABLE SECURITY DEFINER AS $$
        SELECT terminal_id FROM counters WHERE role_name = session_user AND disabled_at IS NULL
    $$;

    -- Which of these keys another terminal already has: a copied journal's rows become a
    -- disagreement, without the counter reading another counter's rows.
    CREATE FUNCTION ledger_claimed_elsewhere(what text, keys text[])
        RETURNS TABLE (key text, terminal_id text) LANGUAGE sql STABLE SECURITY DEFINER AS $$
        SELECT p.app_trans_id, p.terminal_id FROM payments p
            WHERE what = 'payments' AND p.app_trans_id = ANY(keys)
            AND p.terminal_id IS DISTINCT FROM ledger_my_terminal()
        UNION ALL
        SELECT r.m_refund_id, r.terminal_id FROM refunds r
            WHERE what = 'refunds' AND r.m_refund_id = ANY(keys)
            AND r.terminal_id IS DISTINCT FROM ledger_my_terminal()
    $$;
    REVOKE ALL ON FUNCTION ledger_claimed_elsewhere(text, text[]) FROM PUBLIC;

    -- merge.py's forward-only rule, for every writer: what a counter sends that breaks it is a
    -- disagreement there; a hand-written UPDATE that breaks it is refused here.
    CREATE FUNCTION ledger_payment_forward() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF (NEW.terminal_id, NEW.cashier, NEW.amount, NEW.kind, NEW.created_ms)
                IS DISTINCT FROM (OLD.terminal_id, OLD.cashier, OLD.amount, OLD.kind,
                                  OLD.created_ms) THEN
            RAISE EXCEPTION 'payment %: who took it, its amount and its time never change',
                OLD.app_trans_id USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF NEW.updated_ms < OLD.updated_ms THEN
            RAISE EXCEPTION 'payment %: an older snapshot never replaces a newer one',
                OLD.app_trans_id USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF OLD.state IN ('succeeded', 'failed', 'refunded') AND (
                NOT (NEW.state = OLD.state OR (OLD.state = 'succeeded' AND NEW.state = 'refunded'))
                OR (OLD.zp_trans_id IS NOT NULL AND NEW.zp_trans_id IS DISTINCT FROM
                    OLD.zp_trans_id)
                OR NEW.refunded_amount < OLD.refunded_amount
                OR (OLD.z_number IS NOT NULL AND NEW.z_number IS DISTINCT FROM OLD.z_number)) THEN
            RAISE EXCEPTION 'payment %: a final payment only moves forward', OLD.app_trans_id
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END $$;
    CREATE TRIGGER payments_forward BEFORE UPDATE ON payments
        FOR EACH ROW EXECUTE FUNCTION ledger_payment_forward();

    CREATE FUNCTION ledger_refund_forward() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF (NEW.terminal_id, NEW.cashier, NEW.amount, NEW.app_trans_id, NEW.created_ms)
                IS DISTINCT FROM (OLD.terminal_id, OLD.cashier, OLD.amount, OLD.app_trans_id,
                                  OLD.created_ms) THEN
            RAISE EXCEPTION 'refund %: who made it, its amount and its payment never change',
                OLD.m_refund_id USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF NEW.updated_ms < OLD.updated_ms THEN
            RAISE EXCEPTION 'refund %: an older snapshot never replaces a newer one',
                OLD.m_refund_id USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF OLD.state IN ('refunded', 'failed') AND (NEW.state <> OLD.state
                OR (OLD.refund_id IS NOT NULL AND NEW.refund_id IS DISTINCT FROM OLD.refund_id)
                OR (OLD.z_number IS NOT NULL AND NEW.z_number IS DISTINCT FROM OLD.z_number)) THEN
            RAISE EXCEPTION 'refund %: a final refund only moves forward', OLD.m_refund_id
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END $$;
    CREATE TRIGGER refunds_forward BEFORE UPDATE ON refunds
        FOR EACH ROW EXECUTE FUNCTION ledger_refund_forward();

    DO $$
    DECLARE
        grp text := left(current_database(), 50) || '_counters';
        own text := 'terminal_id = (SELECT ledger_my_terminal())';
        t text;
    BEGIN
        -- Functions that run as the owner search only the ledger's schema, and pg_temp last
        -- (a temporary "counters" table must never stand in for the real one).
        EXECUTE format('ALTER FUNCTION ledger_my_terminal() SET search_path = %I, pg_temp',
                       current_schema());
        EXECUTE format('ALTER FUNCTION ledger_claimed_elsewhere(text, text[]) '
                       'SET search_path = %I, pg_temp', current_schema());
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = grp) THEN
            EXECUTE format('CREATE ROLE %I NOLOGIN', grp);
        END IF;
        EXECUTE format('CREATE FUNCTION ledger_counter_group() RETURNS text LANGUAGE sql '
                       'IMMUTABLE AS %L', format('SELECT %L::text', grp));
        FOREACH t IN ARRAY ARRAY['terminals', 'journals', 'receipts', 'payments', 'refunds',
                                 'events', 'z_reports', 'disagreements'] LOOP
            EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
            EXECUTE format('CREATE POLICY own_rows ON %I USING (%s) WITH CHECK (%s)', t, own,
                           own);
            EXECUTE format('GRANT SELECT, INSERT ON %I TO %I', t, grp);
        END LOOP;
        ALTER TABLE counters ENABLE ROW LEVEL SECURITY;  -- and no grant: owner only
        EXECUTE format('GRANT UPDATE (last_seen, app_user) ON terminals TO %I', grp);
        EXECUTE format('GRANT UPDATE (shipped_seq, last_sync_at) ON journals TO %I', grp);
        EXECUTE format('GRANT UPDATE ON payments, refunds TO %I', grp);
        EXECUTE format('GRANT USAGE ON SEQUENCE disagreements_id_seq TO %I', grp);
        EXECUTE format('GRANT SELECT ON schema_migrations TO %I', grp);
        EXECUTE format('GRANT EXECUTE ON FUNCTION ledger_claimed_elsewhere(text, text[]) TO %I',
                       grp);
        EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', current_schema(), grp);
        -- No login but the owner creates anything here: no tables, no temporary tables.
        EXECUTE format('REVOKE CREATE ON SCHEMA %I FROM PUBLIC', current_schema());
        EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
    END $$;
    """,
    # version 3: the big tables partitioned by month of Vietnam time (docs/fleet.md, "Scale
    # and retention"): a day's report reads one partition; old months can be detached whole.
    """
    -- The Unix ms at which the month of Vietnam time (UTC+7, no daylight saving) holding `ms`
    -- starts, `months` months later.
    CREATE FUNCTION ledger_month_start(ms bigint, months integer DEFAULT 0) RETURNS bigint
        LANGUAGE sql IMMUTABLE AS $$
        SELECT (extract(epoch FROM date_trunc('month', to_timestamp(ms / 1000.0)
            AT TIME ZONE 'UTC' + interval '7 hours') + make_interval(months => months)
            - interval '7 hours') * 1000)::bigint
    $$;

    -- Monthly partitions from the oldest row's month (or since_ms) to `ahead` months after the
    -- current one; `fleet migrate` runs it every time. A month whose rows already sit in the
    -- default partition (the ledger went that long without `fleet migrate`) is left there.
    CREATE FUNCTION ledger_ensure_partitions(ahead integer, since_ms bigint DEFAULT NULL)
        RETURNS integer LANGUAGE plpgsql AS $$
    DECLARE
        t text; col text; oldest bigint; lo bigint; hi bigint; last bigint; made integer := 0;
        now_ms bigint := (extract(epoch FROM now()) * 1000)::bigint; waiting boolean;
    BEGIN
        FOREACH t IN ARRAY ARRAY['payments', 'refunds', 'events', 'receipts'] LOOP
            col := CASE t WHEN 'events' THEN 'time_ms' ELSE 'created_ms' END;
            EXECUTE format('SELECT min(%I) FROM %I', col, t) INTO oldest;
            lo := ledger_month_start(least(oldest, since_ms, now_ms));
            last := ledger_month_start(now_ms, ahead);
            WHILE lo <= last LOOP
                hi := ledger_month_start(lo, 1);
                IF to_regclass(t || '_' || to_char(to_timestamp(lo / 1000.0) AT TIME ZONE 'UTC'
                        + interval '7 hours', 'YYYY_MM')) IS NULL THEN
                    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE %I >= %s AND %I < %s)',
                                   t || '_default', col, lo, col, hi) INTO waiting;
                    IF NOT waiting THEN
                        EXECUTE format('CREATE TABLE %I PARTITION OF %I '
                                       'FOR VALUES FROM (%s) TO (%s)',
                            t || '_' || to_char(to_timestamp(lo / 1000.0) AT TIME ZONE 'UTC'
                                + interval '7 hours', 'YYYY_MM'), t, lo, hi);
                        made := made + 1;
                    END IF;
                END IF;
                lo := hi;
            END LOOP;
        END LOOP;
        RETURN made;
    END $$;

    DO $$
    DECLARE
        grp text := ledger_counter_group();
        own text := 'terminal_id = (SELECT ledger_my_terminal())';
        spec record;
    BEGIN
        FOR spec IN SELECT * FROM (VALUES ('payments', 'created_ms'), ('refunds', 'created_ms'),
                ('events', 'time_ms'), ('receipts', 'created_ms')) AS s(t, col) LOOP
            EXECUTE format('ALTER TABLE %I RENAME TO %I', spec.t, spec.t || '_unpartitioned');
            EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS) '
                           'PARTITION BY RANGE (%I)', spec.t, spec.t || '_unpartitioned',
                           spec.col);
            EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', spec.t || '_default',
                           spec.t);
        END LOOP;
        FOR spec IN SELECT * FROM (VALUES ('payments'), ('refunds'), ('events'), ('receipts'))
                AS s(t) LOOP
            EXECUTE format('SELECT ledger_ensure_partitions(24, (SELECT min(%I) FROM %I))',
                           CASE spec.t WHEN 'events' THEN 'time_ms' ELSE 'created_ms' END,
                           spec.t || '_unpartitioned');
        END LOOP;
        FOR spec IN SELECT * FROM (VALUES
                ('payments', 'app_trans_id, created_ms'), ('refunds', 'm_refund_id, created_ms'),
                ('events', 'terminal_id, journal_id, seq, time_ms'),
                ('receipts', 'terminal_id, journal_id, seq, created_ms')) AS s(t, pk) LOOP
            EXECUTE format('INSERT INTO %I SELECT * FROM %I', spec.t, spec.t || '_unpartitioned');
            EXECUTE format('DROP TABLE %I', spec.t || '_unpartitioned');
            EXECUTE format('ALTER TABLE %I ADD PRIMARY KEY (%s)', spec.t, spec.pk);
            EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', spec.t);
            EXECUTE format('CREATE POLICY own_rows ON %I USING (%s) WITH CHECK (%s)', spec.t,
                           own, own);
            EXECUTE format('GRANT SELECT, INSERT ON %I TO %I', spec.t, grp);
            EXECUTE format('CREATE TRIGGER %I BEFORE DELETE ON %I FOR EACH ROW '
                           'EXECUTE FUNCTION ledger_no_delete()', spec.t || '_no_delete', spec.t);
        END LOOP;
        EXECUTE format('GRANT UPDATE ON payments, refunds TO %I', grp);
    END $$;

    ALTER TABLE payments ADD FOREIGN KEY (terminal_id) REFERENCES terminals(terminal_id);
    ALTER TABLE refunds ADD FOREIGN KEY (terminal_id) REFERENCES terminals(terminal_id);
    ALTER TABLE receipts ADD FOREIGN KEY (terminal_id, journal_id)
        REFERENCES journals(terminal_id, journal_id);
    CREATE INDEX payments_terminal_created ON payments(terminal_id, created_ms);
    CREATE INDEX payments_created ON payments(created_ms);
    CREATE INDEX payments_open ON payments(state) WHERE state IN ('submitting', 'processing',
        'unknown') OR needs_review;
    CREATE INDEX refunds_payment ON refunds(app_trans_id);
    CREATE INDEX refunds_created ON refunds(created_ms);
    CREATE INDEX refunds_open ON refunds(state) WHERE state = 'refunding' OR needs_review;
    CREATE INDEX events_payment ON events(app_trans_id);
    CREATE TRIGGER payments_forward BEFORE UPDATE ON payments
        FOR EACH ROW EXECUTE FUNCTION ledger_payment_forward();
    CREATE TRIGGER refunds_forward BEFORE UPDATE ON refunds
        FOR EACH ROW EXECUTE FUNCTION ledger_refund_forward();

    -- Every payment or refund not final or flagged for review, kept by triggers: `fleet open`
    -- reads this small table, never every month of history.
    CREATE TABLE open_rows (
        type          text NOT NULL CHECK (type IN ('payment', 'refund')),
        id            text NOT NULL,
        created_ms    bigint NOT NULL,
        terminal_id   text NOT NULL,
        cashier       text NOT NULL,
        app_trans_id  text NOT NULL,
        state         text NOT NULL,
        amount        bigint NOT NULL,
        needs_review  boolean NOT NULL,
        updated_ms    bigint NOT NULL,
        message       text NOT NULL,
        PRIMARY KEY (type, id, created_ms)
    );
    CREATE FUNCTION ledger_track_open() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
    DECLARE  -- TG_TABLE_NAME is the month's partition: the kind comes as an argument
        kind text := TG_ARGV[0];
        key text := to_jsonb(NEW) ->> CASE kind WHEN 'payment' THEN 'app_trans_id'
                                                ELSE 'm_refund_id' END;
    BEGIN
        IF NEW.needs_review OR NEW.state IN ('submitting', 'processing', 'unknown', 'refunding')
        THEN
            INSERT INTO open_rows VALUES (kind, key, NEW.created_ms, NEW.terminal_id,
                NEW.cashier, NEW.app_trans_id, NEW.state, NEW.amount, NEW.needs_review,
                NEW.updated_ms, NEW.message)
            ON CONFLICT (type, id, created_ms) DO UPDATE SET state = EXCLUDED.state,
                needs_review = EXCLUDED.needs_review, updated_ms = EXCLUDED.updated_ms,
                message = EXCLUDED.message;
        ELSIF TG_OP = 'UPDATE' THEN
            DELETE FROM open_rows WHERE type = kind AND id = key
                AND created_ms = NEW.created_ms;
        END IF;
        RETURN NULL;
    END $$;
    CREATE TRIGGER payments_open AFTER INSERT OR UPDATE ON payments
        FOR EACH ROW EXECUTE FUNCTION ledger_track_open('payment');
    CREATE TRIGGER refunds_open AFTER INSERT OR UPDATE ON refunds
        FOR EACH ROW EXECUTE FUNCTION ledger_track_open('refund');
    INSERT INTO open_rows SELECT 'payment', app_trans_id, created_ms, terminal_id, cashier,
        app_trans_id, state, amount, needs_review, updated_ms, message FROM payments
        WHERE state IN ('submitting', 'processing', 'unknown') OR needs_review;
    INSERT INTO open_rows SELECT 'refund', m_refund_id, created_ms, terminal_id, cashier,
        app_trans_id, state, amount, needs_review, updated_ms, message FROM refunds
        WHERE state = 'refunding' OR needs_review;
    DO $$ BEGIN
        EXECUTE format('ALTER FUNCTION ledger_track_open() SET search_path = %I, pg_temp',
                       current_schema());
    END $$;
    """,
    # version 4 (every wallet at one counter): each payment and refund names its wallet
    # provider (its declared name); rows shipped before were all ZaloPay's. A row is known by
    # (provider, its id, created_ms): no key relies on one wallet's id format. `open_rows`
    # carries the provider too.
    """
    ALTER TABLE payments ADD COLUMN provider text NOT NULL DEFAULT 'zalopay';
    ALTER TABLE refunds ADD COLUMN provider text NOT NULL DEFAULT 'zalopay';
    ALTER TABLE open_rows ADD COLUMN provider text NOT NULL DEFAULT 'zalopay';
    ALTER TABLE payments DROP CONSTRAINT payments_pkey;
    ALTER TABLE payments ADD PRIMARY KEY (provider, app_trans_id, created_ms);
    ALTER TABLE refunds DROP CONSTRAINT refunds_pkey;
    ALTER TABLE refunds ADD PRIMARY KEY (provider, m_refund_id, created_ms);
    ALTER TABLE open_rows DROP CONSTRAINT open_rows_pkey;
    ALTER TABLE open_rows ADD PRIMARY KEY (type, provider, id, created_ms);
    CREATE INDEX payments_provider_created ON payments(provider, created_ms);

    CREATE OR REPLACE FUNCTION ledger_track_open() RETURNS trigger LANGUAGE plpgsql
        SECURITY DEFINER AS $$
    DECLARE  -- TG_TABLE_NAME is the month's partition: the kind comes as an argument
        kind text := TG_ARGV[0];
        key text := to_jsonb(NEW) ->> CASE kind WHEN 'payment' THEN 'app_trans_id'
                                                ELSE 'm_refund_id' END;
    BEGIN
        IF NEW.needs_review OR NEW.state IN ('submitting', 'processing', 'unknown', 'refunding')
        THEN
            INSERT INTO open_rows(type, id, created_ms, terminal_id, cashier, app_trans_id,
                                  state, amount, needs_review, updated_ms, message, provider)
            VALUES (kind, key, NEW.created_ms, NEW.terminal_id, NEW.cashier, NEW.app_trans_id,
                    NEW.state, NEW.amount, NEW.needs_review, NEW.updated_ms, NEW.message,
                    NEW.provider)
            ON CONFLICT (type, provider, id, created_ms) DO UPDATE SET state = EXCLUDED.state,
                needs_review = EXCLUDED.needs_review, updated_ms = EXCLUDED.updated_ms,
                message = EXCLUDED.message;
        ELSIF TG_OP = 'UPDATE' THEN
            DELETE FROM open_rows WHERE type = kind AND provider = NEW.provider AND id = key
                AND created_ms = NEW.created_ms;
        END IF;
        RETURN NULL;
    END $$;
    DO $$ BEGIN
        EXECUTE format('ALTER FUNCTION ledger_track_open() SET search_path = %I, pg_temp',
                       current_schema());
    END $$;
    """,
    # version 5 (a wallet is a folder, issue 40): the wallet's own id of a payment lives in
    # `provider_trans_id` (it was `zp_trans_id`, ZaloPay's name, holding every wallet's ids);
    # the forward-only rule names it anew. Counters still ship it under the payload key
    # `zp_trans_id` (store.py maps the one to the other).
    """
    ALTER TABLE payments RENAME COLUMN zp_trans_id TO provider_trans_id;"""
    + _PAYMENT_FORWARD.format(final_moves=_FINAL_MOVES_V5) + "    ",
    # version 6 (issue 41): the override of a failed payment flagged for review (money found
    # after a shop's QR closed: the rest collected another way) moves it failed -> succeeded,
    # clearing `needs_review`; merge.py and the upsert's guard (store.py) allow the same.
    _PAYMENT_FORWARD.format(final_moves=_FINAL_MOVES_V6) + "    ",
    # version 7 (a late charge): payments carry the journal's `late` (charged after the counter
    # had concluded failed) and `abandoned` (the cashier gave up waiting), refunds `auto` (the
    # automatic return of such a charge); rows shipped before, and rows from a journal whose
    # payloads lack them, hold false. A failed payment moves to succeeded or refunded when it
    # comes `late` (merge.py and the upsert's guard say the same); without it the move is still
    # refused and reported (a journal restored from an older copy and settled differently).
    """
    ALTER TABLE payments ADD COLUMN late boolean NOT NULL DEFAULT false,
        ADD COLUMN abandoned boolean NOT NULL DEFAULT false;
    ALTER TABLE refunds ADD COLUMN auto boolean NOT NULL DEFAULT false;"""
    + _PAYMENT_FORWARD.format(final_moves=_FINAL_MOVES_V7) + "    ",
)

#: How many months ahead `fleet migrate` keeps partitions ready (run it at least that often).
MONTHS_AHEAD = 24

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


class LedgerSchemaNotCurrent(Exception):
    def __init__(self, version: int) -> None:
        super().__init__(
            f"the ledger has schema version {version}, older than this pos-terminal "
            f"({LEDGER_SCHEMA_VERSION}); head office runs `pos-terminal fleet migrate` with "
            "the ledger owner's DSN (counters never change the schema)" if version else
            "the ledger has no schema yet; head office runs `pos-terminal fleet migrate` with "
            "the ledger owner's DSN (counters never change the schema)")
        self.version = version


def check_version(conn: psycopg.Connection[tuple[object, ...]]) -> None:
    """Refuse a ledger whose schema is not exactly the one this program writes."""
    version = current_version(conn)
    if version > LEDGER_SCHEMA_VERSION:
        raise LedgerSchemaTooNew(version)
    if version < LEDGER_SCHEMA_VERSION:
        raise LedgerSchemaNotCurrent(version)


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
        cur.execute("SELECT ledger_ensure_partitions(%s)", (MONTHS_AHEAD,))  # on every run
    return applied
