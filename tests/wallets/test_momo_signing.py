"""MoMo's signatures: the raw strings exactly as shared/spec/momo.md writes them, HMAC-SHA256 in
lowercase hex, the payment code signed as it is sent (encrypted, base64); and the emulator's own
checking code agrees with the client's."""

from __future__ import annotations

import base64
import hashlib
import hmac

from cryptography.hazmat.primitives.asymmetric import padding

from pos_terminal.config import Settings
from pos_terminal.emulator.momo import signatures as emulator_signatures
from pos_terminal.emulator.pkcs1 import load_private_key
from pos_terminal.wallets.momo import MomoAccount, signing
from pos_terminal.wallets.momo.client import MomoClient

ACCESS, SECRET = "klm05TvNBzhg7h7j", "at67qH6mk8w5Y1nAyMoYKMWACiEi2bsa"  # MoMo's public sandbox


def test_the_payment_string_is_the_spec_s() -> None:
    body = {"amount": 50000, "extraData": "", "orderId": "POS01-1", "orderInfo": "Cà phê",
            "partnerCode": "MOMO", "paymentCode": "c2VhbGVk", "requestId": "POS01-1"}
    assert signing.raw_string(signing.PAY_FIELDS, {**body, "accessKey": ACCESS}) == (
        f"accessKey={ACCESS}&amount=50000&extraData=&orderId=POS01-1&orderInfo=Cà phê"
        "&partnerCode=MOMO&paymentCode=c2VhbGVk&requestId=POS01-1")


def test_the_other_calls_strings_are_the_spec_s() -> None:
    values = {"accessKey": ACCESS, "amount": 1000, "description": "d", "orderId": "o",
              "partnerCode": "p", "requestId": "r", "requestType": "capture", "transId": 42}
    assert signing.raw_string(signing.QUERY_FIELDS, values) == (
        f"accessKey={ACCESS}&orderId=o&partnerCode=p&requestId=r")
    assert signing.raw_string(signing.CONFIRM_FIELDS, values) == (
        f"accessKey={ACCESS}&amount=1000&description=d&orderId=o&partnerCode=p&requestId=r"
        "&requestType=capture")
    assert signing.raw_string(signing.REFUND_FIELDS, values) == (
        f"accessKey={ACCESS}&amount=1000&description=d&orderId=o&partnerCode=p&requestId=r"
        "&transId=42")


def test_hmac_sha256_lowercase_hex_with_the_secret_key() -> None:
    raw = f"accessKey={ACCESS}&orderId=o&partnerCode=p&requestId=r"
    want = hmac.new(SECRET.encode(), raw.encode(), hashlib.sha256).hexdigest()
    assert signing.sign(SECRET, raw) == want
    assert want == want.lower() and len(want) == 64


def test_the_sealed_code_is_what_is_signed_and_the_emulator_agrees(
        base_settings: Settings) -> None:
    account = MomoAccount(base_url="http://127.0.0.1:9", partner_code="MOMOPOSDEMO01",
                          access_key=ACCESS, secret_key=SECRET,
                          public_key=base_settings.service.rsa_public_key)
    client = MomoClient(account)
    code = "MM112233445566778899"
    prepared = client.prepare_pay("POS01-17", 64000, "Bánh mì", code)
    body = dict(prepared.body)
    sealed = str(body["paymentCode"])
    assert code not in str(body) and code not in repr(prepared)
    key = load_private_key(_private_pem(base_settings))
    assert len(base64.b64decode(sealed)) == key.key_size // 8  # one RSA block, standard base64
    assert key.decrypt(base64.b64decode(sealed), padding.PKCS1v15()).decode() == code
    raw = signing.raw_string(signing.PAY_FIELDS, {**body, "accessKey": ACCESS})
    assert f"paymentCode={sealed}&" in raw and code not in raw
    assert body["signature"] == signing.sign(SECRET, raw)
    assert emulator_signatures.valid("pay", body, ACCESS, SECRET)
    assert not emulator_signatures.valid("pay", {**body, "amount": 64001}, ACCESS, SECRET)
    client.close()


def _private_pem(settings: Settings) -> str:
    from pathlib import Path

    path = Path(settings.emulator.private_key)
    if not path.is_absolute():
        path = Path(settings.source).parent / path
    return path.read_text(encoding="ascii")
