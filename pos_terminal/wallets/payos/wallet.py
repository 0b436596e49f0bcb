"""payOS behind the checkout's wallet port: the shop shows a VietQR (a hosted order), the
checkout follows it with status queries. payOS takes no customer's code and has no refund call:
both are refused before anything is recorded or sent, with a sentence saying what to do."""

from __future__ import annotations

import time
from typing import NoReturn

from pos_terminal.base.reasons import Reason
from pos_terminal.base.wallet_errors import NoAnswer, NotSent, ServiceRefused, UnreadableAnswer
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
    WalletOutcome,
)
from pos_terminal.wallets.answer_fields import AnswerFields
from pos_terminal.wallets.errors import FieldError
from pos_terminal.wallets.port_parts import TerminalOrderIds
from pos_terminal.wallets.request_fields import check_amount

from . import codes
from .client import INVALID_DATA, WALLET_NAME, Account, PayOSAnswer, PayOSClient, new_order_code

GENERATION = "payos-v2"
#: the minimum payOS takes is unpublished (1,000 or 2,000 reported): keep the reported one
LIMITS = (2_000, 10_000_000_000)
_FIELDS = AnswerFields(WALLET_NAME)


def _code(answer: PayOSAnswer) -> int:
    return int(answer.code) if answer.code.isdigit() else -1


class PayOSWallet(TerminalOrderIds):
    """The checkout's WalletPort over payOS's payment requests (merchant-presented)."""

    generation: str = GENERATION
    wallet_name: str = WALLET_NAME

    def __init__(self, account: Account, *, terminal_id: str,
                 client: PayOSClient | None = None) -> None:
        self.account = account
        self.client = client if client is not None else PayOSClient(account)
        self._terminal_id = terminal_id

    def new_order_id(self, now_ms: int) -> str:
        return new_order_code(now_ms)

    # --- the shop's QR ------------------------------------------------------------------------
    def check_hosted_order(self, order: HostedOrder) -> None:
        check_amount(WALLET_NAME, "payment", order.amount, LIMITS)

    def create_hosted_order(self, order: HostedOrder) -> HostedOrderAnswer:
        expires = int(time.time()) + self.account.expire_s
        answer = self.client.create(order.order_id, order.amount, expires)
        if answer.code == INVALID_DATA:  # refused: nothing was created
            raise ServiceRefused(Reason.of("declined.code", code=_code(answer),
                                           detail=answer.desc, detail_vi=answer.desc),
                                 _code(answer), None, answer.desc)
        if answer.data is None:  # any other code: a request may exist; the status tells
            raise UnreadableAnswer(f"{WALLET_NAME} answered code {answer.code} to the payment "
                                   f"request ({answer.desc}): nothing is known yet")
        data = answer.data
        if str(data.get("orderCode")) != order.order_id:
            raise UnreadableAnswer(f"{WALLET_NAME}'s answer names another payment request")
        qr = _FIELDS.text(data, "qrCode") or None
        url = _FIELDS.text(data, "checkoutUrl") or None
        return HostedOrderAnswer(0, answer.desc, url, qr,
                                 _FIELDS.text(data, "paymentLinkId") or None)

    def query_charge(self, order_id: str, amount: int) -> ChargeAnswer:
        answer = self.client.get(order_id)
        if answer.data is None:  # "101" unknown id, or any other code: says nothing
            return ChargeAnswer(
                outcome=WalletOutcome.REFUSED_REQUEST,
                why=Reason.of("unknown.no_information", wallet=WALLET_NAME, code=_code(answer),
                              detail=answer.desc),
                return_code=_code(answer), sub_return_code=None,
                service_message=answer.desc, code=_code(answer), order_id=order_id)
        data = answer.data
        named = str(data.get("orderCode", ""))
        status = _FIELDS.text(data, "status")
        asked = _FIELDS.integer(data, "amount")
        paid = _FIELDS.integer(data, "amountPaid") or 0
        wanted = asked if asked is not None else amount
        outcome = codes.outcome(status, wanted, paid)
        why = self._why(status, outcome, wanted, paid)
        return ChargeAnswer(
            outcome=outcome, why=why, return_code=0, sub_return_code=None,
            service_message=status, code=0, order_id=named or order_id,
            transaction_id=_FIELDS.text(data, "id") or None,
            amount=wanted if outcome is WalletOutcome.PAID else None)

    @staticmethod
    def _why(status: str, outcome: WalletOutcome, amount: int, paid: int) -> Reason:
        if outcome is WalletOutcome.PAID:
            return Reason.of("paid")
        if outcome is WalletOutcome.DECLINED:
            return Reason.of("shop_qr.closed", wallet=WALLET_NAME, status=status)
        if paid > 0 and status in codes.CLOSED:
            return Reason.of("shop_qr.closed_with_money", wallet=WALLET_NAME, amount=paid,
                             ordered=amount, missing=max(amount - paid, 0))
        if paid > 0:
            return Reason.of("shop_qr.underpaid", wallet=WALLET_NAME, amount=paid,
                             ordered=amount, missing=max(amount - paid, 0))
        if outcome is WalletOutcome.PROCESSING:
            return Reason.of("gateway.waiting")
        return Reason.of("unknown.no_information", wallet=WALLET_NAME, code=0, detail=status)

    def cancel_hosted_order(self, order_id: str, amount: int) -> None:
        """Close the shown QR (the cashier gives up); the status query that follows decides."""
        self.client.cancel(order_id, "cashier cancelled")

    # --- what payOS does not do ---------------------------------------------------------------
    def _no_codes(self) -> NoReturn:
        raise FieldError("payment_code", Reason.of("wallet.shop_qr_only", wallet=WALLET_NAME))

    def prepare_charge(self, order: Order, payment_code: str) -> PreparedCharge:
        self._no_codes()

    def send_charge(self, prepared: PreparedCharge) -> ChargeAnswer:
        self._no_codes()

    def _no_refunds(self) -> NoReturn:
        raise FieldError("refund", Reason.of("wallet.no_refunds", wallet=WALLET_NAME))

    def check_refund(self, refund: Refund) -> None:
        self._no_refunds()

    def refund(self, refund: Refund) -> RefundAnswer:
        self._no_refunds()

    def query_refund(self, refund_id: str, order_id: str, amount: int) -> RefundAnswer:
        self._no_refunds()

    def list_banks(self) -> BankList:
        return BankList(banks_by_pmcid={}, raw={})

    def check_service(self, probe_order_id: str) -> tuple[ServiceCheck, str]:
        """A GET of a request that does not exist: code "101" means payOS took the keys."""
        probe = "".join(ch for ch in probe_order_id if ch.isdigit())[-15:] or "1"
        try:
            answer = self.client.get(probe)
        except NotSent as exc:
            return ServiceCheck.UNREACHABLE, exc.cause
        except (NoAnswer, UnreadableAnswer) as exc:
            return ServiceCheck.UNREACHABLE, str(exc.message)
        said = f"{WALLET_NAME} code {answer.code}: {answer.desc}"
        if answer.code in ("00", "101"):
            return ServiceCheck.OK, f"{WALLET_NAME} answers and accepts this terminal's keys"
        return ServiceCheck.REFUSED, said

    def close(self) -> None:
        self.client.close()
