"""payOS's signing against the spec's worked example, and the emulator's payOS part as strict
as the spec: keys checked (HTTP 401), the create's signature and description checked ("20"),
a used orderCode "231", an unknown id "101"; every success signed over its data."""

from __future__ import annotations

from typing import Any

import requests

from pos_terminal.emulator.payos.service import DEMO_API_KEY, DEMO_CHECKSUM_KEY, DEMO_CLIENT_ID
from pos_terminal.wallets.payos import signing
from pos_terminal.wallets.payos.client import Account, PayOSClient

KEY = "1a54716c8f0efb2744fb28b6e38b25da7f67a925d98bc1c18bd8faaecadd7675"
BODY = {"orderCode": 123456, "amount": 50000, "description": "DH123456",
        "cancelUrl": "https://pos.example/c", "returnUrl": "https://pos.example/r"}


def test_the_create_signature_is_the_specs_worked_example() -> None:
    assert signing.create_signature(KEY, BODY) == (
        "60096253334dc3ee7c001798564ecfe2d70eceafbf6b9c4e484262a008298d4b")


def _post(emulator: Any, body: dict[str, Any], **headers: str) -> requests.Response:
    sent = {"x-client-id": DEMO_CLIENT_ID, "x-api-key": DEMO_API_KEY, **headers}
    return requests.post(f"{emulator.base_url}/v2/payment-requests", json=body, headers=sent,
                         timeout=30)


def test_the_emulator_refuses_what_payos_refuses(emulator: Any) -> None:
    signed = {**BODY, "signature": signing.create_signature(DEMO_CHECKSUM_KEY, BODY)}
    assert _post(emulator, signed, **{"x-api-key": "wrong"}).status_code == 401
    assert _post(emulator, {**signed, "signature": "0" * 64}).json()["code"] == "20"
    long_text = {**BODY, "description": "TEN CHARS!"}
    long_text["signature"] = signing.create_signature(DEMO_CHECKSUM_KEY, long_text)
    assert _post(emulator, long_text).json()["code"] == "20"
    first = _post(emulator, signed).json()
    assert first["code"] == "00" and signing.valid_data(
        DEMO_CHECKSUM_KEY, first["data"], first["signature"])
    assert _post(emulator, signed).json()["code"] == "231"


def test_the_client_reads_an_unknown_id_as_no_data(emulator: Any) -> None:
    client = PayOSClient(Account(emulator.base_url, DEMO_CLIENT_ID, DEMO_API_KEY,
                                 DEMO_CHECKSUM_KEY))
    answer = client.get("999")
    assert (answer.code, answer.data) == ("101", None)
    client.close()


def test_the_emulators_vietqr_carries_the_amount_the_content_and_a_right_crc() -> None:
    from pos_terminal.emulator.payos.vietqr import vietqr

    qr = vietqr("970422", "VQRQ00000001", 50_000, "POS123456")
    assert "A000000727" in qr and "540550000" in qr and "0809POS123456" in qr
    crc, body = 0xFFFF, qr[:-4].encode("ascii")
    for byte in body:  # CRC-16/CCITT-FALSE, written here from the spec
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    assert qr[-4:] == f"{crc:04X}"
