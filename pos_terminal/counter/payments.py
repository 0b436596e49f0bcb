"""`counter.payments`: charge, follow, look up, give up on and settle payments, every step
published on the counter's bus. The rows are read through `PaymentRows`, the four journal
methods this service uses; the money moves through the Checkout."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from pos_terminal.base.codes import mask_code
from pos_terminal.base.errors import cashier_message
from pos_terminal.base.wallet_types import BankList, Item
from pos_terminal.checkout import Checkout, GatewayOrderView
from pos_terminal.checkout.errors import intent_of
from pos_terminal.checkout.late_charges import returns_automatically
from pos_terminal.counter.bus import EventBus
from pos_terminal.counter.events import (
    GatewayShown,
    PaymentError,
    PaymentProgress,
    PaymentSettled,
    PaymentStarted,
    PaymentUnresolved,
    Via,
)
from pos_terminal.counter.notices import take_notice
from pos_terminal.journal import FINAL_STATES, PaymentState, PaymentView

UNRESOLVED = frozenset({PaymentState.SUBMITTING, PaymentState.PROCESSING, PaymentState.UNKNOWN})
Progress = Callable[[PaymentView], None]


class PaymentRows(Protocol):
    """The journal as the payments service reads it."""

    def get(self, app_trans_id: str) -> PaymentView: ...
    def find(self, app_trans_id: str) -> PaymentView | None: ...
    def find_by_sale_ref(self, sale_ref: str) -> PaymentView | None: ...
    def code_matches(self, view: PaymentView, code: str) -> bool: ...


@dataclass(frozen=True)
class SaleLine:
    name: str
    price: int
    quantity: int = 1


@dataclass(frozen=True)
class ScannedCode:
    """A code accepted from a scan source. The raw text stays here (it is sent once, to the
    wallet); everything shown or published uses `masked`."""

    text: str = ""
    source: str = ""

    @property
    def masked(self) -> str:
        return mask_code(self.text)

    def __repr__(self) -> str:  # a code in a traceback or a log is masked too
        return f"ScannedCode({self.masked!r}, {self.source!r})"


def publish_end(bus: EventBus, sale: int | None, view: PaymentView, via: Via, *,
                unresolved_too: bool = True) -> None:
    """A payment's end as the bus says it: settled, or (with `unresolved_too`) still open."""
    if view.state in FINAL_STATES and not view.needs_review:
        bus.publish(PaymentSettled(sale, view, via))
    elif unresolved_too:
        bus.publish(PaymentUnresolved(sale, view))


