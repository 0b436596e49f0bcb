"""The customer display in a real headless Chromium: the amount, then PAID, after a payment
made through the Terminal API; in Vietnamese and English."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy
import pytest
import requests
import zxingcpp

from pos_terminal.api.display import TEXT
from pos_terminal.api.server import ApiServer, Binding, ServeError, open_terminal
from pos_terminal.base.i18n import translate_to
from pos_terminal.config import Settings
from pos_terminal.counter import open_counter
from pos_terminal.counter.admin import ApiTokens
from tests.api.conftest import Api, wait_until
from tests.api.tls import outside_address
from tests.conftest import ProcessingHold
from tests.emulator.test_gateway_browser import browser
from tests.listeners import self_signed

pytestmark = pytest.mark.browser
__all__ = ["browser"]


def csp_refusals(page: Any) -> list[str]:
    """What the page's Content-Security-Policy refused (Chromium says so on the console), and
    script errors: under a policy that blocked the script, nothing would work at all."""
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text)
            if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: refused.append(f"script error: {e}"))
    return refused


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A Chromium page that fails its test if the display's CSP refused anything."""
    opened = browser.new_page()
    refused = csp_refusals(opened)
    try:
        yield opened
        assert refused == []
    finally:
        opened.close()


def test_the_display_shows_the_amount_then_paid(api: Api, page: Any,
                                                hold_processing: ProcessingHold) -> None:
    page.goto(api.url + "/display")
    assert page.inner_text("#headline-en") == "Welcome"
    wait_until("the display listening", lambda: api.server.terminal.feed.listening)
    answers: list[dict[str, Any]] = []
    body = {"amount": 125000, "sale_ref": "disp-1", "payment_code": api.wallet_code("binh")}
    poster = threading.Thread(target=lambda: answers.append(api.post("/v1/payments",
                                                                     body).json()))
    poster.start()
    page.wait_for_function(
        "() => document.getElementById('amount').textContent.includes('125.000')")
    assert page.get_attribute("#screen", "data-state") == "checking"
    hold_processing.release()
    page.wait_for_function("() => document.getElementById('screen').dataset.state === 'paid'")
    poster.join(30)
    assert answers[0]["state"] == "succeeded"
    assert page.inner_text("#headline-en") == TEXT["paid"]
    assert page.inner_text("#headline-vi") == translate_to("vi", TEXT["paid"])
    assert page.inner_text("#headline-vi") != TEXT["paid"]  # really Vietnamese
    assert "125.000" in page.inner_text("#amount")


def test_the_display_shows_the_gateway_qr_the_cashier_shows(api: Api, page: Any) -> None:
    page.goto(api.url + "/display")
    wait_until("the display listening", lambda: api.server.terminal.feed.listening > 0)
    order = api.counter.payments.create_gateway_order(88000, "table 4")  # the UI's Show QR
    page.wait_for_function("() => document.getElementById('screen').dataset.state === 'qr'")
    page.wait_for_function("() => document.getElementById('qr').naturalWidth > 0")  # drawn
    assert page.inner_text("#headline-en") == TEXT["qr"]
    assert "88.000" in page.inner_text("#amount")
    svg = requests.get(f"{api.url}/display/qr/{order.app_trans_id}.svg", timeout=10)
    assert svg.headers["content-type"].startswith("image/svg+xml")
    # Issue 29: the QR the customer sees is the answer's qr_code (VietQR: ZaloPay and any
    # banking app), read back from the drawn page as a phone's camera would.
    import io

    from PIL import Image

    png = page.locator("#qr").screenshot()
    image = numpy.asarray(Image.open(io.BytesIO(png)).convert("L"))
    read = [r.text for r in zxingcpp.read_barcodes(image)
            if r.format == zxingcpp.BarcodeFormat.QRCode]
    assert order.qr_code and order.qr_code.startswith("000201010212")
    assert read == [order.qr_code]


def test_a_declined_payment_shows_not_paid(api: Api, page: Any) -> None:
    page.goto(api.url + "/display")
    wait_until("the display listening", lambda: api.server.terminal.feed.listening)
    api.post("/v1/payments", {"amount": 70000, "sale_ref": "disp-2",
                              "payment_code": api.wallet_code("dung")})
    page.wait_for_function(
        "() => document.getElementById('screen').dataset.state === 'not_paid'")
    assert page.inner_text("#headline-en") == TEXT["not_paid"]


def test_beyond_loopback_the_api_needs_tls_and_the_display_a_display_token(
        settings: Settings, tmp_path: Path) -> None:
    host = outside_address()
    if host is None:
        pytest.skip("this machine has no address beyond loopback")
    with pytest.raises(ServeError):  # no certificate: refused before anything listens
        Binding(host, 0).check()
    cert, key = self_signed(tmp_path, host)
    counter = open_counter(settings)
    server = ApiServer(open_terminal(counter), Binding(host, 0, cert, key)).start()
    try:
        assert server.url.startswith(f"https://{host}:")

        def display(token: str | None) -> requests.Response:
            return requests.get(server.url + "/display", params={"token": token} if token
                                else None, verify=str(cert), timeout=10)

        assert display(None).status_code == 401
        book = ApiTokens(counter.journal)
        assert display(book.add("till", ("pay",))[0]).status_code == 403
        tablet = book.add("tablet", ("display",))[0]
        shown = display(tablet)
        assert shown.status_code == 200 and "/display/static/display.js?token=" in shown.text

        def script(token: str | None) -> requests.Response:
            return requests.get(server.url + "/display/static/display.js", params={
                "token": token} if token else None, verify=str(cert), timeout=10)

        assert script(None).status_code == 401
        assert script(tablet).status_code == 200 and "EventSource" in script(tablet).text
        assert requests.get(server.url + "/openapi.json", verify=str(cert),
                            timeout=10).status_code == 200
    finally:
        server.stop()
        counter.close()


def _modules(svg: str) -> numpy.ndarray:
    """segno's SVG read back: its path (module units, scaled by a transform) is runs of dark
    modules, "M x y" / "m dx dy" moving and "h n" drawing one row's run."""
    width = int(re.search(r'width="(\d+)"', svg).group(1))  # type: ignore[union-attr]
    scale = int(re.search(r"scale\((\d+)\)", svg).group(1))  # type: ignore[union-attr]
    size = width // scale
    image = numpy.full((size, size), 255, dtype=numpy.uint8)
    path = re.search(r' d="([^"]+)"', svg).group(1)  # type: ignore[union-attr]
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?:\s(-?[\d.]+))?", path):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            image[int(y), int(x):int(x + float(a))] = 0
            x += float(a)
    return numpy.kron(image, numpy.ones((8, 8), dtype=numpy.uint8))


def test_the_display_draws_the_orders_vietqr_not_its_url(api: Api) -> None:
    # Issue 29 item 5: the SVG is the QR of the v2 answer's qr_code, decoded from its modules.
    order = api.counter.payments.create_gateway_order(88000, "table 4")
    assert order.qr_code and order.qr_code.startswith("000201010212")
    svg = requests.get(f"{api.url}/display/qr/{order.app_trans_id}.svg", timeout=10).text
    read = [r.text for r in zxingcpp.read_barcodes(_modules(svg))
            if r.format == zxingcpp.BarcodeFormat.QRCode]
    assert read == [order.qr_code]
