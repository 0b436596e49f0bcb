"""An error after a payment's intent names that payment, even with another one paid in parallel
on the same counter (the Terminal API runs each request on its own thread)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from pos_terminal.counter import PaymentError
from tests.api.conftest import Api, wait_until


class WalletBroke(RuntimeError):
    """What nobody planned for: one payment fails after its intent with an unexpected error."""


def test_parallel_payments_each_error_names_its_own_payment(api: Api) -> None:
    journal = api.counter.checkout.journal
    real_claim = journal.claim_send
    other_sending = threading.Event()

    def claim_send(app_trans_id: str, lease_ttl_ms: int) -> bool:
        # the failing payment breaks only once the other one has recorded its intent and is
        # about to be sent: a shared "last intent" would then name the other payment
        if journal.get(app_trans_id).amount == 31000:
            assert other_sending.wait(30)
            raise WalletBroke("the journal's lease broke")
        other_sending.set()
        return real_claim(app_trans_id, lease_ttl_ms)

    errors: list[PaymentError] = []
    sub = api.counter.bus.subscribe(PaymentError, errors.append)
    journal.claim_send = claim_send  # type: ignore[method-assign]
    try:
        with ThreadPoolExecutor(2) as pool:
            broken = pool.submit(api.post, "/v1/payments", {
                "amount": 31000, "sale_ref": "BROKEN-1", "payment_code": api.wallet_code("an")})
            wait_until("the failing payment's intent",
                       lambda: api.counter.payments.find_by_sale_ref("BROKEN-1") is not None)
            fine = pool.submit(api.post, "/v1/payments", {
                "amount": 42000, "sale_ref": "FINE-2", "payment_code": api.wallet_code("binh")})
            answer, paid = broken.result(), fine.result()
    finally:
        journal.claim_send = real_claim  # type: ignore[method-assign]
    broken_id = api.counter.payments.find_by_sale_ref("BROKEN-1").app_trans_id
    fine_id = api.counter.payments.find_by_sale_ref("FINE-2").app_trans_id
    assert broken_id != fine_id
    assert paid.status_code == 200 and paid.json()["app_trans_id"] == fine_id
    wait_until("the payment_error event", lambda: errors)
    api.counter.bus.unsubscribe(sub)
    assert [(e.app_trans_id, e.view.sale_ref if e.view else None) for e in errors] == [
        (broken_id, "BROKEN-1")]
    assert answer.status_code == 500
    assert answer.json()["error"]["app_trans_id"] == broken_id


def test_parallel_refunds_each_error_names_its_own_refund(api: Api) -> None:
    paid = api.post("/v1/payments", {"amount": 50000, "sale_ref": "TWO-REFUNDS",
                                     "payment_code": api.wallet_code("an")}).json()
    journal = api.counter.checkout.journal
    real_claim = journal.refund_claim_send
    other_recorded = threading.Event()

    def claim(m_refund_id: str, ttl_ms: int) -> bool:
        # the failing refund breaks once the other one has been recorded after it: a shared
        # "last refund" would then name the other one
        if journal.get_refund(m_refund_id).refund_ref == "RET-BROKEN":
            assert other_recorded.wait(30)
            raise WalletBroke("the journal's lease broke")
        other_recorded.set()
        return real_claim(m_refund_id, ttl_ms)

    journal.refund_claim_send = claim  # type: ignore[method-assign]
    try:
        with ThreadPoolExecutor(2) as pool:
            broken = pool.submit(api.post, "/v1/refunds", {
                "app_trans_id": paid["app_trans_id"], "amount": 7000, "refund_ref": "RET-BROKEN"})
            wait_until("the failing refund's intent",
                       lambda: api.counter.refunds.find_by_ref("RET-BROKEN") is not None)
            fine = pool.submit(api.post, "/v1/refunds", {
                "app_trans_id": paid["app_trans_id"], "amount": 9000, "refund_ref": "RET-FINE"})
            answer, done = broken.result(), fine.result()
    finally:
        journal.refund_claim_send = real_claim  # type: ignore[method-assign]
    broken_id = api.counter.refunds.find_by_ref("RET-BROKEN").m_refund_id
    fine_id = api.counter.refunds.find_by_ref("RET-FINE").m_refund_id
    assert broken_id != fine_id
    assert done.status_code == 200 and done.json()["m_refund_id"] == fine_id
    assert answer.status_code == 500
    assert answer.json()["error"]["m_refund_id"] == broken_id
