"""The client against the emulator over real HTTP on loopback: every operation, both
generations, and every error class through the emulator's fault injection."""

from __future__ import annotations

import hashlib
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import parse_qs

import pytest
import requests
from pydantic import SecretStr

from pos_terminal.config import Settings
from pos_terminal.wallets.errors import (
    FieldError,
    NoAnswer,
    NotSent,
    ServiceRefused,
    UnreadableAnswer,
)
from pos_terminal.wallets.zalopay.client import PreparedQuickPay, WalletClient
from pos_terminal.wallets.zalopay.ids import current_ms, new_app_trans_id, new_refund_id
from pos_terminal.wallets.zalopay.messages import (
    EmbedData,
    GatewayOrder,
    Item,
    QuickPayOrder,
    RefundRequest,
)
from pos_terminal.wallets.zalopay.results import (
    PMC_NAMES,
    AnswerStatus,
    PaymentResult,
    RefundResult,
)
from tests.listeners import self_signed

# --- helpers ----------------------------------------------------------------------------------


def control(emulator: Any, method: str, path: str, **json: Any) -> Any:
    response = requests.request(method, f"{emulator.base_url}/_emulator/{path}",
                                json=json or ({} if method == "POST" else None), timeout=5)
    response.raise_for_status()
    return response.json()


def code_of(emulator: Any, wallet: str) -> str:
    wallets = control(emulator, "GET", "wallets")["wallets"]
    return str(next(w["code"] for w in wallets if w["id"] == wallet))


def requests_to(emulator: Any, endpoint: str) -> int:
    return int(control(emulator, "GET", "ledger")["requests"].get(endpoint, 0))


def charges_of(emulator: Any, app_trans_id: str) -> list[dict[str, Any]]:
    return [c for c in control(emulator, "GET", "ledger")["charges"]
            if c["app_trans_id"] == app_trans_id]


def fault(emulator: Any, endpoint: str, mode: str, **more: Any) -> None:
    control(emulator, "POST", "faults", endpoint=endpoint, mode=mode, **more)


def order(amount: int = 25_000, **more: Any) -> QuickPayOrder:
    now = current_ms()
    return QuickPayOrder(app_trans_id=new_app_trans_id("wt", now), app_user="counter-1",
                         app_time=now, amount=amount, **more)


def wait_for(call: Callable[[], PaymentResult | RefundResult], until: AnswerStatus,
             patience_s: float = 10.0) -> PaymentResult | RefundResult:
    deadline = time.monotonic() + patience_s
    result = call()
    while result.outcome is not until and time.monotonic() < deadline:
        time.sleep(0.1)
        result = call()
    return result


@pytest.fixture
def client(any_settings: Settings) -> Iterator[WalletClient]:
    with WalletClient(any_settings.service, retry_wait_s=0.01) as c:
        yield c


@pytest.fixture
def v2(settings: Settings) -> Iterator[WalletClient]:
    with WalletClient(settings.service, retry_wait_s=0.01) as c:
        yield c


# --- quick pay ------------------------------------------------------------------------------


def test_quick_pay_success(client: WalletClient, emulator: Any) -> None:
    paid = order(items=(Item("sku1", "Cà phê sữa đá", 25_000, 1),),
                 embed_data=EmbedData(merchantinfo="quầy 1"), description="Đơn hàng 1")
    result = client.quick_pay(paid, code_of(emulator, "an"))
    assert result.outcome is AnswerStatus.SUCCEEDED, result
    assert result.app_trans_id == paid.app_trans_id
    assert result.return_code == 1
    assert result.zp_trans_id is not None and result.zp_trans_id.isdigit()
    assert str(result.why) == "Payment received. The sale is complete."
    [charge] = charges_of(emulator, paid.app_trans_id)
    assert (charge["wallet"], charge["amount"], str(charge["zp_trans_id"])) == (
        "an", 25_000, result.zp_trans_id)


def test_insufficient_balance(client: WalletClient, emulator: Any) -> None:
    result = client.quick_pay(order(), code_of(emulator, "dung"))
    assert result.outcome is AnswerStatus.FAILED
    detailed = result.sub_return_code if client.generation == "v2" else result.return_code
    assert detailed == -63
    assert str(result.why).startswith("The customer's wallet balance is too low.")


