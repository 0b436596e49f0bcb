"""RSA PKCS#1 v1.5 decryption that says when a ciphertext was not made with this key.

OpenSSL 3.2 and later answer a ciphertext whose padding is wrong (one made with another key)
with a pseudo-random message instead of an error ("implicit rejection", a defence against
padding oracles): 99% of such ciphertexts "decrypted" here, and now and then to a short
printable string the emulator took for a payment code, so its answer turned from "cannot be
decrypted" into "bad signature". The emulators check the padding themselves instead. They
hold demonstration keys only, so a padding oracle costs nothing here; a real service keeps
OpenSSL's default.
"""

from __future__ import annotations

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

_MIN_PADDING = 8  # PKCS#1 v1.5: at least eight non-zero padding bytes


def decrypt_v15(key: rsa.RSAPrivateKey, ciphertext: bytes) -> bytes:
    """The message inside `ciphertext`; ValueError when it is not a PKCS#1 v1.5 encryption
    block for this key (wrong length, wrong key, damaged)."""
    size = (key.key_size + 7) // 8
    if len(ciphertext) != size:
        raise ValueError(f"ciphertext is {len(ciphertext)} bytes, the key needs {size}")
    numbers = key.private_numbers()
    c = int.from_bytes(ciphertext, "big")
    if c >= numbers.public_numbers.n:
        raise ValueError("ciphertext out of range for the key")
    # the Chinese remainder theorem: two half-size exponentiations
    m1 = pow(c, numbers.dmp1, numbers.p)
    m2 = pow(c, numbers.dmq1, numbers.q)
    block = (m2 + (numbers.iqmp * (m1 - m2) % numbers.p) * numbers.q).to_bytes(size, "big")
    end = block.find(b"\x00", 2)
    if block[:2] != b"\x00\x02" or end < 2 + _MIN_PADDING:
        raise ValueError("not encrypted with this key")
    return block[end + 1:]


def load_private_key(pem_text: str) -> rsa.RSAPrivateKey:
    """The PEM block of the key file; the lines before it (the TEST KEY warning) are skipped."""
    start = pem_text.find("-----BEGIN")
    if start < 0:
        raise ValueError("no PEM block in the private key file")
    key = serialization.load_pem_private_key(pem_text[start:].encode("ascii"), password=None)
    if not isinstance(key, rsa.RSAPrivateKey):
        raise ValueError("the private key is not an RSA key")
    return key
