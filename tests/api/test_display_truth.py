"""The customer display tells the truth in a real headless Chromium: it shows the sale under way
when it loads, reloads or reconnects; "Amount to pay" goes once the sale is over; a late charge
and its return are never a green PAID; and it says plainly when the counter is not there."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from pos_terminal.api.display import TEXT
from pos_terminal.api.server import ApiServer, Binding, open_terminal
from pos_terminal.base.i18n import translate_to
from tests.api.conftest import Api, wait_until
from tests.api.test_display import browser, page
from tests.api.test_payos import payos_api
from tests.conftest import ProcessingHold
from tests.wallets.payos_help import bank_app

pytestmark = pytest.mark.browser
__all__ = ["browser", "page", "payos_api"]


def _state_is(page: Any, state: str) -> None:
    page.wait_for_function(f"() => document.getElementById('screen').dataset.state === '{state}'")


def _both(page: Any, key: str) -> None:
    """The headline of `key` in Vietnamese and in English."""
    assert page.inner_text("#headline-en") == TEXT[key]
    assert page.inner_text("#headline-vi") == translate_to("vi", TEXT[key]) != TEXT[key]


def _processing(api: Api, sale_ref: str) -> str:
    def row() -> Any:
        view = api.counter.payments.find_by_sale_ref(sale_ref)
        return view if view is not None and view.state.value == "processing" else None

    wait_until("the payment processing", row)
    return str(row().app_trans_id)


def _pay_in_background(api: Api, body: dict[str, Any]) -> threading.Thread:
    poster = threading.Thread(target=lambda: api.post("/v1/payments", body), daemon=True)
    poster.start()
    return poster


def test_a_display_opened_or_reloaded_during_a_sale_shows_it_then_clears_the_amount_to_pay(
        api: Api, page: Any, hold_processing: ProcessingHold) -> None:
    poster = _pay_in_background(api, {"amount": 64000, "sale_ref": "dt-1",
                                      "payment_code": api.wallet_code("binh")})
    _processing(api, "dt-1")
    page.goto(api.url + "/display")  # opened while the customer confirms: not "Welcome"
    _state_is(page, "checking")
    assert "64.000" in page.inner_text("#amount")
    assert translate_to("vi", TEXT["amount"]) in page.inner_text("#amount-label")
    page.reload()
    _state_is(page, "checking")
    assert "64.000" in page.inner_text("#amount")
    hold_processing.release()
    _state_is(page, "paid")
    poster.join(30)
    _both(page, "paid")
    assert page.inner_text("#amount-label") == ""  # nothing is left to pay
    assert "64.000" in page.inner_text("#amount")
    page.reload()  # reloaded on the result: still the result, never the sale's "to pay"
    _state_is(page, "paid")
    assert page.inner_text("#amount-label") == ""


def test_a_late_charge_and_its_return_are_never_paid_on_the_display(
        api: Api, page: Any, hold_processing: ProcessingHold) -> None:
    page.goto(api.url + "/display")
    wait_until("the display listening", lambda: api.server.terminal.feed.listening)
    poster = _pay_in_background(api, {"amount": 47000, "sale_ref": "dt-late",
                                      "payment_code": api.wallet_code("binh")})
    app_trans_id = _processing(api, "dt-late")
    _state_is(page, "checking")
    api.post("/v1/payments/abort", {"sale_ref": "dt-late"})  # the POS gives up on the sale
    poster.join(30)
    _state_is(page, "unknown")
    page.evaluate("""() => { window.seen = []; new MutationObserver(() => window.seen.push(
        document.getElementById('screen').dataset.state)).observe(
        document.getElementById('screen'), {attributes: true}); }""")
    hold_processing.release()
    # the charge lands after the sale was given up, and is returned: what the server's
    # background reconciliation does every 30 s
    wait_until("the late charge returned", lambda: api.counter.reconcile() and api.get(
        f"/v1/payments/{app_trans_id}").json()["outcome"] == "returned")
    _state_is(page, "returned")
    _both(page, "returned")
    assert "paid" not in page.evaluate("() => window.seen")  # not even for a moment
    assert page.inner_text("#amount-label") == ""


def test_the_display_says_when_the_counter_is_not_there_and_shows_the_sale_when_it_is_back(
        api: Api, page: Any, hold_processing: ProcessingHold) -> None:
    page.goto(api.url + "/display")
    wait_until("the display listening", lambda: api.server.terminal.feed.listening)
    _both(page, "welcome")
    port = int(api.url.rsplit(":", 1)[1])
    api.server.stop()  # `serve` stopped: the counter's stream is gone
    _state_is(page, "offline")
    _both(page, "offline")
    # Meanwhile the cashier starts a sale on the counter's own screen; the server comes back
    # (its feed follows the counter before it listens), and the page, reconnecting by itself,
    # shows that sale at once: it was under way before the page connected again.
    terminal = open_terminal(api.counter)
    counter = api.counter
    sale = counter.payments.start_sale()
    cashier = threading.Thread(target=lambda: counter.payments.pay(
        83000, api.wallet_code("binh"), sale=sale), daemon=True)
    cashier.start()
    wait_until("the sale processing", lambda: any(
        data.get("state") == "processing" for _n, data, _age in terminal.feed.recent()[0]))
    again = ApiServer(terminal, Binding("127.0.0.1", port)).start()
    try:
        _state_is(page, "checking")
        assert "83.000" in page.inner_text("#amount")
        hold_processing.release()
        _state_is(page, "paid")
        cashier.join(30)
    finally:
        again.stop()


def test_a_vietqr_paid_in_part_shows_what_arrived_and_what_is_missing(
        payos_api: Api, page: Any) -> None:
    page.goto(payos_api.url + "/display")
    wait_until("the display listening", lambda: payos_api.server.terminal.feed.listening)
    body = {"amount": 60000, "sale_ref": "dt-part", "method": "qr", "provider": "payos"}
    assert payos_api.post("/v1/payments", body).status_code == 200
    _state_is(page, "qr")
    bank_app(payos_api.emulator, "pay", 25_000).join()
    _state_is(page, "underpaid")  # never a green PAID
    _both(page, "underpaid")
    part = page.inner_text("#part")
    assert "25.000" in part and "35.000" in part, part
    for lang in ("vi", "en"):
        assert translate_to(lang, TEXT["arrived"]) in part and translate_to(
            lang, TEXT["missing"]) in part, part
    assert "60.000" in page.inner_text("#amount")
    page.reload()  # reloaded: still what arrived and what is missing
    _state_is(page, "underpaid")
    assert "35.000" in page.inner_text("#part")


def test_a_vietqr_sale_is_drawn_large_read_back_by_a_camera_then_paid(
        payos_api: Api, page: Any) -> None:
    """The POS asks for a VietQR sale: the display draws payOS's VietQR large beside the
    amount, and the picture of the page reads back (as a bank app's camera would) as the QR the
    API answered; the whole transfer makes it PAID."""
    import io

    import numpy
    import zxingcpp
    from PIL import Image

    page.goto(payos_api.url + "/display")
    wait_until("the display listening", lambda: payos_api.server.terminal.feed.listening)
    body = {"amount": 47000, "sale_ref": "dt-vietqr", "method": "qr", "provider": "payos"}
    answer = payos_api.post("/v1/payments", body)
    assert answer.status_code == 200, answer.text
    content = answer.json()["qr_content"]
    assert content.startswith("000201010212")
    _state_is(page, "qr")
    page.wait_for_function("() => document.getElementById('qr').naturalWidth > 0")
    assert "47.000" in page.inner_text("#amount")
    box = page.locator("#qr").bounding_box()
    view = page.viewport_size
    assert box is not None and view is not None
    assert min(box["width"], box["height"]) >= 0.4 * min(view["width"], view["height"]), box
    picture = Image.open(io.BytesIO(page.screenshot())).convert("L")
    read = [r.text for r in zxingcpp.read_barcodes(numpy.asarray(picture))
            if r.format == zxingcpp.BarcodeFormat.QRCode]
    assert read == [content]
    bank_app(payos_api.emulator, "pay").join()
    _state_is(page, "paid")
    _both(page, "paid")
