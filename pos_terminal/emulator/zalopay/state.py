"""The emulated service's books: wallets, payment codes, orders, refunds and the ledger.

All mutation happens under one lock, so HTTP handlers (event-loop thread) and in-process control
helpers (test threads) can use it at once. Time-based transitions (processing -> paid, refund
done, order expired) are applied lazily by :meth:`Books.settle` at the start of every operation,
so no background timer is needed.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pos_terminal.emulator.zalopay import wire
from pos_terminal.emulator.zalopay.verify import Refused, bad_data, vn_today

Scenario = Literal["success", "processing_then_paid", "processing_then_failed",
                   "insufficient_balance"]
OrderState = Literal["processing", "succeeded", "failed", "pending", "cancelled", "expired"]


@dataclass(frozen=True)
class WalletSpec:
    id: str
    name: str
    scenario: Scenario
    balance: int


WALLETS: tuple[WalletSpec, ...] = (
    WalletSpec("an", "An Nguyen", "success", 50_000_000),
    WalletSpec("binh", "Binh Tran", "processing_then_paid", 20_000_000),
    WalletSpec("chi", "Chi Le", "processing_then_failed", 20_000_000),
    WalletSpec("dung", "Dung Pham", "insufficient_balance", 0),
)
WALLET_IDS = tuple(spec.id for spec in WALLETS)
CODE_DIGITS = 18
BANK_ERROR_TEXT = "bank error: the payment failed"


@dataclass
class Wallet:
    spec: WalletSpec
    balance: int
    current: str | None = None  # newest code shown by the wallet app


@dataclass
class PaymentCode:
    code: str
    wallet_id: str
    issued_at: float
    expires_at: float
    used_by: str | None = None   # app_trans_id that consumed it


@dataclass
class Order:
    app_trans_id: str
    kind: Literal["quick_pay", "gateway"]
    generation: wire.Generation
    amount: int
    app_user: str
    description: str
    created: float
    state: OrderState
    code: int                      # wire code of a failure (or 1)
    message: str
    zp_trans_id: int
    wallet_id: str | None = None
    charged: bool = False          # appears in the ledger's charges
    resolve_at: float | None = None
    resolve_to: tuple[OrderState, int, str] | None = None
    # gateway orders
    token: str = ""
    bank_code: str = ""
    embed_data: dict[str, object] = field(default_factory=dict)
    expires_at: float | None = None
    pmcid: int | None = None
    paid_bank_code: str = ""
    updated: float = 0.0
    # what a callback carries (as sent by the merchant) and where it goes
    app_time: int = 0
    embed_text: str = "{}"
    item_text: str = "[]"
    callback_url: str = ""
    user_ip: str = ""              # quick pay: the userip the terminal sent


@dataclass
class Refund:
    m_refund_id: str
    refund_id: int
    order: Order
    amount: int
    description: str
    created: float
    state: Literal["processing", "succeeded", "failed"]
    resolve_at: float
    code: int = wire.V2_PROCESSING
    message: str = "refund is processing"


class Books:
    """Thread-safe state of the emulated service."""

    def __init__(self, code_lifetime_s: float, processing_s: float,
                 clock: Callable[[], float] = time.time) -> None:
        self.code_lifetime_s = code_lifetime_s
        self.processing_s = processing_s
        self.clock = clock
        self.lock = threading.RLock()
        self.reset()

    # -- lifecycle ------------------------------------------------------------------------
    def reset(self) -> None:
        with self.lock:
            self.wallets = {spec.id: Wallet(spec, spec.balance) for spec in WALLETS}
            self.codes: dict[str, PaymentCode] = {}
            self.orders: dict[str, Order] = {}
            self.by_zp: dict[int, Order] = {}
            self.by_token: dict[str, Order] = {}
            self.refunds: dict[str, Refund] = {}
            self.charge_log: list[Order] = []
            self.refund_log: list[Refund] = []
            self.requests: Counter[str] = Counter()
            self.requests_by_path: Counter[str] = Counter()
            self._pending: list[Order] = []
            self._pending_refunds: list[Refund] = []
            self._sequence = 0

    def count(self, endpoint: str, path: str) -> None:
        with self.lock:
            self.requests[endpoint] += 1
            self.requests_by_path[path] += 1

    def _next_zp(self, now: float) -> int:
        self._sequence += 1
        return int(f"{vn_today(now)}{self._sequence:09d}")

    # -- time-based transitions --------------------------------------------------------------
    def settle(self, now: float | None = None) -> None:
        now = self.clock() if now is None else now
        with self.lock:
            still: list[Order] = []
            for order in self._pending:
                if order.state == "processing" and order.resolve_at is not None and (
                        now >= order.resolve_at and order.resolve_to is not None):
                    state, code, message = order.resolve_to
                    if state == "failed" and order.wallet_id is not None:
                        self.wallets[order.wallet_id].balance += order.amount  # release the hold
                    order.state, order.code, order.message = state, code, message
                    order.updated = order.resolve_at
                elif order.state == "pending" and order.expires_at is not None and (
                        now >= order.expires_at):
                    order.state, order.code = "expired", wire.TX_EXPIRED
                    order.message = "transaction expired: the order was not paid in time"
                    order.updated = order.expires_at
                if order.state in ("processing", "pending"):
                    still.append(order)
            self._pending = still
            waiting: list[Refund] = []
            for refund in self._pending_refunds:
                if now >= refund.resolve_at:
                    refund.state, refund.code, refund.message = "succeeded", wire.OK, "refunded"
                    if refund.order.wallet_id is not None:
                        self.wallets[refund.order.wallet_id].balance += refund.amount
                else:
                    waiting.append(refund)
            self._pending_refunds = waiting

    # -- payment codes ----------------------------------------------------------------------
    def _issue(self, wallet: Wallet, now: float) -> PaymentCode:
        while True:
            code = f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"
            if code not in self.codes and code[0] != "0":
                break
        record = PaymentCode(code, wallet.spec.id, now, now + self.code_lifetime_s)
        self.codes[code] = record
        wallet.current = code
        return record

    def current_code(self, wallet_id: str, now: float | None = None) -> PaymentCode:
        """The code the wallet app shows now (a new one once the last expired or was used)."""
        now = self.clock() if now is None else now
        with self.lock:
            wallet = self.wallets[wallet_id]
            record = self.codes.get(wallet.current) if wallet.current else None
            if record is None or record.used_by is not None or now >= record.expires_at:
                record = self._issue(wallet, now)
            return record

    def rotate(self, wallet_id: str, count: int = 1) -> list[PaymentCode]:
        """Issue ``count`` new codes now; earlier codes stay valid until their own expiry."""
        now = self.clock()
        with self.lock:
            wallet = self.wallets[wallet_id]
            return [self._issue(wallet, now) for _ in range(count)]

    def wallets_json(self) -> list[dict[str, Any]]:
        now = self.clock()
        with self.lock:
            self.settle(now)
            out = []
            for wallet in self.wallets.values():
                record = self.current_code(wallet.spec.id, now)
                out.append({
                    "id": wallet.spec.id, "name": wallet.spec.name, "balance": wallet.balance,
                    "scenario": wallet.spec.scenario, "code": record.code,
                    "expires_at": int(record.expires_at * 1000),
                })
            return out

    # -- quick pay --------------------------------------------------------------------------
    def find_code(self, code: str) -> PaymentCode | None:
        with self.lock:
            return self.codes.get(code)

    def _record(self, order: Order) -> Order:
        self.orders[order.app_trans_id] = order
        self.by_zp[order.zp_trans_id] = order
        if order.charged:
            self.charge_log.append(order)
        if order.state in ("processing", "pending"):
            self._pending.append(order)
        return order

    def is_duplicate(self, app_trans_id: str) -> bool:
        with self.lock:
            return app_trans_id in self.orders

    def quick_pay(self, *, generation: wire.Generation, app_trans_id: str, app_user: str,
                  amount: int, description: str, raw_code: str, now: float,
                  wallet_fault: Callable[[str], bool], user_ip: str = "") -> Order | None:
        """Charge the wallet behind ``raw_code``; ``None`` when a wallet fault stops it first.

        ``wallet_fault(wallet_id)`` is asked once the wallet is known and returns True when the
        request must not be committed (the fault answers instead).
        Raises :class:`verify.Refused` for a duplicate app_trans_id.
        """
        with self.lock:
            self.settle(now)
            if app_trans_id in self.orders:
                raise Refused(wire.DUPLICATE, f"duplicate {_name(generation, 'app_trans_id')}: "
                                              "this order exists already; query its status")
            record = self.codes.get(raw_code)
            zp_trans_id = self._next_zp(now)

            def make(state: OrderState, code: int, message: str, wallet_id: str | None = None,
                     charged: bool = False, resolve_to: tuple[OrderState, int, str] | None = None
                     ) -> Order:
                return self._record(Order(
                    app_trans_id=app_trans_id, kind="quick_pay", generation=generation,
                    amount=amount, app_user=app_user, description=description, created=now,
                    updated=now, zp_trans_id=zp_trans_id, state=state, code=code,
                    message=message, wallet_id=wallet_id, charged=charged,
                    resolve_at=now + self.processing_s if resolve_to else None,
                    resolve_to=resolve_to, user_ip=user_ip))

            field_name = _name(generation, "payment_code")
            if record is None:
                return make("failed", wire.BAD_DATA,
                            f"invalid request data: {field_name}: unknown payment code")
            if wallet_fault(record.wallet_id):
                return None
            if record.used_by is not None:
                return make("failed", wire.CODE_EXPIRED, "payment code already used",
                            record.wallet_id)
            if now >= record.expires_at:
                return make("failed", wire.CODE_EXPIRED,
                            "payment code expired, customer not charged", record.wallet_id)
            record.used_by = app_trans_id
            wallet = self.wallets[record.wallet_id]
            if amount > wallet.balance:
                return make("failed", wire.INSUFFICIENT, "insufficient balance in the wallet",
                            wallet.spec.id, charged=True)
            wallet.balance -= amount
            scenario = wallet.spec.scenario
            if scenario == "processing_then_paid":
                return make("processing", wire.V2_PROCESSING, "transaction is processing",
                            wallet.spec.id, charged=True,
                            resolve_to=("succeeded", wire.OK, "success"))
            if scenario == "processing_then_failed":
                return make("processing", wire.V2_PROCESSING, "transaction is processing",
                            wallet.spec.id, charged=True,
                            resolve_to=("failed", wire.BANK_ERROR, BANK_ERROR_TEXT))
            return make("succeeded", wire.OK, "success", wallet.spec.id, charged=True)

    def order(self, app_trans_id: str, now: float | None = None) -> Order | None:
        with self.lock:
            self.settle(now)
            return self.orders.get(app_trans_id)

    # -- gateway ----------------------------------------------------------------------------
    def create_gateway_order(self, *, generation: wire.Generation, app_trans_id: str,
                             app_user: str, amount: int, description: str, bank_code: str,
                             embed_data: dict[str, object], expire_s: int, now: float,
                             app_time: int = 0, embed_text: str = "{}", item_text: str = "[]",
                             callback_url: str = "") -> Order:
        with self.lock:
            self.settle(now)
            if app_trans_id in self.orders:
                raise Refused(wire.DUPLICATE, f"duplicate {_name(generation, 'app_trans_id')}: "
                                              "this order exists already; query its status")
            order = Order(app_trans_id=app_trans_id, kind="gateway", generation=generation,
                          amount=amount, app_user=app_user, description=description, created=now,
                          updated=now, state="pending", code=wire.V2_PROCESSING,
                          message="the order is waiting for payment",
                          zp_trans_id=self._next_zp(now), token=secrets.token_urlsafe(16),
                          bank_code=bank_code, embed_data=embed_data, expires_at=now + expire_s,
                          app_time=app_time, embed_text=embed_text, item_text=item_text,
                          callback_url=callback_url)
            self.by_token[order.token] = order
            return self._record(order)

    def gateway_order(self, token: str) -> Order | None:
        with self.lock:
            self.settle()
            return self.by_token.get(token)

    def pay_gateway_order(self, token: str, wallet_id: str, pmcid: int,
                          bank_code: str) -> Order | None:
        """Pay a pending order from a wallet; the order (possibly failed) or None if unknown."""
        now = self.clock()
        with self.lock:
            self.settle(now)
            order = self.by_token.get(token)
            if order is None or order.state != "pending":
                return order
            wallet = self.wallets[wallet_id]
            order.wallet_id, order.pmcid, order.paid_bank_code = wallet_id, pmcid, bank_code
            order.updated = now
            order.charged = True
            self.charge_log.append(order)
            if order.amount > wallet.balance:
                order.state, order.code = "failed", wire.INSUFFICIENT
                order.message = "insufficient balance in the wallet"
            elif wallet.spec.scenario == "processing_then_failed":
                order.state, order.code = "failed", wire.BANK_ERROR
                order.message = BANK_ERROR_TEXT
            else:
                wallet.balance -= order.amount
                order.state, order.code, order.message = "succeeded", wire.OK, "success"
            return order

    def cancel_gateway_order(self, token: str) -> Order | None:
        now = self.clock()
        with self.lock:
            self.settle(now)
            order = self.by_token.get(token)
            if order is not None and order.state == "pending":
                order.state, order.code = "cancelled", wire.USER_CANCELLED
                order.message = "the user cancelled the payment"
                order.updated = now
            return order

    def expire_gateway_order(self, app_trans_id: str) -> bool:
        """Let an unpaid gateway order's time run out now (tests of the expiry path)."""
        now = self.clock()
        with self.lock:
            order = self.orders.get(app_trans_id)
            if order is None or order.state != "pending":
                return False
            order.expires_at = now
            self.settle(now)
            return True

    # -- refunds ----------------------------------------------------------------------------
    def refund(self, *, generation: wire.Generation, m_refund_id: str, zp_trans_id: int,
               amount: int, description: str, now: float) -> Refund:
        names = wire.NAMES[generation]
        with self.lock:
            self.settle(now)
            existing = self.refunds.get(m_refund_id)
            if existing is not None:
                if existing.order.zp_trans_id == zp_trans_id and existing.amount == amount:
                    return existing  # the same request again: no second refund
                raise Refused(wire.DUPLICATE, f"duplicate {names.m_refund_id}: it was used for "
                                              "another refund")
            order = self.by_zp.get(zp_trans_id)
            if order is None:
                raise Refused(wire.NOT_FOUND, f"order not found: no transaction with "
                                              f"{names.zp_trans_id} {zp_trans_id}")
            if order.state != "succeeded":
                raise bad_data(names.zp_trans_id, f"is not a paid transaction ({order.state})")
            remaining = order.amount - sum(
                r.amount for r in self.refund_log if r.order is order and r.state != "failed")
            if amount > remaining:
                raise bad_data(names.amount, f"{amount} is more than what remains to refund "
                                             f"({remaining})")
            refund = Refund(m_refund_id=m_refund_id, refund_id=self._next_zp(now), order=order,
                            amount=amount, description=description, created=now,
                            state="processing", resolve_at=now + self.processing_s)
            self.refunds[m_refund_id] = refund
            self.refund_log.append(refund)
            self._pending_refunds.append(refund)
            return refund

    def find_refund(self, m_refund_id: str, now: float) -> Refund | None:
        with self.lock:
            self.settle(now)
            return self.refunds.get(m_refund_id)

    # -- ledger -----------------------------------------------------------------------------
    def ledger_json(self) -> dict[str, Any]:
        with self.lock:
            self.settle()
            return {
                "charges": [{
                    "app_trans_id": o.app_trans_id, "wallet": o.wallet_id, "amount": o.amount,
                    "zp_trans_id": o.zp_trans_id, "state": o.state, "time": int(o.updated * 1000),
                    "kind": o.kind, "return_code": o.code, "user_ip": o.user_ip,
                } for o in self.charge_log],
                "refunds": [{
                    "m_refund_id": r.m_refund_id, "refund_id": r.refund_id,
                    "zp_trans_id": r.order.zp_trans_id, "app_trans_id": r.order.app_trans_id,
                    "wallet": r.order.wallet_id, "amount": r.amount, "state": r.state,
                    "time": int(r.created * 1000),
                } for r in self.refund_log],
                "requests": dict(self.requests),
                "requests_by_path": dict(self.requests_by_path),
                "balances": {w.spec.id: w.balance for w in self.wallets.values()},
            }


def _name(generation: wire.Generation, attr: str) -> str:
    return str(getattr(wire.NAMES[generation], attr))
