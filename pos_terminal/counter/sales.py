"""Payments under the sale system's own reference (`sale_ref`): the Terminal API and the line
protocol's `PAY ... REF=` share this desk, so both give the same guarantees.

- **Once per sale.** The journal holds `sale_ref` with the payment's intent, in its write
  transaction and under a unique index: two requests, two threads or two processes can never
  both charge one sale. Inside one process a request for a sale already under way waits for that
  payment's answer instead of starting anything.
- **Same request, same answer.** The same `sale_ref` again answers with its payment (a status
  query first while it is open); with another amount, or another payment code, it is refused
  (SaleConflict) and nothing is charged.
- **Abort.** Stops waiting for a scan (nothing charged), or stops following: the payment is then
  abandoned as the UI does (`Counter.abandon`), so a late charge is returned automatically.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from pos_terminal.base.errors import ExitCode, PosError
from pos_terminal.base.i18n import _
from pos_terminal.base.money import format_vnd
from pos_terminal.base.wallet_types import Item
from pos_terminal.checkout.errors import Stopped
from pos_terminal.checkout.providers import UnknownProvider
from pos_terminal.checkout.validation import check_code, check_description
from pos_terminal.counter.payments import UNRESOLVED, SaleLine, ScannedCode
from pos_terminal.counter.qr_sales import qr_sale
from pos_terminal.counter.scanning import Scanner
from pos_terminal.counter.session import Counter
from pos_terminal.journal import PaymentView, SaleRefTaken

_REF_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:/-")
MAX_REF = 64


class SaleRefused(PosError):
    """A sale request refused before anything was charged; `code` names the case for the
    Terminal API's error table."""

    exit_code = ExitCode.NOTHING_SENT
    code = "refused"


class SaleConflict(SaleRefused):
    """The same sale_ref (or refund_ref) with another amount, payment code or payment."""

    code = "ref_conflict"


class ScannerBusy(SaleRefused):
    code = "scanner_busy"


class NoScanner(SaleRefused):
    code = "no_scanner"


class NoCodeRead(SaleRefused):
    code = "no_code_read"


class Aborted(SaleRefused):
    code = "aborted"


def check_ref(ref: object, what: str = "sale_ref") -> str:
    """A reference as the sale system sends it: 1 to 64 letters, digits and `_.:/-`."""
    if not isinstance(ref, str) or not 1 <= len(ref) <= MAX_REF or not set(ref) <= _REF_CHARS:
        raise SaleRefused(_("{what} must be 1 to {most} letters, digits or _ . : / - "
                            "(no spaces), got {ref}").format(what=what, most=MAX_REF,
                                                            ref=repr(str(ref)[:80])))
    return ref


@dataclass
class _Running:
    """A payment of this process under way for one sale."""

    sale_ref: str
    amount: int
    code: str | None  # what the request brought (never shown; compared by fingerprint)
    stop: threading.Event  # abort (or the caller's signal): stop waiting, send nothing more
    done: threading.Event = field(default_factory=threading.Event)
    app_trans_id: str | None = None
    error: BaseException | None = None
    provider: str | None = None  # the wallet the request named (None: the code decides)


