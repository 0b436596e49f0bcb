"""The client under answers that cannot be trusted and connections that cannot have carried
anything: real listeners and the emulator's faults on loopback, nothing mocked."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pos_terminal.config import Settings
from pos_terminal.wallets.errors import NoAnswer, NotSent, UnreadableAnswer
from pos_terminal.wallets.transport import MAX_ANSWER_BYTES
from pos_terminal.wallets.zalopay.answers import parse_json_body
from pos_terminal.wallets.zalopay.client import WalletClient
from tests.listeners import closed_port, listener
from tests.wallet.test_client import charges_of, code_of, fault, order

MiB = 1024 * 1024


@pytest.fixture
def v2(settings: Settings) -> Iterator[WalletClient]:
    with WalletClient(settings.service, retry_wait_s=0.01) as c:
        yield c


def _client(settings: Settings, base_url: str, **service: Any) -> WalletClient:
    return WalletClient(settings.service.model_copy(update={"base_url": base_url, **service}),
                        retry_wait_s=0.01)


# --- connections that cannot have carried the request ------------------------------------------
@pytest.mark.parametrize(("mode", "cause"), [
    ("untrusted_tls", "TLS certificate not accepted: self-signed certificate"),
    ("reset_handshake", "TLS handshake refused: the connection was reset"),
])
def test_a_failed_tls_handshake_is_not_sent(settings: Settings, tmp_path: Path, mode: str,
                                            cause: str) -> None:
    with listener(mode, tmp_path) as server, _client(settings, server.url) as client:
        with pytest.raises(NotSent) as err:
            client.quick_pay(order(), "123456789012345678")
        assert server.accepted == 1
        assert server.received == []
    assert err.value.cause == cause
    assert err.value.message.endswith("nothing was sent")


def test_a_closed_port_and_an_unknown_name_are_not_sent(settings: Settings) -> None:
    with _client(settings, f"https://127.0.0.1:{closed_port()}") as client, \
            pytest.raises(NotSent, match="connection refused"):
        client.quick_pay(order(), "123456789012345678")
    with _client(settings, "https://nonexistent.invalid") as client, \
            pytest.raises(NotSent, match=r"nonexistent\.invalid could not be resolved"):
        client.quick_pay(order(), "123456789012345678")


# --- answers that never end ---------------------------------------------------------------------
def test_a_dripping_answer_ends_at_the_total_deadline(settings: Settings, emulator: Any) -> None:
    """One byte every 200 ms, never 1.5 s between two bytes: a per-read timeout of 1.5 s never
    trips, the total deadline of timeout_s does (outcome unknown: the charge was committed)."""
    fault(emulator, "quick_pay", "slow_drip", interval_ms=200)
    paid = order()
    with _client(settings, emulator.base_url, timeout_s=1.5) as client:
        with pytest.raises(NoAnswer) as err:
            client.quick_pay(paid, code_of(emulator, "an"))
        assert not isinstance(err.value, NotSent)
        assert "did not answer within 1.5 s" in err.value.message
        sent = emulator.control.fault_stats("slow_drip")
        answer_size = len(b'{"return_code": 1, "return_message": ""}')
        assert sent is not None and sent < answer_size  # cut off long before its end
        assert len(charges_of(emulator, paid.app_trans_id)) == 1
        # the same client goes on working: the cut connection was not put back in the pool
        assert client.query_status(paid.app_trans_id).outcome.value == "succeeded"


def _settled(emulator: Any, mode: str) -> int:
    """What a streamed fault wrote, once it stops writing (the client hung up)."""
    last = -1
    for _ in range(50):
        sent = emulator.control.fault_stats(mode) or 0
        if sent == last:
            return sent
        last = sent
        time.sleep(0.1)
    return last


def test_a_huge_answer_is_unreadable_after_reading_at_most_the_limit(
        v2: WalletClient, emulator: Any) -> None:
    fault(emulator, "quick_pay", "huge", size_mb=200)
    with pytest.raises(UnreadableAnswer, match="more than 1,048,576 bytes"):
        v2.quick_pay(order(), code_of(emulator, "an"))
    sent = _settled(emulator, "huge")
    # the limit, plus what the two sockets' buffers on loopback took in: far from 200 MB
    assert MAX_ANSWER_BYTES <= sent < 32 * MiB


def test_a_gzip_bomb_is_refused_not_inflated(v2: WalletClient, emulator: Any) -> None:
    fault(emulator, "quick_pay", "gzip_bomb", size_mb=200)
    with pytest.raises(UnreadableAnswer, match=r"compressed answer \(gzip\)"):
        v2.quick_pay(order(), code_of(emulator, "an"))
    assert _settled(emulator, "gzip_bomb") < 2 * MiB


def test_an_answer_with_a_repeated_return_code_is_unreadable(v2: WalletClient,
                                                             emulator: Any) -> None:
    """A declined charge whose answer repeats `"return_code": 1` at the end: Python's json keeps
    the last (paid), another parser the first (declined). Neither is trusted."""
    fault(emulator, "quick_pay", "duplicate_keys")
    paid = order()
    with pytest.raises(UnreadableAnswer, match="'return_code' appears twice"):
        v2.quick_pay(paid, code_of(emulator, "dung"))  # dung's balance is too low
    assert v2.query_status(paid.app_trans_id).outcome.value == "failed"


@pytest.mark.parametrize(("body", "why"), [
    (b'{"return_code": 1, "return_code": 2}', "appears twice"),
    (b'{"return_code": 1, "amount": NaN}', "NaN is not a JSON number"),
    (b'{"return_code": 1, "amount": Infinity}', "Infinity is not a JSON number"),
    (b'{"return_code": 1, "amount": -Infinity}', "-Infinity is not a JSON number"),
    (b'[{"return_code": 1}]', "not an object"),
    (b'"paid"', "not an object"),
    (b"1", "not an object"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
], ids=["duplicate", "nan", "infinity", "-infinity", "list", "string", "number", "deep"])
def test_strict_json(body: bytes, why: str) -> None:
    with pytest.raises(UnreadableAnswer, match=why):
        parse_json_body(body, 200)
