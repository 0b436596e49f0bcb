"""Headless counter mode: the cash register drives the terminal over a line protocol.

One command a line in, one JSON object a line out:

    PAY <amount> [REF=<sale_ref>] [PROVIDER=<wallet>] [description]
                                 wait for a scan, charge, answer with the payment; with REF=
                                 the sale system's reference: a sale is charged at most once,
                                 the same PAY again answers with its payment (another amount
                                 under the same REF is refused), as in the Terminal API; with
                                 PROVIDER= a wallet's name the wallet, else the code's pattern
                                 decides (a code no wallet or several take is refused)
    QR <amount> [REF=<sale_ref>] [PROVIDER=<wallet>] [description]
                                 the shop's QR (a shop-QR wallet: PROVIDER=, else the first
                                 this counter takes) shown on the customer display, waited for
                                 like PAY (with REF=, at most one payment per sale, as PAY);
                                 the answer carries "qr_content", and "amount_paid" /
                                 "amount_missing" when part of the money arrived (never paid)
    STATUS <app_trans_id>        the journal's view (a pending payment is queried once)
    STATUS REF=<sale_ref>        the same, by the sale system's reference
    REFUND <app_trans_id> [amount] [SUPERVISOR=<id> PIN=<pin>] [CASHIER=<id>]
                                 once a supervisor is set up, their id and PIN authorise it
    RECONCILE                    resolve every unresolved payment and refund
    LEDGER                       the fleet ledger sync: {"behind": N, "reachable": ...}
    QUIT

Every answer has "ok" and "command"; a refused or malformed line gets {"ok": false, "error": ...}
and the loop goes on. PAY, STATUS and REFUND answers follow the one outcome rule of
pos_terminal.counter.answers: "outcome" (paid, late, returned, not_paid, unknown, needs_review),
"late", "money" and "exit_code" (0 paid, 1 definitely not paid or returned, 2 nothing sent,
3 unknown, needs review or charged late); "ok" is true only when paid for the sale; and once
a payment's intent exists, every answer about it (an unexpected error included) carries its state
and app_trans_id. SIGINT / SIGTERM let the command under way finish (its journal write, then its
answer) and end the session with {"ok": true, "command": "STOPPED", "signal": ...}.

The line obeys the same authority as the UI and the CLI (docs/security.md): money that leaves
the merchant needs a supervisor's id and PIN once one exists. A PIN is never echoed (a refused
REFUND line is not repeated in its answer), logged or journaled."""

from __future__ import annotations

import logging
import re
import signal
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from pos_terminal.base.amounts import CURRENCY_MARKS, parse_amount, parse_refund_amount
from pos_terminal.base.codes import mask_last4
from pos_terminal.base.errors import cashier_message
from pos_terminal.base.i18n import N_, _
from pos_terminal.base.reasons import Reason
from pos_terminal.counter import Counter, ScannedCode, Scanner, answers
from pos_terminal.counter.background import RECONCILE_EVERY_S, start_reconciler
from pos_terminal.counter.cashiers import AuthorityRequired
from pos_terminal.counter.qr_sales import qr_sale, shop_qr_wallet
from pos_terminal.counter.sales import SaleDesk, SaleRefused, check_ref
from pos_terminal.counter.types import InvalidPayment, PaymentView, intent_of, refund_of
from pos_terminal.sentences import use_front_end
from pos_terminal.text_safety import json_line

if TYPE_CHECKING:
    from hardware import ScanSource

log = logging.getLogger(__name__)
COMMANDS = ("PAY", "QR", "STATUS", "REFUND", "RECONCILE", "LEDGER", "QUIT")
USAGE = ("commands: PAY <amount> [REF=<sale_ref>] [PROVIDER=<wallet>] [description] | "
         "QR <amount> [REF=<sale_ref>] [PROVIDER=<wallet>] [description] | "
         "STATUS <app_trans_id> | STATUS REF=<sale_ref> | "
         "REFUND <app_trans_id> [amount] [SUPERVISOR=<id> PIN=<pin>] | RECONCILE | LEDGER | QUIT")
REF = "REF="
PROVIDER = "PROVIDER="
REFUND_USAGE = "REFUND <app_trans_id> [amount] [SUPERVISOR=<id> PIN=<pin>] [CASHIER=<id>]"
#: Commands whose line may hold a PIN: their refusals never repeat the line.
SECRET_LINES = frozenset({"REFUND"})
_PIN_VALUE = re.compile(r"(PIN=)\S*", re.IGNORECASE)


def _shown(text: str) -> str:
    """A line (or part of one) as it may be repeated in an answer: any PIN= value masked (a
    mistyped verb must not echo the PIN that followed it)."""
    return _PIN_VALUE.sub(r"\1•••", text)
