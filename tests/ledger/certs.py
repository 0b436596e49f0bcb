"""A private CA and a server certificate for the tests' PostgreSQL (TLS with verify-full), made
with the `cryptography` package: the CA signs a certificate for 127.0.0.1, ::1 and localhost."""

from __future__ import annotations

import datetime as dt
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


@dataclass(frozen=True)
class ServerCerts:
    ca: Path  # what a client trusts ([ledger] ca_file, sslrootcert)
    cert: Path
    key: Path


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def make_server_certs(folder: Path, *, ca_name: str = "pos-terminal test ledger CA"
                      ) -> ServerCerts:
    now = dt.datetime.now(dt.UTC)
    def builder() -> x509.CertificateBuilder:
        return (x509.CertificateBuilder().not_valid_before(now - dt.timedelta(hours=1))
                .not_valid_after(now + dt.timedelta(days=2))
                .serial_number(x509.random_serial_number()))

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (builder().subject_name(_name(ca_name)).issuer_name(_name(ca_name))
          .public_key(ca_key.public_key())
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False,
                                       key_encipherment=False, data_encipherment=False,
                                       key_agreement=False, key_cert_sign=True, crl_sign=True,
                                       encipher_only=False, decipher_only=False), critical=True)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    names = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
             x509.IPAddress(ipaddress.ip_address("::1"))]
    cert = (builder().subject_name(_name("localhost"))
            .issuer_name(ca.subject).public_key(key.public_key())
            .add_extension(x509.SubjectAlternativeName(names), critical=False)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .sign(ca_key, hashes.SHA256()))
    out = ServerCerts(folder / "ca.crt", folder / "server.crt", folder / "server.key")
    out.ca.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    out.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    out.key.write_bytes(_pem_key(key))
    out.key.chmod(0o600)
    return out
