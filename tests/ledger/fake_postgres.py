"""A fake PostgreSQL server on loopback that answers "no TLS" ('N') to every SSLRequest and then
asks for the password in clear text (AuthenticationCleartextPassword): it records every byte a
client sends, so a test can tell whether a password ever crossed in clear."""

from __future__ import annotations

import socket
import struct
import threading
from types import TracebackType

SSL_REQUEST = 80877103
GSSENC_REQUEST = 80877104
CLEARTEXT_PASSWORD = b"R" + struct.pack("!ii", 8, 3)


class NoTlsPostgres:
    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = int(self.sock.getsockname()[1])
        self.received = bytearray()
        self.connections = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self) -> NoTlsPostgres:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.sock.close()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with self._lock:
                self.connections += 1
            threading.Thread(target=self._client, args=(conn,), daemon=True).start()

    def _read(self, conn: socket.socket, n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = conn.recv(n - len(data))
            if not chunk:
                raise ConnectionError
            data += chunk
        with self._lock:
            self.received += data
        return data

    def _client(self, conn: socket.socket) -> None:
        conn.settimeout(10)
        try:
            with conn:
                while True:
                    (length,) = struct.unpack("!i", self._read(conn, 4))
                    body = self._read(conn, length - 4)
                    code = struct.unpack("!i", body[:4])[0] if len(body) >= 4 else 0
                    if code in (SSL_REQUEST, GSSENC_REQUEST):
                        conn.sendall(b"N")
                        continue
                    conn.sendall(CLEARTEXT_PASSWORD)  # the startup message: "your password?"
                    kind = self._read(conn, 1)
                    (length,) = struct.unpack("!i", self._read(conn, 4))
                    self._read(conn, length - 4)
                    if kind == b"p":
                        return
        except (OSError, ConnectionError, struct.error):
            return
