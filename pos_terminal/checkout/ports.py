"""What the checkout needs from the wallet client and the journal store, as interfaces.

The checkout depends on these Protocols, not on the classes behind them: each wallet's client
(its package of pos_terminal.wallets) and `Journal` (journal/store.py, SQLite) satisfy them
today; another wallet or another store satisfies them to take their place. The wallet port
speaks the terminal's own types only (base/wallet_types.py): the checkout imports nothing of
pos_terminal.wallets (an import-linter contract). The journal is asked for through a narrow
port per use (`ChargeJournal` for the engine, `RefundJournal`, `RecoveryJournal`...), each made
of the few Journal methods that use calls; `CheckoutJournal` is all of them, what a Checkout is
given. `CheckoutContext[J]` is the part of `Checkout` its helpers (gateway, recovery, refunds,
late charges) use, with their port as J, so none of them imports the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, overload, runtime_checkable

from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_types import (
    BankList,
    ChargeAnswer,
    HostedOrder,
    HostedOrderAnswer,
    Order,
    PreparedCharge,
    Refund,
    RefundAnswer,
    ServiceCheck,
)
from pos_terminal.config import Settings
from pos_terminal.journal import PaymentView, RefundView
from pos_terminal.journal.machine import Answer
from pos_terminal.journal.states import PaymentEvent, RefundEvent


class WalletPort(Protocol):
    """A wallet provider, as the checkout uses it, in the terminal's own types
    (base/wallet_types.py). Raises base/wallet_errors: NoAnswer and UnreadableAnswer mean
    "outcome unknown", NotSent "nothing reached the service", MismatchedAnswer "an answer about
    another order", ServiceRefused "a hosted order or a refund refused"; anything the provider
    refuses before sending (a WalletError of its own, or InvalidPayment) comes out of
    `prepare_charge`, `check_refund` and `check_hosted_order`, before anything is recorded.

    Each wallet is a package of its own with a class that has these methods, built by its
    declaration's `client` (pos_terminal/wallet_registry.py; tests/checkout/second_wallet/ is
    one too).

    A status query names the payment's order id and its amount, a refund (and its status query)
    the payment's order id and the refund's amount: a wallet whose checks require the original
    amount finds it there. Every answer names the order (or refund) it is about: an answer that
    names none cannot be tied to its payment, and the checkout records that it could not (never
    applies it, never drops it silently); a client whose service leaves the name out of an
    answer to its own request ties it to that request (pos_terminal.wallets.answers)."""

    #: The protocol spoken, journaled with each payment (the wallet's name for its API's
    #: version, e.g. "v2").
    generation: str

    def new_order_id(self, now_ms: int) -> str: ...
    def new_refund_id(self, now_ms: int) -> str: ...
    def prepare_charge(self, order: Order, payment_code: str) -> PreparedCharge: ...
    def send_charge(self, prepared: PreparedCharge) -> ChargeAnswer: ...
    def query_charge(self, order_id: str, amount: int) -> ChargeAnswer: ...
    def check_refund(self, refund: Refund) -> None: ...
    def refund(self, refund: Refund) -> RefundAnswer: ...
    def query_refund(self, refund_id: str, order_id: str, amount: int) -> RefundAnswer: ...
    def check_hosted_order(self, order: HostedOrder) -> None: ...
    def create_hosted_order(self, order: HostedOrder) -> HostedOrderAnswer: ...
    def list_banks(self) -> BankList: ...
    def check_service(self, probe_order_id: str) -> tuple[ServiceCheck, str]: ...
    def close(self) -> None: ...


@runtime_checkable
class HoldingWallet(Protocol):
    """A provider that can hold a payment's money (two-step: it answers AUTHORISED) and then
    take it (`capture`: PAID) or release it (`void`: DECLINED); any other answer decides
    nothing, the status query does (checkout/two_step.py): a wallet whose declaration says
    `hold_capture`."""

    def capture(self, order_id: str, amount: int) -> ChargeAnswer: ...
    def void(self, order_id: str, amount: int) -> ChargeAnswer: ...


@runtime_checkable
class CancellableOrder(Protocol):
    """A shop-QR provider whose shown order can be closed when the cashier gives up (a bank
    transfer's QR). What it answers decides nothing: the status query after it does (money
    that already arrived keeps the payment open, never "not paid")."""

    def cancel_hosted_order(self, order_id: str, amount: int) -> object: ...


class Answers(Protocol):
    """What recording a wallet's answer needs (outcomes.py): every move by `apply` (the state
    table's (state, event) -> move, journal/machine.py), the row read back, the lease given up.
    Every other port below builds on it."""

    @overload
    def apply(self, subject: RefundView, event: RefundEvent, answer: Answer | None = ...,
              *, message: Reason | str, count_poll: bool = ..., release: bool = ...,
              grace_s: float = ..., reason: str = ..., who: str = ...,
              cashier_id: str | None = ...) -> RefundView: ...
    @overload
    def apply(self, subject: PaymentView | str, event: PaymentEvent,
              answer: Answer | None = ..., *, message: Reason | str, count_poll: bool = ...,
              release: bool = ..., grace_s: float = ..., reason: str = ..., who: str = ...,
              cashier_id: str | None = ...) -> PaymentView: ...
    def get(self, app_trans_id: str) -> PaymentView: ...
    def release(self, app_trans_id: str) -> None: ...
    def get_refund(self, m_refund_id: str) -> RefundView: ...
    def refund_release(self, m_refund_id: str) -> None: ...


class Clock(Protocol):
    def now(self) -> int: ...


class Intents(Protocol):
    """The intent, written before anything is sent (a quick pay, a gateway order)."""

    def record_intent(
        self, *, app_trans_id: str, amount: int, generation: str, kind: str = ...,
        description: str = ..., items: Sequence[Any] = ..., payment_code: str | None = ...,
        payload_hash: str | None = ..., message: Reason | str = ..., now: int | None = ...,
        lease_ttl_ms: int | None = ..., code_window_ms: float | None = ...,
        cashier_id: str | None = ..., sale_ref: str | None = ..., provider: str = ...,
    ) -> PaymentView: ...


class ChargeJournal(Answers, Clock, Intents, Protocol):
    """The engine's charge (engine.Checkout.pay), its polling (follow, status, query_once) and
    its own upkeep: the code's earlier payments, the sale's reference, the send's lease."""

    def fingerprint(self, code: str) -> str: ...
    def payments_with_code(self, code: str) -> list[PaymentView]: ...
    def find_by_sale_ref(self, sale_ref: str) -> PaymentView | None: ...
    def claim_send(self, app_trans_id: str, ttl_ms: int) -> bool: ...
    def pending_count(self) -> int: ...
    def close(self) -> None: ...


