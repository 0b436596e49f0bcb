"""Take a journal of today's schema back to the version before the wallet providers' migration
(issue 31), as a journal written by the previous release looks: no `provider` columns, its
triggers and index gone, the outbox's payloads without `provider`."""

from __future__ import annotations

import sqlite3

from pos_terminal.journal.outbox import cashier_triggers_migration
from pos_terminal.journal.schema import MIGRATIONS, PROVIDER_MIGRATION


def undo_providers(conn: sqlite3.Connection) -> int:
    """Drop what PROVIDER_MIGRATION added (and the later rename of `zp_trans_id`); returns the
    user_version before it."""
    conn.execute("ALTER TABLE payments RENAME COLUMN provider_trans_id TO zp_trans_id")
    for trigger in ("payments_provider_fixed", "refunds_provider_fixed",
                    "refunds_provider_of_payment"):
        conn.execute(f"DROP TRIGGER {trigger}")
    # the outbox triggers as the previous version had them (a refund's authorised_by only)
    conn.executescript("BEGIN;" + cashier_triggers_migration(
        ("payment", "refund"), {"refund": ("authorised_by",)}) + "COMMIT;")
    conn.execute("ALTER TABLE payments DROP COLUMN provider")
    conn.execute("ALTER TABLE refunds DROP COLUMN provider")
    before = MIGRATIONS.index(PROVIDER_MIGRATION)
    conn.execute(f"PRAGMA user_version={before}")
    return before
