"""Payment-code encryption round trips with test private keys of the sizes the service uses."""

from __future__ import annotations

import base64

import pytest
from cryptography.hazmat.primitives.asymmetric import ec, padding

from pos_terminal.base.codes import mask_code
from pos_terminal.wallets.crypto import encrypt_payment_code, load_public_key
from pos_terminal.wallets.errors import RsaKeyError

from .rsa_keys import private_key, public_der, public_pem

CODE = "840123456789012345"


def key_texts(bits: int) -> dict[str, str]:
    der = public_der(private_key(bits))
    return {
        "der-standard": base64.b64encode(der).decode(),
        "der-urlsafe": base64.urlsafe_b64encode(der).decode(),
        "der-unpadded-wrapped": "\n".join(
            base64.b64encode(der).decode().rstrip("=")[i:i + 64] for i in range(0, 400, 64)
        ),
        "pem": public_pem(private_key(bits)),
    }


@pytest.mark.parametrize("bits", [512, 1024, 2048])
@pytest.mark.parametrize("form", ["der-standard", "der-urlsafe", "der-unpadded-wrapped", "pem"])
@pytest.mark.parametrize("urlsafe", [False, True])
def test_round_trip(bits: int, form: str, urlsafe: bool) -> None:
    key = load_public_key(key_texts(bits)[form])
    assert key.key_size == bits
    encrypted = encrypt_payment_code(CODE, key, urlsafe=urlsafe)
    assert len(encrypted) == 4 * ((bits // 8 + 2) // 3)  # 512 bits -> 88 characters
    if urlsafe:
        assert "+" not in encrypted and "/" not in encrypted
        raw = base64.urlsafe_b64decode(encrypted)
    else:
        assert "-" not in encrypted and "_" not in encrypted
        raw = base64.b64decode(encrypted, validate=True)
    assert private_key(bits).decrypt(raw, padding.PKCS1v15()) == CODE.encode()


def test_encryption_is_randomised() -> None:
    key = load_public_key(key_texts(512)["pem"])
    assert encrypt_payment_code(CODE, key) != encrypt_payment_code(CODE, key)


def test_code_too_long_for_the_key_is_a_clear_error() -> None:
    key = load_public_key(key_texts(512)["der-standard"])
    encrypt_payment_code("9" * 53, key)  # 64 - 11 bytes: fits exactly
    with pytest.raises(RsaKeyError) as err:
        encrypt_payment_code("9" * 54, key)
    assert err.value.message == (
        "the payment code is 54 bytes long but a 512-bit RSA key can encrypt at most 53: "
        "check the scanned code and the configured rsa_public_key"
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("not base64 at all!", "cannot be read"),
        (base64.b64encode(b"\x30\x03\x02\x01\x01").decode(), "cannot be read"),
        ("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----", "cannot be read"),
    ],
)
def test_unreadable_keys(text: str, reason: str) -> None:
    with pytest.raises(RsaKeyError, match=reason):
        load_public_key(text)


def test_wrong_key_type_and_size() -> None:
    from cryptography.hazmat.primitives import serialization

    ec_der = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    with pytest.raises(RsaKeyError, match="not an RSA key"):
        load_public_key(base64.b64encode(ec_der).decode())
    small = base64.b64encode(public_der(private_key(384))).decode()
    with pytest.raises(RsaKeyError, match="384 bits; expected 512 to 4096"):
        load_public_key(small)


def test_mask_code() -> None:
    assert mask_code(CODE) == "••••2345"
    assert mask_code("1234") == "••••"
    assert mask_code("") == "••••"
