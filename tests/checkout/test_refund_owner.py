"""Issue 22 item 2: a refund's id is its own call's, never a Checkout's shared "last refund".

Two refunds run at once on one Checkout (the Terminal API runs each request on its own thread;
the TUI refunds while the background reconciler returns a late charge). One breaks after its
refund was recorded, while the other one has been recorded after it: what escapes names the
broken refund, and the other call answers with its own row.
"""

from __future__ import annotations

import io
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from pos_terminal.checkout import Checkout, RefundState
from pos_terminal.checkout.errors import refund_of
from pos_terminal.config import Settings
from pos_terminal.counter import Counter
from pos_terminal.headless import CounterLoop
from pos_terminal.journal import RefundNotAllowed
from tests.checkout.conftest import wait_until, wallet_code


class LeaseBroke(RuntimeError):
    """What nobody planned for, after the refund's intent was recorded."""


def test_two_refunds_at_once_each_get_their_own_id(settings: Settings, emulator: Any) -> None:
    with Checkout(settings) as co:
        paid = co.pay(50_000, wallet_code(emulator, "an"))
        journal = co.journal
        real_claim = journal.refund_claim_send
        other_recorded = threading.Event()

        def claim(m_refund_id: str, ttl_ms: int) -> bool:
            # the 7 000 refund breaks only once the 9 000 one has been recorded after it: a
            # shared "last refund" would then name the 9 000 one
            if journal.get_refund(m_refund_id).amount == 7_000:
                assert other_recorded.wait(30)
                raise LeaseBroke("the journal's lease broke")
            other_recorded.set()
            return real_claim(m_refund_id, ttl_ms)

        journal.refund_claim_send = claim  # type: ignore[method-assign]
        try:
            with ThreadPoolExecutor(2) as pool:
                broken = pool.submit(co.refund, paid.app_trans_id, 7_000, "broken")
                wait_until("the first refund recorded",
                           lambda: journal.refunds(paid.app_trans_id))
                fine = pool.submit(co.refund, paid.app_trans_id, 9_000, "fine")
                done = fine.result()
                with pytest.raises(LeaseBroke) as escaped:
                    broken.result()
        finally:
            journal.refund_claim_send = real_claim  # type: ignore[method-assign]
        by_amount = {r.amount: r for r in journal.refunds(paid.app_trans_id)}
        assert by_amount[7_000].m_refund_id != by_amount[9_000].m_refund_id
        assert refund_of(escaped.value) == by_amount[7_000].m_refund_id
        assert (done.m_refund_id, done.state) == (by_amount[9_000].m_refund_id,
                                                  RefundState.REFUNDED)
        assert not hasattr(co, "last_refund")


def test_an_error_before_the_refund_is_recorded_names_no_refund(settings: Settings,
                                                                emulator: Any) -> None:
    with Checkout(settings) as co:
        paid = co.pay(20_000, wallet_code(emulator, "binh"))
        co.refund(paid.app_trans_id, 5_000)
        with pytest.raises(RefundNotAllowed) as refused:
            co.refund(paid.app_trans_id, 50_000)  # more than is left: nothing recorded
        assert refund_of(refused.value) is None


def test_headless_refund_broken_after_it_was_recorded_answers_with_that_refund(
        settings: Settings, emulator: Any) -> None:
    out = io.StringIO()
    with Checkout(settings) as co:
        paid = co.pay(30_000, wallet_code(emulator, "an"))
        loop = CounterLoop(Counter(settings, co), None, out)
        journal = co.journal

        def claim(m_refund_id: str, ttl_ms: int) -> bool:
            raise LeaseBroke("the journal's lease broke")

        journal.refund_claim_send = claim  # type: ignore[method-assign]
        try:
            assert loop.handle(f"REFUND {paid.app_trans_id} 5000") is True
        finally:
            loop.close()
        [refund] = journal.refunds(paid.app_trans_id)
    answer = json.loads(out.getvalue().splitlines()[-1])
    assert (answer["ok"], answer["command"]) == (False, "REFUND")
    assert (answer["m_refund_id"], answer["state"]) == (refund.m_refund_id, "refunding")
