"""The forward-only merge rules, row against row (no database needed)."""

from __future__ import annotations

from typing import Any

import pytest

from pos_terminal.ledger.merge import decide_payment, decide_refund


def payment(**changes: Any) -> dict[str, Any]:
    row = {"terminal_id": "T1", "amount": 5000, "kind": "quick_pay", "created_ms": 1,
           "state": "processing", "zp_trans_id": None, "refunded_amount": 0, "z_number": None,
           "updated_ms": 10}
    return {**row, **changes}


def refund(**changes: Any) -> dict[str, Any]:
    row = {"terminal_id": "T1", "amount": 1000, "app_trans_id": "a", "state": "refunding",
           "refund_id": None, "z_number": None, "updated_ms": 10, "created_ms": 5}
    return {**row, **changes}


def fields(verdict: Any) -> list[str]:
    return [p.field for p in verdict.problems]


def test_new_rows_and_newer_snapshots_are_taken_older_ones_skipped() -> None:
    assert decide_payment(None, payment(), "T1").apply
    assert decide_payment(payment(), payment(state="succeeded", updated_ms=11), "T1").apply
    stale = decide_payment(payment(updated_ms=20), payment(state="unknown"), "T1")
    assert not stale.apply and not stale.problems


SETTLED = {"state": "succeeded", "zp_trans_id": "9", "refunded_amount": 1000, "z_number": 3}


@pytest.mark.parametrize("change, field", [
    ({"state": "failed"}, "state"),
    ({"zp_trans_id": "other"}, "zp_trans_id"),
    ({"refunded_amount": 0}, "refunded_amount"),
    ({"z_number": 4}, "z_number"),
    ({"amount": 6000}, "amount"),
])
def test_a_final_payment_is_never_moved_and_the_difference_reported(change: dict[str, Any],
                                                                     field: str) -> None:
    ledger = payment(**SETTLED, updated_ms=20)
    assert decide_payment(ledger, payment(**SETTLED, updated_ms=30), "T1").apply
    verdict = decide_payment(ledger, payment(**{**SETTLED, **change}, updated_ms=30), "T1")
    assert not verdict.apply and fields(verdict) == [field]


def test_a_final_payment_still_takes_what_its_state_machine_allows() -> None:
    ledger = payment(state="succeeded", zp_trans_id="9", updated_ms=20)
    refunded = payment(state="refunded", zp_trans_id="9", refunded_amount=5000, z_number=2,
                       updated_ms=30)
    assert decide_payment(ledger, refunded, "T1").apply


def test_a_payment_shipped_by_another_terminal_is_reported() -> None:
    verdict = decide_payment(payment(), payment(updated_ms=30), "T2")
    assert not verdict.apply and fields(verdict) == ["terminal_id"]


def test_refund_rules() -> None:
    assert decide_refund(refund(), refund(state="refunded", refund_id="r", updated_ms=11),
                         "T1").apply
    done = refund(state="refunded", refund_id="r", updated_ms=20)
    assert fields(decide_refund(done, refund(state="failed", updated_ms=30), "T1")) == [
        "state", "refund_id"]
    assert fields(decide_refund(done, refund(state="refunded", refund_id="r", amount=2,
                                             updated_ms=30), "T1")) == ["amount"]
    # its time names the ledger's month partition: it never changes either
    assert fields(decide_refund(refund(), refund(created_ms=6, updated_ms=30), "T1")) == [
        "created_ms"]
