"""Serving the Terminal API with uvicorn in a thread: for `pos-terminal serve`, beside the UI
(`[api] with_ui`) and in tests.

Bound to loopback by default. Beyond loopback only with TLS (a certificate file and its key):
tokens, PINs and payment codes never cross a network in clear text."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import uvicorn

from pos_terminal.api.app import create_app
from pos_terminal.api.events import EventFeed
from pos_terminal.api.terminal import Terminal
from pos_terminal.base.errors import ExitCode, PosError
from pos_terminal.base.hosts import HostRule, is_loopback
from pos_terminal.base.i18n import _
from pos_terminal.counter import Counter, Scanner
from pos_terminal.counter.admin import ApiTokens, start_event_run
from pos_terminal.counter.background import start_reconciler
from pos_terminal.counter.sales import SaleDesk
from pos_terminal.counter.types import PaymentView

log = logging.getLogger(__name__)


class ServeError(PosError):
    exit_code = ExitCode.NOTHING_SENT


@dataclass(frozen=True)
class Binding:
    host: str
    port: int
    cert_file: Path | None = None
    key_file: Path | None = None

    @property
    def tls(self) -> bool:
        return self.cert_file is not None

    def check(self) -> Binding:
        """Refuse a binding beyond loopback without TLS, or half a TLS setting."""
        if (self.cert_file is None) != (self.key_file is None):
            raise ServeError(_("TLS needs both a certificate file and its key: set [api] "
                               "cert_file and key_file (or --cert and --key)."))
        for path in (self.cert_file, self.key_file):
            if path is not None and not path.is_file():
                raise ServeError(_("The TLS file {path} does not exist or is not a "
                                   "file.").format(path=path))
        if not is_loopback(self.host) and not self.tls:
            raise ServeError(_("Serving on {host} reaches beyond this machine: tokens, PINs and "
                               "payment codes would cross the network in clear text. Give a "
                               "certificate: [api] cert_file and key_file (or --cert and "
                               "--key), or bind 127.0.0.1.").format(host=self.host))
        return self


def open_terminal(counter: Counter, scanner: Scanner | None = None, *,
                  scan_timeout_s: float | None = None) -> Terminal:
    timeout = counter.settings.api.scan_timeout_s if scan_timeout_s is None else scan_timeout_s
    run = start_event_run(counter.journal)
    return Terminal(counter, SaleDesk(counter, scanner, scan_timeout_s=timeout),
                    EventFeed(counter.bus, run=run.number, run_started_ms=run.started_ms,
                              previous_run_started_ms=run.previous_started_ms,
                              settled_since=_settled_since(counter)),
                    ApiTokens(counter.journal))


def _settled_since(counter: Counter) -> Callable[[int], list[PaymentView]]:
    """The payments that became final since a time: created up to a day before it (a payment
    is followed for minutes, not days), final, updated since."""

    def settled(since_ms: int) -> list[PaymentView]:
        found = counter.history.iter_payments(since_ms=since_ms - 24 * 3600 * 1000)
        return sorted((v for v in found if v.is_final and v.updated_ms >= since_ms),
                      key=lambda v: v.updated_ms)

    return settled


class ApiServer:
    """uvicorn over one Terminal, in a thread (`pos-terminal serve` waits for a signal beside
    it; the UI runs beside it), with the background reconciliation of open payments."""

    def __init__(self, terminal: Terminal, binding: Binding) -> None:
        self.terminal = terminal
        self.binding = binding.check()
        config = uvicorn.Config(
            create_app(terminal, HostRule.for_bind(binding.host,
                                                   terminal.settings.api.allowed_hosts)),
            host=binding.host, port=binding.port, log_config=None,
            access_log=False,  # ours (api/limits.py) writes paths only
            ssl_certfile=str(binding.cert_file) if binding.cert_file else None,
            ssl_keyfile=str(binding.key_file) if binding.key_file else None,
            timeout_graceful_shutdown=_grace_s(terminal), lifespan="off",
            http="h11")  # h11: strict framing (docs/security.md, request smuggling)
        self.server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None
        self._done = threading.Event()

    @property
    def port(self) -> int:
        for server in getattr(self.server, "servers", []):
            for sock in server.sockets:
                return int(sock.getsockname()[1])
        return self.binding.port

    @property
    def url(self) -> str:
        scheme = "https" if self.binding.tls else "http"
        host = self.binding.host
        return f"{scheme}://{'[' + host + ']' if ':' in host else host}:{self.port}"

    def start(self, timeout_s: float = 15.0) -> ApiServer:
        self._thread = threading.Thread(target=self.server.run, name="terminal-api",
                                        daemon=True)
        self._thread.start()
        start_reconciler(self.terminal.counter, self._done, "api-reconcile")
        _wait(lambda: self.server.started or not self._thread_alive(), timeout_s)
        if not self.server.started:
            self.stop()
            raise ServeError(_("The Terminal API could not start on {host}:{port} (is the port "
                               "taken?).").format(host=self.binding.host,
                                                  port=self.binding.port))
        return self

    def _thread_alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stop(self) -> None:
        """Requests under way get their answers: sales are aborted first (not sent, or
        abandoned so that a late charge is returned), then the server closes."""
        self.terminal.desk.abort_all()
        self.terminal.feed.close()  # event streams end, or the server would wait for them
        self.server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.close()

    def close(self) -> None:
        self._done.set()
        self.terminal.feed.close()

    def __enter__(self) -> ApiServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _grace_s(terminal: Terminal) -> int:
    """Long enough for a send under way to end (connect + read timeout) and be answered."""
    return int(terminal.settings.longest_request_s + 5)


def _wait(ready: Callable[[], bool], timeout_s: float) -> bool:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if ready():
            return True
        time.sleep(0.02)
    return bool(ready())
