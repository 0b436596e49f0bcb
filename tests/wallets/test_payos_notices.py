"""payOS's webhook checker (wallets/payos/notices.py, payOS's `WalletDeclaration.webhook`):
the signature over `data`'s sorted keys is payOS's (the docs' sample, whole, with the spec's
worked key; the official SDK's own signer on a notice with Vietnamese text and nulls); only a
notice signed with this counter's key gives its orderCode, anything else is refused with a
reason saying which problem it is."""

from __future__ import annotations

import json

import pytest

from pos_terminal import wallet_registry
from pos_terminal.base.wallet_errors import NoticeRefused
from pos_terminal.config import Settings
from pos_terminal.emulator.payos import webhooks as emulated
from pos_terminal.emulator.payos.service import DEMO_CHECKSUM_KEY
from pos_terminal.wallets.payos.notices import order_of
from pos_terminal.wallets.payos.signing import data_signature
from tests.wallets.payos_help import with_payos

DOCS_SAMPLE_SIGNATURE = "412e915d2871504ed31be63c8f62a149a4410d34c4c42affc9006ef9917eaa03"


def _body(data: dict[str, object], key: str = DEMO_CHECKSUM_KEY) -> bytes:
    return json.dumps(emulated.notice(key, data), ensure_ascii=False).encode("utf-8")


def test_the_docs_sample_signs_as_payos_says() -> None:
    assert data_signature(DEMO_CHECKSUM_KEY, emulated.SAMPLE) == DOCS_SAMPLE_SIGNATURE


def test_our_signature_is_the_official_sdks() -> None:
    payos = pytest.importorskip("payos")
    sdk = payos.PayOS(client_id="c", api_key="a", checksum_key=DEMO_CHECKSUM_KEY)
    data = {**emulated.SAMPLE, "orderCode": 1764300000123456, "amount": 60_000,
            "desc": "Giao dịch thành công", "counterAccountName": "NGUYỄN VĂN A",
            "virtualAccountName": None, "virtualAccountNumber": None}
    assert data_signature(DEMO_CHECKSUM_KEY, data) == \
        sdk.crypto.create_signature_from_object(data, DEMO_CHECKSUM_KEY)


def test_payos_declares_its_webhook() -> None:
    assert wallet_registry.wallet("payos").webhook == "pos_terminal.wallets.payos.notices:order_of"


def test_a_notice_signed_with_the_counters_key_gives_its_order(settings: Settings,
                                                               emulator: object) -> None:
    shop = with_payos(settings, emulator)
    assert order_of(shop, _body({**emulated.SAMPLE, "orderCode": 987654})) == "987654"


@pytest.mark.parametrize("body,problem", [
    (_body(emulated.SAMPLE, key="f" * 64), "signature"),
    (_body(emulated.SAMPLE).replace(b"3000", b"3001"), "signature"),
    (json.dumps({"data": emulated.SAMPLE}).encode(), "form"),
    (b"not json", "form"),
    (b'{"data": {}, "data": {}, "signature": "x"}', "form"),
    (b"[]", "form"),
    (_body({**emulated.SAMPLE, "orderCode": True}), "form"),
    (_body({**emulated.SAMPLE, "orderCode": "123"}), "form"),
    (_body({**emulated.SAMPLE, "orderCode": -1}), "form"),
])
def test_anything_else_is_refused_with_its_problem(settings: Settings, emulator: object,
                                                   body: bytes, problem: str) -> None:
    with pytest.raises(NoticeRefused) as refused:
        order_of(with_payos(settings, emulator), body)
    assert refused.value.problem == problem and refused.value.why.code.startswith("notice.")


def test_a_counter_without_payos_takes_no_payos_notice(settings: Settings) -> None:
    with pytest.raises(NoticeRefused) as refused:
        order_of(settings, _body(emulated.SAMPLE))
    assert refused.value.problem == "no_webhook"