def test_processing_then_paid_through_the_status_query(client: WalletClient,
                                                       emulator: Any) -> None:
    paid = order()
    first = client.quick_pay(paid, code_of(emulator, "binh"))
    assert first.outcome is AnswerStatus.PROCESSING
    assert first.is_processing
    assert client.query_status(paid.app_trans_id).outcome is AnswerStatus.PROCESSING
    final = wait_for(lambda: client.query_status(paid.app_trans_id), AnswerStatus.SUCCEEDED)
    assert final.outcome is AnswerStatus.SUCCEEDED
    assert isinstance(final, PaymentResult) and final.app_trans_id == paid.app_trans_id


def test_processing_then_failed(client: WalletClient, emulator: Any) -> None:
    paid = order()
    assert client.quick_pay(paid, code_of(emulator, "chi")).outcome is AnswerStatus.PROCESSING
    assert client.query_status(paid.app_trans_id).outcome is AnswerStatus.PROCESSING
    final = wait_for(lambda: client.query_status(paid.app_trans_id), AnswerStatus.FAILED)
    assert final.outcome is AnswerStatus.FAILED


def test_a_used_code_is_refused_as_322(client: WalletClient, emulator: Any) -> None:
    code = code_of(emulator, "an")
    assert client.quick_pay(order(), code).outcome is AnswerStatus.SUCCEEDED
    again = client.quick_pay(order(), code)
    assert again.outcome is AnswerStatus.FAILED
    assert -322 in (again.return_code, again.sub_return_code)
    assert str(again.why).startswith("This payment code was already used")


def test_unknown_order_is_not_found(client: WalletClient) -> None:
    result = client.query_status(new_app_trans_id("wt"))
    assert result.outcome is AnswerStatus.NOT_FOUND


def test_duplicate_app_trans_id_means_query_it(client: WalletClient, emulator: Any) -> None:
    paid = order()
    assert client.quick_pay(paid, code_of(emulator, "an")).outcome is AnswerStatus.SUCCEEDED
    control(emulator, "POST", "wallets/an/rotate")
    again = client.quick_pay(paid, code_of(emulator, "an"))
    assert again.duplicate
    assert again.outcome is AnswerStatus.PROCESSING  # never "failed": the first one may be paid
    assert len(charges_of(emulator, paid.app_trans_id)) == 1


def test_wrong_key1_is_refused_as_402(any_settings: Settings, emulator: Any) -> None:
    wrong = any_settings.service.model_copy(update={"key1": SecretStr("not-the-key")})
    with WalletClient(wrong) as c:
        result = c.quick_pay(order(), code_of(emulator, "an"))
    assert result.outcome is AnswerStatus.FAILED
    assert -402 in (result.return_code, result.sub_return_code)


@pytest.mark.parametrize("alphabet", ["standard", "urlsafe"])
def test_base64_specials_survive_the_form_encoding(any_settings: Settings, emulator: Any,
                                                   alphabet: str) -> None:
    service = any_settings.service.model_copy(update={"payment_code_base64": alphabet})
    specials = "+/=" if alphabet == "standard" else "-_="
    with WalletClient(service) as c:
        code = code_of(emulator, "an")
        prepared: PreparedQuickPay | None = None
        for _ in range(200):  # the ciphertext is random: find one with every special in it
            candidate = c.build_quick_pay(order(), code)
            encrypted = candidate.form[c._spec.names.payment_code]
            if all(ch in encrypted for ch in specials):
                prepared = candidate
                break
        assert prepared is not None
        if alphabet == "standard":
            assert all(esc in prepared.body for esc in ("%2B", "%2F", "%3D"))
        sent = parse_qs(prepared.body)[c._spec.names.payment_code]
        assert sent == [encrypted]
        result = c.send_quick_pay(prepared)
    assert result.outcome is AnswerStatus.SUCCEEDED, result.message


