"""What the HTTP client needs below requests: knowing whether a request can have left, a total
deadline per request, and a bounded answer.

- **Not sent.** Every failure raised while a connection is being opened (TCP connect, TLS
  handshake, certificate check) happens before the first byte of the request is written: the
  connection classes here turn it into ``NotOpened`` (a urllib3 NewConnectionError), so the
  client can say "nothing was sent". A pooled connection that is reused never goes through
  ``connect()``, so a failure on it is never classified as not sent.
- **A total deadline.** urllib3's read timeout applies per ``recv()``: a server that drips one
  byte a second never trips it. A ``Deadline`` (one timer thread per request) shuts the socket
  down when the whole request has taken longer than allowed; the blocked read then ends at once.
  A watchdog was chosen over re-arming the socket timeout before every read because header
  lines are read by http.client, out of our reach, and a slow drip there must be bounded too.
- **A bounded answer.** ``read_bounded`` reads at most ``limit`` bytes (plus one to notice more)
  and never asks for, nor inflates, a compressed body.
"""

from __future__ import annotations

import contextlib
import errno
import socket
import ssl
import threading
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import MaxRetryError, NameResolutionError, NewConnectionError
from urllib3.util.retry import Retry

#: The largest answer read from the service. Its answers are a few hundred bytes; the bank list,
#: the largest, a few kilobytes. Anything larger is not an answer of this service.
MAX_ANSWER_BYTES = 1024 * 1024
_CHUNK = 64 * 1024

_current = threading.local()


class NotOpened(NewConnectionError):
    """The connection could not be opened (TCP or TLS): no byte of the request was written."""

    def __init__(self, conn: HTTPConnection, cause: str) -> None:
        super().__init__(conn, cause)
        self.cause = cause


class Deadline:
    """A total time limit for one request; ``fire()`` shuts its socket down."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.expired = False
        self._done = False
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self.fire)
        self._timer.daemon = True

    def __enter__(self) -> Deadline:
        _current.deadline = self
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()
        with self._lock:
            self._done = True
            self._sock = None
        _current.deadline = None

    def attach(self, sock: socket.socket | None) -> None:
        """The socket this request uses now (a new or a reused connection)."""
        if sock is None:
            return
        with self._lock:
            if self._done:
                return
            self._sock = sock
            if self.expired:
                _shutdown(sock)

    def fire(self) -> None:
        with self._lock:
            if self._done:
                return
            self.expired = True
            if self._sock is not None:
                _shutdown(self._sock)


def _shutdown(sock: socket.socket) -> None:
    # The plain socket's shutdown, also for an SSLSocket (whose own shutdown drops its TLS
    # state under a reader that may be running in another thread).
    with contextlib.suppress(OSError):
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


def _attach(sock: socket.socket | None) -> None:
    deadline = getattr(_current, "deadline", None)
    if deadline is not None:
        deadline.attach(sock)


def _cause(exc: BaseException, tls: bool) -> str:
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"TLS certificate not accepted: {exc.verify_message or exc.reason}"
    if isinstance(exc, ssl.SSLError):
        return f"TLS handshake failed ({exc.reason or exc.__class__.__name__})"
    if isinstance(exc, TimeoutError | socket.timeout):
        return "TLS handshake timed out" if tls else "connection timed out"
    if isinstance(exc, ConnectionResetError | ConnectionAbortedError | BrokenPipeError):
        return "TLS handshake refused: the connection was reset" if tls else (
            "connection reset while connecting")
    if isinstance(exc, OSError) and exc.strerror:
        return f"TLS handshake failed: {exc.strerror.lower()}" if tls else (
            f"could not connect: {exc.strerror.lower()}")
    return "TLS handshake failed" if tls else "could not connect"


class _GuardedHTTPConnection(HTTPConnection):
    _tls = False

    def connect(self) -> None:
        deadline = getattr(_current, "deadline", None)
        try:
            super().connect()
            _attach(self.sock)
            if deadline is not None and deadline.expired:
                raise TimeoutError("the request's deadline passed while connecting")
        except NewConnectionError:
            raise  # refused, unreachable, name not resolved: urllib3 says so already
        except (OSError, ValueError) as exc:  # ssl.SSLError, CertificateError, resets, timeouts
            self._drop_socket()
            raise NotOpened(self, _cause(exc, self._tls)) from exc

    def _drop_socket(self) -> None:
        sock, self.sock = self.sock, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.close()

    def request(self, *args: Any, **kwargs: Any) -> None:
        _attach(self.sock)  # a reused connection: its socket is the one to watch
        super().request(*args, **kwargs)


class _GuardedHTTPSConnection(_GuardedHTTPConnection, HTTPSConnection):
    _tls = True


class _GuardedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _GuardedHTTPConnection


class _GuardedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _GuardedHTTPSConnection


class GuardedAdapter(HTTPAdapter):
    """An HTTPAdapter whose connections report "not opened" and obey a per-request Deadline."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _GuardedHTTPPool, "https": _GuardedHTTPSPool}


class TooLarge(Exception):
    """The answer is larger than the limit; ``read`` bytes were read before giving up."""

    def __init__(self, read: int, limit: int) -> None:
        super().__init__(f"more than {limit} bytes")
        self.read = read
        self.limit = limit


def read_bounded(raw: Any, limit: int, deadline: Deadline) -> bytes:
    """The whole (undecoded) body of a urllib3 response, at most ``limit`` bytes.

    Raises TooLarge past the limit, TimeoutError once the deadline has passed, and whatever
    urllib3 raises for a dropped connection."""
    parts: list[bytes] = []
    size = 0
    while True:
        chunk = raw.read(_CHUNK, decode_content=False)
        if deadline.expired:
            raise TimeoutError("the request's deadline passed")
        if not chunk:
            break
        size += len(chunk)
        if size > limit:
            raise TooLarge(size, limit)
        parts.append(chunk)
    return b"".join(parts)


def no_retry_adapter() -> HTTPAdapter:
    """An adapter on which urllib3 never re-sends a request, not even on a dropped connection,
    and whose connections say when they could not be opened (see transport.py)."""
    retry = Retry(
        total=0,
        connect=0,
        read=False,
        redirect=False,
        status=0,
        other=0,
        raise_on_redirect=False,
        raise_on_status=False,
    )
    return GuardedAdapter(max_retries=retry)


def not_connected_cause(exc: requests.exceptions.ConnectionError) -> str | None:
    """Why no connection could be opened, or None when the request may have left.

    Only a failure to open a new connection (refused, unreachable, name not resolved, TLS
    handshake refused or failed) proves the request's bytes never left this machine. A reset
    or close on a connection (a reused keep-alive one included) comes back as a ProtocolError
    instead: the request may have been sent, so it is not classified here."""
    wrapped = exc.args[0] if exc.args else None
    reason = wrapped.reason if isinstance(wrapped, MaxRetryError) else None
    if isinstance(reason, NotOpened):
        return reason.cause
    if isinstance(reason, NameResolutionError):
        return f"the name {reason.conn.host} could not be resolved"
    if not isinstance(reason, NewConnectionError):
        return None
    os_error = reason.__cause__ if isinstance(reason.__cause__, OSError) else None
    if isinstance(os_error, ConnectionRefusedError):
        return "connection refused"
    if os_error is not None and os_error.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
        return "network unreachable" if os_error.errno == errno.ENETUNREACH else (
            "host unreachable")
    if os_error is not None and os_error.strerror:
        return f"could not connect: {os_error.strerror.lower()}"
    return "could not connect"
