"""Headless counter mode: the cash register drives the terminal over a line protocol.

One command a line in, one JSON object a line out:

    PAY <amount> [description]   wait for a scan, charge, answer with the payment
    STATUS <app_trans_id>        the journal's view (a pending payment is queried once)
    REFUND <app_trans_id> [amount]
    RECONCILE                    resolve every unresolved payment and refund
    LEDGER                       the fleet ledger sync: {"behind": N, "reachable": ...}
    QUIT

Every answer has "ok" and "command"; a refused or malformed line gets {"ok": false, "error": ...}
and the loop goes on. PAY, STATUS and REFUND answers follow the one outcome rule of
pos_terminal.checkout.verdict: "outcome" and "exit_code" (0 paid, 1 definitely not paid, 2 nothing
sent, 3 unknown or needs review), and once a payment's intent exists, every answer about it
(an unexpected error included) carries its state and app_trans_id. SIGINT / SIGTERM let the
command under way finish (its journal write, then its answer) and end the session with
{"ok": true, "command": "STOPPED", "signal": ...}."""

from __future__ import annotations

import json
import logging
import queue
import re
import signal
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from pos_terminal.base.codes import mask_code
from pos_terminal.base.errors import cashier_message
from pos_terminal.base.i18n import N_, _
from pos_terminal.checkout import verdict

if TYPE_CHECKING:
    from hardware import ScanEvent, ScanSource
    from pos_terminal.checkout import Checkout

log = logging.getLogger(__name__)
COMMANDS = ("PAY", "STATUS", "REFUND", "RECONCILE", "LEDGER", "QUIT")
USAGE = ("commands: PAY <amount> [description] | STATUS <app_trans_id> | "
         "REFUND <app_trans_id> [amount] | RECONCILE | LEDGER | QUIT")
LedgerStatus = Callable[[], dict[str, Any]]


class Writer(Protocol):
    def write(self, text: str, /) -> int: ...
    def flush(self) -> None: ...


class LineError(Exception):
    """A line the loop refuses; the message says what to send instead."""


class _Terminate(BaseException):
    """Raised by the signal handler while the loop waits for a line (nothing under way)."""


_AMOUNT = re.compile(r"[0-9]{1,16}")  # not str.isdigit(): it says yes to "١٢٣" and "１２３"


def _amount(text: str, what: str) -> int:
    if not _AMOUNT.fullmatch(text):
        if text.isascii() and text.isdigit():
            raise LineError(_("{what} must be at most 16 digits (far above any maximum), got "
                              "{text}...").format(what=_(what), text=repr(text[:20])))
        if any(ch.isdigit() and not ch.isascii() for ch in text):
            sentence = _("{what} must be a whole number of VND (digits only: 0-9; digits of "
                         "other scripts such as ١٢٣ or １２３ do not count), got {text}")
        else:
            sentence = _("{what} must be a whole number of VND (digits only), got {text}")
        raise LineError(sentence.format(what=_(what), text=repr(text[:40])))
    return int(text)


def _decoded(raw: str | bytes) -> str | None:
    """A line as text, or None when it is not UTF-8 (bytes that do not decode, or a str that
    carries them as lone surrogates, as Python's surrogateescape reading of stdin does)."""
    if isinstance(raw, bytes):
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            return None
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return raw


NOT_UTF8 = N_("the line is not UTF-8 text (it holds bytes that are not UTF-8): nothing was "
              "done; send commands as UTF-8 lines, e.g. PAY 25000")
THE_AMOUNT, THE_REFUND_AMOUNT = N_("the amount"), N_("the refund amount")


def _message(exc: BaseException) -> str:
    return cashier_message(exc)