def test_build_is_pure_and_hides_the_code(v2: WalletClient, emulator: Any) -> None:
    code = code_of(emulator, "an")
    prepared = v2.build_quick_pay(order(), code)
    assert prepared.payload_hash == hashlib.sha256(prepared.body.encode()).hexdigest()
    assert code not in prepared.body and code not in repr(prepared)
    assert code not in "".join(prepared.form.values())
    assert requests_to(emulator, "quick_pay") == 0  # building sent nothing
    assert v2.send_quick_pay(prepared).outcome is AnswerStatus.SUCCEEDED


def test_a_field_error_sends_nothing(v2: WalletClient, emulator: Any) -> None:
    with pytest.raises(FieldError) as err:
        v2.quick_pay(order(description="d" * 101), code_of(emulator, "an"))
    assert err.value.field == "description"
    assert requests_to(emulator, "quick_pay") == 0


# --- every error class, through the emulator's faults -----------------------------------------

UNREADABLE = [
    ("http500", {}, "HTTP 500"),
    ("html", {"status": 502}, "HTTP 502"),
    ("html", {"status": 200}, "HTML page"),
    ("garbage", {}, "not valid JSON"),
    ("truncated", {}, "not valid JSON"),
]


@pytest.mark.parametrize(("mode", "more", "says"), UNREADABLE)
def test_unreadable_answers_to_a_charge(client: WalletClient, emulator: Any, mode: str,
                                        more: dict[str, Any], says: str) -> None:
    fault(emulator, "quick_pay", mode, **more)
    with pytest.raises(UnreadableAnswer) as err:
        client.quick_pay(order(), code_of(emulator, "an"))
    assert says in err.value.message
    assert requests_to(emulator, "quick_pay") == 1  # never retried


def test_timeout_is_no_answer_and_not_retried(any_settings: Settings, emulator: Any) -> None:
    service = any_settings.service.model_copy(update={"timeout_s": 0.3})
    fault(emulator, "quick_pay", "delay", delay_s=1.0)
    with WalletClient(service) as c, pytest.raises(NoAnswer) as err:
        c.quick_pay(order(), code_of(emulator, "an"))
    assert "did not answer within 0.3 s" in err.value.message
    assert requests_to(emulator, "quick_pay") == 1


@pytest.mark.parametrize("mode", ["drop", "drop_after_commit"])
def test_dropped_connection_is_no_answer_and_not_retried(client: WalletClient, emulator: Any,
                                                         mode: str) -> None:
    paid = order()
    fault(emulator, "quick_pay", mode)
    with pytest.raises(NoAnswer):
        client.quick_pay(paid, code_of(emulator, "an"))
    assert requests_to(emulator, "quick_pay") == 1  # urllib3 did not re-send it either
    status = client.query_status(paid.app_trans_id)
    expected = AnswerStatus.SUCCEEDED if mode == "drop_after_commit" else AnswerStatus.NOT_FOUND
    assert status.outcome is expected
    assert len(charges_of(emulator, paid.app_trans_id)) == (mode == "drop_after_commit")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_closed_port_is_not_sent(settings: Settings) -> None:
    """Connection refused: the request never left, so the outcome is known (NotSent)."""
    service = settings.service.model_copy(
        update={"base_url": f"http://127.0.0.1:{_closed_port()}"})
    with WalletClient(service, retry_wait_s=0.01) as c:
        with pytest.raises(NotSent) as err:
            c.quick_pay(order(), "123456789012345678")
        assert err.value.cause == "connection refused"
        assert "nothing was sent" in err.value.message
        assert not isinstance(err.value, NoAnswer)  # certainly not sent: never "unknown"
        with pytest.raises(NotSent):
            c.query_status(new_app_trans_id("wt"))


def test_unresolvable_name_is_not_sent(settings: Settings) -> None:
    service = settings.service.model_copy(
        update={"base_url": "http://pos-terminal-test.invalid"})
    with WalletClient(service, retry_wait_s=0.01) as c, pytest.raises(NotSent) as err:
        c.quick_pay(order(), "123456789012345678")
    assert err.value.cause == "the name pos-terminal-test.invalid could not be resolved"


