"""Payment-code encryption: RSA PKCS#1 v1.5 with the service's public key, then base64."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey

from pos_terminal.base.keys import MAX_KEY_BITS, MIN_KEY_BITS, KeyFormatError, read_rsa_public_key

from .errors import RsaKeyError

__all__ = ["MAX_KEY_BITS", "MIN_KEY_BITS", "encrypt_payment_code", "load_public_key",
           "max_code_bytes"]

PKCS1_V15_OVERHEAD = 11  # bytes of padding PKCS#1 v1.5 adds to every block


def load_public_key(text: str) -> RSAPublicKey:
    """The service's RSA public key (base/keys.py reads it). Raises RsaKeyError with the
    reason."""
    try:
        return read_rsa_public_key(text)
    except KeyFormatError as exc:
        raise RsaKeyError(exc.message) from None


def max_code_bytes(key: RSAPublicKey) -> int:
    """The longest payment code (UTF-8 bytes) one PKCS#1 v1.5 block of ``key`` can carry."""
    return key.key_size // 8 - PKCS1_V15_OVERHEAD


def encrypt_payment_code(code: str, key: RSAPublicKey, urlsafe: bool = False) -> str:
    """RSA PKCS#1 v1.5 encrypt the raw code and base64 it (standard alphabet unless ``urlsafe``).

    Form-url-encoding happens when the request is sent, not here."""
    data = code.encode("utf-8")
    limit = max_code_bytes(key)
    if len(data) > limit:
        raise RsaKeyError(
            f"the payment code is {len(data)} bytes long but a {key.key_size}-bit RSA key can "
            f"encrypt at most {limit}: check the scanned code and the configured rsa_public_key"
        )
    ciphertext = key.encrypt(data, padding.PKCS1v15())
    if urlsafe:
        return base64.urlsafe_b64encode(ciphertext).decode("ascii")
    return base64.b64encode(ciphertext).decode("ascii")