class GatewayJournal(Answers, Clock, Intents, Protocol):
    """A web-gateway order (gateway.py): its intent, then its answer."""


class RefundJournal(Answers, Clock, Protocol):
    """Refund rows (refunds.py): born REFUNDING before the request leaves, settled with their
    event."""

    def record_refund_intent(
        self, *, m_refund_id: str, app_trans_id: str, amount: int | None, description: str,
        request_ms: int, message: Reason | str = ..., lease_ttl_ms: int | None = ...,
        cashier_id: str | None = ..., auto: bool = ..., authorised_by: str | None = ...,
        refund_ref: str | None = ...,
    ) -> RefundView: ...
    def find_refund_by_ref(self, refund_ref: str) -> RefundView | None: ...
    def refund_claim_send(self, m_refund_id: str, ttl_ms: int) -> bool: ...
    def record_returned_by_shop(
        self, *, m_refund_id: str, app_trans_id: str, amount: int | None, description: str,
        message: Reason, reason: str, who: str, cashier_id: str | None = ...,
        authorised_by: str | None = ...,
    ) -> RefundView: ...


class LateChargeJournal(RefundJournal, Protocol):
    """Late charges (late_charges.py): the ones to return, and the refund that returned one
    (returning one is a refund)."""

    def late_charges_to_return(self, since_ms: int) -> list[PaymentView]: ...
    def auto_refund_of(self, app_trans_id: str) -> RefundView | None: ...


class RecoveryJournal(LateChargeJournal, Protocol):
    """Reconciliation (recovery.py): what is open, and what failed lately (it may land late);
    it settles open refunds and sweeps late charges too."""

    def pending(self, limit: int | None = ...) -> list[PaymentView]: ...
    def pending_refunds(self) -> list[RefundView]: ...
    def failed_since(self, since_ms: int) -> list[PaymentView]: ...


class CheckoutJournal(ChargeJournal, GatewayJournal, RecoveryJournal, Protocol):
    """The store a Checkout is given: every use's port at once, nothing more (journal.Journal is
    the SQLite one). Each helper module asks its context for its own port only."""


J_co = TypeVar("J_co", covariant=True)


class CheckoutContext(Protocol[J_co]):
    """What gateway orders, refunds, late charges and reconciliation use of a Checkout; `J_co`
    is the journal port of that use (`CheckoutContext[RefundJournal]`...)."""

    settings: Settings
    client: WalletPort  # the default provider's (hosted orders)
    default_provider: str

    @property
    def journal(self) -> J_co: ...
    @property
    def requests_sent(self) -> int: ...
    def count_request(self) -> None: ...
    def client_for(self, provider: str) -> WalletPort: ...
    def lease_ttl_ms(self, provider: str | None = None) -> int: ...
    def validate_amount(self, amount: object) -> int: ...
    def rows_in_flight(self) -> frozenset[str]: ...
    def query_once(self, view: PaymentView) -> PaymentView: ...
