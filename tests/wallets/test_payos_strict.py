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
