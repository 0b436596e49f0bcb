"""Payment-code encryption: RSA PKCS#1 v1.5 with the service's public key, then base64."""

from __future__ import annotations

import base64
import binascii
import re

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey

from .errors import RsaKeyError

MIN_KEY_BITS = 512  # the sandbox key
MAX_KEY_BITS = 4096
PKCS1_V15_OVERHEAD = 11  # bytes of padding PKCS#1 v1.5 adds to every block

_WHITESPACE = re.compile(r"\s+")


def _b64decode_any(text: str) -> bytes:
    """Decode standard or URL-safe base64, with or without padding."""
    compact = _WHITESPACE.sub("", text)
    compact = compact.rstrip("=")
    if "-" in compact or "_" in compact:
        compact = compact.replace("-", "+").replace("_", "/")
    compact += "=" * (-len(compact) % 4)
    return base64.b64decode(compact, validate=True)


def load_public_key(text: str) -> RSAPublicKey:
    """Read the service's RSA public key: bare base64 of the DER structure (as the service
    publishes it, standard or URL-safe alphabet) or PEM. Raises RsaKeyError with the reason."""
    stripped = text.strip()
    if not stripped:
        raise RsaKeyError("the RSA public key is empty: paste the key from the merchant portal")
    try:
        if stripped.startswith("-----BEGIN"):
            key = serialization.load_pem_public_key(stripped.encode("ascii"))
        else:
            key = serialization.load_der_public_key(_b64decode_any(stripped))
    except (ValueError, TypeError, binascii.Error, UnicodeEncodeError) as exc:
        raise RsaKeyError(
            "the RSA public key cannot be read: expected base64 of the DER public key "
            f"or a PEM block ({type(exc).__name__})"
        ) from None
    if not isinstance(key, RSAPublicKey):
        raise RsaKeyError(f"the public key is not an RSA key ({type(key).__name__})")
    if not MIN_KEY_BITS <= key.key_size <= MAX_KEY_BITS:
        raise RsaKeyError(
            f"the RSA public key has {key.key_size} bits; expected {MIN_KEY_BITS} to {MAX_KEY_BITS}"
        )
    return key


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
