"""The emulator's web pages: the wallets page, the gateway order page and a merchant landing page.

Plain server-rendered HTML (no JavaScript needed): forms post back, the server answers 303
redirects, the wallets page refreshes itself with a meta refresh when its first code expires.
"""

from __future__ import annotations

import hmac
import math
import re
import time
from html import escape
from urllib.parse import parse_qs, urlencode

import segno
from aiohttp import web

from pos_terminal import wallet_registry
from pos_terminal.emulator.appkeys import SERVICE_KEY
from pos_terminal.emulator.barcodes import code128_svg
from pos_terminal.emulator.parts import PARTS_KEY
from pos_terminal.emulator.zalopay import banks, wire
from pos_terminal.emulator.zalopay.emvqr import emv_qr
from pos_terminal.emulator.zalopay.service import Service
from pos_terminal.emulator.zalopay.state import WALLETS, Order
from pos_terminal.emulator.zalopay.verify import hmac_sha256_hex

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5rem;background:#f4f6f8;color:#1d2630}
h1{font-size:1.4rem} .cards{display:flex;flex-wrap:wrap;gap:1rem}
.card{background:#fff;border-radius:10px;padding:1rem;box-shadow:0 1px 4px #0002;min-width:18rem}
.code{font-family:monospace;font-size:1.2rem;letter-spacing:.1em}
.muted{color:#65727f;font-size:.9rem} button{font-size:1rem;padding:.5rem 1.2rem;margin:.3rem}
.pay{background:#0a7d38;color:#fff;border:0;border-radius:6px}
.cancel{background:#fff;border:1px solid #a33;color:#a33;border-radius:6px}
fieldset{border:1px solid #ccd;border-radius:8px;margin:.8rem 0} svg{display:block}
"""


def _page(title: str, body: str, refresh_s: int | None = None) -> web.Response:
    meta = f'<meta http-equiv="refresh" content="{refresh_s}">' if refresh_s else ""
    return web.Response(content_type="text/html", text=(
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">{meta}'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body>{body}</body></html>"))


def qr_svg(text: str, scale: int = 6) -> str:
    return str(segno.make(text, error="m", micro=False).svg_inline(scale=scale))


_NO_BARCODE = '<div class="muted">(barcode unavailable: scan the QR code)</div>'


# -- wallets -------------------------------------------------------------------------------------
def _service(request: web.Request) -> Service:
    return request.app[SERVICE_KEY]


async def wallets_page(request: web.Request) -> web.Response:
    wallets = _service(request).books.wallets_json()
    now_ms = time.time() * 1000
    first_expiry = min(w["expires_at"] for w in wallets)
    refresh = max(1, math.ceil((first_expiry - now_ms) / 1000))
    cards = []
    for w in wallets:
        left = max(0, round((w["expires_at"] - now_ms) / 1000))
        cards.append(
            f'<div class="card" id="wallet-{escape(w["id"])}">'
            f'<h2>{escape(w["name"])}</h2>'
            f'<div class="muted">{escape(w["id"])} · {escape(w["scenario"])} · '
            f'balance {w["balance"]:,} VND</div>'
            f'{qr_svg(w["code"])}'
            f'<div class="barcode">{code128_svg(w["code"]) or _NO_BARCODE}</div>'
            f'<div class="code" data-code="{escape(w["code"])}">{escape(w["code"])}</div>'
            f'<div class="muted">valid for {left} s more, single use</div></div>')
    return _page("Wallet codes", (
        "<h1>Emulated wallets: payment codes</h1>"
        '<p class="muted">Hold a card up to the terminal\'s camera or scan it. Codes change every '
        "minute and work once; this page refreshes itself.</p>"
        f'<div class="cards">{"".join(cards)}</div>'
        f"{_other_wallets(request)}"), refresh_s=refresh)


def _other_wallets(request: web.Request) -> str:
    """Links to every other wallet part's customers' codes."""
    links = [f'<a href="/wallets/{escape(name)}">'
             f'{escape(wallet_registry.wallet(name).display_name("en"))} customers\' codes</a>'
             for name in request.app[PARTS_KEY] if name != "zalopay"]
    return f'<p>{" · ".join(links)}</p>' if links else ""


async def wallet_page(request: web.Request) -> web.Response:
    """A wallet part's demo customers: the code each one's app shows now (a used one is
    replaced)."""
    wallet = request.match_info["wallet"]
    part = request.app[PARTS_KEY].get(wallet)
    if part is None or wallet == "zalopay":
        raise web.HTTPNotFound(text=f"No wallet part {wallet!r} here.", content_type="text/plain")
    title = wallet_registry.wallet(wallet).display_name("en")
    cards = []
    for c in part.customers_json():
        balance = f' · balance {c["balance"]:,} VND' if isinstance(c.get("balance"), int) else ""
        cards.append(
            f'<div class="card" id="{escape(wallet)}-{escape(c["id"])}">'
            f'<h2>{escape(c["name"])}</h2>'
            f'<div class="muted">{escape(c["id"])} · {escape(c["behaviour"])}{balance}</div>'
            f'{qr_svg(c["code"])}'
            f'<div class="barcode">{code128_svg(c["code"]) or _NO_BARCODE}</div>'
            f'<div class="code" data-code="{escape(c["code"])}">{escape(c["code"])}</div>'
            '<div class="muted">single use: a new one shows once it is used</div></div>')
    return _page(f"{title} codes", (
        f"<h1>{escape(title)}: payment codes</h1>"
        '<p class="muted">Each code works once; reload the page for the next one.</p>'
        f'<div class="cards">{"".join(cards)}</div>'))


# -- gateway -------------------------------------------------------------------------------------
def _order_or_404(request: web.Request) -> Order:
    order = _service(request).books.gateway_order(request.match_info["token"])
    if order is None:
        raise web.HTTPNotFound(text="No such order: the link is wrong or the emulator was reset.",
                               content_type="text/plain")
    return order


def _wallet_choice() -> str:
    options = "".join(
        f'<label><input type="radio" name="wallet" value="{w.id}"{" checked" if i == 0 else ""}>'
        f" {escape(w.name)} <span class='muted'>({escape(w.scenario)})</span></label><br>"
        for i, w in enumerate(WALLETS))
    return f"<fieldset><legend>Pay as (emulated customer)</legend>{options}</fieldset>"


def _methods(order: Order, qr_text: str) -> str:
    code = order.bank_code
    if not code:
        groups = banks.banks_by_pmcid()
        parts = []
        first = True
        for pmcid, entries in groups.items():
            radios = []
            for entry in entries:
                bank = banks.BY_CODE[entry["bankcode"]]
                usable = bank.minamount <= order.amount <= bank.maxamount
                checked = " checked" if first and usable else ""
                first = first and not usable
                radios.append(
                    f'<label><input type="radio" name="bankcode" value="{escape(bank.bankcode)}"'
                    f'{checked}{"" if usable else " disabled"}> {escape(bank.name)}</label><br>')
            parts.append(f"<fieldset><legend>{escape(wire.PMC_NAMES[int(pmcid)])}</legend>"
                         f'{"".join(radios)}</fieldset>')
        return "<h2>Choose a payment method</h2>" + "".join(parts)
    chosen = banks.BY_CODE[code]
    hidden = f'<input type="hidden" name="bankcode" value="{escape(code)}">'
    if code == banks.WALLET_APP:
        return (f"<h2>Scan with the wallet app</h2><div id='order-qr'>{qr_svg(qr_text)}"
                f"</div>{hidden}")
    if chosen.pmcid in (36, 41):
        return ("<h2>Card payment</h2><fieldset><legend>Card details (emulated, not checked)"
                "</legend><input name='card_number' placeholder='4111 1111 1111 1111'> "
                "<input name='card_expiry' placeholder='MM/YY' size='6'> "
                f"<input name='card_name' placeholder='NAME ON CARD'></fieldset>{hidden}")
    return (f"<h2>{escape(chosen.name)}: bank card</h2><fieldset><legend>Card details (emulated, "
            "not checked)</legend><input name='card_number' placeholder='9704 0000 0000 0018'>"
            " <input name='card_holder' placeholder='NGUYEN VAN A'></fieldset>" + hidden)


async def order_page(request: web.Request) -> web.Response:
    order = _order_or_404(request)
    title = f"Pay {order.amount:,} VND"
    head = (f"<h1>{escape(title)}</h1><p class='muted'>Order {escape(order.app_trans_id)} · "
            f"{escape(order.description)}</p>")
    if order.state != "pending":
        return _page(title, head + f"<p id='order-state'>This order is {order.state}: "
                                   f"{escape(order.message)}.</p>")
    token = escape(order.token)
    qr = emv_qr(str(_service(request).options.app_id), order.amount, order.app_trans_id)
    body = (head + f'<form method="post" action="/gateway/order/{token}/pay" id="pay-form">'
            f"{_methods(order, qr)}{_wallet_choice()}"
            '<button class="pay" type="submit" id="pay">Pay</button>'
            f'<button class="cancel" type="submit" id="cancel" '
            f'formaction="/gateway/order/{token}/cancel">Cancel</button></form>')
    return _page(title, body)


def _redirect(request: web.Request, order: Order, pmcid: int, bank_code: str,
              status: int) -> web.HTTPSeeOther:
    service = _service(request)
    options = service.options
    target = order.embed_data.get("redirecturl") or options.redirect_url or (
        f"{request.url.origin()}/merchant/redirect")
    values = [str(options.app_id), order.app_trans_id, str(pmcid), bank_code,
              str(order.amount), "0", str(status)]
    checksum = hmac_sha256_hex(options.key2, "|".join(values))
    query = urlencode([*zip(wire.REDIRECT_FIELDS, values, strict=True), ("checksum", checksum)])
    separator = "&" if "?" in str(target) else "?"
    return web.HTTPSeeOther(location=f"{target}{separator}{query}")


async def order_pay(request: web.Request) -> web.Response:
    order = _order_or_404(request)
    if order.state != "pending":
        return await order_page(request)  # finished earlier (another tab, expiry)
    form = await request.post()
    wallet_id = str(form.get("wallet", ""))
    bank_code = str(form.get("bankcode", "")) or order.bank_code
    bank = banks.BY_CODE.get(bank_code)
    if wallet_id not in {w.id for w in WALLETS} or bank is None:
        return _page("Choose", "<h1>Choose a payment method and a wallet</h1>"
                     f'<p><a href="/gateway/order/{escape(order.token)}">Back to the order</a></p>')
    if order.bank_code and bank_code != order.bank_code:
        raise web.HTTPBadRequest(text="This order can only be paid with its bank code.")
    paid = _service(request).books.pay_gateway_order(order.token, wallet_id, bank.pmcid,
                                                     bank_code)
    if paid is None or paid.state == "pending" or paid.wallet_id != wallet_id:
        return await order_page(request)
    status = wire.OK if paid.state == "succeeded" else paid.code
    service = _service(request)
    if paid.state == "succeeded" and paid.callback_url:
        service.callbacks.schedule(paid, service.options.app_id, paid.callback_url)
    raise _redirect(request, paid, bank.pmcid, bank_code, status)


async def order_cancel(request: web.Request) -> web.Response:
    order = _order_or_404(request)
    cancelled = _service(request).books.cancel_gateway_order(order.token)
    if cancelled is None or cancelled.state != "cancelled":
        return await order_page(request)
    bank = banks.BY_CODE.get(order.bank_code)
    raise _redirect(request, cancelled, bank.pmcid if bank else 38, order.bank_code,
                    wire.USER_CANCELLED)


# -- merchant landing ----------------------------------------------------------------------------
def redirect_values(query: str, key2: str, app_id: int) -> dict[str, str] | None:
    """The redirect's fields if it is valid, as the spec has the merchant check it (rule 7:
    HMAC-SHA256 with key2, lowercase hex, over the fields joined with | exactly as received);
    written here from the spec, apart from the client's own check, so that a signing bug in
    the client cannot hide itself in tests. Every field once; appid this application's."""
    pairs = parse_qs(query, keep_blank_values=True)
    names = (*wire.REDIRECT_FIELDS, "checksum")
    if any(len(pairs.get(name, ())) != 1 for name in names):
        return None
    values = {name: pairs[name][0] for name in names}
    expected = hmac_sha256_hex(key2, "|".join(values[n] for n in wire.REDIRECT_FIELDS))
    given = values.pop("checksum").strip().lower().encode("ascii", "replace")
    if not hmac.compare_digest(expected.encode("ascii"), given):
        return None
    numbers = ("appid", "pmcid", "amount", "discountamount", "status")
    if not all(re.fullmatch(r"-?[0-9]+", values[n].strip()) for n in numbers):
        return None
    if int(values["appid"]) != app_id:
        return None
    return {n: str(int(v)) if n in numbers else v for n, v in values.items()}


async def merchant_landing(request: web.Request) -> web.Response:
    """A merchant's redirect handler, as in the spec's samples: 200 if the checksum verifies."""
    options = _service(request).options
    values = redirect_values(request.query_string, options.key2, options.app_id)
    if values is None:
        return web.Response(status=400, text="Bad Request", content_type="text/plain")
    rows = "".join(f"<tr><th>{name}</th><td id='f-{name}'>{escape(values[name])}"
                   "</td></tr>" for name in wire.REDIRECT_FIELDS)
    outcome = "paid" if int(values["status"]) == wire.OK else "not paid"
    return _page("Merchant: payment result", (
        f"<h1 id='outcome'>Payment {outcome}</h1><p class='muted'>The checksum verifies (key2).</p>"
        f"<table>{rows}</table>"))


def add_routes(app: web.Application) -> None:
    app.router.add_get("/wallets", wallets_page)
    app.router.add_get("/wallets/{wallet}", wallet_page)
    app.router.add_get("/gateway/order/{token}", order_page)
    app.router.add_post("/gateway/order/{token}/pay", order_pay)
    app.router.add_post("/gateway/order/{token}/cancel", order_cancel)
    app.router.add_get("/merchant/redirect", merchant_landing)
