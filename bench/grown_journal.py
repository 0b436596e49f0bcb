"""Journals grown to N payments by the journal's own write path (bench_journal_scale.py).

Every row is written by the methods a counter uses (record_intent with its lease and code claim,
claim_send, transition, refunds, late successes with their automatic return, shifts, Z reports
that prune the outbox as a counter without a ledger does), a day of them in one transaction
(Journal.bulk) so that 1,000,000 payments take minutes. 800 payments a day, as a busy counter:
the last day stays open (the X report's day). The grown files are kept under bench/.corpus/
(git-ignored), named by size and schema; a file of another schema is grown again.

Usage: python bench/grown_journal.py 10000 [1000000 ...]
"""

from __future__ import annotations

import hashlib
import random
import sys
import time
from pathlib import Path

from pos_terminal.journal import SCHEMA_VERSION, Journal, PaymentState, RefundState
from pos_terminal.journal.cashiers import Cashiers
from pos_terminal.journal.schema import MIGRATIONS

S = PaymentState
CORPUS = Path(__file__).resolve().parent / ".corpus"
PER_DAY = 800
DAY_MS = 24 * 3600 * 1000
OPEN_MS = 12 * 3600 * 1000  # a day's payments come within its first 12 hours
LEASE_MS = 60_000
CODE_WINDOW_MS = 120_000
CASHIERS = (("c1", "Lan"), ("c2", "Minh"))
ITEMS = ({"itemid": "cf", "itemname": "Cà phê sữa đá", "itemprice": 25000, "itemquantity": 1},
         {"itemid": "bm", "itemname": "Bánh mì thịt", "itemprice": 30000, "itemquantity": 2},
         {"itemid": "tr", "itemname": "Trà đào", "itemprice": 35000, "itemquantity": 1})


class Clock:
    """The journal's clock, moved by the grower."""

    def __init__(self, t: int) -> None:
        self.t = t

    def __call__(self) -> int:
        return self.t


def corpus_path(payments: int) -> Path:
    """Named by the schema it was grown with: a changed migration grows it again."""
    schema = hashlib.sha256("".join(MIGRATIONS).encode()).hexdigest()[:8]
    return CORPUS / f"journal-{payments}-v{SCHEMA_VERSION}-{schema}.sqlite3"


def grown(payments: int, *, quiet: bool = False) -> Path:
    """The path of a journal grown to `payments` (grown now unless already cached)."""
    path = corpus_path(payments)
    if path.exists():
        return path
    CORPUS.mkdir(exist_ok=True)
    for old in CORPUS.glob(f"journal-{payments}-v*.sqlite3*"):
        old.unlink()
    part = path.with_suffix(".part")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{part}{suffix}").unlink(missing_ok=True)
    started = time.monotonic()
    grow(part, payments, quiet=quiet)
    part.rename(path)
    if not quiet:
        print(f"  grew {payments:,} payments in {time.monotonic() - started:.0f} s: {path}",
              flush=True)
    return path


def grow(path: Path, payments: int, *, seed: int = 24, quiet: bool = False) -> None:
    rng = random.Random(seed)
    days = -(-payments // PER_DAY)
    clock = Clock(int(time.time() * 1000) - days * DAY_MS)
    journal = Journal.open(path, clock=clock)
    try:
        journal._conn.execute("PRAGMA synchronous=OFF")  # a grown file, not payments: speed
        book = Cashiers(journal)
        for cid, name in CASHIERS:
            book.add(cid, name, "482916")
        start, n = clock.t, 0
        for day in range(days):
            day0 = start + day * DAY_MS
            count = min(PER_DAY, payments - n)
            cid = CASHIERS[day % 2][0]
            with journal.bulk():
                clock.t = day0
                book.open_shift(cid)
                for i in range(count):
                    clock.t = day0 + 60_000 + i * (OPEN_MS // max(1, count))
                    _payment(journal, rng, f"{day:05d}_{i:04d}", cid, clock)
                clock.t = day0 + OPEN_MS + 60_000
                if day < days - 1:
                    book.close_shift(cid)
                    clock.t = day0 + OPEN_MS + 120_000
                    journal.close_day(ledger=False)
            n += count
            if not quiet and day % 50 == 0:
                print(f"  ... {n:,} payments", flush=True)
    finally:
        journal.close()


def _payment(journal: Journal, rng: random.Random, key: str, cashier: str, clock: Clock) -> None:
    """One payment as the checkout writes it, with the outcome mix of a busy counter."""
    tid = f"{key[:5]}_pos01_{key[6:]}{rng.randrange(10**6):06d}"
    items = rng.sample(ITEMS, rng.randint(1, 3))
    amount = sum(int(it["itemprice"]) * int(it["itemquantity"]) for it in items)  # type: ignore[call-overload]
    code = "".join(rng.choice("0123456789") for _ in range(18))
    journal.record_intent(
        app_trans_id=tid, amount=amount, generation="v2", description=f"Order {key}",
        items=items, payment_code=code, payload_hash=f"{rng.getrandbits(256):064x}",
        message="Sending the payment to the wallet service. Do not charge again.",
        lease_ttl_ms=LEASE_MS, code_window_ms=CODE_WINDOW_MS, cashier_id=cashier)
    journal.claim_send(tid, LEASE_MS)
    clock.t += 1200
    r = rng.random()
    if r < 0.95:
        if r < 0.05:  # the service took a moment: processing, then a status query
            journal.transition(tid, S.PROCESSING, message="The customer is confirming…",
                               return_code=3, sub_return_code=-1, release=True)
            clock.t += 2000
            _succeed(journal, tid, poll=True)
        else:
            _succeed(journal, tid, release=True)
        if r > 0.94:  # a refund of part of it, later the same day
            clock.t += 60_000
            _refund(journal, tid, amount // 2, auto=False)
        return
    journal.transition(tid, S.FAILED, message="The wallet refused the payment: balance too low.",
                       return_code=-54, sub_return_code=-54,
                       service_message="Số dư không đủ", release=True)
    if r > 0.995:  # charged after all: a late success, returned automatically
        clock.t += 30_000
        journal.record_late_success(tid, message="Charged after the terminal said failed.",
                                    return_code=1, sub_return_code=1, service_message="OK",
                                    zp_trans_id=f"{rng.randrange(10**12):012d}")
        _refund(journal, tid, None, auto=True)


def _succeed(journal: Journal, tid: str, *, poll: bool = False, release: bool = False) -> None:
    journal.transition(tid, S.SUCCEEDED, message="Paid: the wallet service confirmed the payment.",
                       return_code=1, sub_return_code=1, service_message="Giao dịch thành công",
                       zp_trans_id=tid[-12:], count_poll=poll, release=release)


def _refund(journal: Journal, tid: str, amount: int | None, *, auto: bool) -> None:
    mid = f"r{tid}"
    journal.record_refund_intent(m_refund_id=mid, app_trans_id=tid, amount=amount,
                                 description="Refund", request_ms=journal.now(),
                                 lease_ttl_ms=LEASE_MS, auto=auto)
    journal.refund_claim_send(mid, LEASE_MS)
    journal.refund_transition(mid, RefundState.REFUNDED, message="Refunded.", return_code=1,
                              sub_return_code=1, refund_id=mid[-10:], release=True)


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(grown(int(arg)))