class PaymentService:
    """The payments of one counter. Thread-safe as the Checkout is."""

    def __init__(self, checkout: Checkout, rows: PaymentRows, bus: EventBus,
                 at_counter: Callable[[], str | None]) -> None:
        self._checkout = checkout
        self._rows = rows
        self._bus = bus
        self._at_counter = at_counter  # the cashier signed in here, if any
        self._sales = itertools.count(1)

    # ---------------------------------------------------------------- a sale
    def start_sale(self) -> int:
        """A new sale number; the events of its payment carry it."""
        return next(self._sales)

    def validate_amount(self, amount: object) -> int:
        """Whole VND within the limits of a payment (InvalidPayment otherwise)."""
        return self._checkout.validate_amount(amount)

    # ---------------------------------------------------------------- pay and follow
    def pay(self, amount: int, code: ScannedCode | str, *, description: str = "",
            items: Sequence[Item | SaleLine] = (), deadline_s: float | None = None,
            cancel: threading.Event | None = None, stop: threading.Event | None = None,
            cashier_id: str | None = None, sale: int | None = None,
            on_progress: Progress | None = None, sale_ref: str | None = None,
            provider: str | None = None) -> PaymentView:
        """Charge once and follow until final, the deadline or `cancel` (Checkout.pay); every
        step is published. Raises what Checkout.pay raises (after publishing PaymentError);
        with `sale_ref`, SaleRefTaken when that sale has a payment already (nothing sent).
        `provider`: the wallet named by the cashier or the sale system (None: routed by the
        code; WalletChoiceNeeded when no wallet or several take it, nothing sent)."""
        scanned = code if isinstance(code, ScannedCode) else ScannedCode(code, "code")
        sale = self.start_sale() if sale is None else sale
        self._bus.publish(PaymentStarted(sale, amount, scanned.masked, scanned.source,
                                         sale_ref))
        try:
            view = self._checkout.pay(
                amount, scanned.text, description=description, items=_items(items),
                on_progress=self._progress(sale, on_progress), deadline_s=deadline_s,
                cancel=cancel, stop=stop, cashier_id=cashier_id, sale_ref=sale_ref,
                provider=provider)
        except Exception as exc:
            self._publish_error(sale, amount, exc)
            raise
        publish_end(self._bus, sale, view, "pay")
        return view

    def follow(self, app_trans_id: str, *, deadline_s: float | None = None,
               cancel: threading.Event | None = None, sale: int | None = None,
               on_progress: Progress | None = None, via: Via = "follow") -> PaymentView:
        """Keep polling the same payment (never charge again)."""
        try:
            view = self._checkout.follow(app_trans_id, deadline_s=deadline_s,
                                         on_progress=self._progress(sale, on_progress),
                                         cancel=cancel)
        except Exception as exc:
            self._publish_error(sale, None, exc, app_trans_id)
            raise
        publish_end(self._bus, sale, view, via)
        return view

    def status(self, app_trans_id: str) -> PaymentView:
        """The journal's view; a pending payment is asked about once first."""
        before = self._rows.find(app_trans_id)
        view = self._checkout.status(app_trans_id)
        if before is not None and (before.state, before.late) != (view.state, view.late):
            publish_end(self._bus, None, view, "status", unresolved_too=False)
        return view

    def recheck(self, app_trans_id: str) -> PaymentView:
        """Its wallet's notice says something happened to it: one status query if the row can
        still change (Checkout.recheck: open, or FAILED however old). A change is published:
        an end (a row flagged for the cashier as unresolved), or progress for a row still open
        (a customer display keeps its QR up); an unchanged row publishes nothing."""
        before = self._rows.get(app_trans_id)
        view = self._checkout.recheck(app_trans_id)
        if _seen(before) == _seen(view):
            return view
        if view.is_final or view.needs_review:
            publish_end(self._bus, None, view, "status")
        else:
            self._bus.publish(PaymentProgress(None, view))
        return view

    def take_notice(self, wallet: str, body: bytes) -> PaymentView | None:
        """Wallet `wallet`'s notice (its webhook's raw body): checked by the wallet, then the
        payment it names is asked about once (counter/notices.py); None: not a payment of this
        journal. NoticeRefused when the notice is not believed (nothing changes)."""
        return take_notice(self._checkout.settings, self, wallet, body)

    def abandon(self, app_trans_id: str, *, cashier_id: str | None = None) -> PaymentView:
        """The cashier gives up waiting for a payment whose outcome is unknown (Progress B, `pay`
        exit 3, headless PAY, quitting during a payment): from now on a success is a late
        charge, returned automatically (`[checkout] late_success`). Returns the row: still
        open, or already settled (its verdict came first: show it)."""
        view = self._checkout.abandon(app_trans_id,
                                      cashier_id=cashier_id or self._at_counter())
        publish_end(self._bus, None, view, "abandon", unresolved_too=False)
        return view

    def override(self, app_trans_id: str, to_state: PaymentState, reason: str, who: str, *,
                 cashier_id: str | None = None) -> PaymentView:
        """Settle an unresolved payment by hand, journaled with its reason and who decided."""
        view = self._checkout.override(app_trans_id, to_state, reason, who,
                                       cashier_id=cashier_id)
        publish_end(self._bus, None, view, "override", unresolved_too=False)
        return view

    @property
    def wallets(self) -> tuple[str, ...]:
        """The wallet providers this counter takes, the default first."""
        return self._checkout.providers.names

    def wallet_of(self, code: str) -> str:
        """The wallet a code would go to (WalletChoiceNeeded / nothing sent: ask or refuse)."""
        return self._checkout.providers.route(code).name

    @property
    def returns_late_charges(self) -> bool:
        """Whether a late charge is refunded automatically (else flagged for review)."""
        return returns_automatically(self._checkout)

    def pending_count(self) -> int:
        return self._checkout.pending_count()

    # ---------------------------------------------------------------- gateway orders
    def create_gateway_order(self, amount: int, description: str = "",
                             bank_code: str = "", *, sale: int | None = None,
                             cashier_id: str | None = None,
                             provider: str | None = None,
                             sale_ref: str | None = None) -> GatewayOrderView:
        """Published as GatewayShown (a customer display shows its QR). Journaled with
        `cashier_id` (None: the cashier signed in here, if any); `provider` a shop-QR wallet
        (None: the default one)."""
        order = self._checkout.create_gateway_order(
            amount, description, bank_code, cashier_id=cashier_id or self._at_counter(),
            provider=provider, sale_ref=sale_ref)
        self._bus.publish(GatewayShown(sale, order.payment))
        return order

    def cancel_gateway_order(self, app_trans_id: str) -> PaymentView:
        """The cashier gives up a shown QR: closed at its provider if it can be, then its
        status (money that arrived keeps it open)."""
        view = self._checkout.cancel_gateway_order(app_trans_id)
        publish_end(self._bus, None, view, "status", unresolved_too=False)
        return view

    def list_banks(self) -> BankList:
        return self._checkout.client.list_banks()

    # ---------------------------------------------------------------- the rows
    def get(self, app_trans_id: str) -> PaymentView:
        """UnknownPayment when the journal has no such payment."""
        return self._rows.get(app_trans_id)

    def find(self, app_trans_id: str) -> PaymentView | None:
        return self._rows.find(app_trans_id)

    def find_by_sale_ref(self, sale_ref: str) -> PaymentView | None:
        return self._rows.find_by_sale_ref(sale_ref)

    def code_matches(self, view: PaymentView, code: str) -> bool:
        """Whether `code` is the one `view` was charged with (by its keyed fingerprint)."""
        return self._rows.code_matches(view, code)

    # ---------------------------------------------------------------- publishing
    def _progress(self, sale: int | None, extra: Progress | None) -> Progress:
        def publish(view: PaymentView) -> None:
            if view.state not in FINAL_STATES:
                self._bus.publish(PaymentProgress(sale, view))
            if extra is not None:
                extra(view)

        return publish

    def _publish_error(self, sale: int | None, amount: int | None, exc: Exception,
                       app_trans_id: str | None = None) -> None:
        subject = app_trans_id or intent_of(exc)
        view = None
        if subject is not None:
            try:
                view = self._rows.get(subject)
            except Exception:
                view = None
        message = cashier_message(exc)
        self._bus.publish(PaymentError(sale, amount if amount is not None else
                                       (view.amount if view else 0), message, subject, view))


def _seen(view: PaymentView) -> tuple[object, ...]:
    """What a front end shows of a payment: a change in it is news."""
    return (view.state, view.late, view.needs_review, view.abandoned, view.why)


def _items(items: Sequence[Item | SaleLine]) -> tuple[Item, ...]:
    return tuple(
        i if isinstance(i, Item) else Item(itemid=str(n + 1), itemname=i.name, itemprice=i.price,
                                           itemquantity=i.quantity)
        for n, i in enumerate(items))
