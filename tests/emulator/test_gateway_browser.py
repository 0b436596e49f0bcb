"""The gateway page in a real headless browser (Debian's chromium driven by Playwright)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from tests.emulator.wirehelp import create_form, post, query, redirect_checksum

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not shutil.which(CHROMIUM):
        pytest.skip(f"no chromium at {CHROMIUM}: install Debian's chromium "
                    "(apt-get install chromium) to run the gateway browser test")
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is not installed (pip install playwright)")
    with sync_api.sync_playwright() as playwright:
        try:
            instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        except Exception as exc:  # a browser that cannot start here is an environment matter
            pytest.skip(f"chromium at {CHROMIUM} does not start under Playwright: {exc}")
        try:
            yield instance
        finally:
            instance.close()


def test_pay_in_the_browser_and_land_on_the_merchant_page(emulator: Any, browser: Any) -> None:
    form = create_form("v2", amount=123000)
    order = post(emulator.base_url, "/v2/create", form)
    page = browser.new_page()
    try:
        page.goto(order["order_url"])
        assert page.title() == "Pay 123,000 VND"
        page.check('input[name="bankcode"][value="VCB"]')
        page.check('input[name="wallet"][value="an"]')
        with page.expect_navigation():
            page.click("#pay")
        landed = urlsplit(page.url)
        assert f"{landed.scheme}://{landed.netloc}{landed.path}" == (
            emulator.base_url + "/merchant/redirect")
        params = dict(parse_qsl(landed.query, keep_blank_values=True))
        assert params["checksum"] == redirect_checksum(params)
        assert (params["apptransid"], params["amount"], params["status"], params["bankcode"]) == (
            form["app_trans_id"], "123000", "1", "VCB")
        assert page.inner_text("#outcome") == "Payment paid"
        assert page.inner_text("#f-apptransid") == form["app_trans_id"]
    finally:
        page.close()
    assert query(emulator.base_url, "v2", form["app_trans_id"])["return_code"] == 1


def test_cancel_in_the_browser(emulator: Any, browser: Any) -> None:
    form = create_form("v2", amount=50000, bank_code="zalopayapp")
    order = post(emulator.base_url, "/v2/create", form)
    page = browser.new_page()
    try:
        page.goto(order["order_url"])
        assert page.locator("#order-qr svg").count() == 1
        with page.expect_navigation():
            page.click("#cancel")
        params = dict(parse_qsl(urlsplit(page.url).query, keep_blank_values=True))
        assert params["status"] == "-329"
        assert page.inner_text("#outcome") == "Payment not paid"
    finally:
        page.close()
    status = query(emulator.base_url, "v2", form["app_trans_id"])
    assert (status["return_code"], status["sub_return_code"]) == (2, -329)


def test_wallets_page_codes_decode_from_a_screenshot(emulator: Any, browser: Any) -> None:
    """What a webcam would see: the QR codes and Code 128 barcodes carry the current codes."""
    import io

    import numpy
    import requests
    import zxingcpp
    from PIL import Image

    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(emulator.base_url + "/wallets")
        refresh = page.get_attribute('meta[http-equiv="refresh"]', "content")
        png = page.screenshot(full_page=True)
    finally:
        page.close()
    wallets = requests.get(emulator.base_url + "/_emulator/wallets", timeout=5).json()["wallets"]
    codes = {w["code"] for w in wallets}
    assert refresh is not None and 1 <= int(refresh) <= 60
    image = numpy.asarray(Image.open(io.BytesIO(png)).convert("L"))
    found = zxingcpp.read_barcodes(image)
    qr = {r.text for r in found if r.format == zxingcpp.BarcodeFormat.QRCode}
    linear = {r.text for r in found if r.format == zxingcpp.BarcodeFormat.Code128}
    assert qr == codes
    assert linear == codes
