"""Test RSA key pairs of any size, including the 512-bit size of the service's sandbox key.

cryptography refuses to *generate* keys under 1024 bits (it still loads and uses them), so
small test keys are built from primes found here with Miller-Rabin.
"""

from __future__ import annotations

import functools
import math
import secrets

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

E = 65537
_SMALL_PRIMES = (3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71)


def _is_probable_prime(n: int, rounds: int = 40) -> bool:
    if n < 2:
        return False
    for p in _SMALL_PRIMES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for _ in range(rounds):
        a = secrets.randbelow(n - 3) + 2
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


def _prime(bits: int) -> int:
    while True:
        # top two bits set: the product of two such primes has exactly 2*bits bits
        candidate = secrets.randbits(bits) | (0b11 << (bits - 2)) | 1
        if math.gcd(candidate - 1, E) == 1 and _is_probable_prime(candidate):
            return candidate


@functools.cache
def private_key(bits: int) -> rsa.RSAPrivateKey:
    if bits >= 1024:
        return rsa.generate_private_key(public_exponent=E, key_size=bits)
    while True:
        p, q = _prime(bits // 2), _prime(bits // 2)
        if p != q:
            break
    d = pow(E, -1, math.lcm(p - 1, q - 1))
    numbers = rsa.RSAPrivateNumbers(
        p=p, q=q, d=d,
        dmp1=rsa.rsa_crt_dmp1(d, p), dmq1=rsa.rsa_crt_dmq1(d, q), iqmp=rsa.rsa_crt_iqmp(p, q),
        public_numbers=rsa.RSAPublicNumbers(E, p * q),
    )
    return numbers.private_key()


def public_der(key: rsa.RSAPrivateKey) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def public_pem(key: rsa.RSAPrivateKey) -> str:
    return key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    ).decode("ascii")
