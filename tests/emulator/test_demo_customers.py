"""The customers that let README's steps 5 and 7 be practised in the demo: `giang` stays
processing past the terminal's 2 minutes, then pays; `khoa` is charged but every answer names
another amount, so the terminal flags the payment for review (and never calls it paid or not
paid)."""

from __future__ import annotations

from typing import Any

from pos_terminal.checkout import PaymentState
from pos_terminal.config import Settings
from pos_terminal.counter import open_checkout
from pos_terminal.emulator.zalopay.service import Service
from pos_terminal.emulator.zalopay.state import OTHER_AMOUNT_DELTA, Books
from pos_terminal.tui.demo import DEMO_WALLETS
from tests.checkout.conftest import charged, wallet_code

START = 1_800_000_000.0
POLL_DEADLINE_S = 120  # [checkout] poll_deadline_s: when the cashier is asked W or B


def paid_by(books: Books, wallet: str, app_trans_id: str, amount: int) -> Any:
    code = books.current_code(wallet, START).code
    return books.quick_pay(generation="v2", app_trans_id=app_trans_id, app_user="u",
                           amount=amount, description="d", raw_code=code, now=START,
                           wallet_fault=lambda _wallet: False)


def test_giang_stays_processing_past_the_terminals_two_minutes_then_pays() -> None:
    books = Books(code_lifetime_s=60, processing_s=3, clock=lambda: START)
    order = paid_by(books, "giang", "261128_slow", 30_000)
    assert order.state == "processing"
    assert books.order("261128_slow", START + POLL_DEADLINE_S + 10).state == "processing"
    assert books.order("261128_slow", START + 151).state == "succeeded"


def test_khoa_is_charged_and_answered_with_another_amount() -> None:
    books = Books(code_lifetime_s=60, processing_s=3, clock=lambda: START)
    order = paid_by(books, "khoa", "261128_review", 30_000)
    assert order.state == "succeeded" and order.amount == 30_000
    assert Service.order_answer("v2", order)["amount"] == 30_000 + OTHER_AMOUNT_DELTA
    assert books.wallets["khoa"].balance == 20_000_000 - 30_000


def test_the_terminal_flags_khoas_payment_for_review(settings: Settings, emulator: Any) -> None:
    with open_checkout(settings) as co:
        view = co.pay(15_000, wallet_code(emulator, "khoa"))
    assert view.needs_review and view.state is PaymentState.UNKNOWN
    assert "it reports 16.000 ₫ for an order of 15.000 ₫" in view.message
    assert len(charged(emulator, view.app_trans_id)) == 1


def test_the_demo_offers_both_on_keys_5_and_6() -> None:
    """ZaloPay declares them after its first four customers (README's table)."""
    assert [w.id for w in DEMO_WALLETS[4:6]] == ["giang", "khoa"]