LedgerStatus = Callable[[], dict[str, Any]]


class Writer(Protocol):
    def write(self, text: str, /) -> int: ...
    def flush(self) -> None: ...


class LineError(Exception):
    """A line the loop refuses; the message says what to send instead."""


class _Terminate(BaseException):
    """Raised by the signal handler while the loop waits for a line (nothing under way)."""


def _words_of_amount(args: str) -> tuple[str, str]:
    """The amount's words at the head of `args` (a currency mark after a space, as in
    "50.000 đ", belongs to it) and the rest of the line."""
    amount_text, _sep, rest = args.partition(" ")
    mark, _sep, after = rest.strip().partition(" ")
    if mark and mark.lower() in CURRENCY_MARKS:
        return f"{amount_text} {mark}", after.strip()
    return amount_text, rest.strip()


def _refused(read: int | Reason) -> int:
    """An amount by the one rule (base/amounts.py), or its refusal, answered like every other
    refusal before anything was sent."""
    if isinstance(read, Reason):
        raise InvalidPayment("amount", read)
    return read


def _options(args: str, names: tuple[str, ...]) -> tuple[list[str], dict[str, str]]:
    """The positional words of a line and its NAME=value options (names case-insensitive,
    each at most once). Never repeats a value in its refusals: one may be a PIN."""
    words: list[str] = []
    options: dict[str, str] = {}
    for word in args.split():
        name, sep, value = word.partition("=")
        if not sep:
            words.append(word)
            continue
        key = name.upper()
        if key not in names:
            raise LineError(_("unknown option {name}=; the options are {names}").format(
                name=repr(name[:20]), names=", ".join(f"{n}=" for n in names)))
        if key in options:
            raise LineError(_("{name}= is given twice").format(name=key))
        options[key] = value
    return words, options


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


def _message(exc: BaseException) -> str:
    return cashier_message(exc)