class CounterLoop:
    """Runs commands against a Checkout; PAY takes the next code from `source`."""

    def __init__(self, checkout: Checkout, source: ScanSource | None, out: Writer, *,
                 scan_timeout_s: float = 60.0, ledger: LedgerStatus | None = None) -> None:
        self.checkout = checkout
        self.ledger = ledger
        self.source = source
        self.out = out
        self.scan_timeout_s = scan_timeout_s
        self._codes: queue.Queue[ScanEvent] = queue.Queue()
        self._write_lock = threading.Lock()
        self.stop = threading.Event()  # SIGINT / SIGTERM: finish the command under way, then end
        self.signal_name: str | None = None
        self.busy = False
        if source is not None:
            source.start(self._codes.put)
            source.pause()

    def emit(self, obj: dict[str, Any]) -> None:
        with self._write_lock:
            self.out.write(json.dumps(obj, ensure_ascii=False, default=str) + "\n")
            self.out.flush()

    def run(self, lines: Iterable[str | bytes]) -> None:
        try:
            for raw in lines:
                text = _decoded(raw)
                if text is None:  # never echoed: it would break the UTF-8 of the answer stream
                    self.emit({"ok": False, "command": None, "error": _(NOT_UTF8)})
                    continue
                line = text.strip()
                if line and not self.handle(line):
                    break
                if self.stop.is_set():
                    break
        except _Terminate:
            pass
        if self.stop.is_set():
            self.emit({"ok": True, "command": "STOPPED", "signal": self.signal_name})

    def on_signal(self, signum: int, _frame: object) -> None:
        self.signal_name = signal.Signals(signum).name
        self.stop.set()
        if not self.busy:
            raise _Terminate

    def handle(self, line: str) -> bool:
        """Answer one line; False after QUIT."""
        verb, _sep, rest = line.partition(" ")
        command = verb.upper()
        self.busy = True
        self.checkout.last_intent = None
        self.checkout.last_refund = None
        try:
            if command not in COMMANDS:
                raise LineError(_("unknown command {command}; {usage}").format(
                    command=repr(verb), usage=USAGE))
            if command == "QUIT":
                self.emit({"ok": True, "command": "QUIT"})
                return False
            result = self._dispatch(command, rest.strip())
        except LineError as exc:
            self.emit({"ok": False, "command": command if command in COMMANDS else None,
                       "error": str(exc), "line": line[:200]})
        except Exception as exc:  # every refusal of the engine is a sentence; keep serving
            self.emit(self._error_answer(command, rest.strip(), exc))
        else:
            self.emit({"command": command, **result})
        finally:
            self.busy = False
        return True

    def _error_answer(self, command: str, args: str, exc: Exception) -> dict[str, Any]:
        """ok:false with the error; about a payment that exists: its state and app_trans_id."""
        answer: dict[str, Any] = {"ok": False, "command": command, "error": _message(exc)}
        subject = self.checkout.last_intent if command == "PAY" else None
        if command == "STATUS" and args and self.checkout.journal.find(args) is not None:
            subject = args
        if subject is not None:
            data, _code = verdict.error_answer(exc, self.checkout.journal, subject, None)
            answer.update({k: v for k, v in data.items() if k != "error"})
            answer["ok"] = False
        elif command == "REFUND" and self.checkout.last_refund is not None:
            try:
                refund = self.checkout.journal.get_refund(self.checkout.last_refund)
            except Exception:
                answer.update(m_refund_id=self.checkout.last_refund, state="refunding",
                              outcome=verdict.Verdict.UNKNOWN.value,
                              exit_code=verdict.EXIT_UNKNOWN)
            else:
                answer.update({k: v for k, v in verdict.refund_answer(refund).items()})
                answer["ok"] = False
        elif command == "PAY":
            answer.update(outcome=verdict.Verdict.NOTHING_SENT.value,
                          exit_code=verdict.EXIT_NOTHING_SENT)
        return answer

    def _dispatch(self, command: str, args: str) -> dict[str, Any]:
        if command == "PAY":
            if not args:
                raise LineError(_("PAY needs an amount: PAY <amount> [description]"))
            amount_text, _sep, description = args.partition(" ")
            return self.pay(_amount(amount_text, THE_AMOUNT), description.strip())
        if command == "STATUS":
            if not args or " " in args:
                raise LineError(_("STATUS needs one app_trans_id: STATUS <app_trans_id>"))
            view = self.checkout.status(args)
            return {"ok": True, **verdict.payment_answer(view)}
        if command == "REFUND":
            parts = args.split()
            if not 1 <= len(parts) <= 2:
                raise LineError(_("REFUND needs an app_trans_id and optionally an amount: "
                                  "REFUND <app_trans_id> [amount]"))
            amount = _amount(parts[1], THE_REFUND_AMOUNT) if len(parts) == 2 else None
            refund = self.checkout.refund(parts[0], amount, cancel=self.stop)
            return {"ok": refund.state.value != "failed", **verdict.refund_answer(refund)}
        if args:
            raise LineError(_("{command} takes no arguments").format(command=command))
        if command == "LEDGER":
            if self.ledger is None:
                raise LineError(_("no fleet ledger configured: set [ledger] dsn or "
                                  "POS_LEDGER_DSN"))
            return {"ok": True, **self.ledger()}
        return {"ok": True, **self.checkout.reconcile(cancel=self.stop).to_json()}

    def pay(self, amount: int, description: str) -> dict[str, Any]:
        self.checkout.validate_amount(amount)  # limits before any scan
        event = self.wait_for_code()
        view = self.checkout.pay(amount, event.text, description=description, cancel=self.stop,
                                 stop=self.stop)
        if verdict.of_payment(view) is verdict.Verdict.UNKNOWN:  # given up: returned if late
            view = self.checkout.abandon(view.app_trans_id)
        answer = verdict.payment_answer(view)
        return {"ok": answer["outcome"] == verdict.Verdict.PAID.value,
                "code": mask_code(event.text), **answer}

    def wait_for_code(self) -> ScanEvent:
        if self.source is None:
            raise LineError(_("no scanner: start with --scanner SPEC to take payment codes"))
        while not self._codes.empty():  # a code read while nobody was paying is stale
            self._codes.get_nowait()
        self.source.resume()
        end = time.monotonic() + self.scan_timeout_s
        try:
            while not self.stop.is_set():
                try:
                    return self._codes.get(timeout=max(0.0, min(0.2, end - time.monotonic())))
                except queue.Empty:
                    if time.monotonic() >= end:
                        break
            if self.stop.is_set():
                raise LineError(_("stopped before a payment code was read: nothing was charged"))
            raise LineError(_("no payment code read within {seconds} s: nothing was charged; "
                              "send PAY again when the customer is ready").format(
                                  seconds=f"{self.scan_timeout_s:g}"))
        finally:
            self.source.pause()

    def close(self) -> None:
        if self.source is not None:
            self.source.stop()


