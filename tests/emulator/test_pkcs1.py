"""A payment code encrypted with another key is refused as undecryptable, every time.

OpenSSL 3.2+ "decrypts" such a ciphertext to a pseudo-random message (implicit rejection);
now and then a short printable one, which the emulator took for a payment code and then
refused as a bad signature (-402 instead of -401: seen once in a loaded CI run)."""

from __future__ import annotations

import base64

import pytest
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from pos_terminal.emulator.pkcs1 import decrypt_v15
from pos_terminal.emulator.zalopay import wire
from pos_terminal.emulator.zalopay.verify import Refused, decrypt_payment_code

CODE = b"123456789012345678"


@pytest.fixture(scope="module")
def keys() -> tuple[rsa.RSAPrivateKey, rsa.RSAPublicKey]:
    return (rsa.generate_private_key(public_exponent=65537, key_size=1024),
            rsa.generate_private_key(public_exponent=65537, key_size=1024).public_key())


def test_a_code_for_this_key_decrypts(keys: tuple[rsa.RSAPrivateKey, rsa.RSAPublicKey]) -> None:
    own, _ = keys
    sealed = own.public_key().encrypt(CODE, padding.PKCS1v15())
    assert decrypt_v15(own, sealed) == CODE
    assert decrypt_payment_code("paymentcode", base64.b64encode(sealed).decode(), own) == \
        CODE.decode()


def test_every_code_for_another_key_is_undecryptable(
        keys: tuple[rsa.RSAPrivateKey, rsa.RSAPublicKey]) -> None:
    own, other = keys
    answers = set()
    for _ in range(300):
        sealed = base64.b64encode(other.encrypt(CODE, padding.PKCS1v15())).decode()
        with pytest.raises(Refused) as refused:
            decrypt_payment_code("paymentcode", sealed, own)
        answers.add((refused.value.code, refused.value.message))
    assert answers == {(wire.BAD_DATA, "invalid request data: paymentcode cannot be decrypted "
                                       "with the application's key")}
