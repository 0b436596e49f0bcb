"""Reading the wallet service's RSA public key (as the merchant portal publishes it).

Here, below the configuration and the wallet client alike: the configuration checks the key
when it loads, the client encrypts payment codes with it.
"""

from __future__ import annotations

import base64
import binascii
import re

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey

from pos_terminal.base.errors import ExitCode, PosError

MIN_KEY_BITS = 512  # the sandbox key
MAX_KEY_BITS = 4096

_WHITESPACE = re.compile(r"\s+")


class KeyFormatError(PosError, ValueError):
    """The RSA public key is unreadable; the message says why."""

    exit_code = ExitCode.NOTHING_SENT


def _b64decode_any(text: str) -> bytes:
    """Decode standard or URL-safe base64, with or without padding."""
    compact = _WHITESPACE.sub("", text)
    compact = compact.rstrip("=")
    if "-" in compact or "_" in compact:
        compact = compact.replace("-", "+").replace("_", "/")
    compact += "=" * (-len(compact) % 4)
    return base64.b64decode(compact, validate=True)


def read_rsa_public_key(text: str) -> RSAPublicKey:
    """Read the service's RSA public key: bare base64 of the DER structure (as the service
    publishes it, standard or URL-safe alphabet) or PEM. Raises KeyFormatError with the reason."""
    stripped = text.strip()
    if not stripped:
        raise KeyFormatError("the RSA public key is empty: paste the key from the merchant portal")
    try:
        if stripped.startswith("-----BEGIN"):
            key = serialization.load_pem_public_key(stripped.encode("ascii"))
        else:
            key = serialization.load_der_public_key(_b64decode_any(stripped))
    except (ValueError, TypeError, binascii.Error, UnicodeEncodeError) as exc:
        raise KeyFormatError(
            "the RSA public key cannot be read: expected base64 of the DER public key "
            f"or a PEM block ({type(exc).__name__})"
        ) from None
    if not isinstance(key, RSAPublicKey):
        raise KeyFormatError(f"the public key is not an RSA key ({type(key).__name__})")
    if not MIN_KEY_BITS <= key.key_size <= MAX_KEY_BITS:
        raise KeyFormatError(
            f"the RSA public key has {key.key_size} bits; expected {MIN_KEY_BITS} to {MAX_KEY_BITS}"
        )
    return key
