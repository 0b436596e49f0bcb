"""A supervisor's settlement of a payOS QR paid in part stands against payOS's notices, through
the Terminal API for real (the emulator's payOS POSTs its signed notices to the counter):

- the genuine notice of the part transfer, POSTed again after the shop returned what arrived
  (override not paid), changes nothing: the row and its events identical, nothing published;
- a NEW transfer after the settlement is found by its notice and flagged for a person with a
  sentence that keeps what was decided, never a late success of money the shop sent back."""

from __future__ import annotations

import requests

from pos_terminal.journal import PaymentState
from tests.api import test_payos_webhook as webhook
from tests.api.conftest import Api, wait_until
from tests.api.test_payos_webhook import Published, _deliveries, _post, _qr_sale_given_up, _rows

shop, shop_cli = webhook.shop, webhook.shop_cli  # its counter taking payOS, webhook registered


def _pay(api: Api, code: int, amount: int) -> None:
    requests.post(f"{api.emulator.base_url}/_emulator/payos/requests/{code}/pay",
                  json={"amount": amount}, timeout=30).raise_for_status()


def _part_returned_by_the_shop(api: Api, sale_ref: str) -> tuple[str, int, str]:
    """A 60.000 ₫ QR closed empty, 15.000 ₫ transferred after (flagged by its notice), returned
    by the shop and settled not paid by a supervisor: (app_trans_id, orderCode, the notice)."""
    app_trans_id, code = _qr_sale_given_up(api, sale_ref)
    _pay(api, code, 15_000)
    wait_until("the part flagged", lambda: api.counter.payments.get(app_trans_id).needs_review)
    flagged = api.counter.payments.get(app_trans_id)
    assert (flagged.state, flagged.why.code) == (PaymentState.FAILED, "shop_qr.closed_with_money")
    notice = next(d["body"] for d in _deliveries(api) if d["orderCode"] == code)
    settled = api.counter.payments.override(app_trans_id, PaymentState.FAILED, "VCB 123", "boss")
    assert (settled.state, settled.needs_review, settled.why.code) == (
        PaymentState.FAILED, False, "override.part_returned")
    assert settled.why.params["amount"] == 15_000
    return app_trans_id, code, notice


def test_a_replayed_notice_leaves_a_supervisors_settlement_as_it_is(shop: Api) -> None:
    app_trans_id, _code, notice = _part_returned_by_the_shop(shop, "RS1")
    published = Published(shop)
    before = _rows(shop)
    for _ in range(2):
        again = _post(shop, notice.encode("utf-8"))
        assert again.status_code == 200 and again.json() == {"received": True}, again.text
    assert _rows(shop) == before  # not flagged again, its sentence and events unchanged
    assert published.of(app_trans_id) == []
    view = shop.counter.payments.get(app_trans_id)
    assert (view.needs_review, view.why.code) == (False, "override.part_returned")


def test_a_new_transfer_after_the_settlement_is_flagged_keeping_the_decision(shop: Api) -> None:
    app_trans_id, code, _notice = _part_returned_by_the_shop(shop, "RS2")
    _pay(shop, code, 45_000)  # the "rest": payOS now counts all 60.000 ₫, 15.000 ₫ went back
    wait_until("the new transfer flagged",
               lambda: shop.counter.payments.get(app_trans_id).needs_review)
    view = shop.counter.payments.get(app_trans_id)
    assert (view.state, view.late, view.why.code) == (
        PaymentState.FAILED, False, "shop_qr.more_after_settled")
    assert (view.why.params["amount"], view.why.params["returned"]) == (60_000, 15_000)
    assert "settled by hand" in view.message and "returned by the shop" in view.message
    assert "VCB 123" in view.message


def test_an_open_qr_says_each_newer_part_that_arrived(shop: Api) -> None:
    """An open QR (not closed, not flagged) paid in two parts: each notice makes it say what
    arrived in all and what is still missing."""
    order = shop.counter.payments.create_gateway_order(45_000, provider="payos")
    app_trans_id = order.app_trans_id
    for part, arrived in ((20_000, 20_000), (10_000, 30_000)):
        _pay(shop, int(app_trans_id), part)
        wait_until(f"{arrived} seen", lambda arrived=arrived: shop.counter.payments.get(
            app_trans_id).why.params.get("amount") == arrived)
        view = shop.counter.payments.get(app_trans_id)
        assert not view.is_final and not view.needs_review
        assert (view.why.code, view.why.params["missing"]) == (
            "shop_qr.underpaid", 45_000 - arrived)