@pytest.mark.parametrize("mode", ["drop", "drop_after_commit"])
def test_a_dropped_reused_connection_is_no_answer_not_not_sent(v2: WalletClient, emulator: Any,
                                                               mode: str) -> None:
    """A close on a kept-alive connection may come after the request was sent: never NotSent."""
    v2.query_status(new_app_trans_id("wt"))  # opens the connection the charge will reuse
    fault(emulator, "quick_pay", mode)
    paid = order()
    with pytest.raises(NoAnswer) as err:
        v2.quick_pay(paid, code_of(emulator, "an"))
    assert not isinstance(err.value, NotSent)
    pools = v2._session.get_adapter(emulator.base_url).poolmanager.pools
    opened = sum(pools[key].num_connections for key in pools.keys())  # noqa: SIM118 (no iter)
    assert opened == 1  # the charge went out on the connection the query opened
    assert requests_to(emulator, "quick_pay") == 1
    assert len(charges_of(emulator, paid.app_trans_id)) == (mode == "drop_after_commit")


def test_status_query_retries_past_a_passing_fault(client: WalletClient, emulator: Any) -> None:
    fault(emulator, "query", "http500", count=1)
    result = client.query_status(new_app_trans_id("wt"))
    assert result.outcome is AnswerStatus.NOT_FOUND
    assert requests_to(emulator, "query") == 2


def test_status_query_gives_up_after_its_attempts(client: WalletClient, emulator: Any) -> None:
    fault(emulator, "query", "truncated", count=10)
    with pytest.raises(UnreadableAnswer):
        client.query_status(new_app_trans_id("wt"))
    assert requests_to(emulator, "query") == 3


def test_service_refusal_is_not_retried(v2: WalletClient, emulator: Any) -> None:
    fault(emulator, "query", "refuse", return_code=-429)
    result = v2.query_status(new_app_trans_id("wt"))
    assert result.outcome is AnswerStatus.UNDECIDED and result.sub_return_code == -429
    assert requests_to(emulator, "query") == 1


def test_no_adapter_retries() -> None:
    from pos_terminal.wallets.zalopay.client import no_retry_adapter

    retry = no_retry_adapter().max_retries
    assert (retry.total, retry.connect, retry.read, retry.redirect) == (0, 0, False, False)


# --- bank list, gateway orders, refunds ------------------------------------------------------


def test_bank_list(client: WalletClient, emulator: Any) -> None:
    banks = client.list_banks()
    assert banks.banks_by_pmcid
    assert set(banks.banks_by_pmcid) <= set(PMC_NAMES)
    for pmcid, listed in banks.banks_by_pmcid.items():
        assert all(b.pmcid == pmcid and 0 < b.minamount <= b.maxamount for b in listed)
        orders = [b.displayorder for b in listed]
        assert orders == sorted(orders)


def test_bank_list_retries_then_raises(v2: WalletClient, emulator: Any) -> None:
    fault(emulator, "banks", "drop", count=10)
    with pytest.raises(NoAnswer):
        v2.list_banks()
    assert requests_to(emulator, "banks") == 3


def test_bank_list_refused_with_a_wrong_key(settings: Settings) -> None:
    wrong = settings.service.model_copy(update={"key1": SecretStr("not-the-key")})
    with WalletClient(wrong) as c, pytest.raises(ServiceRefused) as err:
        c.list_banks()
    assert err.value.return_code == -402


def test_gateway_order(client: WalletClient) -> None:
    now = current_ms()
    gw = GatewayOrder(app_trans_id=new_app_trans_id("wt", now), app_user="counter-1",
                      app_time=now, amount=120_000, description="Order 7", bank_code="")
    result = client.create_order(gw)
    assert result.app_trans_id == gw.app_trans_id
    assert result.order_url is not None and result.order_url.startswith("http")
    status = client.query_status(gw.app_trans_id)
    assert status.outcome is AnswerStatus.PROCESSING  # created, not paid yet