class SaleDesk:
    """Idempotent payments under `sale_ref` over one Counter (thread-safe)."""

    def __init__(self, counter: Counter, scanner: Scanner | None = None, *,
                 scan_timeout_s: float = 60.0) -> None:
        self.counter = counter
        self.scanner = scanner
        self.scan_timeout_s = scan_timeout_s
        self._lock = threading.Lock()
        self._running: dict[str, _Running] = {}
        self._scanning: str | None = None  # the sale waiting for the counter's scanner

    # ------------------------------------------------------------------ pay
    def pay(self, sale_ref: str, amount: int, code: str | None = None, *,
            description: str = "", items: Sequence[Item | SaleLine] = (),
            deadline_s: float | None = None,
            stop: threading.Event | None = None, provider: str | None = None) -> PaymentView:
        """The payment of this sale: charged once (with `code`, or the next code the counter's
        scanner reads), followed until final or the deadline. Raises SaleRefused (and its
        kinds) or what Counter.pay raises before anything is recorded."""
        check_ref(sale_ref)
        if provider is not None and provider not in self.counter.payments.wallets:
            raise UnknownProvider(provider, self.counter.payments.wallets)
        amount = self.counter.payments.validate_amount(amount)
        if code is not None:
            code = check_code(code)
        description = check_description(description)
        lines = tuple(items)  # checked by Checkout.pay before anything is recorded
        with self._lock:
            run = self._running.get(sale_ref)
            existing = None
            if run is not None:
                self._same(run.amount, amount, run.code, code, sale_ref)
            else:
                existing = self.counter.payments.find_by_sale_ref(sale_ref)
                if existing is not None:
                    self._same_as_row(existing, amount, code)
                else:
                    if code is None:
                        self._take_scanner(sale_ref)
                    mine = _Running(sale_ref, amount, code, stop or threading.Event(),
                                    provider=provider)
                    self._running[sale_ref] = mine
        if run is not None:
            run.done.wait()
            return self._answer_of(run)
        if existing is not None:
            return self._current(existing)
        with self._released(mine):
            return self._charge(mine, description, lines, deadline_s)

    def qr(self, sale_ref: str, amount: int, *, provider: str, description: str = "",
           deadline_s: float | None = None, stop: threading.Event | None = None,
           on_shown: Callable[[str | None], None] | None = None) -> PaymentView:
        """The payment of this sale by the shop's QR (counter/qr_sales.py): created once,
        `on_shown` told its QR, followed until final or the deadline. The same sale_ref again
        answers with its payment (another amount: SaleConflict)."""
        check_ref(sale_ref)
        amount = self.counter.payments.validate_amount(amount)
        description = check_description(description)
        with self._lock:
            row = self.counter.payments.find_by_sale_ref(sale_ref)
            if row is not None or sale_ref in self._running:
                if row is not None:
                    self._same_as_row(row, amount, None)
                    return self._current(row)
                raise SaleConflict(_("Sale {sale_ref} is being paid already: ask for its "
                                     "payment (GET /v1/payments?sale_ref=...). Nothing more was "
                                     "charged.").format(sale_ref=sale_ref))
            mine = _Running(sale_ref, amount, None, stop or threading.Event(), provider=provider)
            self._running[sale_ref] = mine
        with self._released(mine):
            return qr_sale(self.counter.payments, amount, provider=provider,
                           description=description, deadline_s=deadline_s, cancel=mine.stop,
                           sale_ref=sale_ref, on_shown=on_shown).view

    def _take_scanner(self, sale_ref: str) -> None:
        if self.scanner is None:
            raise NoScanner(_("No scanner at this counter: send the payment code read by "
                              "your own scanner (payment_code), or start the terminal with "
                              "--scanner SPEC. Nothing was charged."))
        if self._scanning is not None:
            raise ScannerBusy(_("The counter's scanner is already waiting for a code for sale "
                                "{other}: abort that sale first, or send payment_code. "
                                "Nothing was charged.").format(other=self._scanning))
        self._scanning = sale_ref

    @contextmanager
    def _released(self, run: _Running) -> Iterator[None]:
        """The run ends (answer or error) for whoever waits on it, whatever happens."""
        try:
            yield
        except BaseException as exc:
            run.error = exc
            raise
        finally:
            with self._lock:
                self._running.pop(run.sale_ref, None)
                if self._scanning == run.sale_ref:
                    self._scanning = None
            run.done.set()

    def _charge(self, run: _Running, description: str, lines: Sequence[Item | SaleLine],
                deadline_s: float | None) -> PaymentView:
        code: ScannedCode | str
        sale = self.counter.payments.start_sale()
        if run.code is None:
            assert self.scanner is not None
            self.counter.awaiting_code(run.amount, sale=sale, sale_ref=run.sale_ref)
            scanned = self.scanner.wait_for_code(self.scan_timeout_s, run.stop)
            with self._lock:
                self._scanning = None
            if scanned is None:
                self.counter.sale_cancelled(run.amount, sale=sale, sale_ref=run.sale_ref)
                if run.stop.is_set():
                    raise Aborted(_("Sale {sale_ref} was aborted before a payment code was "
                                    "read: nothing was charged.").format(sale_ref=run.sale_ref))
                raise NoCodeRead(_("No payment code read within {seconds} s for sale "
                                   "{sale_ref}: nothing was charged; send it again when the "
                                   "customer is ready.").format(
                                       seconds=f"{self.scan_timeout_s:g}", sale_ref=run.sale_ref))
            code = scanned
        else:
            code = run.code

        def learn(view: PaymentView) -> None:
            run.app_trans_id = view.app_trans_id

        try:
            view = self.counter.payments.pay(run.amount, code, description=description, items=lines,
                                             deadline_s=deadline_s, cancel=run.stop, stop=run.stop,
                                             on_progress=learn, sale=sale, sale_ref=run.sale_ref,
                                             provider=run.provider)
        except SaleRefTaken as exc:  # another process recorded this sale first
            other = self.counter.payments.get(exc.app_trans_id)
            self._same_as_row(other, run.amount, code.text if isinstance(code, ScannedCode)
                              else code)
            return self._current(other)
        except Stopped:
            raise Aborted(_("Sale {sale_ref} was aborted before its payment was recorded: "
                            "nothing was charged.").format(sale_ref=run.sale_ref)) from None
        if run.stop.is_set() and view.state in UNRESOLVED and not view.needs_review:
            view = self.counter.payments.abandon(view.app_trans_id)
        return view

    def _answer_of(self, run: _Running) -> PaymentView:
        """For a request that waited on the first one: the journal's row of that payment, or
        (nothing recorded) the first one's error."""
        row = self.counter.payments.find_by_sale_ref(run.sale_ref)
        if row is not None:
            return row
        assert run.error is not None
        raise run.error

    def _current(self, view: PaymentView) -> PaymentView:
        """A sale's payment when nobody here is following it: open rows are asked about once."""
        if view.state in UNRESOLVED and not view.needs_review:
            return self.counter.payments.status(view.app_trans_id)
        return view

    # ------------------------------------------------------------------ conflicts
    @staticmethod
    def _same(had_amount: int, amount: int, had_code: str | None, code: str | None,
              sale_ref: str) -> None:
        if had_amount != amount:
            raise SaleConflict(_("Sale {sale_ref} already has a payment of {had}, not "
                                 "{amount}: nothing more was charged. Use a new sale_ref "
                                 "for a new sale.").format(sale_ref=sale_ref,
                                                           had=format_vnd(had_amount),
                                                           amount=format_vnd(amount)))
        if code is not None and had_code is not None and code != had_code:
            raise SaleConflict(_("Sale {sale_ref} is already being paid with another payment "
                                 "code: nothing more was charged.").format(sale_ref=sale_ref))

    def _same_as_row(self, row: PaymentView, amount: int, code: str | None) -> None:
        sale_ref = row.sale_ref or ""
        self._same(row.amount, amount, None, None, sale_ref)
        if code is not None and row.kind == "quick_pay" and not self.counter.payments.code_matches(
                row, code):
            raise SaleConflict(_("Sale {sale_ref} was paid with another payment code "
                                 "(payment {app_trans_id}): nothing more was charged.").format(
                                     sale_ref=sale_ref, app_trans_id=row.app_trans_id))

    # ------------------------------------------------------------------ look and abort
    def waiting(self, sale_ref: str) -> tuple[int, str | None] | None:
        """(amount, app_trans_id) of a payment of this process under way for the sale, whose
        row may not exist yet (waiting for a scan)."""
        with self._lock:
            run = self._running.get(sale_ref)
            return None if run is None else (run.amount, run.app_trans_id)

    def abort_all(self) -> None:
        """Stop every sale under way (the server is stopping): a payment not yet sent is not
        sent, one sent is abandoned (a late charge is returned automatically)."""
        with self._lock:
            running = list(self._running.values())
        for run in running:
            run.stop.set()

    def abort(self, *, sale_ref: str | None = None, app_trans_id: str | None = None,
              wait_s: float = 30.0) -> PaymentView | None:
        """Stop waiting for this sale's scan, or give up following its payment (abandoned: a
        late charge is returned automatically). Returns the payment's row, or None when no
        payment was recorded (nothing charged). Raises UnknownPayment for an id this journal
        does not know and KeyError for a sale_ref it does not know."""
        with self._lock:
            run = next((r for r in self._running.values()
                        if r.sale_ref == sale_ref or (app_trans_id is not None
                                                      and r.app_trans_id == app_trans_id)),
                       None)
        if run is not None:
            run.stop.set()
            if run.app_trans_id is None:
                # waiting for a scan or about to record: it stops at once, nothing sent
                run.done.wait(wait_s)
            # else a send may hang at the wallet for its whole timeout: the abort does not wait
            # for it; the payment is abandoned below (a late charge is returned)
            sale_ref = run.sale_ref
        payments = self.counter.payments
        row = (payments.get(app_trans_id) if app_trans_id is not None
               else payments.find_by_sale_ref(sale_ref) if sale_ref is not None else None)
        if row is None:
            if run is None:
                raise KeyError(sale_ref)
            return None
        if row.state in UNRESOLVED and not row.needs_review:
            row = self.counter.payments.abandon(row.app_trans_id)
        return row