def serve(checkout: Checkout, source_factory: Callable[[], ScanSource | None],
          inp: Iterable[str | bytes], out: Writer, *, scan_timeout_s: float = 60.0,
          ledger: LedgerStatus | None = None) -> None:
    """The whole session: announce readiness, answer lines until QUIT or end of input.

    `ledger` (with a fleet ledger configured) gives the background sync's status: in READY
    and as the answer to LEDGER."""
    checkout.reconcile()  # on start, every payment a previous run left open is resolved
    loop = CounterLoop(checkout, source_factory(), out, scan_timeout_s=scan_timeout_s,
                       ledger=ledger)
    previous: dict[signal.Signals, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, loop.on_signal)
    done = threading.Event()
    reconciler = threading.Thread(target=_reconcile_every, args=(checkout, loop, done),
                                  name="headless-reconcile", daemon=True)
    reconciler.start()
    try:
        ready: dict[str, Any] = {"ok": True, "command": "READY", "scanner": loop.source.spec
                                 if loop.source else None, "pending": checkout.pending_count()}
        if ledger is not None:
            ready["ledger"] = ledger()
        loop.emit(ready)
        loop.run(inp)
    finally:
        done.set()
        reconciler.join(timeout=5.0)
        for number, handler in previous.items():
            signal.signal(number, handler)
        loop.close()


#: How often headless mode resolves open payments (and returns late charges) by itself.
RECONCILE_EVERY_S = 30.0


def _reconcile_every(checkout: Checkout, loop: CounterLoop, done: threading.Event) -> None:
    """Keep resolving what was given up on (as the UI does), between commands."""
    while not done.wait(RECONCILE_EVERY_S):
        if loop.busy:
            continue
        try:
            checkout.reconcile(cancel=done)
        except Exception:
            log.exception("background reconciliation failed")
