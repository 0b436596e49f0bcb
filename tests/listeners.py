"""Real listeners on loopback that fail a connection before any request can be sent:
a TLS server with a certificate nobody trusts, a TCP server that resets during the TLS
handshake, and a port where nothing listens."""

from __future__ import annotations

import datetime
import ipaddress
import socket
import ssl
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def self_signed(folder: Path, host: str = "127.0.0.1") -> tuple[Path, Path]:
    """A certificate for the address `host` made now, signed by itself: trusted by nobody
    unless named as its own CA (`verify=cert`); its key file (0600) beside it."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address(host))]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    key_path.chmod(0o600)
    return cert_path, key_path


class Listener:
    """Accepts connections on a thread; ``received`` holds the bytes of any HTTP request
    read after a completed handshake (there must never be one)."""

    def __init__(self, mode: str, folder: Path) -> None:
        self.mode = mode
        self.received: list[bytes] = []
        self.accepted = 0
        self._server = socket.create_server(("127.0.0.1", 0))
        self._server.settimeout(0.2)
        self.port = int(self._server.getsockname()[1])
        self._context: ssl.SSLContext | None = None
        if mode == "untrusted_tls":
            cert, key = self_signed(folder)
            self._context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self._context.load_cert_chain(cert, key)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.accepted += 1
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        conn.settimeout(5)
        try:
            if self.mode == "reset_handshake":
                conn.recv(1024)  # the ClientHello, then a reset (RST) instead of an answer
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                conn.close()
                return
            assert self._context is not None
            with self._context.wrap_socket(conn, server_side=True) as tls:
                data = tls.recv(65536)
                if data:
                    self.received.append(data)
        except (OSError, ssl.SSLError):
            pass
        finally:
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self._server.close()
        self._thread.join(5)


@contextmanager
def listener(mode: str, folder: Path) -> Iterator[Listener]:
    """mode: "untrusted_tls" (a self-signed certificate) or "reset_handshake"."""
    server = Listener(mode, folder)
    try:
        yield server
    finally:
        server.close()


def closed_port() -> int:
    """A port on loopback where nothing listens (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