def test_refund_partial_then_done(client: WalletClient, emulator: Any) -> None:
    paid = client.quick_pay(order(amount=50_000), code_of(emulator, "an"))
    assert paid.outcome is AnswerStatus.SUCCEEDED and paid.zp_trans_id is not None
    now = current_ms()
    req = RefundRequest(m_refund_id=new_refund_id(client.service.app_id, now),
                        zp_trans_id=paid.zp_trans_id, amount=20_000, description="one cup back",
                        timestamp=now)
    started = client.refund(req)
    assert started.m_refund_id == req.m_refund_id
    assert started.outcome in (AnswerStatus.PROCESSING, AnswerStatus.SUCCEEDED), started
    done = wait_for(lambda: client.query_refund(req.m_refund_id), AnswerStatus.SUCCEEDED)
    assert done.outcome is AnswerStatus.SUCCEEDED
    [refund] = [r for r in control(emulator, "GET", "ledger")["refunds"]
                if r["m_refund_id"] == req.m_refund_id]
    assert refund["amount"] == 20_000


def test_unknown_refund_decides_nothing(client: WalletClient) -> None:
    # Issue 29: -101 on a refund's status is also published as "refund succeeded": never final.
    result = client.query_refund(new_refund_id(client.service.app_id))
    assert result.outcome is AnswerStatus.UNDECIDED
    assert result.why.code == "checking.refund_unclear"


def test_redirect_and_callback_use_the_configured_key2(v2: WalletClient) -> None:
    import hmac

    key2 = v2.service.key2.get_secret_value().encode()
    values = ["2553", "241121_wt_1", "38", "zalopayapp", "5000", "0", "1"]
    checksum = hmac.new(key2, "|".join(values).encode(), hashlib.sha256).hexdigest()
    names = ["appid", "apptransid", "pmcid", "bankcode", "amount", "discountamount", "status"]
    query = "&".join(f"{n}={v}" for n, v in zip(names, values, strict=True))
    assert v2.verify_redirect(f"{query}&checksum={checksum}").valid
    assert not v2.verify_redirect(f"{query}&checksum={'0' * 64}").valid
    data = '{"app_trans_id":"241121_wt_1"}'
    mac = hmac.new(key2, data.encode(), hashlib.sha256).hexdigest()
    assert v2.verify_callback({"data": data, "mac": mac, "type": 1}).valid


def test_gateway_order_paid_on_the_page_redirects_with_a_valid_checksum(
        client: WalletClient) -> None:
    now = current_ms()
    gw = GatewayOrder(app_trans_id=new_app_trans_id("wt", now), app_user="counter-1",
                      app_time=now, amount=75_000, bank_code="zalopayapp",
                      embed_data=EmbedData(redirecturl="https://shop.example/paid"))
    created = client.create_order(gw)
    assert created.order_url is not None
    paid = requests.post(created.order_url + "/pay", data={"wallet": "an",
                                                           "bankcode": "zalopayapp"},
                         allow_redirects=False, timeout=5)
    assert paid.status_code == 303
    location = paid.headers["Location"]
    assert location.startswith("https://shop.example/paid?")
    redirect = client.verify_redirect(location)
    assert redirect.valid, redirect.reason
    assert (redirect.apptransid, redirect.amount, redirect.bankcode, redirect.pmcid,
            redirect.status) == (gw.app_trans_id, 75_000, "zalopayapp", 38, 1)
    tampered = location.replace("amount=75000", "amount=7500")
    assert client.verify_redirect(tampered).reason.startswith("bad checksum")
    assert client.query_status(gw.app_trans_id).outcome is AnswerStatus.SUCCEEDED


def test_an_untrusted_tls_certificate_is_not_sent(settings: Settings, tmp_path: Any) -> None:
    """The certificate is checked during the handshake, before any byte of the request is
    written: the charge cannot have reached anyone (NotSent, the cause named)."""
    import http.server
    import ssl
    import threading

    posts: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # would answer "paid" if TLS were not verified
            posts.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"return_code": 1, "sub_return_code": 1}')

        def log_message(self, *args: Any) -> None:
            pass

    cert, key = self_signed(tmp_path)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"https://127.0.0.1:{server.server_address[1]}"
        service = settings.service.model_copy(update={"base_url": url})
        with WalletClient(service) as c, pytest.raises(NotSent) as err:
            c.quick_pay(order(), "123456789012345678")
        assert err.value.cause == "TLS certificate not accepted: self-signed certificate"
        assert "nothing was sent" in err.value.message
        assert posts == []
    finally:
        server.shutdown()
        server.server_close()