class CounterLoop:
    """Runs commands against a Counter; PAY takes the next code from `source`."""

    def __init__(self, counter: Counter, source: ScanSource | None, out: Writer, *,
                 scan_timeout_s: float = 60.0, ledger: LedgerStatus | None = None) -> None:
        use_front_end("lines")  # it keeps checking open payments; a person's step is the CLI
        self.counter = counter
        self.ledger = ledger
        self.source = source
        self.scanner = Scanner(source, counter) if source is not None else None
        self.out = out
        self.scan_timeout_s = scan_timeout_s
        self._write_lock = threading.Lock()
        self.stop = threading.Event()  # SIGINT / SIGTERM: finish the command under way, then end
        self.signal_name: str | None = None
        self.busy = False
        self.desk = SaleDesk(counter, self.scanner, scan_timeout_s=scan_timeout_s)
        if self.scanner is not None:
            self.scanner.start(paused=True)

    def emit(self, obj: dict[str, Any]) -> None:
        with self._write_lock:
            self.out.write(json_line(obj, default=str) + "\n")
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
        try:
            if command not in COMMANDS:
                raise LineError(_("unknown command {command}; {usage}").format(
                    command=repr(_shown(verb)), usage=USAGE))
            if command == "QUIT":
                self.emit({"ok": True, "command": "QUIT"})
                return False
            result = self._dispatch(command, rest.strip())
        except LineError as exc:
            answer = {"ok": False, "command": command if command in COMMANDS else None,
                      "error": str(exc)}
            if command not in SECRET_LINES:
                answer["line"] = _shown(line)[:200]
            self.emit(answer)
        except SaleRefused as exc:  # nothing charged: the sale's reference refused it
            self.emit({"ok": False, "command": command, "error": exc.message,
                       "refused": exc.code, "outcome": answers.Verdict.NOTHING_SENT.value,
                       "exit_code": answers.EXIT_NOTHING_SENT})
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
        subject = intent_of(exc) if command in ("PAY", "QR") else None
        if command == "STATUS" and args and self.counter.payments.find(args) is not None:
            subject = args
        if subject is not None:
            data, _code = answers.error_answer(exc, self.counter.payments, subject, None)
            answer.update({k: v for k, v in data.items() if k != "error"})
            answer["ok"] = False
        elif command == "REFUND" and (m_refund_id := refund_of(exc)) is not None:
            try:
                refund = self.counter.refunds.get(m_refund_id)
            except Exception:
                answer.update(m_refund_id=m_refund_id, state="refunding",
                              outcome=answers.Verdict.UNKNOWN.value,
                              exit_code=answers.EXIT_UNKNOWN)
            else:
                answer.update({k: v for k, v in answers.refund_answer(refund).items()})
                answer["ok"] = False
        elif command in ("PAY", "QR"):
            answer.update(outcome=answers.Verdict.NOTHING_SENT.value,
                          exit_code=answers.EXIT_NOTHING_SENT)
        return answer

    def _dispatch(self, command: str, args: str) -> dict[str, Any]:
        if command == "PAY":
            if not args:
                raise LineError(_("PAY needs an amount: PAY <amount> [REF=<sale_ref>] "
                                  "[PROVIDER=<wallet>] [description]"))
            to_pay, sale_ref, provider, rest = self._amount_and_options(args)
            if sale_ref is not None:
                return self.pay_sale(to_pay, sale_ref, rest, provider)
            return self.pay(to_pay, rest, provider)
        if command == "QR":
            return self.qr(args)
        if command == "STATUS":
            if not args or " " in args:
                raise LineError(_("STATUS needs one app_trans_id: STATUS <app_trans_id> or "
                                  "STATUS REF=<sale_ref>"))
            if args.upper().startswith(REF):
                return self.sale_status(_sale_ref(args))
            answer = answers.payment_answer(self.counter.payments.status(args))
            # As for PAY: ok only when paid, never for a payment still unknown or under review.
            return {"ok": answer["outcome"] == answers.Verdict.PAID.value, **answer}
        if command == "REFUND":
            return self.refund(args)
        if args:
            raise LineError(_("{command} takes no arguments").format(command=command))
        if command == "LEDGER":
            if self.ledger is None:
                raise LineError(_("no fleet ledger configured: set [ledger] dsn or "
                                  "POS_LEDGER_DSN"))
            return {"ok": True, **self.ledger()}
        return {"ok": True, **answers.reconcile_answer(self.counter.reconcile(cancel=self.stop))}

    def _amount_and_options(self, args: str) -> tuple[int, str | None, str | None, str]:
        """PAY's and QR's amount (the one rule), REF=, PROVIDER= and description."""
        amount_text, rest = _words_of_amount(args)
        amount = _refused(parse_amount(amount_text, self.counter.settings.checkout))
        return (amount, *self._pay_options(rest))

    def _pay_options(self, rest: str) -> tuple[str | None, str | None, str]:
        """PAY's REF= and PROVIDER= (in either order, before the description)."""
        sale_ref: str | None = None
        provider: str | None = None
        while True:
            first, _sep, after = rest.partition(" ")
            if sale_ref is None and first.upper().startswith(REF):
                sale_ref = _sale_ref(first)
            elif provider is None and first.upper().startswith(PROVIDER):
                provider = first[len(PROVIDER):].lower()
                wallets = self.counter.payments.wallets
                if provider not in wallets:
                    raise LineError(_("PROVIDER={wallet}: this counter takes {wallets}; nothing "
                                      "was charged").format(wallet=provider[:20],
                                                            wallets=", ".join(wallets)))
            else:
                return sale_ref, provider, rest
            rest = after.strip()

    def pay(self, amount: int, description: str, provider: str | None = None
            ) -> dict[str, Any]:
        code = self.wait_for_code()
        view = self.counter.payments.pay(amount, code, description=description, cancel=self.stop,
                                         stop=self.stop, provider=provider)
        return self._answer(view, code)

    def pay_sale(self, amount: int, sale_ref: str, description: str,
                 provider: str | None = None) -> dict[str, Any]:
        """PAY under the sale system's reference: at most one charge per sale (SaleDesk)."""
        if self.scanner is None and self.counter.payments.find_by_sale_ref(sale_ref) is None:
            raise LineError(_("no scanner: start with --scanner SPEC to take payment codes"))
        view = self.desk.pay(sale_ref, amount, description=description, stop=self.stop,
                             provider=provider)
        return self._answer(view)

    def qr(self, args: str) -> dict[str, Any]:
        """QR: the shop's QR for the amount, waited for (counter/qr_sales.py)."""
        if not args:
            raise LineError(_("QR needs an amount: QR <amount> [REF=<sale_ref>] "
                              "[PROVIDER=<wallet>] [description]"))
        to_pay, sale_ref, provider, description = self._amount_and_options(args)
        wallet = shop_qr_wallet(self.counter.payments.wallets, provider)
        if wallet is None:
            raise LineError(_("no wallet of this counter shows a QR for the customer: "
                              "nothing was charged"))
        if sale_ref is not None:  # at most one payment per sale, as PAY REF= (SaleDesk.qr)
            shown: list[str | None] = []
            view = self.desk.qr(sale_ref, to_pay, provider=wallet, description=description,
                                stop=self.stop, on_shown=shown.append)
            answer = answers.payment_answer(
                view, qr_content=shown[0] if shown else view.qr_code or view.order_url)
        else:
            ended = qr_sale(self.counter.payments, to_pay, provider=wallet,
                            description=description, cancel=self.stop)
            answer = answers.payment_answer(ended.view, **ended.extra())
        return {"ok": answer["outcome"] == answers.Verdict.PAID.value, **answer}

    def sale_status(self, sale_ref: str) -> dict[str, Any]:
        view = self.counter.payments.find_by_sale_ref(sale_ref)
        if view is None:
            raise LineError(_("no payment for sale {sale_ref}: it was never charged here "
                              "(PAY <amount> REF={sale_ref} charges it)").format(
                                  sale_ref=sale_ref))
        answer = answers.payment_answer(self.counter.payments.status(view.app_trans_id))
        return {"ok": answer["outcome"] == answers.Verdict.PAID.value, **answer}

    def _answer(self, view: PaymentView, code: ScannedCode | None = None) -> dict[str, Any]:
        if answers.of_payment(view) is answers.Verdict.UNKNOWN:  # given up: returned if late
            view = self.counter.payments.abandon(view.app_trans_id)
        answer = answers.payment_answer(view)
        return {"ok": answer["outcome"] == answers.Verdict.PAID.value,
                "code": code.masked if code is not None else mask_last4(view.code_last4),
                **answer}

    def refund(self, args: str) -> dict[str, Any]:
        """REFUND: authorised (a supervisor's id and PIN once one exists) before anything is
        recorded or sent; journaled with who asked (CASHIER=, else the payment's cashier) and
        who authorised."""
        parts, options = _options(args, ("SUPERVISOR", "PIN", "CASHIER"))
        if len(parts) == 3 and parts[2].lower() in CURRENCY_MARKS:  # "REFUND <id> 5.000 đ"
            parts = [parts[0], f"{parts[1]} {parts[2]}"]
        if not 1 <= len(parts) <= 2:
            raise LineError(_("REFUND needs an app_trans_id and optionally an amount: "
                              "{usage}").format(usage=REFUND_USAGE))
        amount = _refused(parse_refund_amount(parts[1])) if len(parts) == 2 else None
        try:
            asked_by = (self.counter.cashiers.asking(options["CASHIER"])
                        if "CASHIER" in options else None)
            authorised_by = self.counter.cashiers.authorise(options.get("SUPERVISOR"),
                                                            options.get("PIN"))
        except AuthorityRequired:
            raise LineError(_("a supervisor must authorise a refund: send {usage} with a "
                              "supervisor's id and PIN. Nothing was sent.").format(
                                  usage=REFUND_USAGE)) from None
        except Exception as exc:  # a refusal, or the journal unreadable: nothing is sent
            raise LineError(_("{reason} Nothing was sent.").format(
                reason=_message(exc))) from None
        refund = self.counter.refunds.create(parts[0], amount, cancel=self.stop,
                                             cashier_id=asked_by, authorised_by=authorised_by)
        return {"ok": refund.state.value != "failed", **answers.refund_answer(refund)}

    def wait_for_code(self) -> ScannedCode:
        if self.scanner is None:
            raise LineError(_("no scanner: start with --scanner SPEC to take payment codes"))
        code = self.scanner.wait_for_code(self.scan_timeout_s, self.stop)
        if code is not None:
            return code
        if self.stop.is_set():
            raise LineError(_("stopped before a payment code was read: nothing was charged"))
        raise LineError(_("no payment code read within {seconds} s: nothing was charged; "
                          "send PAY again when the customer is ready").format(
                              seconds=f"{self.scan_timeout_s:g}"))

    def close(self) -> None:
        if self.scanner is not None:
            self.scanner.stop()


def serve(counter: Counter, source_factory: Callable[[], ScanSource | None],
          inp: Iterable[str | bytes], out: Writer, *, scan_timeout_s: float = 60.0,
          ledger: LedgerStatus | None = None) -> None:
    """The whole session: announce readiness, answer lines until QUIT or end of input.

    `ledger` (with a fleet ledger configured) gives the background sync's status: in READY
    and as the answer to LEDGER."""
    counter.reconcile()  # on start, every payment a previous run left open is resolved
    loop = CounterLoop(counter, source_factory(), out, scan_timeout_s=scan_timeout_s,
                       ledger=ledger)
    previous: dict[signal.Signals, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, loop.on_signal)
    done = threading.Event()
    reconciler = start_reconciler(counter, done, "headless-reconcile",
                                  every_s=lambda: RECONCILE_EVERY_S, busy=lambda: loop.busy)
    try:
        ready: dict[str, Any] = {"ok": True, "command": "READY",
                                 "scanner": loop.source.spec if loop.source else None,
                                 "pending": counter.payments.pending_count()}
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


def _sale_ref(word: str) -> str:
    try:
        return check_ref(word[len(REF):], "REF")
    except SaleRefused as exc:
        raise LineError(exc.message) from None
